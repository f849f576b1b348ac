//! Link-level simulation of the same schedules the analytic model prices, on the same
//! fabrics: each step's flows are routed hop by hop and share every directed link max-min
//! fairly. Where the analytic model's assumptions hold (a ring on a ring, a torus dimension
//! by dimension) the two agree; where they do not (all-to-all on a torus) the simulation
//! shows the contention.

use alloc::vec;
use alloc::vec::Vec;

use super::{Algorithm, CollectiveError, Op};
use crate::topology::Fabric;
use crate::units::{Bytes, Seconds};

/// One flow of a step: `bytes` from `src` to `dst`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flow {
    /// Sender.
    pub src: u32,
    /// Receiver.
    pub dst: u32,
    /// Bytes to move.
    pub bytes: f64,
}

/// Steps run one after another; a step ends when its last flow does. `repeat` counts
/// identical consecutive steps, simulated once.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Concurrent flows.
    pub flows: Vec<Flow>,
    /// How many times this step runs back to back.
    pub repeat: u32,
}

/// What a simulation found.
#[derive(Clone, Debug, PartialEq)]
pub struct SimResult {
    /// Total time.
    pub time: Seconds,
    /// Steps executed (counting repeats).
    pub steps: u64,
    /// Flows simulated (counting repeats).
    pub flows: u64,
    /// Largest number of flows that shared one directed link in any step.
    pub max_link_sharing: u32,
}

/// The fabric as directed links with routes between chips.
struct Net {
    n: u32,
    /// Capacity of each directed link, B/s (after efficiency).
    cap: Vec<f64>,
    kind: Kind,
}

enum Kind {
    /// Torus (a ring is a 1-D torus): per chip, per axis, the link ids to +1 and −1.
    Torus {
        dims: Vec<u32>,
        plus: Vec<Vec<u32>>,
        minus: Vec<Vec<u32>>,
    },
    /// Hypercube: link id of chip i along bit b is i·dim + b.
    Cube { dim: u32 },
    /// Switch: uplink of i is i, downlink of j is n + j.
    Switch,
}

impl Net {
    fn new(f: &Fabric, eff: f64) -> Self {
        let n = f.chips();
        match f {
            Fabric::Switch { port, .. } => Net {
                n,
                cap: vec![port.get() * eff; 2 * n as usize],
                kind: Kind::Switch,
            },
            // Refused by `simulate` before it gets here; a switch at the slowest tier.
            Fabric::Tiered { ports, .. } => Net {
                n,
                cap: vec![
                    ports.iter().map(|p| p.get()).fold(f64::INFINITY, f64::min) * eff;
                    2 * n as usize
                ],
                kind: Kind::Switch,
            },
            Fabric::Hypercube { dim, link } => Net {
                n,
                cap: vec![link.get() * eff; (n * dim) as usize],
                kind: Kind::Cube { dim: *dim },
            },
            Fabric::Ring { chips, link } => Self::torus(&[*chips], &[link.get() * eff]),
            Fabric::Torus { dims, links } => {
                let bw: Vec<f64> = links.iter().map(|b| b.get() * eff).collect();
                Self::torus(dims, &bw)
            }
        }
    }

    fn torus(dims: &[u32], bw: &[f64]) -> Self {
        let n: u32 = dims.iter().product();
        let mut cap = Vec::new();
        let mut plus = vec![vec![u32::MAX; dims.len()]; n as usize];
        let mut minus = plus.clone();
        for i in 0..n {
            let c = Fabric::coords(dims, i);
            for (a, &k) in dims.iter().enumerate() {
                plus[i as usize][a] = cap.len() as u32;
                cap.push(bw[a]);
                if k > 2 {
                    minus[i as usize][a] = cap.len() as u32;
                    cap.push(bw[a]);
                } else {
                    // A 2-ring has one link each way: +1 and −1 are the same neighbour.
                    minus[i as usize][a] = plus[i as usize][a];
                }
                let _ = &c;
            }
        }
        Net {
            n,
            cap,
            kind: Kind::Torus {
                dims: dims.to_vec(),
                plus,
                minus,
            },
        }
    }

    /// Directed links from `s` to `d`: dimension-order, shorter way round (ties go +).
    fn route(&self, s: u32, d: u32, out: &mut Vec<u32>) {
        out.clear();
        match &self.kind {
            Kind::Switch => {
                out.push(s);
                out.push(self.n + d);
            }
            Kind::Cube { dim } => {
                let mut at = s;
                for b in 0..*dim {
                    if (at ^ d) >> b & 1 == 1 {
                        out.push(at * dim + b);
                        at ^= 1 << b;
                    }
                }
            }
            Kind::Torus { dims, plus, minus } => {
                let mut at = Fabric::coords(dims, s);
                let to = Fabric::coords(dims, d);
                for (a, &k) in dims.iter().enumerate() {
                    let fwd = (to[a] + k - at[a]) % k;
                    let (steps, up) = if fwd <= k - fwd {
                        (fwd, true)
                    } else {
                        (k - fwd, false)
                    };
                    for _ in 0..steps {
                        let i = Fabric::index(dims, &at) as usize;
                        if up {
                            out.push(plus[i][a]);
                            at[a] = (at[a] + 1) % k;
                        } else {
                            out.push(minus[i][a]);
                            at[a] = (at[a] + k - 1) % k;
                        }
                    }
                }
            }
        }
    }

    /// A cycle through every chip in which consecutive chips are neighbours.
    fn ring_order(&self) -> Vec<u32> {
        match &self.kind {
            Kind::Switch => (0..self.n).collect(),
            Kind::Cube { .. } => (0..self.n).map(|i| i ^ (i >> 1)).collect(),
            Kind::Torus { dims, .. } => snake(dims),
        }
    }
}

/// Boustrophedon order over a torus: axis 0 fastest, reversing direction on alternate rows.
fn snake(dims: &[u32]) -> Vec<u32> {
    if dims.len() == 1 {
        return (0..dims[0]).collect();
    }
    let inner = snake(&dims[..dims.len() - 1]);
    let inner_n: u32 = dims[..dims.len() - 1].iter().product();
    let mut out = Vec::with_capacity((inner_n * dims[dims.len() - 1]) as usize);
    for z in 0..dims[dims.len() - 1] {
        let layer: Vec<u32> = if z % 2 == 0 {
            inner.clone()
        } else {
            inner.iter().rev().copied().collect()
        };
        out.extend(layer.iter().map(|i| i + z * inner_n));
    }
    out
}

/// The schedule of `op` with `algo` on `fabric` for size `s` (nccl-tests convention).
///
/// # Errors
/// When the algorithm does not apply to the fabric or the operation is not simulated.
pub fn schedule(
    fabric: &Fabric,
    op: Op,
    algo: Algorithm,
    s: f64,
) -> Result<Vec<Step>, CollectiveError> {
    let n = fabric.chips();
    let nf = f64::from(n);
    let na = |why: &str| CollectiveError::NotApplicable {
        algorithm: algo,
        op,
        why: why.into(),
    };
    let phases = |op: Op| -> Result<u32, CollectiveError> {
        match op {
            Op::AllReduce => Ok(2),
            Op::AllGather | Op::ReduceScatter => Ok(1),
            _ => Err(na("the simulation runs all-reduce, all-gather and reduce-scatter with this algorithm; all-to-all runs direct")),
        }
    };
    let net_order = Net::new(fabric, 1.0).ring_order();
    Ok(match algo {
        Algorithm::Ring | Algorithm::BiRing => {
            let p = phases(op)?;
            let bi = algo == Algorithm::BiRing;
            let mut flows = Vec::new();
            for (k, &c) in net_order.iter().enumerate() {
                let next = net_order[(k + 1) % n as usize];
                let prev = net_order[(k + n as usize - 1) % n as usize];
                let chunk = s / nf / if bi { 2.0 } else { 1.0 };
                flows.push(Flow {
                    src: c,
                    dst: next,
                    bytes: chunk,
                });
                if bi {
                    flows.push(Flow {
                        src: c,
                        dst: prev,
                        bytes: chunk,
                    });
                }
            }
            vec![Step {
                flows,
                repeat: p * (n - 1),
            }]
        }
        Algorithm::Torus => {
            let Fabric::Torus { dims, links } = fabric else {
                return Err(na("needs a torus"));
            };
            let p = phases(op)?;
            let mut order: Vec<usize> = (0..dims.len()).collect();
            order.sort_by(|x, y| links[*y].get().total_cmp(&links[*x].get()));
            let mut steps = Vec::new();
            let mut data = s;
            for &a in &order {
                let k = dims[a];
                let dirs = if k > 2 { 2.0 } else { 1.0 };
                let mut flows = Vec::new();
                for i in 0..n {
                    let mut c = Fabric::coords(dims, i);
                    let me = c[a];
                    c[a] = (me + 1) % k;
                    flows.push(Flow {
                        src: i,
                        dst: Fabric::index(dims, &c),
                        bytes: data / f64::from(k) / dirs,
                    });
                    if k > 2 {
                        c[a] = (me + k - 1) % k;
                        flows.push(Flow {
                            src: i,
                            dst: Fabric::index(dims, &c),
                            bytes: data / f64::from(k) / dirs,
                        });
                    }
                }
                steps.push(Step {
                    flows,
                    repeat: k - 1,
                });
                data /= f64::from(k);
            }
            if p == 2 {
                let back: Vec<Step> = steps.iter().rev().cloned().collect();
                steps.extend(back);
            }
            steps
        }
        Algorithm::Direct => {
            if !matches!(fabric, Fabric::Switch { .. }) && op != Op::AllToAll {
                return Err(na("direct needs a switch, except for all-to-all"));
            }
            let p = match op {
                Op::AllToAll => 1,
                other => phases(other)?,
            };
            let mut flows = Vec::with_capacity((n * (n - 1)) as usize);
            for i in 0..n {
                for j in (0..n).filter(|j| *j != i) {
                    flows.push(Flow {
                        src: i,
                        dst: j,
                        bytes: s / nf,
                    });
                }
            }
            vec![Step { flows, repeat: p }]
        }
        Algorithm::HalvingDoubling => {
            if !(matches!(fabric, Fabric::Hypercube { .. } | Fabric::Switch { .. })
                && n.is_power_of_two())
            {
                return Err(na(
                    "needs a hypercube, or a switch with a power-of-two chip count",
                ));
            }
            let p = phases(op)?;
            let d = n.trailing_zeros();
            let mut steps = Vec::new();
            for b in 0..d {
                let bytes = s / f64::from(2u32 << b);
                let flows = (0..n)
                    .map(|i| Flow {
                        src: i,
                        dst: i ^ (1 << b),
                        bytes,
                    })
                    .collect();
                steps.push(Step { flows, repeat: 1 });
            }
            if p == 2 {
                let back: Vec<Step> = steps.iter().rev().cloned().collect();
                steps.extend(back);
            }
            steps
        }
        _ => {
            return Err(na(
                "not simulated: the simulation covers one scale-up domain",
            ))
        }
    })
}

/// Simulate `op` of `bytes` with `algo` on `fabric`, each step costing `alpha` per hop of
/// its longest route plus the time its flows take sharing links (capacity × `efficiency`).
///
/// # Errors
/// As [`schedule`], and on a non-positive size.
pub fn simulate(
    fabric: &Fabric,
    op: Op,
    bytes: Bytes,
    algo: Algorithm,
    alpha: Seconds,
    efficiency: f64,
) -> Result<SimResult, CollectiveError> {
    let s = bytes.get();
    if !(s.is_finite() && s > 0.0) {
        return Err(CollectiveError::BadSize(s));
    }
    fabric
        .validate()
        .map_err(|e| CollectiveError::NotApplicable {
            algorithm: algo,
            op,
            why: alloc::format!("{e}"),
        })?;
    if matches!(fabric, Fabric::Tiered { .. }) {
        return Err(CollectiveError::NotApplicable {
            algorithm: algo,
            op,
            why: "the link-level simulation covers rings, tori, hypercubes and single switches, not tiers of switches".into(),
        });
    }
    let net = Net::new(fabric, efficiency);
    let steps = schedule(fabric, op, algo, s)?;
    let mut total = 0.0;
    let mut count = 0u64;
    let mut flows_n = 0u64;
    let mut sharing = 0u32;
    let mut scratch = Scratch::new(net.cap.len());
    for st in &steps {
        let (t, hops, share) = run_step(&net, &st.flows, &mut scratch);
        total += f64::from(st.repeat) * (t + alpha.get() * f64::from(hops));
        count += u64::from(st.repeat);
        flows_n += u64::from(st.repeat) * st.flows.len() as u64;
        sharing = sharing.max(share);
    }
    Ok(SimResult {
        time: Seconds::new(total),
        steps: count,
        flows: flows_n,
        max_link_sharing: sharing,
    })
}

struct Scratch {
    load: Vec<u32>,
    left: Vec<f64>,
    route: Vec<u32>,
}

impl Scratch {
    fn new(links: usize) -> Self {
        Scratch {
            load: vec![0; links],
            left: vec![0.0; links],
            route: Vec::new(),
        }
    }
}

/// Time for concurrent flows under max-min fair sharing (progressive filling, re-solved each
/// time a flow completes). Returns (time, longest route in hops, most flows on one link).
fn run_step(net: &Net, flows: &[Flow], sc: &mut Scratch) -> (f64, u32, u32) {
    // Routes in one flat array.
    let mut start = Vec::with_capacity(flows.len() + 1);
    let mut links: Vec<u32> = Vec::new();
    let mut hops = 0;
    for f in flows {
        start.push(links.len());
        net.route(f.src, f.dst, &mut sc.route);
        // Up to the switch and down again is one hop, as in the analytic model.
        let h = if matches!(net.kind, Kind::Switch) {
            1
        } else {
            sc.route.len() as u32
        };
        hops = hops.max(h);
        links.extend_from_slice(&sc.route);
    }
    start.push(links.len());
    let mut remaining: Vec<f64> = flows.iter().map(|f| f.bytes).collect();
    let mut active: Vec<usize> = (0..flows.len())
        .filter(|i| start[i + 1] > start[*i])
        .collect();
    let mut rate = vec![0.0f64; flows.len()];
    let mut fixed = vec![false; flows.len()];
    let mut t = 0.0;
    let mut max_share = 0;
    let touched: Vec<u32> = {
        let mut v = links.clone();
        v.sort_unstable();
        v.dedup();
        v
    };
    while !active.is_empty() {
        // Progressive filling: repeatedly saturate the link with the smallest fair share.
        for &l in &touched {
            sc.load[l as usize] = 0;
            sc.left[l as usize] = net.cap[l as usize];
        }
        for &i in &active {
            fixed[i] = false;
            for &l in &links[start[i]..start[i + 1]] {
                sc.load[l as usize] += 1;
            }
        }
        for &l in &touched {
            max_share = max_share.max(sc.load[l as usize]);
        }
        let mut unfixed = active.len();
        while unfixed > 0 {
            let mut best = f64::INFINITY;
            for &l in &touched {
                let k = sc.load[l as usize];
                if k > 0 {
                    best = best.min(sc.left[l as usize] / f64::from(k));
                }
            }
            // Fix every unfixed flow that crosses a link at the bottleneck share.
            let mut progressed = false;
            for &i in &active {
                if fixed[i] {
                    continue;
                }
                let r = &links[start[i]..start[i + 1]];
                let bottleneck = r.iter().any(|&l| {
                    let k = sc.load[l as usize];
                    k > 0 && sc.left[l as usize] / f64::from(k) <= best * (1.0 + 1e-12)
                });
                if bottleneck {
                    fixed[i] = true;
                    rate[i] = best;
                    unfixed -= 1;
                    progressed = true;
                    for &l in r {
                        sc.left[l as usize] -= best;
                        sc.load[l as usize] -= 1;
                    }
                }
            }
            if !progressed {
                break;
            }
        }
        // Advance to the next completion.
        let dt = active
            .iter()
            .map(|&i| remaining[i] / rate[i])
            .fold(f64::INFINITY, f64::min);
        t += dt;
        for &i in &active {
            remaining[i] -= rate[i] * dt;
        }
        active.retain(|&i| remaining[i] > flows[i].bytes * 1e-9);
    }
    (t, hops, max_share)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::estimate;
    use crate::system::{find, Cluster};
    use crate::units::BytesPerSec;
    use alloc::string::ToString;

    fn agree(id: &str, op: Op, algo: Algorithm, s: f64) -> (f64, f64) {
        let sys = find(id).unwrap();
        let a = estimate(
            &Cluster {
                system: sys.clone(),
                nodes: 1,
            },
            op,
            Bytes::new(s),
            algo,
        )
        .unwrap();
        let r = simulate(
            &sys.fabric(),
            op,
            Bytes::new(s),
            algo,
            sys.hop_latency.value,
            sys.link_efficiency.value,
        )
        .unwrap();
        (a.time.get(), r.time.get())
    }

    #[test]
    fn simulation_agrees_with_the_analytic_model_where_its_assumptions_hold() {
        let cases = [
            ("trn2-16", Op::AllReduce, Algorithm::Ring),
            ("trn2-16", Op::AllReduce, Algorithm::BiRing),
            ("trn2-16", Op::AllGather, Algorithm::Torus),
            ("trn2-ultra-64", Op::AllReduce, Algorithm::Torus),
            ("trn2-ultra-256", Op::ReduceScatter, Algorithm::Torus),
            ("tpu-v6e-256", Op::AllReduce, Algorithm::Torus),
            ("gb200-nvl72", Op::AllReduce, Algorithm::Direct),
            ("gb200-nvl72", Op::AllToAll, Algorithm::Direct),
            ("hgx-h100-8", Op::AllReduce, Algorithm::HalvingDoubling),
        ];
        for (id, op, algo) in cases {
            for s in [8.0, 1e6, 1e9] {
                let (a, m) = agree(id, op, algo, s);
                assert!(
                    (m / a - 1.0).abs() < 0.02,
                    "{id} {} {} {s}: analytic {a:e}, simulated {m:e}",
                    op.id(),
                    algo.id()
                );
            }
        }
    }

    #[test]
    fn a_ring_on_a_ring_is_exact() {
        let f = Fabric::Ring {
            chips: 8,
            link: BytesPerSec::new(1e9),
        };
        let r = simulate(
            &f,
            Op::AllReduce,
            Bytes::new(8e6),
            Algorithm::Ring,
            Seconds::new(0.0),
            1.0,
        )
        .unwrap();
        // 2(n−1) steps of S/n at 1 GB/s.
        assert!((r.time.get() - 14.0 * 1e-3).abs() < 1e-12);
        assert_eq!(r.steps, 14);
        assert_eq!(r.max_link_sharing, 1);
    }

    #[test]
    fn all_to_all_on_a_torus_shows_contention_the_bound_misses() {
        let sys = find("trn2-ultra-64").unwrap();
        let s = 1e9;
        let a = estimate(
            &Cluster {
                system: sys.clone(),
                nodes: 1,
            },
            Op::AllToAll,
            Bytes::new(s),
            Algorithm::Torus,
        )
        .unwrap();
        let r = simulate(
            &sys.fabric(),
            Op::AllToAll,
            Bytes::new(s),
            Algorithm::Direct,
            sys.hop_latency.value,
            sys.link_efficiency.value,
        )
        .unwrap();
        assert!(
            r.time.get() > a.time.get() * 1.02,
            "sim {} vs bound {}",
            r.time,
            a.time
        );
        assert!(r.max_link_sharing > 1);
    }

    #[test]
    fn snake_orders_visit_neighbours() {
        for dims in [vec![4, 4], vec![4, 4, 4], vec![4, 4, 16], vec![2, 8]] {
            let f = Fabric::Torus {
                dims: dims.clone(),
                links: vec![BytesPerSec::new(1.0); dims.len()],
            };
            let o = snake(&dims);
            let n = o.len();
            let mut seen = o.clone();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), n);
            for k in 0..n {
                let d = f.distances(o[k])[o[(k + 1) % n] as usize];
                assert_eq!(d, 1, "{dims:?} at {k}");
            }
        }
    }

    #[test]
    fn unsupported_cases_say_why() {
        let f = find("trn2-16").unwrap().fabric();
        let e = simulate(
            &f,
            Op::AllReduce,
            Bytes::new(8.0),
            Algorithm::InNetwork,
            Seconds::new(0.0),
            1.0,
        )
        .unwrap_err();
        assert!(e.to_string().contains("not simulated"));
        let e = simulate(
            &f,
            Op::AllReduce,
            Bytes::new(0.0),
            Algorithm::Ring,
            Seconds::new(0.0),
            1.0,
        )
        .unwrap_err();
        assert!(e.to_string().contains("positive"));
    }
}
