//! Where two platforms cost the same: one lever (efficiency, discount or price) moved with
//! the job's own layout held, its curve and its crossing with the other job's cost.

use super::*;

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
    pub(super) fn set(self, j: &mut Job, x: f64, base_price: f64) {
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
