//! Serving it yourself beside API list prices, on the Workload page: the card, whose body the
//! worker draws (`view::api`).

use leptos::prelude::*;

/// The card.
#[component]
pub fn ApiBeside() -> impl IntoView {
    let body = crate::background::drawn(view::protocol::View::Api);
    view! {
        <div class="card" id="api-beside">
            <h2>"Serving it yourself, beside API prices"</h2>
            <div class="deferred" class:updating=move || body.updating.get()
                inner_html=move || body.value.get().unwrap_or_default()></div>
        </div>
    }
}
