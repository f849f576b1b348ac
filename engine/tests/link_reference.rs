//! `docs/links.md`, the reference of every link key, is written from the key table
//! (`engine::keys::KEYS`) and the default state, never by hand: this test fails when the
//! committed file differs from what the table gives. `ACCELSCOPE_WRITE_DOCS=1 cargo test -p
//! engine --test link_reference` rewrites it.

use std::fmt::Write as _;

use engine::keys::{Kind, KEYS, MAX_NOTICES};
use engine::scenario::{key_defaults, VERSION};

/// A bound as the table holds it: whole numbers written out, others in e notation.
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:e}")
    }
}

fn reference() -> String {
    let defaults = key_defaults();
    let mut s = format!(
        "# Link keys\n\n\
         Written from the engine's key table (`engine/src/keys.rs`) by \
         `engine/tests/link_reference.rs`; do not edit by hand. `accelscope keys [--json]` \
         prints the same table.\n\n\
         A link is `?v={VERSION}&key=value&…`: it carries only what differs from the defaults \
         below. A value outside its range is named in a notice (at most {MAX_NOTICES}, then a \
         count of the rest) and the key keeps its default; it is never clamped. A CLI flag \
         that sets the same thing accepts exactly the same values.\n\n\
         | key | kind | range | default | since | what it sets |\n\
         |---|---|---|---|---|---|\n"
    );
    for k in KEYS {
        let range = if k.kind.bounded() {
            let unit = if k.kind == Kind::Size { " bytes" } else { "" };
            format!("{} to {}{unit}", number(k.min), number(k.max))
        } else if k.kind == Kind::Flag {
            "0 or 1".into()
        } else {
            String::new()
        };
        let default = defaults
            .iter()
            .find(|(key, _)| *key == k.key)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
            .map_or(String::new(), |v| format!("`{}`", v.replace('|', "\\|")));
        let _ = writeln!(
            s,
            "| `{}` | {} | {range} | {default} | {} | {} |",
            k.key,
            k.kind.id(),
            k.since,
            k.what
        );
    }
    s
}

#[test]
fn the_link_reference_is_the_key_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/links.md");
    let want = reference();
    if std::env::var_os("ACCELSCOPE_WRITE_DOCS").is_some() {
        std::fs::write(path, &want).expect("docs/links.md is writable");
        return;
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "docs/links.md differs from the key table: rewrite it with \
         ACCELSCOPE_WRITE_DOCS=1 cargo test -p engine --test link_reference"
    );
}
