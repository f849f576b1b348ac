//! How far a job's headline figures can be trusted: each carries a low and a high value from
//! the model's errors on held-out published runs (never a point of another role), the
//! evidence behind them (how many runs, on which chips, whether any is on the job's own
//! chip), and the price's spread where the price is no longer a quote. A headline is never a
//! single number without a range, and the words beside a range are made from its numbers.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::calibration::{Family, Phase, RunPoint};
use crate::chip::Chip;
use crate::job::{Job, JobReport};
use crate::tco::rates::{self, PriceKind};

/// Where an assumption stands in for a chip's price and the chip has no published rate to
/// spread over, the price may be off by this fraction either way (an assumption, stated).
pub const ASSUMED_PRICE_SPREAD: f64 = 0.5;

/// How near the evidence is to the job's chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Held-out runs on the job's own chip.
    Chip,
    /// None on the chip: held-out runs on the same vendor's other chips.
    Vendor,
    /// None of the vendor's: every held-out run of the family.
    All,
    /// No held-out run of the family at all.
    None,
}

/// The held-out runs a range stands on.
#[derive(Clone, Debug, PartialEq)]
pub struct Evidence {
    /// How many held-out points.
    pub points: usize,
    /// The chips they ran on (catalog names, each once, in the order met).
    pub chips: Vec<String>,
    /// Whether any is on the job's own chip.
    pub same_chip: bool,
    /// Whether the price's spread is part of the range.
    pub includes_price: bool,
    /// What part of a run they cover: `whole`, or `decode` / `prefill` when all cover only
    /// that (serving's time per output token or to the first token).
    pub covers: &'static str,
    /// How near the runs are to the job's chip.
    pub scope: Scope,
    /// Runs of the family on the job's own chip that the model departs from (outside their
    /// bound, so in no range): how many, and the largest speed error among them.
    pub departing: (usize, f64),
}

impl Evidence {
    /// Whether a reader should be warned off the range: no run on the job's own chip, runs
    /// covering only part of the job, a price spread folded in, or runs on the chip the model
    /// departs from. The Workload page and the Compare memo mark such a range as an estimate.
    #[must_use]
    pub fn is_thin(&self) -> bool {
        !self.same_chip || self.covers != "whole" || self.includes_price || self.departing.0 > 0
    }
}

/// The model's error (model ÷ measured − 1, as a speed: above zero the model runs fast) over
/// the held-out runs of one family chosen for a chip, widened to include zero.
#[derive(Clone, Debug, PartialEq)]
pub struct Errors {
    /// Lowest and highest error, each widened to include zero.
    pub span: (f64, f64),
    /// The runs behind them.
    pub evidence: Evidence,
    /// The words that say so, from these numbers.
    pub caveat: String,
    /// The same in a few words, for beside a figure: what the evidence lacks.
    pub brief: String,
}

impl Scope {
    /// Every scope, nearest first.
    pub const ALL: [Scope; 4] = [Scope::Chip, Scope::Vendor, Scope::All, Scope::None];

    /// Lower-case id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Scope::Chip => "chip",
            Scope::Vendor => "vendor",
            Scope::All => "all",
            Scope::None => "none",
        }
    }
}

/// Separates an encoded [`Errors`]' fields (no caveat or chip name holds it).
const FIELD: &str = "\u{1f}";
/// Separates the chips in an encoded [`Errors`].
const ITEM: &str = "\u{1e}";

impl Errors {
    /// The errors as one line of text, for a message between threads ([`Errors::decode`]
    /// reads it back exactly).
    #[must_use]
    pub fn encode(&self) -> String {
        let e = &self.evidence;
        let chips = e.chips.join(ITEM);
        [
            format!("{}", self.span.0),
            format!("{}", self.span.1),
            format!("{}", e.points),
            chips,
            format!("{}", u8::from(e.same_chip)),
            format!("{}", u8::from(e.includes_price)),
            e.covers.into(),
            e.scope.id().into(),
            format!("{}", e.departing.0),
            format!("{}", e.departing.1),
            self.caveat.clone(),
            self.brief.clone(),
        ]
        .join(FIELD)
    }

    /// Errors encoded by [`Errors::encode`].
    ///
    /// # Errors
    /// A field missing or one that does not read.
    pub fn decode(line: &str) -> Result<Self, String> {
        let f: Vec<&str> = line.split(FIELD).collect();
        let [lo, hi, points, chips, same, price, covers, scope, dn, dx, caveat, brief] = f[..]
        else {
            return Err(format!("errors: {} fields, not 12", f.len()));
        };
        let num = |x: &str| {
            x.parse::<f64>()
                .map_err(|_| format!("errors: '{x}' is not a number"))
        };
        let count = |x: &str| {
            x.parse::<usize>()
                .map_err(|_| format!("errors: '{x}' is not a count"))
        };
        let covers = [Phase::Whole, Phase::Prefill, Phase::Decode]
            .into_iter()
            .map(Phase::id)
            .find(|id| *id == covers)
            .ok_or_else(|| format!("errors: no phase '{covers}'"))?;
        let scope = Scope::ALL
            .into_iter()
            .find(|s| s.id() == scope)
            .ok_or_else(|| format!("errors: no scope '{scope}'"))?;
        Ok(Errors {
            span: (num(lo)?, num(hi)?),
            evidence: Evidence {
                points: count(points)?,
                chips: chips
                    .split(ITEM)
                    .filter(|c| !c.is_empty())
                    .map(String::from)
                    .collect(),
                same_chip: same == "1",
                includes_price: price == "1",
                covers,
                scope,
                departing: (count(dn)?, num(dx)?),
            },
            caveat: caveat.into(),
            brief: brief.into(),
        })
    }
}

/// A headline figure's low and high values and what they stand on.
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    /// Low value.
    pub low: f64,
    /// High value.
    pub high: f64,
    /// The runs (and price) behind it.
    pub evidence: Evidence,
    /// Beside the figure: how much stands behind the range, in words from its numbers.
    pub caveat: String,
    /// The same in a few words ([`Errors::brief`], and the price's part).
    pub brief: String,
}

/// The price's part in a range: the spread of the rate per chip-hour, when the price is no
/// longer a quote (older than [`rates::STALE_AFTER_MONTHS`] or an assumption).
#[derive(Clone, Debug, PartialEq)]
pub struct PriceSpread {
    /// Lowest and highest rate per chip-hour, after the job's discount.
    pub usd_per_chip_hour: (f64, f64),
    /// Why the price is in the range, and over what, in words.
    pub why: String,
}

/// Every headline figure of a job with its range.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranges {
    /// Training tokens per second over the cluster.
    pub tokens_per_s: Range,
    /// Model FLOPs utilisation.
    pub mfu: Range,
    /// Time to train, s.
    pub time_s: Range,
    /// Cost of the run, $.
    pub cost_usd: Range,
    /// Training $ per million tokens.
    pub train_cost_per_mtok_usd: Range,
    /// Serving $ per million output tokens (when the job serves).
    pub infer_cost_per_mtok_usd: Option<Range>,
    /// Serving tokens per second per chip (when the job serves).
    pub infer_tokens_per_s_per_chip: Option<Range>,
    /// The price's spread, when it is in the ranges.
    pub price: Option<PriceSpread>,
}

/// The chip a point ran on.
fn chip_of(p: &RunPoint) -> Option<Chip> {
    crate::system::find(p.system)
        .ok()
        .and_then(|s| crate::catalog::find(s.chip).ok())
}

/// `1 Trn1 run`, `2 H100 and 1 B200 runs`: how many held-out runs on which chips.
fn runs_on(chips: &[(String, usize)]) -> String {
    let total: usize = chips.iter().map(|c| c.1).sum();
    let parts: Vec<String> = chips.iter().map(|(c, n)| format!("{n} {c}")).collect();
    let list = match parts.len() {
        0 => String::from("0"),
        1 => parts[0].clone(),
        n => format!("{} and {}", parts[..n - 1].join(", "), parts[n - 1]),
    };
    format!("{list} run{}", if total == 1 { "" } else { "s" })
}

/// `−3.5% to +28.1%`.
#[must_use]
pub fn percent_span(lo: f64, hi: f64) -> String {
    let p = |x: f64| {
        let s = format!("{:+.1}%", x * 100.0);
        s.replacen('-', "−", 1)
    };
    if (hi - lo).abs() < 5e-4 {
        p(lo)
    } else {
        format!("{} to {}", p(lo), p(hi))
    }
}

/// The model's errors on the held-out runs of `family` chosen for `chip`: its own if it has
/// any, else its vendor's, else every chip's. Only held-out points count, for the range and
/// for the words beside it alike.
#[must_use]
pub fn errors(points: &[RunPoint], family: Family, chip: &Chip) -> Errors {
    let held: Vec<(&RunPoint, Chip, f64)> = points
        .iter()
        .filter(|p| p.family == family && p.role.is_held_out())
        .filter_map(|p| Some((p, chip_of(p)?, p.speed_error()?)))
        .collect();
    let on_chip: Vec<_> = held.iter().filter(|h| h.1.id == chip.id).collect();
    let of_vendor: Vec<_> = held.iter().filter(|h| h.1.vendor == chip.vendor).collect();
    let (chosen, scope) = if !on_chip.is_empty() {
        (on_chip, Scope::Chip)
    } else if !of_vendor.is_empty() {
        (of_vendor, Scope::Vendor)
    } else if !held.is_empty() {
        (held.iter().collect(), Scope::All)
    } else {
        (Vec::new(), Scope::None)
    };
    let lo = chosen.iter().map(|h| h.2).fold(0.0_f64, f64::min);
    let hi = chosen.iter().map(|h| h.2).fold(0.0_f64, f64::max);
    let mut chips: Vec<(String, usize)> = Vec::new();
    for h in &chosen {
        match chips.iter_mut().find(|c| c.0 == h.1.name) {
            Some(c) => c.1 += 1,
            None => chips.push((h.1.name.clone(), 1)),
        }
    }
    let phases: Vec<Phase> = chosen.iter().map(|h| h.0.phase).collect();
    let covers = if !phases.is_empty() && phases.iter().all(|p| *p == Phase::Decode) {
        Phase::Decode.id()
    } else if !phases.is_empty() && phases.iter().all(|p| *p == Phase::Prefill) {
        Phase::Prefill.id()
    } else {
        Phase::Whole.id()
    };
    let what = match family {
        Family::Serving | Family::ServingLoad => "serving",
        Family::Training => "training",
        Family::Collectives => "collective",
    };
    let n = chosen.len();
    let errs = percent_span(
        chosen.iter().map(|h| h.2).fold(f64::INFINITY, f64::min),
        chosen.iter().map(|h| h.2).fold(f64::NEG_INFINITY, f64::max),
    );
    let mut caveat = match scope {
        Scope::Chip => format!(
            "from {} held out ({errs})",
            runs_on(&chips).replacen(&chip.name, &format!("{} {what}", chip.name), 1)
        ),
        Scope::Vendor | Scope::All => format!(
            "no {} {what} run in the evidence; range from {} held out ({errs})",
            chip.name,
            runs_on(&chips)
        ),
        Scope::None => format!("no held-out {what} run in the evidence: no range"),
    };
    let mut brief = match scope {
        Scope::Chip => format!(
            "{n} held-out {} {what} run{}",
            chip.name,
            if n == 1 { "" } else { "s" }
        ),
        Scope::Vendor | Scope::All => format!(
            "no {} {what} run held out: from {n} on {}",
            chip.name,
            if n == 1 {
                "another chip"
            } else {
                "other chips"
            }
        ),
        Scope::None => format!("no held-out {what} run"),
    };
    if covers != Phase::Whole.id() {
        brief.push_str(&format!("; {covers} only"));
    }
    if covers == Phase::Decode.id() {
        caveat.push_str(
            "; only decode (time per output token) was measured, so the range does not cover prefill",
        );
    } else if covers == Phase::Prefill.id() {
        caveat.push_str("; only prefill (time to first token) was measured");
    }
    // What the range leaves out: the chip's own runs the model departs from, said beside it
    // (chosen by role, like the range).
    let off: Vec<f64> = points
        .iter()
        .filter(|p| p.family == family && p.role == crate::calibration::Role::Departs)
        .filter(|p| chip_of(p).is_some_and(|c| c.id == chip.id))
        .filter_map(RunPoint::speed_error)
        .collect();
    let worst = off
        .iter()
        .copied()
        .fold(0.0_f64, |w, e| if e.abs() > w.abs() { e } else { w });
    if !off.is_empty() {
        let pct = format!("{:+.0}%", worst * 100.0).replacen('-', "−", 1);
        let runs = format!(
            "{} {} run{}",
            off.len(),
            chip.name,
            if off.len() == 1 { "" } else { "s" }
        );
        caveat.push_str(&format!(
            "; the model departs from {runs} of {what} beyond their bound (up to {pct}), which no range includes"
        ));
        let verb = if off.len() == 1 { "departs" } else { "depart" };
        brief.push_str(&format!("; {runs} {verb} (up to {pct})"));
    }
    Errors {
        span: (lo, hi),
        evidence: Evidence {
            points: n,
            chips: chips.into_iter().map(|c| c.0).collect(),
            same_chip: scope == Scope::Chip,
            includes_price: false,
            covers,
            scope,
            departing: (off.len(), worst),
        },
        caveat,
        brief,
    }
}

/// The spread of the price a job rents at, when it belongs in the ranges: the basis is older
/// than [`rates::STALE_AFTER_MONTHS`] on `today` (ISO 8601), or an assumption stands in.
/// Over the chip's published plannable rates (and the one used), after the discount; an
/// assumption with none to spread over is taken ±[`ASSUMED_PRICE_SPREAD`]. `None` when the
/// job owns its chips, gives its own rate, or rents at a fresh published one.
#[must_use]
pub fn price_spread(job: &Job, report: &JobReport, chip: &str, today: &str) -> Option<PriceSpread> {
    if job.owned || job.usd_per_chip_hour.is_some() || report.price.basis.is_none() {
        return None;
    }
    let rate = report.usd_per_chip_hour.value;
    let assumed = report.price.kind == PriceKind::Assumed.id();
    let age = rates::months_between(report.price.as_of, today);
    let stale = age.is_none_or(|m| m > rates::STALE_AFTER_MONTHS);
    if !(assumed || stale) {
        return None;
    }
    let off = 1.0 - job.discount.clamp(0.0, 1.0);
    let published: Vec<f64> = rates::rates_for(chip)
        .iter()
        .filter(|r| r.kind.plannable())
        .map(|r| r.usd_per_chip_hour() * off)
        .collect();
    let why = if assumed {
        String::from("an assumption stands in for the price")
    } else {
        format!(
            "the price is {} months old",
            age.map_or_else(|| String::from("an unknown number of"), |m| format!("{m}"))
        )
    };
    let (lo, hi, over) = if published.is_empty() {
        (
            rate * (1.0 - ASSUMED_PRICE_SPREAD),
            rate * (1.0 + ASSUMED_PRICE_SPREAD),
            format!(
                "taken ±{:.0}% with no published rate to go by",
                ASSUMED_PRICE_SPREAD * 100.0
            ),
        )
    } else {
        let lo = published.iter().copied().fold(rate, f64::min);
        let hi = published.iter().copied().fold(rate, f64::max);
        (
            lo,
            hi,
            format!(
                "over the chip's {} published rate{} (${:.2} to ${:.2} per chip-hour)",
                published.len(),
                if published.len() == 1 { "" } else { "s" },
                lo,
                hi
            ),
        )
    };
    Some(PriceSpread {
        usd_per_chip_hour: (lo, hi),
        why: format!("{why}, so the range takes it {over}"),
    })
}

/// A cost range: `value` over the speed errors, and over the price's spread if it has one.
fn cost_range(value: f64, rate: f64, e: &Errors, price: Option<&PriceSpread>) -> Range {
    let (plo, phi) = price.map_or((rate, rate), |p| p.usd_per_chip_hour);
    let scale = |p: f64| if rate > 0.0 { p / rate } else { 1.0 };
    let mut evidence = e.evidence.clone();
    evidence.includes_price = price.is_some();
    let (caveat, brief) = match price {
        Some(p) => (
            format!("{}; {}", e.caveat, p.why),
            format!("{}; price included", e.brief),
        ),
        None => (e.caveat.clone(), e.brief.clone()),
    };
    Range {
        low: value * (1.0 + e.span.0) * scale(plo),
        high: value * (1.0 + e.span.1) * scale(phi),
        evidence,
        caveat,
        brief,
    }
}

/// A rate's range over the speed errors (a model 10% fast means the real rate is 1/1.1).
fn rate_range(value: f64, e: &Errors) -> Range {
    Range {
        low: value / (1.0 + e.span.1),
        high: value / (1.0 + e.span.0),
        evidence: e.evidence.clone(),
        caveat: e.caveat.clone(),
        brief: e.brief.clone(),
    }
}

/// Every headline figure of `report` (the evaluation of `job`) with its range, from the
/// held-out points of `points` and, where it is no longer a quote on `today` (ISO 8601),
/// the price; `None` when the job's system or chip is unknown.
#[must_use]
pub fn ranges(job: &Job, report: &JobReport, points: &[RunPoint], today: &str) -> Option<Ranges> {
    let chip = crate::system::find(&job.system)
        .ok()
        .and_then(|s| crate::catalog::find(s.chip).ok())?;
    let train = errors(points, Family::Training, &chip);
    let serve = errors(points, Family::Serving, &chip);
    Some(ranges_with(job, report, &chip.id, (&train, &serve), today))
}

/// [`ranges`] from the errors already chosen for the job's chip `chip` (by [`errors`], which
/// depend on the chip alone, so a page keeps them while other inputs change): training's,
/// then serving's.
#[must_use]
pub fn ranges_with(
    job: &Job,
    report: &JobReport,
    chip: &str,
    (train, serve): (&Errors, &Errors),
    today: &str,
) -> Ranges {
    let price = price_spread(job, report, chip, today);
    let rate = report.usd_per_chip_hour.value;
    let time_s = Range {
        low: report.time_s * (1.0 + train.span.0),
        high: report.time_s * (1.0 + train.span.1),
        evidence: train.evidence.clone(),
        caveat: train.caveat.clone(),
        brief: train.brief.clone(),
    };
    Ranges {
        tokens_per_s: rate_range(report.train.tokens_per_s, train),
        mfu: rate_range(report.train.mfu, train),
        time_s,
        cost_usd: cost_range(report.cost_usd, rate, train, price.as_ref()),
        train_cost_per_mtok_usd: cost_range(report.train_usd_per_mtok, rate, train, price.as_ref()),
        infer_cost_per_mtok_usd: report
            .infer_usd_per_mtok
            .map(|c| cost_range(c, rate, serve, price.as_ref())),
        infer_tokens_per_s_per_chip: report
            .infer
            .as_ref()
            .map(|i| rate_range(i.tokens_per_s_per_chip, serve)),
        price,
    }
}

#[cfg(test)]
mod tests {
    /// The errors cross from the worker that evaluates the published runs to the page as text:
    /// every chip's, of both families, read back exactly; a short or garbled line is named.
    #[test]
    fn errors_cross_between_threads_exactly() {
        let points = crate::calibration::calibration();
        let mut seen = 0;
        for chip in crate::presets() {
            for family in [Family::Training, Family::Serving] {
                let e = errors(&points, family, &chip);
                let back = Errors::decode(&e.encode()).expect("reads back");
                assert_eq!(back.encode(), e.encode(), "{} {family:?}", chip.id);
                assert_eq!(back.span.0.to_bits(), e.span.0.to_bits());
                assert_eq!(back.evidence.chips, e.evidence.chips);
                seen += 1;
            }
        }
        assert!(seen >= 20, "{seen}");
        assert!(Errors::decode("1\u{1f}2").is_err());
        let line = errors(&points, Family::Training, &crate::find("trn2").unwrap()).encode();
        for (at, garbled) in [(0, "fast"), (2, "-1"), (6, "most"), (7, "galaxy"), (9, "")] {
            let mut f: Vec<&str> = line.split(FIELD).collect();
            f[at] = garbled;
            let bad = f.join(FIELD);
            let e = Errors::decode(&bad).expect_err(garbled);
            assert!(e.contains(&format!("'{garbled}'")), "{e}");
        }
    }

    use super::*;
    use crate::calibration::{calibration, Metric, Role};
    use crate::job::evaluate;

    /// A held-out point of `family` on `system` whose model is `error` off.
    fn point(family: Family, system: &'static str, phase: Phase, error: f64) -> RunPoint {
        RunPoint {
            family,
            phase,
            system,
            label: "a run",
            source: &crate::tco::AIINFRAMAP,
            measured: Metric::TokensPerS(100.0),
            model: Ok(100.0 * (1.0 + error)),
            setup: String::from("a setup"),
            note: "a note",
            role: Role::HeldOut {
                since: "2026-11-26",
                at_entry: 100.0 * (1.0 + error),
            },
        }
    }

    #[test]
    fn ranges_stand_on_held_out_points_of_the_nearest_chip() {
        let trn2 = crate::catalog::find("trn2").unwrap();
        let mut pts = alloc::vec![
            point(Family::Training, "trn1-16", Phase::Whole, -0.04),
            point(Family::Training, "hgx-h100-8", Phase::Whole, 0.3),
        ];
        // A tuned-against Trn2 run is no evidence: the caveat still says none is on Trn2.
        let mut tuned = point(Family::Training, "trn2-16", Phase::Whole, 0.5);
        tuned.role = Role::TunedAgainst;
        pts.push(tuned);
        let e = errors(&pts, Family::Training, &trn2);
        assert_eq!((e.evidence.points, e.evidence.same_chip), (1, false));
        assert_eq!(e.evidence.chips, ["Trainium (Trn1)"]);
        assert_eq!(e.evidence.scope, Scope::Vendor);
        assert!((e.span.0 + 0.04).abs() < 1e-12 && e.span.1 == 0.0);
        assert_eq!(
            e.caveat,
            "no Trainium2 training run in the evidence; range from 1 Trainium (Trn1) run held out (−4.0%)"
        );
        // A held-out Trn2 run takes its place.
        pts.push(point(Family::Training, "trn2-16", Phase::Whole, 0.1));
        pts.push(point(Family::Training, "trn2-16", Phase::Whole, -0.2));
        let e = errors(&pts, Family::Training, &trn2);
        assert_eq!((e.evidence.points, e.evidence.same_chip), (2, true));
        assert!((e.span.0 + 0.2).abs() < 1e-12 && (e.span.1 - 0.1).abs() < 1e-12);
        assert!(e.caveat.contains("−20.0% to +10.0%"), "{}", e.caveat);
        // A vendor with none borrows every vendor's, and says so.
        let tpu = crate::catalog::find("tpu-v6e").unwrap();
        let e = errors(&pts, Family::Training, &tpu);
        assert_eq!((e.evidence.scope, e.evidence.points), (Scope::All, 4));
        assert!(
            e.caveat.starts_with("no TPU v6e (Trillium) training run"),
            "{}",
            e.caveat
        );
    }

    #[test]
    fn a_serving_range_of_decode_points_says_it_misses_prefill() {
        let trn2 = crate::catalog::find("trn2").unwrap();
        let pts = [
            point(Family::Serving, "trn2-16", Phase::Decode, -0.1),
            point(Family::Serving, "trn2-16", Phase::Decode, 0.2),
        ];
        let e = errors(&pts, Family::Serving, &trn2);
        assert_eq!(e.evidence.covers, "decode");
        assert!(e.caveat.contains("does not cover prefill"), "{}", e.caveat);
        let whole = [point(Family::Serving, "trn2-16", Phase::Whole, 0.0)];
        assert_eq!(
            errors(&whole, Family::Serving, &trn2).evidence.covers,
            "whole"
        );
        // The chip's departing runs are named beside the range, never in it.
        let mut off = point(Family::Serving, "trn2-16", Phase::Whole, 4.5);
        off.role = Role::Departs;
        let with = errors(
            &[pts[0].clone(), pts[1].clone(), off],
            Family::Serving,
            &trn2,
        );
        assert_eq!(with.span, e.span);
        assert_eq!(with.evidence.departing, (1, 4.5));
        assert!(
            with.brief
                .ends_with("1 Trainium2 run departs (up to +450%)"),
            "{}",
            with.brief
        );
    }

    #[test]
    fn the_default_jobs_ranges_hold_its_figures_and_count_their_evidence() {
        let job = Job::default();
        let r = evaluate(&job).unwrap();
        let pts = calibration();
        let g = ranges(&job, &r, &pts, "2026-11-26").unwrap();
        // No Trainium2 training run is held out: its vendor's, or failing those every one.
        let held = |f: Family, vendor: Option<&str>| {
            pts.iter()
                .filter(|p| p.family == f && p.role.is_held_out())
                .filter(|p| chip_of(p).is_some_and(|c| vendor.is_none_or(|v| c.vendor == v)))
                .count()
        };
        let aws = held(Family::Training, Some("AWS"));
        let training = if aws > 0 {
            aws
        } else {
            held(Family::Training, None)
        };
        for (figure, value) in [
            (&g.train_cost_per_mtok_usd, r.train_usd_per_mtok),
            (&g.cost_usd, r.cost_usd),
            (&g.time_s, r.time_s),
            (&g.tokens_per_s, r.train.tokens_per_s),
        ] {
            assert!(figure.low <= value && value <= figure.high, "{figure:?}");
            assert!(figure.low < figure.high);
            assert_eq!(figure.evidence.points, training);
            assert!(!figure.evidence.same_chip);
        }
        // The July 2026 rate is four months old: a quote, so the price is no part of it.
        assert!(g.price.is_none() && !g.cost_usd.evidence.includes_price);
        let s = g.infer_cost_per_mtok_usd.unwrap();
        assert!(s.evidence.same_chip && s.evidence.covers == "decode");
        // Each held-out Trn2 serving run's speed error lies within the range, and its ends
        // are two of them.
        let c = r.infer_usd_per_mtok.unwrap();
        let errs: Vec<f64> = pts
            .iter()
            .filter(|p| p.family == Family::Serving && p.role.is_held_out())
            .filter(|p| p.system.starts_with("trn2"))
            .filter_map(RunPoint::speed_error)
            .collect();
        assert_eq!(s.evidence.points, errs.len());
        let hi = errs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        assert!((s.high / c - 1.0 - hi).abs() < 1e-9, "{s:?}");
    }

    #[test]
    fn an_old_price_or_an_assumption_widens_the_cost_range() {
        let job = Job::default();
        let r = evaluate(&job).unwrap();
        let pts = calibration();
        let now = ranges(&job, &r, &pts, "2026-11-26").unwrap();
        // Read a year later, the same July 2026 rate is 16 months old.
        let later = ranges(&job, &r, &pts, "2027-11-26").unwrap();
        let p = later.price.as_ref().unwrap();
        assert!(p.why.starts_with("the price is 16 months old"), "{}", p.why);
        assert!(later.cost_usd.evidence.includes_price);
        assert!(later.cost_usd.high > now.cost_usd.high);
        // trn2's dearest published plannable rate is the 2025 on-demand one, $5.37.
        assert!((p.usd_per_chip_hour.1 - 85.964 / 16.0).abs() < 1e-9);
        assert_eq!(later.time_s, now.time_s, "time has no price in it");
        // Trn3 has no published price: an assumption stands in, whatever the date.
        let t3 = Job {
            system: "trn3-ultra-144".into(),
            nodes: 2,
            ..Job::default()
        };
        let r3 = evaluate(&t3).unwrap();
        let g = ranges(&t3, &r3, &pts, "2026-11-26").unwrap();
        assert!(g.price.unwrap().why.starts_with("an assumption"));
        // A rate the user gives is theirs: no spread.
        let mine = Job {
            usd_per_chip_hour: Some(2.0),
            ..Job::default()
        };
        let rm = evaluate(&mine).unwrap();
        assert!(ranges(&mine, &rm, &pts, "2030-01-01")
            .unwrap()
            .price
            .is_none());
    }
}
