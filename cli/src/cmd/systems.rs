//! `accelscope systems`: the system presets.

use std::fmt::Write as _;

use engine::system::{self, System};
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::report::{Format, Report};

/// The system presets (scale-up and scale-out)
///
/// Each system's id, name, chip and fabric; --json has every figure with its source.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    out: Json,
}

/// Every preset system.
pub struct Systems(Vec<System>);

impl Run for Args {
    type Output = Systems;
    fn run(&self) -> Result<Systems, Error> {
        Ok(Systems(system::presets()))
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for Systems {
    fn json(&self) -> serde_json::Result<Value> {
        Ok(json!({
            "systems": serde_json::to_value(&self.0)?,
            "citations": serde_json::to_value(system::citations())?,
        }))
    }

    fn text(&self) -> Option<String> {
        let mut s = String::new();
        for x in &self.0 {
            let _ = writeln!(
                s,
                "{:<16} {:<40} {:<8} {}",
                x.id,
                x.name,
                x.chip,
                x.fabric().describe()
            );
        }
        Some(s.trim_end().into())
    }
}
