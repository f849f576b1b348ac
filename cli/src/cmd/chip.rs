//! `accelscope chip ID`: one chip, every figure with its source.

use std::fmt::Write as _;

use engine::{catalog, Chip, Dtype};
use serde_json::Value;

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::report::{Format, Report};

/// One chip, every figure with its source
///
/// Peaks by number format (dense and sparse), memories, cores, clocks and power, each with
/// its source and marked where it is an estimate.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The chip's id, as `accelscope chips` lists them (trn2, h100-sxm, …)
    #[arg(value_name = "ID")]
    id: String,
    #[command(flatten)]
    out: Json,
}

/// One chip.
pub struct ChipReport(Chip);

impl Run for Args {
    type Output = ChipReport;
    fn run(&self) -> Result<ChipReport, Error> {
        Ok(ChipReport(catalog::find(&self.id)?))
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for ChipReport {
    fn json(&self) -> serde_json::Result<Value> {
        serde_json::to_value(&self.0)
    }

    fn text(&self) -> Option<String> {
        let c = &self.0;
        let mut s = format!("{} ({}, {})\n", c.name, c.id, c.vendor);
        let mut line = |what: &str, value: String, src: &engine::Source, est: bool, note: &str| {
            let _ = write!(
                s,
                "  {what:<22} {value:>16}{}  [{src}]",
                if est { " (estimate)" } else { "" }
            );
            if !note.is_empty() {
                let _ = write!(s, " — {note}");
            }
            s.push('\n');
        };
        for d in Dtype::ALL {
            let p = c.peak(d);
            if let Some(x) = p.dense {
                line(
                    &format!("{} dense", d.label()),
                    x.value.display_si(),
                    &x.source,
                    x.estimate,
                    x.note,
                );
            }
            if let Some(x) = p.sparse {
                line(
                    &format!("{} sparse ({})", d.label(), c.sparsity),
                    x.value.display_si(),
                    &x.source,
                    x.estimate,
                    x.note,
                );
            }
        }
        let h = c.hbm_capacity;
        line(
            "HBM capacity",
            h.value.display_memory(),
            &h.source,
            h.estimate,
            h.note,
        );
        let b = c.hbm_bandwidth;
        line(
            "HBM bandwidth",
            b.value.display_si(),
            &b.source,
            b.estimate,
            b.note,
        );
        for m in &c.sram {
            let x = m.capacity;
            line(m.name, x.value.display_iec(), &x.source, x.estimate, x.note);
        }
        line(
            &format!("cores ({})", c.core_kind),
            c.cores.value.to_string(),
            &c.cores.source,
            c.cores.estimate,
            c.cores.note,
        );
        for k in &c.clocks {
            let x = k.frequency;
            line(
                k.engine,
                x.value.display_si(),
                &x.source,
                x.estimate,
                x.note,
            );
        }
        match c.power {
            Some(p) => line("power", p.value.display_si(), &p.source, p.estimate, p.note),
            None => s.push_str("  power                  not published\n"),
        }
        Some(s.trim_end().into())
    }
}
