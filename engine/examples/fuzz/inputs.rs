//! The inputs: pools of job settings drawn once, and links and files drawn from them.

use engine::kernels::Rng;
use engine::scenario::Scenario;
use serde_json::Value;

use crate::json::{damage_json, mutate_json, pick_value};
use crate::links::{damage, link_parts, plausible};
use crate::words::{all_keys, below, chance, is_job_key, pick, Ids, Kind, SEED};

/// Job settings come from pools drawn once (link fragments and JSON jobs, hostile values
/// included) so that a million inputs need only thousands of evaluations; byte damage still
/// makes new jobs now and then.
pub const JOB_LINKS: usize = 10_000;
/// JSON jobs in the pool.
pub const JOB_FILES: usize = 10_000;
/// Valid scenarios that JSON files start from.
pub const SCENARIOS: usize = 256;

/// Job settings drawn once (link fragments and JSON jobs, hostile values included) and the
/// scenarios files start from.
pub struct Pools {
    pub ids: Ids,
    /// `w…=…&w…=…` link fragments that set the job.
    pub job_links: Vec<String>,
    /// JSON jobs, mostly mutated.
    pub job_files: Vec<Value>,
    /// Valid scenarios as JSON, their job left at the default.
    pub scenarios: Vec<Value>,
}

impl Pools {
    pub fn new() -> Self {
        let mut p = Self {
            ids: Ids::new(),
            job_links: Vec::new(),
            job_files: Vec::new(),
            scenarios: Vec::new(),
        };
        let mut r = Rng::new(SEED);
        let r = &mut r;
        let job_keys: Vec<&str> = all_keys().into_iter().filter(|k| is_job_key(k)).collect();
        let other = p.ids.other_keys.clone();
        for _ in 0..JOB_LINKS {
            let n = 1 + below(r, 4);
            p.job_links
                .push(link_parts(r, &p.ids, &job_keys, n, 0.4).join("&"));
        }
        for _ in 0..JOB_FILES {
            let n = below(r, 4);
            let good = link_parts(r, &p.ids, &job_keys, n, 0.0).join("&");
            let job = Scenario::from_query(&good).0.job;
            let mut v = serde_json::to_value(job).unwrap_or(Value::Null);
            // A few stay valid: the happy path is decoded and evaluated too.
            let n = if chance(r, 0.1) { 0 } else { 1 + below(r, 3) };
            for _ in 0..n {
                mutate_json(r, &mut v, false);
            }
            p.job_files.push(v);
        }
        for _ in 0..SCENARIOS {
            let n = below(r, 6);
            let good = link_parts(r, &p.ids, &other, n, 0.0).join("&");
            let sc = Scenario::from_query(&good).0;
            p.scenarios
                .push(serde_json::to_value(sc).unwrap_or(Value::Null));
        }
        p
    }
}

/// A link: the pools' job settings among other keys, repeated, reordered and damaged.
pub fn gen_link(r: &mut Rng, p: &Pools) -> String {
    let mut q = Vec::new();
    if chance(r, 0.3) {
        q.push(format!("v={}", plausible("v", r, &p.ids)));
    }
    let n = below(r, 7);
    let mut parts = link_parts(r, &p.ids, &p.ids.other_keys, n, 0.4);
    if parts.is_empty() || chance(r, 0.6) {
        let at = below(r, parts.len() + 1);
        parts.insert(at, pick(r, &p.job_links).to_string());
    }
    for part in parts {
        // Repeated keys: a few times, or past the notice limit.
        let reps = if chance(r, 0.025) {
            [2, 3, 20, 21, 22, 25, 40, 200][below(r, 7) + usize::from(chance(r, 0.1))]
        } else {
            1
        };
        for _ in 0..reps {
            q.push(part.clone());
        }
    }
    if chance(r, 0.1) {
        let k = below(r, q.len());
        q.swap(0, k);
    }
    let mut s = q.join("&");
    if chance(r, 0.05) {
        s.insert(0, '?');
    }
    damage(r, s, 0.08)
}

/// A scenario or job file: the pools' jobs and scenarios, mutated and damaged.
pub fn gen_json(r: &mut Rng, p: &Pools, kind: Kind) -> String {
    let job = pick_value(r, &p.job_files);
    let v = if kind == Kind::JobJson {
        job
    } else {
        let mut v = pick_value(r, &p.scenarios);
        if chance(r, 0.7) {
            if let Value::Object(m) = &mut v {
                m.insert("job".into(), job);
            }
        }
        let n = if chance(r, 0.3) { 0 } else { 1 + below(r, 3) };
        for _ in 0..n {
            mutate_json(r, &mut v, true);
        }
        v
    };
    let s = if chance(r, 0.2) {
        serde_json::to_string_pretty(&v)
    } else {
        serde_json::to_string(&v)
    };
    damage_json(r, s.unwrap_or_default())
}
