//! Property/fuzz run over the engine's two ways in: share links and JSON files (scenarios and
//! jobs, as the CLI reads them).
//!
//! `cargo run --release -p engine --example fuzz -- [COUNT]` feeds COUNT inputs (default one
//! million; 70% links, 20% scenario files, 10% job files), generated and mutated from a fixed
//! seed, through decoding and evaluation: links over every key the decoder knows, with huge
//! and zero counts, 1e12 chips, 1 EiB messages, NaN, infinities, negative and absurd numbers,
//! unknown versions, repeated keys, truncation, flipped bytes, percent garbage and a rare 1 MB
//! string; and JSON written from valid scenarios and jobs, then given wrong numbers and types
//! (negative, 1e308, 2^32, NaN-like strings), dropped, renamed and repeated keys, truncated
//! and flipped. The properties:
//!
//! - decoding never panics (a panic is reported with the input that caused it);
//! - one decode (or [`Scenario::check`]) names at most [`MAX_NOTICES`] + 1 problems;
//! - what a link decodes to (and what a file's link form decodes to) encodes and decodes back
//!   to itself, with no notice the second time;
//! - the job of every decoded scenario, and of every JSON file that parses, whether `check`
//!   accepts it or not (`accelscope sweep` evaluates files it has changed without checking
//!   them), fails to evaluate or shows only finite numbers: the report's figures and
//!   [`headline`]'s, except serving cost where the model does not fit (documented as NaN);
//!   and the report's chip count is nodes × chips per domain;
//! - [`evaluate`] and [`headline`] agree on whether a job can be evaluated.
//!
//! A JSON file that `check` accepts but whose link opens as another scenario is listed as an
//! observation, not a failure. To stay within a minute or so on two cores, job settings come
//! from pools of 10,000 link fragments and 10,000 JSON jobs drawn at the start (so a few
//! thousand distinct jobs are evaluated, each once), and a decoded state seen before is not
//! encoded again. The closing note gives the count, the time and the three slowest inputs
//! (each candidate timed once more on its own, the shorter kept, so a busy machine's pauses
//! are not charged to it); the exit code is 1 when any property failed.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::time::Instant;

use engine::job::Job;
use engine::kernels::Rng;
use engine::scenario::Scenario;

use book::{lock, print_book, Report, Shared, Stats};
use inputs::{gen_json, gen_link, Pools};
use judge::{differing, judge};
use links::huge;
use words::{clip, Kind, SEED};

mod book;
mod inputs;
mod json;
mod judge;
mod links;
mod words;

/// Ten inputs in this many (seven links, three JSON files) are about a megabyte long.
const HUGE_EVERY: u64 = 500_000;

/// Decode one input and check every property on it.
fn run(kind: Kind, input: &str, sh: &Shared, st: &mut Stats) {
    let file = match kind {
        Kind::Link => {
            let (a, notes) = Scenario::from_query(input);
            sh.notices(&notes, kind, input);
            // A state seen before had its job evaluated then.
            if sh.round_trip(&a, kind, input) {
                sh.job(&a.job, kind, input);
            }
            return;
        }
        Kind::ScenarioJson => serde_json::from_str::<Scenario>(input).ok(),
        Kind::JobJson => serde_json::from_str::<Job>(input).ok().map(|job| Scenario {
            job,
            ..Scenario::default()
        }),
    };
    let Some(s) = file else { return };
    st.parsed += 1;
    let notes = s.check();
    sh.notices(&notes, kind, input);
    let (a, _) = Scenario::from_query(&s.to_query());
    if notes.is_empty() {
        st.accepted += 1;
        if a != s {
            let (what, said) = differing(&s, &a);
            Shared::record(
                &sh.observations,
                &Report {
                    class: "a file check() accepts opens as another scenario from its link",
                    sign: &what,
                    kind,
                    input,
                    detail: &said,
                },
            );
        }
    }
    sh.round_trip(&a, kind, input);
    sh.job(&s.job, kind, input);
}

/// Microseconds to decode an input and do all its checks with no cache: its own time.
fn own_time(kind: Kind, input: &str) -> u128 {
    let start = Instant::now();
    let decoded = match kind {
        Kind::Link => Some(Scenario::from_query(input).0),
        Kind::ScenarioJson => serde_json::from_str::<Scenario>(input).ok().inspect(|s| {
            let _ = s.check();
        }),
        Kind::JobJson => serde_json::from_str::<Job>(input).ok().map(|job| {
            let s = Scenario {
                job,
                ..Scenario::default()
            };
            let _ = s.check();
            s
        }),
    };
    if let Some(s) = decoded {
        let a = Scenario::from_query(&s.to_query()).0;
        let _ = Scenario::from_query(&a.to_query());
        let _ = judge(&s.job);
    }
    start.elapsed().as_micros()
}

thread_local! {
    /// The input being decoded, for the panic hook (a release build aborts on panic).
    static CURRENT: RefCell<(&'static str, String)> = const { RefCell::new(("", String::new())) };
}

/// Thread `t` of `threads`: inputs t, t + threads, … below `count`.
fn worker(t: u64, threads: u64, count: u64, p: &Pools, sh: &Shared) -> Stats {
    let mut st = Stats::default();
    let mut i = t;
    while i < count {
        let mut r = Rng::new(SEED ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let kind = match i % 10 {
            0..=6 => Kind::Link,
            7 | 8 => Kind::ScenarioJson,
            _ => Kind::JobJson,
        };
        let input = match kind {
            _ if i % HUGE_EVERY < 10 => huge(&mut r, kind),
            Kind::Link => gen_link(&mut r, p),
            _ => gen_json(&mut r, p, kind),
        };
        CURRENT.with_borrow_mut(|c| {
            c.0 = kind.name();
            c.1 = clip(&input, 300);
        });
        let start = Instant::now();
        let res = panic::catch_unwind(AssertUnwindSafe(|| run(kind, &input, sh, &mut st)));
        let us = start.elapsed().as_micros();
        if res.is_err() {
            let f = Report {
                class: "panic",
                sign: "",
                kind,
                input: &input,
                detail: "panicked (message above)",
            };
            Shared::record(&sh.failures, &f);
        }
        *st.inputs.entry(kind).or_default() += 1;
        if res.is_ok() && st.slower(us) {
            // A busy machine's pauses are not the input's: time it once more on its own and
            // keep the shorter.
            let again = panic::catch_unwind(|| own_time(kind, &input)).unwrap_or(us);
            let us = us.min(again);
            st.timed(us, kind, input.len(), || clip(&input, 200));
        }
        i += threads;
    }
    st
}

fn main() {
    let count: u64 = match std::env::args().nth(1) {
        None => 1_000_000,
        Some(a) => match a.replace('_', "").parse() {
            Ok(n) => n,
            Err(_) => {
                eprintln!("usage: fuzz [COUNT]   (COUNT defaults to 1000000)");
                std::process::exit(2);
            }
        },
    };
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        let (kind, input) = CURRENT.with(|c| c.try_borrow().map(|c| c.clone()).unwrap_or_default());
        eprintln!("FAIL: panic on a {kind} input: {input}");
        default_hook(info);
        if cfg!(panic = "abort") {
            // An abort would lose the report: stop here with the failure's exit code.
            std::process::exit(1);
        }
    }));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let start = Instant::now();
    let pools = Pools::new();
    let shared = Shared::default();
    let mut stats = Stats::default();
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let (p, sh) = (&pools, &shared);
                s.spawn(move || worker(t, threads, count, p, sh))
            })
            .collect();
        for h in hs {
            match h.join() {
                Ok(st) => stats.merge(st),
                Err(_) => {
                    let f = Report {
                        class: "panic",
                        sign: "thread",
                        kind: Kind::Link,
                        input: "",
                        detail: "a worker thread died",
                    };
                    Shared::record(&shared.failures, &f);
                }
            }
        }
    });
    let secs = start.elapsed().as_secs_f64();

    let n = |k| stats.inputs.get(&k).copied().unwrap_or(0);
    let (links, sj, jj) = (n(Kind::Link), n(Kind::ScenarioJson), n(Kind::JobJson));
    let total = links + sj + jj;
    let failures = shared
        .failures
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let observations = shared
        .observations
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let failed: usize = failures.values().map(|c| c.count).sum();

    println!("fuzz: seed {SEED:#x}, {threads} threads");
    println!("  inputs:       {total}");
    println!("  links:        {links}");
    println!(
        "  JSON files:   {} ({sj} scenarios, {jj} jobs); {} parse, {} of those pass check()",
        sj + jj,
        stats.parsed,
        stats.accepted
    );
    println!(
        "  decoded states encoded and decoded again: {}",
        lock(&shared.states).len()
    );
    println!(
        "  distinct jobs evaluated: {} ({} evaluate, {} are refused)",
        lock(&shared.cache).len(),
        shared.evaluated_ok.load(Ordering::Relaxed),
        shared.evaluated_err.load(Ordering::Relaxed)
    );
    println!("  failures:     {failed}");
    print_book("", &failures);
    print_book("observation: ", &observations);
    println!("  total time:   {secs:.1} s");
    println!("  slowest inputs:");
    for (us, kind, len, input) in &stats.slowest {
        println!("    {us} µs  {} of {len} bytes: {input}", kind.name());
    }
    let slowest = stats
        .slowest
        .first()
        .map_or(String::new(), |(us, k, len, s)| {
            let start: String = s.chars().take(60).collect();
            format!(
                "; slowest {:.1} ms ({} of {len} bytes: {start}…)",
                *us as f64 / 1e3,
                k.name()
            )
        });
    println!("fuzz: {total} inputs in {secs:.1} s, {failed} failures{slowest}");
    if failed > 0 {
        std::process::exit(1);
    }
}
