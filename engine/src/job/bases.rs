//! The verdict on every price basis: which of two platforms trains a job for less on each
//! kind of price and date some rate stands on, and a plain sentence when the answer turns
//! on the basis chosen.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{pricing, resolve, Job, JobReport};
use crate::tco::{self, rates::Basis};

/// Two platforms' training cost on one basis.
#[derive(Clone, Debug, PartialEq)]
pub struct BasisVerdict {
    /// The basis.
    pub basis: Basis,
    /// This job's training $ per million tokens on it.
    pub this_usd_per_mtok: f64,
    /// The compared platform's.
    pub other_usd_per_mtok: f64,
    /// Whether this job's platform has no rate of its own on the basis (priced at the one it
    /// had then, [`tco::rates::rate_on`]).
    pub this_fell_back: bool,
    /// Whether the compared platform has none.
    pub other_fell_back: bool,
}

impl BasisVerdict {
    /// Whether this job is the cheaper of the two.
    #[must_use]
    pub fn this_cheaper(&self) -> bool {
        self.this_usd_per_mtok <= self.other_usd_per_mtok
    }
    /// Whether both platforms have a rate of their own on the basis.
    #[must_use]
    pub fn both_priced(&self) -> bool {
        !self.this_fell_back && !self.other_fell_back
    }
}

/// `job` (evaluated as `report`) against `other` (as `other_report`) on every plannable
/// basis on which at least one of them has a rate of its own, newest first; empty when
/// either does not rent at published rates (owned, or a rate the user gave).
#[must_use]
pub fn basis_verdicts(
    job: &Job,
    report: &JobReport,
    other: &Job,
    other_report: &JobReport,
) -> Vec<BasisVerdict> {
    let rents = |j: &Job| !j.owned && j.usd_per_chip_hour.is_none() && j.rental_option.is_none();
    let (Ok((cl, chip, _)), Ok((ocl, ochip, _))) = (resolve(job), resolve(other)) else {
        return Vec::new();
    };
    if !(rents(job) && rents(other))
        || cl.system.usd_per_chip_hour.is_some()
        || ocl.system.usd_per_chip_hour.is_some()
    {
        return Vec::new();
    }
    let cost = |j: &Job, cl: &crate::system::Cluster, chip: &str, tps: f64, b: Basis| {
        let on = Job {
            price_basis: Some(b.id()),
            ..j.clone()
        };
        let (p, _, origin) = pricing(&on, &cl.system, chip);
        (tco::cost_per_mtok(&p, cl.chips(), tps), origin.fell_back)
    };
    tco::rates::bases()
        .into_iter()
        .filter(|b| b.kind.plannable())
        .filter_map(|b| {
            let (t, tf) = cost(job, &cl, &chip.id, report.train.tokens_per_s, b);
            let (o, of) = cost(other, &ocl, &ochip.id, other_report.train.tokens_per_s, b);
            (!(tf && of)).then_some(BasisVerdict {
                basis: b,
                this_usd_per_mtok: t,
                other_usd_per_mtok: o,
                this_fell_back: tf,
                other_fell_back: of,
            })
        })
        .collect()
}

/// One plain sentence on `verdicts` (from [`basis_verdicts`]) for the basis the job is
/// priced on: which platform is cheaper on it and by how much, on how many of the bases
/// both are priced the order holds, and where it flips. None for a platform compared with
/// itself (the same name), which would read "0% cheaper than itself".
#[must_use]
pub fn verdict_sentence(
    this: &str,
    other: &str,
    on: Basis,
    verdicts: &[BasisVerdict],
) -> Option<String> {
    if this == other {
        return None;
    }
    let here = verdicts.iter().find(|v| v.basis == on)?;
    let (cheap, dear, a, b) = if here.this_cheaper() {
        (this, other, here.this_usd_per_mtok, here.other_usd_per_mtok)
    } else {
        (other, this, here.other_usd_per_mtok, here.this_usd_per_mtok)
    };
    let both: Vec<&BasisVerdict> = verdicts.iter().filter(|v| v.both_priced()).collect();
    let same = |v: &BasisVerdict| v.this_cheaper() == here.this_cheaper();
    let holds = both.iter().filter(|v| same(v)).count();
    let flips: Vec<String> = both
        .iter()
        .filter(|v| !same(v))
        .map(|v| v.basis.id())
        .collect();
    let mut s = format!(
        "{cheap} trains this job {:.0}% cheaper than {dear} on {} (${:.3} against ${:.3} per million tokens). The order holds on {holds} of the {} bases on which both have a rate",
        (1.0 - a / b) * 100.0,
        on,
        a,
        b,
        both.len()
    );
    if flips.is_empty() {
        s.push('.');
    } else {
        s.push_str(&format!("; it flips on {}.", flips.join(", ")));
    }
    // Where only one has a rate of its own, the other priced at the one it had then.
    for (side, name, rival) in [(true, other, this), (false, this, other)] {
        let lone: Vec<&BasisVerdict> = verdicts
            .iter()
            .filter(|v| !v.both_priced() && v.this_fell_back == side)
            .collect();
        if lone.is_empty() {
            continue;
        }
        let wins = lone.iter().filter(|v| v.this_cheaper() != side).count();
        s.push_str(&format!(
            " On {} more bases only {name} has a rate; it is the cheaper on {wins} of them against {rival}'s nearest rate.",
            lone.len()
        ));
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::evaluate;

    #[test]
    fn trainium2_and_h100_on_every_basis() {
        let job = Job::default();
        let other = job.moved_to("hgx-h100-8", 32);
        let (r, o) = (evaluate(&job).unwrap(), evaluate(&other).unwrap());
        let v = basis_verdicts(&job, &r, &other, &o);
        // The default basis, both July 2026 Capacity Block rates: each platform's own cost
        // on it is what its report says.
        let on = tco::rates::default_basis();
        let here = v.iter().find(|x| x.basis == on).unwrap();
        assert!(here.both_priced());
        assert!((here.this_usd_per_mtok / r.train_usd_per_mtok - 1.0).abs() < 1e-12);
        assert!((here.other_usd_per_mtok / o.train_usd_per_mtok - 1.0).abs() < 1e-12);
        // The three bases on which AWS priced both: the 2025 on-demand list and the two
        // Capacity Block tables of 2026.
        let both: Vec<String> = v
            .iter()
            .filter(|x| x.both_priced())
            .map(|x| x.basis.id())
            .collect();
        assert_eq!(
            both,
            [
                "capacity-block@2026-07",
                "capacity-block@2026-03",
                "on-demand@2025-05"
            ]
        );
        // A cost on a basis is the rate on it × chips ÷ tokens per hour.
        let nov = v
            .iter()
            .find(|x| x.basis.id() == "on-demand@2025-11-30")
            .unwrap();
        assert!(nov.this_fell_back && !nov.other_fell_back);
        let want = 55.04 / 8.0 * 256.0 / (o.train.tokens_per_s * 3600.0) * 1e6;
        assert!((nov.other_usd_per_mtok / want - 1.0).abs() < 1e-12);
        let s = verdict_sentence("Trn2", "H100", on, &v).unwrap();
        assert!(s.contains("of the 3 bases"), "{s}");
        // The same platform on both sides has nothing to say.
        let same = basis_verdicts(&other, &o, &other, &o);
        assert!(verdict_sentence("H100", "H100", on, &same).is_none());
        // A job at its own rate has no verdict by basis.
        let mine = Job {
            usd_per_chip_hour: Some(2.0),
            ..Job::default()
        };
        assert!(basis_verdicts(&mine, &r, &other, &o).is_empty());
    }
}
