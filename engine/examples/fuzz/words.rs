//! What inputs are made of: their kinds, the run's seed, the keys and ids generators draw
//! from, values that are wrong almost everywhere, and the random choices.

use engine::kernels::Rng;

/// The run's seed: input `i` is drawn from its own stream, so any thread count gives the same
/// inputs.
pub const SEED: u64 = 0xACC5_C09E_F022_2024;

/// Keys that no link has, to mix in.
pub const JUNK_KEYS: &[&str] = &["zzz", "", "V", "wnodes ", "%77nodes", "k"];

/// Every key of the link-key table, then the junk ones.
pub fn all_keys() -> Vec<&'static str> {
    engine::scenario::keys::KEYS
        .iter()
        .map(|k| k.key)
        .chain(JUNK_KEYS.iter().copied())
        .collect()
}

/// Values that are wrong almost everywhere.
pub const HOSTILE: &[&str] = &[
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
pub const NUMS: &[&str] = &[
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
pub const EDIT_NUMS: &[&str] = &[
    "1e-6", "1e12", "1", "100", "400", "0", "-1", "1e13", "NaN", "0.5",
];

/// What an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Link,
    ScenarioJson,
    JobJson,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Link => "link",
            Kind::ScenarioJson => "scenario JSON",
            Kind::JobJson => "job JSON",
        }
    }
}

/// Ids the generators draw from: every preset's, and some that name nothing.
pub struct Ids {
    pub chips: Vec<String>,
    pub systems: Vec<String>,
    pub models: Vec<String>,
    pub dtypes: Vec<String>,
    pub fields: Vec<String>,
    /// The link keys that do not set the job.
    pub other_keys: Vec<&'static str>,
}

impl Ids {
    pub fn new() -> Self {
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
        Self {
            chips,
            systems,
            models,
            dtypes,
            fields,
            other_keys: all_keys().into_iter().filter(|k| !is_job_key(k)).collect(),
        }
    }
}

/// Whether a link key sets the job (and so reaches evaluation).
pub fn is_job_key(k: &str) -> bool {
    k.starts_with('w') || k == "%77nodes"
}

pub fn below(r: &mut Rng, n: usize) -> usize {
    (r.next_u64() % n as u64) as usize
}

pub fn chance(r: &mut Rng, p: f64) -> bool {
    r.uniform() < p
}

pub fn pick<'a, S: AsRef<str>>(r: &mut Rng, xs: &'a [S]) -> &'a str {
    xs[below(r, xs.len())].as_ref()
}

/// A list of 1 to `max` picks, now and then with an empty or hostile element.
pub fn list<S: AsRef<str>>(r: &mut Rng, xs: &[S], max: usize) -> String {
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
pub fn random_number(r: &mut Rng) -> String {
    let x = (r.uniform() * 2.0 - 1.0) * 10f64.powi(below(r, 640) as i32 - 320);
    match below(r, 3) {
        0 => format!("{x}"),
        1 => format!("{x:e}"),
        _ => format!("{}", x as i64),
    }
}

/// Random characters, multi-byte ones included.
pub fn random_text(r: &mut Rng) -> String {
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

pub fn hostile(r: &mut Rng) -> String {
    match below(r, 20) {
        0 | 1 => random_number(r),
        2 => random_text(r),
        _ => pick(r, HOSTILE).to_string(),
    }
}

/// At most `n` characters, with the length said when cut.
pub fn clip(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        None => s.to_string(),
        Some((i, _)) => format!("{}… ({} bytes in all)", &s[..i], s.len()),
    }
}
