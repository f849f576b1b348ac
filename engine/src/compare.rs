//! Scenarios side by side: the saved list (as the browser keeps it), the headline figures of
//! each, and a waterfall that explains the difference in cost per million tokens between two.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::job::{evaluate, Job, JobReport};
use crate::scenario::Scenario;

pub use crate::scenario::compared::{Saved, MAX_COMPARED, MAX_NAME, MAX_QUERY};

/// Most scenarios kept.
pub const MAX_SAVED: usize = 50;
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

/// The kept scenarios as a JSON file: `{"format": "accelscope-scenarios", "version": 1,
/// "scenarios": [{"name": …, "link": "v=2&…"}]}`.
#[must_use]
pub fn to_json(saved: &[Saved]) -> String {
    let mut s = String::from(
        "{\n  \"format\": \"accelscope-scenarios\",\n  \"version\": 1,\n  \"scenarios\": [",
    );
    for (i, x) in saved.iter().take(MAX_SAVED).enumerate() {
        let sep = if i == 0 { "" } else { "," };
        s.push_str(&format!(
            "{sep}\n    {{ \"name\": \"{}\", \"link\": \"{}\" }}",
            json_escape(&x.name),
            json_escape(&x.query)
        ));
    }
    s.push_str("\n  ]\n}\n");
    s
}

fn json_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Scenarios read from a file (name and link of each, as the file gave them), checked as the
/// store is: a link may be a whole URL; what cannot be read is named and skipped; at most
/// `room` are taken.
#[must_use]
pub fn import(entries: &[(String, String)], room: usize) -> (Vec<Saved>, Vec<String>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (i, (name, link)) in entries.iter().enumerate() {
        let n = i + 1;
        if out.len() == room {
            problems.push(format!(
                "{} scenarios are kept at most; {} of the file were not added",
                MAX_SAVED,
                entries.len() - i
            ));
            break;
        }
        let query = link
            .split_once('?')
            .map_or(link.as_str(), |(_, q)| q)
            .trim();
        let name: String = name
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_NAME)
            .collect();
        let name = if name.trim().is_empty() {
            format!("imported {n}")
        } else {
            name
        };
        if query.len() > MAX_QUERY {
            problems.push(format!(
                "scenario {n} ('{name}'): its link is too long; skipped"
            ));
            continue;
        }
        let entry = Saved {
            name,
            query: query.into(),
        };
        match scenario_of(&entry) {
            Ok(_) => out.push(entry),
            Err(e) => problems.push(format!(
                "scenario {n} ('{}'): its link cannot be read ({e}); skipped",
                entry.name
            )),
        }
    }
    (out, problems)
}

/// What a headline figure counts, so each reads in its own unit ("$3.46 M", "105.9 days",
/// "62%").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A whole number of things.
    Count,
    /// A rate per second.
    PerSecond,
    /// A fraction of one, read as a percentage.
    Share,
    /// Days.
    Days,
    /// US dollars.
    Usd,
    /// Kilowatts.
    Kw,
    /// Joules.
    Joules,
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
    /// What it counts.
    pub unit: Unit,
}

/// Names of the headline figures that carry a range (one place: [`headline_of`] and
/// [`headline_range`] both read them).
const TOKENS_PER_S: &str = "tokens per second (training)";
const MFU: &str = "MFU";
const TIME_DAYS: &str = "time to train (days)";
const RUN_COST: &str = "cost of the run ($)";
const TRAIN_PER_MTOK: &str = "training $ per million tokens";
const SERVE_PER_MTOK: &str = "serving $ per million tokens";

/// The range of the headline figure named `label` (see [`headline_of`]), in the figure's own
/// unit, with the evidence it stands on; `None` for a figure without one.
#[must_use]
pub fn headline_range<'a>(
    label: &str,
    g: &'a crate::uncertainty::Ranges,
) -> Option<(f64, f64, &'a crate::uncertainty::Range)> {
    let r = match label {
        TOKENS_PER_S => &g.tokens_per_s,
        MFU => &g.mfu,
        TIME_DAYS => {
            return Some((g.time_s.low / 86_400.0, g.time_s.high / 86_400.0, &g.time_s));
        }
        RUN_COST => &g.cost_usd,
        TRAIN_PER_MTOK => &g.train_cost_per_mtok_usd,
        SERVE_PER_MTOK => g.infer_cost_per_mtok_usd.as_ref()?,
        _ => return None,
    };
    Some((r.low, r.high, r))
}

/// The job's headline figures, in a fixed order.
///
/// # Errors
/// The job cannot be evaluated (the message says why).
pub fn headline(job: &Job) -> Result<Vec<Figure>, String> {
    let r = evaluate(job).map_err(|e| format!("{e}"))?;
    Ok(headline_of(&r))
}

/// [`headline`] of a report already evaluated.
#[must_use]
pub fn headline_of(r: &JobReport) -> Vec<Figure> {
    use Unit::{Count, Days, Joules, Kw, PerSecond, Share, Usd};
    let f = |label, value, higher_is_better, unit| Figure {
        label,
        value,
        higher_is_better,
        unit,
    };
    alloc::vec![
        f("chips", f64::from(r.chips), false, Count),
        f(TOKENS_PER_S, r.train.tokens_per_s, true, PerSecond),
        f(MFU, r.train.mfu, true, Share),
        f(TIME_DAYS, r.time_s / 86_400.0, false, Days),
        f("$ per chip-hour", r.usd_per_chip_hour.value, false, Usd),
        f(RUN_COST, r.cost_usd, false, Usd),
        f(TRAIN_PER_MTOK, r.train_usd_per_mtok, false, Usd),
        f(
            SERVE_PER_MTOK,
            r.infer_usd_per_mtok.unwrap_or(f64::NAN),
            false,
            Usd
        ),
        f(
            "$ per achieved PFLOP-hour",
            r.usd_per_pflop_hour_achieved,
            false,
            Usd
        ),
        f("facility power (kW)", r.facility_w / 1e3, false, Kw),
        f("energy per token (J)", r.joules_per_token, false, Joules),
        f("goodput with failures", r.failures.goodput, true, Share),
        f("days to train with failures", r.real_days, false, Days),
        f(
            "spare chips held for repairs",
            r.failures.spare_chips,
            false,
            Count
        ),
    ]
}

/// What a scenario is, in words, for the rows above its figures: its platform, model,
/// format and the price basis with the date its rate held.
#[must_use]
pub fn setting_rows(job: &Job, r: &JobReport) -> Vec<(&'static str, String)> {
    let system = crate::system::find(&job.system).map_or(job.system.clone(), |s| s.name.into());
    let model = crate::workload::find_model(&job.model).map_or(job.model.clone(), |m| m.name);
    let p = &r.price;
    // The basis asked for ("on-demand prices as of 2026-07"), and the rate's own when it
    // stands on another.
    let basis = match p.basis {
        Some(b) if p.fell_back => {
            format!("{b}; this platform's rate: {}, as of {}", p.kind, p.as_of)
        }
        Some(b) => format!("{b}"),
        None => p.kind.into(),
    };
    alloc::vec![
        ("platform", format!("{} × {system}", job.nodes)),
        ("model", model),
        ("format", job.dtype.label().into()),
        ("price basis", basis),
    ]
}

/// One step of a waterfall: the factor it moved from A's value to B's and the cost after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The factor.
    pub label: &'static str,
    /// Its unit as shown.
    pub unit: &'static str,
    /// A's value.
    pub a: f64,
    /// B's value.
    pub b: f64,
    /// $ per million tokens once this factor (and those before it) has B's value.
    pub usd_per_mtok: f64,
}

/// A cost per million tokens taken apart into factors, and moved from A to B one at a time.
#[derive(Clone, Debug, PartialEq)]
pub struct Waterfall {
    /// What cost it explains.
    pub what: &'static str,
    /// The cost formula the factors make, as the page states it.
    pub formula: &'static str,
    /// A's cost.
    pub start: f64,
    /// The steps in order; the last is B's cost.
    pub steps: Vec<Step>,
}

/// The training waterfall's factors, in the order they move.
pub const TRAIN_ORDER: [(&str, &str); 8] = [
    ("model FLOPs per token", "FLOP"),
    (
        "price per chip-hour (hardware: rent, or capital and maintenance)",
        "$/h",
    ),
    ("peak FLOP/s in the format", "FLOP/s"),
    ("achieved GEMM efficiency", "of peak"),
    (
        "memory and the layout it forces (recomputation, non-GEMM work, splitting)",
        "×",
    ),
    (
        "collectives and overlap (exposed communication)",
        "chip·s/token",
    ),
    ("pipeline bubble", "chip·s/token"),
    ("power and facility", "$/h"),
];

/// The serving waterfall's factors, in the order they move.
pub const SERVE_ORDER: [(&str, &str); 8] = [
    (
        "price per chip-hour (hardware: rent, or capital and maintenance)",
        "$/h",
    ),
    ("prefill of the prompts (compute)", "chip·s/token"),
    (
        "weight GEMMs of a decode step (streaming or compute)",
        "chip·s/token",
    ),
    ("attention over the KV cache (memory)", "chip·s/token"),
    ("kernel launches", "chip·s/token"),
    ("tensor-parallel all-reduces (collectives)", "chip·s/token"),
    ("drafting (speculative decoding)", "chip·s/token"),
    ("power and facility", "$/h"),
];

const TRAIN_FORMULA: &str = "$/Mtok = (hardware + power and facility $/chip-hour) × chip-seconds per token ÷ 3600 × 10⁶; chip-seconds per token = FLOPs per token × layout factor ÷ (peak × efficiency) + exposed communication + bubble";
const SERVE_FORMULA: &str = "$/Mtok = (hardware + power and facility $/chip-hour) × chip-seconds per output token ÷ 3600 × 10⁶; chip-seconds per output token = chips per replica × (prefill ÷ output + decode step) ÷ batch, the decode step being weight GEMMs + launches + attention + all-reduces + drafting, per output token";

fn train_factors(r: &crate::job::JobReport) -> [f64; 8] {
    let t = &r.train;
    let chips = f64::from(r.chips);
    // Chip-seconds per token of each part of the step.
    let per_token = chips / t.tokens_per_s / t.step.get();
    let p = &t.parts;
    let compute = t.compute.get() * per_token;
    let layout = compute * p.gemm_peak * p.gemm_efficiency / p.model_flops_per_token;
    let comm =
        (t.tp_comm.get() + t.ep_comm.get() + t.dp_comm.get() + t.cp_comm.get() + t.pp_comm.get())
            * per_token;
    [
        p.model_flops_per_token,
        r.price_split.0,
        p.gemm_peak,
        p.gemm_efficiency,
        layout,
        comm,
        t.bubble.get() * per_token,
        r.price_split.1,
    ]
}

fn train_cost(x: &[f64]) -> f64 {
    let s = x[0] * x[4] / (x[2] * x[3]) + x[5] + x[6];
    (x[1] + x[7]) * s / 3600.0 * 1e6
}

fn serve_factors(r: &crate::job::JobReport, out_tokens: f64) -> Option<[f64; 8]> {
    let i = r.infer.as_ref()?;
    // Chip-seconds per output token: a replica of t chips makes batch × output tokens in
    // prefill + output × decode.
    // prefill + output × decode, so each second of that per output token costs chips ÷ batch.
    let rate =
        i.tokens_per_s_per_chip.recip() / (i.prefill.get() / out_tokens + i.decode_step.get());
    let d = &i.decode_parts;
    Some([
        r.price_split.0,
        i.prefill.get() / out_tokens * rate,
        d.weights.get() * rate,
        d.attention.get() * rate,
        d.launches.get() * rate,
        d.tp_comm.get() * rate,
        d.draft.get() * rate,
        r.price_split.1,
    ])
}

fn serve_cost(x: &[f64]) -> f64 {
    (x[0] + x[7]) * (x[1] + x[2] + x[3] + x[4] + x[5] + x[6]) / 3600.0 * 1e6
}

fn walk(
    what: &'static str,
    formula: &'static str,
    order: &[(&'static str, &'static str)],
    a: &[f64],
    b: &[f64],
    cost: fn(&[f64]) -> f64,
) -> Waterfall {
    let mut x = a.to_vec();
    let steps = order
        .iter()
        .enumerate()
        .map(|(i, (label, unit))| {
            x[i] = b[i];
            Step {
                label,
                unit,
                a: a[i],
                b: b[i],
                usd_per_mtok: cost(&x),
            }
        })
        .collect();
    Waterfall {
        what,
        formula,
        start: cost(a),
        steps,
    }
}

/// Why B costs what it does against A, for training and (where both can serve their model)
/// serving: each cost is taken apart into factors that multiply and add up to it, and the
/// factors move from A's value to B's one at a time in a fixed order ([`TRAIN_ORDER`],
/// [`SERVE_ORDER`]). The cost after each step minus the cost before it is that factor's part
/// of the difference, so the parts add up to B − A exactly.
///
/// # Errors
/// Either job cannot be evaluated (the message names which and why).
pub fn waterfall(a: &Job, b: &Job) -> Result<Vec<Waterfall>, String> {
    let ra = evaluate(a).map_err(|e| format!("the first scenario cannot run: {e}"))?;
    let rb = evaluate(b).map_err(|e| format!("the second scenario cannot run: {e}"))?;
    Ok(waterfall_of((a, &ra), (b, &rb)))
}

/// [`waterfall`] of two jobs already evaluated.
#[must_use]
pub fn waterfall_of(a: (&Job, &JobReport), b: (&Job, &JobReport)) -> Vec<Waterfall> {
    let ((a, ra), (b, rb)) = (a, b);
    let mut out = alloc::vec![walk(
        "training $ per million tokens",
        TRAIN_FORMULA,
        &TRAIN_ORDER,
        &train_factors(ra),
        &train_factors(rb),
        train_cost,
    )];
    let out_a = f64::from(a.output.max(1));
    let out_b = f64::from(b.output.max(1));
    if let (Some(fa), Some(fb)) = (serve_factors(ra, out_a), serve_factors(rb, out_b)) {
        out.push(walk(
            "serving $ per million output tokens",
            SERVE_FORMULA,
            &SERVE_ORDER,
            &fa,
            &fb,
            serve_cost,
        ));
    }
    out
}

/// A figure a comparison rests on, with where it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyFigure {
    /// What it is.
    pub label: &'static str,
    /// Its value in `unit`.
    pub value: f64,
    /// The unit shown.
    pub unit: &'static str,
    /// Its source.
    pub source: crate::source::Source,
    /// Whether it is an estimate rather than a published figure.
    pub estimate: bool,
}

/// The sourced inputs behind a job's costs: the chip's peak in the job's format and its
/// memory, the rate per chip-hour, the matmul efficiency and the communication overlap.
///
/// # Errors
/// The job cannot be evaluated (the message says why).
pub fn key_figures(job: &Job) -> Result<Vec<KeyFigure>, String> {
    let r = evaluate(job).map_err(|e| format!("{e}"))?;
    key_figures_of(job, &r)
}

/// [`key_figures`] of a job already evaluated.
///
/// # Errors
/// The job's system or chip is unknown.
pub fn key_figures_of(job: &Job, r: &JobReport) -> Result<Vec<KeyFigure>, String> {
    let sys = crate::job::system_of(job, &job.system).map_err(|e| format!("{e}"))?;
    let chip = crate::catalog::find(sys.chip).map_err(|e| format!("{e}"))?;
    let fig = |label, value, unit, s: crate::source::Source, estimate| KeyFigure {
        label,
        value,
        unit,
        source: s,
        estimate,
    };
    let mut out = Vec::new();
    if let Some(p) = chip.peak(job.dtype).dense {
        out.push(fig(
            "dense peak per chip in the format",
            p.value.get() / 1e12,
            "TFLOP/s",
            p.source,
            p.estimate,
        ));
    }
    let (cap, bw) = (&chip.hbm_capacity, &chip.hbm_bandwidth);
    out.push(fig(
        "HBM per chip",
        cap.value.get() / 1e9,
        "GB",
        cap.source,
        cap.estimate,
    ));
    out.push(fig(
        "HBM bandwidth per chip",
        bw.value.get() / 1e12,
        "TB/s",
        bw.source,
        bw.estimate,
    ));
    let rate = &r.usd_per_chip_hour;
    out.push(fig(
        "$ per chip-hour",
        rate.value,
        "$",
        rate.source,
        rate.estimate,
    ));
    let e = crate::job::efficiency(job, &chip);
    out.push(fig(
        "BF16 matmul efficiency",
        e.value,
        "of peak",
        e.source,
        e.estimate,
    ));
    let o = &r.overlap;
    out.push(fig(
        "communication overlap",
        o.value,
        "hidden",
        o.source,
        o.estimate,
    ));
    Ok(out)
}

/// The name a scenario is kept under when its user gives none: the nodes, its platform by
/// name, and the model by name.
#[must_use]
pub fn default_name(s: &Scenario) -> String {
    let job = &s.job;
    // The platform's name without its parenthesis (the instance, the chips a node): the
    // heading stays short, and the memo's rows say the rest.
    let system = crate::system::find(&job.system).map_or(job.system.clone(), |x| {
        x.name.split(" (").next().unwrap_or(x.name).into()
    });
    let model = crate::workload::find_model(&job.model).map_or(job.model.clone(), |m| m.name);
    crate::scenario::compared::clean_name(&format!("{} × {system} · {model}", job.nodes))
}

/// A Compare page link carrying `scenarios` (their Workload jobs, at most
/// [`MAX_COMPARED`]), named by [`default_name`]: the query, without the leading `?`.
#[must_use]
pub fn compare_link(scenarios: &[Scenario]) -> String {
    let mut s = Scenario {
        page: crate::scenario::Page::Compare,
        ..Scenario::default()
    };
    s.compared = scenarios
        .iter()
        .take(MAX_COMPARED)
        .map(|x| Saved {
            name: default_name(x),
            query: Scenario {
                page: crate::scenario::Page::Workload,
                compared: Vec::new(),
                ..x.clone()
            }
            .to_query(),
        })
        .collect();
    s.to_query()
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

    /// A memo's rows say what each scenario is, in names, with its price basis dated; a
    /// Compare link names each scenario by its platform and model.
    /// The memo carries the Workload page's ranges: each figure that has one finds it, in the
    /// figure's unit, around the figure.
    #[test]
    fn headline_figures_find_their_ranges() {
        let s = Scenario::default();
        let r = evaluate(&s.job).unwrap();
        let points = crate::calibration::calibration();
        let g = crate::uncertainty::ranges(&s.job, &r, &points, "2026-11-27").unwrap();
        let ranged: Vec<(&str, f64, f64, f64)> = headline_of(&r)
            .iter()
            .filter_map(|f| {
                headline_range(f.label, &g).map(|(lo, hi, _)| (f.label, f.value, lo, hi))
            })
            .collect();
        assert_eq!(ranged.len(), 6, "{ranged:?}");
        for (label, v, lo, hi) in ranged {
            assert!(
                lo <= v * (1.0 + 1e-9) && v <= hi * (1.0 + 1e-9),
                "{label}: {v} outside {lo}–{hi}"
            );
        }
        assert_eq!(headline_range("chips", &g).map(|x| x.0), None);
    }

    #[test]
    fn a_scenario_reads_in_names_and_dated_prices() {
        let s = Scenario::default();
        let r = evaluate(&s.job).unwrap();
        let rows = setting_rows(&s.job, &r);
        let get = |k: &str| rows.iter().find(|(l, _)| *l == k).unwrap().1.clone();
        assert_eq!(get("platform"), "4 × Trn2 UltraServer (64 chips)");
        assert_eq!(get("model"), "Llama 3 70B");
        assert_eq!(get("format"), "BF16");
        let basis = get("price basis");
        assert!(basis.contains(" as of 20"), "{basis}");
        assert_eq!(default_name(&s), "4 × Trn2 UltraServer · Llama 3 70B");
        let units: Vec<Unit> = headline_of(&r).iter().map(|f| f.unit).collect();
        assert_eq!(units[2], Unit::Share, "MFU");
        assert_eq!(units[5], Unit::Usd, "cost of the run");
        let link = compare_link(&[s.clone(), s]);
        let (back, notes) = Scenario::from_query(&link);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(back.compared.len(), 2);
        assert_eq!(back.page, crate::scenario::Page::Compare);
    }

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

    fn ends_of(w: &Waterfall) -> (f64, f64) {
        (w.start, w.steps.last().unwrap().usd_per_mtok)
    }

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() <= 1e-9 * y.abs()
    }

    #[test]
    fn the_waterfalls_start_and_end_at_the_evaluated_costs() {
        let a = Job::default();
        let owned = Job {
            system: "gb300-nvl72".into(),
            dtype: crate::dtype::Dtype::Fp8,
            owned: true,
            pue: 1.4,
            nodes: 2,
            ..Job::default()
        };
        let moe = Job {
            system: "hgx-h100-8".into(),
            nodes: 64,
            model: "deepseek-v3".into(),
            usd_per_chip_hour: Some(3.0),
            ..Job::default()
        };
        for (x, y) in [(&a, &owned), (&owned, &moe), (&moe, &a)] {
            let w = waterfall(x, y).unwrap();
            let (rx, ry) = (evaluate(x).unwrap(), evaluate(y).unwrap());
            let (s, e) = ends_of(&w[0]);
            assert!(
                close(s, rx.train_usd_per_mtok),
                "{s} vs {}",
                rx.train_usd_per_mtok
            );
            assert!(
                close(e, ry.train_usd_per_mtok),
                "{e} vs {}",
                ry.train_usd_per_mtok
            );
            assert_eq!(w[0].steps.len(), TRAIN_ORDER.len());
            if let (Some(ix), Some(iy)) = (rx.infer_usd_per_mtok, ry.infer_usd_per_mtok) {
                let (s, e) = ends_of(&w[1]);
                assert!(close(s, ix) && close(e, iy), "{s} {ix} {e} {iy}");
            }
        }
    }

    #[test]
    fn each_step_moves_only_its_own_factor() {
        // Same system, FP8 instead of BF16: the model's FLOPs and the price stay, the peak
        // doubles; renting means no power step.
        let a = Job::default();
        let b = Job {
            dtype: crate::dtype::Dtype::Fp8,
            ..Job::default()
        };
        let w = waterfall(&a, &b).unwrap();
        let t = &w[0].steps;
        assert_eq!(t[0].usd_per_mtok, w[0].start, "same model");
        assert_eq!(t[1].usd_per_mtok, t[0].usd_per_mtok, "same price");
        assert!(
            t[2].b > t[2].a * 1.5 && t[2].usd_per_mtok < t[1].usd_per_mtok,
            "FP8 peak"
        );
        assert_eq!(
            t[7].usd_per_mtok, t[6].usd_per_mtok,
            "rented: no power step"
        );
        // A dearer rate alone is all price.
        let c = Job {
            usd_per_chip_hour: Some(10.0),
            ..Job::default()
        };
        let w = waterfall(&a, &c).unwrap();
        let moved: Vec<_> = w[0]
            .steps
            .windows(2)
            .map(|p| p[1].usd_per_mtok - p[0].usd_per_mtok)
            .collect();
        assert!(w[0].steps[0].usd_per_mtok - w[0].start == 0.0);
        assert!(moved.iter().skip(1).all(|d| *d == 0.0), "{moved:?}");
    }

    #[test]
    fn a_job_that_cannot_run_is_named() {
        let bad = Job {
            model: "nope".into(),
            ..Job::default()
        };
        assert!(waterfall(&Job::default(), &bad)
            .unwrap_err()
            .starts_with("the second"));
    }

    #[test]
    fn key_figures_carry_their_sources() {
        let k = key_figures(&Job::default()).unwrap();
        assert_eq!(k.len(), 6);
        let r = evaluate(&Job::default()).unwrap();
        assert_eq!(k[3].value, r.usd_per_chip_hour.value);
        assert!(k.iter().all(|f| f.value.is_finite() && f.value > 0.0));
    }

    #[test]
    fn scenario_files_round_trip_and_bad_entries_are_named() {
        let saved = alloc::vec![
            Saved {
                name: "Trn2 \"base\" \\ 1".into(),
                query: "v=2&wnodes=8".into()
            },
            Saved {
                name: "GB300".into(),
                query: "v=2&wsys=gb300-nvl72".into()
            },
        ];
        let text = to_json(&saved);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["format"], "accelscope-scenarios");
        let entries: Vec<(String, String)> = v["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["name"].as_str().unwrap().into(),
                    e["link"].as_str().unwrap().into(),
                )
            })
            .collect();
        let (back, problems) = import(&entries, MAX_SAVED);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(back, saved);
        let bad = alloc::vec![
            ("a".into(), "https://x.example/?v=2&wsys=nope".into()),
            ("".into(), "https://x.example/?v=2&wnodes=2".into()),
            ("c".into(), "v=2&".to_string() + &"x".repeat(MAX_QUERY)),
        ];
        let (ok, problems) = import(&bad, 1);
        assert_eq!(ok.len(), 1);
        assert_eq!(ok[0].name, "imported 2");
        assert_eq!(ok[0].query, "v=2&wnodes=2");
        assert!(
            problems[0].contains("'a'") && problems[0].contains("nope"),
            "{problems:?}"
        );
        assert!(problems[1].contains("at most"), "{problems:?}");
    }

    #[test]
    fn headline_figures_come_from_the_job() {
        let f = headline(&Job::default()).unwrap();
        let r = evaluate(&Job::default()).unwrap();
        assert_eq!(f[6].value, r.train_usd_per_mtok);
        assert_eq!(f[0].value, f64::from(r.chips));
    }
}
