//! The Kernels page's Web Worker, and the Workload and Compare pages' for the serving
//! simulation, the published runs (the errors behind the ranges, and their tables), the
//! layout search and the views below the Workload page's answer that evaluate the job again
//! (`view::protocol::View`). The page posts one [`Request`] at a time and the worker
//! answers with [`Reply`]s: stages while it works, then a result, or an error (the messages
//! are typed in `view::protocol`, which the page compiles against too). Cancel is the page
//! terminating the worker.
//!
//! The kernels' code lives only here, so the first page never downloads it; this crate is
//! built for speed (`opt-level = 3`, wasm `simd128`).

mod core;
mod render;
mod search;
mod serve;

use engine::kernels::{self, stream::Stream, Distribution, KernelSpec, Operand, Rng};
use view::protocol::{Reply, Request};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(msg: &Reply) {
    let _ = scope().post_message(&JsValue::from_str(&msg.encode()));
}

fn stage(what: impl Into<String>) {
    post(&Reply::Stage(what.into()));
}

fn error(what: impl ToString) {
    post(&Reply::Error(what.to_string()));
}

fn nc_error(what: impl ToString) {
    post(&Reply::NcError(what.to_string()));
}

fn now_ms() -> f64 {
    scope().performance().map_or(0.0, |p| p.now())
}

fn main() {
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| {
        if let Some(cmd) = e.data().as_string() {
            handle(&cmd);
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&Reply::Ready);
}

fn handle(cmd: &str) {
    match Request::decode(cmd) {
        Ok(Request::Run(q)) => run(&q),
        Ok(Request::Sweep(q)) => sweep(&q),
        Ok(Request::Bench { threads }) => bench(threads),
        Ok(Request::Simulate(t)) => neuroncore(&t),
        Ok(Request::Tune(t)) => neuroncore_tune(&t),
        Ok(Request::Serve(r)) => serve::serve(&r),
        Ok(Request::Errors(chip)) => errors(&chip),
        Ok(Request::Tornado(q)) => post(&tornado(q)),
        Ok(Request::Verdict(q)) => post(&verdict(q)),
        Ok(Request::BreakEven(q)) => post(&break_even(q)),
        Ok(Request::Search(query)) => search::start(query),
        Ok(Request::View(view, query)) => post(&Reply::View {
            view,
            html: view.draw(&query, now_ms, &evaluated),
            query,
        }),
        Ok(Request::Calibration) => POINTS.with(|p| {
            let points = p.get_or_init(engine::calibration::calibration);
            post(&Reply::Calibration(view::calibration::html(points)));
        }),
        Err(e) => error(e),
    }
}

std::thread_local! {
    /// The published runs against the model, evaluated on the first request for errors.
    static POINTS: std::cell::OnceCell<Vec<engine::calibration::RunPoint>> =
        const { std::cell::OnceCell::new() };
}

std::thread_local! {
    /// The last job evaluated for a view, and its report: an input's views share it.
    static LAST: std::cell::RefCell<Option<(engine::job::Job, Result<engine::job::JobReport, String>)>> =
        const { std::cell::RefCell::new(None) };
}

/// `job` evaluated, or why not: the last evaluation again when it is the same job.
fn evaluated(job: &engine::job::Job) -> Result<engine::job::JobReport, String> {
    if let Some(r) = LAST.with(|l| {
        l.borrow()
            .as_ref()
            .and_then(|(j, r)| (j == job).then(|| r.clone()))
    }) {
        return r;
    }
    let r = engine::job::evaluate(job).map_err(|e| e.to_string());
    LAST.with(|l| *l.borrow_mut() = Some((job.clone(), r.clone())));
    r
}

/// The tornado of the job of the scenario `query`: eight evaluations and more, too long a
/// task to follow each input on the page's thread.
fn tornado(query: String) -> Reply {
    let job = engine::Scenario::from_query(&query).0.job;
    let (base, swings) = evaluated(&job)
        .ok()
        .and_then(|r| engine::job::tornado_from(&job, &r, 0.2).ok())
        .unwrap_or((f64::NAN, Vec::new()));
    Reply::Tornado {
        query,
        base,
        swings,
    }
}

/// The break-even curve of the job of the scenario `query` against the platform it is
/// compared with (with as many chips, rented), along the job's lever: 41 points.
fn break_even(query: String) -> Reply {
    let job = engine::Scenario::from_query(&query).0.job;
    let curve = (|| {
        let sys = engine::system::find(&job.compare_with).ok()?;
        let other = engine::job::Job {
            owned: false,
            ..job.on_platform(&job.compare_with)?
        };
        let r = evaluated(&job).ok()?;
        let (points, target, at) =
            engine::job::sensitivity(&job, &r, &other, job.lever, 41).ok()?;
        Some((points, target, at.unwrap_or(f64::NAN), sys.name.to_string()))
    })();
    let (points, target, at, name) =
        curve.unwrap_or((Vec::new(), f64::NAN, f64::NAN, String::new()));
    Reply::BreakEven {
        query,
        points,
        target,
        at,
        name,
    }
}

/// The verdict on every price basis between the job of the scenario `query` and the same job
/// on the platform it is compared with, with as many chips.
fn verdict(query: String) -> Reply {
    let job = engine::Scenario::from_query(&query).0.job;
    let name =
        |id: &str| engine::system::find(id).map_or_else(|_| id.to_string(), |s| s.name.to_string());
    let sentence = (|| {
        let r = evaluated(&job).ok()?;
        let other = job.on_platform(&job.compare_with)?;
        let or = engine::job::evaluate(&other).ok()?;
        let v = engine::job::basis_verdicts(&job, &r, &other, &or);
        engine::job::verdict_sentence(
            &name(&job.system),
            &name(&job.compare_with),
            r.price.basis?,
            &v,
        )
    })()
    .unwrap_or_default();
    Reply::Verdict { query, sentence }
}

/// A chip's errors on the held-out published runs, training's and serving's: the page's
/// ranges stand on them, and evaluating every run is too long a task for the page's thread.
fn errors(chip: &str) {
    use engine::calibration::Family;
    let Ok(c) = engine::find(chip) else {
        return error(format!("no chip '{chip}'"));
    };
    let [training, serving] = POINTS.with(|p| {
        let points = p.get_or_init(engine::calibration::calibration);
        [Family::Training, Family::Serving]
            .map(|f| engine::uncertainty::errors(points, f, &c).encode())
    });
    post(&Reply::Errors {
        chip: chip.into(),
        training,
        serving,
    });
}

fn spec_of(query: &str) -> Result<KernelSpec, String> {
    let (spec, notes) = KernelSpec::from_pairs(
        query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| p.split_once('=').unwrap_or((p, ""))),
    );
    match notes.first() {
        None => Ok(spec),
        Some(n) => Err(n.clone()),
    }
}

fn run(query: &str) {
    let spec = match spec_of(query) {
        Ok(s) => s,
        Err(e) => return error(e),
    };
    stage("drawing the inputs, rounding them and computing the f64 reference");
    let t0 = now_ms();
    let prepared = match kernels::prepare(&spec) {
        Ok(p) => p,
        Err(e) => return error(e),
    };
    stage("running the kernel");
    let t1 = now_ms();
    let mut raw = kernels::execute(&prepared);
    let mut best = now_ms() - t1;
    // A wasm function's first call runs in the browser's baseline compiler; short kernels run
    // again (same inputs, same result) so the figure is the optimized code's, best of up to 5.
    let mut reps = 1;
    while reps < 5 && best < 300.0 && now_ms() - t1 < 1500.0 {
        let t = now_ms();
        raw = kernels::execute(&prepared);
        best = best.min(now_ms() - t);
        reps += 1;
    }
    let t2 = now_ms();
    stage("measuring the error");
    let result = kernels::finish(&prepared, &raw);
    let t3 = now_ms();
    let timing = render::Timing {
        prepare_ms: t1 - t0,
        kernel_ms: best,
        reps,
        finish_ms: t3 - t2,
    };
    post(&Reply::Result(render::result(&spec, &result, &timing)));
}

/// The same shape across formats, block sizes and accumulators: what each choice costs.
fn sweep(query: &str) {
    let base = match spec_of(query) {
        Ok(s) => s,
        Err(e) => return error(e),
    };
    let mut rows = Vec::new();
    let recipes = [
        "bf16", "fp16", "int8", "fp8e4m3", "fp8e5m2", "mxfp8", "mxfp6", "fp6e3m2", "mxfp4", "nvfp4",
    ];
    let mut variants: Vec<(String, KernelSpec)> = recipes
        .iter()
        .filter_map(|r| {
            let o = Operand::parse(r).ok()?;
            let label = match *r {
                "fp6e3m2" => "MXFP6 E3M2".to_string(),
                "mxfp6" => "MXFP6 E2M3".to_string(),
                r if r.starts_with("mx") || r.starts_with("nv") => r.to_uppercase(),
                _ => o.label(),
            };
            let o = if *r == "fp6e3m2" {
                Operand {
                    scaling: engine::formats::Scaling::MX,
                    ..o
                }
            } else {
                o
            };
            Some((
                label,
                KernelSpec {
                    input: o,
                    weight: o,
                    ..base
                },
            ))
        })
        .collect();
    // Block size and scale format for the FP4 element, the case where they matter most.
    for size in [8u32, 16, 32, 64, 128] {
        for scale in engine::formats::ScaleFormat::ALL {
            let sc = engine::formats::Scaling::Block { size, scale };
            let o = Operand {
                format: engine::formats::Format::E2m1,
                scaling: sc,
            };
            variants.push((
                format!(
                    "FP4 E2M1, block {size}, {} scale",
                    scale.id().to_uppercase()
                ),
                KernelSpec {
                    input: o,
                    weight: o,
                    ..base
                },
            ));
        }
    }
    if matches!(
        base.kernel,
        kernels::Kernel::Gemm | kernels::Kernel::Attention
    ) {
        for acc in [kernels::Accumulator::Bf16, kernels::Accumulator::Fp16] {
            variants.push((
                format!(
                    "{}, {} accumulator",
                    base.input.label(),
                    acc.id().to_uppercase()
                ),
                KernelSpec { acc, ..base },
            ));
        }
    }
    let total = variants.len();
    for (i, (label, spec)) in variants.into_iter().enumerate() {
        stage(format!("{} of {total}: {label}", i + 1));
        match kernels::run(&spec) {
            Ok(r) => rows.push((label, r.error)),
            Err(e) => return error(e),
        }
    }
    post(&Reply::Sweep(render::sweep(&base, &rows)));
}

/// This thread's f32 GEMM rate and STREAM bandwidths, measured as one of `threads` at once.
fn bench(threads: u32) {
    let n = 384;
    let mut rng = Rng::new(7);
    let a = Distribution::Normal.sample(&mut rng, n, n);
    let b = Distribution::Normal.sample(&mut rng, n, n);
    let mut best = f64::INFINITY;
    let mut sink = 0.0f32;
    // A wasm function starts in the browser's baseline compiler and is swapped for optimized
    // code once that compiles in the background, which on a busy machine can take longer
    // than a few runs: keep running for at least half a second (at most 40 runs), best of all.
    let start = now_ms();
    let mut reps = 0;
    while reps < 4 || (now_ms() - start < 500.0 && reps < 40) {
        let t = now_ms();
        sink += kernels::gemm::gemm_f32(&a, &b, n, n, n)[0];
        best = best.min(now_ms() - t);
        reps += 1;
    }
    let gflops = 2.0 * (n as f64).powi(3) / (best.max(1e-3) * 1e-3) / 1e9;
    // 32 MiB per array, past the caches of any core.
    let len = 8 << 20;
    let (mut x, y, z) = (vec![1.0f32; len], vec![2.0f32; len], vec![3.0f32; len]);
    let mut detail = Vec::new();
    let mut triad = 0.0;
    for k in Stream::ALL {
        let mut t_best = f64::INFINITY;
        for _ in 0..3 {
            let t = now_ms();
            sink += k.run(&mut x, &y, &z, 0.5);
            t_best = t_best.min(now_ms() - t);
        }
        let gbps = (k.bytes_per_element() * len) as f64 / (t_best.max(1e-3) * 1e-3) / 1e9;
        if k == Stream::Triad {
            triad = gbps;
        }
        detail.push(format!("{}={gbps:.2}", k.id()));
    }
    post(&Reply::Bench {
        threads,
        gflops,
        gbps: triad,
        detail: format!("{} sink={}", detail.join(","), u8::from(sink.is_finite())),
    });
}

/// Simulate a NeuronCore experiment: its point, its result, then the timeline as a
/// `Float64Array`.
fn neuroncore(text: &str) {
    use engine::neuroncore::spec::Experiment;
    let e = match Experiment::parse(text) {
        Ok(e) => e,
        Err(err) => return nc_error(err),
    };
    let t0 = now_ms();
    let s = match e.schedule() {
        Ok(s) => s,
        Err(err) => return nc_error(err),
    };
    let t1 = now_ms();
    let r = engine::neuroncore::simulate(&s);
    let t2 = now_ms();
    let html = core::result_html(&e, &s, &r, t1 - t0, t2 - t1);
    // The Roofline page draws the whole chip: every core running this schedule.
    let cores = engine::catalog::find(&e.chip).map_or(1, |c| c.cores.value);
    post(&Reply::NcPoint {
        intensity: r.intensity(),
        flops_per_s: r.flops_per_s() * f64::from(cores),
    });
    let (v, whats) = core::spans(&s, &r);
    post(&Reply::NcResult {
        whats: whats.iter().map(ToString::to_string).collect(),
        html,
    });
    let arr = js_sys::Float64Array::from(&v[..]);
    let _ = scope().post_message(&arr);
}

/// Search a matmul's tiles: stages while it works, then the table.
fn neuroncore_tune(text: &str) {
    use engine::neuroncore::spec::{Experiment, Kernel};
    let e = match Experiment::parse(text) {
        Ok(e) => e,
        Err(err) => return nc_error(err),
    };
    let Kernel::Matmul(base) = &e.kernel else {
        return nc_error("autotune searches a matmul's blocks; choose the matmul kernel");
    };
    let core = match e.core() {
        Ok(c) => c,
        Err(err) => return nc_error(err),
    };
    stage("listing the block sizes that fit and their lower bounds");
    let mut last = now_ms();
    let found = engine::neuroncore::tune::tune(&core, base, 8, |done, of| {
        if now_ms() - last > 150.0 {
            last = now_ms();
            stage(format!(
                "simulated {done} of up to {} candidates",
                of.min(engine::neuroncore::tune::MAX_SIMULATED)
            ));
        }
        true
    });
    post(&Reply::NcTuned(core::tune_html(&e, &found)));
}
