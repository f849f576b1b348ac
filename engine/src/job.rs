//! A concrete job for the analyst: train (and serve) a model on a system at a price, with
//! the results and their sensitivity to each assumption.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::catalog;
use crate::dtype::Dtype;
use crate::source::Sourced;
use crate::system::{self, Cluster};
use crate::tco::{self, Pricing};
use crate::workload::{
    self, InferConfig, InferReport, Layout, TrainConfig, TrainReport, WorkloadError,
};

/// Everything an analyst sets for one job.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// Matmul efficiency (fraction of dense peak).
    pub efficiency: f64,
    /// Concurrent sequences per inference replica.
    pub batch: u32,
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
    /// Renting: which of the chip's published rates (index into [`tco::rental_options`]).
    pub rental_option: u32,
    /// Ownership: price per chip with its server share; `None` takes the default estimate.
    pub chip_usd: Option<f64>,
    /// Ownership: annual cost of capital.
    pub cost_of_capital: f64,
    /// Ownership: facility $ per kW of IT load per month.
    pub facility_usd_per_kw_month: f64,
    /// Ownership: maintenance per year as a fraction of capital.
    pub maintenance: f64,
    /// The platform the break-even chart compares against (system id).
    pub compare_with: String,
    /// The input the break-even chart moves.
    pub lever: Lever,
}

impl Default for Job {
    fn default() -> Self {
        Self {
            system: "trn2-ultra-64".into(),
            nodes: 4,
            model: "llama3-70b".into(),
            dtype: Dtype::Bf16,
            tokens: 2e12,
            global_batch: 1024,
            efficiency: 0.8,
            batch: 64,
            owned: false,
            usd_per_chip_hour: None,
            discount: 0.0,
            years: 5.0,
            pue: 1.2,
            usd_per_kwh: 0.08,
            rental_option: 0,
            chip_usd: None,
            cost_of_capital: 0.08,
            facility_usd_per_kw_month: 150.0,
            maintenance: 0.03,
            compare_with: "hgx-h100-8".into(),
            lever: Lever::Efficiency,
        }
    }
}

/// The results of a job.
#[derive(Clone, Debug, PartialEq)]
pub struct JobReport {
    /// Training estimate (fastest layout that fits).
    pub train: TrainReport,
    /// Inference estimate, if the model fits one scale-up domain.
    pub infer: Option<InferReport>,
    /// Chips in the cluster.
    pub chips: u32,
    /// Effective $/chip-hour and what it stands on.
    pub usd_per_chip_hour: Sourced<f64>,
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
    /// Facility power of the cluster at the job's load, W (all-in per-chip power × PUE).
    pub facility_w: f64,
    /// Training energy per token at the facility meter, J.
    pub joules_per_token: f64,
}

/// The price model of a job.
fn pricing(job: &Job, chip: &str) -> (Pricing, Sourced<f64>) {
    if job.owned {
        let mut o = tco::ownership_default(chip);
        o.years = job.years;
        o.pue = job.pue;
        o.usd_per_kwh = job.usd_per_kwh;
        o.cost_of_capital = job.cost_of_capital;
        o.facility_usd_per_kw_month = job.facility_usd_per_kw_month;
        o.maintenance = job.maintenance;
        if let Some(c) = job.chip_usd {
            o.chip_usd = Sourced::user(c);
        }
        let p = Pricing::Owned(o);
        let v = p.usd_per_chip_hour();
        (
            p,
            Sourced::assumption(v)
                .note("owned: capital annuity + power at PUE + facility + maintenance"),
        )
    } else {
        let rate = match job.usd_per_chip_hour {
            Some(x) => Sourced::user(x),
            None => {
                let mut options = tco::rental_options(chip);
                let i = (job.rental_option as usize).min(options.len() - 1);
                options.swap_remove(i).1
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
        (p, eff)
    }
}

/// Evaluate a job.
///
/// # Errors
/// Unknown ids, out-of-range inputs, or no layout that fits.
pub fn evaluate(job: &Job) -> Result<JobReport, WorkloadError> {
    let sys = system::find(&job.system).map_err(|e| WorkloadError::BadInput(format!("{e}")))?;
    let chip = catalog::find(sys.chip).map_err(|e| WorkloadError::BadInput(format!("{e}")))?;
    let model = workload::find_model(&job.model)?;
    let tokens_ok = job.tokens.is_finite() && job.tokens > 0.0;
    let eff_ok = job.efficiency > 0.0 && job.efficiency <= 1.0;
    if job.nodes == 0 || !tokens_ok || !eff_ok {
        return Err(WorkloadError::BadInput(
            "nodes and tokens must be positive and the efficiency in (0, 1]".into(),
        ));
    }
    let cluster = Cluster {
        system: sys,
        nodes: job.nodes,
    };
    let cfg = TrainConfig::new(
        model.clone(),
        job.dtype,
        job.global_batch,
        Layout::START,
        job.efficiency,
    );
    let train = workload::best_layout(&cluster, &chip, &cfg)?;
    report(job, &cluster, &chip, train, &model)
}

fn report(
    job: &Job,
    cluster: &Cluster,
    chip: &crate::chip::Chip,
    train: TrainReport,
    model: &workload::Model,
) -> Result<JobReport, WorkloadError> {
    let chips = cluster.chips();
    let (price, rate) = pricing(job, &chip.id);
    let time_s = job.tokens / train.tokens_per_s;
    let chip_hours = time_s / 3600.0 * f64::from(chips);
    let infer = workload::infer(
        cluster,
        chip,
        &InferConfig {
            model: model.clone(),
            dtype: job.dtype,
            batch: job.batch.max(1),
            prompt: 1024,
            output: 256,
            tp: None,
            matmul_efficiency: job.efficiency * 0.875,
            memory_efficiency: 0.85,
        },
    )
    .ok();
    let peak_pf = chip.dense(job.dtype).map_or(f64::NAN, |p| p.get() / 1e15);
    let own = tco::ownership_default(&chip.id);
    let facility_w = own.power_w.value * own.load * job.pue * f64::from(chips);
    let per_h = price.usd_per_chip_hour();
    Ok(JobReport {
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
        owned_breakdown: match &price {
            Pricing::Owned(o) => Some((
                o.capital_per_hour(),
                o.power_per_hour(),
                o.overhead_per_hour(),
            )),
            Pricing::Rental { .. } => None,
        },
        usd_per_chip_hour: rate,
        facility_w,
        joules_per_token: facility_w / train.tokens_per_s,
        train,
    })
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
    let base = evaluate(job)?;
    let f = fraction.clamp(0.0, 0.9);
    let sys = system::find(&job.system).map_err(|e| WorkloadError::BadInput(format!("{e}")))?;
    let chip = catalog::find(sys.chip).map_err(|e| WorkloadError::BadInput(format!("{e}")))?;
    let model = workload::find_model(&job.model)?;
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
        let cfg = TrainConfig::new(
            model.clone(),
            j.dtype,
            j.global_batch,
            layout,
            j.efficiency.min(1.0),
        );
        workload::train(&cl, &chip, &cfg)
            .ok()
            .and_then(|t| report(j, &cl, &chip, t, &model).ok())
            .map_or(f64::NAN, |r| r.train_usd_per_mtok)
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
    with("matmul efficiency", &|j, k| {
        j.efficiency = (j.efficiency * k).min(1.0);
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
            Lever::Efficiency => j.efficiency = x,
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
}

impl CostCurve {
    fn new(job: &Job, lever: Lever) -> Result<Self, WorkloadError> {
        let base = evaluate(job)?;
        let sys = system::find(&job.system).map_err(|e| WorkloadError::BadInput(format!("{e}")))?;
        let chip = catalog::find(sys.chip).map_err(|e| WorkloadError::BadInput(format!("{e}")))?;
        Ok(Self {
            job: job.clone(),
            lever,
            layout: base.train.layout,
            price: base.usd_per_chip_hour.value,
            cluster: Cluster {
                system: sys,
                nodes: job.nodes,
            },
            chip,
            model: workload::find_model(&job.model)?,
        })
    }

    fn at(&self, x: f64) -> f64 {
        let mut j = self.job.clone();
        self.lever.set(&mut j, x, self.price);
        let cfg = TrainConfig::new(
            self.model.clone(),
            j.dtype,
            j.global_batch,
            self.layout,
            j.efficiency,
        );
        workload::train(&self.cluster, &self.chip, &cfg)
            .ok()
            .and_then(|t| report(&j, &self.cluster, &self.chip, t, &self.model).ok())
            .map_or(f64::NAN, |r| r.train_usd_per_mtok)
    }
}

/// `n` points (lever value, training $ per million tokens) across the lever's range.
///
/// # Errors
/// When the job cannot be evaluated.
pub fn curve(job: &Job, lever: Lever, n: u32) -> Result<Vec<(f64, f64)>, WorkloadError> {
    let c = CostCurve::new(job, lever)?;
    let (lo, hi) = lever.range();
    let n = n.max(2);
    Ok((0..n)
        .map(|k| {
            let x = lo + (hi - lo) * f64::from(k) / f64::from(n - 1);
            (x, c.at(x))
        })
        .collect())
}

/// The value of `lever` on job `a` at which its training cost per million tokens equals
/// job `b`'s, by bisection; `None` when no value in the lever's range gets there.
///
/// # Errors
/// When either job cannot be evaluated.
pub fn break_even(a: &Job, b: &Job, lever: Lever) -> Result<Option<f64>, WorkloadError> {
    let target = evaluate(b)?.train_usd_per_mtok;
    let c = CostCurve::new(a, lever)?;
    let (mut lo, mut hi) = lever.range();
    let (flo, fhi) = (c.at(lo) - target, c.at(hi) - target);
    if !(flo.is_finite() && fhi.is_finite()) || flo.signum() == fhi.signum() {
        return Ok(None);
    }
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        let f = c.at(mid) - target;
        if f.signum() == flo.signum() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(Some(0.5 * (lo + hi)))
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
            // At the break-even value the two cost the same per token (same layout kept).
            let got = evaluate(&j).unwrap().train_usd_per_mtok;
            assert!(
                (got / target - 1.0).abs() < 0.02,
                "{}: {got} vs {target}",
                lever.label()
            );
        }
        let p = break_even(&trn2, &h100, Lever::Price).unwrap().unwrap();
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
            rental_option: 1,
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
        .contains("positive"));
    }
}
