//! `accelscope scenario`: a scenario as JSON, for `eval`, `sweep` and `compare`.

use engine::Scenario;
use serde_json::Value;

use super::Run;
use crate::error::Error;
use crate::report::{Format, Report};

/// Print a scenario as JSON (the default, or from a link's query)
///
/// The app's state as JSON, for eval, sweep and compare: the defaults, or the state of a
/// link's query (what cannot be read is named on stderr and left at its default).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A link's query, e.g. 'wsys=hgx-h100-8&wnodes=32'
    #[arg(long, value_name = "Q", default_value = "")]
    query: String,
}

/// A scenario.
pub struct ScenarioReport(Value);

impl Run for Args {
    type Output = ScenarioReport;
    fn run(&self) -> Result<ScenarioReport, Error> {
        let (sc, notes): (Scenario, _) = Scenario::from_query(&self.query);
        for n in notes {
            eprintln!("accelscope: note: {n}");
        }
        Ok(ScenarioReport(serde_json::to_value(&sc)?))
    }
    fn format(&self) -> Format {
        Format::Json
    }
}

impl Report for ScenarioReport {
    fn json(&self) -> serde_json::Result<Value> {
        Ok(self.0.clone())
    }
}
