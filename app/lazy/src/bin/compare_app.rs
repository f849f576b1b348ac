//! The app with the Compare page built in: what a link to the Compare page starts from (see
//! [`app::LocalPage`]). Opened from the app, the page comes as its own module (`compare`).

app::whole_app!(
    engine::scenario::Page::Compare,
    app::pages::compare::add_style,
    app::pages::compare::ComparePage
);
