//! How a job's cost answers its inputs: the tornado of one input at a time, and the cost of
//! a marketed PFLOP-hour by format beside another platform's.

use super::*;

/// One bar of a tornado chart: the training cost per million tokens with one input moved
/// down and up by the chosen fraction, everything else held.
#[derive(Clone, Debug, PartialEq)]
pub struct Swing {
    /// Which input.
    pub input: String,
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
            input: input.into(),
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
