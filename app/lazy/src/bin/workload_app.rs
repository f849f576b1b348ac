//! The app with the Workload page built in: what a link to the Workload page starts from (see
//! [`app::LocalPage`]). Opened from the app, the page comes as its own module (`workload`).

app::whole_app!(
    engine::scenario::Page::Workload,
    app::pages::workload::add_style,
    app::pages::workload::WorkloadPage
);
