//! Collectives over a cluster: analytic alpha-beta cost per algorithm, with algbw and busbw
//! as nccl-tests defines them, the latency and bandwidth terms apart, and the formula.
//!
//! Sizes follow nccl-tests: `S` is the per-rank buffer for all-reduce and broadcast, the
//! total output for all-gather, the total input for reduce-scatter and the per-rank send
//! buffer for all-to-all. `algbw = S / t`; `busbw = algbw × factor(op, n)`.

mod intra;
pub mod nccl;
pub mod sim;

use intra::{best_intra, intra, tiered};

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::system::{Cluster, Shape, System};
use crate::topology::Fabric;
use crate::units::{Bytes, BytesPerSec, Seconds};

/// A collective operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Op {
    /// Sum across ranks, result everywhere.
    AllReduce,
    /// Every rank's shard to every rank.
    AllGather,
    /// Sum across ranks, each rank keeps one shard.
    ReduceScatter,
    /// Every rank sends a distinct shard to every other.
    AllToAll,
    /// One rank's buffer to all.
    Broadcast,
}

impl Op {
    /// Every operation.
    pub const ALL: [Op; 5] = [
        Op::AllReduce,
        Op::AllGather,
        Op::ReduceScatter,
        Op::AllToAll,
        Op::Broadcast,
    ];
    /// Id in links and the CLI.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Op::AllReduce => "all-reduce",
            Op::AllGather => "all-gather",
            Op::ReduceScatter => "reduce-scatter",
            Op::AllToAll => "all-to-all",
            Op::Broadcast => "broadcast",
        }
    }
    /// busbw / algbw for `n` ranks, as nccl-tests computes it.
    #[must_use]
    pub fn bus_factor(self, n: u32) -> f64 {
        let n = f64::from(n);
        match self {
            Op::AllReduce => 2.0 * (n - 1.0) / n,
            Op::AllGather | Op::ReduceScatter | Op::AllToAll => (n - 1.0) / n,
            Op::Broadcast => 1.0,
        }
    }
}

impl FromStr for Op {
    type Err = CollectiveError;
    fn from_str(s: &str) -> Result<Self, CollectiveError> {
        let l = s.trim().to_ascii_lowercase().replace('_', "-");
        Op::ALL
            .into_iter()
            .find(|o| o.id() == l || o.id().replace('-', "") == l)
            .ok_or_else(|| CollectiveError::UnknownOp(s.into()))
    }
}

/// How the bytes move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Algorithm {
    /// The fastest of those the topology can run.
    Auto,
    /// One-directional ring through every chip.
    Ring,
    /// Two rings in opposite directions, each with half the data.
    BiRing,
    /// Dimension by dimension over a torus, bidirectional rings per axis, slow axis last.
    Torus,
    /// Recursive halving then doubling (hypercube, or a switch with a power-of-two count).
    HalvingDoubling,
    /// Every chip sends to every other at once through a switch.
    Direct,
    /// The switch reduces in flight (NVLink SHARP).
    InNetwork,
    /// Inside each scale-up domain, then across domains over scale-out, then back.
    Hierarchical,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Auto,
        Algorithm::Ring,
        Algorithm::BiRing,
        Algorithm::Torus,
        Algorithm::HalvingDoubling,
        Algorithm::Direct,
        Algorithm::InNetwork,
        Algorithm::Hierarchical,
    ];
    /// Id in links and the CLI.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Ring => "ring",
            Algorithm::BiRing => "bi-ring",
            Algorithm::Torus => "torus",
            Algorithm::HalvingDoubling => "halving-doubling",
            Algorithm::Direct => "direct",
            Algorithm::InNetwork => "in-network",
            Algorithm::Hierarchical => "hierarchical",
        }
    }
}

impl FromStr for Algorithm {
    type Err = CollectiveError;
    fn from_str(s: &str) -> Result<Self, CollectiveError> {
        let l = s.trim().to_ascii_lowercase().replace('_', "-");
        Algorithm::ALL
            .into_iter()
            .find(|a| a.id() == l)
            .ok_or_else(|| CollectiveError::UnknownAlgorithm(s.into()))
    }
}

fn ids<T: Copy>(all: &[T], id: fn(T) -> &'static str) -> String {
    all.iter().map(|x| id(*x)).collect::<Vec<_>>().join(", ")
}

/// Why a collective cannot be estimated.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CollectiveError {
    /// Not an operation id.
    UnknownOp(String),
    /// Not an algorithm id.
    UnknownAlgorithm(String),
    /// Not a system id (the message lists the valid ones).
    UnknownSystem(String),
    /// Size not positive and finite.
    BadSize(f64),
    /// Zero nodes.
    NoNodes,
    /// The algorithm cannot run on this topology or for this operation.
    NotApplicable {
        /// The algorithm.
        algorithm: Algorithm,
        /// The operation.
        op: Op,
        /// Why not.
        why: String,
    },
}

impl fmt::Display for CollectiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownOp(s) => write!(
                f,
                "unknown operation '{s}' (valid: {})",
                ids(&Op::ALL, Op::id)
            ),
            Self::UnknownAlgorithm(s) => write!(
                f,
                "unknown algorithm '{s}' (valid: {})",
                ids(&Algorithm::ALL, Algorithm::id)
            ),
            Self::UnknownSystem(m) => f.write_str(m),
            Self::BadSize(b) => write!(f, "the size must be a positive number of bytes, got {b}"),
            Self::NoNodes => f.write_str("the number of nodes must be at least 1"),
            Self::NotApplicable { algorithm, op, why } => {
                write!(f, "{} cannot run {} here: {why}", algorithm.id(), op.id())
            }
        }
    }
}

impl core::error::Error for CollectiveError {}

/// The result of one analytic estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The operation.
    pub op: Op,
    /// The algorithm that produced it (never `Auto`).
    pub algorithm: Algorithm,
    /// Ranks.
    pub ranks: u32,
    /// Size as nccl-tests counts it.
    pub bytes: Bytes,
    /// Total time.
    pub time: Seconds,
    /// Latency part (steps × per-step latency).
    pub latency_term: Seconds,
    /// Bandwidth part.
    pub bandwidth_term: Seconds,
    /// S / t.
    pub algbw: BytesPerSec,
    /// algbw × the op's bus factor.
    pub busbw: BytesPerSec,
    /// The formula with its inputs.
    pub formula: String,
}

/// The effective bandwidths and latencies a schedule sees.
struct Net {
    n: u32,
    alpha: f64,
    /// Per-direction effective link bandwidth per torus axis (one entry otherwise).
    links: Vec<f64>,
    /// Torus dims, if a torus.
    dims: Option<Vec<u32>>,
    switch: Option<(bool, f64)>,
    hypercube: bool,
    /// Nominal per-direction bandwidth of the first link or port, before efficiency.
    raw_link: f64,
    /// On NVIDIA systems, what NCCL's model needs.
    nccl: Option<nccl::Links>,
    /// Tier sizes of a tiered switch fabric (Trn3), innermost first.
    tiers: Option<Vec<u32>>,
    /// Whether formulas are written out.
    explain: bool,
}

impl Net {
    fn of(s: &System) -> Self {
        let eff = s.link_efficiency.value;
        let fabric = s.fabric();
        let links = s.links.iter().map(|l| l.value.get() * eff).collect();
        let (dims, switch, hypercube) = match (&fabric, &s.shape) {
            (Fabric::Torus { dims, .. }, _) => (Some(dims.clone()), None, false),
            (
                _,
                Shape::Switch {
                    in_network_reduction,
                    ..
                },
            ) => (
                None,
                Some((
                    *in_network_reduction,
                    s.in_network_efficiency.map_or(0.0, |e| e.value),
                )),
                false,
            ),
            (Fabric::Hypercube { .. }, _) => (None, None, true),
            _ => (None, None, false),
        };
        let raw_link = s.links[0].value.get();
        let nccl = nccl::Gen::of(s.chip).map(|gen| nccl::Links {
            n: fabric.chips(),
            ring_bw: raw_link * eff,
            nvls_bw: match switch {
                Some((true, e)) => Some(2.0 * raw_link * e),
                _ => None,
            },
            net_bw: s.scale_out.value.get() * s.scale_out_efficiency.value,
            net_extra: s.scale_out_latency.value.get(),
            gen,
            explain: true,
        });
        let tiers = match &fabric {
            Fabric::Tiered { tiers, .. } => Some(tiers.clone()),
            _ => None,
        };
        Net {
            n: fabric.chips(),
            alpha: s.hop_latency.value.get(),
            links,
            dims,
            switch,
            hypercube,
            raw_link,
            nccl,
            tiers,
            explain: true,
        }
    }
    /// The same network with its formulas left unwritten.
    fn quiet(s: &System) -> Self {
        let mut n = Self::of(s);
        n.explain = false;
        if let Some(l) = &mut n.nccl {
            l.explain = false;
        }
        n
    }
    /// The slowest link a ring through every chip must use.
    fn ring_bw(&self) -> f64 {
        self.links.iter().copied().fold(f64::INFINITY, f64::min)
    }
}

/// `format!` when `explain` is set, an empty string otherwise: searches that evaluate
/// thousands of candidates and show none of their formulas skip writing them.
macro_rules! say {
    ($explain:expr, $($t:tt)*) => {
        if $explain {
            alloc::format!($($t)*)
        } else {
            String::new()
        }
    };
}
pub(crate) use say;

struct Terms {
    lat: f64,
    bw: f64,
    formula: String,
}

fn us(x: f64) -> String {
    Seconds::new(x).display_si()
}
fn bps(x: f64) -> String {
    BytesPerSec::new(x).display_si()
}

/// The time of `op` among `k` chips of one scale-up domain as its collective library would
/// run it, where the library's choice depends on the group size (NCCL on NVIDIA systems);
/// `None` elsewhere, or for all-to-all.
#[must_use]
pub fn subgroup_time(sys: &System, op: Op, k: u32, bytes: Bytes) -> Option<f64> {
    let net = Net::quiet(sys);
    if let Some(tiers) = &net.tiers {
        // A group of k neighbouring chips fills the innermost tiers first.
        let mut left = k.max(1);
        let mut sub = Vec::new();
        for &t in tiers {
            let here = left.min(t);
            sub.push(here);
            left = left.div_ceil(here.max(1));
            if left <= 1 {
                break;
            }
        }
        let t = tiered(&sub, &net.links, net.alpha, op, bytes.get(), false);
        return Some(t.lat + t.bw);
    }
    let l = net.nccl?;
    if op == Op::AllToAll || k < 2 {
        return None;
    }
    nccl::subgroup(&l, k, op, bytes.get()).map(|c| c.lat + c.bw)
}

/// What Neuron pays to launch one collective on its own, as nccom-test times it, beyond the
/// collective itself (a collective inside a compiled graph does not pay it). Fitted to one
/// measurement: nccom-test's all-gather of 1 KiB over the 64 ranks of a Trn2 instance at
/// LNC=2, 101.14 µs (Neuron 2.32 documentation, `--streams-json` example), by the re-fit in
/// `calibration`; its 1 MiB point (117.67 µs) checks it.
pub const NEURON_STANDALONE_LAUNCH_S: f64 = 92e-6;

/// The fixed cost of launching one collective on its own on `sys`: Neuron's on Trainium;
/// nothing on NVIDIA and AMD systems, whose libraries' latency constants already are what
/// their benchmarks time.
#[must_use]
pub fn standalone_launch(sys: &System) -> f64 {
    // A system names a preset chip; the presets that run Neuron are those whose ids start
    // with "trn" (a test holds this to `Chip::runs_neuron`), which spares a chart of many
    // sizes a catalog lookup per point.
    if sys.chip.starts_with("trn") {
        NEURON_STANDALONE_LAUNCH_S
    } else {
        0.0
    }
}

/// [`estimate`] as a benchmark of one collective launched on its own times it (nccl-tests,
/// rccl-tests, nccom-test): with [`standalone_launch`] added.
///
/// # Errors
/// As [`estimate`].
pub fn standalone(
    cluster: &Cluster,
    op: Op,
    bytes: Bytes,
    algorithm: Algorithm,
) -> Result<Estimate, CollectiveError> {
    let mut e = estimate(cluster, op, bytes, algorithm)?;
    let launch = standalone_launch(&cluster.system);
    if launch > 0.0 {
        e.time = Seconds::new(e.time.get() + launch);
        e.latency_term = Seconds::new(e.latency_term.get() + launch);
        e.algbw = BytesPerSec::new(bytes.get() / e.time.get());
        e.busbw = BytesPerSec::new(e.algbw.get() * op.bus_factor(e.ranks));
        e.formula = format!(
            "{}; + Neuron's launch of a collective on its own {} (as nccom-test times it; none inside a compiled graph)",
            e.formula,
            us(launch)
        );
    }
    Ok(e)
}

/// Estimate `op` of `bytes` with `algorithm` on `cluster`.
///
/// # Errors
/// When the size or node count makes no sense, or the algorithm cannot run there.
pub fn estimate(
    cluster: &Cluster,
    op: Op,
    bytes: Bytes,
    algorithm: Algorithm,
) -> Result<Estimate, CollectiveError> {
    estimate_with(&cluster.system, cluster.nodes, op, bytes, algorithm, true)
}

/// [`estimate`] with its formula left empty: for searches that use only the times. With the
/// cluster as its system and node count: a search asks this of groups of its cluster's
/// domains, and need not copy the system for each.
///
/// # Errors
/// As [`estimate`].
pub(crate) fn estimate_quiet(
    sys: &System,
    nodes: u32,
    op: Op,
    bytes: Bytes,
    algorithm: Algorithm,
) -> Result<Estimate, CollectiveError> {
    estimate_with(sys, nodes, op, bytes, algorithm, false)
}

fn estimate_with(
    sys: &System,
    nodes: u32,
    op: Op,
    bytes: Bytes,
    algorithm: Algorithm,
    explain: bool,
) -> Result<Estimate, CollectiveError> {
    let s = bytes.get();
    if !(s.is_finite() && s > 0.0) {
        return Err(CollectiveError::BadSize(s));
    }
    if nodes == 0 {
        return Err(CollectiveError::NoNodes);
    }
    let net = if explain {
        Net::of(sys)
    } else {
        Net::quiet(sys)
    };
    let na = |why: &str| CollectiveError::NotApplicable {
        algorithm,
        op,
        why: why.into(),
    };
    let ranks = net.n * nodes;
    let (algo, t) = if nodes == 1 {
        if algorithm == Algorithm::Hierarchical {
            return Err(na("needs more than one node"));
        }
        if algorithm == Algorithm::Auto {
            best_intra(&net, op, s).ok_or_else(|| na("no algorithm fits"))?
        } else {
            let t = intra(&net, op, algorithm, s).map_err(|w| na(&w))?;
            (algorithm, t)
        }
    } else if let Some(l) = &net.nccl {
        let from = |c: nccl::Choice| Terms {
            lat: c.lat,
            bw: c.bw,
            formula: c.formula,
        };
        if op == Op::AllToAll {
            // NCCL sends an all-to-all directly to every peer, across nodes too.
            return match algorithm {
                Algorithm::Auto | Algorithm::Direct => {
                    let t = from(nccl::alltoall(l, nodes, s));
                    Ok(finish(op, Algorithm::Direct, ranks, bytes, t))
                }
                _ => Err(na(
                    "across nodes NCCL sends an all-to-all directly to every peer",
                )),
            };
        }
        let ring = nccl::ring(l, nodes, op, s).map(from);
        let tree = if op == Op::AllReduce {
            nccl::tree(l, nodes, s).map(from)
        } else {
            hierarchical(&net, sys, nodes, op, s).ok()
        };
        // Across nodes NCCL gathers, reduce-scatters and broadcasts in rings: its other
        // algorithms for them need in-network reduction on the scale-out network (CollNet) or
        // one rank a node (PAT), so its own choice never runs them in two levels; asked for,
        // the two-level form stays as a what-if.
        let two_level_auto = op == Op::AllReduce;
        match (algorithm, ring, tree) {
            (Algorithm::Ring, Some(r), _) => (Algorithm::Ring, r),
            (Algorithm::Hierarchical, _, Some(t)) => (Algorithm::Hierarchical, t),
            (Algorithm::Auto, Some(r), Some(_)) if !two_level_auto => (Algorithm::Ring, r),
            (Algorithm::Auto, Some(r), Some(t)) => {
                if t.lat + t.bw <= r.lat + r.bw {
                    (Algorithm::Hierarchical, t)
                } else {
                    (Algorithm::Ring, r)
                }
            }
            (Algorithm::Auto, Some(r), None) => (Algorithm::Ring, r),
            _ => return Err(na("across nodes NCCL runs rings and trees")),
        }
    } else {
        let hier = hierarchical(&net, sys, nodes, op, s);
        let flat = flat_ring(&net, sys, nodes, op, s);
        match algorithm {
            Algorithm::Hierarchical => (Algorithm::Hierarchical, hier.map_err(|w| na(&w))?),
            Algorithm::Ring => (Algorithm::Ring, flat),
            Algorithm::Auto => {
                let h = hier.map_err(|w| na(&w))?;
                if h.lat + h.bw <= flat.lat + flat.bw {
                    (Algorithm::Hierarchical, h)
                } else {
                    (Algorithm::Ring, flat)
                }
            }
            _ => return Err(na("across nodes only ring and hierarchical run")),
        }
    };
    Ok(finish(op, algo, ranks, bytes, t))
}

/// An estimate from its latency and bandwidth parts.
fn finish(op: Op, algorithm: Algorithm, ranks: u32, bytes: Bytes, t: Terms) -> Estimate {
    let time = t.lat + t.bw;
    let algbw = bytes.get() / time;
    Estimate {
        op,
        algorithm,
        ranks,
        bytes,
        time: Seconds::new(time),
        latency_term: Seconds::new(t.lat),
        bandwidth_term: Seconds::new(t.bw),
        algbw: BytesPerSec::new(algbw),
        busbw: BytesPerSec::new(algbw * op.bus_factor(ranks)),
        formula: t.formula,
    }
}

/// Scale-up, then scale-out across nodes on each chip's shard, then scale-up again.
fn hierarchical(net: &Net, sys: &System, nodes: u32, op: Op, s: f64) -> Result<Terms, String> {
    let m = f64::from(nodes);
    let n = f64::from(net.n);
    let ao = sys.scale_out_latency.value.get();
    let bo = sys.scale_out.value.get() * sys.scale_out_efficiency.value;
    let (inner_op, outer_bytes, outer_steps, outer_f) = match op {
        Op::AllReduce => (
            Op::ReduceScatter,
            2.0 * (m - 1.0) / m * s / n,
            2.0 * (m - 1.0),
            "2(m−1)·(αₒ + S/(n·m·Bₒ))",
        ),
        Op::AllGather | Op::ReduceScatter => (
            op,
            (m - 1.0) / m * s / n,
            m - 1.0,
            "(m−1)·(αₒ + S/(n·m·Bₒ))",
        ),
        Op::AllToAll => (op, (m - 1.0) / m * s, 1.0, "αₒ + S·(m−1)/(m·Bₒ)"),
        Op::Broadcast => (
            op,
            s / n,
            m - 1.0,
            "(m−1)·αₒ + S/(n·Bₒ) (each chip forwards its slice)",
        ),
    };
    // The intra-domain part: for all-reduce a reduce-scatter before and an all-gather after.
    let inner_s = match op {
        Op::AllGather | Op::ReduceScatter => s / m,
        _ => s,
    };
    let (ia, it) = best_intra(net, inner_op, inner_s).ok_or("no intra-domain algorithm fits")?;
    let (lat_in, bw_in) = match op {
        Op::AllReduce => {
            let (_, ag) =
                best_intra(net, Op::AllGather, s).ok_or("no intra-domain algorithm fits")?;
            (it.lat + ag.lat, it.bw + ag.bw)
        }
        _ => (it.lat, it.bw),
    };
    // Chunks stream through the phases: the domain's links carry the inner phases while the
    // network carries the outer one, so the slower of the two sets the rate.
    Ok(Terms {
        lat: lat_in + outer_steps * ao,
        bw: bw_in.max(outer_bytes / bo),
        formula: say!(net.explain,
            "pipelined: latencies add, the slower of the domain's links and the network sets the rate; inside each domain ({}, {}), across {nodes} nodes {outer_f} with αₒ={}, Bₒ={} per chip",
            ia.id(),
            it.formula,
            us(ao),
            bps(bo)
        ),
    })
}

/// One ring through all chips of all nodes: every step waits for the slowest hop.
fn flat_ring(net: &Net, sys: &System, nodes: u32, op: Op, s: f64) -> Terms {
    let n = f64::from(net.n * nodes);
    let a = net.alpha.max(sys.scale_out_latency.value.get());
    let b = net
        .ring_bw()
        .min(sys.scale_out.value.get() * sys.scale_out_efficiency.value);
    let (steps, bytes) = match op {
        Op::AllReduce => (2.0 * (n - 1.0), 2.0 * (n - 1.0) * s / n),
        Op::AllGather | Op::ReduceScatter => (n - 1.0, (n - 1.0) * s / n),
        Op::Broadcast => (n - 1.0, s),
        Op::AllToAll => (n - 1.0, s * (n - 1.0) / 2.0),
    };
    Terms {
        lat: steps * a,
        bw: bytes / b,
        formula: say!(net.explain,
            "flat ring over {} chips: steps·α + bytes/B with α={} (slowest hop), B={} (slowest link)",
            net.n * nodes,
            us(a),
            bps(b)
        ),
    }
}

/// `1.5 µs`-style text for a size and a time, for formulas and tables.
#[must_use]
pub fn describe(e: &Estimate) -> String {
    format!(
        "{} of {} on {} ranks with {}: {} (latency {}, bandwidth {}), busbw {}",
        e.op.id(),
        e.bytes.display_memory(),
        e.ranks,
        e.algorithm.id(),
        e.time,
        e.latency_term,
        e.bandwidth_term,
        e.busbw
    )
}

#[cfg(test)]
mod tests;
