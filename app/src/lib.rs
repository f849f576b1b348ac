//! The accelscope single-page app: pages, components and charts over the engine.
//!
//! State is one [`engine::Scenario`] in a signal, mirrored to the query string.

pub mod background;
pub mod charts;
pub mod defer;
pub mod export;
pub mod held_out;
pub mod module;
pub mod offline;
pub mod pages;
pub mod panic;
pub mod state;
pub mod widgets;

use engine::scenario::Page;
use std::cell::Cell;

use leptos::prelude::*;

use crate::state::{use_scenario, Notices, ScenarioCtx};

/// A page built into the same module as the app, and how to draw it: a link to that page
/// starts from one module holding the app and the page (its `NAME_app` module) instead of the
/// app's and then the page's, each compiling its own copy of the engine and the views.
pub type LocalPage = (Page, fn() -> AnyView);

thread_local! {
    static LOCAL: Cell<Option<LocalPage>> = const { Cell::new(None) };
    static LOCAL_SHOWN: Cell<bool> = const { Cell::new(false) };
}

/// The entry points of a `NAME_app` module, the app with `$page` built in: `start` (with
/// `$style`, the page's stylesheet, if it has one of its own, added before `$view` draws it)
/// and `simulate_panic`, as the app's own module has them. The module's crate depends on
/// `wasm-bindgen` and `leptos`.
#[macro_export]
macro_rules! whole_app {
    ($page:expr, $view:path) => {
        $crate::whole_app!($page, $crate::no_style, $view);
    };
    ($page:expr, $style:path, $view:path) => {
        fn main() {}

        /// Installs the panic panel and mounts the app, with its page in it, on `<body>`.
        #[wasm_bindgen::prelude::wasm_bindgen]
        pub fn start() {
            $crate::start_with(Some(($page, || {
                $style();
                leptos::prelude::IntoAny::into_any($view())
            })));
        }

        /// Panics on purpose, as the app's module does (the end-to-end tests check the error
        /// panel).
        #[wasm_bindgen::prelude::wasm_bindgen]
        pub fn simulate_panic() {
            $crate::panic::simulate();
        }
    };
}

/// The stylesheet of a page drawn with the app's own (for [`whole_app!`]).
pub fn no_style() {}

/// Install the panic panel and mount the app on `<body>`.
pub fn start() {
    start_with(None);
}

/// As [`start`], with `local` drawn in place rather than fetched as its own module.
pub fn start_with(local: Option<LocalPage>) {
    LOCAL.set(local);
    panic::install();
    export::install();
    leptos::mount::mount_to_body(App);
    if let Some(q) = web_sys::window().and_then(|w| w.location().search().ok()) {
        panic::remember_good(q.trim_start_matches('?'));
    }
    // Mounting is synchronous: the page is interactive from here. The benchmark reads this mark,
    // and the page's own mark when the page is one with a module of its own.
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        p.mark("accelscope-interactive").ok();
        if LOCAL_SHOWN.get() {
            p.mark("accelscope-page-interactive").ok();
        }
    }
}

/// The whole app: header with navigation, link notices, the current page.
#[component]
pub fn App() -> impl IntoView {
    let (scenario, notices) = state::load_from_location();
    provide_context(ScenarioCtx(RwSignal::new(scenario)));
    provide_context(Notices(RwSignal::new(notices)));
    state::sync_to_location();
    let sc = use_scenario();
    // `embed=1`: the page's view alone, for an iframe, with a way to the whole app.
    let embed = Memo::new(move |_| sc.with(|s| s.embed));
    let full = move || {
        sc.with(|s| {
            let mut s = s.clone();
            s.embed = false;
            format!("?{}", s.to_query())
        })
    };
    view! {
        {move || (!embed.get()).then(|| view! {
            <a class="skip" href="#main">"Skip to the content"</a>
            <header class="top">
                <a class="brand" href="?">"accel"<b>"scope"</b></a>
                <Nav/>
            </header>
        })}
        <state::NoticeBanner/>
        <offline::UpdateBanner/>
        <main id="main" class:embedded=move || embed.get()>
            // First, so an iframe of any height shows it.
            {move || embed.get().then(|| view! {
                <p class="open-full"><a href=full target="_blank" rel="noopener">"Open in accelscope ↗"</a></p>
            })}
            <PageView/>
        </main>
        {move || (!embed.get()).then(|| view! {
            <footer class="foot">
                "Every figure shows its source on hover or focus; "
                <span class="badge est">"est"</span>
                " marks estimates. Everything is computed in your browser; nothing leaves the page."
            </footer>
        })}
    }
}

/// Navigation between pages: real links (open in a new tab) that switch in place.
#[component]
fn Nav() -> impl IntoView {
    let sc = use_scenario();
    // One encoding per change for all the links: the state on the default page, with each
    // link's page put where the encoder puts it (right after the version).
    let base = Memo::new(move |_| {
        sc.with(|s| {
            let mut s = s.clone();
            s.page = Page::Chips;
            s.to_query()
        })
    });
    view! {
        <nav aria-label="Pages">
            {Page::ALL
                .into_iter()
                .map(|p| {
                    let href = move || {
                        let q = base.get();
                        if p == Page::Chips {
                            format!("?{q}")
                        } else {
                            let (v, rest) = q.split_once('&').unwrap_or((q.as_str(), ""));
                            let rest = if rest.is_empty() { String::new() } else { format!("&{rest}") };
                            format!("?{v}&page={}{rest}", p.id())
                        }
                    };
                    view! {
                        <a
                            href=href
                            class:current=move || sc.with(|s| s.page == p)
                            aria-current=move || sc.with(|s| (s.page == p).then_some("page"))
                            on:click=move |ev| {
                                if !ev.ctrl_key() && !ev.meta_key() && !ev.shift_key() && ev.button() == 0 {
                                    ev.prevent_default();
                                    state::step_to(href().trim_start_matches('?'));
                                    sc.update(|s| s.page = p);
                                }
                            }
                        >
                            {p.label()}
                        </a>
                    }
                })
                .collect_view()}
        </nav>
    }
}

/// The page the scenario names.
#[component]
fn PageView() -> impl IntoView {
    let sc = use_scenario();
    let page = Memo::new(move |_| sc.with(|s| s.page));
    // Each page names itself in the title, so a tab, a bookmark and a screen reader can tell.
    Effect::new(move |_| {
        if let Some(d) = web_sys::window().and_then(|w| w.document()) {
            d.set_title(&format!("{} · accelscope", page.get().label()));
        }
    });
    // Every page but the first is its own module, named by the page's id, fetched when the
    // page first opens (unless this module holds it too).
    move || match (page.get(), LOCAL.get()) {
        (Page::Chips, _) => pages::chips::ChipsPage().into_any(),
        (other, Some((here, draw))) if other == here => {
            LOCAL_SHOWN.set(true);
            draw()
        }
        (other, _) => pages::lazy::LazyPage(pages::lazy::LazyPageProps { page: other }).into_any(),
    }
}
