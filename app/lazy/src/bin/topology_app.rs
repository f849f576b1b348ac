//! The app with the Topology page built in: what a link to the Topology page starts from (see
//! [`app::LocalPage`]). Opened from the app, the page comes as its own module (`topology`).

app::whole_app!(
    engine::scenario::Page::Topology,
    app::pages::topology::add_style,
    app::pages::topology::TopologyPage
);
