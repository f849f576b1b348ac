//! Read-only tables built as HTML text in one pass (far less code than a reactive view per
//! table, and these tables never change after they are drawn): on the page, and in the worker
//! that draws the published runs against the model.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use engine::Source;

use crate::escape;

/// The export buttons of a table, as HTML.
#[must_use]
pub fn table_buttons(id: &str) -> String {
    format!(
        "<div class=\"export\"><button type=\"button\" class=\"small\" data-csv=\"{id}\" aria-label=\"Download the table as CSV\">CSV</button></div>"
    )
}

/// A chart's download buttons (SVG and PNG of the chart, CSV of its data table) and that
/// table, folded: the chart's text alternative.
#[must_use]
pub fn chart_data(chart: &str, table: &str, head: &[&str], rows: &[Vec<String>]) -> String {
    let mut h = format!(
        r#"<div class="export"><button type="button" class="small" data-svg="{chart}">SVG</button><button type="button" class="small" data-png="{chart}">PNG</button><button type="button" class="small" data-csv="{table}">CSV</button></div><details class="chart-data"><summary>The chart's data</summary><div class="table-wrap"><table class="grid" id="{table}"><thead><tr>"#
    );
    for c in head {
        h.push_str(&format!(r#"<th scope="col">{}</th>"#, escape(c)));
    }
    h.push_str("</tr></thead><tbody>");
    for r in rows {
        h.push_str("<tr>");
        for c in r {
            h.push_str(&format!("<td>{}</td>", escape(c)));
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table></div></details>");
    h
}

/// The markup of the app's `Derived` (a figure with its formula on hover or focus) as text.
#[must_use]
pub fn derived_html(text: &str, formula: &str) -> String {
    format!(
        "<span class=\"fig derived\" tabindex=\"0\">{}<span class=\"tip\" role=\"tooltip\">{}</span></span>",
        escape(text),
        escape(formula)
    )
}

/// The markup of the app's `Fig` as text, for read-only tables built as HTML in one pass (far less
/// code than a reactive view per table, and these tables never change after they are drawn).
#[must_use]
pub fn fig_html(text: &str, source: Source, note: &str) -> String {
    fig_html_est(text, source, false, note)
}

/// [`fig_html`] with the estimate badge when `estimate`.
#[must_use]
pub fn fig_html_est(text: &str, source: Source, estimate: bool, note: &str) -> String {
    let src = match source {
        Source::Cited { citation: c } => format!(
            "Source: <a href=\"{}\" target=\"_blank\" rel=\"noopener noreferrer\">{}</a> ({})",
            escape(c.url),
            escape(c.title),
            escape(c.date)
        ),
        Source::UserEdit => "Edited by you".into(),
        Source::Assumption => "An accelscope assumption: no published figure was found".into(),
    };
    let note = if note.is_empty() {
        String::new()
    } else {
        format!("<br><span class=\"note\">{}</span>", escape(note))
    };
    let (badge, est) = if estimate {
        (
            "<span class=\"badge est\" title=\"estimate\">est</span>",
            ". An estimate, not a vendor specification.",
        )
    } else {
        ("", "")
    };
    let (user, edited) = if matches!(source, Source::UserEdit) {
        (" user", "<span class=\"badge user\">edited</span>")
    } else {
        ("", "")
    };
    format!(
        "<span class=\"fig{user}\" tabindex=\"0\">{}{badge}{edited}<span class=\"tip\" role=\"tooltip\">{src}{est}{note}</span></span>",
        escape(text)
    )
}

/// The owned cells of an [`HtmlRow`]: `L` lead cells and `C` plain cells (flagged or not).
pub type RowCells<const L: usize, const C: usize> = ([String; L], [(String, bool); C]);

/// One row of a read-only table of published figures against the model's.
pub struct HtmlRow<'a> {
    /// `data-*` attributes, name and value.
    pub data: &'a [(&'a str, String)],
    /// Cells before the label.
    pub lead: &'a [String],
    /// What was measured or claimed, and the configuration the model was given.
    pub label: (&'a str, &'a str),
    /// The published figure, its source and note.
    pub fig: (String, Source, &'a str),
    /// The remaining cells, each with whether it is flagged as out of bounds.
    pub cells: &'a [(String, bool)],
}

/// A whole table as HTML: headings, then one row per [`HtmlRow`].
#[must_use]
pub fn table_html(id: &str, head: &[&str], rows: &[HtmlRow<'_>]) -> String {
    let mut s =
        format!("<div class=\"table-wrap\"><table class=\"compare\" id=\"{id}\"><thead><tr>");
    for h in head {
        s.push_str(&format!("<th scope=\"col\">{}</th>", escape(h)));
    }
    s.push_str("</tr></thead><tbody>");
    for r in rows {
        s.push_str("<tr");
        for (k, v) in r.data {
            s.push_str(&format!(" data-{k}=\"{}\"", escape(v)));
        }
        s.push('>');
        for c in r.lead {
            s.push_str(&format!("<td>{}</td>", escape(c)));
        }
        s.push_str(&format!(
            "<th scope=\"row\">{}<span class=\"run-setup\">{}</span></th><td>{}</td>",
            escape(r.label.0),
            escape(r.label.1),
            fig_html(&r.fig.0, r.fig.1, r.fig.2)
        ));
        for (c, off) in r.cells {
            s.push_str(&format!(
                "<td{}>{}</td>",
                if *off { " class=\"off\"" } else { "" },
                escape(c)
            ));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div>");
    s.push_str(&table_buttons(id));
    s
}
