//! One NeuronCore (Trainium's core), cycle-approximate: the 128x128 systolic tensor engine,
//! the vector, scalar and GpSimd engines that run beside it, SBUF and PSUM, and DMA queues
//! from HBM. A [`Schedule`] is a list of instructions, each on one engine or DMA queue, with
//! the instructions it waits for (its data, or a buffer to be free); [`simulate`] runs it as
//! an event simulation and returns a [`Run`]: total time, each engine's busy fraction and why
//! it stalled, DMA bandwidth, and the SBUF/PSUM high-water marks.
//!
//! Schedules come from kernels, not from hand: [`matmul`] tiles a matrix product and
//! [`attention`] a fused attention tile; [`tune`] searches the tile space. Every parameter
//! of [`Core`] comes from the catalog's chip or from AWS's NKI documentation, or is marked an
//! estimate with its reasoning ([`Core::params`]).

pub mod attention;
mod isa;
mod machine;
pub mod matmul;
mod sim;
pub mod spec;
pub mod tune;

#[cfg(test)]
mod tests;

use crate::catalog;
use crate::chip::Chip;
use crate::dtype::Dtype;
use crate::source::Citation;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// NKI performance guide (TensorE initiation intervals, static instruction overhead).
pub static NKI_PG: Citation = Citation {
    key: "NKI-PG",
    title: "AWS NKI: performance guide (deep dives; docs snapshot)",
    url:
        "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/deep-dives/nki_perf_guide.html",
    date: "2026-08-21",
};

/// NKI DMA bandwidth guide (engines per core, bandwidth per engine, fixed latency).
pub static NKI_DBW: Citation = Citation {
    key: "NKI-DBW",
    title: "AWS NKI: DMA bandwidth guide (deep dives; docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/deep-dives/nki-dma-bandwidth-guide.html",
    date: "2026-08-21",
};

/// NKI ISA reference of the NeuronCore-v2 era (per-instruction cost formulas).
pub static NKI_ISA: Citation = Citation {
    key: "NKI-ISA",
    title: "AWS NKI: nki.isa API reference, v2-era cost notes (aws-neuron-sdk, nki/api/nki/isa)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/api/nki.isa.html",
    date: "2024-11-20",
};

pub use isa::{Dep, Func, Instr, Mem, Op, Pool, Schedule, ScheduleError, Stall, Unit};

pub use machine::{Core, Param};
pub(crate) use sim::{bytes, Builder, Ring};
pub use sim::{simulate, Run, UnitRun};

/// Check that `pools` fit `core`.
pub(crate) fn check_fit(core: &Core, pools: &[Pool]) -> Result<(), ScheduleError> {
    for (mem, have) in [(Mem::Sbuf, core.sbuf_bytes), (Mem::Psum, core.psum_bytes)] {
        let mine: Vec<&Pool> = pools.iter().filter(|p| p.mem == mem).collect();
        let need = mine
            .iter()
            .fold(0u64, |a, p| a + u64::from(p.bytes) * u64::from(p.bufs));
        if need > u64::from(have) {
            return Err(ScheduleError::Overflow {
                mem,
                need: u32::try_from(need).unwrap_or(u32::MAX),
                have,
                pools: mine.iter().map(|p| (p.name, p.bufs, p.bytes)).collect(),
            });
        }
    }
    Ok(())
}

/// A vector, scalar or GpSimd instruction's operation.
pub(crate) fn ew(func: Func, partitions: u32, free: u32, inputs: u32) -> Op {
    Op::Elementwise {
        func,
        partitions,
        free,
        inputs,
    }
}

/// Bytes of one element of `d` as stored.
pub(crate) fn elem_bytes(d: Dtype) -> f64 {
    d.bytes()
}
