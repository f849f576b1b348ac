//! Placeholder for pages that later milestones fill in.

use engine::scenario::Page;
use leptos::prelude::*;

/// Says what the page will hold.
#[component]
pub fn ComingNext(
    /// Which page this stands in for.
    page: Page,
) -> impl IntoView {
    let what = match page {
        Page::Topology => "Torus, hypercube and switched fabrics drawn chip by chip; collectives (all-reduce, all-gather, all-to-all…) timed analytically and by a link-level simulation.",
        Page::Workload => "Training and inference of real models on each system: time to train, tokens per second, and the cost per token, rented or owned.",
        _ => "Scenarios side by side.",
    };
    view! {
        <section class="page coming">
            <h1>{page.label()}</h1>
            <p class="lead">"Coming next. "{what}</p>
            <p>"Meanwhile, the Chips and Roofline pages are live."</p>
        </section>
    }
}
