//! Collectives inside one scale-up domain, algorithm by algorithm: rings and bidirectional
//! rings, a torus dimension by dimension, halving-doubling, direct sends, in-network
//! reduction and a tiered switch fabric tier by tier; and the fastest of them.

use super::*;

/// Terms of one algorithm on one scale-up domain (no scale-out).
pub(super) fn intra(net: &Net, op: Op, algo: Algorithm, s: f64) -> Result<Terms, String> {
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
pub(super) fn tiered(tiers: &[u32], ports: &[f64], a: f64, op: Op, s: f64, explain: bool) -> Terms {
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

pub(super) fn best_intra(net: &Net, op: Op, s: f64) -> Option<(Algorithm, Terms)> {
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
