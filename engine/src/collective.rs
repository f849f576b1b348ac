//! Collectives over a cluster: analytic alpha-beta cost per algorithm, with algbw and busbw
//! as nccl-tests defines them, the latency and bandwidth terms apart, and the formula.
//!
//! Sizes follow nccl-tests: `S` is the per-rank buffer for all-reduce and broadcast, the
//! total output for all-gather, the total input for reduce-scatter and the per-rank send
//! buffer for all-to-all. `algbw = S / t`; `busbw = algbw × factor(op, n)`.

pub mod nccl;
pub mod sim;

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

/// Terms of one algorithm on one scale-up domain (no scale-out).
fn intra(net: &Net, op: Op, algo: Algorithm, s: f64) -> Result<Terms, String> {
    let n = f64::from(net.n);
    let a = net.alpha;
    let shard = s / n;
    if let Some(l) = &net.nccl {
        let from = |c: nccl::Choice| Terms {
            lat: c.lat,
            bw: c.bw,
            formula: c.formula,
        };
        match (algo, op) {
            (Algorithm::Ring, _) => {
                return nccl::ring(l, 1, op, s)
                    .map(from)
                    .ok_or_else(|| "no protocol fits".into())
            }
            (Algorithm::InNetwork, Op::AllReduce) if l.nvls_bw.is_some() => {
                return nccl::tree(l, 1, s)
                    .map(from)
                    .ok_or_else(|| "no protocol fits".into())
            }
            (Algorithm::BiRing, _) => return Err("NCCL runs one-directional rings".into()),
            _ => {}
        }
    }
    Ok(match algo {
        Algorithm::Ring | Algorithm::BiRing => {
            let dirs = if algo == Algorithm::BiRing { 2.0 } else { 1.0 };
            if algo == Algorithm::BiRing && net.switch.is_some() {
                return Err("a switch port is one link; two rings share it".into());
            }
            let b = net.ring_bw() * dirs;
            let (steps, bytes, f) = match op {
                Op::AllReduce => (
                    2.0 * (n - 1.0),
                    2.0 * (n - 1.0) * shard,
                    "2(n−1)·(α + S/(n·B))",
                ),
                Op::AllGather | Op::ReduceScatter => {
                    ((n - 1.0), (n - 1.0) * shard, "(n−1)·(α + S/(n·B))")
                }
                Op::Broadcast => ((n - 1.0), s, "(n−1)·α + S/B (pipelined)"),
                Op::AllToAll => (
                    (n - 1.0),
                    s * (n - 1.0) / 2.0,
                    "(n−1)·α + S·(n−1)/(2B) (shifted ring)",
                ),
            };
            Terms {
                lat: steps * a,
                bw: bytes / b,
                formula: say!(
                    net.explain,
                    "{f} with n={}, α={}, B={}",
                    net.n,
                    us(a),
                    bps(b)
                ),
            }
        }
        Algorithm::Torus => {
            let Some(dims) = &net.dims else {
                return Err("needs a torus".into());
            };
            if op == Op::AllToAll {
                // Bisection-bound: half the chips send S/n to each chip of the other half.
                let fabric = Fabric::Torus {
                    dims: dims.clone(),
                    links: net.links.iter().map(|b| BytesPerSec::new(*b)).collect(),
                };
                let bis = fabric.bisection().get();
                let inj = fabric.injection().get();
                let diam = f64::from(dims.iter().map(|k| k / 2).sum::<u32>());
                let t_inj = s * (n - 1.0) / n / inj;
                let t_bis = n * s / 4.0 / bis;
                return Ok(Terms {
                    lat: diam * a,
                    bw: t_inj.max(t_bis),
                    formula: say!(net.explain,
                        "D·α + max(S·(n−1)/(n·inj), n·S/(4·bisection)) with D={diam}, α={}, inj={}, bisection={}",
                        us(a),
                        bps(inj),
                        bps(bis)
                    ),
                });
            }
            // Fast axes first: the slow axis works on the smallest shard.
            let mut order: Vec<usize> = (0..dims.len()).collect();
            order.sort_by(|x, y| net.links[*y].total_cmp(&net.links[*x]));
            let (mut lat, mut bw, mut data) = (0.0, 0.0, s);
            let mut parts = Vec::new();
            for &i in &order {
                let k = f64::from(dims[i]);
                let dirs = if dims[i] > 2 { 2.0 } else { 1.0 };
                let b = net.links[i] * dirs;
                let (l, w) = match op {
                    Op::Broadcast => ((k - 1.0) * a, s / b),
                    _ => ((k - 1.0) * a, (k - 1.0) * data / k / b),
                };
                lat += l;
                bw += w;
                parts.push(say!(net.explain, "k={} at {}", dims[i], bps(b)));
                data /= k;
            }
            if matches!(op, Op::AllReduce) {
                lat *= 2.0;
                bw *= 2.0;
            }
            let f = match op {
                Op::AllReduce => "2·Σᵢ (kᵢ−1)·(α + Sᵢ/(kᵢ·Bᵢ)), Sᵢ₊₁ = Sᵢ/kᵢ",
                Op::Broadcast => "Σᵢ (kᵢ−1)·α + S/Bᵢ (pipelined per axis)",
                _ => "Σᵢ (kᵢ−1)·(α + Sᵢ/(kᵢ·Bᵢ)), Sᵢ₊₁ = Sᵢ/kᵢ",
            };
            Terms {
                lat,
                bw,
                formula: say!(
                    net.explain,
                    "{f}; axes fast to slow: {}; α={}",
                    parts.join(", "),
                    us(a)
                ),
            }
        }
        Algorithm::HalvingDoubling => {
            if !(net.hypercube || net.switch.is_some()) || !net.n.is_power_of_two() {
                return Err("needs a hypercube, or a switch with a power-of-two chip count".into());
            }
            let d = f64::from(net.n.trailing_zeros());
            let b = net.ring_bw();
            let one = (d * a, s * (n - 1.0) / n / b);
            let (lat, bw, f) = match op {
                Op::AllReduce => (2.0 * one.0, 2.0 * one.1, "2·(log₂n·α + S·(n−1)/(n·B))"),
                Op::AllGather | Op::ReduceScatter => (one.0, one.1, "log₂n·α + S·(n−1)/(n·B)"),
                Op::Broadcast => (d * a, d * s / b, "log₂n·(α + S/B) (binomial tree)"),
                Op::AllToAll => (d * a, d * s / 2.0 / b, "log₂n·(α + S/(2B)) (Bruck)"),
            };
            Terms {
                lat,
                bw,
                formula: say!(
                    net.explain,
                    "{f} with n={}, α={}, B={}",
                    net.n,
                    us(a),
                    bps(b)
                ),
            }
        }
        Algorithm::Direct if net.tiers.is_some() => {
            let tiers = net.tiers.as_deref().unwrap_or(&[]);
            tiered(tiers, &net.links, a, op, s, net.explain)
        }
        Algorithm::Direct => {
            if net.switch.is_none() {
                return Err("needs a switch: every chip must reach every other in one hop".into());
            }
            let b = net.links[0];
            let (steps, bytes, f) = match op {
                Op::AllReduce => (2.0, 2.0 * (n - 1.0) * shard, "2·(α + S·(n−1)/(n·B))"),
                Op::AllGather | Op::ReduceScatter | Op::AllToAll => {
                    (1.0, (n - 1.0) * shard, "α + S·(n−1)/(n·B)")
                }
                Op::Broadcast => (
                    2.0,
                    2.0 * (n - 1.0) * shard,
                    "2·(α + S·(n−1)/(n·B)) (scatter, then all-gather)",
                ),
            };
            Terms {
                lat: steps * a,
                bw: bytes / b,
                formula: say!(
                    net.explain,
                    "{f} with n={}, α={}, B={} per port",
                    net.n,
                    us(a),
                    bps(b)
                ),
            }
        }
        Algorithm::InNetwork => {
            let Some((true, e)) = net.switch else {
                return Err("needs a switch that reduces in flight".into());
            };
            // Its own efficiency replaces the link efficiency: a bus rate, a fraction of a
            // port's two directions, which holds as ranks are added (as NCCL models NVLS).
            let bus = 2.0 * net.raw_link * e;
            let b = bus * n / (2.0 * (n - 1.0));
            match op {
                Op::AllReduce => Terms {
                    lat: 2.0 * a,
                    bw: s / b,
                    formula: say!(
                        net.explain,
                        "2α + S·2(n−1)/(n·busbw) with α={}, busbw={} (two port directions × in-network efficiency), n={}",
                        us(a),
                        bps(bus),
                        net.n
                    ),
                },
                Op::Broadcast => Terms {
                    lat: 2.0 * a,
                    bw: s / b,
                    formula: say!(
                        net.explain,
                        "2α + S/(B·e) (switch multicast) with α={}, B·e={}",
                        us(a),
                        bps(b)
                    ),
                },
                _ => return Err("in-network reduction serves all-reduce and broadcast".into()),
            }
        }
        Algorithm::Hierarchical | Algorithm::Auto => {
            return Err("not an intra-domain algorithm".into())
        }
    })
}

/// Tier by tier through a tiered switch fabric: at each tier the chips that share its
/// switch (or its direct links) exchange directly at that tier's port rate, on a shard that
/// shrinks tier by tier, so the slowest tier (the racks' direct links) moves the least.
fn tiered(tiers: &[u32], ports: &[f64], a: f64, op: Op, s: f64, explain: bool) -> Terms {
    let n: f64 = tiers.iter().map(|k| f64::from(*k)).product();
    if op == Op::AllToAll {
        // Each chip's S/n to every other chip: the share bound for another rack crosses the
        // direct links; the rest of the rack's share crosses the rack switch (with what the
        // direct link brings in, forwarded); the server's share its own switch.
        let server = f64::from(tiers[0]);
        let rack = server * f64::from(tiers.get(1).copied().unwrap_or(1));
        let port = |i: usize| ports[i.min(ports.len() - 1)];
        let t_racks = s * (n - rack) / n / port(2);
        let t_rack = (s * (rack - server) / n + s * (n - rack) / n * (rack - 1.0) / rack) / port(1);
        let t_server = s * (server - 1.0) / n / port(0);
        let levels = tiers.iter().filter(|k| **k > 1).count() as f64;
        return Terms {
            lat: levels * a,
            bw: t_racks.max(t_rack).max(t_server),
            formula: say!(explain,
                "tiers at once: max(other racks S·(n−r)/n ÷ {}, rack S·(r−s)/n (+ forwarded) ÷ {}, server S·(s−1)/n ÷ {}) with n={n}, r={rack}, s={server}",
                bps(port(2)),
                bps(port(1)),
                bps(port(0))
            ),
        };
    }
    let (mut lat, mut bw, mut data) = (0.0, 0.0, s);
    let mut parts = Vec::new();
    for (i, &k) in tiers.iter().enumerate() {
        if k < 2 {
            continue;
        }
        let kf = f64::from(k);
        let b = ports[i.min(ports.len() - 1)];
        let w = match op {
            Op::Broadcast => s / b,
            _ => (kf - 1.0) / kf * data / b,
        };
        // Each tier has links of its own, so chunks stream through the tiers together: the
        // slowest tier sets the rate (as the pipelined hierarchy across nodes does).
        lat += a;
        bw = f64::max(bw, w);
        parts.push(say!(explain, "{k} at {}", bps(b)));
        data /= kf;
    }
    if op == Op::AllReduce {
        lat *= 2.0;
        bw *= 2.0;
    }
    Terms {
        lat,
        bw,
        formula: say!(explain,
            "{}tier by tier, pipelined: Σᵢ α + maxᵢ (kᵢ−1)/kᵢ · Sᵢ ÷ Bᵢ, Sᵢ₊₁ = Sᵢ/kᵢ; tiers {}; α={}",
            if op == Op::AllReduce { "2 × " } else { "" },
            parts.join(", then "),
            us(a)
        ),
    }
}

/// Algorithms to try for `auto`, in order of preference on ties.
const INTRA: [Algorithm; 6] = [
    Algorithm::InNetwork,
    Algorithm::Torus,
    Algorithm::HalvingDoubling,
    Algorithm::Direct,
    Algorithm::BiRing,
    Algorithm::Ring,
];

fn best_intra(net: &Net, op: Op, s: f64) -> Option<(Algorithm, Terms)> {
    INTRA
        .iter()
        // NCCL runs rings, NVLS, and direct sends for all-to-all; nothing else.
        .filter(|a| {
            net.nccl.is_none()
                || matches!(a, Algorithm::Ring | Algorithm::InNetwork)
                || (**a == Algorithm::Direct && op == Op::AllToAll)
        })
        .filter_map(|a| intra(net, op, *a, s).ok().map(|t| (*a, t)))
        .min_by(|x, y| (x.1.lat + x.1.bw).total_cmp(&(y.1.lat + y.1.bw)))
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
    estimate_with(cluster, op, bytes, algorithm, true)
}

/// [`estimate`] with its formula left empty: for searches that use only the times.
///
/// # Errors
/// As [`estimate`].
pub(crate) fn estimate_quiet(
    cluster: &Cluster,
    op: Op,
    bytes: Bytes,
    algorithm: Algorithm,
) -> Result<Estimate, CollectiveError> {
    estimate_with(cluster, op, bytes, algorithm, false)
}

fn estimate_with(
    cluster: &Cluster,
    op: Op,
    bytes: Bytes,
    algorithm: Algorithm,
    explain: bool,
) -> Result<Estimate, CollectiveError> {
    let s = bytes.get();
    if !(s.is_finite() && s > 0.0) {
        return Err(CollectiveError::BadSize(s));
    }
    if cluster.nodes == 0 {
        return Err(CollectiveError::NoNodes);
    }
    let sys = &cluster.system;
    let net = if explain {
        Net::of(sys)
    } else {
        Net::quiet(sys)
    };
    let nodes = cluster.nodes;
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
        match (algorithm, ring, tree) {
            (Algorithm::Ring, Some(r), _) => (Algorithm::Ring, r),
            (Algorithm::Hierarchical, _, Some(t)) => (Algorithm::Hierarchical, t),
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
