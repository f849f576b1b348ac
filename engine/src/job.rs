//! A concrete job for the analyst: train (and serve) a model on a system at a price, with
//! the results and their sensitivity to each assumption.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::catalog;
use crate::dtype::Dtype;
use crate::source::Sourced;
use crate::system::{self, Cluster, System};
use crate::tco::{self, Pricing};
use crate::workload::{
    self, InferConfig, InferReport, Layout, LayoutSearch, Model, TrainConfig, TrainReport,
    WorkloadError,
};

/// Everything an analyst sets for one job.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Job {
    /// System id.
    pub system: String,
    /// Scale-up domains.
    pub nodes: u32,
    /// Model id.
    pub model: String,
    /// Compute format.
    pub dtype: Dtype,
    /// Training tokens.
    pub tokens: f64,
    /// Sequences per optimizer step.
    pub global_batch: u32,
    /// Fraction of the dense BF16 peak that large BF16 matmuls reach; `None` takes the chip's
    /// default (its measured maximum, or Trainium's fit to the Trn1 runs). Narrower formats
    /// scale it by the chip's measured ratio ([`crate::efficiency`]).
    pub efficiency: Option<f64>,
    /// Concurrent sequences per inference replica.
    pub batch: u32,
    /// Serving: prompt tokens per request.
    pub prompt: u32,
    /// Serving: generated tokens per request.
    pub output: u32,
    /// Own the chips (true) or rent them.
    pub owned: bool,
    /// $/chip-hour when renting; `None` takes the chip's first published rate.
    pub usd_per_chip_hour: Option<f64>,
    /// Rental discount.
    pub discount: f64,
    /// Ownership: years of depreciation.
    pub years: f64,
    /// Ownership: power usage effectiveness.
    pub pue: f64,
    /// Ownership: $/kWh.
    pub usd_per_kwh: f64,
    /// Renting: one of the chip's published rates by its index ([`tco::rental_options`]);
    /// `None` prices the job on [`Job::price_basis`].
    pub rental_option: Option<u32>,
    /// Renting: the price basis (`on-demand@2025-05`, [`tco::rates::Basis`]) every platform
    /// is priced on; `None` takes [`tco::rates::default_basis`].
    pub price_basis: Option<String>,
    /// How AWS's NeuronLink figures are read for Trainium platforms.
    pub link_reading: system::LinkReading,
    /// Ownership: price per chip with its server share; `None` takes the default estimate.
    pub chip_usd: Option<f64>,
    /// Ownership: annual cost of capital.
    pub cost_of_capital: f64,
    /// Ownership: facility $ per kW of IT load per month.
    pub facility_usd_per_kw_month: f64,
    /// Ownership: maintenance per year as a fraction of capital.
    pub maintenance: f64,
    /// Fraction of communication hidden behind compute; `None` takes the platform's.
    pub overlap: Option<f64>,
    /// Ownership: networking per chip (NICs, switches, cables), $; `None` takes the default.
    pub network_usd: Option<f64>,
    /// Ownership: average power draw as a fraction of full load.
    pub load: f64,
    /// The platform the break-even chart compares against (system id).
    pub compare_with: String,
    /// The input the break-even chart moves.
    pub lever: Lever,
    /// Serving target: the longest time to first token, s.
    pub ttft_s: f64,
    /// Serving target: the longest time per output token, s.
    pub tpot_s: f64,
    /// The platforms whose serving curves are drawn beside the job's own (system ids).
    pub curve_systems: Vec<String>,
    /// Whether the serving chart plots throughput per dollar rather than per chip.
    pub curve_per_usd: bool,
    /// Serving: the weights' storage format (`None`: the compute format).
    pub weight_dtype: Option<Dtype>,
    /// Serving: the KV cache's format (`None`: the compute format, at least FP8's byte).
    pub kv_dtype: Option<Dtype>,
    /// Serving: tokens drafted per step for speculative decoding (0: none).
    pub draft_tokens: u32,
    /// Serving: probability each drafted token is accepted.
    pub acceptance: f64,
    /// Serving: fraction of prompt tokens found in the prefix cache.
    pub prefix_hit: f64,
    /// Disaggregated serving: the prefill pool's platform (empty: the job's own).
    pub prefill_system: String,
    /// Disaggregated serving: the decode pool's platform (empty: the job's own).
    pub decode_system: String,
    /// Failures: interruptions per chip-hour (`None`: the rate fitted to published clusters).
    pub fail_rate: Option<f64>,
    /// Failures: hours a failed unit is out (`None`: by the blast radius).
    pub repair_h: Option<f64>,
    /// Failures: minutes to restart the job after an interruption (`None`: 10).
    pub restart_min: Option<f64>,
    /// Failures: checkpoint write bandwidth per chip, bytes/s (`None`: 1 GB/s).
    pub ckpt_bytes_per_s: Option<f64>,
    /// Mixtures of experts: tokens the busiest expert-parallel rank receives over the mean
    /// (`None`: 1, balanced, as Megatron's published benchmarks force routing).
    pub expert_imbalance: Option<f64>,
    /// Training: sequences a device runs in one pass (`None`: the layout search chooses, from
    /// model version 8; 1 before).
    pub micro_batch: Option<u32>,
    /// Training: whether layer inputs are offloaded to host memory (`None`: where nothing
    /// else fits, from model version 8; never before).
    pub offload: Option<bool>,
    /// Serving: the attention data-parallel degree (`None`: the serving search chooses).
    pub attn_dp: Option<u32>,
    /// Serving: the expert-parallel degree (`None`: the serving search chooses).
    pub ep: Option<u32>,
    /// The model version: 10 (today's) lays a training pipeline out as frameworks do, the
    /// output head and any multi-token prediction modules on the last stage and the layers
    /// spread to even the stages out; 9 runs data-parallel collectives over the whole
    /// scale-up fabric as its collective library does and hides FSDP's gathers and
    /// reduce-scatters phase by phase (forward, backward); 8 chooses the training
    /// micro-batch and host offload where a job leaves them unset and times each mixture of
    /// experts from kernels measured on its own experts, with the hottest expert's excess on
    /// the busiest rank; 7 times a mixture of experts' serving steps, and FP4's,
    /// operation by operation from the chips' kernel tables, with attention data-parallel and
    /// wide expert-parallel layouts in the serving search; 6 serves at the cheapest configuration (chips per
    /// replica and sequences) that meets the job's TTFT and TPOT targets, the one figure every
    /// page quotes, where 5 served the job's own batch on the fewest chips; 5 makes a prefill pay its tensor-parallel all-reduces
    /// and its launches besides its FLOPs, serves Trainium in the shapes Neuron compiles
    /// (prompts one at a time in power-of-two buckets) and trains a mixture of experts'
    /// routed GEMMs as a grouped GEMM; 4 lets FSDP (ZeRO-3) prefetch, hiding its gathers and
    /// reduce-scatters behind compute, and gives Trainium's decode steps Neuron's fixed time
    /// per layer; 3 costs pipeline sends, searches ZeRO-2/3 and context
    /// parallelism, and serves mixtures of experts expert-parallel (streaming only the
    /// experts a step's tokens touch, with all-to-alls), what links of version 3 were made
    /// with; 2 is what links of version 2 and earlier were made with.
    pub model_version: u32,
    /// The serving simulation: requests per second at one replica.
    pub sim_rate: f64,
    /// Its traffic ([`crate::servesim::Traffic::IDS`]).
    pub sim_traffic: String,
    /// Its seconds of arrivals.
    pub sim_duration_s: f64,
    /// Whether it keeps a session's context between turns.
    pub sim_prefix_cache: bool,
    /// Its serving engine ([`crate::servesim::engines::IDS`]).
    pub sim_engine: String,
    /// Whether requests' lengths spread about the job's prompt and output (a dataset's
    /// requests) instead of all taking them.
    pub sim_vary: bool,
    /// Host memory a replica gives KV blocks evicted from HBM, GB (0: none).
    pub sim_host_kv_gb: f64,
    /// The bandwidth they are reloaded at, GB/s.
    pub sim_host_bw_gbps: f64,
}

/// The model version new links use ([`Job::model_version`]).
pub use crate::keys::MODEL_VERSION;

/// The platforms whose serving curves are drawn beside the job's own by default: one HGX
/// node, one NVL72 rack and one Trainium UltraServer of each generation.
pub const CURVE_SYSTEMS: [&str; 3] = ["hgx-h200-8", "gb200-nvl72", "trn3-ultra-144"];

impl Default for Job {
    fn default() -> Self {
        Self {
            system: "trn2-ultra-64".into(),
            nodes: 4,
            model: "llama3-70b".into(),
            dtype: Dtype::Bf16,
            tokens: 2e12,
            global_batch: 1024,
            efficiency: None,
            batch: 64,
            prompt: 1024,
            output: 256,
            owned: false,
            usd_per_chip_hour: None,
            discount: 0.0,
            years: 5.0,
            pue: 1.2,
            usd_per_kwh: 0.08,
            rental_option: None,
            price_basis: None,
            link_reading: system::LinkReading::AsLabelled,
            chip_usd: None,
            cost_of_capital: 0.08,
            facility_usd_per_kw_month: 150.0,
            maintenance: 0.03,
            overlap: None,
            network_usd: None,
            load: 0.8,
            compare_with: "hgx-h100-8".into(),
            lever: Lever::Efficiency,
            ttft_s: 2.0,
            tpot_s: 0.05,
            curve_systems: CURVE_SYSTEMS.iter().map(|s| (*s).into()).collect(),
            curve_per_usd: false,
            weight_dtype: None,
            kv_dtype: None,
            draft_tokens: 0,
            acceptance: 0.7,
            prefix_hit: 0.0,
            prefill_system: String::new(),
            decode_system: String::new(),
            model_version: MODEL_VERSION,
            fail_rate: None,
            repair_h: None,
            restart_min: None,
            expert_imbalance: None,
            micro_batch: None,
            offload: None,
            attn_dp: None,
            ep: None,
            ckpt_bytes_per_s: None,
            sim_rate: 2.0,
            sim_traffic: "poisson".into(),
            sim_engine: crate::servesim::engines::IDS[0].into(),
            sim_vary: false,
            sim_host_kv_gb: 0.0,
            sim_host_bw_gbps: crate::servesim::DEFAULT_HOST_BW_GBPS,
            sim_duration_s: crate::servesim::DEFAULT_DURATION_S,
            sim_prefix_cache: true,
        }
    }
}

impl Job {
    /// The same job on another platform: `nodes` of `system`, with that platform's own
    /// published rate, chip and networking price and communication overlap; the model, run
    /// and the ownership inputs that are not per platform stay.
    #[must_use]
    pub fn moved_to(&self, system: &str, nodes: u32) -> Job {
        Job {
            system: system.into(),
            nodes,
            usd_per_chip_hour: None,
            rental_option: None,
            chip_usd: None,
            network_usd: None,
            overlap: None,
            efficiency: None,
            ..self.clone()
        }
    }

    /// The same job on platform `system` with as many chips (whole systems, at least one):
    /// how a page sets it beside another platform. `None` for an unknown platform.
    #[must_use]
    pub fn on_platform(&self, system: &str) -> Option<Job> {
        let chips = crate::system::find(&self.system).ok()?.chips() * self.nodes;
        let sys = crate::system::find(system).ok()?;
        Some(self.moved_to(system, chips.div_ceil(sys.chips()).max(1)))
    }
}

/// The results of a job.
#[derive(Clone, Debug, PartialEq)]
pub struct JobReport {
    /// Training estimate (fastest layout that fits).
    pub train: TrainReport,
    /// Failures over the run: interruptions, the best checkpoint interval, goodput and the
    /// chips held while failure domains are repaired.
    pub failures: crate::reliability::Goodput,
    /// The failure model's inputs, with their sources.
    pub failure_inputs: FailureInputs,
    /// Days to train once failures are counted (`time_s` ÷ goodput, in days).
    pub real_days: f64,
    /// What failures add to the cost of the run: the lost time of every chip and the spare
    /// chips held while failure domains are repaired, $.
    pub failure_cost_usd: f64,
    /// Inference estimate, if the model fits one scale-up domain.
    pub infer: Option<InferReport>,
    /// Chips in the cluster.
    pub chips: u32,
    /// Effective $/chip-hour and what it stands on.
    pub usd_per_chip_hour: Sourced<f64>,
    /// The kind and date of that rate, and whether the platform fell back from the basis.
    pub price: tco::rates::PriceOrigin,
    /// Wall-clock time to train.
    pub time_s: f64,
    /// Chip-hours of the run.
    pub chip_hours: f64,
    /// Cost of the run.
    pub cost_usd: f64,
    /// Training cost per million tokens.
    pub train_usd_per_mtok: f64,
    /// Inference cost per million output tokens.
    pub infer_usd_per_mtok: Option<f64>,
    /// Whether the serving configuration meets the job's TTFT and TPOT targets: the cheapest
    /// that does (`Some(true)`), or, when none does, the job's own batch on the fewest chips
    /// (`Some(false)`); `None` for links of model version 5 and earlier, which serve that
    /// batch without asking.
    pub infer_meets_targets: Option<bool>,
    /// Sequences a serving replica holds (the curve's choice, or the job's own batch).
    pub infer_batch: u32,
    /// $ per marketed dense PFLOP-hour in the job's format.
    pub usd_per_pflop_hour_marketed: f64,
    /// $ per achieved PFLOP-hour (marketed ÷ MFU).
    pub usd_per_pflop_hour_achieved: f64,
    /// Components of the $/chip-hour when owned: (capital, power, facility and maintenance).
    pub owned_breakdown: Option<(f64, f64, f64)>,
    /// The effective $/chip-hour as (hardware: rent, or capital and maintenance; power and
    /// facility), adding up to it.
    pub price_split: (f64, f64),
    /// Facility power of the cluster at the job's load, W (all-in per-chip power × PUE).
    pub facility_w: f64,
    /// Training energy per token at the facility meter, J.
    pub joules_per_token: f64,
    /// Racks the cluster fills (whole racks: ⌈chips ÷ chips per rack⌉).
    pub racks: u32,
    /// Chips per rack and what the figure stands on.
    pub rack_chips: Sourced<u32>,
    /// IT power per full rack at the job's load, W (before PUE).
    pub rack_w: f64,
    /// The communication overlap used and its source.
    pub overlap: Sourced<f64>,
}

/// The ownership defaults of a chip on a system: an edited system's power replaces the
/// chip's default.
fn ownership(sys: &System, chip: &str) -> tco::Ownership {
    let mut o = tco::ownership_default(chip);
    if let Some(w) = sys.power_w {
        o.power_w = w;
    }
    o
}

/// The price model of a job on `sys`.
pub(crate) fn pricing(
    job: &Job,
    sys: &System,
    chip: &str,
) -> (Pricing, Sourced<f64>, tco::rates::PriceOrigin) {
    if job.owned {
        let mut o = ownership(sys, chip);
        o.years = job.years;
        o.pue = job.pue;
        o.usd_per_kwh = job.usd_per_kwh;
        o.cost_of_capital = job.cost_of_capital;
        o.facility_usd_per_kw_month = job.facility_usd_per_kw_month;
        o.maintenance = job.maintenance;
        o.load = job.load;
        if let Some(c) = job.chip_usd {
            o.chip_usd = Sourced::user(c);
        }
        if let Some(c) = job.network_usd {
            o.network_usd = Sourced::user(c);
        }
        let p = Pricing::Owned(o);
        let v = p.usd_per_chip_hour();
        (
            p,
            Sourced::assumption(v)
                .note("owned: capital annuity + power at PUE + facility + maintenance"),
            tco::rates::PriceOrigin::of_own("owned"),
        )
    } else {
        let basis = job
            .price_basis
            .as_deref()
            .and_then(tco::rates::Basis::parse)
            .unwrap_or_else(tco::rates::default_basis);
        let (rate, origin) = match (job.usd_per_chip_hour, sys.usd_per_chip_hour) {
            (Some(x), _) => (Sourced::user(x), tco::rates::PriceOrigin::of_own("user")),
            (None, Some(r)) => (r, tco::rates::PriceOrigin::of_own("edited system")),
            (None, None) => {
                let (r, fell_back) = match job.rental_option {
                    Some(i) => {
                        let mut options = tco::rental_options(chip);
                        let i = (i as usize).min(options.len() - 1);
                        (options.swap_remove(i), false)
                    }
                    None => tco::rates::rate_on(chip, basis),
                };
                let origin = tco::rates::PriceOrigin::of_rate(&r, basis, fell_back);
                (r.sourced(), origin)
            }
        };
        let p = Pricing::Rental {
            usd_per_chip_hour: rate,
            discount: job.discount,
        };
        let eff = Sourced {
            value: p.usd_per_chip_hour(),
            ..rate
        };
        (p, eff, origin)
    }
}

/// System `id` as `job` sees it: the preset (or edited system) with the job's reading of
/// AWS's link figures.
///
/// # Errors
/// When no system has that id.
pub fn system_of(job: &Job, id: &str) -> Result<System, system::UnknownSystem> {
    Ok(system::read_as(system::find(id)?, job.link_reading))
}

/// The job's cluster (at least one node), chip and model, looked up by id.
pub(crate) fn resolve(job: &Job) -> Result<(Cluster, crate::chip::Chip, Model), WorkloadError> {
    let bad = |e: &dyn core::fmt::Display| WorkloadError::BadInput(format!("{e}"));
    let system = system_of(job, &job.system).map_err(|e| bad(&e))?;
    let chip = catalog::find(system.chip).map_err(|e| bad(&e))?;
    let cluster = Cluster {
        system,
        nodes: job.nodes.max(1),
    };
    Ok((cluster, chip, workload::find_model(&job.model)?))
}

/// The accepted range of numeric job input `key` (a link key), if it is one: the link-key
/// table ([`crate::keys::KEYS`]) holds it, and links, scenario files, the CLI and
/// [`evaluate`] all hold a job to it, so one rule decides what is a job.
#[must_use]
pub fn range(key: &str) -> Option<(f64, f64)> {
    crate::keys::find(key)
        .filter(|k| k.kind == crate::keys::Kind::Number)
        .map(|k| (k.min, k.max))
}

/// The most chips a job may span (a million: beyond any cluster built or announced).
pub const MAX_CHIPS: u64 = 1 << 20;

impl Job {
    /// Each numeric input with its link key (unset optional inputs left out).
    fn numbers(&self) -> [(&'static str, Option<f64>); 25] {
        [
            ("wtokens", Some(self.tokens)),
            ("weff", self.efficiency),
            ("wprice", self.usd_per_chip_hour),
            ("wdisc", Some(self.discount)),
            ("wyears", Some(self.years)),
            ("wpue", Some(self.pue)),
            ("wkwh", Some(self.usd_per_kwh)),
            ("wchip", self.chip_usd),
            ("wcoc", Some(self.cost_of_capital)),
            ("wfac", Some(self.facility_usd_per_kw_month)),
            ("wmaint", Some(self.maintenance)),
            ("wov", self.overlap),
            ("wnet", self.network_usd),
            ("wload", Some(self.load)),
            ("wttft", Some(self.ttft_s)),
            ("wtpot", Some(self.tpot_s)),
            ("wacc", Some(self.acceptance)),
            ("wprefix", Some(self.prefix_hit)),
            ("wfrate", self.fail_rate),
            ("wrepair", self.repair_h),
            ("wrestart", self.restart_min),
            ("wckpt", self.ckpt_bytes_per_s),
            ("wimb", self.expert_imbalance),
            ("wshkv", Some(self.sim_host_kv_gb)),
            ("wshbw", Some(self.sim_host_bw_gbps)),
        ]
    }

    /// The first input outside its range ([`range`]), named; `None` when all are in range.
    #[must_use]
    pub fn out_of_range(&self) -> Option<String> {
        self.numbers().iter().find_map(|(key, v)| {
            let v = (*v)?;
            let k = crate::keys::find(key)?;
            let (lo, hi) = (k.min, k.max);
            (!(v.is_finite() && (lo..=hi).contains(&v)))
                .then(|| format!("the {} ({v}) is outside {lo} to {hi}", k.what))
        })
    }
}

/// Evaluate a job: [`search_inputs`], [`search`], then [`evaluate_searched`].
///
/// # Errors
/// Unknown ids, out-of-range inputs, or no layout that fits.
pub fn evaluate(job: &Job) -> Result<JobReport, WorkloadError> {
    let train = search(&search_inputs(job)?)?;
    evaluate_searched(job, train)
}

/// What a job's layout search depends on, and nothing else. Two jobs with equal inputs
/// search alike, so a page can keep the search's result while the inputs it does not
/// depend on (prices, ownership, tokens, failures, serving) change.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInputs {
    cluster: Cluster,
    chip: crate::chip::Chip,
    cfg: TrainConfig,
}

/// A job's search inputs, after every check [`evaluate`] makes of the job.
///
/// # Errors
/// Unknown ids or out-of-range inputs.
pub fn search_inputs(job: &Job) -> Result<SearchInputs, WorkloadError> {
    let (cluster, chip, model) = resolve(job)?;
    if let Some(why) = job.out_of_range() {
        return Err(WorkloadError::BadInput(why));
    }
    if let Some(b) = &job.price_basis {
        if tco::rates::Basis::parse(b).is_none() {
            return Err(WorkloadError::BadInput(format!(
                "no price basis '{b}' (see `accelscope prices`)"
            )));
        }
    }
    let chips = u64::from(cluster.system.chips()) * u64::from(job.nodes);
    if job.nodes == 0 || chips > MAX_CHIPS {
        return Err(WorkloadError::BadInput(format!(
            "{} nodes of {} chips: a job spans 1 to {MAX_CHIPS} chips",
            job.nodes,
            cluster.system.chips()
        )));
    }
    let cfg = train_config(job, &cluster, &chip, &model)?;
    Ok(SearchInputs { cluster, chip, cfg })
}

/// The fastest training layout that fits.
///
/// # Errors
/// No layout fits.
pub fn search(inputs: &SearchInputs) -> Result<TrainReport, WorkloadError> {
    workload::best_layout(&inputs.cluster, &inputs.chip, &inputs.cfg)
}

/// A job's report from the search made for inputs equal to its own ([`search_inputs`]).
///
/// # Errors
/// Unknown ids, or no serving or cost estimate that holds.
pub fn evaluate_searched(job: &Job, train: TrainReport) -> Result<JobReport, WorkloadError> {
    let (cluster, chip, model) = resolve(job)?;
    report(job, &cluster, &chip, train, &model)
}

/// The communication overlap a job uses: its own, or its platform's.
#[must_use]
pub fn overlap(job: &Job, sys: &System) -> Sourced<f64> {
    match job.overlap {
        Some(x) => Sourced::user(x),
        None => sys.overlap,
    }
}

/// The BF16 matmul efficiency a job uses on `chip`: its own, or the chip's default.
#[must_use]
pub fn efficiency(job: &Job, chip: &crate::chip::Chip) -> Sourced<f64> {
    match job.efficiency {
        Some(x) => Sourced::user(x),
        None => crate::efficiency::default_bf16_at(chip, job.model_version),
    }
}

fn train_config(
    job: &Job,
    cluster: &Cluster,
    chip: &crate::chip::Chip,
    model: &Model,
) -> Result<TrainConfig, WorkloadError> {
    let ov = overlap(job, &cluster.system).value;
    if !((0.0..=1.0).contains(&ov) && job.load > 0.0 && job.load <= 1.0) {
        return Err(WorkloadError::BadInput(
            "the overlap must be in [0, 1] and the load in (0, 1]".into(),
        ));
    }
    let mut cfg = TrainConfig::new(
        model.clone(),
        job.dtype,
        job.global_batch,
        Layout::START,
        efficiency(job, chip).value,
    );
    cfg.tp_overlap = ov;
    cfg.dp_overlap = ov;
    cfg.pipeline_sends = job.model_version >= 3;
    cfg.fsdp_prefetch = job.model_version >= 4;
    cfg.dp_as_run = job.model_version >= 9;
    cfg.kernel_experts = job.model_version >= 9;
    cfg.latent_attention = job.model_version >= 9;
    cfg.stage_extras = job.model_version >= 10;
    cfg.grouped_experts = job.model_version >= 5;
    cfg.expert_imbalance = job.expert_imbalance.unwrap_or(1.0);
    cfg.layout.micro_batch = job.micro_batch.unwrap_or(1);
    cfg.choose_micro_batch = job.micro_batch.is_none() && job.model_version >= 8;
    cfg.layout.offload = job.offload == Some(true);
    cfg.choose_offload = job.offload.is_none() && job.model_version >= 8;
    Ok(cfg)
}

/// The layout search behind [`evaluate`], to run in slices (a page shows its progress).
///
/// # Errors
/// Unknown ids or out-of-range inputs.
pub fn layout_search(job: &Job) -> Result<LayoutSearch, WorkloadError> {
    let (cluster, chip, model) = resolve(job)?;
    let cfg = train_config(job, &cluster, &chip, &model)?;
    Ok(LayoutSearch::new(&cluster, &chip, &cfg))
}

/// Training $ per million tokens alone (what the tornado and the break-even curve move),
/// the same figure [`report`] gives without its serving estimate.
fn train_cost(job: &Job, cluster: &Cluster, chip: &crate::chip::Chip, t: &TrainReport) -> f64 {
    tco::cost_per_mtok(
        &pricing(job, &cluster.system, &chip.id).0,
        cluster.chips(),
        t.tokens_per_s,
    )
}

fn report(
    job: &Job,
    cluster: &Cluster,
    chip: &crate::chip::Chip,
    train: TrainReport,
    model: &workload::Model,
) -> Result<JobReport, WorkloadError> {
    let chips = cluster.chips();
    let (price, rate, origin) = pricing(job, &cluster.system, &chip.id);
    let time_s = job.tokens / train.tokens_per_s;
    let chip_hours = time_s / 3600.0 * f64::from(chips);
    let (infer, infer_meets_targets, infer_batch) = serve(job, cluster, chip, model);
    let peak_pf = chip.dense(job.dtype).map_or(f64::NAN, |p| p.get() / 1e15);
    let own = ownership(&cluster.system, &chip.id);
    let it_w_per_chip = own.power_w.value * job.load;
    let facility_w = it_w_per_chip * job.pue * f64::from(chips);
    let rack_chips = cluster.system.rack_chips;
    let racks = chips.div_ceil(rack_chips.value.max(1));
    let rack_w = it_w_per_chip * f64::from(rack_chips.value.min(chips));
    let per_h = price.usd_per_chip_hour();
    let (failures, inputs) = failure_model_of(job, cluster, model, time_s);
    let real_days = time_s / failures.goodput / 86_400.0;
    // Every chip for the lost time, and the spares for the whole real run.
    let failure_cost_usd = (real_days * 86_400.0 - time_s) / 3600.0 * f64::from(chips) * per_h
        + failures.spare_chips * real_days * 24.0 * per_h;
    Ok(JobReport {
        racks,
        rack_chips,
        rack_w,
        overlap: overlap(job, &cluster.system),
        infer_usd_per_mtok: infer
            .as_ref()
            .map(|r| tco::cost_per_mtok(&price, r.replicas * r.chips_needed, r.tokens_per_s)),
        infer,
        infer_meets_targets,
        infer_batch,
        chips,
        time_s,
        chip_hours,
        cost_usd: tco::cost_of(&price, chips, time_s),
        train_usd_per_mtok: tco::cost_per_mtok(&price, chips, train.tokens_per_s),
        usd_per_pflop_hour_marketed: per_h / peak_pf,
        usd_per_pflop_hour_achieved: per_h / (peak_pf * train.mfu),
        price_split: price.split(),
        owned_breakdown: match &price {
            Pricing::Owned(o) => Some((
                o.capital_per_hour(),
                o.power_per_hour(),
                o.overhead_per_hour(),
            )),
            Pricing::Rental { .. } => None,
        },
        usd_per_chip_hour: rate,
        price: origin,
        facility_w,
        joules_per_token: facility_w / train.tokens_per_s,
        failures,
        failure_inputs: inputs,
        real_days,
        failure_cost_usd,
        train,
    })
}

/// How a job serves on its cluster: from model version 6, the configuration of the serving
/// curve ([`workload::curve`]) with the most throughput per chip that meets the job's TTFT
/// and TPOT targets, and whether one does; else (and before) its own batch on the fewest
/// chips that hold the model.
fn serve(
    job: &Job,
    cluster: &Cluster,
    chip: &crate::chip::Chip,
    model: &workload::Model,
) -> (Option<InferReport>, Option<bool>, u32) {
    let batch = job.batch.max(1);
    let own = || {
        workload::infer(
            cluster,
            chip,
            &infer_config(job, chip, model.clone(), job.batch),
        )
        .ok()
    };
    if job.model_version < 6 {
        return (own(), None, batch);
    }
    let domain = Cluster {
        system: cluster.system.clone(),
        nodes: 1,
    };
    let base = infer_config(job, chip, model.clone(), 1);
    let points = workload::curve::curve(&domain, chip, &base);
    match workload::curve::cheapest(&points, job.ttft_s, job.tpot_s) {
        Some(p) => {
            let cfg = InferConfig {
                tp: Some(p.tp),
                attn_dp: Some(p.attn_dp),
                ep: Some(p.ep),
                ..infer_config(job, chip, model.clone(), p.batch)
            };
            match workload::infer(cluster, chip, &cfg) {
                Ok(r) => (Some(r), Some(true), p.batch),
                Err(_) => (own(), Some(false), batch),
            }
        }
        None => (own(), Some(false), batch),
    }
}

/// The serving configuration of a job on `chip` at `batch` sequences per replica: its
/// formats, speculative decoding and prefix cache, and its matmul efficiency.
#[must_use]
pub fn infer_config(job: &Job, chip: &crate::chip::Chip, model: Model, batch: u32) -> InferConfig {
    InferConfig {
        matmul_efficiency: Some(efficiency(job, chip).value),
        weight_dtype: job.weight_dtype,
        kv_dtype: job.kv_dtype,
        draft_tokens: job.draft_tokens,
        acceptance: job.acceptance,
        prefix_hit: job.prefix_hit,
        expert_parallel: job.model_version >= 3,
        op_graph: job.model_version >= 7,
        own_experts: job.model_version >= 8,
        attn_dp: job.attn_dp,
        ep: job.ep,
        // Links made before model version 4 keep their serving model.
        prefill_overheads: job.model_version >= 5,
        static_shapes: job.model_version >= 5,
        neuron_layer_fixed_s: if job.model_version >= 4 {
            workload::NEURON_LAYER_FIXED_S
        } else {
            0.0
        },
        ..InferConfig::new(
            model,
            job.dtype,
            batch.max(1),
            job.prompt.max(1),
            job.output.max(1),
        )
    }
}

/// The step model of `job`'s serving on one scale-up domain of `system`: the job's model,
/// formats, efficiency, prompt and output, the fewest chips that hold the weights. With it,
/// the analytic time per token of one request alone and the chips of a replica.
///
/// # Errors
/// An unknown system or model, or a model that does not fit the domain.
pub fn serve_step(
    job: &Job,
    system: &str,
) -> Result<(workload::StepModel, f64, u32), WorkloadError> {
    let sys = system::find(system).map_err(|e| WorkloadError::BadInput(format!("{e}")))?;
    let chip = catalog::find(sys.chip).map_err(|e| WorkloadError::BadInput(format!("{e}")))?;
    let model = workload::find_model(&job.model)?;
    let cluster = Cluster {
        system: sys,
        nodes: 1,
    };
    let mut cfg = infer_config(job, &chip, model, 1);
    // A compiled deployment (Neuron) holds the job's sequences: one request alone runs that
    // graph, and so does every step of the simulation.
    if cfg.static_shapes && chip.runs_neuron() {
        cfg.compiled = Some(workload::Compiled {
            batch: job.batch.max(1),
            seq: job.prompt.max(1) + job.output.max(1),
            buckets: &[],
        });
    }
    let r = workload::infer(&cluster, &chip, &cfg)?;
    Ok((r.step_model, r.latency_per_token.get(), r.chips_needed))
}

/// The sourced inputs of a job's failure model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FailureInputs {
    /// Interruptions per chip-hour.
    pub rate: Sourced<f64>,
    /// Chips one failure takes out of service (the fabric's blast radius, widened to the
    /// unit serviced whole).
    pub blast_radius: u32,
    /// Hours to repair that domain.
    pub repair_h: Sourced<f64>,
    /// Hours from an interruption to training again.
    pub restart_h: Sourced<f64>,
    /// Checkpoint write bandwidth per chip, bytes/s.
    pub write_bytes_per_s_per_chip: Sourced<f64>,
    /// Checkpoint size, bytes.
    pub checkpoint_bytes: f64,
}

/// The failures of a run of `time_s` seconds (failure-free) of `model` on `cluster`: the
/// fitted interruption rate, the fabric's blast radius, repair and restart times, and a
/// checkpoint of the model's weights and optimizer state.
#[must_use]
pub fn failure_model(
    cluster: &Cluster,
    model: &workload::Model,
    time_s: f64,
) -> (crate::reliability::Goodput, FailureInputs) {
    failure_model_of(&Job::default(), cluster, model, time_s)
}

/// [`failure_model`] with the job's own failure inputs where it sets them.
#[must_use]
pub fn failure_model_of(
    job: &Job,
    cluster: &Cluster,
    model: &workload::Model,
    time_s: f64,
) -> (crate::reliability::Goodput, FailureInputs) {
    use crate::reliability as rel;
    let blast = cluster
        .system
        .metrics()
        .map_or(cluster.system.chips(), |m| m.blast_radius);
    let or = |set: Option<f64>, d: Sourced<f64>| set.map_or(d, Sourced::user);
    let inputs = FailureInputs {
        rate: or(job.fail_rate, rel::fitted_rate()),
        blast_radius: blast,
        repair_h: or(job.repair_h, rel::repair_hours(blast)),
        restart_h: or(job.restart_min.map(|m| m / 60.0), rel::restart_hours()),
        write_bytes_per_s_per_chip: or(job.ckpt_bytes_per_s, rel::write_bytes_per_s_per_chip()),
        checkpoint_bytes: rel::checkpoint_bytes(model.params_total()),
    };
    let chips = f64::from(cluster.chips());
    let g = rel::Failures {
        chips,
        rate: inputs.rate.value,
        blast_radius: f64::from(blast),
        repair_h: inputs.repair_h.value,
        checkpoint_bytes: inputs.checkpoint_bytes,
        write_bytes_per_s: chips * inputs.write_bytes_per_s_per_chip.value,
        restart_h: inputs.restart_h.value,
    }
    .goodput(time_s / 3600.0);
    (g, inputs)
}

mod bases;
mod break_even;
mod sensitivity;
pub use bases::{basis_verdicts, verdict_sentence, BasisVerdict};
pub use break_even::{break_even, curve, price_to_match, sensitivity, Lever};
pub use sensitivity::{by_format, tornado, tornado_from, FormatCost, Swing};

#[cfg(test)]
mod tests;
