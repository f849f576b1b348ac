//! The layout search's table and its reasons, as HTML: drawn in the worker, which runs the
//! search in slices and reports after each, for the Workload page's layout-search panel.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use engine::units::sig;
use engine::workload::LayoutSearch;

use crate::{escape, thousands};

/// The fastest layouts that fit so far, best first, as table rows.
#[must_use]
pub fn rows_html(s: &LayoutSearch) -> String {
    s.ranked(8)
        .into_iter()
        .map(|r| {
            format!(
                "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}%</td><td>{}</td><td>{}</td></tr>",
                escape(&r.layout.to_string()),
                thousands(r.tokens_per_s),
                sig(r.mfu * 100.0, 3),
                escape(&r.step.to_string()),
                engine::Bytes::new(r.memory.total()).display_si()
            )
        })
        .collect()
}

/// Why the layouts that do not fit were rejected, grouped by the reason's kind (not its
/// figures), as list items.
#[must_use]
pub fn reasons_html(s: &LayoutSearch) -> String {
    let mut by: Vec<(String, usize)> = Vec::new();
    for (_, e) in s.rejected() {
        let why = e.to_string();
        let key = why.split(':').next().unwrap_or(&why).to_string();
        match by.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => by.push((key, 1)),
        }
    }
    by.iter()
        .map(|(why, n)| format!("<li>{}</li>", escape(&format!("{n} rejected: {why}"))))
        .collect()
}
