//! A panic in wasm would leave a dead page; this hook shows what happened instead.

use wasm_bindgen::JsCast;

/// Replace the default panic hook with one that logs and shows an error panel.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        web_sys::console::error_1(&msg.clone().into());
        show_panel(&msg);
    }));
}

/// Append the error panel to `<body>` with `msg` as the details.
pub fn show_panel(msg: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(panel) = doc.create_element("div") else {
        return;
    };
    panel.set_id("panic-panel");
    panel.set_attribute("role", "alert").ok();
    let Ok(h) = doc.create_element("h2") else {
        return;
    };
    h.set_text_content(Some("accelscope stopped with an internal error"));
    let p = doc.create_element("p").ok();
    if let Some(p) = &p {
        p.set_text_content(Some(
            "This is a bug. Reload the page to continue; your link still holds your settings. The details:",
        ));
    }
    let pre = doc.create_element("pre").ok();
    if let Some(pre) = &pre {
        pre.set_text_content(Some(msg));
    }
    panel.append_child(&h).ok();
    if let Some(p) = p {
        panel.append_child(&p).ok();
    }
    if let Some(pre) = pre {
        panel.append_child(&pre).ok();
    }
    if let Some(body) = doc.body() {
        body.append_child(panel.unchecked_ref()).ok();
    }
}
