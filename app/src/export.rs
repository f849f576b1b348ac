//! Downloads: every table as CSV, every chart as PNG and SVG with its data as CSV.
//!
//! Pages (the shell's and the lazily loaded modules alike) mark their buttons with
//! `data-csv="TABLE-ID"`, `data-png="CHART-ID"` or `data-svg="CHART-ID"`; one listener on the
//! document, installed by the shell, serves them all from what is on the page. The code that
//! makes the files ([`serve`]) lives in the `charts` module, fetched on the first download,
//! so the first page does not carry it. A chart drawn on a canvas offers its own SVG button
//! (it is drawn again through plotters' SVG backend). Every download is a blob or data URL
//! made in the page: nothing leaves it.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

/// Offer `text` as a file download.
pub fn save_text(text: &str, name: &str, mime: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    if let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) {
        if let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) {
            save_url(&url, name);
            web_sys::Url::revoke_object_url(&url).ok();
        }
    }
}

/// Offer what `url` (a blob or data URL) holds as a file download.
pub fn save_url(url: &str, name: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Ok(a) = doc.create_element("a") {
        let a: web_sys::HtmlAnchorElement = a.unchecked_into();
        a.set_href(url);
        a.set_download(name);
        a.click();
    }
}

pub use view::tables::table_buttons;

/// One CSV field: quoted when it must be, and defused when a spreadsheet would read it as a
/// formula (a name typed by a user could start with `=`).
#[must_use]
pub fn csv_field(s: &str) -> String {
    let formula = s.starts_with(['=', '+', '@', '\t', '\r'])
        || (s.starts_with('-') && !s[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.'));
    let s = if formula {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// The text of a cell as a reader sees it: tooltips and buttons left out, badges in brackets.
fn cell_text(cell: &Element) -> String {
    let Ok(node) = cell.clone_node_with_deep(true) else {
        return String::new();
    };
    let Ok(copy) = node.dyn_into::<Element>() else {
        return String::new();
    };
    if let Ok(list) = copy.query_selector_all(".tip, button, script, .swatch") {
        for i in 0..list.length() {
            if let Some(n) = list.item(i) {
                if let Some(p) = n.parent_node() {
                    p.remove_child(&n).ok();
                }
            }
        }
    }
    if let Ok(list) = copy.query_selector_all(".badge") {
        for i in 0..list.length() {
            if let Some(n) = list.item(i) {
                let t = n.text_content().unwrap_or_default();
                n.set_text_content(Some(&format!(" ({})", t.trim())));
            }
        }
    }
    let text = copy.text_content().unwrap_or_default();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A table on the page as CSV: one line per row, a cell spanning columns repeated as empty.
#[must_use]
pub fn table_csv(table: &Element) -> String {
    let mut out = String::new();
    let Ok(rows) = table.query_selector_all("tr") else {
        return out;
    };
    for r in 0..rows.length() {
        let Some(row) = rows.item(r).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let cells = row.children();
        let mut fields = Vec::new();
        for c in 0..cells.length() {
            let Some(cell) = cells.item(c) else { continue };
            fields.push(csv_field(&cell_text(&cell)));
            let span = cell
                .get_attribute("colspan")
                .and_then(|s| s.parse::<usize>().ok())
                .unwrap_or(1)
                .clamp(1, 64);
            fields.extend(std::iter::repeat_n(String::new(), span - 1));
        }
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// The style properties an exported SVG takes from the page's stylesheet.
const STYLED: [&str; 13] = [
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-opacity",
    "opacity",
    "font-size",
    "font-family",
    "font-weight",
    "text-anchor",
    "dominant-baseline",
    "visibility",
];

/// A chart drawn as SVG in the page, standing on its own: the page's styles written into it.
#[must_use]
pub fn svg_text(svg: &Element) -> Option<String> {
    let win = web_sys::window()?;
    let copy: Element = svg.clone_node_with_deep(true).ok()?.dyn_into().ok()?;
    let from = svg.query_selector_all("*").ok()?;
    let to = copy.query_selector_all("*").ok()?;
    for i in 0..from.length().min(to.length()) {
        let (Some(a), Some(b)) = (
            from.item(i).and_then(|n| n.dyn_into::<Element>().ok()),
            to.item(i).and_then(|n| n.dyn_into::<Element>().ok()),
        ) else {
            continue;
        };
        let Ok(Some(cs)) = win.get_computed_style(&a) else {
            continue;
        };
        let mut style = String::new();
        for p in STYLED {
            if let Ok(v) = cs.get_property_value(p) {
                if !v.is_empty() {
                    style.push_str(&format!("{p}:{v};"));
                }
            }
        }
        b.set_attribute("style", &style).ok();
    }
    let rect = svg.get_bounding_client_rect();
    copy.set_attribute("xmlns", "http://www.w3.org/2000/svg")
        .ok();
    copy.set_attribute("width", &format!("{:.0}", rect.width()))
        .ok();
    copy.set_attribute("height", &format!("{:.0}", rect.height()))
        .ok();
    if copy.get_attribute("viewBox").is_none() {
        copy.set_attribute(
            "viewBox",
            &format!("0 0 {:.0} {:.0}", rect.width(), rect.height()),
        )
        .ok();
    }
    let body = web_sys::XmlSerializer::new()
        .ok()?
        .serialize_to_string(&copy)
        .ok()?;
    Some(format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{body}"
    ))
}

/// Draw SVG text on a white canvas at twice its size and download it as a PNG.
pub fn svg_to_png(svg: &str, width: f64, height: f64, name: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&svg.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("image/svg+xml");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    let Ok(img) = web_sys::HtmlImageElement::new() else {
        return;
    };
    let name = name.to_string();
    let (w, h) = (width.max(1.0) * 2.0, height.max(1.0) * 2.0);
    let img2 = img.clone();
    let url2 = url.clone();
    let onload = Closure::once_into_js(move || {
        web_sys::Url::revoke_object_url(&url2).ok();
        let Ok(c) = doc.create_element("canvas") else {
            return;
        };
        let c: web_sys::HtmlCanvasElement = c.unchecked_into();
        c.set_width(w as u32);
        c.set_height(h as u32);
        if let Ok(Some(ctx)) = c.get_context("2d") {
            let ctx: web_sys::CanvasRenderingContext2d = ctx.unchecked_into();
            ctx.set_fill_style_str("#ffffff");
            ctx.fill_rect(0.0, 0.0, w, h);
            ctx.draw_image_with_html_image_element_and_dw_and_dh(&img2, 0.0, 0.0, w, h)
                .ok();
        }
        if let Ok(data) = c.to_data_url() {
            save_url(&data, &name);
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    img.set_src(&url);
}

fn element(id: &str) -> Option<Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

#[wasm_bindgen(inline_js = r#"
export function listen_for_exports() {
  const at = (f) => new URL(f, document.baseURI).href;
  document.addEventListener('click', (ev) => {
    const b = ev.target instanceof Element
      ? ev.target.closest('button[data-csv], button[data-png], button[data-svg]') : null;
    if (!b) return;
    const kind = ['csv', 'png', 'svg'].find((k) => b.hasAttribute('data-' + k));
    const id = b.getAttribute('data-' + kind);
    import(at('charts.js'))
      .then(async (m) => {
        await m.default({ module_or_path: at('charts_bg.wasm') });
        m.export_button(kind, id);
      })
      .catch((e) => console.error('export: ' + e));
  });
}
"#)]
extern "C" {
    fn listen_for_exports();
}

/// Serve the page's export buttons (installed once, by the shell): a click fetches the
/// `charts` module, which makes the file ([`serve`]).
pub fn install() {
    listen_for_exports();
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // Escape hides the tooltip of the figure in focus; leaving the figure brings it back.
    let keys = Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(|ev: web_sys::KeyboardEvent| {
        if ev.key() != "Escape" {
            return;
        }
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(fig) = doc
            .active_element()
            .and_then(|e| e.closest(".fig").ok().flatten())
        else {
            return;
        };
        fig.class_list().add_1("tip-hidden").ok();
        let f2 = fig.clone();
        let back = Closure::once_into_js(move || {
            f2.class_list().remove_1("tip-hidden").ok();
        });
        let opts = web_sys::AddEventListenerOptions::new();
        opts.set_once(true);
        fig.add_event_listener_with_callback_and_add_event_listener_options(
            "focusout",
            back.unchecked_ref(),
            &opts,
        )
        .ok();
    });
    doc.add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref())
        .ok();
    keys.forget();
}

/// Makes the file an export button asks for: `kind` is `csv` (the table `id`), `png` (the
/// canvas or SVG chart `id`) or `svg` (the SVG chart `id`).
pub fn serve(kind: &str, id: &str) {
    match (kind, element(id)) {
        ("csv", Some(t)) => save_text(&table_csv(&t), &format!("{id}.csv"), "text/csv"),
        ("png", Some(e)) if e.tag_name().eq_ignore_ascii_case("canvas") => {
            let c: web_sys::HtmlCanvasElement = e.unchecked_into();
            if let Ok(url) = c.to_data_url() {
                save_url(&url, &format!("{id}.png"));
            }
        }
        ("png", Some(e)) => {
            if let Some(text) = svg_text(&e) {
                let r = e.get_bounding_client_rect();
                svg_to_png(&text, r.width(), r.height(), &format!("{id}.png"));
            }
        }
        ("svg", Some(e)) => {
            if let Some(text) = svg_text(&e) {
                save_text(&text, &format!("{id}.svg"), "image/svg+xml");
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::csv_field;

    #[test]
    fn csv_fields_are_quoted_and_defused() {
        assert_eq!(csv_field("1.5"), "1.5");
        assert_eq!(csv_field("-2.5"), "-2.5");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert_eq!(csv_field("-cmd"), "'-cmd");
    }
}
