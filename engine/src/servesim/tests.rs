use super::*;
use crate::dtype::Dtype;
use crate::system::{self, Cluster};
use crate::workload::{find_model, infer, InferConfig};

/// One replica of `model` in `dtype` on `tp` chips of `system`, 1,024 prompt and 256 output
/// tokens, `compiled` for those shapes if given: its step model, and the analytic per-token
/// latency of one request alone.
fn replica(
    (system, model, dtype, tp): (&str, &str, Dtype, u32),
    compiled: Option<crate::workload::Compiled>,
) -> (StepModel, f64) {
    let sys = system::find(system).unwrap();
    let chip = crate::catalog::find(sys.chip).unwrap();
    let cluster = Cluster {
        system: sys,
        nodes: 1,
    };
    let mut cfg = InferConfig::new(find_model(model).unwrap(), dtype, 1, 1024, 256);
    cfg.tp = Some(tp);
    cfg.compiled = compiled;
    let r = infer(&cluster, &chip, &cfg).unwrap();
    (r.step_model, r.latency_per_token.get())
}

/// Llama 3 70B in FP8 on 4 of an HGX H200's GPUs: the deployment.
fn h200() -> (StepModel, f64) {
    replica(("hgx-h200-8", "llama3-70b", Dtype::Fp8, 4), None)
}

fn run(traffic: Traffic, rate: f64, duration: f64, prefix: bool) -> SimReport {
    let (sm, _) = h200();
    let mut cfg = SimConfig::new(traffic, rate, 1024, 256);
    cfg.duration_s = duration;
    cfg.prefix_cache = prefix;
    simulate(&sm, &cfg).unwrap()
}

/// Relative agreement of the simulator with the analytic model when a request runs alone:
/// each step is costed by the same [`StepModel`], and a decode step's time is linear in its
/// context (on a compiled graph, constant at its bucket), so the mean over a request's steps
/// is the analytic step at the mean context; only rounding is left (measured: 3e-13 on
/// H200, 8e-15 on Trn2).
const ALONE: f64 = 1e-9;

#[test]
fn at_low_load_it_agrees_with_the_analytic_model() {
    let (_, analytic) = h200();
    let r = run(Traffic::Poisson, 0.05, 600.0, true);
    assert!(r.completed >= 10, "{}", r.completed);
    let err = r.tpot_s.p50 / analytic - 1.0;
    assert!(
        err.abs() < ALONE,
        "TPOT {} against {analytic}: {err}",
        r.tpot_s.p50
    );
}

#[test]
fn inter_token_gaps_show_what_averages_hide() {
    // Alone, every gap is the step: ITL and TPOT agree.
    let r = run(Traffic::Poisson, 0.05, 600.0, true);
    assert!(
        (r.itl_s.p50 / r.tpot_s.p50 - 1.0).abs() < 0.03,
        "{:?} {:?}",
        r.itl_s,
        r.tpot_s
    );
    // Under load, an engine that runs prompts in steps of their own stalls the decoding
    // sequences now and then: the token that waited shows in ITL's tail, not in TPOT's.
    let (sm, _) = h200();
    let mut cfg = SimConfig::new(Traffic::Poisson, 4.0, 1024, 256);
    cfg.duration_s = 120.0;
    engines::find("vllm").unwrap().apply(&mut cfg);
    let r = simulate(&sm, &cfg).unwrap();
    assert!(
        r.itl_s.p99 > 1.5 * r.tpot_s.p99,
        "{:?} {:?}",
        r.itl_s,
        r.tpot_s
    );
    // The mean gap is the token-weighted mean of TPOT: close to it with equal outputs.
    assert!(
        (r.itl_s.mean / r.tpot_s.mean - 1.0).abs() < 0.05,
        "{:?} {:?}",
        r.itl_s,
        r.tpot_s
    );
}

#[test]
fn ttft_rises_with_load() {
    let idle = run(Traffic::Poisson, 0.05, 600.0, true);
    let mut last = idle.ttft_s.p99;
    for rate in [2.0, 8.0] {
        let r = run(Traffic::Poisson, rate, 120.0, true);
        assert!(r.ttft_s.p99 >= last, "{rate}: {} < {last}", r.ttft_s.p99);
        last = r.ttft_s.p99;
    }
    let over = run(Traffic::Poisson, 200.0, 30.0, true);
    assert!(
        over.ttft_s.p99 > 5.0 * idle.ttft_s.p99,
        "{} against {}",
        over.ttft_s.p99,
        idle.ttft_s.p99
    );
    assert!(over.within_targets < idle.within_targets);
}

#[test]
fn the_same_seed_gives_the_same_result() {
    let a = run(Traffic::Chat, 3.0, 60.0, true);
    let b = run(Traffic::Chat, 3.0, 60.0, true);
    assert_eq!(a, b);
    let (sm, _) = h200();
    let mut cfg = SimConfig::new(Traffic::Chat, 3.0, 1024, 256);
    cfg.duration_s = 60.0;
    cfg.seed = 2;
    assert_ne!(simulate(&sm, &cfg).unwrap().ttfts, a.ttfts);
}

#[test]
fn the_prefix_cache_shortens_agentic_turns() {
    let with = run(Traffic::Agentic, 2.0, 300.0, true);
    let without = run(Traffic::Agentic, 2.0, 300.0, false);
    assert!(with.prefix_hit > 0.3, "{}", with.prefix_hit);
    assert_eq!(without.prefix_hit, 0.0);
    assert!(
        with.ttft_s.p50 < without.ttft_s.p50,
        "{} against {}",
        with.ttft_s.p50,
        without.ttft_s.p50
    );
}

#[test]
fn a_trace_is_read_and_served() {
    let t = Traffic::parse_trace("arrival_s,prompt,output\n0.5,100,10\n# a comment\n0.1,200,20\n")
        .unwrap();
    let Traffic::Trace(rows) = &t else { panic!() };
    assert_eq!(rows[0].at_s, 0.1);
    let r = run(t, 1.0, 10.0, true);
    assert_eq!(r.completed, 2);
    for bad in ["1,2", "x,1,1\n2,y,1", "-1,1,1", "1,0,1", ""] {
        assert!(Traffic::parse_trace(bad).is_err(), "{bad}");
    }
}

#[test]
fn percentiles_are_nearest_rank() {
    let xs: Vec<f64> = (1..=100).map(f64::from).collect();
    let p = percentiles(&xs);
    assert_eq!((p.p50, p.p90, p.p99), (50.0, 90.0, 99.0));
}

#[test]
fn the_load_curve_finds_the_highest_load_within_targets() {
    let (sm, _) = h200();
    let mut cfg = SimConfig::new(Traffic::Poisson, 1.0, 1024, 256);
    cfg.duration_s = 60.0;
    cfg.ttft_target_s = 0.5;
    cfg.tpot_target_s = 0.03;
    let mut seen = 0;
    let (curve, max) = load_curve(&sm, &cfg, (0.5, 50.0), 6, 4, &mut |k, _| seen = k).unwrap();
    assert_eq!(seen, 10);
    let max = max.unwrap();
    assert!(max > 0.5 && max < 50.0, "{max}");
    // Every rate at or below it that was simulated holds; the first above it does not.
    assert!(curve.iter().filter(|p| p.rate <= max).all(|p| p.holds));
    assert!(curve.iter().any(|p| p.rate > max && !p.holds));
}

#[test]
fn a_jobs_serving_step_is_what_its_simulation_runs() {
    // The default job serves Llama 3 70B in BF16: 70.6e9 parameters × 2 bytes = 141 GB of
    // weights, as much as one H200 holds (141 GB), so a replica takes two GPUs.
    let job = crate::job::Job::default();
    assert_eq!((job.model.as_str(), job.dtype), ("llama3-70b", Dtype::Bf16));
    let (sm, tpot, tp) = crate::job::serve_step(&job, "hgx-h200-8").unwrap();
    assert_eq!((tp, sm.tp), (2, 2));
    // The analytic TPOT it returns is the one a request alone is simulated at, on its steps.
    let cfg = SimConfig::new(Traffic::Poisson, 0.05, job.prompt, job.output);
    let r = simulate(&sm, &cfg).unwrap();
    let err = r.tpot_s.p50 / tpot - 1.0;
    assert!(err.abs() < ALONE, "TPOT {} against {tpot}", r.tpot_s.p50);
}

/// One Trainium2 chip serving Llama 3 8B in BF16 from graphs compiled for `batch` sequences
/// of up to 2,048 tokens.
fn trn2(batch: u32) -> (StepModel, f64) {
    let graph = crate::workload::Compiled {
        batch,
        seq: 2048,
        buckets: &[],
    };
    replica(("trn2-16", "llama3-8b", Dtype::Bf16, 1), Some(graph))
}

#[test]
fn a_compiled_replica_runs_its_whole_graph_and_holds_no_more() {
    // Alone, a request decodes on the graph of 32 sequences: what the analytic model says of
    // one request on that graph, and slower than on a graph of one.
    let (sm, analytic) = trn2(32);
    let mut cfg = SimConfig::new(Traffic::Poisson, 0.05, 1024, 256);
    let r = simulate(&sm, &cfg).unwrap();
    let err = r.tpot_s.p50 / analytic - 1.0;
    assert!(
        err.abs() < ALONE,
        "TPOT {} against {analytic}",
        r.tpot_s.p50
    );
    let (sm1, _) = trn2(1);
    assert!(r.tpot_s.p50 > simulate(&sm1, &cfg).unwrap().tpot_s.p50);
    // Under load it never runs more than the graph holds, whatever the engine's cap.
    cfg.rate = 50.0;
    cfg.duration_s = 20.0;
    cfg.max_seqs = 256;
    let r = simulate(&sm, &cfg).unwrap();
    let most = r.timeline.iter().map(|b| b.running).fold(0.0, f64::max);
    assert!(most <= 32.0 + 1e-9, "{most}");
    assert!(most > 16.0, "{most}");
    // A prompt past the graph's last bucket (2,048) is prefilled whole, never as less.
    let long = SimConfig::new(Traffic::Poisson, 0.05, 3000, 64);
    let r = simulate(&sm, &long).unwrap();
    let short = simulate(&sm, &SimConfig::new(Traffic::Poisson, 0.05, 2000, 64)).unwrap();
    assert!(r.completed > 0 && r.ttft_s.p50.is_finite());
    assert!(
        r.ttft_s.p50 > short.ttft_s.p50,
        "{:?} {:?}",
        r.ttft_s,
        short.ttft_s
    );
}
