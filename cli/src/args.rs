//! Flags several commands share, each group a struct flattened into the commands that take it.

use clap::Args;
use engine::system::{self, Cluster};
use engine::tco::rates::{self, Basis};
use engine::{catalog, workload, Chip, Dtype};

use crate::error::Error;
use crate::parse::{self, Check};
use crate::report::Format;

/// `--json`.
#[derive(Args, Debug)]
pub struct Json {
    /// Print JSON (snake_case keys ending in their SI unit) instead of the plain text
    #[arg(long)]
    pub json: bool,
}

impl Json {
    /// The form to print.
    pub fn format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            Format::Text
        }
    }
}

/// Where a job runs: `--system` and `--nodes`.
#[derive(Args, Debug)]
pub struct Placement {
    /// The system, as `accelscope systems` lists them
    #[arg(long, value_name = "ID")]
    pub system: String,
    /// Scale-up domains (nodes) of the system
    #[arg(long, value_name = "N", default_value_t = 1, allow_hyphen_values = true,
          value_parser = parse::keyed("wnodes"))]
    pub nodes: u32,
}

impl Placement {
    /// The cluster and its chip.
    ///
    /// # Errors
    /// An unknown system.
    pub fn cluster(&self) -> Result<(Cluster, Chip), Error> {
        cluster(&self.system, self.nodes)
    }
}

/// The model: `--model` or `--model-config` (one is required).
#[derive(Args, Debug)]
#[group(required = true, multiple = true)]
pub struct ModelArgs {
    /// The model: a preset id (llama3-8b, llama3-70b, llama3-405b, mixtral-8x7b,
    /// deepseek-v3, …) or an m: spec as `accelscope model` prints it
    #[arg(long, value_name = "ID")]
    pub model: Option<String>,
    /// A Hugging Face config.json to read the model from, in place of --model (what it
    /// assumed goes to stderr)
    #[arg(long, value_name = "FILE")]
    pub model_config: Option<String>,
}

impl ModelArgs {
    /// The model of `--model-config FILE` (what it assumed goes to stderr), or of `--model`.
    pub fn load(&self) -> Result<workload::Model, Error> {
        if let Some(file) = &self.model_config {
            let bad = |e: &dyn std::fmt::Display| Error::usage(format!("{file}: {e}"));
            let meta = std::fs::metadata(file).map_err(|e| bad(&e))?;
            if meta.len() > engine::json::MAX_BYTES as u64 {
                return Err(Error::usage(format!(
                    "{file}: {} bytes is too large for a config.json",
                    meta.len()
                )));
            }
            let text = std::fs::read_to_string(file).map_err(|e| bad(&e))?;
            let (m, notes) = workload::custom::from_hf_config(&text).map_err(|e| bad(&e))?;
            for n in notes {
                eprintln!("accelscope: note: {n}");
            }
            return Ok(m);
        }
        let id = self
            .model
            .as_deref()
            .ok_or_else(|| Error::usage("--model is required"))?;
        Ok(workload::find_model(id)?)
    }
}

/// The price of a chip-hour: given, or a published rate on a price basis.
#[derive(Args, Debug)]
pub struct PriceArgs {
    /// The price of a chip-hour in US dollars, in place of the chip's published rate
    #[arg(long, value_name = "X", allow_hyphen_values = true, value_parser = parse::positive())]
    pub usd_per_chip_hour: Option<f64>,
    /// Price on the published rates of this basis, KIND@DATE as `accelscope prices` lists
    /// them (default: the default basis)
    #[arg(long, value_name = "KIND@DATE", value_parser = basis())]
    pub price_basis: Option<Basis>,
}

/// A price basis by its id, or the valid ones.
fn basis() -> Check<impl Fn(&str, &str) -> Result<Basis, String> + Clone> {
    Check(|_: &str, b: &str| {
        Basis::parse(b)
            .ok_or_else(|| format!("no price basis '{b}' (valid: {})", rates::basis_ids()))
    })
}

/// Prompt and output lengths of a request.
#[derive(Args, Debug)]
pub struct LengthArgs {
    /// Prompt tokens per request
    #[arg(long, value_name = "P", default_value_t = 1024, allow_hyphen_values = true,
          value_parser = parse::keyed("wpr"))]
    pub prompt: u32,
    /// Output tokens per request
    #[arg(long, value_name = "O", default_value_t = 256, allow_hyphen_values = true,
          value_parser = parse::keyed("wout"))]
    pub output: u32,
}

/// Latency targets.
#[derive(Args, Debug)]
pub struct SloArgs {
    /// Target time to first token: seconds, or a number with s, ms or us (e.g. 2s)
    #[arg(long, value_name = "T", allow_hyphen_values = true, value_parser = parse::duration())]
    pub slo_ttft: Option<f64>,
    /// Target time per output token after the first (e.g. 50ms)
    #[arg(long, value_name = "T", allow_hyphen_values = true, value_parser = parse::duration())]
    pub slo_tpot: Option<f64>,
}

impl SloArgs {
    /// Whether either target is given.
    pub fn any(&self) -> bool {
        self.slo_ttft.is_some() || self.slo_tpot.is_some()
    }

    /// The targets in seconds, infinite where not given.
    pub fn targets(&self) -> (f64, f64) {
        (
            self.slo_ttft.unwrap_or(f64::INFINITY),
            self.slo_tpot.unwrap_or(f64::INFINITY),
        )
    }
}

/// The serving options that change the bill: the weights' and KV cache's formats,
/// speculative decoding and the prefix cache.
#[derive(Args, Debug)]
pub struct ServingArgs {
    /// The weights' number format (default: --dtype)
    #[arg(long, value_name = "F", value_parser = parse::parsed::<Dtype>())]
    pub weight_dtype: Option<Dtype>,
    /// The KV cache's number format (default: --dtype's, at least FP8's byte)
    #[arg(long, value_name = "F", value_parser = parse::parsed::<Dtype>())]
    pub kv_dtype: Option<Dtype>,
    /// Speculative decoding: tokens drafted per step by a multi-token-prediction head (0: none)
    #[arg(long, value_name = "K", default_value_t = 0, allow_hyphen_values = true,
          value_parser = draft())]
    pub draft: u32,
    /// Probability that a drafted token is accepted, from 0 to 0.99
    #[arg(long, value_name = "A", default_value_t = 0.7, allow_hyphen_values = true,
          value_parser = parse::rate())]
    pub acceptance: f64,
    /// Share of the prompt found in the prefix cache, from 0 to 0.99
    #[arg(long, value_name = "H", default_value_t = 0.0, allow_hyphen_values = true,
          value_parser = parse::rate())]
    pub prefix_hit: f64,
    #[command(flatten)]
    pub layout: LayoutArgs,
}

/// How a serving replica spreads a mixture of experts over its chips.
#[derive(Args, Debug)]
pub struct LayoutArgs {
    /// Attention data-parallel degree: the replica's sequences split over this many groups
    /// of chips, each running attention tensor-parallel (default: the serving search's)
    #[arg(long, value_name = "D", allow_hyphen_values = true, value_parser = parse::keyed("wadp"))]
    pub attn_dp: Option<u32>,
    /// Serving expert-parallel degree: a mixture of experts' experts split over this many
    /// groups of chips (default: the serving search's, or every chip of the replica)
    #[arg(long, value_name = "E", allow_hyphen_values = true, value_parser = parse::keyed("wep"))]
    pub ep: Option<u32>,
}

/// Drafted tokens: from 0 to the engine's limit.
fn draft() -> Check<impl Fn(&str, &str) -> Result<u32, String> + Clone> {
    Check(|_: &str, v: &str| match v.parse::<u32>() {
        Ok(n) if n <= workload::MAX_DRAFT => Ok(n),
        _ => Err(format!(
            "--draft must be a whole number of tokens from 0 to {}, got '{v}'",
            workload::MAX_DRAFT
        )),
    })
}

impl ServingArgs {
    /// `cfg` with these options set (the rest of it as it was).
    pub fn apply(&self, cfg: workload::InferConfig) -> workload::InferConfig {
        workload::InferConfig {
            weight_dtype: self.weight_dtype,
            kv_dtype: self.kv_dtype,
            draft_tokens: self.draft,
            acceptance: self.acceptance,
            prefix_hit: self.prefix_hit,
            attn_dp: self.layout.attn_dp,
            ep: self.layout.ep,
            ..cfg
        }
    }
}

/// `nodes` of system `id` as a cluster, with the system's chip.
pub fn cluster(id: &str, nodes: u32) -> Result<(Cluster, Chip), Error> {
    let system = system::find(id)?;
    let chip = catalog::find(system.chip)?;
    Ok((Cluster { system, nodes }, chip))
}
