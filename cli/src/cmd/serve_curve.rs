//! `accelscope serve-curve`: a model's serving curve on a system, or a link's serving view.

use std::fmt::Write as _;

use engine::serving::{self, Disaggregated, Serving};
use engine::system::System;
use engine::units::sig;
use engine::workload::curve::{cheapest, curve, frontier, ServePoint};
use engine::{workload, Dtype, Scenario};
use serde_json::{json, Value};

use super::Run;
use crate::args::{self, Json, LengthArgs, ModelArgs, PriceArgs, ServingArgs, SloArgs};
use crate::error::Error;
use crate::load;
use crate::parse;
use crate::pricing::Price;
use crate::report::{finite, Format, Report};

/// Throughput and $/Mtok against tokens/s per user; the cheapest point meeting targets
///
/// Throughput per chip and $/Mtok against tokens/s per user, over chips per replica and
/// batch, and the cheapest point meeting latency targets.
///
/// With --system, --model and --dtype: the curve of one model on one system (its frontier,
/// or every point with --all), the TTFT and TPOT of each point, and the cheapest point
/// meeting --slo-ttft and --slo-tpot. `accelscope infer` takes the same targets and answers
/// with that point.
///
/// With --link URL: the Workload page's serving view of a link the app wrote (the other
/// flags are not used): each platform's cheapest configuration meeting the link's targets
/// at its own price, the cheapest of all, and prefill and decode served disaggregated.
#[derive(clap::Args, Debug)]
// With --link no model is needed.
#[command(
    mut_group("ModelArgs", |g| g.required(false)),
    mut_arg("model", |a| a.required_unless_present_any(["model_config", "link"]))
)]
pub struct Args {
    /// A link the app wrote (a whole URL or its query): its serving view
    #[arg(long, value_name = "URL")]
    link: Option<String>,
    /// The system, as `accelscope systems` lists them
    #[arg(long, value_name = "ID", required_unless_present = "link")]
    system: Option<String>,
    /// Scale-up domains (nodes) of the system
    #[arg(long, value_name = "N", default_value_t = 1, allow_hyphen_values = true,
          value_parser = parse::keyed("wnodes"))]
    nodes: u32,
    #[command(flatten)]
    model: ModelArgs,
    /// The weight and compute format (bf16, fp8, fp4, …), the KV cache's too unless --kv-dtype
    #[arg(long, value_name = "F", required_unless_present = "link",
          value_parser = parse::parsed::<Dtype>())]
    dtype: Option<Dtype>,
    #[command(flatten)]
    lengths: LengthArgs,
    #[command(flatten)]
    price: PriceArgs,
    #[command(flatten)]
    slo: SloArgs,
    #[command(flatten)]
    serving: ServingArgs,
    /// Every point of the curve, not only its frontier
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    out: Json,
}

/// What a serving curve is computed from: the flags `serve-curve` and `infer` share.
pub struct Request<'a> {
    pub system: &'a str,
    pub nodes: u32,
    pub model: &'a ModelArgs,
    pub dtype: Dtype,
    pub lengths: &'a LengthArgs,
    pub price: &'a PriceArgs,
    pub slo: &'a SloArgs,
    pub serving: &'a ServingArgs,
}

/// A serving curve and the cheapest point meeting the targets.
pub struct Curve {
    system: System,
    base: workload::InferConfig,
    usd_per_chip_hour: f64,
    /// Latency targets, s (infinite: none).
    targets: (f64, f64),
    cheapest: Option<ServePoint>,
    /// The points shown, or none when only the cheapest is asked for.
    points: Option<Vec<ServePoint>>,
}

impl Request<'_> {
    /// The curve (every point with `all`, else its frontier; none with `cheapest_only`).
    pub fn curve(&self, all: bool, cheapest_only: bool) -> Result<Curve, Error> {
        let (cluster, chip) = args::cluster(self.system, self.nodes)?;
        let model = self.model.load()?;
        let base = self.serving.apply(workload::InferConfig::new(
            model,
            self.dtype,
            1,
            self.lengths.prompt,
            self.lengths.output,
        ));
        let (ttft, tpot) = self.slo.targets();
        let price = Price::of(self.price, cluster.system.chip);
        let pts = curve(&cluster, &chip, &base);
        if pts.is_empty() {
            if let Some(why) =
                workload::curve::layout_misfit(base.attn_dp, base.ep, cluster.system.chips())
            {
                return Err(Error::usage(why));
            }
            return Err(Error::usage(format!(
                "{} does not fit one {}-chip domain of {} in {} at any batch",
                base.model.name,
                cluster.system.chips(),
                cluster.system.name,
                self.dtype
            )));
        }
        let points = (!cheapest_only).then(|| if all { pts.clone() } else { frontier(&pts) });
        Ok(Curve {
            cheapest: cheapest(&pts, ttft, tpot),
            system: cluster.system,
            base,
            usd_per_chip_hour: price.usd,
            targets: (ttft, tpot),
            points,
        })
    }
}

/// What `serve-curve` prints: a curve, or a link's serving view.
pub enum ServeCurve {
    Curve(Box<Curve>),
    Link(Box<LinkView>),
}

impl Run for Args {
    type Output = ServeCurve;
    fn run(&self) -> Result<ServeCurve, Error> {
        if let Some(link) = &self.link {
            return Ok(ServeCurve::Link(Box::new(LinkView::of(load::link(link)?))));
        }
        let (Some(system), Some(dtype)) = (&self.system, self.dtype) else {
            return Err(Error::usage("--system and --dtype are required"));
        };
        let req = Request {
            system,
            nodes: self.nodes,
            model: &self.model,
            dtype,
            lengths: &self.lengths,
            price: &self.price,
            slo: &self.slo,
            serving: &self.serving,
        };
        Ok(ServeCurve::Curve(Box::new(req.curve(self.all, false)?)))
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for ServeCurve {
    fn json(&self) -> serde_json::Result<Value> {
        match self {
            ServeCurve::Curve(c) => c.json(),
            ServeCurve::Link(l) => l.json(),
        }
    }
    fn text(&self) -> Option<String> {
        match self {
            ServeCurve::Curve(c) => c.text(),
            ServeCurve::Link(l) => l.text(),
        }
    }
}

/// A target for text: `50 ms`, or `any`.
fn target_ms(x: f64) -> String {
    if x.is_finite() {
        format!("{} ms", sig(x * 1e3, 4))
    } else {
        "any".into()
    }
}

impl Curve {
    fn row(&self, p: &ServePoint) -> Value {
        json!({"chips_per_replica": p.tp, "batch": p.batch, "ttft_s": p.ttft_s, "tpot_s": p.tpot_s,
            "tokens_per_s_per_user": p.interactivity(), "tokens_per_s_per_chip": p.tokens_per_s_per_chip,
            "usd_per_mtok": p.usd_per_mtok(self.usd_per_chip_hour)})
    }
}

impl Report for Curve {
    fn json(&self) -> serde_json::Result<Value> {
        let (ttft, tpot) = self.targets;
        Ok(json!({
            "system": self.system.id, "model": self.base.model.id, "dtype": self.base.dtype.id(),
            "prompt": self.base.prompt, "output": self.base.output,
            "usd_per_chip_hour": self.usd_per_chip_hour,
            "targets": {"ttft_s": finite(ttft), "tpot_s": finite(tpot)},
            "cheapest": self.cheapest.as_ref().map(|p| self.row(p)),
            "points": self.points.as_ref().map(|pts| pts.iter().map(|p| self.row(p)).collect::<Vec<_>>()),
        }))
    }

    fn text(&self) -> Option<String> {
        let usd = self.usd_per_chip_hour;
        let mut out = String::new();
        if let Some(points) = &self.points {
            let _ = writeln!(
                out,
                "{:>6} {:>6} {:>10} {:>10} {:>12} {:>14} {:>10}",
                "chips", "batch", "TTFT ms", "TPOT ms", "tok/s/user", "tok/s/chip", "$/Mtok"
            );
            for p in points {
                let _ = writeln!(
                    out,
                    "{:>6} {:>6} {:>10.1} {:>10.2} {:>12.1} {:>14.0} {:>10.3}",
                    p.tp,
                    p.batch,
                    p.ttft_s * 1e3,
                    p.tpot_s * 1e3,
                    p.interactivity(),
                    p.tokens_per_s_per_chip,
                    p.usd_per_mtok(usd)
                );
            }
        }
        match self.cheapest {
            Some(p) => {
                let _ = write!(out, "cheapest meeting TTFT ≤ {} and TPOT ≤ {}: {} chips per replica, batch {}: TTFT {:.0} ms, TPOT {:.1} ms ({:.1} tok/s per user), {:.0} tok/s per chip, ${:.3} per million tokens",
                    target_ms(self.targets.0), target_ms(self.targets.1),
                    p.tp, p.batch, p.ttft_s * 1e3, p.tpot_s * 1e3, p.interactivity(), p.tokens_per_s_per_chip, p.usd_per_mtok(usd));
            }
            None => out.push_str("no configuration meets the targets"),
        }
        Some(out.trim_end().to_string())
    }
}

/// The Workload page's serving view of a link: each platform's cheapest configuration
/// meeting the link's targets, at the platform's own price, and the cheapest of all.
pub struct LinkView {
    sc: Scenario,
    s: Serving,
    d: Disaggregated,
}

impl LinkView {
    fn of(sc: Scenario) -> LinkView {
        LinkView {
            s: serving::serving(&sc.job),
            d: serving::disaggregated(&sc.job),
            sc,
        }
    }
}

impl Report for LinkView {
    fn json(&self) -> serde_json::Result<Value> {
        let (sc, s, d) = (&self.sc, &self.s, &self.d);
        let best = s.cheapest();
        let rows: Vec<Value> = s
            .platforms
            .iter()
            .map(|c| {
                json!({"system": c.system, "usd_per_chip_hour": c.usd_per_chip_hour.value,
                    "configurations": c.points.len(), "error": c.error,
                    "cheapest": c.cheapest.map(|p| json!({"chips_per_replica": p.tp, "batch": p.batch,
                        "ttft_s": p.ttft_s, "tpot_s": p.tpot_s, "tokens_per_s_per_user": p.interactivity(),
                        "tokens_per_s_per_chip": p.tokens_per_s_per_chip, "usd_per_mtok": c.usd_per_mtok(&p)}))})
            })
            .collect();
        let split = json!({
            "prefill_system": d.prefill.system, "decode_system": d.decode.system, "error": d.error,
            "colocated_usd_per_mtok": d.colocated_usd_per_mtok(),
            "cheapest": d.best.map(|b| json!({
                "prefill_chips_per_replica": b.tp_prefill, "decode_chips_per_replica": b.tp_decode,
                "decode_batch": b.batch, "prefill_s": b.prefill_s, "step_s": b.step_s,
                "step_p99_s": b.step_p99_s, "ttft_s": b.ttft_s, "kv_bytes": b.transfer.bytes,
                "kv_transfer_s": b.transfer.seconds, "kv_over_scale_up": b.transfer.scale_up,
                "prefill_replicas_per_decode_replica": b.prefill_per_decode,
                "prefill_share_of_chips": b.prefill_share, "usd_per_mtok": b.usd_per_mtok})),
        });
        Ok(json!({
            "model": sc.job.model, "dtype": sc.job.dtype.id(), "prompt": sc.job.prompt,
            "output": sc.job.output, "targets": {"ttft_s": s.ttft_s, "tpot_s": s.tpot_s},
            "platforms": rows, "cheapest": best.map(|(i, _)| s.platforms[i].system.clone()),
            "disaggregated": split,
        }))
    }

    fn text(&self) -> Option<String> {
        let (sc, s, d) = (&self.sc, &self.s, &self.d);
        let best = s.cheapest();
        let mut out = format!(
            "{} in {}, {} prompt and {} output tokens; targets TTFT ≤ {} ms, TPOT ≤ {} ms\n",
            sc.job.model,
            sc.job.dtype,
            sc.job.prompt,
            sc.job.output,
            sig(s.ttft_s * 1e3, 4),
            sig(s.tpot_s * 1e3, 4)
        );
        for (i, c) in s.platforms.iter().enumerate() {
            let mark = if best.is_some_and(|(j, _)| j == i) {
                "*"
            } else {
                " "
            };
            let _ = match (c.cheapest, &c.error) {
                (Some(p), _) => writeln!(
                    out,
                    "{mark} {:<16} {:>4} chips × {:>5}: TTFT {:>7.1} ms, TPOT {:>6.2} ms, {:>8.0} tok/s per chip at ${:.3}/chip-h: ${:.3}/Mtok",
                    c.system, p.tp, p.batch, p.ttft_s * 1e3, p.tpot_s * 1e3, p.tokens_per_s_per_chip,
                    c.usd_per_chip_hour.value, c.usd_per_mtok(&p)
                ),
                (None, Some(e)) => writeln!(out, "  {:<16} {e}", c.system),
                (None, None) => writeln!(out, "  {:<16} no configuration meets the targets", c.system),
            };
        }
        let _ = match (d.best, &d.error) {
            (Some(b), _) => write!(
                out,
                "disaggregated, prefill on {} and decode on {}: {} chips per prefill replica, {} per decode replica × {} sequences, {:.0}% of the chips prefilling; KV cache {:.0} MiB moved {} in {:.1} ms; TTFT {:.0} ms, TPOT {:.1} ms; ${:.3}/Mtok",
                d.prefill.system, d.decode.system, b.tp_prefill, b.tp_decode, b.batch,
                b.prefill_share * 100.0, b.transfer.bytes / 1048576.0,
                if b.transfer.scale_up { "inside the scale-up domain" } else { "over the network" },
                b.transfer.seconds * 1e3, b.ttft_s * 1e3, b.step_s * 1e3, b.usd_per_mtok
            ),
            (None, e) => write!(out, "disaggregated: {}", e.clone().unwrap_or_default()),
        };
        Some(out.trim_end().to_string())
    }
}
