//! Autotuning a matmul the way NKI users do by hand: try block sizes, buffer counts and the
//! stationary operand, keep the fastest. Candidates are ordered by a lower bound on their
//! time (the busiest engine's work, or the HBM bytes at the DMA ceiling) and simulated in
//! that order until no remaining bound can beat the kept ones by more than [`TOLERANCE`], or
//! [`MAX_SIMULATED`] have run.

use super::matmul::{schedule, MatmulSpec, Side};
use super::{simulate, Core, Op, Run, Schedule};
use alloc::vec::Vec;

/// One tuned candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// The spec, tiles included.
    pub spec: MatmulSpec,
    /// Its simulated run.
    pub run: Run,
}

/// What a search did.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// The best candidates, fastest first.
    pub best: Vec<Tuned>,
    /// Candidates that fit the core's memories.
    pub fitting: usize,
    /// Candidates rejected for SBUF or PSUM.
    pub overflowing: usize,
    /// Candidates simulated.
    pub simulated: usize,
}

/// A lower bound on `s`'s time: no engine or queue finishes its own work sooner, and HBM
/// moves no faster than the DMA ceiling.
#[must_use]
pub fn lower_bound(s: &Schedule) -> f64 {
    let core = &s.core;
    let mut lane = [0.0f64; 4];
    let mut dma = 0.0;
    for i in &s.instrs {
        match i.op {
            Op::Load { rows, row_bytes } | Op::Store { rows, row_bytes } => {
                dma += f64::from(rows) * f64::from(row_bytes);
            }
            _ => {
                if let Some(t) = lane.get_mut(i.unit.lane()) {
                    *t += core.seconds(i.unit, &i.op);
                }
            }
        }
    }
    let dma_t = dma / core.dma_ceiling().max(1.0);
    lane.iter().copied().fold(dma_t, f64::max)
}

/// A candidate whose lower bound is within this fraction of the slowest kept one is not
/// simulated: it could gain at most that much.
pub const TOLERANCE: f64 = 0.005;

/// The most candidates simulated in one search.
pub const MAX_SIMULATED: usize = 64;

fn sizes(dim: u32, smallest: u32) -> Vec<u32> {
    let mut v = Vec::new();
    let mut t = smallest;
    while t < dim && t <= 8192 {
        v.push(t);
        t *= 2;
    }
    v.push(dim);
    v
}

/// Search the block sizes, buffers and stationary operand of `base`'s shape on `core`;
/// return the `top` fastest. `progress` hears (simulated so far, candidates) and may stop
/// the search by returning false.
pub fn tune(
    core: &Core,
    base: &MatmulSpec,
    top: usize,
    mut progress: impl FnMut(usize, usize) -> bool,
) -> Search {
    let mut cands: Vec<(f64, MatmulSpec)> = Vec::new();
    let mut overflowing = 0;
    for stationary in [Side::A, Side::B] {
        for &tile_m in &sizes(base.m, 128) {
            for &tile_n in &sizes(base.n, 128) {
                for &tile_k in &sizes(base.k, 256) {
                    for bufs in 1..=3 {
                        let spec = MatmulSpec {
                            tile_m,
                            tile_n,
                            tile_k,
                            bufs,
                            stationary,
                            ..base.clone()
                        };
                        match schedule(core, &spec) {
                            Ok(s) => cands.push((lower_bound(&s), spec)),
                            Err(_) => overflowing += 1,
                        }
                    }
                }
            }
        }
    }
    cands.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(core::cmp::Ordering::Equal));
    let fitting = cands.len();
    let mut best: Vec<Tuned> = Vec::new();
    let mut simulated = 0;
    for (bound, spec) in cands {
        let worst = best.last().map_or(f64::INFINITY, |t| t.run.seconds);
        if simulated >= MAX_SIMULATED
            || (best.len() >= top.max(1) && bound * (1.0 + TOLERANCE) >= worst)
        {
            break;
        }
        if !progress(simulated, fitting) {
            break;
        }
        let Ok(s) = schedule(core, &spec) else {
            continue;
        };
        let run = simulate(&s);
        simulated += 1;
        let at = best.partition_point(|t| t.run.seconds <= run.seconds);
        best.insert(at, Tuned { spec, run });
        best.truncate(top.max(1));
    }
    Search {
        best,
        fitting,
        overflowing,
        simulated,
    }
}
