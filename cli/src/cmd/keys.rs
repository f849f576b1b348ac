//! `accelscope keys`: every link key.

use std::fmt::Write as _;

use engine::scenario::{self, keys::Key};
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::report::{Format, Report};

/// Every link key: its kind, range, default, version and what it sets
///
/// Every key a link may carry: its kind, range, default, the link version it appeared in and
/// what it sets. A flag accepts exactly what its link key does.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    out: Json,
}

/// Each key with its default ("" where it has none).
pub struct Keys(Vec<(&'static Key, String)>);

impl Run for Args {
    type Output = Keys;
    fn run(&self) -> Result<Keys, Error> {
        let defaults = scenario::key_defaults();
        Ok(Keys(
            scenario::keys::KEYS
                .iter()
                .map(|k| {
                    let d = defaults
                        .iter()
                        .find(|(x, _)| *x == k.key)
                        .map(|(_, v)| v.clone())
                        .unwrap_or_default();
                    (k, d)
                })
                .collect(),
        ))
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for Keys {
    fn json(&self) -> serde_json::Result<Value> {
        let keys: Vec<Value> = self
            .0
            .iter()
            .map(|(k, d)| {
                let bounded = k.kind.bounded();
                json!({
                    "key": k.key,
                    "kind": k.kind.id(),
                    "min": if bounded { json!(k.min) } else { Value::Null },
                    "max": if bounded { json!(k.max) } else { Value::Null },
                    "default": d,
                    "since": k.since,
                    "what": k.what,
                })
            })
            .collect();
        Ok(json!({ "version": scenario::VERSION, "keys": keys }))
    }

    fn text(&self) -> Option<String> {
        let mut out = format!(
            "{} link keys (link version {}): key, kind, range, default, since, what\n",
            self.0.len(),
            scenario::VERSION
        );
        for (k, d) in &self.0 {
            let range = if k.kind.bounded() {
                format!("{}..{}", k.min, k.max)
            } else {
                "-".into()
            };
            let _ = writeln!(
                out,
                "{:<8} {:<7} {:<22} {:<24} v{}  {}",
                k.key,
                k.kind.id(),
                range,
                if d.is_empty() { "-" } else { d.as_str() },
                k.since,
                k.what
            );
        }
        Some(out)
    }
}
