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
pub mod matmul;
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

/// Why an engine or queue sat idle before an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stall {
    /// Its input was still arriving from HBM.
    Dma,
    /// Its input was still being computed by another engine.
    Engine,
    /// The buffer it writes was still held by an earlier tile's readers.
    Buffer,
    /// A DMA's fixed setup (descriptor, semaphore-to-start) not hidden behind the previous one.
    Setup,
}

impl Stall {
    /// All reasons, in [`UnitRun::stalls`]' order.
    pub const ALL: [Stall; 4] = [Stall::Dma, Stall::Engine, Stall::Buffer, Stall::Setup];

    /// Words for a table.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Stall::Dma => "waiting on DMA",
            Stall::Engine => "waiting on another engine",
            Stall::Buffer => "waiting for a free buffer",
            Stall::Setup => "DMA setup latency",
        }
    }
}

/// Where an instruction runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// The tensor engine (PE array).
    Tensor,
    /// The vector engine.
    Vector,
    /// The scalar (activation) engine.
    Scalar,
    /// The GpSimd engine.
    GpSimd,
    /// DMA queue `n`.
    Dma(u8),
}

impl Unit {
    /// Index among a schedule's lanes: the four engines, then the DMA queues.
    #[must_use]
    pub fn lane(self) -> usize {
        match self {
            Unit::Tensor => 0,
            Unit::Vector => 1,
            Unit::Scalar => 2,
            Unit::GpSimd => 3,
            Unit::Dma(q) => 4 + q as usize,
        }
    }

    /// The unit of lane `i`.
    #[must_use]
    pub fn of_lane(i: usize) -> Unit {
        match i {
            0 => Unit::Tensor,
            1 => Unit::Vector,
            2 => Unit::Scalar,
            3 => Unit::GpSimd,
            q => Unit::Dma(u8::try_from(q - 4).unwrap_or(u8::MAX)),
        }
    }

    /// Name on a timeline lane.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Unit::Tensor => "Tensor".into(),
            Unit::Vector => "Vector".into(),
            Unit::Scalar => "Scalar".into(),
            Unit::GpSimd => "GpSimd".into(),
            Unit::Dma(q) => format!("DMA q{q}"),
        }
    }

    fn is_dma(self) -> bool {
        matches!(self, Unit::Dma(_))
    }
}

/// An elementwise or reduction instruction's function (for its label and cost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    /// Copy (PSUM to SBUF, with a cast).
    Copy,
    /// Add two tiles.
    Add,
    /// Exponential with a per-row bias, summing each row as it goes.
    Exp,
    /// Maximum along the free axis.
    RowMax,
    /// Multiply by a per-row scalar, then add a tile.
    ScaleAdd,
    /// Divide by a per-row scalar.
    Divide,
    /// Small per-row arithmetic (a few elements per partition).
    Small,
}

impl Func {
    /// Every function, in a fixed order (the timeline's numbering).
    pub const ALL: [Func; 7] = [
        Func::Copy,
        Func::Add,
        Func::Exp,
        Func::RowMax,
        Func::ScaleAdd,
        Func::Divide,
        Func::Small,
    ];

    fn name(self) -> &'static str {
        match self {
            Func::Copy => "copy",
            Func::Add => "add",
            Func::Exp => "exp",
            Func::RowMax => "row max",
            Func::ScaleAdd => "scale-add",
            Func::Divide => "divide",
            Func::Small => "per-row scalars",
        }
    }
}

/// What an instruction does, with the sizes its cost depends on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// HBM to SBUF.
    Load {
        /// Partitions written.
        rows: u32,
        /// Contiguous bytes per partition.
        row_bytes: u32,
    },
    /// SBUF to HBM.
    Store {
        /// Partitions read.
        rows: u32,
        /// Contiguous bytes per partition.
        row_bytes: u32,
    },
    /// Tensor engine: a stationary `k` x `cols` tile against a moving `k` x `n` tile, into
    /// PSUM (`cols` partitions of `n` FP32).
    Matmul {
        /// Contraction rows (partitions of both operands).
        k: u32,
        /// Columns of the stationary tile (output partitions).
        cols: u32,
        /// Columns of the moving tile (output free size).
        n: u32,
        /// FP32 operands, which take four passes.
        fp32: bool,
    },
    /// Tensor engine: transpose a tile through PSUM (a matmul against the identity).
    Transpose {
        /// Rows of the tile.
        rows: u32,
        /// Columns of the tile (the moving side).
        cols: u32,
    },
    /// Vector, scalar or GpSimd engine.
    Elementwise {
        /// The function.
        func: Func,
        /// Partitions.
        partitions: u32,
        /// Elements per partition.
        free: u32,
        /// Tiles read.
        inputs: u32,
    },
}

/// One wait of an instruction on an earlier one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dep {
    /// Index of the instruction waited for.
    pub on: u32,
    /// True when it is a buffer being released (the instruction is the last reader of the
    /// tile whose buffer this one reuses), false when it is data.
    pub slot: bool,
}

/// Memory on the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mem {
    /// The state buffer.
    Sbuf,
    /// The partial-sum buffer next to the tensor engine.
    Psum,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    /// Where it runs.
    pub unit: Unit,
    /// What it does.
    pub op: Op,
    /// What it works on, for its label (`A tile`, `PSUM to SBUF`).
    pub what: &'static str,
    /// Loop indices for its label.
    pub at: [u32; 3],
    /// What it waits for.
    pub deps: Vec<Dep>,
    /// Bytes per partition it takes when it starts, in SBUF and PSUM.
    pub alloc: [u32; 2],
    /// Bytes per partition released when it ends, in SBUF and PSUM.
    pub free: [u32; 2],
}

impl Instr {
    fn new(unit: Unit, op: Op, what: &'static str, at: [u32; 3]) -> Instr {
        Instr {
            unit,
            op,
            what,
            at,
            deps: Vec::new(),
            alloc: [0; 2],
            free: [0; 2],
        }
    }

    /// One line for a hover: what, where, the sizes and the cost on `core`.
    #[must_use]
    pub fn describe(&self, core: &Core) -> String {
        let at = format!("[{}, {}, {}]", self.at[0], self.at[1], self.at[2]);
        let cost = match self.op {
            Op::Load { .. } | Op::Store { .. } => format!(
                "{:.2} µs alone at {:.0} GB/s",
                core.dma_alone(&self.op) * 1e6,
                core.dma_cap(&self.op) / 1e9
            ),
            _ => format!("{} cycles", core.cycles(self.unit, &self.op)),
        };
        let body = match self.op {
            Op::Load { rows, row_bytes } => {
                format!("load {rows} partitions × {row_bytes} B from HBM")
            }
            Op::Store { rows, row_bytes } => format!("store {rows} partitions × {row_bytes} B"),
            Op::Matmul { k, cols, n, fp32 } => format!(
                "matmul K={k} × {cols} stationary × {n} moving{}",
                if fp32 { " (FP32, 4 passes)" } else { "" }
            ),
            Op::Transpose { rows, cols } => format!("transpose {rows} × {cols}"),
            Op::Elementwise {
                func,
                partitions,
                free,
                inputs,
            } => format!(
                "{} over {partitions} × {free} ({inputs} input{})",
                func.name(),
                if inputs == 1 { "" } else { "s" }
            ),
        };
        format!("{} {at}: {body}; {cost}", self.what)
    }
}

/// A buffer pool a schedule declares: `bufs` buffers of `bytes` per partition each.
#[derive(Clone, Debug, PartialEq)]
pub struct Pool {
    /// What it holds.
    pub name: &'static str,
    /// Where.
    pub mem: Mem,
    /// Bytes per partition of one buffer.
    pub bytes: u32,
    /// Buffers (1 single, 2 double, 3 triple buffering).
    pub bufs: u32,
}

/// A schedule for one core.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The core it runs on.
    pub core: Core,
    /// Instructions in program order; each engine and queue runs its own in this order.
    pub instrs: Vec<Instr>,
    /// Buffers it declares.
    pub pools: Vec<Pool>,
    /// Useful floating-point operations (a matmul's 2·M·N·K).
    pub flops: f64,
    /// Format the tensor engine works in.
    pub dtype: Dtype,
    /// DMA queues it uses.
    pub queues: u8,
}

/// A schedule that does not fit the core's memories.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ScheduleError {
    /// The pools of `mem` need `need` bytes per partition; the core has `have`.
    Overflow {
        /// The memory.
        mem: Mem,
        /// Bytes per partition needed.
        need: u32,
        /// Bytes per partition available.
        have: u32,
        /// Each pool in it: name, buffers, bytes per buffer.
        pools: Vec<(&'static str, u32, u32)>,
    },
    /// A shape or option the core cannot run.
    Invalid(String),
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::Overflow {
                mem,
                need,
                have,
                pools,
            } => {
                let m = match mem {
                    Mem::Sbuf => "SBUF",
                    Mem::Psum => "PSUM",
                };
                write!(
                    f,
                    "does not fit {m}: {} KiB per partition needed, {} KiB available (",
                    kib(*need),
                    kib(*have)
                )?;
                for (i, (name, bufs, bytes)) in pools.iter().enumerate() {
                    let sep = if i == 0 { "" } else { " + " };
                    write!(f, "{sep}{name} {bufs} × {} KiB", kib(*bytes))?;
                }
                write!(f, ")")
            }
            ScheduleError::Invalid(why) => f.write_str(why),
        }
    }
}

impl core::error::Error for ScheduleError {}

fn kib(b: u32) -> String {
    let k = f64::from(b) / 1024.0;
    if (k - libm::round(k)).abs() < 0.05 {
        format!("{k:.0}")
    } else {
        format!("{k:.1}")
    }
}

/// One NeuronCore's parameters. Build one with [`Core::of`].
#[derive(Clone, Debug, PartialEq)]
pub struct Core {
    /// Catalog id of the chip (`trn2`).
    pub chip: String,
    /// NeuronCore generation: 2 (Trn1), 3 (Trn2), 4 (Trn3).
    pub generation: u8,
    /// Tensor engine rows and columns (128).
    pub array: u32,
    /// Clocks in Hz.
    pub tensor_hz: f64,
    /// Vector engine clock, Hz.
    pub vector_hz: f64,
    /// Scalar engine clock, Hz.
    pub scalar_hz: f64,
    /// GpSimd engine clock, Hz.
    pub gpsimd_hz: f64,
    /// SBUF and PSUM partitions (128).
    pub partitions: u32,
    /// SBUF bytes per partition.
    pub sbuf_bytes: u32,
    /// PSUM bytes per partition.
    pub psum_bytes: u32,
    /// HBM bandwidth of one core's share, bytes/s.
    pub hbm_bw: f64,
    /// DMA engines per core.
    pub dma_engines: u32,
    /// Bandwidth of one DMA engine, bytes/s.
    pub dma_engine_bw: f64,
    /// Fixed time from a DMA's inputs being ready to its data moving, s.
    pub dma_latency: f64,
    /// Payload per partition at which a DMA reaches half its engines' bandwidth, bytes.
    pub dma_half_bytes: f64,
    /// Partitions one DMA engine serves of a transfer.
    pub dma_rows_per_engine: u32,
    /// Fewest cycles between matmuls (the tensor engine's turnaround).
    pub mm_min_cycles: u32,
    /// How many times faster a stationary tile loads than a moving one streams.
    pub ls_speedup: u32,
    /// Fixed cycles of a vector, scalar or GpSimd instruction.
    pub static_cycles: u32,
    /// Elements per partition per cycle on the vector engine (FP32 data).
    pub vector_per_cycle: f64,
    /// Elements per partition per cycle on the scalar engine.
    pub scalar_per_cycle: f64,
}

/// One parameter of a core as the page lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// What it is.
    pub name: &'static str,
    /// Its value, formatted with its unit.
    pub value: String,
    /// Where it comes from.
    pub source: &'static str,
    /// Not from AWS's documentation.
    pub estimate: bool,
    /// Reasoning or derivation.
    pub why: &'static str,
}

impl Core {
    /// The core of catalog chip `id` (`trn1`, `trn2`, `trn3`, or a clone of one).
    ///
    /// # Errors
    /// An unknown chip, or one that is not a Trainium.
    pub fn of(id: &str) -> Result<Core, ScheduleError> {
        let chip = catalog::find(id).map_err(|e| ScheduleError::Invalid(format!("{e}")))?;
        Core::of_chip(&chip)
    }

    /// The core of `chip`.
    ///
    /// # Errors
    /// A chip that is not a Trainium.
    pub fn of_chip(chip: &Chip) -> Result<Core, ScheduleError> {
        let generation = match chip.core_kind.get(..14) {
            Some("NeuronCore-v2:") => 2,
            Some("NeuronCore-v3:") => 3,
            Some("NeuronCore-v4:") => 4,
            _ => {
                return Err(ScheduleError::Invalid(format!(
                "{} is not a Trainium: the NeuronCore model needs a NeuronCore (trn1, trn2, trn3)",
                chip.name
            )))
            }
        };
        let cores = f64::from(chip.cores.value.max(1));
        let clock = |name: &str| {
            chip.clocks
                .iter()
                .find(|c| c.engine.starts_with(name))
                .map(|c| c.frequency.value.get())
        };
        let per_core = |name: &str| {
            chip.sram
                .iter()
                .find(|m| m.name == name)
                .map(|m| m.capacity.value.get() / cores / 128.0)
        };
        let missing = |what: &str| {
            ScheduleError::Invalid(format!("{} has no {what} in the catalog", chip.name))
        };
        let to_u32 = |x: f64| {
            if (1.0..4.0e9).contains(&x) {
                Ok(x as u32)
            } else {
                Err(ScheduleError::Invalid(format!(
                    "{}: memory per partition out of range",
                    chip.name
                )))
            }
        };
        // DMA engine bandwidth by generation, from NKI-DBW's table (B/ns = GB/s).
        let dma_engine_bw = match generation {
            2 => 17e9,
            3 => 23e9,
            _ => 33e9,
        };
        Ok(Core {
            chip: chip.id.clone(),
            generation,
            array: 128,
            tensor_hz: clock("Tensor").ok_or_else(|| missing("tensor clock"))?,
            vector_hz: clock("Vector").ok_or_else(|| missing("vector clock"))?,
            scalar_hz: clock("Scalar").ok_or_else(|| missing("scalar clock"))?,
            gpsimd_hz: clock("GpSimd").ok_or_else(|| missing("GpSimd clock"))?,
            partitions: 128,
            sbuf_bytes: to_u32(per_core("SBUF").ok_or_else(|| missing("SBUF"))?)?,
            psum_bytes: to_u32(per_core("PSUM").ok_or_else(|| missing("PSUM"))?)?,
            hbm_bw: chip.hbm_bandwidth.value.get() / cores,
            dma_engines: 16,
            dma_engine_bw,
            dma_latency: 1.3e-6,
            dma_half_bytes: 256.0,
            dma_rows_per_engine: 8,
            mm_min_cycles: 64,
            ls_speedup: 4,
            static_cycles: 100,
            vector_per_cycle: if generation == 2 { 1.0 } else { 2.0 },
            scalar_per_cycle: 1.0,
        })
    }

    /// "NeuronCore-v3 (trn2)".
    #[must_use]
    pub fn name(&self) -> String {
        format!("NeuronCore-v{} ({})", self.generation, self.chip)
    }

    /// Contraction rows one matmul instruction takes in `d`: 128, or 256 for Trn2's FP8
    /// double-row mode, or 512 for Trn3's MX formats.
    ///
    /// # Errors
    /// A format this generation's tensor engine does not take.
    pub fn rows(&self, d: Dtype) -> Result<u32, ScheduleError> {
        let a = self.array;
        match (d, self.generation) {
            (Dtype::Bf16 | Dtype::Fp16 | Dtype::Fp32, _) | (Dtype::Fp8, 2) => Ok(a),
            (Dtype::Fp8, 3) => Ok(2 * a),
            (Dtype::Fp8 | Dtype::Fp4, 4) => Ok(4 * a),
            _ => Err(ScheduleError::Invalid(format!(
                "NeuronCore-v{} has no {} matmul (bf16, fp16, fp32{})",
                self.generation,
                d.id(),
                match self.generation {
                    2 | 3 => ", fp8",
                    _ => ", mxfp8, mxfp4",
                }
            ))),
        }
    }

    /// Peak FLOP/s of the tensor engine in `d` from its array and clock.
    #[must_use]
    pub fn array_peak(&self, d: Dtype) -> f64 {
        let rows = f64::from(self.rows(d).unwrap_or(self.array));
        let passes = if d == Dtype::Fp32 { 4.0 } else { 1.0 };
        2.0 * rows * f64::from(self.array) * self.tensor_hz / passes
    }

    /// The catalog's dense peak in `d` divided by the chip's cores, if it lists one.
    #[must_use]
    pub fn catalog_peak(&self, d: Dtype) -> Option<f64> {
        let chip = catalog::find(&self.chip).ok()?;
        let cores = f64::from(chip.cores.value.max(1));
        chip.dense(d).map(|p| p.get() / cores)
    }

    /// The most bytes/s the core's DMA moves: its engines, or its share of HBM.
    #[must_use]
    pub fn dma_ceiling(&self) -> f64 {
        (f64::from(self.dma_engines) * self.dma_engine_bw).min(self.hbm_bw)
    }

    /// Bytes/s one transfer reaches alone: the engines its partitions spread over, each
    /// slowed by per-packet overhead on short rows.
    #[must_use]
    pub fn dma_cap(&self, op: &Op) -> f64 {
        let (rows, row_bytes) = match *op {
            Op::Load { rows, row_bytes } | Op::Store { rows, row_bytes } => (rows, row_bytes),
            _ => return 0.0,
        };
        let engines = rows
            .div_ceil(self.dma_rows_per_engine.max(1))
            .clamp(1, self.dma_engines);
        let b = f64::from(row_bytes);
        let eff = b / (b + self.dma_half_bytes);
        (f64::from(engines) * self.dma_engine_bw * eff).min(self.dma_ceiling())
    }

    /// Time of a transfer alone, latency included.
    #[must_use]
    pub fn dma_alone(&self, op: &Op) -> f64 {
        self.dma_latency + bytes(op) / self.dma_cap(op).max(1.0)
    }

    /// Cycles of a compute instruction on `unit`'s clock.
    #[must_use]
    pub fn cycles(&self, unit: Unit, op: &Op) -> u32 {
        match *op {
            Op::Matmul { cols, n, fp32, .. } => {
                let mm = n.max(self.mm_min_cycles);
                let ls = cols.div_ceil(self.ls_speedup.max(1));
                mm.max(ls) * if fp32 { 4 } else { 1 }
            }
            Op::Transpose { cols, .. } => cols.max(self.mm_min_cycles),
            Op::Elementwise { free, inputs, .. } => {
                let per = match unit {
                    Unit::Vector => self.vector_per_cycle,
                    Unit::Scalar => self.scalar_per_cycle,
                    _ => 1.0,
                };
                let stream = libm::ceil(f64::from(free) * f64::from(inputs.max(1)) / per);
                self.static_cycles + stream as u32
            }
            Op::Load { .. } | Op::Store { .. } => 0,
        }
    }

    fn hz(&self, u: Unit) -> f64 {
        match u {
            Unit::Tensor => self.tensor_hz,
            Unit::Vector => self.vector_hz,
            Unit::Scalar => self.scalar_hz,
            Unit::GpSimd => self.gpsimd_hz,
            Unit::Dma(_) => 1.0,
        }
    }

    /// Seconds of a compute instruction on `unit`.
    #[must_use]
    pub fn seconds(&self, unit: Unit, op: &Op) -> f64 {
        f64::from(self.cycles(unit, op)) / self.hz(unit)
    }

    /// Every parameter with its source, estimates marked.
    #[must_use]
    pub fn params(&self) -> Vec<Param> {
        let nki = match self.generation {
            2 => "NKI-T1 (Trainium/Inferentia2 architecture guide)",
            3 => "NKI-T2 (Trainium2 architecture guide)",
            _ => "NKI-T3 (Trainium3 architecture guide)",
        };
        let p = |name, value: String, source, estimate, why| Param {
            name,
            value,
            source,
            estimate,
            why,
        };
        vec![
            p("Tensor engine", format!("{0} × {0} PEs", self.array), nki, false, "systolic array; stationary tile up to 128 × 128, moving tile up to 512 columns (one PSUM bank)"),
            p("Tensor clock", format!("{:.2} GHz", self.tensor_hz / 1e9), nki, false, "from the catalog's chip"),
            p("Vector / Scalar / GpSimd clocks", format!("{:.2} / {:.2} / {:.2} GHz", self.vector_hz / 1e9, self.scalar_hz / 1e9, self.gpsimd_hz / 1e9), nki, false, "from the catalog's chip"),
            p("Matmul rows per instruction", match self.generation { 2 => "128 (all formats)".into(), 3 => "128; 256 in FP8 (double-row mode)".into(), _ => "128; 512 in MXFP8/MXFP4".into() }, nki, false, "the FP8 (Trn2) and MX (Trn3) peaks are 2× and 4× BF16 at the same clock"),
            p("SBUF", format!("{} × {} KiB", self.partitions, self.sbuf_bytes / 1024), nki, false, "catalog SBUF ÷ cores ÷ 128 partitions"),
            p("PSUM", format!("{} × {} KiB (8 banks of 2 KiB)", self.partitions, self.psum_bytes / 1024), nki, false, "an output tile of 512 FP32 fills one bank"),
            p("HBM per core", format!("{:.0} GB/s", self.hbm_bw / 1e9), "catalog chip bandwidth ÷ cores", true, "AWS gives the chip's bandwidth, not a core's; an even split is assumed"),
            p("DMA engines", format!("{} × {:.0} GB/s", self.dma_engines, self.dma_engine_bw / 1e9), "NKI-DBW (DMA bandwidth guide)", false, "aggregate per core 272 / 368 / 528 GB/s on Trn1 / 2 / 3"),
            p("DMA setup latency", format!("{:.1} µs", self.dma_latency * 1e6), "NKI-DBW", false, "descriptor, synchronisation and semaphore-to-start (~1,300 ns); hidden behind the queue's previous transfer when one is moving"),
            p("DMA payload for half bandwidth", format!("{:.0} B per partition", self.dma_half_bytes), "estimate", true, "NKI-DBW: < 256 B per partition is overhead-bound, ≥ 2 KiB approaches peak, ≥ 4 KiB saturates; b/(b+256) gives 50%, 89%, 94%"),
            p("Partitions per DMA engine", format!("{}", self.dma_rows_per_engine), "estimate", true, "128 partitions over 16 engines; NKI-DBW says fewer partitions use fewer engines"),
            p("Matmul turnaround", format!("{} cycles", self.mm_min_cycles), "NKI-PG", self.generation != 2, "MM_INIT_LATENCY, 64 cycles on Trn1; assumed the same on later cores"),
            p("Fast LoadStationary", format!("{}× a moving stream", self.ls_speedup), "NKI-PG", false, "a 128-column stationary tile loads in ~32 cycles, in the background of the previous matmul"),
            p("Static instruction overhead", format!("{} cycles", self.static_cycles), "NKI-PG", false, "\"in the order of ~100 cycles\" on vector, scalar and GpSimd instructions"),
            p("Vector elements per partition per cycle", format!("{}", self.vector_per_cycle), if self.generation == 2 { "NKI-ISA" } else { "NKI-T2 / estimate" }, self.generation == 4, "v2: cost ≈ N cycles for N elements; v3: 256 FP32 elements a cycle over 128 partitions; v4 assumed as v3"),
            p("Scalar elements per partition per cycle", format!("{}", self.scalar_per_cycle), "NKI-PG", false, "\"one ScalarE cycle throughput-wise\" per element"),
        ]
    }
}

fn bytes(op: &Op) -> f64 {
    match *op {
        Op::Load { rows, row_bytes } | Op::Store { rows, row_bytes } => {
            f64::from(rows) * f64::from(row_bytes)
        }
        _ => 0.0,
    }
}

/// One engine's or queue's share of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitRun {
    /// Which.
    pub unit: Unit,
    /// Instructions it ran.
    pub count: u32,
    /// Seconds busy (for a DMA queue: moving data).
    pub busy: f64,
    /// Seconds idle before an instruction, by [`Stall::ALL`].
    pub stalls: [f64; 4],
}

/// What a schedule did.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Wall time of the schedule.
    pub seconds: f64,
    /// Start and end of each instruction (for a DMA, of its data), seconds.
    pub spans: Vec<(f64, f64)>,
    /// Each lane, engines first.
    pub units: Vec<UnitRun>,
    /// Useful FLOP.
    pub flops: f64,
    /// Bytes read from and written to HBM.
    pub hbm_bytes: f64,
    /// SBUF and PSUM bytes per partition live at the worst moment.
    pub peak: [u32; 2],
    /// SBUF and PSUM bytes per partition the schedule's pools reserve.
    pub reserved: [u32; 2],
    /// The core's SBUF and PSUM bytes per partition.
    pub capacity: [u32; 2],
    /// Tensor-engine cycles of the matmuls and transposes.
    pub tensor_cycles: f64,
    /// Multiply-accumulates the array did, counting every PE of every cycle busy
    /// (`rows used × columns used × moving columns`).
    pub macs_used: f64,
}

impl Run {
    /// FLOP/s achieved.
    #[must_use]
    pub fn flops_per_s(&self) -> f64 {
        if self.seconds > 0.0 {
            self.flops / self.seconds
        } else {
            0.0
        }
    }

    /// HBM bytes/s achieved.
    #[must_use]
    pub fn dma_bw(&self) -> f64 {
        if self.seconds > 0.0 {
            self.hbm_bytes / self.seconds
        } else {
            0.0
        }
    }

    /// Busy fraction of lane `i`.
    #[must_use]
    pub fn busy(&self, i: usize) -> f64 {
        self.units.get(i).map_or(0.0, |u| {
            if self.seconds > 0.0 {
                u.busy / self.seconds
            } else {
                0.0
            }
        })
    }

    /// Arithmetic intensity achieved: useful FLOP per HBM byte.
    #[must_use]
    pub fn intensity(&self) -> f64 {
        self.flops / self.hbm_bytes.max(1.0)
    }

    /// Fraction of the array's PEs doing useful work while the tensor engine is busy
    /// (a K of 100 uses 100 of 128 rows).
    #[must_use]
    pub fn array_use(&self, core: &Core, rows_per_instr: u32) -> f64 {
        let full = self.tensor_cycles * f64::from(rows_per_instr) * f64::from(core.array);
        if full > 0.0 {
            self.macs_used / full
        } else {
            0.0
        }
    }
}

#[derive(Clone, Copy)]
struct Flow {
    instr: u32,
    left: f64,
    cap: f64,
    rate: f64,
}

/// Run `s` as an event simulation.
///
/// Each engine and queue runs its instructions in program order; an instruction starts when
/// its engine is free and everything it waits for has ended. A DMA's data moves no sooner
/// than its setup latency after its inputs are ready, and after its queue's previous
/// transfer; transfers in flight share the core's DMA ceiling max-min fairly, each capped by
/// the engines its partitions use.
#[must_use]
pub fn simulate(s: &Schedule) -> Run {
    let core = &s.core;
    let n = s.instrs.len();
    let lanes = 4 + usize::from(s.queues);
    let mut queue: Vec<Vec<u32>> = vec![Vec::new(); lanes];
    for (i, ins) in s.instrs.iter().enumerate() {
        if let Some(q) = queue.get_mut(ins.unit.lane()) {
            q.push(i as u32);
        }
    }
    let mut head = vec![0usize; lanes];
    let mut spans = vec![(f64::INFINITY, f64::INFINITY); n];
    let mut free_at = vec![0.0f64; lanes];
    let mut pending: Vec<Option<f64>> = vec![None; lanes];
    let mut flows: Vec<Flow> = Vec::new();
    let mut units: Vec<UnitRun> = (0..lanes)
        .map(|i| UnitRun {
            unit: Unit::of_lane(i),
            count: 0,
            busy: 0.0,
            stalls: [0.0; 4],
        })
        .collect();
    let ceiling = core.dma_ceiling();
    let mut now = 0.0f64;
    let mut reshare = false;
    let mut hbm_bytes = 0.0;
    let mut tensor_cycles = 0.0;
    let mut macs_used = 0.0;
    const EPS: f64 = 1e-15;

    // Ready time of instruction `i` (latest end of its waits) and the wait that bound it.
    let ready = |i: usize, spans: &[(f64, f64)]| -> (f64, Option<Dep>) {
        let mut t = 0.0;
        let mut why = None;
        for d in &s.instrs[i].deps {
            let e = spans[d.on as usize].1;
            if why.is_none() || e > t {
                t = e;
                why = Some(*d);
            }
        }
        (t, why)
    };
    let reason = |d: Option<Dep>| -> usize {
        match d {
            Some(Dep { slot: true, .. }) => 2,
            Some(Dep { on, .. }) if s.instrs[on as usize].unit.is_dma() => 0,
            _ => 1,
        }
    };

    loop {
        // Start everything that can start now.
        let mut started = true;
        while started {
            started = false;
            for lane in 0..lanes {
                let Some(&i) = queue[lane].get(head[lane]) else {
                    continue;
                };
                let i = i as usize;
                let ins = &s.instrs[i];
                if ins.unit.is_dma() {
                    if pending[lane].is_some()
                        || flows
                            .iter()
                            .any(|f| s.instrs[f.instr as usize].unit == ins.unit)
                    {
                        continue;
                    }
                    let (t, why) = ready(i, &spans);
                    if t > now + EPS {
                        continue;
                    }
                    let go = (t + core.dma_latency).max(free_at[lane]);
                    let gap = go - free_at[lane];
                    if gap > 0.0 {
                        let setup = gap.min(core.dma_latency);
                        units[lane].stalls[3] += setup;
                        units[lane].stalls[reason(why)] += gap - setup;
                    }
                    pending[lane] = Some(go);
                    started = true;
                } else {
                    if free_at[lane] > now + EPS {
                        continue;
                    }
                    let (t, why) = ready(i, &spans);
                    if t > now + EPS {
                        continue;
                    }
                    let start = now.max(t);
                    let gap = start - free_at[lane];
                    if gap > EPS {
                        units[lane].stalls[reason(why)] += gap;
                    }
                    let dur = core.seconds(ins.unit, &ins.op);
                    spans[i] = (start, start + dur);
                    free_at[lane] = start + dur;
                    units[lane].busy += dur;
                    units[lane].count += 1;
                    head[lane] += 1;
                    match ins.op {
                        Op::Matmul { k, cols, n, .. } => {
                            tensor_cycles += f64::from(core.cycles(ins.unit, &ins.op));
                            macs_used += f64::from(k) * f64::from(cols) * f64::from(n);
                        }
                        Op::Transpose { .. } => {
                            tensor_cycles += f64::from(core.cycles(ins.unit, &ins.op));
                        }
                        _ => {}
                    }
                    started = true;
                }
            }
            // DMA transfers whose data may move now.
            for lane in 4..lanes {
                if let Some(go) = pending[lane] {
                    if go <= now + EPS {
                        pending[lane] = None;
                        let i = queue[lane][head[lane]] as usize;
                        let ins = &s.instrs[i];
                        spans[i].0 = now;
                        flows.push(Flow {
                            instr: i as u32,
                            left: bytes(&ins.op),
                            cap: core.dma_cap(&ins.op),
                            rate: 0.0,
                        });
                        hbm_bytes += bytes(&ins.op);
                        units[lane].count += 1;
                        head[lane] += 1;
                        started = true;
                        reshare = true;
                    }
                }
            }
        }
        // Rates change only when a transfer starts or ends.
        if reshare {
            share(&mut flows, ceiling);
            reshare = false;
        }
        // The next event.
        let mut next = f64::INFINITY;
        for &t in &free_at[..4] {
            if t > now + EPS {
                next = next.min(t);
            }
        }
        for p in pending.iter().flatten() {
            next = next.min(*p);
        }
        for f in &flows {
            if f.rate > 0.0 {
                next = next.min(now + f.left / f.rate);
            }
        }
        if !next.is_finite() {
            break;
        }
        let dt = next - now;
        for f in &mut flows {
            f.left -= f.rate * dt;
        }
        now = next;
        let mut k = 0;
        while k < flows.len() {
            if flows[k].left <= flows[k].cap * 1e-12 + 1e-6 {
                let f = flows.swap_remove(k);
                let i = f.instr as usize;
                spans[i].1 = now;
                let lane = s.instrs[i].unit.lane();
                units[lane].busy += now - spans[i].0;
                free_at[lane] = now;
                reshare = true;
            } else {
                k += 1;
            }
        }
    }
    // Memory high-water: replay allocations and releases in time order.
    let mut ev: Vec<(f64, i64, i64)> = Vec::with_capacity(2 * n);
    for (i, ins) in s.instrs.iter().enumerate() {
        let (a, b) = spans[i];
        if ins.alloc != [0; 2] {
            ev.push((a, i64::from(ins.alloc[0]), i64::from(ins.alloc[1])));
        }
        if ins.free != [0; 2] {
            ev.push((b, -i64::from(ins.free[0]), -i64::from(ins.free[1])));
        }
    }
    // Releases before allocations at the same instant.
    ev.sort_by(|x, y| {
        x.0.partial_cmp(&y.0)
            .unwrap_or(core::cmp::Ordering::Equal)
            .then((x.1 + x.2).cmp(&(y.1 + y.2)))
    });
    let mut live = [0i64; 2];
    let mut peak = [0u32; 2];
    for (_, a, b) in ev {
        live[0] += a;
        live[1] += b;
        for m in 0..2 {
            peak[m] = peak[m].max(u32::try_from(live[m].max(0)).unwrap_or(u32::MAX));
        }
    }
    let seconds = spans
        .iter()
        .map(|x| x.1)
        .filter(|t| t.is_finite())
        .fold(0.0, f64::max);
    let mut reserved = [0u32; 2];
    for p in &s.pools {
        let m = usize::from(p.mem == Mem::Psum);
        reserved[m] = reserved[m].saturating_add(p.bytes.saturating_mul(p.bufs));
    }
    Run {
        seconds,
        spans,
        units,
        flops: s.flops,
        hbm_bytes,
        peak,
        reserved,
        capacity: [core.sbuf_bytes, core.psum_bytes],
        tensor_cycles,
        macs_used,
    }
}

/// Max-min fair shares of `ceiling` among `flows`, each capped.
fn share(flows: &mut [Flow], ceiling: f64) {
    let mut order: Vec<usize> = (0..flows.len()).collect();
    order.sort_by(|&a, &b| {
        flows[a]
            .cap
            .partial_cmp(&flows[b].cap)
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    let mut left = ceiling;
    let mut count = flows.len();
    for i in order {
        let fair = left / count as f64;
        let r = flows[i].cap.min(fair);
        flows[i].rate = r;
        left -= r;
        count -= 1;
    }
}

/// Ring of buffers in a pool: which instruction last read each buffer, so the next writer of
/// that buffer waits for it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ring {
    bufs: usize,
    next: usize,
    last_reader: Vec<Option<u32>>,
}

impl Ring {
    pub(crate) fn new(bufs: u32) -> Ring {
        Ring {
            bufs: bufs.max(1) as usize,
            next: 0,
            last_reader: vec![None; bufs.max(1) as usize],
        }
    }

    /// Take the next buffer: the wait on its previous readers, if any, and its index.
    pub(crate) fn take(&mut self) -> (Option<Dep>, usize) {
        let b = self.next;
        self.next = (self.next + 1) % self.bufs;
        (
            self.last_reader[b].take().map(|on| Dep { on, slot: true }),
            b,
        )
    }

    /// Record that instruction `i` reads buffer `b`.
    pub(crate) fn read(&mut self, b: usize, i: u32) {
        if let Some(r) = self.last_reader.get_mut(b) {
            *r = Some(r.map_or(i, |x| x.max(i)));
        }
    }
}

/// Builder of a schedule's instruction list.
pub(crate) struct Builder {
    pub(crate) instrs: Vec<Instr>,
}

impl Builder {
    pub(crate) fn push(&mut self, ins: Instr) -> u32 {
        self.instrs.push(ins);
        (self.instrs.len() - 1) as u32
    }

    pub(crate) fn add(
        &mut self,
        unit: Unit,
        op: Op,
        what: &'static str,
        at: [u32; 3],
        deps: &[Option<Dep>],
    ) -> u32 {
        let mut ins = Instr::new(unit, op, what, at);
        ins.deps = deps.iter().flatten().copied().collect();
        self.push(ins)
    }

    /// The finished schedule: these instructions on `core` with `pools`, on three DMA queues.
    pub(crate) fn finish(
        self,
        core: &Core,
        pools: Vec<Pool>,
        flops: f64,
        dtype: Dtype,
    ) -> Schedule {
        Schedule {
            core: core.clone(),
            instrs: self.instrs,
            pools,
            flops,
            dtype,
            queues: 3,
        }
    }

    pub(crate) fn free(&mut self, i: u32, mem: Mem, bytes: u32) {
        if let Some(ins) = self.instrs.get_mut(i as usize) {
            let m = usize::from(mem == Mem::Psum);
            ins.free[m] = ins.free[m].saturating_add(bytes);
        }
    }

    pub(crate) fn alloc(&mut self, i: u32, mem: Mem, bytes: u32) {
        if let Some(ins) = self.instrs.get_mut(i as usize) {
            let m = usize::from(mem == Mem::Psum);
            ins.alloc[m] = ins.alloc[m].saturating_add(bytes);
        }
    }
}

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
