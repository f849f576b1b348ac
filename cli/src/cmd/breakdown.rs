//! `accelscope breakdown`: where a job's step time goes, operation by operation.

use engine::breakdown::{self, Op, Part};
use engine::units::sig;
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::load;
use crate::report::{Format, Report};

/// Where the time of a job's training step goes, operation by operation
///
/// The training step of a link's job split into its operations (each GEMM of a layer,
/// attention, the elementwise work, casts, the output head, the optimizer, the calls' fixed
/// cost, the pipeline bubble and each collective), which add up to the step `eval` reports:
/// each with how often a step runs it, its FLOPs and bytes on one chip, its time, what bounds
/// it, its share of the chip's peak in its format and where its efficiency comes from.
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
}

impl Run for Args {
    type Output = Breakdown;
    fn run(&self) -> Result<Breakdown, Error> {
        let sc = load::link(&self.link)?;
        Ok(Breakdown {
            train_step: breakdown::train_step(&sc.job)?,
        })
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

fn op_json(o: &Op) -> Value {
    json!({
        "name": o.name, "count": o.count, "flop": o.flop, "bytes": o.bytes,
        "intensity_flop_per_byte": o.intensity(), "time_s": o.time_s, "bound": o.bound.id(),
        "of_peak": o.of_peak, "source": o.source.id(),
    })
}

fn part_json(p: &Part) -> Value {
    json!({ "total_s": p.total_s, "ops": p.ops.iter().map(op_json).collect::<Vec<_>>() })
}

impl Report for Breakdown {
    fn json(&self) -> serde_json::Result<Value> {
        Ok(json!({ "train_step": part_json(&self.train_step) }))
    }

    fn text(&self) -> Option<String> {
        let p = &self.train_step;
        let mut s = format!(
            "training step {} s\n{:<44} {:>10} {:>7} {:>8} {:>13} {:>9}\n",
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
                "{:<44} {:>10} {:>6}% {:>7}% {:>13} {:>9}\n",
                o.name,
                sig(o.time_s, 3),
                sig(o.time_s / p.total_s * 100.0, 3),
                sig(o.of_peak * 100.0, 3),
                o.bound.id(),
                o.source.id()
            );
        }
        Some(s.trim_end().to_string())
    }
}
