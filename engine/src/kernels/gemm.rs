//! Matrix multiply `C = A B` three ways: a packed, register-blocked f32 kernel (what the speed
//! benchmark times), an accumulator held in BF16 or FP16 and rounded after every add (what
//! narrow accumulation does to a sum), and an f64 reference.
//!
//! The timed functions are `#[inline]`: their code is generated in the crate that calls them,
//! so the worker and the CLI (built for speed) get fast code while the app stays built for size.
//!
//! Operands are row-major: `A` is M x K, `B` is given transposed as `Bt` (N x K) so both are
//! blocked along the reduction dimension K, as block-scaled formats require.

use alloc::vec;
use alloc::vec::Vec;
use wide::f32x4;

/// Rows of `A` per micro-tile.
const MR: usize = 4;
/// Columns of `B` per micro-tile: two 4-lane vectors.
const NR: usize = 8;
/// Reduction depth per packed panel: a 4 x 256 and a 256 x 8 panel fit in L1 together.
const KC: usize = 256;

/// `C (M x N) = A (M x K) * Bt^T`, in f32 with f32 accumulation.
///
/// The loops are written for the compiler's vectorizer: the 4 x 8 accumulator tile lives in
/// registers, `B`'s panel is read as whole 8-wide rows and `A`'s as 4-wide columns, so the
/// same source becomes 128-bit SIMD natively (SSE2, NEON) and in wasm (`simd128`).
#[must_use]
#[inline]
pub fn gemm_f32(a: &[f32], bt: &[f32], m: usize, n: usize, k: usize) -> Vec<f32> {
    let mut c = vec![0.0f32; m * n];
    if m == 0 || n == 0 || k == 0 {
        return c;
    }
    let tiles = m.div_ceil(MR);
    let mut ap = vec![0.0f32; tiles * MR * KC];
    let mut bp = vec![0.0f32; NR * KC];
    for k0 in (0..k).step_by(KC) {
        let kc = KC.min(k - k0);
        for t in 0..tiles {
            pack_a(
                a,
                k,
                k0,
                kc,
                t * MR,
                m,
                &mut ap[t * MR * kc..(t + 1) * MR * kc],
            );
        }
        for j0 in (0..n).step_by(NR) {
            pack_b(bt, k, k0, kc, j0, n, &mut bp);
            for (t, i0) in (0..m).step_by(MR).enumerate() {
                let tile = micro(&ap[t * MR * kc..(t + 1) * MR * kc], &bp[..NR * kc]);
                let cols = NR.min(n - j0);
                for (r, row) in tile.iter().enumerate().take(MR.min(m - i0)) {
                    let out = &mut c[(i0 + r) * n + j0..][..cols];
                    for (o, v) in out.iter_mut().zip(row) {
                        *o += v;
                    }
                }
            }
        }
    }
    c
}

#[inline]
fn pack_a(a: &[f32], k: usize, k0: usize, kc: usize, i0: usize, m: usize, ap: &mut [f32]) {
    for r in 0..MR {
        let i = i0 + r;
        for p in 0..kc {
            ap[p * MR + r] = if i < m { a[i * k + k0 + p] } else { 0.0 };
        }
    }
}

#[inline]
fn pack_b(bt: &[f32], k: usize, k0: usize, kc: usize, j0: usize, n: usize, bp: &mut [f32]) {
    for l in 0..NR {
        let j = j0 + l;
        for p in 0..kc {
            bp[p * NR + l] = if j < n { bt[j * k + k0 + p] } else { 0.0 };
        }
    }
}

/// The 4 x 8 tile over one panel, in explicit 4-lane vectors: the compiler vectorizes nothing
/// at the size-optimizing levels the app is built with, so the kernel does not rely on it.
#[inline(always)]
fn micro(ap: &[f32], bp: &[f32]) -> [[f32; NR]; MR] {
    let mut c = [[f32x4::ZERO; 2]; MR];
    for (a, b) in ap.chunks_exact(MR).zip(bp.chunks_exact(NR)) {
        let b0 = f32x4::new([b[0], b[1], b[2], b[3]]);
        let b1 = f32x4::new([b[4], b[5], b[6], b[7]]);
        for (row, &ar) in c.iter_mut().zip(a) {
            let av = f32x4::splat(ar);
            row[0] += av * b0;
            row[1] += av * b1;
        }
    }
    let mut out = [[0.0f32; NR]; MR];
    for (o, row) in out.iter_mut().zip(&c) {
        o[..4].copy_from_slice(&row[0].to_array());
        o[4..].copy_from_slice(&row[1].to_array());
    }
    out
}

/// The accumulator a dot product is kept in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Accumulator {
    /// FP32, as tensor cores and Trainium's PSUM accumulate.
    Fp32,
    /// BF16, rounded after every add.
    Bf16,
    /// FP16, rounded after every add (as "HGEMM with FP16 accumulate" does).
    Fp16,
}

impl Accumulator {
    /// Every accumulator.
    pub const ALL: [Accumulator; 3] = [Accumulator::Fp32, Accumulator::Bf16, Accumulator::Fp16];

    /// Stable id used in links and the CLI.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Accumulator::Fp32 => "fp32",
            Accumulator::Bf16 => "bf16",
            Accumulator::Fp16 => "fp16",
        }
    }

    /// From an id.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|a| a.id() == s.trim())
    }

    /// Rounds a partial sum into the accumulator.
    #[must_use]
    #[inline]
    pub fn round(self, x: f32) -> f32 {
        match self {
            Accumulator::Fp32 => x,
            Accumulator::Bf16 => half::bf16::from_f32(x).to_f32(),
            Accumulator::Fp16 => half::f16::from_f32(x).to_f32(),
        }
    }
}

/// `C = A Bt^T` with each product (exact in f32 for inputs of 12 or fewer significand bits)
/// added to an accumulator that is rounded after every add, in K order.
#[must_use]
#[inline]
pub fn gemm_acc(a: &[f32], bt: &[f32], m: usize, n: usize, k: usize, acc: Accumulator) -> Vec<f32> {
    if acc == Accumulator::Fp32 {
        return gemm_f32(a, bt, m, n, k);
    }
    let mut c = vec![0.0f32; m * n];
    for i in 0..m {
        let ar = &a[i * k..(i + 1) * k];
        for j in 0..n {
            let br = &bt[j * k..(j + 1) * k];
            let mut s = 0.0f32;
            for (x, y) in ar.iter().zip(br) {
                s = acc.round(s + x * y);
            }
            c[i * n + j] = s;
        }
    }
    c
}

/// The f64 reference `C = A Bt^T`, from the unrounded inputs.
#[must_use]
#[inline]
pub fn gemm_f64(a: &[f32], bt: &[f32], m: usize, n: usize, k: usize) -> Vec<f64> {
    let mut c = vec![0.0f64; m * n];
    for i in 0..m {
        let ar = &a[i * k..(i + 1) * k];
        for j in 0..n {
            let br = &bt[j * k..(j + 1) * k];
            // Four partial sums: vectorizes, and f64 keeps the order's effect far below f32's.
            let mut s = [0.0f64; 4];
            for (x, y) in ar.chunks_exact(4).zip(br.chunks_exact(4)) {
                for l in 0..4 {
                    s[l] += f64::from(x[l]) * f64::from(y[l]);
                }
            }
            let tail = k - k % 4;
            let mut t = s[0] + s[1] + s[2] + s[3];
            for p in tail..k {
                t += f64::from(ar[p]) * f64::from(br[p]);
            }
            c[i * n + j] = t;
        }
    }
    c
}
