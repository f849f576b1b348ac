//! `accelscope breakdown`: where a job's step time goes, operation by operation.

use engine::breakdown::{self, Op, Part};
use engine::units::sig;
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::load;
use crate::report::{Format, Report};

/// Where a job's step time goes, operation by operation: training, prefill and decode
///
/// The training step of a link's job split into its operations (each GEMM of a layer,
/// attention, the elementwise work, casts, the output head, the optimizer, the calls' fixed
/// cost, the pipeline bubble and each collective), which add up to the step `eval` reports;
/// and the prefill of one batch's prompts and the decode step (per output token) likewise.
/// Each operation has how often a step runs it, its FLOPs and bytes on one chip, its time,
/// what bounds it, its share of the chip's peak in its format and where its efficiency
/// comes from.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A link the app wrote (a whole URL or its query)
    #[arg(long, value_name = "URL")]
    link: String,
    #[command(flatten)]
    out: Json,
}

/// The parts of a job's work, split.
pub struct Breakdown {
    train_step: Part,
    /// The prefill and the decode step (`None`: the model does not fit a scale-up domain).
    serving: Option<(Part, Part)>,
}

impl Run for Args {
    type Output = Breakdown;
    fn run(&self) -> Result<Breakdown, Error> {
        let sc = load::link(&self.link)?;
        Ok(Breakdown {
            train_step: breakdown::train_step(&sc.job)?,
            serving: breakdown::serving(&sc.job)?,
        })
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

fn op_json(o: &Op) -> Value {
    let mut v = json!({
        "name": o.name, "count": o.count, "flop": o.flop, "bytes": o.bytes,
        "intensity_flop_per_byte": o.intensity(), "time_s": o.time_s, "bound": o.bound.id(),
        "of_peak": o.of_peak, "source": o.source.id(),
    });
    if let Some(k) = &o.kernel_source {
        v["kernel_source"] = json!(k);
    }
    v
}

fn part_json(p: &Part) -> Value {
    json!({ "total_s": p.total_s, "ops": p.ops.iter().map(op_json).collect::<Vec<_>>() })
}

impl Report for Breakdown {
    fn json(&self) -> serde_json::Result<Value> {
        let (prefill, decode) = match &self.serving {
            Some((p, d)) => (part_json(p), part_json(d)),
            None => (Value::Null, Value::Null),
        };
        Ok(
            json!({ "train_step": part_json(&self.train_step), "prefill": prefill, "decode_step": decode }),
        )
    }

    fn text(&self) -> Option<String> {
        let mut s = table("training step", &self.train_step);
        match &self.serving {
            Some((p, d)) => {
                s += "\n\n";
                s += &table("prefill of one batch", p);
                s += "\n\n";
                s += &table("decode step, per output token", d);
            }
            None => s += "\n\nserving: the model does not fit one scale-up domain",
        }
        Some(s)
    }
}

fn table(title: &str, p: &Part) -> String {
    // The name column is as wide as the longest name.
    let w = p
        .ops
        .iter()
        .map(|o| o.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(44);
    let mut s = format!(
        "{title}: {} s\n{:<w$} {:>10} {:>7} {:>8} {:>13} {:>9}\n",
        sig(p.total_s, 4),
        "operation",
        "time s",
        "share",
        "of peak",
        "bound",
        "source"
    );
    for o in &p.ops {
        s += &format!(
            "{:<w$} {:>10} {:>6}% {:>7}% {:>13} {:>9}\n",
            o.name,
            sig(o.time_s, 3),
            sig(o.time_s / p.total_s * 100.0, 3),
            sig(o.of_peak * 100.0, 3),
            o.bound.id(),
            o.source.id()
        );
    }
    s.trim_end().to_string()
}
