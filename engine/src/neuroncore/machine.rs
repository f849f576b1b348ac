//! One NeuronCore's parameters: engines, clocks, buffers, DMA and fixed costs, each with its
//! source, and what an instruction costs on it.

use super::*;

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

    pub(crate) fn hz(&self, u: Unit) -> f64 {
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
