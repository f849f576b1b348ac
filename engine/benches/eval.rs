//! Benchmark of the analytic evaluations the app runs on every input change.
//! Reports time per evaluation; ARCHITECTURE.md's budget for an analytic scenario is
//! microseconds.

use std::hint::black_box;
use std::time::Instant;

use engine::collective::{estimate, sim, Algorithm, Op};
use engine::system::{self, Cluster};
use engine::topology::Fabric;
use engine::{catalog, Bytes, BytesPerSec, Dtype, OpSpec, Roofline, Scenario, Seconds};

fn bench<T>(name: &str, iters: u32, mut f: impl FnMut() -> T) {
    for _ in 0..iters / 10 {
        black_box(f());
    }
    let t0 = Instant::now();
    for _ in 0..iters {
        black_box(f());
    }
    let per = t0.elapsed().as_secs_f64() / f64::from(iters);
    println!("{name:<66} {:>10.2} µs", per * 1e6);
}

fn main() {
    let chips = catalog::presets();
    let ops = OpSpec::defaults();
    bench("catalog: build all presets", 20_000, catalog::presets);
    bench(
        "roofline: every chip × format × default op placed",
        20_000,
        || {
            let mut n = 0.0;
            for c in &chips {
                for d in Dtype::ALL {
                    if let Some(r) = Roofline::dense(c, d) {
                        for op in &ops {
                            n += r.place(op.cost(d)).fraction_of_peak;
                        }
                    }
                }
            }
            n
        },
    );
    let s = Scenario::default();
    let q = s.to_query();
    bench("scenario: encode the default link", 50_000, || s.to_query());
    bench("scenario: decode the default link", 50_000, || {
        Scenario::from_query(&q)
    });
    bench("scenario: resolve the chosen chips", 50_000, || {
        s.chosen_chips()
    });
    let ultra = system::find("trn2-ultra-256").unwrap();
    let cl = Cluster {
        system: ultra.clone(),
        nodes: 1,
    };
    bench(
        "collective: analytic all-reduce 1 GiB on trn2-ultra-256 (auto)",
        50_000,
        || estimate(&cl, Op::AllReduce, Bytes::gib(1.0), Algorithm::Auto),
    );
    let f = ultra.fabric();
    let a = ultra.hop_latency.value;
    bench(
        "sim: all-reduce 1 GiB, torus, trn2-ultra-256 (4×4×16)",
        20,
        || sim::simulate(&f, Op::AllReduce, Bytes::gib(1.0), Algorithm::Torus, a, 0.8),
    );
    bench("sim: all-reduce 1 GiB, bi-ring, trn2-ultra-256", 20, || {
        sim::simulate(
            &f,
            Op::AllReduce,
            Bytes::gib(1.0),
            Algorithm::BiRing,
            a,
            0.8,
        )
    });
    let big = Fabric::Torus {
        dims: vec![16, 16, 16],
        links: vec![BytesPerSec::gb_s(128.0); 3],
    };
    bench(
        "sim: all-reduce 1 GiB, torus, 16×16×16 (4,096 chips)",
        5,
        || {
            sim::simulate(
                &big,
                Op::AllReduce,
                Bytes::gib(1.0),
                Algorithm::Torus,
                Seconds::new(1.5e-6),
                0.8,
            )
        },
    );
    bench(
        "sim: all-to-all 64 MiB, direct, trn2-ultra-64 (4,032 flows)",
        5,
        || {
            let f = system::find("trn2-ultra-64").unwrap().fabric();
            sim::simulate(
                &f,
                Op::AllToAll,
                Bytes::mib(64.0),
                Algorithm::Direct,
                a,
                0.8,
            )
        },
    );
    let job = engine::job::Job::default();
    bench(
        "job: evaluate the default job (layout search, serving, costs)",
        200,
        || engine::job::evaluate(&job),
    );
    let moe = engine::job::Job {
        system: "trn2-ultra-64".into(),
        nodes: 16,
        model: "deepseek-v3".into(),
        ..engine::job::Job::default()
    };
    bench(
        "job: evaluate DeepSeek-V3 on 1,024 Trn2 (search with experts)",
        20,
        || engine::job::evaluate(&moe),
    );
    // A mixture of experts in FP4 served as deployed: each point's steps timed operation by
    // operation from GB200's kernel tables, over three layouts a replica size.
    let r1 = engine::job::Job {
        system: "gb200-nvl72".into(),
        nodes: 1,
        model: "deepseek-r1".into(),
        dtype: Dtype::Fp4,
        ..engine::job::Job::default()
    };
    bench(
        "job: evaluate DeepSeek-R1 FP4 on GB200 NVL72 (serving timed as operations)",
        10,
        || engine::job::evaluate(&r1),
    );
    bench("job: tornado of the default job", 50, || {
        engine::job::tornado(&job, 0.2)
    });
    // A price change on a page: the layout search is kept, the rest worked out again.
    for (name, j) in [
        ("the default job", &job),
        ("DeepSeek-V3 on 1,024 Trn2", &moe),
    ] {
        let searched = engine::job::search(&engine::job::search_inputs(j).unwrap()).unwrap();
        let repriced = engine::job::Job {
            usd_per_chip_hour: Some(3.0),
            ..j.clone()
        };
        bench(
            &format!("job: {name} after a price change (search kept)"),
            200,
            || engine::job::evaluate_searched(&repriced, searched.clone()),
        );
    }
}
