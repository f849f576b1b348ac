//! `accelscope collective`: the time, algbw and busbw of one collective.

use engine::collective::{self, sim, standalone, Algorithm, Estimate, Op};
use engine::system::{self, Cluster};
use engine::Bytes;
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::parse::{self, Check};
use crate::report::{Format, Report};

/// Time, algbw and busbw of one collective
///
/// The time, algorithm bandwidth and bus bandwidth of one collective, with its latency and
/// bandwidth terms and the formula; --sim also simulates it on the fabric, link by link.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The system, as `accelscope systems` lists them
    #[arg(long, value_name = "ID")]
    system: String,
    /// Scale-up domains (nodes) taking part
    #[arg(long, value_name = "N", default_value_t = 1, allow_hyphen_values = true,
          value_parser = parse::keyed("nodes"))]
    nodes: u32,
    /// The operation: all-reduce, all-gather, reduce-scatter, all-to-all, broadcast
    #[arg(long, value_name = "OP", value_parser = parse::parsed::<Op>())]
    op: Op,
    /// The size each rank contributes, e.g. 1GiB, 512KiB, 64MB
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true, value_parser = size())]
    bytes: Bytes,
    /// The algorithm: auto, ring, bi-ring, torus, halving-doubling, direct, in-network,
    /// hierarchical
    #[arg(long, value_name = "A", default_value = "auto", value_parser = parse::parsed::<Algorithm>())]
    algo: Algorithm,
    /// Also simulate it on the fabric, link by link (one scale-up domain)
    #[arg(long)]
    sim: bool,
    #[command(flatten)]
    out: Json,
}

/// A size within the range of the link key `size`.
fn size() -> Check<impl Fn(&str, &str) -> Result<Bytes, String> + Clone> {
    Check(|_: &str, x: &str| {
        let bytes: Bytes = x
            .parse()
            .map_err(|e: engine::ParseQuantityError| e.to_string())?;
        let (lo, hi) = engine::scenario::keys::range("size").unwrap_or((1.0, 1e15));
        if !(lo..=hi).contains(&bytes.get()) {
            return Err(format!(
                "--bytes must be from {} to {} (as the link key size), got {:e}",
                Bytes::new(lo).display_si(),
                Bytes::new(hi).display_si(),
                bytes.get()
            ));
        }
        Ok(bytes)
    })
}

/// The simulation of a collective beside the analytic figure.
pub struct Simulated {
    algorithm: Algorithm,
    result: sim::SimResult,
}

/// A collective's estimate, and its simulation if asked for.
pub struct CollectiveReport {
    cluster: Cluster,
    op: Op,
    bytes: Bytes,
    e: Estimate,
    sim: Option<Simulated>,
}

impl Run for Args {
    type Output = CollectiveReport;
    fn run(&self) -> Result<CollectiveReport, Error> {
        let sys = system::find(&self.system)?;
        let (op, bytes) = (self.op, self.bytes);
        let cluster = Cluster {
            system: sys,
            nodes: self.nodes,
        };
        let e = standalone(&cluster, op, bytes, self.algo)?;
        let sim = if self.sim {
            if self.nodes > 1 {
                return Err(Error::usage(
                    "--sim simulates one scale-up domain; use --nodes 1",
                ));
            }
            let algorithm = if op == Op::AllToAll {
                Algorithm::Direct
            } else {
                e.algorithm
            };
            let result = sim::simulate(
                &cluster.system.fabric(),
                op,
                bytes,
                algorithm,
                cluster.system.hop_latency.value,
                cluster.system.link_efficiency.value,
            )?;
            Some(Simulated { algorithm, result })
        } else {
            None
        };
        Ok(CollectiveReport {
            cluster,
            op,
            bytes,
            e,
            sim,
        })
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for CollectiveReport {
    fn json(&self) -> serde_json::Result<Value> {
        let e = &self.e;
        let mut v = json!({
            "system": self.cluster.system.id,
            "nodes": self.cluster.nodes,
            "ranks": e.ranks,
            "op": self.op.id(),
            "bytes": self.bytes.get(),
            "algorithm": e.algorithm.id(),
            "time_s": e.time.get(),
            "latency_term_s": e.latency_term.get(),
            "bandwidth_term_s": e.bandwidth_term.get(),
            "algbw_bytes_per_s": e.algbw.get(),
            "busbw_bytes_per_s": e.busbw.get(),
            "formula": e.formula,
        });
        if let Some(s) = &self.sim {
            let r = &s.result;
            v["simulated"] = json!({
                "algorithm": s.algorithm.id(),
                "time_s": r.time.get(),
                "steps": r.steps,
                "max_link_sharing": r.max_link_sharing,
                "simulated_over_analytic": r.time.get() / e.time.get(),
            });
        }
        Ok(v)
    }

    fn text(&self) -> Option<String> {
        Some(collective::describe(&self.e) + "\n" + &self.e.formula)
    }
}
