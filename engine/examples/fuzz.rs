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
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::hash::Hasher;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use engine::compare::headline;
use engine::job::{evaluate, Job, Lever};
use engine::kernels::Rng;
use engine::scenario::{enc, Page, Scenario, MAX_NOTICES};
use serde_json::{json, Value};

/// The run's seed: input `i` is drawn from its own stream, so any thread count gives the same
/// inputs.
const SEED: u64 = 0xACC5_C09E_F022_2024;

/// Ten inputs in this many (seven links, three JSON files) are about a megabyte long.
const HUGE_EVERY: u64 = 500_000;

/// Job settings come from pools drawn once (link fragments and JSON jobs, hostile values
/// included) so that a million inputs need only thousands of evaluations; byte damage still
/// makes new jobs now and then.
const JOB_LINKS: usize = 10_000;
/// JSON jobs in the pool.
const JOB_FILES: usize = 10_000;
/// Valid scenarios that JSON files start from.
const SCENARIOS: usize = 256;

/// Examples kept per failure class, each of a different kind.
const EXAMPLES: usize = 8;

/// Every key [`Scenario::from_query`] reads, a few it does not, and disguised ones.
/// Keys that no link has, to mix in.
const JUNK_KEYS: &[&str] = &["zzz", "", "V", "wnodes ", "%77nodes", "k"];

/// Every key of the link-key table, then the junk ones.
fn all_keys() -> Vec<&'static str> {
    engine::scenario::keys::KEYS
        .iter()
        .map(|k| k.key)
        .chain(JUNK_KEYS.iter().copied())
        .collect()
}

/// Values that are wrong almost everywhere.
const HOSTILE: &[&str] = &[
    "",
    "0",
    "-0",
    "1",
    "-1",
    "1e12",
    "1e15",
    "1e16",
    "1e17",
    "1e308",
    "-1e308",
    "1e309",
    "1e-304",
    "5e-324",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "infinity",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "1EiB",
    "1 EiB",
    "1PiB",
    "-5GiB",
    "0x10",
    "1_000",
    "+1",
    " 1",
    "1.",
    ".5",
    "1e",
    "e5",
    "%",
    "%%",
    "%zz",
    "%FF%FE",
    "%00",
    "%E2%82",
    "😀",
    "a,b,,c",
    ",,,",
    "|||",
    ";;;",
    "edit:",
    "edit:trn2-16;torus=100000x100000",
    "edit:trn2-16;torus=0x8",
    "edit:trn2-16;links=1e-6/1e-6",
    "edit:gb200-nvl72;usd=1e12;w=1e12",
    "edit:trn2-16;torus=4x4;outlat=1e12;out=1e-6",
    "gemm:1e15,1e15,1e15",
    "gemm:1e16,1,1",
    "moe:",
    "decode:1e15,1e15,1e15,1e15,1e15,1e15,1e15",
    "trn2|name=x|bf16=1e308",
    "trn2|hbm_bytes=0",
    "cpu1:1e6,1e6;gpu:1,1;cpu2:1,1;cpu3:1,1;cpu4:1,1",
    "cpu0:1,1",
    "cpu99999:1,1",
    "b0e8m0",
    "b4294967296e8m0",
    "mxfp4",
    "trn2",
    "llama3-70b",
    "all-reduce",
];

/// Numbers for counts and sizes, right and wrong.
const NUMS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "2",
    "8",
    "64",
    "512",
    "4096",
    "4097",
    "16384",
    "16385",
    "262144",
    "262145",
    "8388608",
    "2147483648",
    "4294967295",
    "4294967296",
    "1e12",
    "1e15",
    "1e16",
    "1e103",
    "1e308",
    "1e-300",
    "0.5",
    "NaN",
    "inf",
];

/// Numbers inside an edited system's spec.
const EDIT_NUMS: &[&str] = &[
    "1e-6", "1e12", "1", "100", "400", "0", "-1", "1e13", "NaN", "0.5",
];

/// What an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Link,
    ScenarioJson,
    JobJson,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Link => "link",
            Kind::ScenarioJson => "scenario JSON",
            Kind::JobJson => "job JSON",
        }
    }
}

/// Ids the generators draw from.
struct Pools {
    chips: Vec<String>,
    systems: Vec<String>,
    models: Vec<String>,
    dtypes: Vec<String>,
    fields: Vec<String>,
    /// `w…=…&w…=…` link fragments that set the job.
    job_links: Vec<String>,
    /// JSON jobs, mostly mutated.
    job_files: Vec<Value>,
    /// Valid scenarios as JSON, their job left at the default.
    scenarios: Vec<Value>,
    /// The link keys that do not set the job.
    other_keys: Vec<&'static str>,
}

impl Pools {
    fn new() -> Self {
        let own = |v: Vec<&str>| v.into_iter().map(String::from).collect::<Vec<_>>();
        let mut chips = own(engine::catalog::ids());
        chips.extend(["custom-1", "custom-2", "custom-0", "custom-99", "nope"].map(String::from));
        let mut systems = own(engine::system::ids());
        systems.push("nope".into());
        let mut models: Vec<String> = engine::workload::models()
            .into_iter()
            .map(|m| m.id)
            .collect();
        models.push("nope".into());
        let mut dtypes: Vec<String> = engine::Dtype::ALL
            .iter()
            .map(|d| d.id().to_string())
            .collect();
        dtypes.extend(["mxfp8", "nvfp4", "BF16", "fp7"].map(String::from));
        let mut fields: Vec<String> = engine::Field::all()
            .into_iter()
            .map(engine::Field::id)
            .collect();
        fields.push("warp".into());
        let mut p = Self {
            chips,
            systems,
            models,
            dtypes,
            fields,
            job_links: Vec::new(),
            job_files: Vec::new(),
            scenarios: Vec::new(),
            other_keys: all_keys().into_iter().filter(|k| !is_job_key(k)).collect(),
        };
        let mut r = Rng::new(SEED);
        let r = &mut r;
        let job_keys: Vec<&str> = all_keys().into_iter().filter(|k| is_job_key(k)).collect();
        let other = p.other_keys.clone();
        for _ in 0..JOB_LINKS {
            let n = 1 + below(r, 4);
            p.job_links
                .push(link_parts(r, &p, &job_keys, n, 0.4).join("&"));
        }
        for _ in 0..JOB_FILES {
            let n = below(r, 4);
            let good = link_parts(r, &p, &job_keys, n, 0.0).join("&");
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
            let good = link_parts(r, &p, &other, n, 0.0).join("&");
            let sc = Scenario::from_query(&good).0;
            p.scenarios
                .push(serde_json::to_value(sc).unwrap_or(Value::Null));
        }
        p
    }
}

/// Whether a link key sets the job (and so reaches evaluation).
fn is_job_key(k: &str) -> bool {
    k.starts_with('w') || k == "%77nodes"
}

fn below(r: &mut Rng, n: usize) -> usize {
    (r.next_u64() % n as u64) as usize
}

fn chance(r: &mut Rng, p: f64) -> bool {
    r.uniform() < p
}

fn pick<'a, S: AsRef<str>>(r: &mut Rng, xs: &'a [S]) -> &'a str {
    xs[below(r, xs.len())].as_ref()
}

/// A list of 1 to `max` picks, now and then with an empty or hostile element.
fn list<S: AsRef<str>>(r: &mut Rng, xs: &[S], max: usize) -> String {
    let n = 1 + below(r, max);
    let mut v: Vec<String> = (0..n).map(|_| pick(r, xs).to_string()).collect();
    if chance(r, 0.1) {
        v.push(if chance(r, 0.5) {
            String::new()
        } else {
            hostile(r)
        });
    }
    v.join(",")
}

/// A number of any size and sign, in any of Rust's forms.
fn random_number(r: &mut Rng) -> String {
    let x = (r.uniform() * 2.0 - 1.0) * 10f64.powi(below(r, 640) as i32 - 320);
    match below(r, 3) {
        0 => format!("{x}"),
        1 => format!("{x:e}"),
        _ => format!("{}", x as i64),
    }
}

/// Random characters, multi-byte ones included.
fn random_text(r: &mut Rng) -> String {
    let n = 1 + below(r, 24);
    (0..n)
        .map(|_| match below(r, 10) {
            0 => char::from_u32(0x80 + below(r, 0x2000) as u32).unwrap_or('?'),
            1 => pick(r, &["&", "=", "%", "+", "|", ";", ",", ":", "#", "?"])
                .chars()
                .next()
                .unwrap_or('&'),
            _ => char::from(0x20 + below(r, 0x5f) as u8),
        })
        .collect()
}

fn hostile(r: &mut Rng) -> String {
    match below(r, 20) {
        0 | 1 => random_number(r),
        2 => random_text(r),
        _ => pick(r, HOSTILE).to_string(),
    }
}

/// An edited system's id (`edit:BASE;torus=…`), often a wrong one.
fn edit_spec(r: &mut Rng, p: &Pools) -> String {
    let mut s = format!("edit:{}", pick(r, &p.systems));
    for k in [
        "torus", "switch", "links", "out", "outlat", "usd", "w", "warp",
    ] {
        if !chance(r, 0.25) {
            continue;
        }
        let v = match k {
            "torus" => {
                let dims = ["1", "2", "4", "8", "16", "64", "100000", "0"];
                list(r, &dims, 3).replace(',', "x")
            }
            "switch" => pick(r, &["2", "8", "72", "2048", "2049", "100000", "0"]).into(),
            "links" => list(r, EDIT_NUMS, 3).replace(',', "/"),
            _ => pick(r, EDIT_NUMS).into(),
        };
        s.push_str(&format!(";{k}={v}"));
    }
    s
}

fn system(r: &mut Rng, p: &Pools) -> String {
    if chance(r, 0.85) {
        pick(r, &p.systems).into()
    } else {
        edit_spec(r, p)
    }
}

/// A real-valued job key's value: mostly its range's ends, middle and just beyond.
fn in_range(r: &mut Rng, lo: f64, hi: f64) -> String {
    let x = match below(r, 12) {
        0 | 1 => lo,
        2 | 3 => hi,
        4 | 5 => (lo + hi) / 2.0,
        6 => lo - 1e-9 * hi.max(1.0),
        7 => hi * (1.0 + 1e-9),
        8 => -hi,
        9 => hi * 1e3,
        10 if chance(r, 0.1) => lo + (hi - lo) * r.uniform(),
        _ => return pick(r, NUMS).into(),
    };
    format!("{x}")
}

/// A value that could be right for `key`.
fn plausible(key: &str, r: &mut Rng, p: &Pools) -> String {
    if let Some((lo, hi)) = engine::scenario::keys::range(key) {
        return in_range(r, lo, hi);
    }
    let ops = [
        ("gemm", 3),
        ("elem", 4),
        ("prefill", 5),
        ("attn-decode", 5),
        ("decode", 7),
        ("moe", 4),
        ("warp", 2),
    ];
    match key {
        "v" => pick(r, &["1", "2", "0", "3", "999", "-1", "2.0", "", "v2"]).into(),
        "page" => {
            let mut ids: Vec<&str> = Page::ALL.iter().map(|p| p.id()).collect();
            ids.extend(["nowhere", "Workload"]);
            pick(r, &ids).into()
        }
        "chips" => list(r, &p.chips, 6),
        "fmt" | "wdtype" => pick(r, &p.dtypes).into(),
        "rfmt" => list(r, &p.dtypes, 4),
        "op" => {
            let (kind, arity) = ops[below(r, ops.len())];
            let n = if chance(r, 0.1) {
                below(r, arity + 2)
            } else {
                arity
            };
            let vals = [
                "1", "8192", "4096", "1e15", "1e16", "0", "-1", "0.5", "1e-300",
            ];
            let v: Vec<&str> = (0..n).map(|_| pick(r, &vals)).collect();
            format!("{kind}:{}", v.join(","))
        }
        "custom" => {
            let mut s = pick(r, &p.chips).to_string();
            if chance(r, 0.5) {
                s.push_str(&format!("|name={}", random_text(r)));
            }
            for _ in 0..below(r, 3) {
                let f = pick(r, &p.fields).to_string();
                let v = pick(r, NUMS).to_string();
                s.push_str(&format!("|{f}={v}"));
            }
            s
        }
        "sys" | "wsys" | "wref" => system(r, p),
        "csys" => {
            let v: Vec<String> = (0..1 + below(r, 4)).map(|_| system(r, p)).collect();
            v.join(",")
        }
        "sel" | "fail" => pick(
            r,
            &[
                "0",
                "1",
                "15",
                "16",
                "63",
                "64",
                "71",
                "72",
                "511",
                "512",
                "4294967295",
                "4294967296",
                "-1",
                "",
            ],
        )
        .into(),
        "cop" => {
            let ids = [
                "all-reduce",
                "all-gather",
                "reduce-scatter",
                "all-to-all",
                "broadcast",
                "gossip",
            ];
            list(r, &ids, 3)
        }
        "calgo" => {
            let ids = [
                "auto",
                "ring",
                "bi-ring",
                "torus",
                "halving-doubling",
                "direct",
                "in-network",
                "hierarchical",
                "magic",
            ];
            list(r, &ids, 3)
        }
        "nodes" => pick(r, &["1", "2", "4096", "4097", "0", "1e3"]).into(),
        "size" => pick(
            r,
            &[
                "1GiB",
                "1EiB",
                "1 EiB",
                "1PB",
                "1PiB",
                "1e15",
                "1e15B",
                "1.0000001e15",
                "8B",
                "1B",
                "0.99B",
                "1e-304",
                "-5GiB",
                "1TiB",
                "NaNB",
                "infGiB",
                "1e308GiB",
                "0",
            ],
        )
        .into(),
        "wnodes" | "wgbs" | "wbatch" | "wpr" | "wout" => pick(
            r,
            &[
                "1",
                "2",
                "8",
                "64",
                "4096",
                "4097",
                "262144",
                "262145",
                "0",
                "4294967295",
                "1e12",
            ],
        )
        .into(),
        "wopt" => pick(r, &["0", "1", "2", "15", "16"]).into(),
        "wown" => pick(r, &["0", "1", "true", ""]).into(),
        "wlever" => {
            let mut ids: Vec<&str> = Lever::ALL.iter().map(|l| l.id()).collect();
            ids.push("nope");
            pick(r, &ids).into()
        }
        "wmodel" => pick(r, &p.models).into(),
        "dev" => {
            let n = 1 + below(r, 5);
            let v: Vec<String> = (0..n)
                .map(|_| {
                    let engine = if chance(r, 0.3) {
                        "gpu".to_string()
                    } else {
                        format!("cpu{}", pick(r, &["1", "2", "0", "1024", "1025"]))
                    };
                    let nums = [
                        "1", "20.5", "20.518", "999999.9", "1e6", "1e7", "1e-300", "0", "-1",
                        "NaN", "inf",
                    ];
                    format!("{engine}:{},{}", pick(r, &nums), pick(r, &nums))
                })
                .collect();
            v.join(";")
        }
        "kern" => pick(
            r,
            &["gemm", "softmax", "layernorm", "rmsnorm", "attention", "x"],
        )
        .into(),
        "km" | "kn" | "kk" => pick(r, &["1", "64", "512", "16384", "16385", "0"]).into(),
        "kin" | "kw" | "kout" => pick(
            r,
            &[
                "bf16", "fp8", "fp8e4m3", "fp4e2m1", "mxfp4", "nvfp4", "mxfp6", "fp32", "int8", "x",
            ],
        )
        .into(),
        "kins" | "kws" => pick(
            r,
            &[
                "none",
                "tensor",
                "mx",
                "nv",
                "b32e8m0",
                "b16e4m3",
                "b64fp32",
                "b0e8m0",
                "b4294967296e8m0",
            ],
        )
        .into(),
        "kacc" => pick(r, &["fp32", "bf16", "fp16", "x"]).into(),
        "kdist" => pick(r, &["normal", "uniform", "outliers", "llm", "x"]).into(),
        "kseed" => pick(
            r,
            &["0", "9", "18446744073709551615", "18446744073709551616"],
        )
        .into(),
        "ksr" | "ksat" => pick(r, &["0", "1", "2"]).into(),
        _ => hostile(r),
    }
}

/// Key and value pairs of a link; `wrong` is the share of hostile values.
fn link_parts(r: &mut Rng, p: &Pools, keys: &[&str], n: usize, wrong: f64) -> Vec<String> {
    let mut q = Vec::new();
    for _ in 0..n {
        let key = pick(r, keys);
        let mut v = if chance(r, wrong) {
            hostile(r)
        } else {
            plausible(key, r, p)
        };
        if chance(r, wrong / 4.0) {
            v.push_str(&hostile(r));
        }
        let v = if chance(r, 1.0 - wrong / 2.0) {
            enc(&v)
        } else {
            v
        };
        q.push(format!("{key}={v}"));
    }
    q
}

/// An input about a megabyte long.
fn huge(r: &mut Rng, kind: Kind) -> String {
    const MB: usize = 1 << 20;
    if kind != Kind::Link {
        let mut s = Scenario::default();
        match below(r, 3) {
            0 => s.job.system = "x".repeat(MB),
            1 => s.chips = vec!["trn2".to_string(); MB / 6],
            _ => s.job.model = "é".repeat(MB / 2),
        }
        let text = if kind == Kind::JobJson {
            serde_json::to_string(&s.job)
        } else {
            serde_json::to_string(&s)
        };
        return text.unwrap_or_default();
    }
    match below(r, 8) {
        0 => format!("wsys={}", "x".repeat(MB)),
        1 => format!("chips={}", "nope,".repeat(MB / 5)),
        2 => "zzz=1&".repeat(MB / 6),
        3 => "op=gemm:1,1,1&".repeat(MB / 14),
        4 => "%FF".repeat(MB / 3),
        5 => format!("custom=trn2|name={}", "y".repeat(MB)),
        6 => "&".repeat(MB),
        _ => "kern=x&".repeat(MB / 7),
    }
}

/// Byte-level damage: truncation, flipped bytes, percent garbage.
fn damage(r: &mut Rng, s: String, rate: f64) -> String {
    let mut b = s.into_bytes();
    if !b.is_empty() && chance(r, rate) {
        b.truncate(below(r, b.len()));
    }
    if !b.is_empty() && chance(r, rate) {
        for _ in 0..1 + below(r, 3) {
            let i = below(r, b.len());
            b[i] = if chance(r, 0.5) {
                r.next_u64() as u8
            } else {
                b"&=%+,:|;\"{}[]0-e"[below(r, 16)]
            };
        }
    }
    if chance(r, rate / 2.0) {
        let i = below(r, b.len() + 1);
        let junk = pick(r, &["%", "%Z", "%E2%82", "%00", "%%%", "&&", "=="]);
        b.splice(i..i, junk.bytes());
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn gen_link(r: &mut Rng, p: &Pools) -> String {
    let mut q = Vec::new();
    if chance(r, 0.3) {
        q.push(format!("v={}", plausible("v", r, p)));
    }
    let n = below(r, 7);
    let mut parts = link_parts(r, p, &p.other_keys, n, 0.4);
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

fn json_number(r: &mut Rng) -> Value {
    match below(r, 22) {
        0 => json!(-1),
        1 => json!(0),
        2 => json!(-0.0),
        3 => json!(1),
        4 => json!(0.5),
        5 => json!(1e308),
        6 => json!(f64::MAX),
        7 => json!(-1e308),
        8 => json!(5e-324),
        9 => json!(1e12),
        10 => json!(1e16),
        11 => json!(1e17),
        12 => json!(4_294_967_295_u64),
        13 => json!(4_294_967_296_u64),
        14 => json!(8_388_608_u64),
        15 => json!(2_147_483_648_u64),
        16 => json!(u64::MAX),
        17 => json!(i64::MIN),
        18 => json!(4096),
        19 => json!(4097),
        20 => json!(1.5),
        _ => json!(1.152_921_504_606_847e18), // 1 EiB
    }
}

fn json_hostile(r: &mut Rng) -> Value {
    match below(r, 20) {
        0..=11 => json_number(r),
        12 => json!(pick(
            r,
            &["NaN", "inf", "-inf", "1e999", "", "x", "trn2", "1EiB", "-1"]
        )),
        13 => json!(true),
        14 => Value::Null,
        15 => json!([]),
        16 => json!({}),
        17 => json!([1, "a", null]),
        18 => json!({ "a": 1 }),
        _ => json!(hostile(r)),
    }
}

/// A JSON pointer to a random node: from the root into a random child while there is one,
/// stopping early now and then. With `skip_job`, never into the scenario's job.
fn random_pointer(r: &mut Rng, root: &Value, skip_job: bool) -> String {
    let mut at = String::new();
    let mut v = root;
    while at.is_empty() || !chance(r, 0.3) {
        let (seg, next) = match v {
            Value::Object(m) => {
                let keys: Vec<&String> = m
                    .keys()
                    .filter(|k| !(skip_job && at.is_empty() && *k == "job"))
                    .collect();
                if keys.is_empty() {
                    break;
                }
                let k = keys[below(r, keys.len())];
                (k.replace('~', "~0").replace('/', "~1"), &m[k])
            }
            Value::Array(a) if !a.is_empty() => {
                let i = below(r, a.len());
                (i.to_string(), &a[i])
            }
            _ => break,
        };
        at.push('/');
        at.push_str(&seg);
        v = next;
    }
    at
}

/// One structural change: a value replaced, a key dropped, renamed or added, an array grown.
/// With `skip_job`, the scenario's job is left alone (jobs come from the pool).
fn mutate_json(r: &mut Rng, root: &mut Value, skip_job: bool) {
    let at = if chance(r, 0.05) {
        String::new()
    } else {
        random_pointer(r, root, skip_job)
    };
    let parent = at.rsplit_once('/').map_or("", |(p, _)| p).to_string();
    match below(r, 8) {
        0..=3 => {
            if let Some(slot) = root.pointer_mut(&at) {
                *slot = json_hostile(r);
            }
        }
        4 => {
            if let Some(Value::Object(m)) = root.pointer_mut(&parent) {
                if let Some(k) = m.keys().nth(below(r, m.len().max(1))).cloned() {
                    m.remove(&k);
                }
            }
        }
        5 => {
            if let Some(Value::Object(m)) = root.pointer_mut(&parent) {
                let k = m.keys().nth(below(r, m.len().max(1))).cloned();
                let new = match (k.as_deref(), below(r, 4)) {
                    (Some(k), 0) => k.to_uppercase(),
                    (Some(k), 1) => format!("{k}_"),
                    (_, 2) => "device".into(),
                    _ => "zzz".into(),
                };
                let v = match k {
                    Some(k) if chance(r, 0.7) => m.remove(&k).unwrap_or(Value::Null),
                    _ => json!(pick(
                        r,
                        &["cpu1:1,1", "cpu1:20.518,1", "kern=softmax", "", "x"]
                    )),
                };
                m.insert(new, v);
            }
        }
        6 => {
            if let Some(Value::Array(a)) = root.pointer_mut(&parent) {
                if let Some(x) = a.first().cloned() {
                    let n = [1, 2, 40][below(r, 3)];
                    a.extend(std::iter::repeat_n(x, n));
                }
            }
        }
        _ => {
            if let Some(slot) = root.pointer_mut(&parent) {
                *slot = json_hostile(r);
            }
        }
    }
}

/// Text-level damage to JSON: a repeated key, a number JSON cannot hold, truncation, bytes.
fn damage_json(r: &mut Rng, mut s: String) -> String {
    if chance(r, 0.1) {
        let keys = [
            "system",
            "nodes",
            "tokens",
            "model",
            "pue",
            "job",
            "chips",
            "page",
            "efficiency",
            "global_batch",
            "load",
        ];
        let k = format!("\"{}\":", pick(r, &keys));
        if let Some(i) = s.find(&k) {
            let v = json_hostile(r).to_string();
            s.insert_str(i, &format!("{k}{v},"));
        }
    }
    if chance(r, 0.08) {
        let starts: Vec<usize> = s
            .match_indices(':')
            .map(|(i, _)| i + 1)
            .filter(|&i| {
                s.as_bytes()
                    .get(i)
                    .is_some_and(|b| b.is_ascii_digit() || *b == b'-')
            })
            .collect();
        if !starts.is_empty() {
            let i = starts[below(r, starts.len())];
            let end = s[i..]
                .find(|c: char| !(c.is_ascii_digit() || "eE+-.".contains(c)))
                .map_or(s.len(), |n| i + n);
            let bad = [
                "1e999", "NaN", "-0", "1E+308", "00012", "Infinity", "-1e400", "1e-400", "0x10",
            ];
            s.replace_range(i..end, pick(r, &bad));
        }
    }
    damage(r, s, 0.04)
}

fn gen_json(r: &mut Rng, p: &Pools, kind: Kind) -> String {
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

fn pick_value(r: &mut Rng, xs: &[Value]) -> Value {
    xs.get(below(r, xs.len().max(1)))
        .cloned()
        .unwrap_or(Value::Null)
}

/// At most `n` characters, with the length said when cut.
fn clip(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        None => s.to_string(),
        Some((i, _)) => format!("{}… ({} bytes in all)", &s[..i], s.len()),
    }
}

/// The parts of two scenarios that differ: their names, and each part as it was and became.
fn differing(a: &Scenario, b: &Scenario) -> (String, String) {
    let parts = |s: &Scenario| {
        [
            ("page", format!("{:?}", s.page)),
            ("chips", format!("{:?}", s.chips)),
            ("format", format!("{:?}", s.format)),
            ("roofline_formats", format!("{:?}", s.roofline_formats)),
            ("ops", format!("{:?}", s.ops)),
            ("custom", format!("{:?}", s.custom)),
            ("topology", format!("{:?}", s.topology)),
            ("collectives", format!("{:?}", s.collectives)),
            ("job", format!("{:?}", s.job)),
            ("kernel", format!("{:?}", s.kernel)),
            ("device", format!("{:?}", s.device)),
        ]
    };
    let diff: Vec<_> = parts(a)
        .into_iter()
        .zip(parts(b))
        .filter(|(x, y)| x.1 != y.1)
        .collect();
    let names: Vec<&str> = diff.iter().map(|((k, _), _)| *k).collect();
    let said: Vec<String> = diff
        .iter()
        .map(|((k, x), (_, y))| format!("{k}: {} became {}", clip(x, 100), clip(y, 100)))
        .collect();
    (names.join(", "), said.join("; "))
}

/// A job as the smallest JSON that reproduces it: only what differs from the default.
fn job_diff(job: &Job) -> String {
    let (Ok(Value::Object(j)), Ok(Value::Object(d))) = (
        serde_json::to_value(job),
        serde_json::to_value(Job::default()),
    ) else {
        return format!("{job:?}");
    };
    let m: serde_json::Map<String, Value> = j
        .into_iter()
        .filter(|(k, v)| d.get(k) != Some(v))
        .map(|(k, v)| match v {
            Value::String(s) => (k, Value::String(clip(&s, 60))),
            v => (k, v),
        })
        .collect();
    Value::Object(m).to_string()
}

/// What evaluating one job showed: what breaks the properties, and which fields (to tell
/// kinds of failure apart).
#[derive(Clone)]
struct Verdict {
    problems: Vec<String>,
    sign: String,
}

/// Evaluate a job and its headline and list what breaks the properties.
fn judge(job: &Job) -> (bool, Verdict) {
    let mut problems = Vec::new();
    let mut names = Vec::new();
    let report = evaluate(job);
    let head = headline(job);
    match (&report, &head) {
        (Ok(r), Ok(h)) => {
            let mut finite = |name: &'static str, x: f64| {
                if !x.is_finite() {
                    problems.push(format!("{name} = {x}"));
                    names.push(name);
                }
            };
            finite("train.tokens_per_s", r.train.tokens_per_s);
            finite("train.mfu", r.train.mfu);
            finite("time_s", r.time_s);
            finite("chip_hours", r.chip_hours);
            finite("cost_usd", r.cost_usd);
            finite("usd_per_chip_hour", r.usd_per_chip_hour.value);
            finite("train_usd_per_mtok", r.train_usd_per_mtok);
            finite("usd_per_pflop_hour_marketed", r.usd_per_pflop_hour_marketed);
            finite("usd_per_pflop_hour_achieved", r.usd_per_pflop_hour_achieved);
            finite("facility_w", r.facility_w);
            finite("joules_per_token", r.joules_per_token);
            finite("rack_w", r.rack_w);
            if let Some(x) = r.infer_usd_per_mtok {
                finite("infer_usd_per_mtok", x);
            }
            if let Some(i) = &r.infer {
                finite("infer.tokens_per_s", i.tokens_per_s);
            }
            if let Some((a, b, c)) = r.owned_breakdown {
                finite("owned_breakdown.capital", a);
                finite("owned_breakdown.power", b);
                finite("owned_breakdown.overhead", c);
            }
            for f in h {
                // Documented: NaN where it does not apply (serving a model that does not fit).
                let absent = f.label.starts_with("serving") && r.infer_usd_per_mtok.is_none();
                if !(f.value.is_finite() || absent && f.value.is_nan()) {
                    problems.push(format!("headline '{}' = {}", f.label, f.value));
                }
            }
            if let Ok(sys) = engine::system::find(&job.system) {
                let want = u64::from(sys.chips()) * u64::from(job.nodes.max(1));
                if u64::from(r.chips) != want {
                    problems.push(format!(
                        "chips = {}, but {} nodes of {} chips are {want}",
                        r.chips,
                        job.nodes,
                        sys.chips()
                    ));
                    names.push("chips");
                }
            }
        }
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => {
            problems.push(format!("evaluate is Ok but headline fails: {e}"));
            names.push("headline");
        }
        (Err(e), Ok(_)) => {
            problems.push(format!("headline is Ok but evaluate fails: {e}"));
            names.push("evaluate");
        }
    }
    let sign = names.first().copied().unwrap_or("headline").to_string();
    (report.is_ok(), Verdict { problems, sign })
}

/// Feeds formatted text straight into a hasher.
struct HashOut(DefaultHasher);

impl std::fmt::Write for HashOut {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

/// Failures (or observations) of one class: how many, and examples of different kinds.
#[derive(Default)]
struct Class {
    count: usize,
    seen: HashSet<String>,
    examples: Vec<String>,
}

type Book = Mutex<BTreeMap<&'static str, Class>>;

/// What the threads share.
#[derive(Default)]
struct Shared {
    /// Every job evaluated, by its `Debug` form.
    cache: Mutex<HashMap<String, Verdict>>,
    /// Decoded states already encoded and decoded again, by a hash of their `Debug` form.
    states: Mutex<HashSet<u64>>,
    evaluated_ok: AtomicUsize,
    evaluated_err: AtomicUsize,
    failures: Book,
    observations: Book,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One failure: its class, what tells its kind apart within the class, and what it was.
struct Report<'a> {
    class: &'static str,
    sign: &'a str,
    kind: Kind,
    input: &'a str,
    detail: &'a str,
}

impl Shared {
    /// Counts a failure and keeps it as an example if it is the first of its kind.
    fn record(book: &Book, f: &Report) {
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
    fn verdict(&self, job: &Job) -> (Verdict, bool) {
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
    fn job(&self, job: &Job, kind: Kind, input: &str) {
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
    fn round_trip(&self, a: &Scenario, kind: Kind, input: &str) -> bool {
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
    fn notices(&self, n: &[engine::Notice], kind: Kind, input: &str) {
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
fn diff_keys(json: &str) -> String {
    serde_json::from_str::<serde_json::Map<String, Value>>(json)
        .map(|m| m.keys().cloned().collect::<Vec<_>>().join(","))
        .unwrap_or_default()
}

/// One thread's counts.
#[derive(Default)]
struct Stats {
    inputs: BTreeMap<Kind, usize>,
    parsed: usize,
    accepted: usize,
    /// Microseconds, kind, length in bytes and the input's start.
    slowest: Vec<(u128, Kind, usize, String)>,
}

impl Stats {
    /// Whether `us` would be among the three slowest.
    fn slower(&self, us: u128) -> bool {
        self.slowest.len() < 3 || us > self.slowest[2].0
    }

    fn timed(&mut self, us: u128, kind: Kind, len: usize, input: impl FnOnce() -> String) {
        if self.slower(us) {
            self.slowest.push((us, kind, len, input()));
            self.slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
            self.slowest.truncate(3);
        }
    }

    fn merge(&mut self, o: Stats) {
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

fn print_book(title: &str, book: &BTreeMap<&'static str, Class>) {
    for (class, c) in book {
        println!("  {title}{class}: {}", c.count);
        for e in &c.examples {
            println!("    - {e}");
        }
    }
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
