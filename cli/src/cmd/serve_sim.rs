//! `accelscope serve-sim`: a serving replica simulated request by request.

use engine::servesim::{self, Percentiles, SimConfig, SimReport, Traffic};
use engine::units::sig;
use engine::{workload, Dtype};
use serde_json::{json, Value};

use super::Run;
use crate::args::{self, Json, LengthArgs, ModelArgs, Placement, SloArgs};
use crate::error::Error;
use crate::parse;
use crate::report::{Format, Report};

/// One serving replica simulated request by request: latency percentiles under load
///
/// Requests arrive (Poisson, in bursts, as chat or agentic sessions whose turns grow a
/// context, or from a trace file of `arrival_s,prompt,output` lines) at one replica, which
/// batches them continuously: each step decodes one token of every running sequence and
/// prefills prompts in chunks up to a token budget. The KV cache is held in blocks; when they
/// run out the newest request is preempted and recomputed; a session's context stays cached
/// for its next turn unless --no-prefix-cache. Each step costs what `infer`'s model says of
/// its parts. Prints TTFT, TPOT and end-to-end latency at p50/p90/p99, throughput, goodput
/// against the targets and the replica's use. Seeded: the same flags give the same result.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    at: Placement,
    #[command(flatten)]
    model: ModelArgs,
    /// The weight and compute format (bf16, fp8, fp4, …)
    #[arg(long, value_name = "F", value_parser = parse::parsed::<Dtype>())]
    dtype: Dtype,
    /// Chips per replica, tensor parallel (default: the fewest that hold the weights)
    #[arg(long, value_name = "T", allow_hyphen_values = true, value_parser = parse::count())]
    tp: Option<u32>,
    #[command(flatten)]
    layout: args::LayoutArgs,
    /// Requests per second arriving at the replica (for sessions, their turns)
    #[arg(long, value_name = "R", allow_hyphen_values = true, value_parser = parse::keyed_number("wsrate"))]
    rate: f64,
    #[command(flatten)]
    lengths: LengthArgs,
    /// poisson, bursty, chat, agentic, or a file of arrival_s,prompt,output lines
    #[arg(long, value_name = "KIND|FILE", default_value = "poisson")]
    trace: String,
    /// Seconds of arrivals to simulate (default 600)
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = parse::keyed_number("wsdur"))]
    duration: Option<f64>,
    /// Seed of the arrivals and lengths
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Forget a session's context between turns
    #[arg(long)]
    no_prefix_cache: bool,
    /// The serving engine: its own time a step and how it fits prompts in (ideal, trt-llm,
    /// sglang, vllm)
    #[arg(long, value_name = "E", default_value = servesim::engines::IDS[0],
          value_parser = clap::builder::PossibleValuesParser::new(servesim::engines::IDS))]
    engine: String,
    /// Each request draws its prompt and output lengths about --prompt and --output (a
    /// dataset's requests) instead of taking them exactly
    #[arg(long)]
    vary_lengths: bool,
    /// Sequences a step runs at most
    #[arg(long, value_name = "N", default_value_t = 256, allow_hyphen_values = true,
          value_parser = parse::count())]
    max_seqs: u32,
    /// Tokens a step processes at most (decoded and prefilled)
    #[arg(long, value_name = "N", default_value_t = 8192, allow_hyphen_values = true,
          value_parser = parse::whole(servesim::MAX_TOKEN_BUDGET))]
    token_budget: u32,
    /// Host memory for KV blocks evicted from HBM, GB (0: none)
    #[arg(long, value_name = "GB", allow_hyphen_values = true, value_parser = parse::keyed_number("wshkv"))]
    host_kv_gb: Option<f64>,
    /// Bandwidth between host memory and the replica, GB/s
    #[arg(long, value_name = "GB/S", default_value_t = servesim::DEFAULT_HOST_BW_GBPS,
          allow_hyphen_values = true, value_parser = parse::keyed_number("wshbw"))]
    host_bw_gbps: f64,
    #[command(flatten)]
    slo: SloArgs,
    #[command(flatten)]
    out: Json,
}

/// A simulation and what it was of.
pub struct Simulated {
    engine: String,
    cfg: SimConfig,
    tp: u32,
    analytic_tpot_s: f64,
    r: SimReport,
}

impl Run for Args {
    type Output = Simulated;
    fn run(&self) -> Result<Simulated, Error> {
        let (cluster, chip) = self.at.cluster()?;
        let model = self.model.load()?;
        let traffic = match Traffic::named(&self.trace) {
            Some(t) => t,
            None => {
                let text = std::fs::read_to_string(&self.trace).map_err(|e| {
                    Error::usage(format!(
                        "--trace '{}' is neither {} nor a readable file ({e})",
                        self.trace,
                        Traffic::IDS.join(", ")
                    ))
                })?;
                Traffic::parse_trace(&text)
                    .map_err(|e| Error::usage(format!("{}: {e}", self.trace)))?
            }
        };
        let (p, o) = (self.lengths.prompt, self.lengths.output);
        let mut icfg = workload::InferConfig::new(model, self.dtype, 1, p, o);
        icfg.tp = self.tp;
        icfg.attn_dp = self.layout.attn_dp;
        icfg.ep = self.layout.ep;
        // Neuron runs the graphs compiled for the replica's sequences, alone or full.
        if chip.runs_neuron() {
            icfg.compiled = Some(workload::Compiled {
                batch: self.max_seqs,
                seq: p + o,
                buckets: &[],
            });
        }
        let analytic = workload::infer(&cluster, &chip, &icfg)?;
        let mut cfg = SimConfig::new(traffic, self.rate, p, o);
        if let Some(d) = self.duration {
            cfg.duration_s = d;
        }
        cfg.seed = self.seed;
        cfg.prefix_cache = !self.no_prefix_cache;
        cfg.vary_lengths = self.vary_lengths;
        if let Some(e) = servesim::engines::find(&self.engine) {
            e.apply(&mut cfg);
        }
        cfg.max_seqs = self.max_seqs;
        cfg.token_budget = self.token_budget;
        if let Some(gb) = self.host_kv_gb.filter(|gb| *gb > 0.0) {
            cfg.host_kv_bytes = gb * 1e9;
            cfg.host_bw = self.host_bw_gbps * 1e9;
        }
        if let Some(t) = self.slo.slo_ttft {
            cfg.ttft_target_s = t;
        }
        if let Some(t) = self.slo.slo_tpot {
            cfg.tpot_target_s = t;
        }
        let r = servesim::simulate(&analytic.step_model, &cfg)?;
        Ok(Simulated {
            engine: self.engine.clone(),
            tp: analytic.chips_needed,
            analytic_tpot_s: analytic.latency_per_token.get(),
            cfg,
            r,
        })
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

fn pct(p: &Percentiles) -> Value {
    json!({ "mean": p.mean, "p50": p.p50, "p90": p.p90, "p99": p.p99 })
}

impl Report for Simulated {
    fn json(&self) -> serde_json::Result<Value> {
        let (r, c) = (&self.r, &self.cfg);
        Ok(json!({
            "traffic": c.traffic.id(), "rate_rps": c.rate, "duration_s": c.duration_s, "seed": c.seed,
            "chips_per_replica": self.tp, "prefix_cache": c.prefix_cache,
            "engine": self.engine, "host_step_s": c.host_step_s, "prefill_first": c.prefill_first,
            "vary_lengths": c.vary_lengths,
            "requests": r.requests, "completed": r.completed,
            "ttft_p50_s": r.ttft_s.p50, "ttft_p90_s": r.ttft_s.p90, "ttft_p99_s": r.ttft_s.p99,
            "tpot_p50_s": r.tpot_s.p50, "tpot_p90_s": r.tpot_s.p90, "tpot_p99_s": r.tpot_s.p99,
            "itl_s": pct(&r.itl_s),
            "e2e_s": pct(&r.e2e_s),
            "output_tokens_per_s": r.output_tokens_per_s,
            "goodput_rps": r.goodput_rps, "within_targets": r.within_targets,
            "ttft_target_s": c.ttft_target_s, "tpot_target_s": c.tpot_target_s,
            "preemptions": r.preemptions, "prefix_hit": r.prefix_hit, "host_hit": r.host_hit,
            "busy": r.busy, "steps": r.steps, "kv_blocks": r.kv_blocks, "makespan_s": r.makespan_s,
            "analytic_tpot_batch1_s": self.analytic_tpot_s,
            "timeline": r.timeline.iter().map(|b| json!({
                "t_s": b.t_s, "busy": b.busy, "running": b.running, "waiting": b.waiting, "kv_used": b.kv_used,
            })).collect::<Vec<_>>(),
            "notes": r.notes,
        }))
    }

    fn text(&self) -> Option<String> {
        let (r, c) = (&self.r, &self.cfg);
        let ms = |x: f64| format!("{} ms", sig(x * 1e3, 4));
        let row = |name: &str, p: &Percentiles| {
            format!(
                "{name:<20} {:>12} {:>12} {:>12}\n",
                ms(p.p50),
                ms(p.p90),
                ms(p.p99)
            )
        };
        let mut s = format!(
            "{} traffic at {} requests/s for {} s on one replica of {} chips ({} engine): {} requests, {} answered\n\n{:<20} {:>12} {:>12} {:>12}\n",
            c.traffic.id(),
            sig(c.rate, 4),
            sig(c.duration_s, 4),
            self.tp,
            self.engine,
            r.requests,
            r.completed,
            "",
            "p50",
            "p90",
            "p99"
        );
        s += &row("time to first token", &r.ttft_s);
        s += &row("time per token", &r.tpot_s);
        s += &row("inter-token latency", &r.itl_s);
        s += &row("end to end", &r.e2e_s);
        s += &format!(
            "\n{}\nanalytic time per token at batch 1: {}",
            servesim::summary(r, c),
            ms(self.analytic_tpot_s)
        );
        for n in &r.notes {
            s += &format!("\nnote: {n}");
        }
        Some(s)
    }
}
