//! `accelscope prices`: every published rental rate.

use std::fmt::Write as _;

use engine::catalog;
use engine::tco::rates::{self, Rate};
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::report::{Format, Report};

/// Every published rental rate, the price bases and the default
///
/// Every published rental rate with its kind, date, region and source; the price bases
/// (KIND@DATE, as --price-basis takes them) and the default one.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only this chip's rates
    #[arg(long, value_name = "ID")]
    chip: Option<String>,
    #[command(flatten)]
    out: Json,
}

/// The rates shown.
pub struct Prices(Vec<&'static Rate>);

impl Run for Args {
    type Output = Prices;
    fn run(&self) -> Result<Prices, Error> {
        if let Some(c) = &self.chip {
            catalog::find(c)?;
        }
        let chip = self.chip.as_deref();
        Ok(Prices(
            rates::rates()
                .iter()
                .filter(|r| chip.is_none_or(|c| r.chip == c))
                .collect(),
        ))
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for Prices {
    fn json(&self) -> serde_json::Result<Value> {
        let mut rows = Vec::new();
        for r in &self.0 {
            rows.push(json!({
                "chip": r.chip,
                "instance": r.instance,
                "chips_per_instance": r.chips,
                "usd_per_instance_hour": r.usd_per_instance_hour,
                "usd_per_chip_hour": r.usd_per_chip_hour(),
                "kind": r.kind.id(),
                "region": r.region,
                "as_of": r.as_of,
                "basis": r.basis().id(),
                "estimate": r.estimate,
                "source": serde_json::to_value(r.source)?,
                "note": r.note,
            }));
        }
        Ok(json!({
            "default_basis": rates::default_basis().id(),
            "headline_chips": rates::HEADLINE_CHIPS,
            "bases": rates::bases().iter().map(|b| b.id()).collect::<Vec<_>>(),
            "rates": rows,
        }))
    }

    fn text(&self) -> Option<String> {
        let default = rates::default_basis();
        let mut s = format!(
            "Default price basis: {default} ({}), the latest on which {} both have a rate of one kind\n",
            default.id(),
            rates::HEADLINE_CHIPS.join(" and ")
        );
        for r in &self.0 {
            let _ = writeln!(
                s,
                "  {:<9} ${:>8.4}/chip-h  {:<14} {:<10} {:<22} {}{}",
                r.chip,
                r.usd_per_chip_hour(),
                r.kind.id(),
                r.as_of,
                r.region,
                r.instance,
                if r.estimate { " (estimate)" } else { "" }
            );
        }
        Some(s.trim_end().into())
    }
}
