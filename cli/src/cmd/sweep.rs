//! `accelscope sweep`: CSV of a scenario's report as one input varies.

use engine::Scenario;
use serde_json::{json, Value};

use super::eval::Evaluated;
use super::Run;
use crate::error::Error;
use crate::load;
use crate::parse::Check;
use crate::report::{to_csv, Format, Report};

/// CSV of a scenario's report as one input varies
///
/// One row per step as one numeric input varies over evenly spaced steps, e.g.
/// --set job.efficiency=0.3..0.9:7. A long sweep reports its progress on stderr.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The scenario: a JSON file as `accelscope scenario` prints it, or - for standard input
    #[arg(value_name = "SCENARIO.json")]
    file: String,
    /// PATH=FROM..TO:STEPS: the setting (its path in the scenario's JSON, dotted, e.g.
    /// job.efficiency, job.nodes, job.usd_per_chip_hour, job.discount, job.tokens, job.pue),
    /// its first and last values and the number of steps (2 to 10000, default 11)
    #[arg(long, value_name = "PATH=FROM..TO:STEPS", value_parser = set())]
    set: Set,
}

/// `--set PATH=FROM..TO:STEPS`.
#[derive(Clone, Debug)]
pub struct Set {
    path: String,
    from: f64,
    to: f64,
    steps: u32,
}

fn at_least_zero(x: &str, name: &str) -> Result<f64, String> {
    match x.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("{name} must be a number of at least 0, got '{x}'")),
    }
}

fn set() -> Check<impl Fn(&str, &str) -> Result<Set, String> + Clone> {
    Check(|_: &str, spec: &str| {
        let (path, range) = spec
            .split_once('=')
            .ok_or_else(|| format!("--set wants PATH=FROM..TO:STEPS, got '{spec}'"))?;
        let (span, steps) = range.split_once(':').unwrap_or((range, "11"));
        let (from, to) = span
            .split_once("..")
            .ok_or_else(|| format!("--set wants FROM..TO, got '{span}'"))?;
        let from = at_least_zero(from, "FROM")?;
        let to = at_least_zero(to, "TO")?;
        let steps = match steps.trim().parse() {
            Ok(n) if (2..=10_000).contains(&n) => n,
            _ => {
                return Err(format!(
                    "STEPS must be a whole number from 2 to 10000, got '{steps}'"
                ))
            }
        };
        Ok(Set {
            path: path.to_string(),
            from,
            to,
            steps,
        })
    })
}

/// One row per step: the report, or why the step could not be evaluated, and the value set.
pub struct Sweep(Vec<Value>);

impl Run for Args {
    type Output = Sweep;
    fn run(&self) -> Result<Sweep, Error> {
        let sc = load::file(&self.file)?;
        let Set {
            path,
            from,
            to,
            steps,
        } = &self.set;
        let (from, to, steps) = (*from, *to, *steps);
        let base = serde_json::to_value(&sc)?;
        let pointer = format!("/{}", path.replace('.', "/"));
        if base
            .pointer(&pointer)
            .is_none_or(|v| !v.is_number() && !v.is_null())
        {
            return Err(Error::usage(format!(
                "'{path}' is not a numeric setting of the scenario (try job.efficiency, job.nodes, job.usd_per_chip_hour, job.discount, job.tokens, job.pue)"
            )));
        }
        let mut rows = Vec::new();
        // A long sweep says how far it has got on stderr, a tenth at a time.
        let tenth = (steps >= 100).then_some(steps / 10);
        for k in 0..steps {
            if let Some(t) = tenth.filter(|t| k > 0 && k % t == 0) {
                eprintln!("sweep: {}% ({k} of {steps} steps)", k / t * 10);
            }
            let x = from + (to - from) * f64::from(k) / f64::from(steps - 1);
            let mut v = base.clone();
            if let Some(slot) = v.pointer_mut(&pointer) {
                *slot = if slot.is_u64() {
                    json!(x.round() as u64)
                } else {
                    json!(x)
                };
            }
            // The user's value in the user's setting: one the scenario cannot hold is theirs.
            let sc: Scenario =
                serde_json::from_value(v).map_err(|e| Error::usage(e.to_string()))?;
            let mut row = Evaluated::of(sc)
                .map(|e| e.row())
                .unwrap_or_else(|e| json!({ "error": e.message() }));
            row[path.as_str()] = json!(x);
            rows.push(row);
        }
        Ok(Sweep(rows))
    }
    fn format(&self) -> Format {
        Format::Csv
    }
}

impl Report for Sweep {
    fn json(&self) -> serde_json::Result<Value> {
        Ok(Value::Array(self.0.clone()))
    }
    fn csv(&self) -> Option<String> {
        Some(to_csv(&self.0))
    }
}
