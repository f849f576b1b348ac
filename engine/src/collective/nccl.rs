//! Collectives as NCCL runs them on NVIDIA systems: its protocols (LL, LL128, Simple) with
//! their latencies and the share of the link each carries, NVLink SHARP (NVLS), and across
//! nodes rail-aligned rings and trees whose phases pipeline instead of running one after
//! another. NCCL picks the fastest algorithm and protocol for each size; so does this model.
//!
//! AMD's RCCL is a fork of NCCL with the same protocols; Instinct systems use this model too.
//!
//! The latencies are NCCL's own tuning constants (`src/graph/tuning.cc`); they make the
//! slow ramp of bus bandwidth at small and mid sizes that a single alpha-beta line misses.

use alloc::format;
use alloc::string::String;

use crate::source::Citation;
use crate::units::{BytesPerSec, Seconds};

use super::Op;

/// NCCL's tuning model: base and per-step latencies per algorithm and protocol.
pub static NCCL_TUNING: Citation = Citation {
    key: "NCCL-TUNING",
    title: "NVIDIA NCCL, src/graph/tuning.cc (commit 5067397c): baseLatencies, hwLatencies (NVLink, network), protocol bandwidth factors",
    url: "https://github.com/NVIDIA/nccl/blob/5067397c2676d5aed50042fc39e5c8ee96eb0027/src/graph/tuning.cc",
    date: "2026-06-11",
};
pub use crate::citations::{AWSOME_NCCL, AZURE_NCCL, COREWEAVE_NCCL, DGXC_NCCL, RCCL_MI300X};

/// The pipeline fill of an NVLS all-reduce beyond NCCL's latency constant: chunks must
/// reach the switch and come back before the stream runs at full rate. Fitted to one point,
/// the DGX H100 all-reduce of 16 MiB (123.8 µs); the other sizes and systems check it, each
/// in the role the calibration gives it.
pub const NVLS_FILL_S: f64 = 37.6e-6;

/// NCCL's three wire protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// 8-byte stores carrying 4 bytes and a flag: lowest latency, half the bandwidth.
    Ll,
    /// 128-byte lines with an 8-byte flag.
    Ll128,
    /// Bulk copies with a fence per chunk.
    Simple,
}

impl Proto {
    /// Every protocol.
    pub const ALL: [Proto; 3] = [Proto::Ll, Proto::Ll128, Proto::Simple];
    /// Name as NCCL prints it.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Proto::Ll => "LL",
            Proto::Ll128 => "LL128",
            Proto::Simple => "Simple",
        }
    }
    /// Share of the link's bandwidth the protocol carries (tuning.cc: ×0.5, ×0.92, ×1).
    const fn share(self) -> f64 {
        match self {
            Proto::Ll => 0.5,
            Proto::Ll128 => 0.92,
            Proto::Simple => 1.0,
        }
    }
    /// (base, per NVLink step, per network step) latencies of a ring, µs.
    const fn ring(self) -> (f64, f64, f64) {
        match self {
            Proto::Ll => (6.6, 0.6, 2.7),
            Proto::Ll128 => (14.0, 1.9, 4.0),
            Proto::Simple => (8.4, 3.4, 14.0),
        }
    }
    /// Share of the link a tree carries in this protocol (tuning.cc: LL ÷3.8, LL128
    /// ×120/128 across nodes).
    const fn tree_share(self) -> f64 {
        match self {
            Proto::Ll => 1.0 / 3.8,
            Proto::Ll128 => 120.0 / 128.0,
            Proto::Simple => 1.0,
        }
    }
    /// (base, per NVLink step, per network step) latencies of a tree, µs.
    const fn tree(self) -> (f64, f64, f64) {
        match self {
            Proto::Ll => (6.8, 0.6, 5.0),
            Proto::Ll128 => (14.0, 1.25, 8.5),
            Proto::Simple => (8.4, 4.0, 14.0),
        }
    }
}

/// GPU generation, for NCCL's (and RCCL's) per-generation limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gen {
    /// H100, H200.
    Hopper,
    /// B200, GB200, GB300.
    Blackwell,
    /// AMD Instinct (RCCL, NCCL's fork, with the same protocols and constants).
    Cdna,
}

impl Gen {
    /// The generation of a catalog chip id, if NCCL runs its collectives.
    #[must_use]
    pub fn of(chip: &str) -> Option<Gen> {
        match chip {
            "h100-sxm" | "h200" => Some(Gen::Hopper),
            // Rubin: an assumption until NCCL publishes its constants for it.
            "b200" | "gb200" | "gb300" | "b300" | "rubin" => Some(Gen::Blackwell),
            "mi300x" | "mi325x" | "mi355x" | "mi455x" => Some(Gen::Cdna),
            _ => None,
        }
    }
    /// The fewest GPUs on which NCCL runs NVLS rather than a ring: nccl-tests on 8 × H200
    /// chose a ring at 4 GPUs and NVLS from 5; on 8 × B200 a ring up to 5 and NVLS from 6
    /// (MLE-NET, NCCL 2.27.7).
    #[must_use]
    pub const fn nvls_min(self) -> u32 {
        match self {
            Gen::Hopper => 5,
            Gen::Blackwell => 6,
            Gen::Cdna => u32::MAX,
        }
    }
    /// LL's bus-bandwidth ceiling on one node (tuning.cc llMaxBws), B/s.
    const fn ll_max(self) -> f64 {
        match self {
            // RCCL's own ceiling is not read: Hopper's is assumed for Instinct.
            Gen::Hopper | Gen::Cdna => 141e9,
            Gen::Blackwell => 282e9,
        }
    }
}

/// What an NCCL estimate needs from the system.
#[derive(Clone, Copy, Debug)]
pub struct Links {
    /// GPUs per NVLink domain.
    pub n: u32,
    /// Effective per-direction NVLink bandwidth per GPU for rings (link × ring efficiency).
    pub ring_bw: f64,
    /// NVLS's bus bandwidth (busbw at large sizes), if the switch reduces. NCCL's tuning
    /// model holds it, not the algorithm's rate, fixed as ranks are added: it converts bus
    /// to algorithm bandwidth by nRanks ÷ nsteps for NVLS and NVLS-tree as for rings
    /// (src/graph/tuning.cc, "Convert bus BW to algorithm BW"), so S ÷ time is
    /// busbw · N ÷ (2(N−1)) over N ranks.
    pub nvls_bw: Option<f64>,
    /// Effective scale-out bandwidth per GPU (every GPU has its own NIC share).
    pub net_bw: f64,
    /// Extra latency per network step beyond NCCL's InfiniBand constant (EFA's software).
    pub net_extra: f64,
    /// The GPU generation.
    pub gen: Gen,
    /// Whether the choices' formulas are written out (searches leave them empty).
    pub explain: bool,
}

/// One candidate: latency, bandwidth time, and how it was chosen.
#[derive(Clone, Debug)]
pub struct Choice {
    /// Latency part, s.
    pub lat: f64,
    /// Bandwidth part, s.
    pub bw: f64,
    /// Algorithm and protocol in NCCL's names.
    pub name: String,
    /// The formula with its inputs.
    pub formula: String,
}

impl Choice {
    fn time(&self) -> f64 {
        self.lat + self.bw
    }
}

fn us(x: f64) -> String {
    Seconds::new(x).display_si()
}
fn bps(x: f64) -> String {
    BytesPerSec::new(x).display_si()
}

fn best(cands: impl IntoIterator<Item = Choice>) -> Option<Choice> {
    cands
        .into_iter()
        .filter(|c| c.time().is_finite())
        .min_by(|a, b| a.time().total_cmp(&b.time()))
}

/// Bytes each GPU puts on the wire in a ring over `ranks` ranks, and the ring's steps.
fn ring_bytes(op: Op, ranks: f64, s: f64) -> (f64, f64) {
    match op {
        Op::AllReduce => (2.0 * (ranks - 1.0) / ranks * s, 2.0 * (ranks - 1.0)),
        Op::AllGather | Op::ReduceScatter => ((ranks - 1.0) / ranks * s, ranks - 1.0),
        Op::Broadcast => (s, ranks - 1.0),
        Op::AllToAll => ((ranks - 1.0) / ranks * s, ranks - 1.0),
    }
}

/// A ring through every GPU of `nodes` NVLink domains, rail-aligned across them: one ring
/// per GPU position, each leaving a node through that GPU's own NIC, so every NIC carries
/// one ring at once. Each GPU forwards n−1 of its n rings over NVLink and one through its
/// NIC: the slower of the two shares sets the pace.
#[must_use]
pub fn ring(l: &Links, nodes: u32, op: Op, s: f64) -> Option<Choice> {
    let n = f64::from(l.n);
    let m = f64::from(nodes);
    let ranks = n * m;
    let (wire, steps) = ring_bytes(op, ranks, s);
    let inter = if nodes == 1 {
        0.0
    } else if op == Op::AllReduce {
        2.0 * (m - 1.0)
    } else {
        m - 1.0
    };
    let per_byte = if nodes == 1 {
        1.0 / l.ring_bw
    } else {
        ((n - 1.0) / n / l.ring_bw).max(1.0 / (n * l.net_bw))
    };
    best(Proto::ALL.into_iter().map(|p| {
        let (base, nv, net) = p.ring();
        let extra = if p == Proto::Simple { 2.0 } else { 1.0 };
        let lat = (base + (steps - inter) * nv + inter * net) * 1e-6 + inter * extra * l.net_extra;
        let mut rate = p.share() / per_byte;
        if p == Proto::Ll && nodes == 1 {
            rate = rate.min(l.gen.ll_max());
        }
        Choice {
            lat,
            bw: wire / rate,
            name: format!("ring/{}", p.id()),
            formula: crate::collective::say!(l.explain,
                "NCCL ring/{}: base + steps × step latency + bytes on the wire ÷ rate = {} + {} ÷ {}{}",
                p.id(),
                us(lat),
                crate::units::Bytes::new(wire).display_memory(),
                bps(rate),
                if nodes > 1 {
                    format!(
                        " (rail-aligned over {nodes} nodes: NVLink share (n−1)/n at {}, NIC share 1/n at {} per GPU)",
                        bps(l.ring_bw),
                        bps(l.net_bw)
                    )
                } else {
                    String::new()
                }
            ),
        }
    }))
}

/// Neighbours of `rank` in NCCL's binary tree over `n` ranks (`ncclGetBtree`): the parent,
/// if any, and up to two children.
fn btree_degree(n: u32, rank: u32) -> u32 {
    if rank == 0 {
        return u32::from(n > 1);
    }
    let mut bit = 1;
    while bit < n && bit & rank == 0 {
        bit <<= 1;
    }
    let mut lowbit = bit >> 1;
    let first = u32::from(lowbit != 0);
    // The second child is the first of rank + lowbit, rank + lowbit/2, … inside the tree.
    while lowbit != 0 && rank + lowbit >= n {
        lowbit >>= 1;
    }
    1 + first + u32::from(lowbit != 0)
}

/// The bytes the busiest node sends (and receives) through its NICs in an all-reduce of S
/// over NCCL's double binary tree of `nodes` nodes, in units of S: each tree carries half
/// the data, and a node moves that half once per tree neighbour (up to its parent and down
/// from it, to and from each child). The second tree mirrors the first (an even count) or
/// shifts it by one (odd), as `ncclGetDtree` builds it. Two nodes move S each; from four,
/// a node inside one tree moves 2·S, so the tree's rate across nodes halves.
#[must_use]
pub fn tree_load(nodes: u32) -> f64 {
    if nodes < 2 {
        return 0.0;
    }
    let second = |r: u32| {
        if nodes % 2 == 0 {
            nodes - 1 - r
        } else {
            (r + nodes - 1) % nodes
        }
    };
    let busiest = (0..nodes)
        .map(|r| btree_degree(nodes, r) + btree_degree(nodes, second(r)))
        .max()
        .unwrap_or(0);
    f64::from(busiest) / 2.0
}

/// An all-to-all across `nodes` NVLink domains as NCCL runs it: a send to and a receive from
/// every peer at once, no ring. Of each GPU's S bytes, (m−1)/m go to GPUs of other nodes
/// through the GPU's own NIC share and (n−1)/(n·m) to its node's GPUs over NVLink, at the
/// same time; a ring would put only 1/n of them on the NIC, which an all-to-all cannot do.
#[must_use]
pub fn alltoall(l: &Links, nodes: u32, s: f64) -> Choice {
    let n = f64::from(l.n);
    let m = f64::from(nodes.max(1));
    let inter = s * (m - 1.0) / m;
    let intra = s * (n - 1.0) / (n * m);
    let (base, _, net) = Proto::Simple.ring();
    let lat = (base + net) * 1e-6 + 2.0 * l.net_extra;
    let bw = (inter / l.net_bw).max(intra / l.ring_bw);
    Choice {
        lat,
        bw,
        name: "direct".into(),
        formula: crate::collective::say!(
            l.explain,
            "NCCL direct sends to every peer: {} + max(S·(m−1)/m ÷ the GPU's NIC share {}, S·(n−1)/(n·m) ÷ NVLink {}) with m={nodes}, n={}",
            us(lat),
            bps(l.net_bw),
            bps(l.ring_bw),
            l.n
        ),
    }
}

/// NVLS all-reduce on one domain, or NVLS inside each domain and a tree across domains;
/// without NVLS, a ring-like chain inside each domain and a tree across. The phases stream
/// chunk by chunk, so the slowest stage sets the rate.
#[must_use]
pub fn tree(l: &Links, nodes: u32, s: f64) -> Option<Choice> {
    let n = f64::from(l.n);
    let m = f64::from(nodes);
    let log_m = f64::from(nodes.max(1).ilog2());
    let mut cands = alloc::vec::Vec::new();
    if let Some(bus) = l.nvls_bw {
        // NVLS: one multimem reduce and one multicast store per chunk, at a bus rate that
        // holds as ranks are added (N over every node).
        let ranks = n * m;
        let nvls = bus * ranks / (2.0 * (ranks - 1.0));
        // Across nodes each network step pays NCCL's NVLS-tree constant plus the network's
        // extra latency twice (the Simple protocol's flush adds it again).
        let (net_lat, net_rate) = if nodes == 1 {
            (0.0, f64::INFINITY)
        } else {
            (
                2.0 * log_m * (20.9e-6 + 2.0 * l.net_extra),
                n * l.net_bw / tree_load(nodes),
            )
        };
        let lat = 25e-6 + NVLS_FILL_S + net_lat;
        let rate = nvls.min(net_rate);
        cands.push(Choice {
            lat,
            bw: s / rate,
            name: if nodes == 1 {
                "NVLS".into()
            } else {
                "NVLS-tree".into()
            },
            formula: crate::collective::say!(
                l.explain,
                "NCCL {}/Simple: 25 µs + pipeline fill {} {}+ S ÷ min(NVLS {}, node's NICs {} ÷ the double binary tree's load {})",
                if nodes == 1 { "NVLS" } else { "NVLS-tree" },
                us(NVLS_FILL_S),
                if nodes > 1 {
                    format!("+ 2·log₂{nodes}·(20.9 µs + {}) ", us(l.net_extra))
                } else {
                    String::new()
                },
                bps(nvls),
                bps(n * l.net_bw),
                tree_load(nodes)
            ),
        });
    }
    if nodes > 1 {
        // A chain through each node's GPUs and a double binary tree across nodes; NCCL's
        // tuning model gives a tree half the rate of its slowest stage (both trees' reduce
        // and broadcast share each link).
        for p in Proto::ALL {
            let (base, nv, net) = p.tree();
            let extra = if p == Proto::Simple { 2.0 } else { 1.0 };
            let lat = (base + 2.0 * ((n - 1.0) * nv + log_m * net)) * 1e-6
                + 2.0 * log_m * extra * l.net_extra;
            let rate = 0.5 * p.tree_share() * l.ring_bw.min(n * l.net_bw);
            cands.push(Choice {
                lat,
                bw: s / rate,
                name: format!("tree/{}", p.id()),
                formula: crate::collective::say!(l.explain,
                    "NCCL tree/{}: {} + S ÷ min(NVLink chain {}, node's NICs {}) × protocol share, across {} nodes (log-depth latency)",
                    p.id(),
                    us(lat),
                    bps(l.ring_bw),
                    bps(n * l.net_bw),
                    m
                ),
            });
        }
    }
    best(cands)
}

/// A collective among `k` GPUs of one NVLink domain (a tensor- or expert-parallel group):
/// a ring through the k GPUs in NCCL's fastest protocol, or NVLS when k is large enough for
/// NCCL to choose it.
#[must_use]
pub fn subgroup(l: &Links, k: u32, op: Op, s: f64) -> Option<Choice> {
    let sub = Links {
        n: k,
        nvls_bw: l.nvls_bw.filter(|_| k >= l.gen.nvls_min()),
        ..*l
    };
    let ring = ring(&sub, 1, op, s);
    let nvls = if op == Op::AllReduce && sub.nvls_bw.is_some() {
        tree(&sub, 1, s)
    } else {
        None
    };
    best(ring.into_iter().chain(nvls))
}
