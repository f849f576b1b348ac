//! Reading and writing the page's elements.

use web_sys::Element;

use crate::state::page;

/// The first element under `root` matching `sel`.
pub fn find(root: &Element, sel: &str) -> Option<Element> {
    root.query_selector(sel).ok().flatten()
}

/// Sets the text of the page's element matching `sel`.
pub fn set_text(sel: &str, text: &str) {
    if let Some(p) = page() {
        if let Some(e) = find(&p.borrow().root, sel) {
            e.set_text_content(Some(text));
        }
    }
}

/// Sets the markup of the page's element matching `sel` (markup built with escaped text).
pub fn set_html(sel: &str, html: &str) {
    if let Some(p) = page() {
        if let Some(e) = find(&p.borrow().root, sel) {
            e.set_inner_html(html);
        }
    }
}

/// `e` or its nearest ancestor matching `sel`.
pub fn find_ancestor(e: &Element, sel: &str) -> Option<Element> {
    e.closest(sel).ok().flatten()
}

/// Milliseconds since the page loaded.
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}
