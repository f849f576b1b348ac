//! The layout search's panel: the search runs in the worker, in slices, and reports after
//! each (`view::search`).

use super::*;
use view::protocol::{Reply, Request};

/// The layout search, run in the worker while the panel is open: progress, the fastest
/// layouts that fit, and why the others do not. It runs again only when what the search
/// depends on changes.
#[component]
pub(super) fn LayoutSearchPanel(job: Memo<Job>) -> impl IntoView {
    let sc = use_scenario();
    let progress = RwSignal::new((0usize, 0usize));
    let rows = RwSignal::new(String::new());
    let reasons = RwSignal::new(String::new());
    // The query of the search shown; replies for another are dropped.
    let newest = StoredValue::new(None::<String>);
    let open = RwSignal::new(false);
    crate::background::listen(move |r| {
        if let Reply::Search {
            query,
            tried,
            total,
            rows: r,
            reasons: why,
        } = r
        {
            if newest.try_with_value(|n| n.as_deref() == Some(query.as_str())) == Some(true) {
                progress.try_set((*tried, *total));
                rows.try_set(r.clone());
                reasons.try_set(why.clone());
            }
        }
    });
    // Prices, tokens, failures and serving leave the search as it was.
    let inputs = Memo::new(move |_| job.with(|j| engine::job::search_inputs(j).ok()));
    Effect::new(move |_| {
        inputs.track();
        rows.set(String::new());
        reasons.set(String::new());
        progress.set((0, 0));
        if !open.get() {
            newest.set_value(None);
            return;
        }
        let q = sc.with_untracked(engine::Scenario::to_query);
        newest.set_value(Some(q.clone()));
        crate::background::ask(Request::Search(q));
    });
    view! {
        <details class="card layout-search" id="layout-search" on:toggle=move |ev| {
            let now = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
            if now != open.get_untracked() {
                open.set(now);
            }
        }>
            <summary>
                "Layout search: "
                {move || (progress.get().1 > 0).then(|| view! {
                    <progress max=move || progress.get().1.max(1) value=move || progress.get().0></progress>
                })}
                {move || {
                    let (a, b) = progress.get();
                    if b == 0 { " open to try every layout".to_string() } else { format!(" {a} of {b} layouts tried") }
                }}
            </summary>
            <p class="small-note">"Tensor degrees that divide the scale-up domain, every pipeline depth up to the layer count (uneven stages paced by the largest), expert parallelism for MoE models, and recomputation on or off. The job above uses the fastest."</p>
            <div class="table-wrap">
                <table class="data" id="layouts-table">
                    <thead><tr><th scope="col">"layout"</th><th scope="col">"tokens/s"</th><th scope="col">"MFU"</th><th scope="col">"step"</th><th scope="col">"memory/chip"</th></tr></thead>
                    <tbody inner_html=move || rows.get()></tbody>
                </table>
            </div>
            <div inner_html=crate::export::table_buttons("layouts-table")></div>
            <ul class="small-note" inner_html=move || reasons.get()></ul>
        </details>
    }
}
