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
    /// The model version: 5 (today's) makes a prefill pay its tensor-parallel all-reduces
    /// and its launches besides its FLOPs, serves Trainium in the shapes Neuron compiles
    /// (prompts one at a time in power-of-two buckets) and trains a mixture of experts'
    /// routed GEMMs as a grouped GEMM; 4 lets FSDP (ZeRO-3) prefetch, hiding its gathers and
    /// reduce-scatters behind compute, and gives Trainium's decode steps Neuron's fixed time
    /// per layer; 3 costs pipeline sends, searches ZeRO-2/3 and context
    /// parallelism, and serves mixtures of experts expert-parallel (streaming only the
    /// experts a step's tokens touch, with all-to-alls), what links of version 3 were made
    /// with; 2 is what links of version 2 and earlier were made with.
    pub model_version: u32,
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
            ckpt_bytes_per_s: None,
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
fn resolve(job: &Job) -> Result<(Cluster, crate::chip::Chip, Model), WorkloadError> {
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
    fn numbers(&self) -> [(&'static str, Option<f64>); 23] {
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

/// Evaluate a job.
///
/// # Errors
/// Unknown ids, out-of-range inputs, or no layout that fits.
pub fn evaluate(job: &Job) -> Result<JobReport, WorkloadError> {
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
    let train = workload::best_layout(&cluster, &chip, &cfg)?;
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
        None => crate::efficiency::default_bf16(chip),
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
    cfg.grouped_experts = job.model_version >= 5;
    cfg.expert_imbalance = job.expert_imbalance.unwrap_or(1.0);
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
    let infer = workload::infer(
        cluster,
        chip,
        &infer_config(job, chip, model.clone(), job.batch),
    )
    .ok();
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

/// One bar of a tornado chart: the training cost per million tokens with one input moved
/// down and up by the chosen fraction, everything else held.
#[derive(Clone, Debug, PartialEq)]
pub struct Swing {
    /// Which input.
    pub input: &'static str,
    /// Result with the input lowered.
    pub low: f64,
    /// Result with the input raised.
    pub high: f64,
}

/// Sensitivity of the training cost per million tokens to each input, largest swing first.
/// The parallel layout found for the base case is kept for every variant.
///
/// # Errors
/// When the base case cannot be evaluated.
pub fn tornado(job: &Job, fraction: f64) -> Result<(f64, Vec<Swing>), WorkloadError> {
    tornado_from(job, &evaluate(job)?, fraction)
}

/// [`tornado`] around a report already evaluated for `job`.
///
/// # Errors
/// When the job's ids are unknown.
pub fn tornado_from(
    job: &Job,
    base: &JobReport,
    fraction: f64,
) -> Result<(f64, Vec<Swing>), WorkloadError> {
    let f = fraction.clamp(0.0, 0.9);
    let (Cluster { system: sys, .. }, chip, model) = resolve(job)?;
    let layout = base.train.layout;
    let run = |j: &Job, bw: f64, out: f64| -> f64 {
        let mut s = sys.clone();
        for l in &mut s.links {
            l.value = l.value * bw;
        }
        s.scale_out.value = s.scale_out.value * out;
        let cl = Cluster {
            system: s,
            nodes: j.nodes,
        };
        let Ok(mut cfg) = train_config(j, &cl, &chip, &model) else {
            return f64::NAN;
        };
        cfg.layout = layout;
        cfg.matmul_efficiency = efficiency(j, &chip).value.min(1.0);
        workload::train(&cl, &chip, &cfg).map_or(f64::NAN, |t| train_cost(j, &cl, &chip, &t))
    };
    let mut swings = Vec::new();
    let price = base.usd_per_chip_hour.value;
    let mut with = |input: &'static str, g: &dyn Fn(&mut Job, f64) -> (f64, f64)| {
        let (mut lo, mut hi) = (job.clone(), job.clone());
        let (bl, ol) = g(&mut lo, 1.0 - f);
        let (bh, oh) = g(&mut hi, 1.0 + f);
        swings.push(Swing {
            input,
            low: run(&lo, bl, ol),
            high: run(&hi, bh, oh),
        });
    };
    with("price per chip-hour", &|j, k| {
        j.owned = false;
        j.usd_per_chip_hour = Some(price * k);
        j.discount = 0.0;
        (1.0, 1.0)
    });
    let eff = efficiency(job, &chip).value;
    with("matmul efficiency", &|j, k| {
        j.efficiency = Some((eff * k).min(1.0));
        (1.0, 1.0)
    });
    let ov = overlap(job, &sys).value;
    with("communication overlap", &|j, k| {
        j.overlap = Some((ov * k).min(1.0));
        (1.0, 1.0)
    });
    with("scale-up bandwidth", &|_, k| (k, 1.0));
    with("scale-out bandwidth", &|_, k| (1.0, k));
    if job.owned {
        with("PUE", &|j, k| {
            j.pue *= k;
            (1.0, 1.0)
        });
        with("electricity price", &|j, k| {
            j.usd_per_kwh *= k;
            (1.0, 1.0)
        });
        with("depreciation years", &|j, k| {
            j.years *= k;
            (1.0, 1.0)
        });
    }
    swings.sort_by(|a, b| (b.high - b.low).abs().total_cmp(&(a.high - a.low).abs()));
    Ok((base.train_usd_per_mtok, swings))
}

/// The cost of one marketed dense PFLOP-hour in one format on two platforms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FormatCost {
    /// The format.
    pub dtype: Dtype,
    /// $ per marketed dense PFLOP-hour on the job's platform (`None`: no figure for it).
    pub usd_a: Option<f64>,
    /// The same on the platform compared against.
    pub usd_b: Option<f64>,
}

impl FormatCost {
    /// `usd_a ÷ usd_b`: below 1 the job's platform is cheaper per marketed PFLOP-hour.
    #[must_use]
    pub fn ratio(&self) -> Option<f64> {
        Some(self.usd_a? / self.usd_b?)
    }
}

/// $ per marketed dense PFLOP-hour in every format either chip has, for the job's platform
/// and `other` (each at its own price: rate ÷ dense peak), widest format first. Where the
/// ratio crosses 1 is the format at which the job's platform stops being the cheaper one.
///
/// # Errors
/// Unknown systems.
pub fn by_format(job: &Job, other: &Job) -> Result<Vec<FormatCost>, WorkloadError> {
    let ((sa, ca, _), (sb, cb, _)) = (resolve(job)?, resolve(other)?);
    let (rate_a, rate_b) = (
        pricing(job, &sa.system, &ca.id).0.usd_per_chip_hour(),
        pricing(other, &sb.system, &cb.id).0.usd_per_chip_hour(),
    );
    let per =
        |rate: f64, c: &crate::chip::Chip, d: Dtype| c.dense(d).map(|p| rate / (p.get() / 1e15));
    Ok(Dtype::ALL
        .iter()
        .map(|&d| FormatCost {
            dtype: d,
            usd_a: per(rate_a, &ca, d),
            usd_b: per(rate_b, &cb, d),
        })
        .filter(|f| f.usd_a.is_some() && f.usd_b.is_some())
        .collect())
}

/// An input that [`break_even`] can move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Lever {
    /// Matmul efficiency (and with it MFU), 0.05 to 1.
    Efficiency,
    /// Rental discount, 0 to 0.95.
    Discount,
    /// $ per chip-hour, 0.01 to 100.
    Price,
}

impl Lever {
    /// Every lever.
    pub const ALL: [Lever; 3] = [Lever::Efficiency, Lever::Discount, Lever::Price];
    /// Id in links.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Lever::Efficiency => "efficiency",
            Lever::Discount => "discount",
            Lever::Price => "price",
        }
    }
    /// Label for tables.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Lever::Efficiency => "matmul efficiency",
            Lever::Discount => "discount",
            Lever::Price => "$ per chip-hour",
        }
    }
    /// The values the lever can take.
    #[must_use]
    pub const fn range(self) -> (f64, f64) {
        match self {
            Lever::Efficiency => (0.05, 1.0),
            Lever::Discount => (0.0, 0.95),
            Lever::Price => (0.01, 100.0),
        }
    }
    fn set(self, j: &mut Job, x: f64, base_price: f64) {
        match self {
            Lever::Efficiency => j.efficiency = Some(x),
            Lever::Discount => {
                j.owned = false;
                j.usd_per_chip_hour.get_or_insert(base_price);
                j.discount = x;
            }
            Lever::Price => {
                j.owned = false;
                j.usd_per_chip_hour = Some(x);
                j.discount = 0.0;
            }
        }
    }
}

/// The training cost per million tokens of `job` as a function of one lever, with the
/// job's own best layout held fixed (so the curve isolates the lever).
struct CostCurve {
    job: Job,
    lever: Lever,
    layout: Layout,
    price: f64,
    cluster: Cluster,
    chip: crate::chip::Chip,
    model: workload::Model,
    memo: workload::CommMemo,
}

impl CostCurve {
    fn new(job: &Job, lever: Lever) -> Result<Self, WorkloadError> {
        Self::around(job, &evaluate(job)?, lever)
    }

    fn around(job: &Job, base: &JobReport, lever: Lever) -> Result<Self, WorkloadError> {
        let (cluster, chip, model) = resolve(job)?;
        Ok(Self {
            job: job.clone(),
            lever,
            layout: base.train.layout,
            price: base.usd_per_chip_hour.value,
            cluster,
            chip,
            model,
            memo: workload::CommMemo::default(),
        })
    }

    fn at(&mut self, x: f64) -> f64 {
        let mut j = self.job.clone();
        self.lever.set(&mut j, x, self.price);
        let Ok(mut cfg) = train_config(&j, &self.cluster, &self.chip, &self.model) else {
            return f64::NAN;
        };
        cfg.layout = self.layout;
        // The lever moves no communication, so the curve reuses its collective times.
        workload::train_in(&self.cluster, &self.chip, &cfg, &mut self.memo, false)
            .map_or(f64::NAN, |t| train_cost(&j, &self.cluster, &self.chip, &t))
    }
}

/// `n` points (lever value, training $ per million tokens) across the lever's range.
///
/// # Errors
/// When the job cannot be evaluated.
pub fn curve(job: &Job, lever: Lever, n: u32) -> Result<Vec<(f64, f64)>, WorkloadError> {
    let mut c = CostCurve::new(job, lever)?;
    Ok(points(&mut c, n))
}

fn points(c: &mut CostCurve, n: u32) -> Vec<(f64, f64)> {
    let (lo, hi) = c.lever.range();
    let n = n.max(2);
    (0..n)
        .map(|k| {
            let x = lo + (hi - lo) * f64::from(k) / f64::from(n - 1);
            (x, c.at(x))
        })
        .collect()
}

/// The value of `lever` on job `a` at which its training cost per million tokens equals
/// job `b`'s, by bisection; `None` when no value in the lever's range gets there.
///
/// # Errors
/// When either job cannot be evaluated.
pub fn break_even(a: &Job, b: &Job, lever: Lever) -> Result<Option<f64>, WorkloadError> {
    let target = evaluate(b)?.train_usd_per_mtok;
    let mut c = CostCurve::new(a, lever)?;
    Ok(crossing(&mut c, target))
}

fn crossing(c: &mut CostCurve, target: f64) -> Option<f64> {
    let (mut lo, mut hi) = c.lever.range();
    let (flo, fhi) = (c.at(lo) - target, c.at(hi) - target);
    if !(flo.is_finite() && fhi.is_finite()) || flo.signum() == fhi.signum() {
        return None;
    }
    // 2⁻⁴⁰ of the lever's range is far below any difference a reader can see.
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        let f = c.at(mid) - target;
        if f.signum() == flo.signum() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The rental $ per chip-hour (no discount) at which the job behind `report` costs
/// `target_usd_per_mtok` per million training tokens: the cost is linear in the price, so no
/// search is needed. `None` outside the price lever's range.
#[must_use]
pub fn price_to_match(report: &JobReport, target_usd_per_mtok: f64) -> Option<f64> {
    let x =
        target_usd_per_mtok * report.train.tokens_per_s * 3600.0 / (f64::from(report.chips) * 1e6);
    let (lo, hi) = Lever::Price.range();
    (x.is_finite() && (lo..=hi).contains(&x)).then_some(x)
}

/// What the break-even chart draws, in one pass: `n` points of job `a`'s curve (around its
/// report, already evaluated), job `b`'s training $ per million tokens, and the crossing if
/// there is one.
///
/// # Errors
/// When either job cannot be evaluated.
#[allow(clippy::type_complexity)]
pub fn sensitivity(
    a: &Job,
    a_report: &JobReport,
    b: &Job,
    lever: Lever,
    n: u32,
) -> Result<(Vec<(f64, f64)>, f64, Option<f64>), WorkloadError> {
    let target = evaluate(b)?.train_usd_per_mtok;
    let mut c = CostCurve::around(a, a_report, lever)?;
    let pts = points(&mut c, n);
    Ok((pts, target, crossing(&mut c, target)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn the_default_job_evaluates_and_the_tornado_ranks_price_and_efficiency() {
        let r = evaluate(&Job::default()).unwrap();
        assert!(r.cost_usd > 0.0 && r.train.mfu > 0.0 && r.train.mfu < 1.0);
        assert!((r.chip_hours * r.usd_per_chip_hour.value - r.cost_usd).abs() < 1e-6 * r.cost_usd);
        let (base, bars) = tornado(&Job::default(), 0.2).unwrap();
        assert!((base - r.train_usd_per_mtok).abs() < 1e-9 * base);
        let price = bars
            .iter()
            .find(|b| b.input == "price per chip-hour")
            .unwrap();
        assert!(
            (price.high / base - 1.2).abs() < 1e-6,
            "price moves cost 1:1"
        );
        let eff = bars
            .iter()
            .find(|b| b.input == "matmul efficiency")
            .unwrap();
        assert!(
            eff.high < base && eff.low > base,
            "higher utilisation never raises cost per token"
        );
        assert!(
            (bars[0].high - bars[0].low).abs()
                >= (bars[bars.len() - 1].high - bars[bars.len() - 1].low).abs()
        );
    }

    #[test]
    fn owned_costs_break_down_and_react_to_pue() {
        let job = Job {
            owned: true,
            ..Job::default()
        };
        let r = evaluate(&job).unwrap();
        let (cap, pow, over) = r.owned_breakdown.unwrap();
        assert!((cap + pow + over - r.usd_per_chip_hour.value).abs() < 1e-9);
        let (_, bars) = tornado(&job, 0.2).unwrap();
        let pue = bars.iter().find(|b| b.input == "PUE").unwrap();
        assert!(pue.high > pue.low);
    }

    #[test]
    fn break_even_finds_where_two_platforms_cost_the_same() {
        let trn2 = Job {
            usd_per_chip_hour: Some(1.5),
            ..Job::default()
        };
        let h100 = Job {
            system: "hgx-h100-8".into(),
            nodes: 32,
            usd_per_chip_hour: Some(4.0),
            ..Job::default()
        };
        let target = evaluate(&h100).unwrap().train_usd_per_mtok;
        for lever in [Lever::Efficiency, Lever::Price] {
            let Some(x) = break_even(&trn2, &h100, lever).unwrap() else {
                continue;
            };
            let mut j = trn2.clone();
            lever.set(&mut j, x, 1.5);
            // At the break-even value the two cost the same per token with the base layout
            // kept; searching the layout again can only make it cheaper, and not by much.
            let got = evaluate(&j).unwrap().train_usd_per_mtok;
            assert!(
                got <= target * (1.0 + 1e-6) && got > target * 0.95,
                "{}: {got} vs {target}",
                lever.label()
            );
        }
        let p = break_even(&trn2, &h100, Lever::Price).unwrap().unwrap();
        // The chart's one-pass version agrees with the separate calls.
        let (pts, tgt, x) =
            sensitivity(&trn2, &evaluate(&trn2).unwrap(), &h100, Lever::Price, 11).unwrap();
        assert_eq!(pts.len(), 11);
        assert!((tgt / target - 1.0).abs() < 1e-12);
        assert!((x.unwrap() / p - 1.0).abs() < 1e-6);
        // The closed form agrees with the bisection.
        let direct = price_to_match(&evaluate(&trn2).unwrap(), target).unwrap();
        assert!((direct / p - 1.0).abs() < 1e-6, "{direct} vs {p}");
        assert!(
            p > 1.5,
            "Trn2 at $1.5 is cheaper per token than H100 at $4, so it breaks even higher: {p}"
        );
    }

    #[test]
    fn rate_options_chip_prices_and_energy() {
        // trn1: option 0 is on-demand ($1.34), option 1 AWS's RI-effective rate ($0.51).
        let base = Job {
            system: "trn1-16".into(),
            nodes: 2,
            model: "llama3-8b".into(),
            global_batch: 256,
            ..Job::default()
        };
        let od = evaluate(&base).unwrap();
        let ri = evaluate(&Job {
            rental_option: Some(1),
            ..base.clone()
        })
        .unwrap();
        assert!((ri.cost_usd / od.cost_usd - (8.197 / 21.50)).abs() < 1e-9);
        assert!(
            !ri.usd_per_chip_hour.source.is_user(),
            "a published rate keeps its source"
        );
        let own = Job {
            owned: true,
            ..base.clone()
        };
        let cheap = evaluate(&Job {
            chip_usd: Some(5_000.0),
            ..own.clone()
        })
        .unwrap();
        let dear = evaluate(&Job {
            chip_usd: Some(50_000.0),
            ..own
        })
        .unwrap();
        assert!(dear.cost_usd > cheap.cost_usd);
        assert!(
            od.joules_per_token > 0.0
                && (od.facility_w / od.train.tokens_per_s - od.joules_per_token).abs() < 1e-9
        );
    }

    #[test]
    fn cost_falls_along_the_efficiency_curve() {
        let pts = curve(&Job::default(), Lever::Efficiency, 9).unwrap();
        assert_eq!(pts.len(), 9);
        assert!(pts.windows(2).all(|w| w[1].1 <= w[0].1), "{pts:?}");
    }

    #[test]
    fn trn3_priced_30_percent_under_gb300_per_fp8_loses_at_fp4() {
        // The brief: Trn3 about 30% better TCO per marketed FP8 than GB300 NVL72, much worse
        // at FP4. Price Trn3 so that it is 30% cheaper per marketed dense FP8 PFLOP-hour.
        let gb = Job {
            system: "gb300-nvl72".into(),
            usd_per_chip_hour: Some(7.5),
            ..Job::default()
        };
        let trn3 = catalog::find("trn3").unwrap();
        let gb300 = catalog::find("gb300").unwrap();
        let fp8 = |c: &crate::chip::Chip| c.dense(Dtype::Fp8).unwrap().get();
        let t = Job {
            system: "trn3-ultra-144".into(),
            usd_per_chip_hour: Some(0.7 * 7.5 * fp8(&trn3) / fp8(&gb300)),
            ..Job::default()
        };
        let rows = by_format(&t, &gb).unwrap();
        let r = |d| rows.iter().find(|f| f.dtype == d).unwrap().ratio().unwrap();
        assert!((r(Dtype::Fp8) - 0.7).abs() < 1e-9);
        // MXFP4 runs at the MXFP8 rate on Trainium3 while GB300 doubles (and more) its rate.
        assert!(r(Dtype::Fp4) > 1.5, "FP4 ratio {}", r(Dtype::Fp4));
        // BF16 too: GB300's dense BF16 is half its FP8, Trainium3's about a quarter.
        assert!(r(Dtype::Bf16) > 1.0, "BF16 ratio {}", r(Dtype::Bf16));
    }

    #[test]
    fn a_job_moved_to_another_platform_drops_the_per_platform_inputs() {
        let j = Job {
            usd_per_chip_hour: Some(9.0),
            chip_usd: Some(1.0),
            network_usd: Some(2.0),
            overlap: Some(0.9),
            rental_option: Some(1),
            pue: 1.4,
            ..Job::default()
        };
        let m = j.moved_to("gb300-nvl72", 3);
        assert_eq!((m.system.as_str(), m.nodes), ("gb300-nvl72", 3));
        assert_eq!(
            (
                m.usd_per_chip_hour,
                m.chip_usd,
                m.network_usd,
                m.overlap,
                m.rental_option
            ),
            (None, None, None, None, None)
        );
        assert_eq!((m.pue, &m.model), (1.4, &j.model));
    }

    #[test]
    fn racks_kilowatts_and_overlap_come_with_the_report() {
        let j = Job {
            system: "gb300-nvl72".into(),
            nodes: 2,
            ..Job::default()
        };
        let r = evaluate(&j).unwrap();
        assert_eq!(r.racks, 2);
        assert_eq!(r.rack_chips.value, 72);
        // NVIDIA's GB300 NVL72 planning example is 135 kW per rack; ours is all-in power per
        // chip at the job's load, the same order.
        assert!(r.rack_w > 60e3 && r.rack_w < 160e3, "{} W", r.rack_w);
        assert!(r.overlap.value >= 0.0 && !r.overlap.note.is_empty());
        // More overlap never slows training.
        let hidden = evaluate(&Job {
            overlap: Some(1.0),
            ..j.clone()
        })
        .unwrap();
        let exposed = evaluate(&Job {
            overlap: Some(0.0),
            ..j
        })
        .unwrap();
        assert!(hidden.train.tokens_per_s >= exposed.train.tokens_per_s);
        assert!(evaluate(&Job {
            overlap: Some(1.5),
            ..Job::default()
        })
        .unwrap_err()
        .to_string()
        .contains("communication overlap (1.5) is outside 0 to 1"));
    }

    /// A 16,384-chip job on 64-chip failure domains against one on 8-GPU servers: the same
    /// interruptions per chip, so the same goodput for the same checkpoint and restart, but
    /// eight times the blast radius held six times as long in spares.
    #[test]
    fn failures_are_counted_honestly_across_failure_domains() {
        let trn = Job {
            system: "trn2-ultra-64".into(),
            nodes: 256,
            model: "llama3-405b".into(),
            ..Job::default()
        };
        let hgx = Job {
            system: "hgx-h100-8".into(),
            nodes: 2048,
            ..trn.clone()
        };
        let (a, b) = (evaluate(&trn).unwrap(), evaluate(&hgx).unwrap());
        assert_eq!(a.chips, b.chips);
        assert_eq!(a.failure_inputs.blast_radius, 64);
        assert_eq!(b.failure_inputs.blast_radius, 8);
        assert!((a.failures.mtbf_h / b.failures.mtbf_h - 1.0).abs() < 1e-12);
        assert!(a.failures.spare_chips > 40.0 * b.failures.spare_chips);
        for r in [&a, &b] {
            assert!(
                r.failures.goodput > 0.8 && r.failures.goodput < 1.0,
                "{:?}",
                r.failures
            );
            assert!(r.real_days > r.time_s / 86_400.0);
            assert!(r.failure_cost_usd > 0.0 && r.failure_cost_usd < r.cost_usd);
        }
    }

    #[test]
    fn bad_jobs_say_why() {
        let e = |j: Job| evaluate(&j).unwrap_err().to_string();
        assert!(e(Job {
            system: "nope".into(),
            ..Job::default()
        })
        .contains("unknown system"));
        assert!(e(Job {
            model: "nope".into(),
            ..Job::default()
        })
        .contains("unknown model"));
        assert!(e(Job {
            nodes: 0,
            ..Job::default()
        })
        .contains("a job spans 1 to"));
        // What a link or file would refuse, evaluate refuses too: no infinite costs.
        for j in [
            Job {
                nodes: u32::MAX,
                ..Job::default()
            },
            Job {
                nodes: 1 << 26,
                ..Job::default()
            },
            Job {
                pue: 1e308,
                ..Job::default()
            },
            Job {
                usd_per_chip_hour: Some(-1e308),
                ..Job::default()
            },
            Job {
                efficiency: Some(5e-324),
                ..Job::default()
            },
            Job {
                owned: true,
                chip_usd: Some(1e308),
                ..Job::default()
            },
            Job {
                tokens: f64::NAN,
                ..Job::default()
            },
        ] {
            assert!(!e(j.clone()).is_empty(), "{j:?}");
        }
    }

    #[test]
    fn a_jobs_own_failure_inputs_replace_the_fitted_ones() {
        let base = Job {
            system: "hgx-h100-8".into(),
            nodes: 512,
            ..Job::default()
        };
        let a = evaluate(&base).unwrap();
        assert!(!a.failure_inputs.rate.source.is_user());
        let worse = evaluate(&Job {
            fail_rate: Some(a.failure_inputs.rate.value * 2.0),
            repair_h: Some(a.failure_inputs.repair_h.value * 3.0),
            ..base.clone()
        })
        .unwrap();
        assert!(worse.failure_inputs.rate.source.is_user());
        // Twice the rate: about twice the interruptions over the (slightly longer) run.
        let r = worse.failures.interruptions / a.failures.interruptions;
        assert!(r > 2.0 && r < 2.2, "{r}");
        assert!(worse.failures.goodput < a.failures.goodput);
        // Spares scale with rate × repair time: six times as many.
        assert!((worse.failures.spare_chips / a.failures.spare_chips - 6.0).abs() < 0.01);
        // Faster storage: shorter checkpoints, taken more often (Young/Daly), better goodput.
        let fast = evaluate(&Job {
            ckpt_bytes_per_s: Some(a.failure_inputs.write_bytes_per_s_per_chip.value * 10.0),
            restart_min: Some(1.0),
            ..base.clone()
        })
        .unwrap();
        assert!(fast.failures.checkpoint_h < a.failures.checkpoint_h / 9.0);
        assert!(fast.failures.interval_h < a.failures.interval_h);
        assert!(fast.failures.goodput > a.failures.goodput);
        // Out of range is refused by name.
        let bad = evaluate(&Job {
            repair_h: Some(1e6),
            ..base
        });
        assert!(bad.unwrap_err().to_string().contains("repair hours"));
    }
}
