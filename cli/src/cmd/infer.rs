//! `accelscope infer`: serving a model: tokens/s, chips needed, cost per million tokens.

use engine::system::Cluster;
use engine::{tco, workload, Dtype};
use serde_json::{json, Value};

use super::serve_curve::{Curve, Request};
use super::Run;
use crate::args::{Json, LengthArgs, ModelArgs, Placement, PriceArgs, ServingArgs, SloArgs};
use crate::error::Error;
use crate::parse;
use crate::pricing::Price;
use crate::report::{Format, Report};

/// Tokens/s, chips needed and cost per million tokens of serving
///
/// Serving a model at a batch: tokens/s, chips needed per replica, cost per million tokens.
///
/// The weights and KV cache may be held in their own formats, K drafted tokens accepted with
/// probability A (speculative decoding), and part of each prompt found in a prefix cache.
/// With --slo-ttft or --slo-tpot it answers as `accelscope serve-curve` does, with the
/// cheapest configuration meeting the targets (--batch is then not needed).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    at: Placement,
    #[command(flatten)]
    model: ModelArgs,
    /// The weight and compute format (bf16, fp8, fp4, …), the KV cache's too unless --kv-dtype
    #[arg(long, value_name = "F", value_parser = parse::parsed::<Dtype>())]
    dtype: Dtype,
    /// Concurrent sequences per replica
    #[arg(long, value_name = "B", allow_hyphen_values = true,
          required_unless_present_any = ["slo_ttft", "slo_tpot"],
          value_parser = parse::keyed("wbatch"))]
    batch: Option<u32>,
    #[command(flatten)]
    lengths: LengthArgs,
    /// Chips per replica, tensor parallel (default: the fewest that fit, a power of two)
    #[arg(long, value_name = "T", allow_hyphen_values = true, value_parser = parse::count())]
    tp: Option<u32>,
    /// Fraction of the dense BF16 peak large BF16 matmuls reach, in (0, 1] (default: the
    /// chip's)
    #[arg(long, value_name = "F", allow_hyphen_values = true, value_parser = parse::fraction())]
    matmul_efficiency: Option<f64>,
    /// Fraction of the HBM bandwidth a decode step streams at, in (0, 1]
    #[arg(long, value_name = "F", default_value_t = workload::SERVING_MEMORY_EFFICIENCY,
          allow_hyphen_values = true, value_parser = parse::fraction())]
    memory_efficiency: f64,
    #[command(flatten)]
    price: PriceArgs,
    #[command(flatten)]
    slo: SloArgs,
    #[command(flatten)]
    serving: ServingArgs,
    #[command(flatten)]
    out: Json,
}

/// A serving configuration's figures and price.
pub struct Served {
    cluster: Cluster,
    cfg: workload::InferConfig,
    r: workload::InferReport,
    price: Price,
    cost_per_mtok_usd: f64,
}

/// What `infer` prints: one configuration, or the cheapest meeting latency targets.
pub enum Inferred {
    Served(Box<Served>),
    Cheapest(Box<Curve>),
}

impl Run for Args {
    type Output = Inferred;
    fn run(&self) -> Result<Inferred, Error> {
        if self.slo.any() {
            let req = Request {
                system: &self.at.system,
                nodes: self.at.nodes,
                model: &self.model,
                dtype: self.dtype,
                lengths: &self.lengths,
                price: &self.price,
                slo: &self.slo,
                serving: &self.serving,
            };
            return Ok(Inferred::Cheapest(Box::new(req.curve(false, true)?)));
        }
        let (cluster, chip) = self.at.cluster()?;
        let batch = self
            .batch
            .ok_or_else(|| Error::usage("--batch is required"))?;
        // The defaults of a serving configuration, and what the command line sets.
        let cfg = self.serving.apply(workload::InferConfig {
            tp: self.tp,
            matmul_efficiency: self.matmul_efficiency,
            memory_efficiency: self.memory_efficiency,
            ..workload::InferConfig::new(
                self.model.load()?,
                self.dtype,
                batch,
                self.lengths.prompt,
                self.lengths.output,
            )
        });
        let r = workload::infer(&cluster, &chip, &cfg)?;
        let price = Price::of(&self.price, cluster.system.chip);
        let cost_per_mtok_usd =
            tco::cost_per_mtok(&price.pricing, r.replicas * r.chips_needed, r.tokens_per_s);
        Ok(Inferred::Served(Box::new(Served {
            cluster,
            cfg,
            r,
            price,
            cost_per_mtok_usd,
        })))
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for Inferred {
    fn json(&self) -> serde_json::Result<Value> {
        match self {
            Inferred::Served(s) => s.json(),
            Inferred::Cheapest(c) => c.json(),
        }
    }
    fn text(&self) -> Option<String> {
        match self {
            Inferred::Served(s) => s.text(),
            Inferred::Cheapest(c) => c.text(),
        }
    }
}

/// A step's operations as JSON: each with its kind, calls, shape, seconds, FLOPs, bytes and
/// where its time comes from (`measured`, with the kernel table's source; `roofline`;
/// `fabric`); empty when the step is not timed as a graph.
pub fn ops_json(s: &workload::ops::Step) -> Value {
    let ops: Vec<Value> = s
        .ops
        .iter()
        .map(|o| {
            let mut v = json!({
                "name": o.name,
                "kind": o.kind.id(),
                "calls": o.calls,
                "shape": o.shape.describe(),
                "seconds": o.seconds,
                "flops": o.flops,
                "bytes": o.bytes,
                "source": o.source.id(),
            });
            if let workload::ops::OpSource::Table(t) = &o.source {
                v["kernel_source"] = json!(t.source);
                v["kernel_url"] = json!(t.url);
                v["kernel_format"] = json!(t.format);
            }
            v
        })
        .collect();
    json!({
        "ops": ops,
        "launches_s": s.launches,
        "total_s": s.total(),
        "measured": s.measured(),
    })
}

/// The operations as text lines: name, source, time of all calls, calls and shape.
pub fn ops_text(s: &workload::ops::Step) -> String {
    let mut out = String::new();
    for o in &s.ops {
        out.push_str(&format!(
            "  {:<38} {:>9} {:>12} × {:<4} {}\n",
            o.name,
            o.source.id(),
            format!("{}", engine::units::Seconds::new(o.seconds)),
            o.calls,
            o.shape.describe()
        ));
    }
    out.push_str(&format!(
        "  {:<38} {:>9} {:>12}\n",
        "launches",
        "fitted",
        format!("{}", engine::units::Seconds::new(s.launches))
    ));
    out
}

impl Report for Served {
    fn json(&self) -> serde_json::Result<Value> {
        let (cfg, r) = (&self.cfg, &self.r);
        let mut v = json!({
            "system": self.cluster.system.id,
            "model": cfg.model.id,
            "dtype": cfg.dtype.id(),
            "batch": cfg.batch,
            "chips_needed": r.chips_needed,
            "replicas": r.replicas,
            "tokens_per_s": r.tokens_per_s,
            "tokens_per_s_per_chip": r.tokens_per_s_per_chip,
            "latency_per_token_s": r.latency_per_token.get(),
            "decode_bound": r.decode_bound,
            "cost_per_mtok_usd": self.cost_per_mtok_usd,
            "formula": r.formula,
            "attn_dp": r.layout.attn_dp,
            "ep": r.layout.ep,
            "decode_ops": ops_json(&r.decode_ops),
            "prefill_ops": ops_json(&r.prefill_ops),
        });
        self.price.json_fields(&mut v);
        Ok(v)
    }

    fn text(&self) -> Option<String> {
        let (cfg, r) = (&self.cfg, &self.r);
        // As the JSON holds it: not finite reads as 0.
        let cost = if self.cost_per_mtok_usd.is_finite() {
            self.cost_per_mtok_usd
        } else {
            0.0
        };
        let mut t = format!(
            "{} in {}: {} chip{} per replica, {:.0} tokens/s per chip, ${:.3} per million tokens\n{}",
            cfg.model.name, cfg.dtype, r.chips_needed, if r.chips_needed == 1 { "" } else { "s" },
            r.tokens_per_s_per_chip, cost, r.formula
        );
        if !r.decode_ops.ops.is_empty() {
            t.push_str(&format!(
                "\nattention data-parallel {} × expert-parallel {}; one decode step on one chip, operation by operation:\n{}",
                r.layout.attn_dp,
                r.layout.ep,
                ops_text(&r.decode_ops)
            ));
        }
        Some(t)
    }
}
