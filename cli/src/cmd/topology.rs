//! `accelscope topology`: a system's fabric figures.

use engine::system::{self, System};
use engine::topology::Metrics;
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::report::{Format, Report};

/// Fabric figures of a system: hops, bisection, blast radius
///
/// Chips, links, degree, diameter and mean hops, bisection bandwidth per direction, injection
/// bandwidth per chip, the chips one failure takes down, and the scale-out figures.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The system, as `accelscope systems` lists them (or edit:BASE;… for an edited one)
    #[arg(long, value_name = "ID")]
    system: String,
    #[command(flatten)]
    out: Json,
}

/// A system and its fabric's figures.
pub struct Topology {
    sys: System,
    m: Metrics,
}

impl Run for Args {
    type Output = Topology;
    fn run(&self) -> Result<Topology, Error> {
        let sys = system::find(&self.system)?;
        let m = sys.metrics()?;
        Ok(Topology { sys, m })
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for Topology {
    fn json(&self) -> serde_json::Result<Value> {
        let (sys, m) = (&self.sys, &self.m);
        Ok(json!({
            "system": sys.id,
            "fabric": sys.fabric().describe(),
            "chips": m.chips,
            "links": m.links,
            "degree": m.degree,
            "diameter_hops": m.diameter,
            "mean_hops": m.mean_hops,
            "bisection_bytes_per_s": m.bisection.get(),
            "injection_bytes_per_s": m.injection.get(),
            "blast_radius_chips": m.blast_radius,
            "scale_out_bytes_per_s": sys.scale_out.value.get(),
            "scale_out_latency_s": sys.scale_out_latency.value.get(),
            "hop_latency_s": sys.hop_latency.value.get(),
        }))
    }

    fn text(&self) -> Option<String> {
        let (sys, m) = (&self.sys, &self.m);
        Some(format!(
            "{} — {}: {} chips, {} links, degree {}, diameter {} hops, mean {:.3} hops, bisection {} per direction, injection {} per chip, blast radius {} chips",
            sys.name, sys.fabric().describe(), m.chips, m.links, m.degree, m.diameter, m.mean_hops, m.bisection, m.injection, m.blast_radius
        ))
    }
}
