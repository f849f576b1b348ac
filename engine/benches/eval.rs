//! Benchmark of the analytic evaluations the app runs on every input change.
//! Reports time per evaluation; DESIGN.md budgets an analytic scenario in microseconds.

use std::hint::black_box;
use std::time::Instant;

use engine::{catalog, Dtype, OpSpec, Roofline, Scenario};

fn bench<T>(name: &str, iters: u32, mut f: impl FnMut() -> T) {
    for _ in 0..iters / 10 {
        black_box(f());
    }
    let t0 = Instant::now();
    for _ in 0..iters {
        black_box(f());
    }
    let per = t0.elapsed().as_secs_f64() / f64::from(iters);
    println!("{name:<58} {:>10.2} µs", per * 1e6);
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
}
