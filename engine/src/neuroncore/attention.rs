//! A fused attention tile, FlashAttention-style, for one head: for each block of 128 queries,
//! every block of keys and values in turn — S = Q·Kᵀ on the tensor engine into PSUM, the
//! running row maximum on the vector engine, exp(S − max) with its row sums on the scalar
//! engine, P transposed on the tensor engine and copied out by GpSimd, P·V back on the tensor
//! engine, and the output rescaled and accumulated on the vector engine. No causal mask.

use super::{
    check_fit, elem_bytes, ew, Builder, Core, Dep, Func, Mem, Op, Pool, Ring, Schedule,
    ScheduleError, Unit,
};
use crate::dtype::Dtype;
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// An attention tile.
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionSpec {
    /// Queries.
    pub seq_q: u32,
    /// Keys and values.
    pub seq_kv: u32,
    /// Head dimension (at most 128: one partition tile).
    pub head_dim: u32,
    /// Keys per block (a multiple of 128, at most 512: one PSUM bank of scores).
    pub kv_tile: u32,
    /// Buffers per K and V block.
    pub bufs: u32,
    /// Format of Q, K and V.
    pub dtype: Dtype,
}

impl AttentionSpec {
    /// `seq_q` queries over `seq_kv` keys, head dimension 128, blocks of 512, double buffered.
    #[must_use]
    pub fn new(seq_q: u32, seq_kv: u32, dtype: Dtype) -> AttentionSpec {
        AttentionSpec {
            seq_q,
            seq_kv,
            head_dim: 128,
            kv_tile: 512,
            bufs: 2,
            dtype,
        }
    }

    /// FLOP of Q·Kᵀ and P·V.
    #[must_use]
    pub fn flops(&self) -> f64 {
        4.0 * f64::from(self.seq_q) * f64::from(self.seq_kv) * f64::from(self.head_dim)
    }
}

fn data(on: u32) -> Option<Dep> {
    Some(Dep { on, slot: false })
}

/// The schedule of `spec` on `core`.
///
/// # Errors
/// Sizes out of range, a format the core lacks, or buffers that overflow SBUF or PSUM.
pub fn schedule(core: &Core, spec: &AttentionSpec) -> Result<Schedule, ScheduleError> {
    let bad = |w: alloc::string::String| Err(ScheduleError::Invalid(w));
    let arr = core.array;
    if spec.seq_q == 0 || spec.seq_q > 65_536 || spec.seq_kv == 0 || spec.seq_kv > 262_144 {
        return bad(format!(
            "{} queries over {} keys: use 1 to 65,536 queries and 1 to 262,144 keys",
            spec.seq_q, spec.seq_kv
        ));
    }
    if spec.head_dim == 0 || spec.head_dim > arr {
        return bad(format!(
            "head dimension {} is outside 1 to {arr} (one partition tile)",
            spec.head_dim
        ));
    }
    if spec.kv_tile == 0 || spec.kv_tile % arr != 0 || spec.kv_tile > 512 {
        return bad(format!(
            "a key block of {} is not 128, 256, 384 or 512",
            spec.kv_tile
        ));
    }
    if !(1..=3).contains(&spec.bufs) {
        return bad(format!("{} buffers: choose 1, 2 or 3", spec.bufs));
    }
    if spec.dtype == Dtype::Fp32 {
        return bad("this attention tile runs in bf16 or fp8".into());
    }
    core.rows(spec.dtype)?;
    let ds = elem_bytes(spec.dtype);
    let d = spec.head_dim;
    let kv = spec.kv_tile;
    let sub = kv / arr;
    let w = |x: f64| libm::ceil(x) as u32;
    let pools = vec![
        Pool {
            name: "Qᵀ block",
            mem: Mem::Sbuf,
            bytes: w(f64::from(arr) * ds),
            bufs: 2,
        },
        Pool {
            name: "Kᵀ block",
            mem: Mem::Sbuf,
            bytes: w(f64::from(kv) * ds),
            bufs: spec.bufs,
        },
        Pool {
            name: "V block",
            mem: Mem::Sbuf,
            bytes: sub * w(f64::from(d) * ds),
            bufs: spec.bufs,
        },
        Pool {
            name: "P (probabilities)",
            mem: Mem::Sbuf,
            bytes: kv * 2,
            bufs: 2,
        },
        Pool {
            name: "Pᵀ",
            mem: Mem::Sbuf,
            bytes: sub * arr * 2,
            bufs: 2,
        },
        Pool {
            name: "O accumulator",
            mem: Mem::Sbuf,
            bytes: d * 4 + 16,
            bufs: 2,
        },
        Pool {
            name: "S scores",
            mem: Mem::Psum,
            bytes: kv * 4,
            bufs: 2,
        },
        Pool {
            name: "Pᵀ transposes",
            mem: Mem::Psum,
            bytes: sub * arr * 4,
            bufs: 2,
        },
        Pool {
            name: "P·V",
            mem: Mem::Psum,
            bytes: d * 4,
            bufs: 2,
        },
    ];
    check_fit(core, &pools)?;
    let nq = spec.seq_q.div_ceil(arr);
    let nkv = spec.seq_kv.div_ceil(kv);
    let count = u64::from(nq) * u64::from(nkv) * (12 + 2 * u64::from(sub));
    if count > super::matmul::MAX_INSTRS as u64 {
        return bad(format!(
            "about {count} instructions: too long to simulate here; use fewer queries or keys"
        ));
    }
    let mut b = Builder {
        instrs: Vec::with_capacity(count as usize),
    };
    let mut rings = [
        Ring::new(2),         // Q
        Ring::new(spec.bufs), // K
        Ring::new(spec.bufs), // V
        Ring::new(2),         // P
        Ring::new(2),         // Pᵀ
        Ring::new(2),         // O
        Ring::new(2),         // S (PSUM)
        Ring::new(2),         // Pᵀ (PSUM)
        Ring::new(2),         // PV (PSUM)
    ];
    let bytes: Vec<u32> = pools.iter().map(|p| p.bytes).collect();
    let sb = |i: usize| bytes[i];
    for qb in 0..nq {
        let qr = arr.min(spec.seq_q - qb * arr);
        let (slot, qbuf) = rings[0].take();
        let ql = b.add(
            Unit::Dma(0),
            Op::Load {
                rows: d,
                row_bytes: w(f64::from(qr) * ds),
            },
            "Qᵀ block",
            [qb, 0, 0],
            &[slot],
        );
        b.alloc(ql, Mem::Sbuf, sb(0));
        let (oslot, obuf) = rings[5].take();
        let mut o_last: Option<u32> = None;
        let mut stats: Option<u32> = None;
        let mut q_last = ql;
        for j in 0..nkv {
            let keys = kv.min(spec.seq_kv - j * kv);
            let ksub = keys.div_ceil(arr);
            let (ks, kbuf) = rings[1].take();
            let kl = b.add(
                Unit::Dma(1),
                Op::Load {
                    rows: d,
                    row_bytes: w(f64::from(keys) * ds),
                },
                "Kᵀ block",
                [qb, j, 0],
                &[ks],
            );
            b.alloc(kl, Mem::Sbuf, sb(1));
            let (vs, vbuf) = rings[2].take();
            let mut vl = Vec::new();
            for t in 0..ksub {
                let r = arr.min(keys - t * arr);
                let i = b.add(
                    Unit::Dma(2),
                    Op::Load {
                        rows: r,
                        row_bytes: w(f64::from(d) * ds),
                    },
                    "V block",
                    [qb, j, t],
                    &[vs],
                );
                vl.push(i);
            }
            if let Some(&v0) = vl.first() {
                b.alloc(v0, Mem::Sbuf, sb(2));
            }
            // S = Q·Kᵀ into PSUM.
            let (ss, sbuf) = rings[6].take();
            let s = b.add(
                Unit::Tensor,
                Op::Matmul {
                    k: d,
                    cols: qr,
                    n: keys,
                    fp32: false,
                },
                "Q·Kᵀ",
                [qb, j, 0],
                &[data(ql), data(kl), ss],
            );
            b.alloc(s, Mem::Psum, sb(6));
            rings[0].read(qbuf, s);
            rings[1].read(kbuf, s);
            b.free(s, Mem::Sbuf, sb(1));
            q_last = s;
            // Running maximum.
            let mx = b.add(
                Unit::Vector,
                ew(Func::RowMax, qr, keys, 1),
                "row max of S",
                [qb, j, 0],
                &[data(s)],
            );
            let nm = b.add(
                Unit::Vector,
                ew(Func::Small, qr, 4, 2),
                "new max",
                [qb, j, 0],
                &[data(mx), stats.and_then(data)],
            );
            // P = exp(S − max), row sums.
            let (ps, pbuf) = rings[3].take();
            let ex = b.add(
                Unit::Scalar,
                ew(Func::Exp, qr, keys, 1),
                "exp(S − max)",
                [qb, j, 0],
                &[data(s), data(nm), ps],
            );
            b.alloc(ex, Mem::Sbuf, sb(3));
            rings[6].read(sbuf, ex);
            b.free(ex, Mem::Psum, sb(6));
            let corr = b.add(
                Unit::Scalar,
                ew(Func::Exp, qr, 2, 1),
                "rescale factor",
                [qb, j, 0],
                &[data(nm)],
            );
            stats = Some(corr);
            // Pᵀ through PSUM.
            let (ts, tbuf) = rings[7].take();
            let mut tr = Vec::new();
            for t in 0..ksub {
                let i = b.add(
                    Unit::Tensor,
                    Op::Transpose {
                        rows: qr,
                        cols: arr.min(keys - t * arr),
                    },
                    "transpose P",
                    [qb, j, t],
                    &[data(ex), if t == 0 { ts } else { None }],
                );
                if t == 0 {
                    b.alloc(i, Mem::Psum, sb(7));
                }
                tr.push(i);
            }
            let last_tr = *tr.last().unwrap_or(&ex);
            rings[3].read(pbuf, last_tr);
            b.free(last_tr, Mem::Sbuf, sb(3));
            let (pts, ptbuf) = rings[4].take();
            let cp = b.add(
                Unit::GpSimd,
                ew(Func::Copy, arr, ksub * qr, 1),
                "Pᵀ to SBUF",
                [qb, j, 0],
                &[data(last_tr), pts],
            );
            b.alloc(cp, Mem::Sbuf, sb(4));
            rings[7].read(tbuf, cp);
            b.free(cp, Mem::Psum, sb(7));
            // P·V into PSUM.
            let (pvs, pvbuf) = rings[8].take();
            let mut last_pv = cp;
            for (t, &v) in vl.iter().enumerate() {
                let i = b.add(
                    Unit::Tensor,
                    Op::Matmul {
                        k: arr.min(keys - t as u32 * arr),
                        cols: qr,
                        n: d,
                        fp32: false,
                    },
                    "P·V",
                    [qb, j, t as u32],
                    &[data(cp), data(v), if t == 0 { pvs } else { None }],
                );
                if t == 0 {
                    b.alloc(i, Mem::Psum, sb(8));
                }
                last_pv = i;
            }
            rings[2].read(vbuf, last_pv);
            rings[4].read(ptbuf, last_pv);
            b.free(last_pv, Mem::Sbuf, sb(2) + sb(4));
            // O = O·rescale + P·V.
            let up = b.add(
                Unit::Vector,
                ew(Func::ScaleAdd, qr, d, 2),
                "O·rescale + P·V",
                [qb, j, 0],
                &[
                    data(last_pv),
                    data(corr),
                    o_last.and_then(data),
                    if j == 0 { oslot } else { None },
                ],
            );
            if j == 0 {
                b.alloc(up, Mem::Sbuf, sb(5));
            }
            rings[8].read(pvbuf, up);
            b.free(up, Mem::Psum, sb(8));
            o_last = Some(up);
        }
        rings[0].read(qbuf, q_last);
        b.free(q_last, Mem::Sbuf, sb(0));
        let last = o_last.unwrap_or(ql);
        let nrm = b.add(
            Unit::Vector,
            ew(Func::Divide, qr, d, 1),
            "O ÷ row sums",
            [qb, 0, 0],
            &[data(last)],
        );
        let st = b.add(
            Unit::Dma(0),
            Op::Store {
                rows: qr,
                row_bytes: w(f64::from(d) * 2.0),
            },
            "O block",
            [qb, 0, 0],
            &[data(nrm)],
        );
        rings[5].read(obuf, st);
        b.free(st, Mem::Sbuf, sb(5));
    }
    Ok(b.finish(core, pools, spec.flops(), spec.dtype))
}
