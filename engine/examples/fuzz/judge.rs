//! The verdict on a job: whether it evaluates, and whether its figures are finite; and how
//! two scenarios differ.

use engine::compare::headline;
use engine::job::{evaluate, Job};
use engine::scenario::Scenario;
use serde_json::Value;

use crate::words::clip;

/// The parts of two scenarios that differ: their names, and each part as it was and became.
pub fn differing(a: &Scenario, b: &Scenario) -> (String, String) {
    let parts = |s: &Scenario| {
        [
            ("page", format!("{:?}", s.page)),
            ("chips", format!("{:?}", s.chips)),
            ("format", format!("{:?}", s.format)),
            ("roofline_formats", format!("{:?}", s.roofline_formats)),
            ("ops", format!("{:?}", s.ops)),
            ("custom", format!("{:?}", s.custom)),
            ("topology", format!("{:?}", s.topology)),
            ("collectives", format!("{:?}", s.collectives)),
            ("job", format!("{:?}", s.job)),
            ("kernel", format!("{:?}", s.kernel)),
            ("device", format!("{:?}", s.device)),
        ]
    };
    let diff: Vec<_> = parts(a)
        .into_iter()
        .zip(parts(b))
        .filter(|(x, y)| x.1 != y.1)
        .collect();
    let names: Vec<&str> = diff.iter().map(|((k, _), _)| *k).collect();
    let said: Vec<String> = diff
        .iter()
        .map(|((k, x), (_, y))| format!("{k}: {} became {}", clip(x, 100), clip(y, 100)))
        .collect();
    (names.join(", "), said.join("; "))
}

/// A job as the smallest JSON that reproduces it: only what differs from the default.
pub fn job_diff(job: &Job) -> String {
    let (Ok(Value::Object(j)), Ok(Value::Object(d))) = (
        serde_json::to_value(job),
        serde_json::to_value(Job::default()),
    ) else {
        return format!("{job:?}");
    };
    let m: serde_json::Map<String, Value> = j
        .into_iter()
        .filter(|(k, v)| d.get(k) != Some(v))
        .map(|(k, v)| match v {
            Value::String(s) => (k, Value::String(clip(&s, 60))),
            v => (k, v),
        })
        .collect();
    Value::Object(m).to_string()
}

/// What evaluating one job showed: what breaks the properties, and which fields (to tell
/// kinds of failure apart).
#[derive(Clone)]
pub struct Verdict {
    pub problems: Vec<String>,
    pub sign: String,
}

/// Evaluate a job and its headline and list what breaks the properties.
pub fn judge(job: &Job) -> (bool, Verdict) {
    let mut problems = Vec::new();
    let mut names = Vec::new();
    let report = evaluate(job);
    let head = headline(job);
    match (&report, &head) {
        (Ok(r), Ok(h)) => {
            let mut finite = |name: &'static str, x: f64| {
                if !x.is_finite() {
                    problems.push(format!("{name} = {x}"));
                    names.push(name);
                }
            };
            finite("train.tokens_per_s", r.train.tokens_per_s);
            finite("train.mfu", r.train.mfu);
            finite("time_s", r.time_s);
            finite("chip_hours", r.chip_hours);
            finite("cost_usd", r.cost_usd);
            finite("usd_per_chip_hour", r.usd_per_chip_hour.value);
            finite("train_usd_per_mtok", r.train_usd_per_mtok);
            finite("usd_per_pflop_hour_marketed", r.usd_per_pflop_hour_marketed);
            finite("usd_per_pflop_hour_achieved", r.usd_per_pflop_hour_achieved);
            finite("facility_w", r.facility_w);
            finite("joules_per_token", r.joules_per_token);
            finite("rack_w", r.rack_w);
            if let Some(x) = r.infer_usd_per_mtok {
                finite("infer_usd_per_mtok", x);
            }
            if let Some(i) = &r.infer {
                finite("infer.tokens_per_s", i.tokens_per_s);
            }
            if let Some((a, b, c)) = r.owned_breakdown {
                finite("owned_breakdown.capital", a);
                finite("owned_breakdown.power", b);
                finite("owned_breakdown.overhead", c);
            }
            for f in h {
                // Documented: NaN where it does not apply (serving a model that does not fit).
                let absent = f.label.starts_with("serving") && r.infer_usd_per_mtok.is_none();
                if !(f.value.is_finite() || absent && f.value.is_nan()) {
                    problems.push(format!("headline '{}' = {}", f.label, f.value));
                }
            }
            if let Ok(sys) = engine::system::find(&job.system) {
                let want = u64::from(sys.chips()) * u64::from(job.nodes.max(1));
                if u64::from(r.chips) != want {
                    problems.push(format!(
                        "chips = {}, but {} nodes of {} chips are {want}",
                        r.chips,
                        job.nodes,
                        sys.chips()
                    ));
                    names.push("chips");
                }
            }
        }
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => {
            problems.push(format!("evaluate is Ok but headline fails: {e}"));
            names.push("headline");
        }
        (Err(e), Ok(_)) => {
            problems.push(format!("headline is Ok but evaluate fails: {e}"));
            names.push("evaluate");
        }
    }
    let sign = names.first().copied().unwrap_or("headline").to_string();
    (report.is_ok(), Verdict { problems, sign })
}
