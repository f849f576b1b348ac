//! `accelscope chips`: the chip catalog.

use std::fmt::Write as _;

use engine::{catalog, Chip, Dtype};
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::report::{Format, Report};

/// The chip catalog
///
/// Each chip's dense BF16 and FP8 peaks, HBM capacity and bandwidth, and power; --json has
/// every figure with its source.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    out: Json,
}

/// Every preset chip.
pub struct Chips(Vec<Chip>);

impl Run for Args {
    type Output = Chips;
    fn run(&self) -> Result<Chips, Error> {
        Ok(Chips(catalog::presets()))
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for Chips {
    fn json(&self) -> serde_json::Result<Value> {
        Ok(json!({
            "chips": serde_json::to_value(&self.0)?,
            "citations": serde_json::to_value(catalog::citations())?,
        }))
    }

    fn text(&self) -> Option<String> {
        let mut s = format!(
            "{:<10} {:<28} {:>14} {:>14} {:>10} {:>12} {:>8}\n",
            "id", "name", "BF16 dense", "FP8 dense", "HBM", "HBM BW", "power"
        );
        for c in &self.0 {
            let dense = |d| c.dense(d).map_or("—".to_string(), |f| f.display_si());
            let _ = writeln!(
                s,
                "{:<10} {:<28} {:>14} {:>14} {:>10} {:>12} {:>8}",
                c.id,
                c.name,
                dense(Dtype::Bf16),
                dense(Dtype::Fp8),
                c.hbm_capacity.value.display_memory(),
                c.hbm_bandwidth.value.display_si(),
                c.power.map_or("—".into(), |p| p.value.display_si())
            );
        }
        Some(s.trim_end().into())
    }
}
