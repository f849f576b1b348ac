//! The app with the Collectives page built in: what a link to the Collectives page starts from (see
//! [`app::LocalPage`]). Opened from the app, the page comes as its own module (`collectives`).

app::whole_app!(
    engine::scenario::Page::Collectives,
    app::pages::collectives::CollectivesPage
);
