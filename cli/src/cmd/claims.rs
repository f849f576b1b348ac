//! `accelscope claims`: vendors' claims beside the model's figure.

use std::fmt::Write as _;

use engine::claims::{self, ClaimCheck};
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::report::{Format, Report};

/// Vendors' claims beside the model's figure
///
/// Each vendor's performance claim (a ratio between two platforms) beside the model's figure
/// for the same comparison, with the setup the model was given.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    out: Json,
}

/// Each claim with the model's ratio.
pub struct Claims(Vec<(ClaimCheck, f64)>);

impl Run for Args {
    type Output = Claims;
    fn run(&self) -> Result<Claims, Error> {
        claims::checks()
            .into_iter()
            .map(|c| {
                // Every claim is a preset comparison the model must evaluate.
                let m = *c
                    .model
                    .as_ref()
                    .map_err(|e| Error::internal(format!("{}: {e}", c.claim)))?;
                Ok((c, m))
            })
            .collect::<Result<_, _>>()
            .map(Claims)
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for Claims {
    fn json(&self) -> serde_json::Result<Value> {
        let mut rows = Vec::new();
        for (c, m) in &self.0 {
            rows.push(json!({
                "vendor": c.vendor,
                "claim": c.claim,
                "claimed_ratio": [c.claimed.0, c.claimed.1],
                "model_ratio": m,
                "setup": c.setup,
                "note": c.note,
                "source": serde_json::to_value(c.source)?,
            }));
        }
        Ok(json!({ "claims": rows }))
    }

    fn text(&self) -> Option<String> {
        let mut s = String::new();
        for (c, m) in &self.0 {
            let _ = writeln!(
                s,
                "{:<7} {:<78} claimed {:.2}-{:.2}x  model {:.2}x\n        {}",
                c.vendor, c.claim, c.claimed.0, c.claimed.1, m, c.setup
            );
        }
        Some(s.trim_end().into())
    }
}
