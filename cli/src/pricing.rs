//! The price of a chip-hour a command uses, and what it stands on.

use engine::tco::{self, rates};

use crate::args::PriceArgs;

/// The price a command uses and what it stands on.
#[derive(Debug)]
pub struct Price {
    /// $ per chip-hour.
    pub usd: f64,
    /// The rate's label and source.
    pub label: String,
    /// The pricing the engine's cost functions take.
    pub pricing: tco::Pricing,
    /// Where the rate comes from: its kind, date, region and basis.
    pub origin: rates::PriceOrigin,
}

impl Price {
    /// `--usd-per-chip-hour`, or `chip`'s published rate on `--price-basis` (the default basis
    /// when not given), as the app prices a job.
    pub fn of(a: &PriceArgs, chip: &str) -> Price {
        let (label, s, origin) = match a.usd_per_chip_hour {
            Some(x) => (
                "given on the command line".to_string(),
                engine::Sourced::user(x),
                rates::PriceOrigin::of_own("user"),
            ),
            None => {
                let basis = a.price_basis.unwrap_or_else(rates::default_basis);
                let (r, fell_back) = rates::rate_on(chip, basis);
                (
                    format!("{}: {}", r.label(), r.sourced().source),
                    r.sourced(),
                    rates::PriceOrigin::of_rate(&r, basis, fell_back),
                )
            }
        };
        let p = tco::Pricing::Rental {
            usd_per_chip_hour: s,
            discount: 0.0,
        };
        Price {
            usd: p.usd_per_chip_hour(),
            label,
            pricing: p,
            origin,
        }
    }

    /// The price's fields of a command's JSON.
    pub fn json_fields(&self, v: &mut serde_json::Value) {
        v["usd_per_chip_hour"] = self.usd.into();
        v["price_source"] = self.label.clone().into();
        v["price_kind"] = self.origin.kind.into();
        v["price_as_of"] = self.origin.as_of.into();
        v["price_region"] = self.origin.region.into();
        v["price_basis"] = self.origin.basis.map(|b| b.id()).into();
        v["price_fell_back"] = self.origin.fell_back.into();
    }
}
