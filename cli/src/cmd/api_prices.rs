//! `accelscope api-prices`: API list prices per million tokens, dated and sourced.

use engine::tco::api::{ApiPrice, PRICES};
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::report::{Format, Report};

/// API list prices per million tokens (input, cached input, output), dated and sourced
///
/// Open-weight models at hosted providers and frontier APIs, each with the date the price
/// applied and where it is stated: the provider's own page, or a dated third party that read
/// it (`primary` says which). Set them beside `infer`'s cost per million tokens of serving
/// the model yourself.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    out: Json,
}

/// The prices.
pub struct ApiPrices(&'static [ApiPrice]);

impl Run for Args {
    type Output = ApiPrices;
    fn run(&self) -> Result<ApiPrices, Error> {
        Ok(ApiPrices(&PRICES))
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for ApiPrices {
    fn json(&self) -> serde_json::Result<Value> {
        let prices: Vec<Value> = self
            .0
            .iter()
            .map(|p| {
                json!({
                    "model": p.model, "model_id": p.model_id, "provider": p.provider,
                    "open_weights": p.open_weights,
                    "input_usd_per_mtok": p.input, "cached_input_usd_per_mtok": p.cached_input,
                    "output_usd_per_mtok": p.output, "as_of": p.as_of, "primary": p.primary,
                    "source": { "title": p.source.title, "url": p.source.url, "date": p.source.date },
                })
            })
            .collect();
        Ok(json!({ "prices": prices }))
    }

    fn text(&self) -> Option<String> {
        let money = |x: f64| format!("${x:.3}");
        let mut s = format!(
            "{:<44} {:<13} {:>8} {:>8} {:>8}  {:<10} source\n",
            "model", "provider", "input", "cached", "output", "as of"
        );
        for p in self.0 {
            s += &format!(
                "{:<44} {:<13} {:>8} {:>8} {:>8}  {:<10} {}{}\n",
                p.model,
                p.provider,
                money(p.input),
                p.cached_input.map_or_else(|| "—".into(), money),
                money(p.output),
                p.as_of,
                p.source.url,
                if p.primary { "" } else { " (third party)" }
            );
        }
        s += "$ per million tokens, standard tier.";
        Some(s)
    }
}
