//! `accelscope train`: a training job's step time, throughput, MFU, time and cost.

use engine::job::{self, FailureInputs};
use engine::reliability::Goodput;
use engine::system::Cluster;
use engine::{tco, workload, Dtype};
use serde_json::{json, Value};

use super::Run;
use crate::args::{Json, ModelArgs, Placement, PriceArgs};
use crate::error::Error;
use crate::parse::{self, Check};
use crate::pricing::Price;
use crate::report::{Format, Report};

/// Step time, tokens/s, MFU, time and cost to train
///
/// A training job's step time, tokens/s, MFU, and the time and cost to train, then the same
/// with failures: goodput, interruptions, the chips each takes down, spares.
///
/// Without --tp, --pp, --dp, --cp or --zero the fastest parallel layout that fits is
/// searched; with any of them the layout is as given (the others at their defaults, --dp
/// filling the cluster).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    at: Placement,
    #[command(flatten)]
    model: ModelArgs,
    /// The compute format (bf16, fp8, fp4, …)
    #[arg(long, value_name = "F", value_parser = parse::parsed::<Dtype>())]
    dtype: Dtype,
    /// Tokens to train on
    #[arg(long, value_name = "T", default_value = "1e12", allow_hyphen_values = true,
          value_parser = parse::positive())]
    tokens: f64,
    /// Global batch, in sequences
    #[arg(long, value_name = "GBS", default_value_t = 1024, allow_hyphen_values = true,
          value_parser = parse::keyed("wgbs"))]
    batch: u32,
    /// Tensor-parallel degree
    #[arg(long, value_name = "T", allow_hyphen_values = true, value_parser = parse::count())]
    tp: Option<u32>,
    /// Pipeline-parallel degree
    #[arg(long, value_name = "P", allow_hyphen_values = true, value_parser = parse::count())]
    pp: Option<u32>,
    /// Data-parallel degree (default: the chips left by --tp × --cp × --pp)
    #[arg(long, value_name = "D", allow_hyphen_values = true, value_parser = parse::count())]
    dp: Option<u32>,
    /// Context-parallel degree
    #[arg(long, value_name = "C", allow_hyphen_values = true, value_parser = parse::count())]
    cp: Option<u32>,
    /// ZeRO stage, 0 to 3 (default with a layout: 1)
    #[arg(long, value_name = "0-3", allow_hyphen_values = true, value_parser = zero())]
    zero: Option<u8>,
    /// Expert-parallel degree (with a layout)
    #[arg(long, value_name = "E", default_value_t = 1, allow_hyphen_values = true,
          value_parser = parse::count())]
    ep: u32,
    /// Hybrid sharding (HSDP) with a layout: the data-parallel ranks split into R replica
    /// groups, each sharding the weights, gradients and optimizer states over its own ranks
    /// (needs --zero 3) and all-reducing its shard of the gradients with the others once a
    /// step
    #[arg(long, value_name = "R", default_value_t = 1, allow_hyphen_values = true,
          value_parser = parse::count())]
    replicate: u32,
    /// Pipeline stages per rank, interleaved (with a layout)
    #[arg(long, value_name = "V", default_value_t = 1, allow_hyphen_values = true,
          value_parser = parse::count())]
    interleave: u32,
    /// Sequences a device runs in one pass: the micro-batch (default: the fastest that fits,
    /// of the powers of two up to the sequences a data-parallel rank holds a step)
    #[arg(long, value_name = "B", allow_hyphen_values = true, value_parser = parse::keyed("wmb"))]
    micro_batch: Option<u32>,
    /// Offload each layer's input to host memory for recomputation: on, off, or auto (where
    /// nothing else fits)
    #[arg(long, value_name = "on|off|auto", default_value = "auto", value_parser = offload())]
    offload: Offload,
    /// Activation recomputation, on or off (with a layout)
    #[arg(long, value_name = "on|off", default_value = "on", action = clap::ArgAction::Set,
          value_parser = on_off())]
    recompute: bool,
    /// Fraction of the tensor- and data-parallel communication hidden behind compute, 0 to 1
    /// (default: the system's)
    #[arg(long, value_name = "F", allow_hyphen_values = true, value_parser = overlap())]
    overlap: Option<f64>,
    /// How a mixture of experts' tokens cross scale-up domains to their experts: per-expert
    /// (a copy for each expert, Megatron's all-to-all) or per-domain (a copy for each domain
    /// holding one of its experts, fanned out inside it, as DeepEP and HybridEP send them)
    #[arg(long, value_name = "D", default_value = "per-expert", value_parser = dispatch())]
    ep_dispatch: workload::Dispatch,
    /// Run the expert all-to-alls beside another micro-batch's compute (Megatron's expert
    /// communication overlap, DeepSeek's DualPipe), the compute they overlap slowed by the
    /// processors they hold: on or off
    #[arg(long, value_name = "on|off", default_value = "off", action = clap::ArgAction::Set,
          value_parser = ep_overlap())]
    ep_overlap: bool,
    /// Tokens of the busiest expert-parallel rank over the mean (mixtures of experts)
    #[arg(long, value_name = "X", allow_hyphen_values = true, value_parser = imbalance())]
    expert_imbalance: Option<f64>,
    #[command(flatten)]
    price: PriceArgs,
    #[command(flatten)]
    out: Json,
}

fn zero() -> Check<impl Fn(&str, &str) -> Result<u8, String> + Clone> {
    Check(|_: &str, z: &str| match z.parse::<u8>() {
        Ok(z) if z <= 3 => Ok(z),
        _ => Err(format!(
            "--zero must be a ZeRO stage from 0 to 3, got '{z}'"
        )),
    })
}

fn ep_overlap() -> Check<impl Fn(&str, &str) -> Result<bool, String> + Clone> {
    Check(|_: &str, x: &str| match x {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("--ep-overlap must be on or off, got '{x}'")),
    })
}

fn on_off() -> Check<impl Fn(&str, &str) -> Result<bool, String> + Clone> {
    Check(|_: &str, x: &str| match x {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("--recompute must be on or off, got '{x}'")),
    })
}

/// `--offload`: forced on or off, or where nothing else fits.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Offload {
    On,
    Off,
    Auto,
}

fn offload() -> Check<impl Fn(&str, &str) -> Result<Offload, String> + Clone> {
    Check(|_: &str, x: &str| match x {
        "on" => Ok(Offload::On),
        "off" => Ok(Offload::Off),
        "auto" => Ok(Offload::Auto),
        _ => Err(format!("--offload must be on, off or auto, got '{x}'")),
    })
}

/// `--ep-dispatch`: one of [`workload::Dispatch::IDS`].
fn dispatch() -> Check<impl Fn(&str, &str) -> Result<workload::Dispatch, String> + Clone> {
    Check(|_: &str, x: &str| {
        workload::Dispatch::from_id(x).ok_or_else(|| {
            format!(
                "--ep-dispatch must be one of {}, got '{x}'",
                workload::Dispatch::IDS.join(", ")
            )
        })
    })
}

fn overlap() -> Check<impl Fn(&str, &str) -> Result<f64, String> + Clone> {
    Check(|_: &str, x: &str| match x.trim().parse::<f64>() {
        Ok(o) if (0.0..=1.0).contains(&o) => Ok(o),
        _ => Err(format!("--overlap must be in [0, 1], got '{x}'")),
    })
}

/// The range of the link key `wimb`, so a flag and its key accept the same values.
fn imbalance() -> Check<impl Fn(&str, &str) -> Result<f64, String> + Clone> {
    Check(|_: &str, x: &str| {
        let (lo, hi) = job::range("wimb").unwrap_or((1.0, 1.0));
        match x.trim().parse::<f64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(format!(
                "--expert-imbalance must be a number from {lo} to {hi} (the busiest expert-parallel rank's tokens over the mean), got '{x}'"
            )),
        }
    })
}

/// A training run's figures, its price and its failures.
pub struct Trained {
    cluster: Cluster,
    model: workload::Model,
    dtype: Dtype,
    tokens: f64,
    r: workload::TrainReport,
    price: Price,
    /// Seconds to train, without failures.
    time: f64,
    cost_usd: f64,
    goodput: Goodput,
    failures: FailureInputs,
}

impl Run for Args {
    type Output = Trained;
    fn run(&self) -> Result<Trained, Error> {
        let (cluster, chip) = self.at.cluster()?;
        let model = self.model.load()?;
        let mut cfg = workload::TrainConfig::new(
            model,
            self.dtype,
            self.batch,
            workload::Layout::START,
            engine::efficiency::default_bf16(&chip).value,
        );
        let ov = self.overlap.unwrap_or(cluster.system.overlap.value);
        cfg.tp_overlap = ov;
        cfg.dp_overlap = ov;
        if let Some(x) = self.expert_imbalance {
            cfg.expert_imbalance = x;
        }
        cfg.ep_dispatch = self.ep_dispatch;
        cfg.ep_overlap = self.ep_overlap;
        cfg.layout.micro_batch = self.micro_batch.unwrap_or(1);
        cfg.choose_micro_batch = self.micro_batch.is_none();
        cfg.layout.offload = self.offload == Offload::On;
        cfg.choose_offload = self.offload == Offload::Auto;
        let r = match (self.tp, self.pp, self.dp, self.cp, self.zero) {
            (None, None, None, None, None) => workload::best_layout(&cluster, &chip, &cfg)?,
            (tp, pp, dp, cp, zero) => {
                let l = &mut cfg.layout;
                l.tp = tp.unwrap_or(1);
                l.pp = pp.unwrap_or(1);
                l.cp = cp.unwrap_or(1);
                l.zero = zero.unwrap_or(1);
                let used = u64::from(l.tp) * u64::from(l.pp) * u64::from(l.cp);
                if used > u64::from(cluster.chips()) {
                    return Err(Error::usage(format!(
                        "--tp {} x --cp {} x --pp {} is more chips than the cluster has: the cluster has {} chips ({} node(s))",
                        l.tp,
                        l.cp,
                        l.pp,
                        cluster.chips(),
                        cluster.nodes
                    )));
                }
                l.dp = dp.unwrap_or((cluster.chips() / used.max(1) as u32).max(1));
                l.ep = self.ep;
                l.replicate = self.replicate;
                l.interleave = self.interleave;
                l.recompute = self.recompute;
                workload::train_best_micro(&cluster, &chip, &cfg)?
            }
        };
        let price = Price::of(&self.price, cluster.system.chip);
        let time = self.tokens / r.tokens_per_s;
        let (goodput, failures) = job::failure_model(&cluster, &cfg.model, time);
        Ok(Trained {
            cost_usd: tco::cost_of(&price.pricing, cluster.chips(), time),
            cluster,
            model: cfg.model,
            dtype: self.dtype,
            tokens: self.tokens,
            r,
            price,
            time,
            goodput,
            failures,
        })
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for Trained {
    fn json(&self) -> serde_json::Result<Value> {
        let (c, r, g, fi, time) = (
            &self.cluster,
            &self.r,
            &self.goodput,
            &self.failures,
            self.time,
        );
        let mut v = json!({
            "system": c.system.id,
            "nodes": c.nodes,
            "chips": c.chips(),
            "model": self.model.id,
            "dtype": self.dtype.id(),
            "tokens": self.tokens,
            "tokens_per_s": r.tokens_per_s,
            "mfu": r.mfu,
            "layout": r.layout.to_string(),
            "micro_batch": r.layout.micro_batch,
            "micro_batches": r.parts.counts.micro,
            "offload": r.layout.offload,
            "replicate": r.layout.replicate,
            "dp_all_reduce_exposed_s": r.dp_parts.all_reduce.get(),
            "dp_gather_forward_exposed_s": r.dp_parts.gather_forward.get(),
            "dp_gather_backward_exposed_s": r.dp_parts.gather_backward.get(),
            "dp_reduce_scatter_exposed_s": r.dp_parts.reduce_scatter.get(),
            "offload_exposed_s": r.offload.get(),
            "step_s": r.step.get(),
            "time_s": time,
            "chip_hours": time / 3600.0 * f64::from(c.chips()),
            "cost_usd": self.cost_usd,
            "memory_per_chip_bytes": r.memory.total(),
            "formula": r.formula,
            "failures": {
                "interruptions_per_chip_hour": fi.rate.value,
                "mtbf_h": g.mtbf_h,
                "interruptions": g.interruptions,
                "blast_radius_chips": fi.blast_radius,
                "repair_h": fi.repair_h.value,
                "restart_h": fi.restart_h.value,
                "checkpoint_bytes": fi.checkpoint_bytes,
                "checkpoint_s": g.checkpoint_h * 3600.0,
                "checkpoint_interval_s": g.interval_h * 3600.0,
                "goodput": g.goodput,
                "real_time_s": time / g.goodput,
                "spare_chips": g.spare_chips,
            },
        });
        self.price.json_fields(&mut v);
        Ok(v)
    }

    fn text(&self) -> Option<String> {
        let (c, r, g, fi, time) = (
            &self.cluster,
            &self.r,
            &self.goodput,
            &self.failures,
            self.time,
        );
        Some(format!(
            "{} on {} × {}: {:.0} tokens/s, MFU {:.1}%, {} tokens in {:.1} days, ${:.0} at ${:.2}/chip-hour\nwith failures: {:.1}% goodput, {:.1} days, {:.0} interruptions (one every {:.2} h), {} chips per failure, {:.0} spares\n{}",
            self.model.name, c.nodes, c.system.name, r.tokens_per_s, r.mfu * 100.0, self.tokens, time / 86400.0,
            json_number(self.cost_usd), self.price.usd, g.goodput * 100.0, time / g.goodput / 86400.0,
            g.interruptions, g.mtbf_h, fi.blast_radius, g.spare_chips, r.formula
        ))
    }
}

/// A figure as the JSON holds it: not finite reads as 0.
fn json_number(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}
