//! The app with the Roofline page built in: what a link to the Roofline page starts from (see
//! [`app::LocalPage`]). Opened from the app, the page comes as its own module (`roofline`).

app::whole_app!(
    engine::scenario::Page::Roofline,
    app::pages::roofline::RooflinePage
);
