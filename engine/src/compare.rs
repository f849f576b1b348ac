//! Scenarios side by side: the saved list (as the browser keeps it), the headline figures of
//! each, and a waterfall that explains the difference in cost per million tokens between two.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::job::{evaluate, Job};
use crate::scenario::Scenario;

/// A scenario the user saved under a name.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    /// The user's name for it.
    pub name: String,
    /// Its link query (`v=2&…`).
    pub query: String,
}

/// Most scenarios kept.
pub const MAX_SAVED: usize = 50;
/// Longest name kept, in characters.
pub const MAX_NAME: usize = 80;
/// Longest link kept, in bytes.
pub const MAX_QUERY: usize = 4096;
/// Largest store read, in bytes.
pub const MAX_STORE: usize = 256 * 1024;

/// The store's text: a header line, then one `name<TAB>query` line per scenario.
#[must_use]
pub fn store_text(saved: &[Saved]) -> String {
    let mut s = String::from("accelscope-scenarios 1\n");
    for x in saved.iter().take(MAX_SAVED) {
        let name: String = x
            .name
            .chars()
            .filter(|c| *c != '\t' && *c != '\n')
            .take(MAX_NAME)
            .collect();
        s.push_str(&format!("{name}\t{}\n", x.query));
    }
    s
}

/// Reads a store; what cannot be used is named and skipped, never fatal.
#[must_use]
pub fn parse_store(text: &str) -> (Vec<Saved>, Vec<String>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    if text.len() > MAX_STORE {
        problems.push(format!(
            "the saved scenarios take {} bytes, more than the {MAX_STORE} read; none were loaded",
            text.len()
        ));
        return (out, problems);
    }
    let mut lines = text.lines();
    match lines.next() {
        None => return (out, problems),
        Some("accelscope-scenarios 1") => {}
        Some(other) => {
            let head: String = other.chars().take(40).collect();
            problems.push(format!(
                "the saved scenarios are in a format this version does not know ('{head}'); none were loaded"
            ));
            return (out, problems);
        }
    }
    for (i, line) in lines.enumerate().filter(|(_, l)| !l.is_empty()) {
        let Some((name, query)) = line.split_once('\t') else {
            problems.push(format!(
                "saved entry {} is not a name and a link; skipped",
                i + 1
            ));
            continue;
        };
        if out.len() == MAX_SAVED {
            problems.push(format!(
                "more than {MAX_SAVED} saved scenarios; the rest are skipped"
            ));
            break;
        }
        if query.len() > MAX_QUERY || name.chars().count() > MAX_NAME {
            problems.push(format!("saved entry {} is too long; skipped", i + 1));
            continue;
        }
        out.push(Saved {
            name: name.into(),
            query: query.into(),
        });
    }
    (out, problems)
}

/// One headline figure of a scenario, lower is better unless `higher_is_better`.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// What it is, with its unit.
    pub label: &'static str,
    /// The value (NaN where it does not apply, e.g. serving a model that does not fit).
    pub value: f64,
    /// Whether more is better.
    pub higher_is_better: bool,
}

/// The job's headline figures, in a fixed order.
///
/// # Errors
/// The job cannot be evaluated (the message says why).
pub fn headline(job: &Job) -> Result<Vec<Figure>, String> {
    let r = evaluate(job).map_err(|e| format!("{e}"))?;
    let f = |label, value, higher_is_better| Figure {
        label,
        value,
        higher_is_better,
    };
    Ok(alloc::vec![
        f("chips", f64::from(r.chips), false),
        f("tokens per second (training)", r.train.tokens_per_s, true),
        f("MFU", r.train.mfu, true),
        f("time to train (days)", r.time_s / 86_400.0, false),
        f("$ per chip-hour", r.usd_per_chip_hour.value, false),
        f("cost of the run ($)", r.cost_usd, false),
        f("training $ per million tokens", r.train_usd_per_mtok, false),
        f(
            "serving $ per million tokens",
            r.infer_usd_per_mtok.unwrap_or(f64::NAN),
            false
        ),
        f(
            "$ per achieved PFLOP-hour",
            r.usd_per_pflop_hour_achieved,
            false
        ),
        f("facility power (kW)", r.facility_w / 1e3, false),
        f("energy per token (J)", r.joules_per_token, false),
    ])
}

/// One step of a waterfall: the inputs it moved and the cost after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Which inputs moved from A's values to B's.
    pub label: &'static str,
    /// Training $ per million tokens after this step (NaN where the job cannot run).
    pub usd_per_mtok: f64,
}

/// The order in which inputs move from A to B, stated on the page: the workload first, then
/// the hardware, then how well it is used, then what an hour of it costs.
pub const WATERFALL_ORDER: [&str; 7] = [
    "model, tokens and batch",
    "number format",
    "system (chip peak, memory, fabric, its price and power)",
    "cluster size (nodes)",
    "achieved efficiency and overlap",
    "price per chip-hour (rate, discount, or ownership terms)",
    "power and facility (PUE, $/kWh, facility, load)",
];

fn apply(step: usize, to: &mut Job, from: &Job) {
    match step {
        0 => {
            to.model.clone_from(&from.model);
            to.tokens = from.tokens;
            to.global_batch = from.global_batch;
        }
        1 => to.dtype = from.dtype,
        2 => to.system.clone_from(&from.system),
        3 => to.nodes = from.nodes,
        4 => {
            to.efficiency = from.efficiency;
            to.overlap = from.overlap;
        }
        5 => {
            to.owned = from.owned;
            to.usd_per_chip_hour = from.usd_per_chip_hour;
            to.discount = from.discount;
            to.rental_option = from.rental_option;
            to.years = from.years;
            to.chip_usd = from.chip_usd;
            to.cost_of_capital = from.cost_of_capital;
            to.maintenance = from.maintenance;
            to.network_usd = from.network_usd;
        }
        _ => {
            to.pue = from.pue;
            to.usd_per_kwh = from.usd_per_kwh;
            to.facility_usd_per_kw_month = from.facility_usd_per_kw_month;
            to.load = from.load;
        }
    }
}

/// Moves A's inputs to B's one group at a time ([`WATERFALL_ORDER`]); the cost after each step
/// minus the cost before it is that group's part of the difference, so the parts add up to
/// B − A exactly. Returns A's cost and the steps (B's cost is the last).
#[must_use]
pub fn waterfall(a: &Job, b: &Job) -> (f64, Vec<Step>) {
    let cost = |j: &Job| evaluate(j).map_or(f64::NAN, |r| r.train_usd_per_mtok);
    let mut j = a.clone();
    let start = cost(&j);
    let steps = WATERFALL_ORDER
        .iter()
        .enumerate()
        .map(|(i, label)| {
            apply(i, &mut j, b);
            Step {
                label,
                usd_per_mtok: cost(&j),
            }
        })
        .collect();
    (start, steps)
}

/// A saved scenario's job, or why it cannot be read.
///
/// # Errors
/// The link has parts that cannot be read.
pub fn scenario_of(saved: &Saved) -> Result<Scenario, String> {
    let (sc, notes) = Scenario::from_query(&saved.query);
    match notes.first() {
        None => Ok(sc),
        Some(n) => Err(format!("{}: {}", n.key, n.message)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_survives_corruption_and_size() {
        let saved = alloc::vec![
            Saved {
                name: "Trn2 \tbase".into(),
                query: "v=2&wnodes=8".into()
            },
            Saved {
                name: "GB300".into(),
                query: "v=2&wsys=gb300-nvl72".into()
            },
        ];
        let (back, problems) = parse_store(&store_text(&saved));
        assert!(problems.is_empty());
        assert_eq!(back[0].name, "Trn2 base", "tabs cannot break the format");
        assert_eq!(back[1], saved[1]);
        let (none, p) = parse_store("garbage\u{0}\u{1}");
        assert!(none.is_empty() && p[0].contains("format"));
        let (some, p) = parse_store("accelscope-scenarios 1\nno tab here\nok\tv=2\n");
        assert_eq!(some.len(), 1);
        assert_eq!(p.len(), 1);
        let huge = "accelscope-scenarios 1\n".to_string() + &"a\tv=2\n".repeat(60_000);
        let (none, p) = parse_store(&huge);
        assert!(none.is_empty() && p[0].contains("bytes"));
        let many = "accelscope-scenarios 1\n".to_string() + &"a\tv=2\n".repeat(80);
        let (fifty, p) = parse_store(&many);
        assert_eq!(fifty.len(), MAX_SAVED);
        assert_eq!(p.len(), 1);
    }

    #[test]
    fn the_waterfall_adds_up_to_the_difference() {
        let a = Job::default();
        let b = Job {
            system: "gb300-nvl72".into(),
            dtype: crate::Dtype::Fp8,
            usd_per_chip_hour: Some(6.0),
            pue: 1.4,
            ..Job::default()
        };
        let (start, steps) = waterfall(&a, &b);
        let end = evaluate(&b).unwrap().train_usd_per_mtok;
        assert_eq!(start, evaluate(&a).unwrap().train_usd_per_mtok);
        assert_eq!(steps.len(), WATERFALL_ORDER.len());
        assert!((steps.last().unwrap().usd_per_mtok - end).abs() < 1e-9 * end);
        // Unchanged groups move nothing.
        assert_eq!(steps[0].usd_per_mtok, start, "same model");
        assert!(steps[1].usd_per_mtok != start, "FP8 changes the cost");
    }

    #[test]
    fn headline_figures_come_from_the_job() {
        let f = headline(&Job::default()).unwrap();
        let r = evaluate(&Job::default()).unwrap();
        assert_eq!(f[6].value, r.train_usd_per_mtok);
        assert_eq!(f[0].value, f64::from(r.chips));
    }
}
