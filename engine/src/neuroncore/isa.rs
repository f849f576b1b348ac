//! The NeuronCore's instructions: its engines, their operations and dependencies, the
//! buffers they use and a schedule of them, with what can go wrong with one.

use super::*;

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

    pub(crate) fn is_dma(self) -> bool {
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

    pub(crate) fn name(self) -> &'static str {
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
    pub(crate) fn new(unit: Unit, op: Op, what: &'static str, at: [u32; 3]) -> Instr {
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

pub(crate) fn kib(b: u32) -> String {
    let k = f64::from(b) / 1024.0;
    if (k - libm::round(k)).abs() < 0.05 {
        format!("{k:.0}")
    } else {
        format!("{k:.1}")
    }
}
