//! The scenarios a Compare link carries: each a name and its own link, read and checked
//! like any part of a link, so the comparison opens the same in any browser.

use alloc::format;
use alloc::string::{String, ToString};

use super::Scenario;

/// A scenario under a name: kept in a browser, or carried by a Compare link.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Saved {
    /// The user's name for it.
    pub name: String,
    /// Its link query (`v=2&…`).
    pub query: String,
}

/// Most scenarios compared side by side, and so carried by one link.
pub const MAX_COMPARED: usize = 4;
/// Longest name kept, in characters.
pub const MAX_NAME: usize = 80;
/// Longest link kept, in bytes.
pub const MAX_QUERY: usize = 4096;

/// A name as a link or the store keeps it: no separators or line breaks, at most
/// [`MAX_NAME`] characters.
#[must_use]
pub fn clean_name(name: &str) -> String {
    crate::workload::custom::clean_text(name, &['|', '\t', '\n', '\r'], MAX_NAME)
}

/// One compared scenario as a `cmp` value holds it: `name|query`.
#[must_use]
pub fn entry_text(s: &Saved) -> String {
    format!("{}|{}", clean_name(&s.name), s.query)
}

/// A `cmp` value read back: the name before the first `|`, the link after it, which must
/// read without a notice and carry no comparison of its own.
///
/// # Errors
/// What is wrong with the value, in words.
pub fn parse_entry(v: &str) -> Result<Saved, String> {
    let (name, query) = v
        .split_once('|')
        .ok_or_else(|| "not a name and a link joined by '|'".to_string())?;
    if query.len() > MAX_QUERY {
        return Err(format!(
            "its link is {} bytes, more than the {MAX_QUERY} a scenario may be",
            query.len()
        ));
    }
    let query = query.trim_start_matches('?');
    if super::query_pairs(query).iter().any(|(k, _)| k == "cmp") {
        return Err("a compared scenario cannot carry a comparison of its own".into());
    }
    let (_, notes) = Scenario::from_query(query);
    if let Some(n) = notes.first() {
        return Err(format!(
            "its link cannot be read ({}: {})",
            n.key, n.message
        ));
    }
    let name = clean_name(name);
    Ok(Saved {
        name: if name.is_empty() {
            "unnamed".into()
        } else {
            name
        },
        query: query.into(),
    })
}
