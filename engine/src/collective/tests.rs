//! Tests of the analytic collective model.

use super::*;
use crate::system::{find, presets};
use alloc::string::ToString;
use alloc::vec;

fn cluster(id: &str, nodes: u32) -> Cluster {
    Cluster {
        system: find(id).unwrap(),
        nodes,
    }
}

#[test]
fn the_nccl_constants_give_the_ramp_at_mid_sizes() {
    // DGX H100 (dgxc-benchmarking): busbw 67 GB/s at 1 MiB, 237 at 16 MiB, 480 at 16 GiB;
    // a single alpha-beta line reached 400 by 16 MiB. The model must ramp as slowly.
    let c = cluster("hgx-h100-8", 1);
    let bw = |s: Bytes| {
        estimate(&c, Op::AllReduce, s, Algorithm::Auto)
            .unwrap()
            .busbw
            .get()
    };
    let (small, mid, big) = (
        bw(Bytes::mib(1.0)),
        bw(Bytes::mib(16.0)),
        bw(Bytes::gib(16.0)),
    );
    assert!(small < 0.2 * big && mid < 0.6 * big, "{small} {mid} {big}");
}

#[test]
fn across_nodes_the_phases_pipeline_and_every_nic_works() {
    // 2 × p5: 487 GB/s busbw at 16 GiB (awsome-distributed-training), above what one NIC
    // per chip through serialised phases could give (about 250).
    let c = cluster("hgx-h100-8", 2);
    let e = estimate(&c, Op::AllReduce, Bytes::gib(16.0), Algorithm::Auto).unwrap();
    assert!(e.busbw.get() > 400e9, "{}", e.busbw.get());
    // More nodes add only log-depth latency to a tree.
    let lat = |nodes| {
        estimate(
            &cluster("hgx-h100-8", nodes),
            Op::AllReduce,
            Bytes::new(8.0),
            Algorithm::Hierarchical,
        )
        .unwrap()
        .time
        .get()
    };
    let (l2, l16) = (lat(2), lat(16));
    assert!(l16 < 5.0 * l2 && l16 > l2, "{l2} {l16}");
}

#[test]
fn bus_factors_follow_nccl_tests() {
    assert_eq!(Op::AllReduce.bus_factor(8), 2.0 * 7.0 / 8.0);
    assert_eq!(Op::AllGather.bus_factor(8), 7.0 / 8.0);
    assert_eq!(Op::ReduceScatter.bus_factor(4), 0.75);
    assert_eq!(Op::AllToAll.bus_factor(2), 0.5);
    assert_eq!(Op::Broadcast.bus_factor(64), 1.0);
}

#[test]
fn ring_all_reduce_matches_the_textbook_formula() {
    // 2(n−1)(α + S/(nB)) on a 16-chip Trn2: the ring's slowest link is 128 GB/s × 0.8.
    let c = cluster("trn2-16", 1);
    let s = Bytes::gib(1.0);
    let e = estimate(&c, Op::AllReduce, s, Algorithm::Ring).unwrap();
    let (n, a, b) = (16.0, 1.5e-6, 128e9 * 0.8);
    let want = 2.0 * (n - 1.0) * (a + s.get() / (n * b));
    assert!((e.time.get() / want - 1.0).abs() < 1e-12);
    assert!((e.latency_term.get() - 2.0 * 15.0 * a).abs() < 1e-15);
    assert!(
        (e.busbw.get() / b - 1.0).abs() < 1e-2,
        "large ring all-reduce runs at link speed"
    );
    let bi = estimate(&c, Op::AllReduce, s, Algorithm::BiRing).unwrap();
    assert!((bi.bandwidth_term.get() * 2.0 / e.bandwidth_term.get() - 1.0).abs() < 1e-12);
}

#[test]
fn torus_beats_rings_on_the_ultra_server_and_puts_the_slow_axis_last() {
    let c = cluster("trn2-ultra-64", 1);
    let s = Bytes::gib(1.0);
    let t = estimate(&c, Op::AllReduce, s, Algorithm::Torus).unwrap();
    let r = estimate(&c, Op::AllReduce, s, Algorithm::BiRing).unwrap();
    assert!(t.time < r.time, "{} vs {}", t.time, r.time);
    // Z (2 × 51.2 GB/s effective) comes after X and Y (2 × 102.4 GB/s).
    let z = t.formula.find("k=4 at 102.4 GB/s").unwrap();
    assert!(
        z > t.formula.rfind("k=4 at 204.8 GB/s").unwrap(),
        "{}",
        t.formula
    );
    // Dimension by dimension, hand computed: S₁ = S, S₂ = S/4, S₃ = S/16 on 2×B per axis.
    let (x, z) = (2.0 * 128e9 * 0.8, 2.0 * 64e9 * 0.8);
    let bw = 2.0 * (3.0 / 4.0) * (s.get() / x + s.get() / 4.0 / x + s.get() / 16.0 / z);
    assert!((t.bandwidth_term.get() / bw - 1.0).abs() < 1e-12);
    assert_eq!(
        estimate(&c, Op::AllReduce, s, Algorithm::Auto)
            .unwrap()
            .algorithm,
        Algorithm::Torus
    );
}

#[test]
fn more_bandwidth_never_makes_a_collective_slower() {
    for sys in presets() {
        for op in Op::ALL {
            for algo in Algorithm::ALL {
                for nodes in [1, 4] {
                    for s in [8.0, 1e6, 4e9] {
                        let base = Cluster {
                            system: sys.clone(),
                            nodes,
                        };
                        let Ok(e0) = estimate(&base, op, Bytes::new(s), algo) else {
                            continue;
                        };
                        let mut fast = base.clone();
                        for l in &mut fast.system.links {
                            l.value = l.value * 1.5;
                        }
                        fast.system.scale_out.value = fast.system.scale_out.value * 1.5;
                        let e1 = estimate(&fast, op, Bytes::new(s), algo).unwrap();
                        assert!(
                            e1.time <= e0.time,
                            "{} {} {} n={nodes} S={s}",
                            sys.id,
                            op.id(),
                            algo.id()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn larger_messages_never_finish_sooner() {
    for sys in presets() {
        for op in Op::ALL {
            let c = Cluster {
                system: sys.clone(),
                nodes: 2,
            };
            let mut last = 0.0;
            for k in 0..32 {
                let s = 8.0 * 2f64.powi(k);
                let t = estimate(&c, op, Bytes::new(s), Algorithm::Auto)
                    .unwrap()
                    .time
                    .get();
                assert!(t >= last, "{} {}", sys.id, op.id());
                last = t;
            }
        }
    }
}

#[test]
fn in_network_reduction_nearly_doubles_busbw_where_the_switch_reduces() {
    let c = cluster("gb200-nvl72", 1);
    let s = Bytes::gib(8.0);
    let ring = estimate(&c, Op::AllReduce, s, Algorithm::Ring).unwrap();
    let inr = estimate(&c, Op::AllReduce, s, Algorithm::InNetwork).unwrap();
    assert!(inr.busbw > ring.busbw);
    assert_eq!(
        estimate(&c, Op::AllReduce, s, Algorithm::Auto)
            .unwrap()
            .algorithm,
        Algorithm::InNetwork
    );
}

#[test]
fn nvls_holds_its_bus_rate_as_ranks_are_added() {
    // NCCL's tuning model converts NVLS's bus bandwidth to the algorithm's by nRanks ÷
    // nsteps, as for rings: 72 GPUs of one NVL72 reach the bus bandwidth 8 × B200 reach
    // over the same NVLink 5 ports (measured: 839–850 GB/s against 838).
    let s = Bytes::gib(16.0);
    let bus = |id: &str| {
        estimate(&cluster(id, 1), Op::AllReduce, s, Algorithm::InNetwork)
            .unwrap()
            .busbw
            .get()
    };
    let (eight, rack) = (bus("hgx-b200-8"), bus("gb200-nvl72"));
    assert!((rack / eight - 1.0).abs() < 0.01, "{rack} against {eight}");
    // The algorithm's rate (S ÷ time) falls by 2(n−1)/n from 8 ranks to 72.
    let alg = |id: &str| {
        estimate(&cluster(id, 1), Op::AllReduce, s, Algorithm::InNetwork)
            .unwrap()
            .algbw
            .get()
    };
    let r = alg("gb200-nvl72") / alg("hgx-b200-8");
    assert!((r - (72.0 / 142.0) / (8.0 / 14.0)).abs() < 0.01, "{r}");
}

#[test]
fn an_all_to_all_across_nodes_is_bound_by_the_nics() {
    // Of each GPU's S bytes, (m−1)/m go to other nodes: no algorithm can move them faster
    // than the GPU's share of its node's NICs (nccl-tests on p5: 79 GB/s busbw on 2 nodes,
    // 41 on 32; the ring NCCL never runs for it put only 1/n on the NIC).
    for id in ["hgx-h100-8", "hgx-b200-8", "gb200-nvl72", "mi355x-8"] {
        for m in [2_u32, 4, 8, 32] {
            let c = cluster(id, m);
            let e = estimate(&c, Op::AllToAll, Bytes::gib(2.0), Algorithm::Auto).unwrap();
            let sys = &c.system;
            let nic = sys.scale_out.value.get() * sys.scale_out_efficiency.value;
            let bound = nic * f64::from(m) / f64::from(m - 1);
            assert!(
                e.algbw.get() <= bound * 1.0001,
                "{id} on {m}: {} above the NICs' {}",
                e.algbw.get(),
                bound
            );
            assert_eq!(e.algorithm, Algorithm::Direct, "{id} on {m}");
        }
    }
}

#[test]
fn small_messages_cross_nodes_hierarchically() {
    let c = cluster("hgx-b200-8", 2);
    let e = estimate(&c, Op::AllReduce, Bytes::new(8.0), Algorithm::Auto).unwrap();
    assert_eq!(e.algorithm, Algorithm::Hierarchical);
    assert_eq!(e.ranks, 16);
    // NCCL's ring crosses the network 2(m−1) times; its tree only 2·log₂m times.
    let flat = estimate(&c, Op::AllReduce, Bytes::new(8.0), Algorithm::Ring).unwrap();
    assert!(flat.time.get() > e.time.get());
}

#[test]
fn nonsense_gets_a_clear_error() {
    let err = |id: &str, nodes: u32, op: Op, s: f64, a: Algorithm| {
        estimate(&cluster(id, nodes), op, Bytes::new(s), a)
            .unwrap_err()
            .to_string()
    };
    assert!(err("trn2-16", 1, Op::AllReduce, 0.0, Algorithm::Auto).contains("positive"));
    assert!(err("trn2-16", 1, Op::AllReduce, -4.0, Algorithm::Auto).contains("positive"));
    assert!(
        err("trn2-16", 1, Op::AllReduce, 8.0, Algorithm::InNetwork).contains("reduces in flight")
    );
    assert!(err("gb200-nvl72", 1, Op::AllReduce, 8.0, Algorithm::Torus).contains("needs a torus"));
    assert!(
        err("trn2-16", 1, Op::AllReduce, 8.0, Algorithm::HalvingDoubling).contains("hypercube")
    );
    assert!(
        err("trn2-16", 1, Op::AllReduce, 8.0, Algorithm::Hierarchical)
            .contains("more than one node")
    );
    assert!(err("gb200-nvl72", 1, Op::AllGather, 8.0, Algorithm::InNetwork).contains("all-reduce"));
    assert!(err("trn2-16", 0, Op::AllReduce, 8.0, Algorithm::Auto).contains("at least 1"));
    assert!("allreduce".parse::<Op>().is_ok());
    assert!("scatter"
        .parse::<Op>()
        .unwrap_err()
        .to_string()
        .contains("valid: all-reduce"));
    assert!("magic"
        .parse::<Algorithm>()
        .unwrap_err()
        .to_string()
        .contains("valid: auto"));
    let _ = vec![0u8];
}

#[test]
fn a_double_binary_tree_loads_each_node_once_on_two_nodes_and_twice_from_four() {
    // NCCL's ncclGetDtree: two nodes exchange S once each way; from four nodes a node
    // inside one tree moves 2·S; no node is inside both trees, so it never moves more.
    assert_eq!(nccl::tree_load(1), 0.0);
    assert_eq!(nccl::tree_load(2), 1.0);
    for m in 4..=256 {
        assert_eq!(nccl::tree_load(m), 2.0, "{m} nodes");
    }
    assert!(nccl::tree_load(3) <= 2.0);
}

#[test]
fn bus_bandwidth_never_rises_with_node_count() {
    // NCCL's rings and trees: what a node's NICs carry per byte of busbw does not shrink as
    // nodes are added, so busbw is flat or falls (published sweeps on p5 fall from 478 GB/s
    // on 2 nodes to 321 on 32). Within 5%: the bus factor 2(n−1)/n itself creeps up.
    for id in [
        "hgx-h100-8",
        "hgx-b200-8",
        "gb200-nvl72",
        "hgx-h200-8",
        "mi300x-8",
        "trn2-16",
    ] {
        for size in [Bytes::gib(1.0), Bytes::gib(16.0)] {
            let bw = |nodes| {
                estimate(&cluster(id, nodes), Op::AllReduce, size, Algorithm::Auto)
                    .unwrap()
                    .busbw
                    .get()
            };
            let two = bw(2);
            for nodes in [3, 4, 8, 16, 32] {
                assert!(
                    bw(nodes) <= two * 1.05,
                    "{id} at {}: {nodes} nodes {:.0} GB/s against {:.0} on 2",
                    size.display_memory(),
                    bw(nodes) / 1e9,
                    two / 1e9
                );
            }
        }
    }
}

#[test]
fn trn3_all_to_all_across_both_racks_waits_on_the_direct_links() {
    // An all-to-all across both racks of a Trn3 Gen2 UltraServer waits on the 64 GB/s direct
    // links between racks: more than twice as long as on one flat switch of the rack links.
    use crate::source::Sourced;
    use crate::system::{Shape, System};
    use crate::units::BytesPerSec;
    let t = find("trn3-ultra-144").unwrap();
    let bw = |sys: &System| {
        let cl = Cluster {
            system: sys.clone(),
            nodes: 1,
        };
        estimate(&cl, Op::AllToAll, Bytes::mib(64.0), Algorithm::Auto)
            .unwrap()
            .time
            .get()
    };
    let flat = System {
        shape: Shape::Switch {
            chips: 144,
            in_network_reduction: false,
        },
        links: vec![Sourced::user(BytesPerSec::new(320e9))],
        ..t.clone()
    };
    assert!(bw(&t) > 2.0 * bw(&flat), "{} {}", bw(&t), bw(&flat));
}
