//! View helpers shared by the app's pages and the worker, so each is written once: text made
//! safe for HTML, whole numbers with their thousands separated, read-only tables as HTML
//! ([`tables`]), the views of a scenario the worker draws for the Workload page
//! ([`platforms`], [`step`], [`formats`], [`serving`], [`reading`], [`search`], [`chip_hour`], [`api`]), the published runs against the model
//! ([`calibration`]), and the typed messages pages and the worker exchange ([`protocol`]).

#![no_std]

extern crate alloc;
#[cfg(feature = "web")]
extern crate std;

pub mod api;
pub mod calibration;
pub mod chip_hour;
pub mod formats;
pub mod platforms;
pub mod protocol;
pub mod reading;
pub mod search;
pub mod serving;
pub mod step;
pub mod tables;
#[cfg(feature = "web")]
pub mod workers;

use alloc::format;
use alloc::string::String;

/// A job evaluated, or why not (`engine::job::evaluate`, or a copy of its last answer): how a
/// view the worker draws gets the job it reads (see [`protocol::View::draw`]).
pub type Evaluate<'a> = &'a dyn Fn(&engine::job::Job) -> Result<engine::job::JobReport, String>;

/// Text made safe to place in HTML, in an element or in an attribute quoted either way.
#[must_use]
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A number rounded to a whole one, its thousands separated by commas.
#[must_use]
pub fn thousands(x: f64) -> String {
    let s = format!("{x:.0}");
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 && c.is_ascii_digit() {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_both_quotes_are_escaped() {
        assert_eq!(
            escape(r#"<a href="x" title='y'>&</a>"#),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        );
        assert_eq!(escape("plain"), "plain");
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(1_234_567.4), "1,234,567");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(-1234.0), "-1,234");
    }
}
