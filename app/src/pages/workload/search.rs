//! The layout search, run in slices so the page stays responsive, and its table.

use super::*;

/// One row of the layout-search table.
#[derive(Clone, PartialEq)]
pub(super) struct LayoutRow {
    layout: String,
    tokens_per_s: f64,
    mfu: f64,
    step: String,
    memory: String,
}

/// The layout search, run while the panel is open, in slices of about 3 ms that start after
/// the input's paint so the page stays responsive: progress, the fastest layouts that fit,
/// and why the others do not. It runs again only when what the search depends on changes.
#[component]
pub(super) fn LayoutSearchPanel(job: Memo<Job>) -> impl IntoView {
    let progress = RwSignal::new((0usize, 0usize));
    let rows = RwSignal::new(Vec::<LayoutRow>::new());
    let reasons = RwSignal::new(Vec::<(String, usize)>::new());
    let generation = StoredValue::new(0u64);
    let open = RwSignal::new(false);
    // Prices, tokens, failures and serving leave the search as it was.
    let inputs = Memo::new(move |_| job.with(|j| engine::job::search_inputs(j).ok()));
    Effect::new(move |_| {
        inputs.track();
        let my = generation.get_value() + 1;
        generation.set_value(my);
        rows.set(Vec::new());
        reasons.set(Vec::new());
        progress.set((0, 0));
        if !open.get() {
            return;
        }
        match job.with_untracked(layout_search) {
            Ok(s) => {
                progress.set((0, s.total()));
                // Start after the frame that paints this input's own result.
                request_animation_frame(move || {
                    gloo::timers::callback::Timeout::new(0, move || {
                        run_slice(s, my, generation, progress, rows, reasons);
                    })
                    .forget();
                });
            }
            Err(_) => progress.set((0, 0)),
        }
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
                    <tbody>
                        {move || rows.get().into_iter().map(|r| view! {
                            <tr><th scope="row">{r.layout}</th><td>{thousands(r.tokens_per_s)}</td><td>{format!("{}%", sig(r.mfu * 100.0, 3))}</td><td>{r.step}</td><td>{r.memory}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <div inner_html=crate::export::table_buttons("layouts-table")></div>
            <ul class="small-note">
                {move || reasons.get().into_iter().map(|(why, n)| view! { <li>{format!("{n} rejected: {why}")}</li> }).collect_view()}
            </ul>
        </details>
    }
}

pub(super) fn run_slice(
    mut s: engine::workload::LayoutSearch,
    my: u64,
    generation: StoredValue<u64>,
    progress: RwSignal<(usize, usize)>,
    rows: RwSignal<Vec<LayoutRow>>,
    reasons: RwSignal<Vec<(String, usize)>>,
) {
    if generation.try_get_value() != Some(my) {
        return;
    }
    let now = || {
        web_sys::window()
            .and_then(|w| w.performance())
            .map_or(0.0, |p| p.now())
    };
    let t0 = now();
    while !s.done() && now() - t0 < 3.0 {
        s.step(4);
    }
    progress.set((s.tried(), s.total()));
    rows.set(
        s.ranked(8)
            .into_iter()
            .map(|r| LayoutRow {
                layout: r.layout.to_string(),
                tokens_per_s: r.tokens_per_s,
                mfu: r.mfu,
                step: r.step.to_string(),
                memory: engine::Bytes::new(r.memory.total()).display_si(),
            })
            .collect(),
    );
    if s.done() {
        let mut by: Vec<(String, usize)> = Vec::new();
        for (_, e) in s.rejected() {
            let why = e.to_string();
            // Group by the reason's kind, not its figures.
            let key = why.split(':').next().unwrap_or(&why).to_string();
            match by.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += 1,
                None => by.push((key, 1)),
            }
        }
        reasons.set(by);
    } else {
        gloo::timers::callback::Timeout::new(0, move || {
            run_slice(s, my, generation, progress, rows, reasons);
        })
        .forget();
    }
}
