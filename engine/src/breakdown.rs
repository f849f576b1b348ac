//! Where the time goes, operation by operation: a job's training step split into rows (each
//! GEMM of a layer, attention, the elementwise work, casts, the output head, the optimizer,
//! the calls' fixed cost, the pipeline bubble and each collective), and its prefill and
//! decode step likewise, each adding up to what the job's report gives, each row with its
//! FLOPs, bytes, what bounds it, its share of the chip's peak in its format and where its
//! efficiency comes from.

use alloc::string::String;
use alloc::vec::Vec;

use crate::job::{self, Job};
use crate::roofline::Roofline;
use crate::source::Source;
use crate::workload::ops::OpSource;
use crate::workload::{TrainReport, WorkloadError};

/// The training step's row of the query, key and value projections.
pub const QKV: &str = "QKV projection";
/// The training step's row of the attention's output projection.
pub const OUT_PROJ: &str = "attention output projection";
/// The row of a dense model's MLP.
pub const MLP: &str = "MLP (up, gate, down)";
/// The row of a mixture of experts' experts.
pub const EXPERTS: &str = "experts, routed and shared (up, gate, down)";
/// The training step's rows that multiply by the model's layer weights: the GEMMs a narrower
/// format speeds up.
pub const WEIGHT_GEMMS: [&str; 4] = [QKV, OUT_PROJ, MLP, EXPERTS];

/// What bounds an operation's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The chip's arithmetic.
    Compute,
    /// Its memory bandwidth.
    Memory,
    /// A collective or a send between chips.
    Communication,
    /// Waiting: the pipeline's fill and drain.
    Latency,
    /// A fixed cost per call.
    Overhead,
}

impl Bound {
    /// Lower-case id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Bound::Compute => "compute",
            Bound::Memory => "memory",
            Bound::Communication => "communication",
            Bound::Latency => "latency",
            Bound::Overhead => "overhead",
        }
    }
}

/// Where an operation's efficiency comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A published measurement of this chip.
    Measured,
    /// Fitted to published runs.
    Fitted,
    /// The roofline or the collective model, with no efficiency of its own.
    Modelled,
    /// An assumption (or the user's own figure).
    Assumed,
}

impl Origin {
    /// Lower-case id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Origin::Measured => "measured",
            Origin::Fitted => "fitted",
            Origin::Modelled => "modelled",
            Origin::Assumed => "assumed",
        }
    }

    fn of(source: Source, estimate: bool) -> Self {
        match source {
            Source::Cited { .. } if estimate => Origin::Fitted,
            Source::Cited { .. } => Origin::Measured,
            Source::UserEdit | Source::Assumption => Origin::Assumed,
        }
    }
}

/// One row: an operation's share of a step.
#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    /// What it is.
    pub name: String,
    /// How many times a step runs it on one chip (layers × micro-batches × passes).
    pub count: f64,
    /// FLOPs per step on one chip.
    pub flop: f64,
    /// Bytes moved per step on one chip (HBM traffic; for communication, zero).
    pub bytes: f64,
    /// Time per step.
    pub time_s: f64,
    /// What bounds it.
    pub bound: Bound,
    /// Its FLOP/s as a share of the chip's dense peak in its format (0 where it does no
    /// arithmetic).
    pub of_peak: f64,
    /// Where its efficiency comes from.
    pub source: Origin,
    /// The kernel table its time is read from, when it is (`source` is then measured).
    pub kernel_source: Option<String>,
}

impl Op {
    /// FLOP per byte (0 where it moves no bytes).
    #[must_use]
    pub fn intensity(&self) -> f64 {
        if self.bytes > 0.0 {
            self.flop / self.bytes
        } else {
            0.0
        }
    }
}

/// A step split into its operations, which add up to `total_s`.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// The step's time, as the job's report gives it.
    pub total_s: f64,
    /// Its operations, in the order the step runs them.
    pub ops: Vec<Op>,
}

/// A job's training step, operation by operation.
///
/// # Errors
/// The job does not evaluate.
pub fn train_step(j: &Job) -> Result<Part, WorkloadError> {
    train_step_of(j, &job::evaluate(j)?)
}

/// The training step of a job already evaluated (`r` is `j`'s report), operation by
/// operation.
///
/// # Errors
/// The job's ids do not resolve.
pub fn train_step_of(j: &Job, r: &job::JobReport) -> Result<Part, WorkloadError> {
    let (_, chip, model) = job::resolve(j)?;
    let eff = job::efficiency(j, &chip);
    let moe = model.experts > 0;
    let mut part = split_train(&r.train, &chip, Origin::of(eff.source, eff.estimate), moe);
    // Experts timed from a kernel table say which.
    if r.train.parts.experts_measured {
        let table = crate::workload::training_experts_table(&model, &chip, j.dtype);
        if let (Some(t), Some(o)) = (table, part.ops.iter_mut().find(|o| o.name == EXPERTS)) {
            o.source = Origin::Measured;
            o.kernel_source = Some(alloc::format!("{} ({})", t.source, t.url));
        }
    }
    Ok(part)
}

/// The rows of a training step whose GEMM efficiency comes from `gemm_origin`; `moe` names
/// the MLP row a mixture of experts' experts.
#[must_use]
pub fn split_train(
    t: &TrainReport,
    chip: &crate::chip::Chip,
    gemm_origin: Origin,
    moe: bool,
) -> Part {
    let p = &t.parts;
    let c = &p.counts;
    let side_peak = Roofline::dense(chip, p.side_dtype).map_or(p.gemm_peak, |r| r.peak.get());
    let per_layer = c.micro * c.passes * c.layers;
    let bw = chip.hbm_bandwidth.value.get();
    let row = |name: &str, count: f64, cost: (f64, f64), time: f64, peak: f64, origin: Origin| {
        let (flop, bytes) = cost;
        // On the roofline an operation takes the longer of its arithmetic and its memory
        // traffic: memory-bound when the traffic alone fills its time.
        let bound = if bytes / bw >= 0.999 * time {
            Bound::Memory
        } else {
            Bound::Compute
        };
        Op {
            name: name.into(),
            count,
            flop,
            bytes,
            time_s: time,
            bound,
            of_peak: if time > 0.0 && peak > 0.0 {
                flop / time / peak
            } else {
                0.0
            },
            source: origin,
            kernel_source: None,
        }
    };
    let comm = |name: &str, time: f64, bound: Bound| Op {
        name: name.into(),
        count: 0.0,
        flop: 0.0,
        bytes: 0.0,
        time_s: time,
        bound,
        of_peak: 0.0,
        source: Origin::Modelled,
        kernel_source: None,
    };
    let g = &p.gemms;
    let mlp = if moe { EXPERTS } else { MLP };
    let mut ops = alloc::vec![
        row(
            QKV,
            per_layer,
            p.costs[0],
            g[1].get(),
            p.gemm_peak,
            gemm_origin
        ),
        row(
            OUT_PROJ,
            per_layer,
            p.costs[1],
            g[2].get(),
            p.gemm_peak,
            gemm_origin
        ),
        row(
            mlp,
            per_layer,
            p.costs[2],
            g[3].get(),
            p.gemm_peak,
            gemm_origin
        ),
        row(
            "attention core",
            per_layer,
            p.costs[3],
            p.attention.get(),
            side_peak,
            Origin::Modelled
        ),
        row(
            "norms and elementwise",
            per_layer,
            p.costs[4],
            p.elementwise.get(),
            side_peak,
            Origin::Modelled
        ),
        row(
            "casts to the GEMM format",
            per_layer,
            p.costs[5],
            p.casts.get(),
            side_peak,
            Origin::Modelled
        ),
        row(
            "output head",
            c.micro * c.passes,
            p.costs[6],
            p.head.get(),
            side_peak,
            Origin::Modelled
        ),
        row(
            "optimizer step",
            1.0,
            p.costs[7],
            p.optimizer.get(),
            p.gemm_peak,
            Origin::Modelled
        ),
        Op {
            name: "GEMM calls' fixed cost".into(),
            count: per_layer,
            flop: 0.0,
            bytes: 0.0,
            time_s: g[0].get(),
            bound: Bound::Overhead,
            of_peak: 0.0,
            source: Origin::Fitted,
            kernel_source: None,
        },
        comm("pipeline bubble", t.bubble.get(), Bound::Latency),
        comm(
            "tensor-parallel all-reduces",
            t.tp_comm.get(),
            Bound::Communication
        ),
        comm(
            "expert all-to-all (dispatch and combine)",
            t.ep_comm.get(),
            Bound::Communication
        ),
        comm(
            if t.layout.zero >= 3 {
                "HSDP all-reduce across replicas"
            } else {
                "gradient all-reduce"
            },
            t.dp_parts.all_reduce.get(),
            Bound::Communication
        ),
        comm(
            if t.layout.zero >= 3 {
                "FSDP gathers, forward (exposed)"
            } else {
                "ZeRO-2 weight all-gather"
            },
            t.dp_parts.gather_forward.get(),
            Bound::Communication
        ),
        comm(
            "FSDP gathers, backward (exposed)",
            t.dp_parts.gather_backward.get(),
            Bound::Communication
        ),
        comm(
            if t.layout.zero >= 3 {
                "FSDP reduce-scatters (exposed)"
            } else {
                "ZeRO-2 reduce-scatters"
            },
            t.dp_parts.reduce_scatter.get(),
            Bound::Communication
        ),
        comm(
            "context-parallel ring",
            t.cp_comm.get(),
            Bound::Communication
        ),
        comm("pipeline sends", t.pp_comm.get(), Bound::Communication),
        comm(
            "layer inputs to and from host memory (offload)",
            t.offload.get(),
            Bound::Communication
        ),
    ];
    // What this job does not do (casts in BF16, collectives of a degree of 1) is left out.
    ops.retain(|o| o.time_s > 0.0);
    Part {
        total_s: t.step.get(),
        ops,
    }
}

/// A job's prefill of one batch's prompts and its decode step (per output token),
/// operation by operation; `None` where the model does not fit one scale-up domain.
///
/// # Errors
/// The job does not evaluate.
pub fn serving(j: &Job) -> Result<Option<(Part, Part)>, WorkloadError> {
    let r = job::evaluate(j)?;
    let (_, chip, m) = job::resolve(j)?;
    let Some(i) = r.infer else {
        return Ok(None);
    };
    let peak = Roofline::dense(&chip, j.dtype).map_or(0.0, |r| r.peak.get());
    if !i.decode_ops.ops.is_empty() {
        let bw = chip.hbm_bandwidth.value.get();
        // A graph's operations are the model itself: one pass of each, scaled to what the
        // report gives (the prefill's passes, the decode step per output token).
        let rows = |s: &crate::workload::ops::Step, scale: f64| -> Vec<Op> {
            let mut v: Vec<Op> = s
                .ops
                .iter()
                .map(|o| {
                    let (bound, source, kernel_source) = match &o.source {
                        OpSource::Fabric => (Bound::Communication, Origin::Modelled, None),
                        src => (
                            if o.flops / peak.max(1.0) >= o.bytes / bw {
                                Bound::Compute
                            } else {
                                Bound::Memory
                            },
                            if src.id() == "measured" {
                                Origin::Measured
                            } else {
                                Origin::Modelled
                            },
                            match src {
                                OpSource::Table(t) => {
                                    Some(alloc::format!("{} ({})", t.source, t.url))
                                }
                                _ => None,
                            },
                        ),
                    };
                    Op {
                        name: o.name.into(),
                        count: o.calls * scale,
                        flop: o.flops * scale,
                        bytes: if bound == Bound::Communication {
                            0.0
                        } else {
                            o.bytes * scale
                        },
                        time_s: o.seconds * scale,
                        bound,
                        of_peak: if o.seconds > 0.0 && peak > 0.0 {
                            o.flops / o.seconds / peak
                        } else {
                            0.0
                        },
                        source,
                        kernel_source,
                    }
                })
                .collect();
            v.push(Op {
                name: "kernel launches and fixed costs".into(),
                count: scale,
                flop: 0.0,
                bytes: 0.0,
                time_s: s.launches * scale,
                bound: Bound::Overhead,
                of_peak: 0.0,
                source: Origin::Fitted,
                kernel_source: None,
            });
            v
        };
        let (p, d) = (&i.prefill_ops, &i.decode_ops);
        let pre_scale = if p.total() > 0.0 {
            i.prefill.get() / p.total()
        } else {
            0.0
        };
        let draft = i.decode_parts.draft.get();
        let dec_scale = if d.total() > 0.0 {
            (i.decode_step.get() - draft) / d.total()
        } else {
            0.0
        };
        let mut dec = rows(d, dec_scale);
        if draft > 0.0 {
            dec.push(Op {
                name: "drafting (speculative decoding)".into(),
                count: 1.0,
                flop: 0.0,
                bytes: 0.0,
                time_s: draft,
                bound: Bound::Compute,
                of_peak: 0.0,
                source: Origin::Modelled,
                kernel_source: None,
            });
        }
        return Ok(Some((
            Part {
                total_s: i.prefill.get(),
                ops: rows(p, pre_scale),
            },
            Part {
                total_s: i.decode_step.get(),
                ops: dec,
            },
        )));
    }
    // The weights a token's GEMMs touch, in three groups: the attention projections, the MLPs
    // (or experts) and the output head. Their FLOPs and the weights they stream are in the
    // same proportion.
    let attn = m.attn_params_all();
    let head = f64::from(m.vocab) * m.d();
    let mlp = (m.params_active() - attn - head).max(0.0);
    let all = (attn + mlp + head).max(1.0);
    let groups = [
        ("attention projections (QKV and output)", attn / all),
        (if m.experts > 0 { EXPERTS } else { MLP }, mlp / all),
        ("output head", head / all),
    ];
    let gemm_row = |name: &str, share: f64, time: f64, cost: (f64, f64), compute: bool| Op {
        name: name.into(),
        count: 1.0,
        flop: cost.0 * share,
        bytes: cost.1 * share,
        time_s: time * share,
        bound: if compute {
            Bound::Compute
        } else {
            Bound::Memory
        },
        of_peak: if time > 0.0 && peak > 0.0 {
            cost.0 / time / peak
        } else {
            0.0
        },
        source: Origin::Fitted,
        kernel_source: None,
    };
    let plain = |name: &str, time: f64, bound: Bound, source: Origin| Op {
        name: name.into(),
        count: 1.0,
        flop: 0.0,
        bytes: 0.0,
        time_s: time,
        bound,
        of_peak: 0.0,
        source,
        kernel_source: None,
    };
    // The prefill: its forward passes split between the weight GEMMs and attention over the
    // prompt, by their FLOPs; then its exchanges and launches.
    let p = &i.prefill_parts;
    let fwd = p.forward.get();
    let gemm_part = 1.0 - p.attention_share;
    let gemm_cost = (p.cost.0 * gemm_part, p.cost.1);
    let mut pre: Vec<Op> = groups
        .iter()
        .map(|(n, s)| gemm_row(n, *s, fwd * gemm_part, gemm_cost, p.compute_bound))
        .collect();
    pre.push(Op {
        name: "attention core over the prompt".into(),
        count: 1.0,
        flop: p.cost.0 * p.attention_share,
        bytes: 0.0,
        time_s: fwd * p.attention_share,
        bound: if p.compute_bound {
            Bound::Compute
        } else {
            Bound::Memory
        },
        of_peak: if fwd > 0.0 && peak > 0.0 {
            p.cost.0 / fwd / peak
        } else {
            0.0
        },
        source: Origin::Modelled,
        kernel_source: None,
    });
    pre.push(plain(
        "tensor-parallel all-reduces",
        p.tp_comm.get(),
        Bound::Communication,
        Origin::Modelled,
    ));
    pre.push(plain(
        "GEMM launches and fixed costs",
        p.launches.get(),
        Bound::Overhead,
        Origin::Fitted,
    ));
    // The decode step, per output token: the weight GEMMs, attention reading the KV cache,
    // launches, exchanges and drafting.
    let d = &i.decode_parts;
    let mut dec: Vec<Op> = groups
        .iter()
        .map(|(n, s)| gemm_row(n, *s, d.weights.get(), d.costs[0], d.weights_compute_bound))
        .collect();
    let (af, ab) = d.costs[1];
    let at = d.attention.get();
    dec.push(Op {
        name: "attention over the KV cache".into(),
        count: 1.0,
        flop: af,
        bytes: ab,
        time_s: at,
        bound: if ab / chip.hbm_bandwidth.value.get() >= 0.5 * at {
            Bound::Memory
        } else {
            Bound::Compute
        },
        of_peak: if at > 0.0 && peak > 0.0 {
            af / at / peak
        } else {
            0.0
        },
        source: Origin::Modelled,
        kernel_source: None,
    });
    dec.push(plain(
        "GEMM launches and fixed costs",
        d.launches.get(),
        Bound::Overhead,
        Origin::Fitted,
    ));
    dec.push(plain(
        "tensor-parallel all-reduces",
        d.tp_comm.get(),
        Bound::Communication,
        Origin::Modelled,
    ));
    if d.draft.get() > 0.0 {
        dec.push(plain(
            "drafting (speculative decoding)",
            d.draft.get(),
            Bound::Compute,
            Origin::Modelled,
        ));
    }
    Ok(Some((
        Part {
            total_s: i.prefill.get(),
            ops: pre,
        },
        Part {
            total_s: i.decode_step.get(),
            ops: dec,
        },
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(system: &str, nodes: u32, model: &str, dtype: crate::Dtype) -> Job {
        Job {
            system: system.into(),
            nodes,
            model: model.into(),
            dtype,
            ..Job::default()
        }
    }

    /// The rows add up to the step the report gives, whatever the layout: dense and MoE,
    /// BF16 and FP8, tensor, pipeline and expert parallel.
    #[test]
    fn the_rows_add_up_to_the_step() {
        for j in [
            Job::default(),
            job("hgx-h100-8", 8, "llama3-70b", crate::Dtype::Fp8),
            job("gb200-nvl72", 4, "llama3-405b", crate::Dtype::Bf16),
            job("trn2-ultra-64", 16, "deepseek-v3", crate::Dtype::Bf16),
            Job {
                micro_batch: Some(4),
                offload: Some(true),
                ..job("tpu-v6e-256", 1, "llama3-70b", crate::Dtype::Bf16)
            },
        ] {
            let part = train_step(&j).unwrap();
            let sum: f64 = part.ops.iter().map(|o| o.time_s).sum();
            assert!(
                (sum / part.total_s - 1.0).abs() < 1e-9,
                "{}: {sum} against {}",
                j.system,
                part.total_s
            );
            assert!(part.ops.len() >= 6, "{}: {:?}", j.system, part.ops);
            assert_eq!(part.total_s, job::evaluate(&j).unwrap().train.step.get());
            for o in &part.ops {
                assert!(o.time_s >= 0.0 && o.of_peak <= 1.0 + 1e-9, "{o:?}");
            }
        }
    }

    /// A prefill and a decode step split into at least six rows that add up to what the
    /// report gives, dense and MoE, with and without speculative decoding.
    #[test]
    fn serving_rows_add_up_to_the_prefill_and_the_decode_step() {
        for j in [
            Job::default(),
            job("hgx-h100-8", 8, "llama3-70b", crate::Dtype::Fp8),
            job("trn2-ultra-64", 4, "deepseek-v3", crate::Dtype::Fp8),
            Job {
                draft_tokens: 3,
                acceptance: 0.7,
                ..job("gb200-nvl72", 1, "llama3-70b", crate::Dtype::Fp8)
            },
        ] {
            let (pre, dec) = serving(&j).unwrap().expect("fits");
            let r = job::evaluate(&j).unwrap().infer.unwrap();
            assert_eq!(pre.total_s, r.prefill.get());
            assert_eq!(dec.total_s, r.decode_step.get());
            for part in [&pre, &dec] {
                let sum: f64 = part.ops.iter().map(|o| o.time_s).sum();
                assert!(
                    (sum / part.total_s - 1.0).abs() < 1e-9,
                    "{}: {sum} against {}",
                    j.system,
                    part.total_s
                );
                assert!(part.ops.len() >= 6, "{:?}", part.ops);
                for o in &part.ops {
                    assert!(o.time_s >= 0.0 && o.of_peak <= 1.0 + 1e-9, "{o:?}");
                }
            }
        }
    }

    /// The GEMMs carry the model's training FLOPs: on one chip per step, 6·N·tokens for the
    /// dense layers' matmuls (attention and the head apart), within the rounding of the
    /// layer split.
    #[test]
    fn the_gemms_hold_the_parameters_flops() {
        let j = job("hgx-h100-8", 8, "llama3-70b", crate::Dtype::Bf16);
        let r = job::evaluate(&j).unwrap();
        let part = train_step(&j).unwrap();
        let gemm: f64 = part.ops[..3].iter().map(|o| o.flop).sum();
        let m = crate::workload::find_model("llama3-70b").unwrap();
        let l = r.train.layout;
        let c = r.train.parts.counts;
        // Forward 2·N per token; three passes; this chip's share of the layers and tensor.
        let layer_params = (m.params_active() - f64::from(m.vocab) * m.d()) / f64::from(m.layers);
        let want = 2.0 * layer_params * c.tokens * c.passes * c.layers * c.micro / f64::from(l.tp);
        assert!(
            (gemm / want - 1.0).abs() < 0.02,
            "{gemm:e} against {want:e}"
        );
    }
}
