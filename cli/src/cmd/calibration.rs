//! `accelscope calibration`: the model against published measurements.

use std::fmt::Write as _;

use engine::calibration::{self, Role, RunPoint};
use engine::servesim::measured::{self, LoadCheck};
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::report::{Format, Report};

/// The model against published measurements
///
/// Each point's measured and modelled figure, the error and the bound it is held to, grouped
/// by how the point is used: fitted, held out, tuned against, or departs.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    out: Json,
}

/// Each published point with the model's figure for it, and each latency measured under load
/// with the simulator's.
pub struct Calibration(Vec<(RunPoint, f64)>, Vec<LoadCheck>);

impl Run for Args {
    type Output = Calibration;
    fn run(&self) -> Result<Calibration, Error> {
        let load = measured::checks().map_err(|e| Error::internal(e.to_string()))?;
        calibration::calibration()
            .into_iter()
            .map(|p| {
                // Every point is a preset the model must evaluate.
                let m = *p
                    .model
                    .as_ref()
                    .map_err(|e| Error::internal(format!("{}: {e}", p.label)))?;
                Ok((p, m))
            })
            .collect::<Result<_, _>>()
            .map(|points| Calibration(points, load))
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

/// Model ÷ measured − 1.
fn error(p: &RunPoint, predicted: f64) -> f64 {
    predicted / p.measured.value() - 1.0
}

impl Report for Calibration {
    fn json(&self) -> serde_json::Result<Value> {
        let mut rows = Vec::new();
        for (p, predicted) in &self.0 {
            rows.push(json!({
                "family": p.family.id(),
                "role": p.role.id(),
                "held_out_since": p.role.held_out_since(),
                "predicted_at_entry": p.role.predicted_at_entry(),
                "system": p.system,
                "label": p.label,
                "setup": p.setup,
                "unit": p.measured.key(),
                "measured": p.measured.value(),
                "predicted": predicted,
                "error": error(p, *predicted),
                "tolerance": p.tolerance(),
                "within": p.within(),
                "note": p.note,
                "source": serde_json::to_value(p.source)?,
            }));
        }
        let mut load = Vec::new();
        for c in &self.1 {
            load.push(json!({
                "family": calibration::Family::ServingLoad.id(),
                "role": c.role.id(),
                "held_out_since": c.role.held_out_since(),
                "predicted_at_entry": c.role.predicted_at_entry(),
                "label": c.label,
                "latency": c.latency.id(),
                "measured_s": c.measured,
                "simulated_s": c.simulated,
                "error": c.error(),
                "tolerance": c.tolerance(),
                "within": c.within,
                "note": c.note,
                "source": serde_json::to_value(c.source)?,
            }));
        }
        Ok(json!({ "points": rows, "serving_load": load }))
    }

    fn text(&self) -> Option<String> {
        let mut s = String::new();
        for role in Role::IDS {
            let _ = writeln!(s, "{} ({}):", role, Role::meaning(role));
            for (p, predicted) in self.0.iter().filter(|(p, _)| p.role.id() == role) {
                let _ = writeln!(
                    s,
                    "  {:<12} {:<66} measured {:>10.4e} model {:>10.4e} ({:+.1}%, ±{:.0}%{})",
                    p.family.id(),
                    p.label,
                    p.measured.value(),
                    predicted,
                    error(p, *predicted) * 100.0,
                    p.tolerance() * 100.0,
                    if p.within() { "" } else { ", OUTSIDE" }
                );
            }
        }
        let _ = writeln!(
            s,
            "\nserving under load, simulated request by request ({}):",
            calibration::Family::ServingLoad.id()
        );
        for role in Role::IDS {
            for c in self.1.iter().filter(|c| c.role.id() == role) {
                let _ = writeln!(
                    s,
                    "  {:<13} {:<100} {:<11} measured {:>8.1} ms simulated {:>8.1} ms ({:+.0}%, ±{:.0}%{})",
                    role,
                    c.label,
                    c.latency.id(),
                    c.measured * 1e3,
                    c.simulated * 1e3,
                    c.error() * 100.0,
                    c.tolerance() * 100.0,
                    if c.within { "" } else { ", OUTSIDE" }
                );
            }
        }
        Some(s.trim_end().into())
    }
}
