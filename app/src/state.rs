//! The scenario signal, shared through context, and its mirror in the address bar.

use engine::scenario::{Notice, Scenario};
use gloo::timers::callback::Timeout;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

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

thread_local! {
    /// The address's query as it came, before this version rewrote it: a notice about it
    /// shows it whole, so nothing of what was sent is lost.
    static OPENED: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// The scenario in the current address, and what could not be read from it.
#[must_use]
pub fn load_from_location() -> (Scenario, Vec<Notice>) {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let read = Scenario::from_query(&search);
    OPENED.with(|o| *o.borrow_mut() = search);
    read
}

/// Write every change of the scenario to the address bar, at most every 120 ms, and follow
/// the browser's Back and Forward.
pub fn sync_to_location() {
    let sc = use_scenario();
    // The opening link as this version writes it, in place of the one typed: not a step.
    write_query(&sc.with_untracked(Scenario::to_query), false, false);
    Effect::new(move |pending: Option<Option<Timeout>>| {
        let query = sc.with(Scenario::to_query);
        // Dropping the previous timeout cancels it: only the last change is written.
        drop(pending);
        Some(Timeout::new(120, move || write_query(&query, true, true)))
    });
    // Back and Forward bring an earlier address: the scenario becomes what it says, which
    // the effect above then finds already written.
    let notices = expect_context::<Notices>().0;
    let on_pop = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
        let (s, n) = load_from_location();
        write_query(&s.to_query(), false, false);
        notices.set(n);
        sc.set(s);
    });
    if let Some(w) = web_sys::window() {
        w.add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref())
            .ok();
    }
    on_pop.forget();
}

/// A change settled this long (ms) is one a person may want to step back to.
const SETTLED_MS: f64 = 1500.0;

thread_local! {
    /// When the address was last written (ms since the epoch).
    static LAST_WRITE: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// The page a query shows (`None`: the first page, as a link that names none).
fn page_of(query: &str) -> Option<String> {
    engine::scenario::query_pairs(query)
        .into_iter()
        .find(|(k, _)| k == "page")
        .map(|(_, v)| v)
        .filter(|v| v != engine::Page::Chips.id())
}

/// Makes `query` a step of the history at once (a page opened from the navigation), before
/// the scenario changes to it.
pub fn step_to(query: &str) {
    write_query(query, true, false);
}

/// Writes `query` to the address bar: as a step of the history where `may_step` and it is
/// one (a new page, or a change after the last had settled), else in place of the current.
/// `drawn`: the state has drawn (written from the timer, the change's effects ran before it)
/// unless a panic said otherwise.
fn write_query(query: &str, may_step: bool, drawn: bool) {
    if drawn {
        crate::panic::remember_good(query);
    }
    let Some(w) = web_sys::window() else { return };
    let url = format!("?{query}");
    let now_search = w.location().search().unwrap_or_default();
    if now_search == url {
        if !may_step {
            LAST_WRITE.with(|t| t.set(js_sys::Date::now()));
        }
        return;
    }
    let Ok(h) = w.history() else { return };
    // A new page, or a change after the last had settled, is a step of its own in the
    // history; a change in a burst (typing, dragging) replaces the step it belongs to.
    let now = js_sys::Date::now();
    let last = LAST_WRITE.with(|t| t.replace(now));
    let step = may_step && (page_of(&now_search) != page_of(query) || now - last > SETTLED_MS);
    if step {
        h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
            .ok();
    } else {
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
                    <details class="opened-link">
                        <summary>"The link as it came"</summary>
                        <code id="opened-link">{OPENED.with(|o| o.borrow().clone())}</code>
                    </details>
                    <button class="small" on:click=move |_| notices.set(Vec::new())>"Dismiss"</button>
                </div>
            }
        })
    }
}
