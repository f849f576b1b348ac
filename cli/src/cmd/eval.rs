//! `accelscope eval`: the report of a scenario, as one flat JSON object or CSV row.

use engine::job::{self, JobReport};
use engine::Scenario;
use serde_json::{json, Value};

use super::Run;
use crate::error::Error;
use crate::load;
use crate::report::{to_csv, Format, Report};

/// The report of a scenario, as JSON or CSV
///
/// The report of a scenario: the app's state as JSON (a file, or - for standard input), or a
/// link the app wrote. One flat JSON object, or a CSV header and row.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("scenario").required(true).args(["file", "link"])))]
pub struct Args {
    /// The scenario: a JSON file as `accelscope scenario` prints it, or - for standard input
    #[arg(value_name = "SCENARIO.json")]
    file: Option<String>,
    /// A link the app wrote (a whole URL or its query), in place of a file
    #[arg(long, value_name = "URL")]
    link: Option<String>,
    /// Print a CSV header and row
    #[arg(long)]
    csv: bool,
    /// Print JSON (the default)
    #[arg(long)]
    json: bool,
    /// The day the figures are read (YYYY-MM-DD; default today): a price older than six
    /// months on it is part of the ranges
    #[arg(long, value_name = "DATE", value_parser = parse_day)]
    today: Option<String>,
}

/// A day as YYYY-MM-DD.
fn parse_day(s: &str) -> Result<String, String> {
    let ok = s.len() == 10
        && s.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
        && engine::tco::rates::months_between(s, s) == Some(0);
    if ok {
        Ok(s.to_string())
    } else {
        Err(format!("'{s}' is not a day written YYYY-MM-DD"))
    }
}

/// Today's date (UTC) from the system clock, as YYYY-MM-DD.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// A scenario's job and its report.
pub struct Evaluated {
    sc: Scenario,
    r: JobReport,
    /// Ranges, the verdict on every basis, and what serving meets (JSON only), read on a day.
    extra: Option<Value>,
}

impl Evaluated {
    /// The scenario's job, evaluated.
    pub fn of(sc: Scenario) -> Result<Evaluated, Error> {
        let r = job::evaluate(&sc.job)?;
        Ok(Evaluated { sc, r, extra: None })
    }

    /// The ranges of the headline figures (from the held-out calibration points, and the
    /// price where it is no longer a quote on `today`), the training cost against the
    /// compared platform on every price basis, and whether serving meets its targets.
    fn with_evidence(mut self, today: &str) -> Self {
        let (j, r) = (&self.sc.job, &self.r);
        let points = engine::calibration::calibration();
        let range = |x: &engine::uncertainty::Range| {
            json!({
                "low": x.low,
                "high": x.high,
                "caveat": x.caveat,
                "evidence": {
                    "points": x.evidence.points,
                    "chips": x.evidence.chips,
                    "same_chip": x.evidence.same_chip,
                    "includes_price": x.evidence.includes_price,
                    "covers": x.evidence.covers,
                    "departing": {
                        "runs": x.evidence.departing.0,
                        "worst_speed_error": x.evidence.departing.1,
                    },
                },
            })
        };
        let ranges = engine::uncertainty::ranges(j, r, &points, today).map(|g| {
            json!({
                "train_cost_per_mtok_usd": range(&g.train_cost_per_mtok_usd),
                "infer_cost_per_mtok_usd": g.infer_cost_per_mtok_usd.as_ref().map(range),
                "infer_tokens_per_s_per_chip": g.infer_tokens_per_s_per_chip.as_ref().map(range),
                "cost_usd": range(&g.cost_usd),
                "time_s": range(&g.time_s),
                "tokens_per_s": range(&g.tokens_per_s),
                "mfu": range(&g.mfu),
            })
        });
        // The compared platform with as many chips.
        let other = engine::system::find(&j.compare_with)
            .ok()
            .map(|s| j.moved_to(&j.compare_with, r.chips.div_ceil(s.chips().max(1)).max(1)));
        let other_report = other.as_ref().and_then(|o| job::evaluate(o).ok());
        let verdicts = match (&other, &other_report) {
            (Some(o), Some(or)) => job::basis_verdicts(j, r, o, or),
            _ => Vec::new(),
        };
        let name = |id: &str| {
            engine::system::find(id).map_or_else(|_| id.to_string(), |s| s.name.to_string())
        };
        let sentence = r.price.basis.and_then(|b| {
            job::verdict_sentence(&name(&j.system), &name(&j.compare_with), b, &verdicts)
        });
        self.extra = Some(json!({
            "ranges": ranges,
            "price_age_months": engine::tco::rates::months_between(r.price.as_of, today),
            "read_on": today,
            "compare_with": j.compare_with,
            "basis_verdicts": verdicts.iter().map(|v| json!({
                "basis": v.basis.id(),
                "this_usd_per_mtok": v.this_usd_per_mtok,
                "other_usd_per_mtok": v.other_usd_per_mtok,
                "this_fell_back": v.this_fell_back,
                "other_fell_back": v.other_fell_back,
                "cheaper": if v.this_cheaper() { &j.system } else { &j.compare_with },
            })).collect::<Vec<_>>(),
            "basis_verdict": sentence,
            "infer_meets_targets": r.infer_meets_targets,
        }));
        self
    }

    /// The report as one flat object (one CSV row).
    pub fn row(&self) -> Value {
        let (sc, r) = (&self.sc, &self.r);
        let l = r.train.layout;
        json!({
            "system": sc.job.system,
            "nodes": sc.job.nodes,
            "chips": r.chips,
            "model": sc.job.model,
            "dtype": sc.job.dtype.id(),
            "tokens": sc.job.tokens,
            "tp": l.tp,
            "pp": l.pp,
            "dp": l.dp,
            "ep": l.ep,
            "cp": l.cp,
            "zero": l.zero,
            "recompute": l.recompute,
            "overlap": r.overlap.value,
            "tokens_per_s": r.train.tokens_per_s,
            "mfu": r.train.mfu,
            "step_s": r.train.step.get(),
            "time_s": r.time_s,
            "chip_hours": r.chip_hours,
            "usd_per_chip_hour": r.usd_per_chip_hour.value,
            "price_kind": r.price.kind,
            "price_as_of": r.price.as_of,
            "price_region": r.price.region,
            "price_basis": r.price.basis.map(|b| b.id()),
            "price_fell_back": r.price.fell_back,
            "cost_usd": r.cost_usd,
            "train_cost_per_mtok_usd": r.train_usd_per_mtok,
            "infer_cost_per_mtok_usd": r.infer_usd_per_mtok,
            "chips_needed": r.infer.as_ref().map(|i| i.chips_needed),
            "infer_tokens_per_s": r.infer.as_ref().map(|i| i.tokens_per_s),
            "usd_per_pflop_hour_marketed": r.usd_per_pflop_hour_marketed,
            "usd_per_pflop_hour_achieved": r.usd_per_pflop_hour_achieved,
            "memory_per_chip_bytes": r.train.memory.total(),
            "racks": r.racks,
            "rack_kw": r.rack_w / 1e3,
            "facility_kw": r.facility_w / 1e3,
            "joules_per_token": r.joules_per_token,
            "interruptions": r.failures.interruptions,
            "goodput": r.failures.goodput,
            "real_time_s": r.real_days * 86_400.0,
            "failure_cost_usd": r.failure_cost_usd,
        })
    }
}

impl Run for Args {
    type Output = Evaluated;
    fn run(&self) -> Result<Evaluated, Error> {
        let sc = match (&self.link, &self.file) {
            (Some(link), _) => load::link(link)?,
            (None, Some(file)) => load::file(file)?,
            (None, None) => {
                return Err(Error::usage(
                    "eval takes one scenario file, - for standard input, or --link URL",
                ))
            }
        };
        let e = Evaluated::of(sc)?;
        Ok(if self.csv {
            e
        } else {
            e.with_evidence(&self.today.clone().unwrap_or_else(today))
        })
    }
    fn format(&self) -> Format {
        if self.csv {
            Format::Csv
        } else {
            Format::Json
        }
    }
}

impl Report for Evaluated {
    fn json(&self) -> serde_json::Result<Value> {
        let mut row = self.row();
        if let (Some(Value::Object(extra)), Value::Object(out)) = (&self.extra, &mut row) {
            out.extend(extra.clone());
        }
        Ok(row)
    }
    fn csv(&self) -> Option<String> {
        Some(to_csv(&[self.row()]))
    }
}
