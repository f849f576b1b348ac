//! The scenario signal, shared through context, and its mirror in the address bar.

use engine::scenario::{Notice, Scenario};
use gloo::timers::callback::Timeout;
use leptos::prelude::*;

/// The one scenario of the page.
#[derive(Clone, Copy)]
pub struct ScenarioCtx(pub RwSignal<Scenario>);

/// Problems found in the link the page was opened with.
#[derive(Clone, Copy)]
pub struct Notices(pub RwSignal<Vec<Notice>>);

/// The scenario signal from context.
#[must_use]
pub fn use_scenario() -> RwSignal<Scenario> {
    expect_context::<ScenarioCtx>().0
}

/// The scenario in the current address, and what could not be read from it.
#[must_use]
pub fn load_from_location() -> (Scenario, Vec<Notice>) {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    Scenario::from_query(&search)
}

/// Write every change of the scenario to the address bar, at most every 120 ms.
pub fn sync_to_location() {
    let sc = use_scenario();
    Effect::new(move |pending: Option<Option<Timeout>>| {
        let query = sc.with(Scenario::to_query);
        // Dropping the previous timeout cancels it: only the last change is written.
        drop(pending);
        Some(Timeout::new(120, move || replace_query(&query)))
    });
}

fn replace_query(query: &str) {
    // This state has drawn (the change's effects ran before this timer) unless a panic said
    // otherwise.
    crate::panic::remember_good(query);
    let Some(w) = web_sys::window() else { return };
    let url = format!("?{query}");
    if w.location().search().ok().as_deref() == Some(url.as_str()) {
        return;
    }
    if let Ok(h) = w.history() {
        h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
            .ok();
    }
}

/// Says what in the opening link could not be used, and that defaults stand in for it.
#[component]
pub fn NoticeBanner() -> impl IntoView {
    let notices = expect_context::<Notices>().0;
    move || {
        let list = notices.get();
        (!list.is_empty()).then(|| {
            view! {
                <div class="notice" role="status">
                    <strong>"Parts of this link could not be read; defaults are used for them."</strong>
                    <ul>
                        {list
                            .into_iter()
                            .map(|n| view! { <li><code>{n.key}</code>": "{n.message}</li> })
                            .collect_view()}
                    </ul>
                    <button class="small" on:click=move |_| notices.set(Vec::new())>"Dismiss"</button>
                </div>
            }
        })
    }
}
