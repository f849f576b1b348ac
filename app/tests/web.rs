//! Components mounted in a real browser (headless Chromium): they render the engine's numbers
//! and react to the scenario signal and to the user.
#![cfg(target_arch = "wasm32")]

use app::pages::chips::ChipsPage;
use app::pages::roofline::RooflinePage;
use app::state::{Notices, ScenarioCtx};
use engine::{Dtype, Scenario};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn container() -> web_sys::HtmlElement {
    let doc = document();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

/// Mount `page` under a fresh container with `scenario` in context; returns the container
/// and the signal.
fn mount<V: IntoView + 'static>(
    scenario: Scenario,
    page: impl FnOnce() -> V + 'static,
) -> (web_sys::HtmlElement, RwSignal<Scenario>) {
    let el = container();
    let sig = RwSignal::new(scenario);
    let handle = leptos::mount::mount_to(el.clone(), move || {
        provide_context(ScenarioCtx(sig));
        provide_context(Notices(RwSignal::new(Vec::new())));
        page()
    });
    handle.forget();
    (el, sig)
}

fn text(el: &web_sys::HtmlElement) -> String {
    el.text_content().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn chips_table_follows_format_and_chip_set() {
    let (el, sig) = mount(Scenario::default(), ChipsPage);
    leptos::task::tick().await;
    let t = text(&el);
    // AWS Neuron Trainium2 page: 667 TFLOP/s BF16 dense.
    assert!(t.contains("667 TFLOP/s"), "{t}");
    let cols = el
        .query_selector_all("#chips-table thead th[data-chip]")
        .unwrap()
        .length();
    assert_eq!(cols, 5);

    sig.update(|s| s.format = Dtype::Fp8);
    leptos::task::tick().await;
    let t = text(&el);
    assert!(
        t.contains("FP8 dense") && t.contains("1.299 PFLOP/s"),
        "{t}"
    );

    sig.update(|s| s.chips = vec!["trn1".into()]);
    leptos::task::tick().await;
    let cols = el
        .query_selector_all("#chips-table thead th[data-chip]")
        .unwrap()
        .length();
    assert_eq!(cols, 1);
}

#[wasm_bindgen_test]
async fn cloning_makes_an_editable_custom_chip_and_bad_input_is_refused() {
    let (el, sig) = mount(Scenario::default(), ChipsPage);
    leptos::task::tick().await;
    let clone: web_sys::HtmlElement = el
        .query_selector("th[data-chip='trn2'] button")
        .unwrap()
        .unwrap()
        .unchecked_into();
    clone.click();
    leptos::task::tick().await;
    assert_eq!(sig.with(|s| s.custom.len()), 1);
    assert!(el
        .query_selector("th[data-chip='custom-1'] .badge.custom")
        .unwrap()
        .is_some());

    let input: web_sys::HtmlInputElement = el
        .query_selector("[data-custom='custom-1'] input[data-field='hbm_bytes_per_s']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    input.set_value("not a number");
    input
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    leptos::task::tick().await;
    assert!(text(&el).contains("not a positive number"));
    assert!(sig.with(|s| s.custom[0].overrides.is_empty()));

    input.set_value("3.5");
    input
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    leptos::task::tick().await;
    let bw = sig.with(|s| s.chosen_chips().last().unwrap().hbm_bandwidth.value.get());
    assert_eq!(bw, 3.5e12);
    assert!(text(&el).contains("3.5 TB/s"));
}

#[wasm_bindgen_test]
async fn roofline_draws_a_roof_per_chip_and_format() {
    let s = Scenario {
        roofline_formats: vec![Dtype::Bf16, Dtype::Fp8],
        ..Scenario::default()
    };
    let (el, sig) = mount(s, RooflinePage);
    leptos::task::tick().await;
    let canvas = el.query_selector("#roofline-canvas").unwrap().unwrap();
    for _ in 0..50 {
        if canvas.get_attribute("data-roofs").is_some() {
            break;
        }
        gloo::timers::future::TimeoutFuture::new(10).await;
    }
    // TPU v6e has an FP8 figure too, so 5 chips × 2 formats.
    assert_eq!(canvas.get_attribute("data-roofs").as_deref(), Some("10"));
    // The readings table follows the chart's paint (`app::defer`).
    let rows = || {
        el.query_selector_all("#roofline-table tbody tr")
            .unwrap()
            .length() as usize
    };
    for _ in 0..50 {
        if rows() > 0 {
            break;
        }
        gloo::timers::future::TimeoutFuture::new(10).await;
    }
    assert_eq!(rows(), 2 * engine::OpSpec::defaults().len());

    sig.update(|s| s.chips.truncate(1));
    leptos::task::tick().await;
    assert_eq!(canvas.get_attribute("data-roofs").as_deref(), Some("2"));
}

#[wasm_bindgen_test]
fn link_codec_round_trips_in_the_browser() {
    let s = Scenario::default();
    let (back, notes) = Scenario::from_query(&format!("?{}", s.to_query()));
    assert_eq!(back, s);
    assert!(notes.is_empty());
}

#[wasm_bindgen_test]
fn the_panic_panel_explains_and_keeps_the_page() {
    app::panic::show_panel("index out of bounds: the len is 3 but the index is 7");
    let panel = document()
        .get_element_by_id("panic-panel")
        .expect("panel shown");
    let t = panel.text_content().unwrap_or_default();
    assert!(
        t.contains("internal error") && t.contains("index is 7"),
        "{t}"
    );
    assert_eq!(panel.get_attribute("role").as_deref(), Some("alert"));
}
