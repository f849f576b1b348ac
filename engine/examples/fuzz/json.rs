//! JSON files: numbers and values that are wrong, keys dropped, renamed and repeated, text
//! truncated and flipped.

use engine::kernels::Rng;
use serde_json::{json, Value};

use crate::links::damage;
use crate::words::{below, chance, hostile, pick};

pub fn json_number(r: &mut Rng) -> Value {
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

pub fn json_hostile(r: &mut Rng) -> Value {
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
pub fn random_pointer(r: &mut Rng, root: &Value, skip_job: bool) -> String {
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
pub fn mutate_json(r: &mut Rng, root: &mut Value, skip_job: bool) {
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
pub fn damage_json(r: &mut Rng, mut s: String) -> String {
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

pub fn pick_value(r: &mut Rng, xs: &[Value]) -> Value {
    xs.get(below(r, xs.len().max(1)))
        .cloned()
        .unwrap_or(Value::Null)
}
