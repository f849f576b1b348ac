//! A tiled matrix product C = A·B (A is M × K, B is K × N) as NKI kernels write it: blocks
//! of each operand loaded into SBUF, the stationary operand's 128-column tiles against the
//! moving operand's 512-column tiles on the tensor engine, partial sums in PSUM banks
//! evacuated to SBUF by the vector and scalar engines, the result stored back to HBM.

use super::{
    check_fit, elem_bytes, ew, Builder, Core, Dep, Func, Mem, Op, Pool, Ring, Schedule,
    ScheduleError, Unit,
};
use crate::dtype::Dtype;
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// Which operand the tensor engine holds stationary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// A (as Aᵀ, K on partitions): C comes out with M on partitions.
    A,
    /// B: the product is computed as Cᵀ = Bᵀ·Aᵀ, N on partitions.
    B,
}

/// The most instructions a schedule may hold (bounds memory and time on hostile shapes).
pub const MAX_INSTRS: usize = 1_500_000;

/// The largest dimension accepted.
pub const MAX_DIM: u32 = 65_536;

/// A matmul and how it is tiled.
#[derive(Clone, Debug, PartialEq)]
pub struct MatmulSpec {
    /// Rows of A and C.
    pub m: u32,
    /// Columns of B and C.
    pub n: u32,
    /// The contraction.
    pub k: u32,
    /// Format of A and B (the result is BF16, or FP32 for FP32 inputs).
    pub dtype: Dtype,
    /// Block of M held in SBUF at once.
    pub tile_m: u32,
    /// Block of N held in SBUF at once.
    pub tile_n: u32,
    /// Block of K held in SBUF at once.
    pub tile_k: u32,
    /// Buffers per operand block: 1 single, 2 double, 3 triple buffering.
    pub bufs: u32,
    /// The stationary operand.
    pub stationary: Side,
}

impl MatmulSpec {
    /// `m × k` by `k × n` in `dtype` with blocks of 1024 (or the whole dimension), double
    /// buffered, A stationary.
    #[must_use]
    pub fn new(m: u32, n: u32, k: u32, dtype: Dtype) -> MatmulSpec {
        MatmulSpec {
            m,
            n,
            k,
            dtype,
            tile_m: m.min(1024),
            tile_n: n.min(1024),
            tile_k: k.min(1024),
            bufs: 2,
            stationary: Side::A,
        }
    }

    /// FLOP of the product.
    #[must_use]
    pub fn flops(&self) -> f64 {
        2.0 * f64::from(self.m) * f64::from(self.n) * f64::from(self.k)
    }
}

struct Block {
    key: (u32, u32),
    loads: Vec<u32>,
    buf: usize,
    bytes: u32,
    last: Option<u32>,
}

fn retire(b: &mut Builder, blk: Option<Block>) {
    if let Some(blk) = blk {
        let at = blk.last.or(blk.loads.last().copied());
        if let Some(i) = at {
            b.free(i, Mem::Sbuf, blk.bytes);
        }
    }
}

fn whole(x: f64) -> u32 {
    libm::ceil(x) as u32
}

/// The schedule of `spec` on `core`.
///
/// # Errors
/// A dimension of 0 or above [`MAX_DIM`], buffers outside 1–3, a format the core lacks,
/// blocks that overflow SBUF (with the sizes), or a schedule too long to simulate.
pub fn schedule(core: &Core, spec: &MatmulSpec) -> Result<Schedule, ScheduleError> {
    let bad = |w: alloc::string::String| Err(ScheduleError::Invalid(w));
    for (name, v) in [("M", spec.m), ("N", spec.n), ("K", spec.k)] {
        if v == 0 || v > MAX_DIM {
            return bad(format!("{name} = {v} is outside 1 to {MAX_DIM}"));
        }
    }
    for (name, v) in [
        ("tile M", spec.tile_m),
        ("tile N", spec.tile_n),
        ("tile K", spec.tile_k),
    ] {
        if v == 0 {
            return bad(format!("{name} must be at least 1"));
        }
    }
    if !(1..=3).contains(&spec.bufs) {
        return bad(format!(
            "{} buffers: choose 1 (single), 2 (double) or 3 (triple)",
            spec.bufs
        ));
    }
    let kr = core.rows(spec.dtype)?;
    let fp32 = spec.dtype == Dtype::Fp32;
    let ds = elem_bytes(spec.dtype);
    let out = if fp32 { 4.0 } else { 2.0 };
    let (p, q, tp, tq) = match spec.stationary {
        Side::A => (spec.m, spec.n, spec.tile_m, spec.tile_n),
        Side::B => (spec.n, spec.m, spec.tile_n, spec.tile_m),
    };
    let (tp, tq, tk) = (tp.min(p), tq.min(q), spec.tile_k.min(spec.k));
    let (nbp, nbq, nbk) = (p.div_ceil(tp), q.div_ceil(tq), spec.k.div_ceil(tk));
    let arr = core.array;
    let mov = 512u32;
    let acc = if nbk > 1 { 4.0 } else { out };
    let s_bytes = tk.div_ceil(arr) * whole(f64::from(tp) * ds);
    let m_bytes = tk.div_ceil(arr) * whole(f64::from(tq) * ds);
    let r_bytes = tp.div_ceil(arr) * whole(f64::from(tq) * acc);
    let rbufs = spec.bufs.min(2);
    let (s_name, m_name) = match spec.stationary {
        Side::A => ("A block (stationary)", "B block (moving)"),
        Side::B => ("B block (stationary)", "A block (moving)"),
    };
    let pools = vec![
        Pool {
            name: s_name,
            mem: Mem::Sbuf,
            bytes: s_bytes,
            bufs: spec.bufs,
        },
        Pool {
            name: m_name,
            mem: Mem::Sbuf,
            bytes: m_bytes,
            bufs: spec.bufs,
        },
        Pool {
            name: "C block",
            mem: Mem::Sbuf,
            bytes: r_bytes,
            bufs: rbufs,
        },
        Pool {
            name: "PSUM bank",
            mem: Mem::Psum,
            bytes: 2048,
            bufs: 2,
        },
    ];
    check_fit(core, &pools)?;
    let matmuls = u64::from(p.div_ceil(arr))
        * u64::from(q.div_ceil(mov))
        * u64::from(tk.div_ceil(kr))
        * u64::from(nbk);
    let estimate = matmuls * 2 + u64::from(nbp) * u64::from(nbq) * u64::from(nbk) * 64;
    if estimate > MAX_INSTRS as u64 {
        return bad(format!(
            "about {estimate} instructions: too long to simulate here (at most {MAX_INSTRS}); use larger blocks or a smaller shape"
        ));
    }

    let mut b = Builder {
        instrs: Vec::with_capacity(estimate as usize),
    };
    let (mut s_ring, mut m_ring, mut r_ring, mut ps_ring) = (
        Ring::new(spec.bufs),
        Ring::new(spec.bufs),
        Ring::new(rbufs),
        Ring::new(2),
    );
    let (qs, qm, qo) = (Unit::Dma(0), Unit::Dma(1), Unit::Dma(2));
    let mut cur_s: Option<Block> = None;
    let mut cur_m: Option<Block> = None;
    let mut evac_turn = 0u32;

    // Load a block of `width` columns and `rows` K rows into `ring`, unless it is there.
    let load = |b: &mut Builder,
                ring: &mut Ring,
                cur: &mut Option<Block>,
                key: (u32, u32),
                rows: u32,
                width: u32,
                unit: Unit,
                what: &'static str| {
        if cur.as_ref().is_some_and(|c| c.key == key) {
            return;
        }
        retire(b, cur.take());
        let (slot, buf) = ring.take();
        let row_bytes = whole(f64::from(width) * ds);
        let mut loads = Vec::new();
        for kt in 0..rows.div_ceil(arr) {
            let r = arr.min(rows - kt * arr);
            let i = b.add(
                unit,
                Op::Load { rows: r, row_bytes },
                what,
                [key.0, key.1, kt],
                &[slot],
            );
            loads.push(i);
        }
        let bytes = rows.div_ceil(arr) * row_bytes;
        if let Some(&first) = loads.first() {
            b.alloc(first, Mem::Sbuf, bytes);
        }
        *cur = Some(Block {
            key,
            loads,
            buf,
            bytes,
            last: None,
        });
    };

    for bp in 0..nbp {
        let tp_e = tp.min(p - bp * tp);
        for bq in 0..nbq {
            let tq_e = tq.min(q - bq * tq);
            let mut res: Option<(Option<Dep>, usize)> = None;
            let mut res_alloc = None;
            let mut res_last = None;
            for bk in 0..nbk {
                let tk_e = tk.min(spec.k - bk * tk);
                load(
                    &mut b,
                    &mut s_ring,
                    &mut cur_s,
                    (bp, bk),
                    tk_e,
                    tp_e,
                    qs,
                    match spec.stationary {
                        Side::A => "A block",
                        Side::B => "B block",
                    },
                );
                load(
                    &mut b,
                    &mut m_ring,
                    &mut cur_m,
                    (bk, bq),
                    tk_e,
                    tq_e,
                    qm,
                    match spec.stationary {
                        Side::A => "B block",
                        Side::B => "A block",
                    },
                );
                let mut row_evacs: Vec<Vec<u32>> = vec![Vec::new(); tp_e.div_ceil(arr) as usize];
                for ip in 0..tp_e.div_ceil(arr) {
                    let cols = arr.min(tp_e - ip * arr);
                    for iq in 0..tq_e.div_ceil(mov) {
                        let n = mov.min(tq_e - iq * mov);
                        let (pslot, pbuf) = ps_ring.take();
                        let mut last_mm = 0;
                        for kk in 0..tk_e.div_ceil(kr) {
                            let k = kr.min(tk_e - kk * kr);
                            let (t0, t1) = (kk * kr / arr, (kk * kr + k).div_ceil(arr));
                            let mut deps: Vec<Option<Dep>> = Vec::new();
                            for blk in [&cur_s, &cur_m].into_iter().flatten() {
                                for t in t0..t1 {
                                    if let Some(&on) = blk.loads.get(t as usize) {
                                        deps.push(Some(Dep { on, slot: false }));
                                    }
                                }
                            }
                            if kk == 0 {
                                deps.push(pslot);
                            }
                            let i = b.add(
                                Unit::Tensor,
                                Op::Matmul { k, cols, n, fp32 },
                                "matmul",
                                [
                                    ip + bp * tp.div_ceil(arr),
                                    iq + bq * tq.div_ceil(mov),
                                    bk * tk.div_ceil(kr) + kk,
                                ],
                                &deps,
                            );
                            if kk == 0 {
                                b.alloc(i, Mem::Psum, 2048);
                            }
                            for (ring, blk) in
                                [(&mut s_ring, &mut cur_s), (&mut m_ring, &mut cur_m)]
                            {
                                if let Some(blk) = blk.as_mut() {
                                    ring.read(blk.buf, i);
                                    blk.last = Some(i);
                                }
                            }
                            last_mm = i;
                        }
                        // Evacuate the bank: copy on the first K block (vector and scalar
                        // take turns), add into the SBUF accumulator after.
                        let mut deps = vec![Some(Dep {
                            on: last_mm,
                            slot: false,
                        })];
                        if res.is_none() {
                            let r = r_ring.take();
                            deps.push(r.0);
                            res = Some(r);
                        }
                        let (unit, func, inputs) = if bk == 0 {
                            evac_turn += 1;
                            let u = if evac_turn % 2 == 0 {
                                Unit::Scalar
                            } else {
                                Unit::Vector
                            };
                            (u, Func::Copy, 1)
                        } else {
                            (Unit::Vector, Func::Add, 2)
                        };
                        let e = b.add(
                            unit,
                            ew(func, cols, n, inputs),
                            "PSUM to SBUF",
                            [ip, iq, bk],
                            &deps,
                        );
                        if res_alloc.is_none() {
                            b.alloc(e, Mem::Sbuf, r_bytes);
                            res_alloc = Some(e);
                        }
                        ps_ring.read(pbuf, e);
                        b.free(e, Mem::Psum, 2048);
                        row_evacs[ip as usize].push(e);
                    }
                }
                if bk + 1 == nbk {
                    let rbuf = res.map_or(0, |r| r.1);
                    for ip in 0..tp_e.div_ceil(arr) {
                        let rows = arr.min(tp_e - ip * arr);
                        let deps: Vec<Option<Dep>> = row_evacs[ip as usize]
                            .iter()
                            .map(|&on| Some(Dep { on, slot: false }))
                            .collect();
                        let st = b.add(
                            qo,
                            Op::Store {
                                rows,
                                row_bytes: whole(f64::from(tq_e) * out),
                            },
                            "C block",
                            [bp, bq, ip],
                            &deps,
                        );
                        r_ring.read(rbuf, st);
                        res_last = Some(st);
                    }
                }
            }
            if let Some(st) = res_last {
                b.free(st, Mem::Sbuf, r_bytes);
            }
        }
    }
    retire(&mut b, cur_s.take());
    retire(&mut b, cur_m.take());
    Ok(b.finish(core, pools, spec.flops(), spec.dtype))
}
