//! How far a job's headline figures can be trusted: a low and a high value from the model's
//! own errors on held-out published runs of the same vendor's chips, and from the spread of
//! the chip's published rental rates. A headline is never a single number without a range.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::calibration::{training_errors, Family, RunPoint};
use crate::chip::Chip;
use crate::job::{Job, JobReport};
use crate::tco;

/// Low and high values of a job's headline figures, with what they stand on.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// Training tokens per second over the cluster.
    pub tokens_per_s: (f64, f64),
    /// Model FLOPs utilisation.
    pub mfu: (f64, f64),
    /// Training $ per million tokens.
    pub train_usd_per_mtok: (f64, f64),
    /// What the range covers, in words.
    pub basis: String,
}

/// The model's error range on held-out training runs of `chip`'s vendor (or of every
/// vendor's, when this one has none), widened to include zero, and its description.
#[must_use]
pub fn errors_for(points: &[RunPoint], chip: &Chip) -> ((f64, f64), String) {
    let vendor = chip.vendor;
    let (lo, hi, text) = match training_errors(points, vendor) {
        Some((lo, hi, n)) => (
            lo,
            hi,
            format!(
                "the model's error on {n} held-out {vendor} training runs ({:+.0}% to {:+.0}%)",
                lo * 100.0,
                hi * 100.0
            ),
        ),
        None => {
            let all = ["AWS", "NVIDIA", "Google", "AMD"]
                .iter()
                .filter_map(|v| training_errors(points, v))
                .fold((0.0_f64, 0.0_f64, 0usize), |a, (l, h, n)| {
                    (a.0.min(l), a.1.max(h), a.2 + n)
                });
            (
                all.0,
                all.1,
                format!(
                    "no published {vendor} training run is in the calibration set: the model's error on all {} held-out training runs ({:+.0}% to {:+.0}%)",
                    all.2,
                    all.0 * 100.0,
                    all.1 * 100.0
                ),
            )
        }
    };
    let own = points.iter().any(|p| {
        p.family == Family::Training
            && crate::system::find(p.system).is_ok_and(|s| s.chip == chip.id)
    });
    let text = if own {
        text
    } else {
        format!(
            "{text}; no {} run is in the set, so this is the nearest evidence, not a bound",
            chip.name
        )
    };
    ((lo.min(0.0), hi.max(0.0)), text)
}

/// The model's speed error on held-out serving runs on `chip` itself, widened to include
/// zero, and its description; `None` when no serving run on that chip is held out (a range
/// borrowed from other chips would say nothing about this one's kernels).
#[must_use]
pub fn serving_errors_for(points: &[RunPoint], chip: &Chip) -> Option<((f64, f64), String)> {
    let (lo, hi, n) = crate::calibration::serving_errors(points, &chip.id)?;
    Some((
        (lo.min(0.0), hi.max(0.0)),
        format!(
            "the model's speed error on {n} held-out {} serving run{} ({:+.0}% to {:+.0}%)",
            chip.name,
            if n == 1 { "" } else { "s" },
            lo * 100.0,
            hi * 100.0
        ),
    ))
}

/// Serving tokens per second per chip and $ per million tokens over the speed error range
/// (a model 20% fast means the real rate is 1/1.2 of it), at the rate used.
#[must_use]
pub fn serving_band(
    tokens_per_s_per_chip: f64,
    usd_per_mtok: f64,
    errors: (f64, f64),
) -> [(f64, f64); 2] {
    let (lo, hi) = errors;
    [
        (
            tokens_per_s_per_chip / (1.0 + hi),
            tokens_per_s_per_chip / (1.0 + lo),
        ),
        (usd_per_mtok * (1.0 + lo), usd_per_mtok * (1.0 + hi)),
    ]
}

/// The band around `report` for `job`: throughput and MFU divided by one plus each end of
/// the error range (a model that ran 10% fast means the real run is 1/1.1 of it), and the
/// cost over the chip's published rates when the job rents at one.
#[must_use]
pub fn band(job: &Job, report: &JobReport, errors: (f64, f64), basis: &str) -> Band {
    let (lo, hi) = errors;
    let t = report.train.tokens_per_s;
    let tokens = (t / (1.0 + hi), t / (1.0 + lo));
    let m = report.train.mfu;
    let mfu = (m / (1.0 + hi), m / (1.0 + lo));
    let chip = crate::system::find(&job.system)
        .map(|s| s.chip)
        .unwrap_or_default();
    let rate = report.usd_per_chip_hour.value;
    let (pmin, pmax, prices) = if !job.owned && job.usd_per_chip_hour.is_none() {
        let off = 1.0 - job.discount.clamp(0.0, 1.0);
        // The spread of the chip's published rates of the same kind as the one used, over
        // the dates they were read: a price that moved (a cut) widens the band.
        let opts: Vec<_> = tco::rental_options(chip)
            .into_iter()
            .filter(|r| r.kind.id() == report.price.kind)
            .collect();
        let lo = opts
            .iter()
            .map(|r| r.usd_per_chip_hour() * off)
            .fold(f64::INFINITY, f64::min);
        let hi = opts
            .iter()
            .map(|r| r.usd_per_chip_hour() * off)
            .fold(f64::NEG_INFINITY, f64::max);
        let text = if opts.len() > 1 {
            format!(
                "; cost over the {} published {} rates (${:.2} to ${:.2} per chip-hour)",
                opts.len(),
                report.price.kind,
                lo,
                hi
            )
        } else {
            format!("; one published {} rate", report.price.kind)
        };
        (lo.min(rate), hi.max(rate), text)
    } else {
        (rate, rate, String::from("; the rate as given"))
    };
    let per_mtok = |price: f64, tps: f64| price * f64::from(report.chips) / (tps * 3600.0) * 1e6;
    Band {
        tokens_per_s: tokens,
        mfu,
        train_usd_per_mtok: (per_mtok(pmin, tokens.1), per_mtok(pmax, tokens.0)),
        basis: format!("{basis}{prices}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibration::calibration;
    use crate::job::evaluate;

    #[test]
    fn the_band_holds_the_estimate_and_widens_with_the_errors() {
        let job = Job::default();
        let r = evaluate(&job).unwrap();
        let pts = calibration();
        let trn2 = crate::catalog::find("trn2").unwrap();
        let (errs, basis) = errors_for(&pts, &trn2);
        assert!(basis.contains("held-out AWS"), "{basis}");
        assert!(basis.contains("not a bound"), "no Trn2 run: {basis}");
        let b = band(&job, &r, errs, &basis);
        assert!(b.mfu.0 <= r.train.mfu && r.train.mfu <= b.mfu.1);
        assert!(b.train_usd_per_mtok.0 <= r.train_usd_per_mtok);
        assert!(r.train_usd_per_mtok <= b.train_usd_per_mtok.1);
        let wide = band(&job, &r, (errs.0 - 0.1, errs.1 + 0.1), &basis);
        assert!(wide.mfu.0 < b.mfu.0 && wide.mfu.1 > b.mfu.1);
    }

    #[test]
    fn trainium2_serving_carries_a_range_from_its_own_held_out_runs() {
        let pts = calibration();
        let trn2 = crate::catalog::find("trn2").unwrap();
        let ((lo, hi), basis) = serving_errors_for(&pts, &trn2).unwrap();
        assert!(basis.contains("held-out Trainium2 serving runs"), "{basis}");
        assert!(lo <= 0.0 && hi >= 0.0 && hi > lo);
        let [tps, usd] = serving_band(100.0, 2.0, (lo, hi));
        assert!(tps.0 <= 100.0 && 100.0 <= tps.1 && usd.0 <= 2.0 && 2.0 <= usd.1);
        // Each held-out Trn2 point's own speed error lies inside the range.
        for p in pts
            .iter()
            .filter(|p| p.system == "trn2-16" && p.role.is_held_out())
        {
            let e = p.speed_error().unwrap();
            assert!(e >= lo && e <= hi, "{}: {e}", p.label);
        }
        // A chip with no held-out serving run gets no range.
        let tpu = crate::catalog::find("tpu-v6e").unwrap();
        assert!(serving_errors_for(&pts, &tpu).is_none());
    }

    #[test]
    fn a_vendor_without_runs_borrows_everyones_errors() {
        // No AMD training run is in the set (MaxText's FSDP runs give Google its own).
        let mi = crate::catalog::find("mi300x").unwrap();
        let (e, basis) = errors_for(&calibration(), &mi);
        assert!(basis.starts_with("no published AMD"), "{basis}");
        assert!(e.0 <= 0.0 && e.1 >= 0.0);
        let tpu = crate::catalog::find("tpu-v6e").unwrap();
        let (_, basis) = errors_for(&calibration(), &tpu);
        assert!(basis.contains("held-out Google"), "{basis}");
    }
}
