//! `accelscope compare`: why one scenario costs what it does against another.

use std::fmt::Write as _;

use engine::compare::{compare_link, headline, waterfall, Figure, Waterfall};
use engine::units::sig;
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::load;
use crate::report::{finite, Format, Report};

/// Why B costs what it does against A
///
/// The headline figures of both scenarios, and the training and serving waterfalls that move
/// one group of inputs at a time from A to B, so the steps add up to the difference.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Scenario A: a JSON file, - for standard input, or a link the app wrote
    #[arg(value_name = "A")]
    a: String,
    /// Scenario B, as A
    #[arg(value_name = "B")]
    b: String,
    /// Print only the Compare page's link carrying both scenarios (the query, from `?`;
    /// append it to the app's address, or give --base)
    #[arg(long)]
    link: bool,
    /// The app's address to put before the link's query (with --link)
    #[arg(long, value_name = "URL", requires = "link", default_value = "")]
    base: String,
    #[command(flatten)]
    out: Json,
}

/// Headline figures of two scenarios and the waterfalls between them.
pub struct Comparison {
    a: Vec<Figure>,
    b: Vec<Figure>,
    waterfalls: Vec<Waterfall>,
    /// The Compare page's link to both, when asked for.
    link: Option<String>,
}

impl Run for Args {
    type Output = Comparison;
    fn run(&self) -> Result<Comparison, Error> {
        let (sa, sb) = (load::link_or_file(&self.a)?, load::link_or_file(&self.b)?);
        // The engine's messages say why a job cannot be evaluated: the input's fault.
        let (a, b) = (
            headline(&sa.job).map_err(Error::usage)?,
            headline(&sb.job).map_err(Error::usage)?,
        );
        let waterfalls = waterfall(&sa.job, &sb.job).map_err(Error::usage)?;
        let link = self
            .link
            .then(|| format!("{}?{}", self.base, compare_link(&[sa, sb])));
        Ok(Comparison {
            a,
            b,
            waterfalls,
            link,
        })
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for Comparison {
    fn json(&self) -> serde_json::Result<Value> {
        let figures: Vec<Value> = self
            .a
            .iter()
            .zip(&self.b)
            .map(|(x, y)| json!({"figure": x.label, "a": finite(x.value), "b": finite(y.value)}))
            .collect();
        let falls: Vec<Value> = self
            .waterfalls
            .iter()
            .map(|w| {
                let mut prev = w.start;
                let steps: Vec<Value> = w
                    .steps
                    .iter()
                    .map(|s| {
                        let v = json!({"factor": s.label, "unit": s.unit, "a": finite(s.a), "b": finite(s.b),
                            "change_usd_per_mtok": finite(s.usd_per_mtok - prev), "after_usd_per_mtok": finite(s.usd_per_mtok)});
                        prev = s.usd_per_mtok;
                        v
                    })
                    .collect();
                json!({"cost": w.what, "formula": w.formula, "a_usd_per_mtok": finite(w.start), "steps": steps})
            })
            .collect();
        let mut v = json!({"figures": figures, "waterfalls": falls});
        if let Some(l) = &self.link {
            v["link"] = json!(l);
        }
        Ok(v)
    }

    fn text(&self) -> Option<String> {
        if let Some(l) = &self.link {
            return Some(l.clone());
        }
        let mut out = String::new();
        for (x, y) in self.a.iter().zip(&self.b) {
            let _ = writeln!(
                out,
                "{:<34} {:>14} {:>14}",
                x.label,
                sig(x.value, 4),
                sig(y.value, 4)
            );
        }
        for w in &self.waterfalls {
            let _ = writeln!(
                out,
                "\n{}: {}\n  A {:>45}",
                w.what,
                w.formula,
                sig(w.start, 4)
            );
            let mut prev = w.start;
            for s in &w.steps {
                let _ = writeln!(out, "  {:<74} {:>+10.4}", s.label, s.usd_per_mtok - prev);
                prev = s.usd_per_mtok;
            }
            let _ = writeln!(out, "  B {:>45}", sig(prev, 4));
        }
        Some(out.trim_end().to_string())
    }
}
