//! What the run found: failures and observations by class with examples, what the threads
//! share, and each thread's counts and slowest inputs.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::hash::Hasher;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use engine::job::Job;
use engine::scenario::{Scenario, MAX_NOTICES};
use serde_json::Value;

use crate::judge::{differing, job_diff, judge, Verdict};
use crate::words::{clip, Kind};

/// Examples kept per failure class, each of a different kind.
pub const EXAMPLES: usize = 8;

pub struct HashOut(DefaultHasher);

impl std::fmt::Write for HashOut {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

/// Failures (or observations) of one class: how many, and examples of different kinds.
#[derive(Default)]
pub struct Class {
    pub count: usize,
    pub seen: HashSet<String>,
    pub examples: Vec<String>,
}

pub type Book = Mutex<BTreeMap<&'static str, Class>>;

/// What the threads share.
#[derive(Default)]
pub struct Shared {
    /// Every job evaluated, by its `Debug` form.
    pub cache: Mutex<HashMap<String, Verdict>>,
    /// Decoded states already encoded and decoded again, by a hash of their `Debug` form.
    pub states: Mutex<HashSet<u64>>,
    pub evaluated_ok: AtomicUsize,
    pub evaluated_err: AtomicUsize,
    pub failures: Book,
    pub observations: Book,
}

pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One failure: its class, what tells its kind apart within the class, and what it was.
pub struct Report<'a> {
    pub class: &'static str,
    pub sign: &'a str,
    pub kind: Kind,
    pub input: &'a str,
    pub detail: &'a str,
}

impl Shared {
    /// Counts a failure and keeps it as an example if it is the first of its kind.
    pub fn record(book: &Book, f: &Report) {
        let mut b = lock(book);
        let c = b.entry(f.class).or_default();
        c.count += 1;
        if c.examples.len() < EXAMPLES && c.seen.insert(format!("{:?} {}", f.kind, f.sign)) {
            c.examples.push(format!(
                "{}: {}\n      input: {}",
                f.kind.name(),
                f.detail,
                clip(f.input, 300)
            ));
        }
    }

    /// The verdict on a job, evaluated the first time it is seen; `true` when it was new.
    pub fn verdict(&self, job: &Job) -> (Verdict, bool) {
        let key = format!("{job:?}");
        if let Some(v) = lock(&self.cache).get(&key) {
            return (v.clone(), false);
        }
        let (ok, v) = judge(job);
        let mut cache = lock(&self.cache);
        if cache.contains_key(&key) {
            return (v, false);
        }
        cache.insert(key, v.clone());
        let n = if ok {
            &self.evaluated_ok
        } else {
            &self.evaluated_err
        };
        n.fetch_add(1, Ordering::Relaxed);
        (v, true)
    }

    /// The evaluation properties of a decoded scenario's job (reported once per job).
    pub fn job(&self, job: &Job, kind: Kind, input: &str) {
        let (v, new) = self.verdict(job);
        if new && !v.problems.is_empty() {
            let diff = job_diff(job);
            let detail = format!(
                "{} (the job differs from the default in {diff})",
                v.problems.join("; ")
            );
            // One example per field that breaks and set of job settings that breaks it.
            let sign = format!("{} {}", v.sign, diff_keys(&diff));
            let alone = Scenario {
                job: job.clone(),
                ..Scenario::default()
            };
            Self::record(
                &self.failures,
                &Report {
                    class: if alone.check().is_empty() {
                        "evaluation shows a non-finite or wrong number (a job check() accepts)"
                    } else {
                        "evaluation shows a non-finite or wrong number (a job only an unchecked file holds)"
                    },
                    sign: &sign,
                    kind,
                    input,
                    detail: &detail,
                },
            );
        }
    }

    /// The link properties of a decoded scenario: encoding and decoding again is stable.
    /// A state seen before is not checked again (most hostile links decode alike); returns
    /// whether this one was new.
    pub fn round_trip(&self, a: &Scenario, kind: Kind, input: &str) -> bool {
        let mut h = HashOut(DefaultHasher::new());
        let _ = write!(h, "{a:?}");
        if !lock(&self.states).insert(h.0.finish()) {
            return false;
        }
        let q = a.to_query();
        let (b, again) = Scenario::from_query(&q);
        if b != *a {
            let (what, said) = differing(a, &b);
            let detail = format!("{said}; re-encoded as {}", clip(&q, 200));
            Self::record(
                &self.failures,
                &Report {
                    class: "decode(encode(decode(q))) differs",
                    sign: &what,
                    kind,
                    input,
                    detail: &detail,
                },
            );
        } else if !again.is_empty() {
            let detail = format!(
                "'{}' on decoding {}",
                clip(&again[0].to_string(), 120),
                clip(&q, 200)
            );
            Self::record(
                &self.failures,
                &Report {
                    class: "notices on decoding an encoded state",
                    sign: &again[0].key,
                    kind,
                    input,
                    detail: &detail,
                },
            );
        }
        true
    }

    /// At most [`MAX_NOTICES`] + 1 notices.
    pub fn notices(&self, n: &[engine::Notice], kind: Kind, input: &str) {
        if n.len() <= MAX_NOTICES + 1 {
            return;
        }
        let mut past: Vec<&str> = n[MAX_NOTICES..].iter().map(|x| x.key.as_str()).collect();
        past.dedup();
        let past = clip(&past.join(", "), 80);
        // The kind: which decoder parts add notices past the limit.
        let mut sign: Vec<&str> = n[MAX_NOTICES..]
            .iter()
            .map(|x| match x.key.as_str() {
                k if k.starts_with('k') => "kernel",
                "…" => "count",
                k => k,
            })
            .collect();
        sign.sort_unstable();
        sign.dedup();
        let sign = sign.join(",");
        let detail = format!(
            "{} notices; keys past the first {MAX_NOTICES}: {past}; the last: '{}'",
            n.len(),
            clip(&n[n.len() - 1].to_string(), 120)
        );
        Self::record(
            &self.failures,
            &Report {
                class: "more than MAX_NOTICES + 1 notices",
                sign: &sign,
                kind,
                input,
                detail: &detail,
            },
        );
    }
}

/// The keys of a JSON object's text, joined (to tell failures apart).
pub fn diff_keys(json: &str) -> String {
    serde_json::from_str::<serde_json::Map<String, Value>>(json)
        .map(|m| m.keys().cloned().collect::<Vec<_>>().join(","))
        .unwrap_or_default()
}

/// One thread's counts.
#[derive(Default)]
pub struct Stats {
    pub inputs: BTreeMap<Kind, usize>,
    pub parsed: usize,
    pub accepted: usize,
    /// Microseconds, kind, length in bytes and the input's start.
    pub slowest: Vec<(u128, Kind, usize, String)>,
}

impl Stats {
    /// Whether `us` would be among the three slowest.
    pub fn slower(&self, us: u128) -> bool {
        self.slowest.len() < 3 || us > self.slowest[2].0
    }

    pub fn timed(&mut self, us: u128, kind: Kind, len: usize, input: impl FnOnce() -> String) {
        if self.slower(us) {
            self.slowest.push((us, kind, len, input()));
            self.slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
            self.slowest.truncate(3);
        }
    }

    pub fn merge(&mut self, o: Stats) {
        for (k, n) in o.inputs {
            *self.inputs.entry(k).or_default() += n;
        }
        self.parsed += o.parsed;
        self.accepted += o.accepted;
        for (us, k, len, s) in o.slowest {
            self.timed(us, k, len, || s);
        }
    }
}

/// Prints a book's classes, each with its count and examples.
pub fn print_book(title: &str, book: &BTreeMap<&'static str, Class>) {
    for (class, c) in book {
        println!("  {title}{class}: {}", c.count);
        for e in &c.examples {
            println!("    - {e}");
        }
    }
}
