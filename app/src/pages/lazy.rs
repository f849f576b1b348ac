//! Pages whose code is a separate wasm module, fetched when the page is first opened: the
//! first page's download does not grow as such pages are added.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::use_scenario;

#[wasm_bindgen(inline_js = r#"
const at = (f) => new URL(f, document.baseURI).href;
// A module built beside the app (NAME.js with NAME_bg.wasm), fetched and started once.
const fetchModule = (name) =>
  import(at(name + '.js')).then(async (m) => {
    await m.default({ module_or_path: at(name + '_bg.wasm') });
    return m;
  });
const failed = (el, what, e) => {
  const p = document.createElement('p');
  p.className = 'error';
  p.textContent = 'This ' + what + ' could not be loaded (' + e + '). Reload to try again.';
  el.replaceChildren(p);
};
export function load_page(name, el, query, cb) {
  // A link to this page started its module while the app loaded (index.html); else, or if
  // that failed, it is fetched now.
  const pre = window.accelscopePreloaded?.[name];
  if (pre) delete window.accelscopePreloaded[name];
  const fetchNow = () => fetchModule(name);
  (pre ? pre.catch(fetchNow) : fetchNow())
    .then((m) => {
      performance.mark('accelscope-page-code');
      if (!el.isConnected) return;
      m.mount(el, query, cb);
      el.accelscopeUnmount = () => m.unmount();
      // Mounting is synchronous: the page answers input from here (the benchmark reads it).
      performance.mark('accelscope-page-interactive');
    })
    .catch((e) => failed(el, 'page', e));
}
export function export_svg(chart, query, file) {
  fetchModule('charts')
    .then((m) => {
      const url = URL.createObjectURL(new Blob([m.svg(chart, query)], { type: 'image/svg+xml' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file;
      a.click();
      URL.revokeObjectURL(url);
    })
    .catch((e) => console.error('SVG export: ' + e));
}
export function fetch_module(name) {
  return fetchModule(name);
}
export function unload_page(el) {
  if (el.accelscopeUnmount) { el.accelscopeUnmount(); el.accelscopeUnmount = null; }
}
"#)]
extern "C" {
    fn load_page(name: &str, el: &web_sys::Element, query: &str, cb: &js_sys::Function);
    fn unload_page(el: &web_sys::Element);
    /// Fetches the module `name` (once) and starts it: a promise of its exports.
    fn fetch_module(name: &str) -> js_sys::Promise;
    /// Fetches the `charts` module (once) and downloads chart `chart` of the scenario of
    /// `query` as the SVG file `file`.
    pub fn export_svg(chart: &str, query: &str, file: &str);
}

/// Fetches `page`'s module (`ID.js` and `ID_bg.wasm` beside the app, ID the page's id) and
/// mounts it here with the link's query; the module hands its own keys back, and they go
/// into the link.
#[component]
pub fn LazyPage(page: engine::scenario::Page) -> impl IntoView {
    let (name, title) = (page.id(), page.label());
    let sc = use_scenario();
    let node = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        let Some(el) = node.get() else { return };
        // A Leptos page module hands back the whole query (`v=…`); the Kernels module only
        // its own keys.
        let cb = Closure::<dyn Fn(String)>::new(move |q: String| {
            sc.update(|s| {
                if q.starts_with("v=") {
                    // The page too: a module may send the user on (a step's operation to the
                    // Roofline page).
                    *s = engine::Scenario::from_query(&q).0;
                } else {
                    s.apply_page_query(&q);
                }
            });
        });
        let query = sc.with_untracked(engine::Scenario::to_query);
        load_page(name, &el, &query, cb.as_ref().unchecked_ref());
        // Lives as long as the page module may call it: the rest of the session.
        cb.forget();
    });
    on_cleanup(move || {
        if let Some(el) = node.get_untracked() {
            unload_page(&el);
        }
    });
    view! {
        <div class="lazy-page" node_ref=node>
            <section class="page lazy-loading">
                <h1>{title}</h1>
                <p class="lead">"Loading this page's code…"</p>
            </section>
        </div>
    }
}

/// A part of a page built as a module of its own (`NAME.js` and `NAME_bg.wasm`), fetched
/// once the page around it has painted and mounted here with the scenario. It follows every
/// change of the scenario after the frame that paints the page's own answer to it (marked as
/// updating until then, and only the newest handed over), so an input's paint never waits for
/// it; its own changes come back as the page's. Until it arrives the page shows `loading`.
#[component]
pub fn LazyPart(
    /// The module's name.
    name: &'static str,
    /// What stands in its place while it loads.
    loading: &'static str,
) -> impl IntoView {
    let sc = use_scenario();
    let node = NodeRef::<leptos::html::Div>::new();
    // The module's exports, once it has mounted (its code, not the page's: the first page
    // carries none of this).
    let module = StoredValue::new_local(None::<JsValue>);
    // Calls the module's export `f` with `args`, once it has mounted.
    let call = move |f: &str, args: &js_sys::Array| {
        module.try_with_value(|m| {
            let Some(m) = m else { return };
            if let Ok(f) = js_sys::Reflect::get(m, &f.into()) {
                if let Some(f) = f.dyn_ref::<js_sys::Function>() {
                    f.apply(m, args).ok();
                }
            }
        });
    };
    // The query last handed over either way: a change that came from the part is not sent
    // back to it.
    let last = StoredValue::new(None::<String>);
    // The newest query handed over (the part mounts with it, should it arrive after changes).
    let handed = StoredValue::new(String::new());
    // A change not yet handed over, and whether it is scheduled.
    let pending = StoredValue::new(None::<String>);
    let updating = RwSignal::new(false);
    Effect::new(move |_| {
        let q = sc.with(engine::Scenario::to_query);
        let Some(el) = node.get() else { return };
        match last.get_value() {
            Some(l) if l == q => {}
            Some(_) => {
                last.set_value(Some(q.clone()));
                let scheduled = pending.with_value(Option::is_some);
                pending.set_value(Some(q));
                if scheduled {
                    return;
                }
                updating.set(true);
                request_animation_frame(move || {
                    set_timeout(
                        move || {
                            if let Some(Some(q)) = pending.try_update_value(Option::take) {
                                call("update", &js_sys::Array::of1(&q.as_str().into()));
                                handed.try_set_value(q);
                            }
                            updating.try_set(false);
                        },
                        std::time::Duration::ZERO,
                    );
                });
            }
            None => {
                last.set_value(Some(q.clone()));
                handed.set_value(q);
                let cb = Closure::<dyn Fn(String)>::new(move |q: String| {
                    if last.try_set_value(Some(q.clone())).is_none() {
                        // The part's change is the newest: one of the page's still waiting
                        // to be handed over is older.
                        pending.set_value(None);
                        handed.set_value(q.clone());
                        sc.try_set(engine::Scenario::from_query(&q).0);
                    }
                });
                let el2 = el.clone();
                let mounted = Closure::<dyn FnMut(JsValue)>::once(move |m: JsValue| {
                    let Some(q) = handed.try_get_value() else {
                        return;
                    };
                    if !el.is_connected() {
                        return;
                    }
                    let args = js_sys::Array::of3(&el, &q.into(), cb.as_ref());
                    // Lives as long as the part may call it: the rest of the session.
                    cb.forget();
                    module.set_value(Some(m));
                    call("mount", &args);
                    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
                        p.mark(&format!("accelscope-part-{name}")).ok();
                    }
                });
                let failed = Closure::<dyn FnMut(JsValue)>::once(move |e: JsValue| {
                    let why = e.as_string().or_else(|| {
                        js_sys::Reflect::get(&e, &"message".into())
                            .ok()?
                            .as_string()
                    });
                    let p = document().create_element("p").ok();
                    if let Some(p) = p {
                        p.set_class_name("error");
                        p.set_text_content(Some(&format!(
                            "This part of the page could not be loaded ({}). Reload to try again.",
                            why.unwrap_or_else(|| "no reason given".into())
                        )));
                        el2.replace_children_with_node_1(&p);
                    }
                });
                // After the page's own answer has painted: the part never delays it.
                request_animation_frame(move || {
                    let _ = fetch_module(name).then(&mounted).catch(&failed);
                    // Each is called once, at most, in the rest of the session.
                    mounted.forget();
                    failed.forget();
                });
            }
        }
    });
    on_cleanup(move || call("unmount", &js_sys::Array::new()));
    view! {
        <div class="lazy-part deferred" class:updating=move || updating.get() node_ref=node>
            <p class="small-note lazy-loading-part">{loading}</p>
        </div>
    }
}
