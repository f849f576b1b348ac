//! Links: key and value pairs that could be right for their key, or are hostile; inputs a
//! megabyte long; byte damage.

use engine::job::Lever;
use engine::kernels::Rng;
use engine::scenario::{enc, Page, Scenario};

use crate::words::{below, chance, hostile, list, pick, random_text, Ids, Kind, EDIT_NUMS, NUMS};

/// An edited system's id (`edit:BASE;torus=…`), often a wrong one.
pub fn edit_spec(r: &mut Rng, p: &Ids) -> String {
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

pub fn system(r: &mut Rng, p: &Ids) -> String {
    if chance(r, 0.85) {
        pick(r, &p.systems).into()
    } else {
        edit_spec(r, p)
    }
}

/// A real-valued job key's value: mostly its range's ends, middle and just beyond.
pub fn in_range(r: &mut Rng, lo: f64, hi: f64) -> String {
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
pub fn plausible(key: &str, r: &mut Rng, p: &Ids) -> String {
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
        "wseng" => {
            let mut ids = engine::servesim::engines::IDS.to_vec();
            ids.push("nope");
            pick(r, &ids).into()
        }
        "wsvary" | "wspc" => pick(r, &["0", "1", "2", ""]).into(),
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
pub fn link_parts(r: &mut Rng, p: &Ids, keys: &[&str], n: usize, wrong: f64) -> Vec<String> {
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
pub fn huge(r: &mut Rng, kind: Kind) -> String {
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
pub fn damage(r: &mut Rng, s: String, rate: f64) -> String {
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
