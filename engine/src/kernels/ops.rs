//! Softmax, layer and RMS norm, and an attention tile, each in a chosen accumulator and
//! with an f64 twin as the reference. Reductions run in row order, rounding the running sum
//! into the accumulator after every add.

use super::gemm::{gemm_acc, gemm_f64, Accumulator};
use alloc::vec::Vec;

/// Epsilon of the norms, as PyTorch's default for layer norm.
pub const NORM_EPS: f64 = 1e-5;

/// Row-wise softmax of `rows x cols` values.
#[must_use]
#[inline]
pub fn softmax(x: &[f32], cols: usize, acc: Accumulator) -> Vec<f32> {
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks(cols.max(1)) {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let e: Vec<f32> = row.iter().map(|&v| libm::expf(v - max)).collect();
        let sum = e.iter().fold(0.0f32, |s, &v| acc.round(s + v));
        out.extend(e.iter().map(|&v| v / sum));
    }
    out
}

/// The f64 reference softmax.
#[must_use]
#[inline]
pub fn softmax_f64(x: &[f64], cols: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks(cols.max(1)) {
        let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = row.iter().map(|&v| libm::exp(v - max)).collect();
        let sum: f64 = e.iter().sum();
        out.extend(e.iter().map(|&v| v / sum));
    }
    out
}

/// Layer norm (`rms == false`: subtract the mean, divide by the standard deviation, then
/// `* gamma + beta`) or RMS norm (`rms == true`: divide by the root mean square, `* gamma`).
#[must_use]
#[inline]
pub fn norm(
    x: &[f32],
    cols: usize,
    gamma: &[f32],
    beta: &[f32],
    rms: bool,
    acc: Accumulator,
) -> Vec<f32> {
    let cols = cols.max(1);
    let n = cols as f32;
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks(cols) {
        let mean = if rms {
            0.0
        } else {
            row.iter().fold(0.0f32, |s, &v| acc.round(s + v)) / n
        };
        let var = row
            .iter()
            .fold(0.0f32, |s, &v| acc.round(s + (v - mean) * (v - mean)))
            / n;
        let inv = 1.0 / libm::sqrtf(var + NORM_EPS as f32);
        for (c, &v) in row.iter().enumerate() {
            let b = if rms { 0.0 } else { beta[c] };
            out.push((v - mean) * inv * gamma[c] + b);
        }
    }
    out
}

/// The f64 reference of [`norm`].
#[must_use]
#[inline]
pub fn norm_f64(x: &[f64], cols: usize, gamma: &[f64], beta: &[f64], rms: bool) -> Vec<f64> {
    let cols = cols.max(1);
    let n = cols as f64;
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks(cols) {
        let mean = if rms {
            0.0
        } else {
            row.iter().sum::<f64>() / n
        };
        let var = row.iter().map(|&v| (v - mean) * (v - mean)).sum::<f64>() / n;
        let inv = 1.0 / libm::sqrt(var + NORM_EPS);
        for (c, &v) in row.iter().enumerate() {
            let b = if rms { 0.0 } else { beta[c] };
            out.push((v - mean) * inv * gamma[c] + b);
        }
    }
    out
}

/// One attention tile: `O = softmax(Q K^T / sqrt(d)) V` for `sq` queries and `skv` keys of
/// head dimension `d`. `vt` is V transposed (d x skv). `round_p` rounds the probabilities
/// before the second matmul, as fused kernels cast P to the input format.
#[allow(clippy::too_many_arguments)]
#[must_use]
#[inline]
pub fn attention(
    q: &[f32],
    k: &[f32],
    vt: &[f32],
    sq: usize,
    skv: usize,
    d: usize,
    acc: Accumulator,
    round_p: &dyn Fn(&[f32]) -> Vec<f32>,
) -> Vec<f32> {
    let mut s = gemm_acc(q, k, sq, skv, d, acc);
    let scale = 1.0 / libm::sqrtf(d as f32);
    for v in &mut s {
        *v *= scale;
    }
    let p = round_p(&softmax(&s, skv, acc));
    gemm_acc(&p, vt, sq, d, skv, acc)
}

/// The f64 reference attention tile from the unrounded inputs.
#[must_use]
#[inline]
pub fn attention_f64(
    q: &[f32],
    k: &[f32],
    vt: &[f32],
    sq: usize,
    skv: usize,
    d: usize,
) -> Vec<f64> {
    let mut s = gemm_f64(q, k, sq, skv, d);
    let scale = 1.0 / libm::sqrt(d as f64);
    for v in &mut s {
        *v *= scale;
    }
    let p = softmax_f64(&s, skv);
    // P V in f64 (P is f64 here, so not through the f32 reference GEMM).
    let mut o = alloc::vec![0.0f64; sq * d];
    for i in 0..sq {
        for j in 0..d {
            let vr = &vt[j * skv..(j + 1) * skv];
            o[i * d + j] = p[i * skv..(i + 1) * skv]
                .iter()
                .zip(vr)
                .map(|(a, b)| a * f64::from(*b))
                .sum();
        }
    }
    o
}
