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
}

/// A scenario's job and its report.
pub struct Evaluated {
    sc: Scenario,
    r: JobReport,
}

impl Evaluated {
    /// The scenario's job, evaluated.
    pub fn of(sc: Scenario) -> Result<Evaluated, Error> {
        let r = job::evaluate(&sc.job)?;
        Ok(Evaluated { sc, r })
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
        Evaluated::of(sc)
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
        Ok(self.row())
    }
    fn csv(&self) -> Option<String> {
        Some(to_csv(&[self.row()]))
    }
}
