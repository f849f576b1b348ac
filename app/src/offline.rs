//! Offline and installable: once the first page is idle, the shell registers the service
//! worker the build writes (`sw.js`, from `scripts/sw.mjs`), which caches every page's code,
//! so the other pages are fetched ahead of their first opening and every page opens with
//! the network off after one visit. Where the browser offers no service worker, the other
//! pages' modules are prefetched into its cache instead. A new release installs beside the old one; the page
//! offers to reload into it rather than mixing the two.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function register_offline(on_update, modules) {
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 1000));
  if (!('serviceWorker' in navigator)) {
    // No service worker (a page not served securely): the other pages' code is still
    // fetched ahead of its first opening, into the browser's cache.
    idle(() => {
      for (const m of modules) {
        for (const f of [m + '.js', m + '_bg.wasm']) {
          const l = document.createElement('link');
          l.rel = 'prefetch';
          l.href = new URL(f, document.baseURI).href;
          document.head.appendChild(l);
        }
      }
    });
    return;
  }
  idle(() => {
    navigator.serviceWorker
      .register(new URL('sw.js', document.baseURI).href)
      .then((reg) => {
        // Only a release that replaces one already in charge is news.
        const offer = () => { if (navigator.serviceWorker.controller) on_update(); };
        if (reg.waiting) offer();
        reg.addEventListener('updatefound', () => {
          const w = reg.installing;
          if (w) w.addEventListener('statechange', () => { if (w.state === 'installed') offer(); });
        });
      })
      .catch(() => {});
  });
}
export function reload_into_update() {
  navigator.serviceWorker.getRegistration().then((reg) => {
    if (!reg || !reg.waiting) { location.reload(); return; }
    navigator.serviceWorker.addEventListener('controllerchange', () => location.reload());
    reg.waiting.postMessage('activate');
  });
}
"#)]
extern "C" {
    fn register_offline(on_update: &js_sys::Function, modules: &js_sys::Array);
    fn reload_into_update();
}

/// A banner that offers to reload into a new release once one is ready; registers the
/// service worker when the page is idle.
#[component]
pub fn UpdateBanner() -> impl IntoView {
    let ready = RwSignal::new(false);
    let cb = Closure::<dyn Fn()>::new(move || ready.set(true));
    // Every page but the first is a module of its own, named by the page's id.
    let modules: js_sys::Array = engine::scenario::Page::ALL
        .into_iter()
        .filter(|p| *p != engine::scenario::Page::Chips)
        .map(|p| wasm_bindgen::JsValue::from_str(p.id()))
        .collect();
    register_offline(cb.as_ref().unchecked_ref(), &modules);
    // The service worker may call it for the rest of the session.
    cb.forget();
    move || {
        ready.get().then(|| {
            view! {
                <div class="update" role="status">
                    "A new version of accelscope is ready. "
                    <button on:click=move |_| reload_into_update()>"Reload into it"</button>
                </div>
            }
        })
    }
}
