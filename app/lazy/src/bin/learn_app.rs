//! The app with the Learn page built in: what a link to the Learn page starts from (see
//! [`app::LocalPage`]). Opened from the app, the page comes as its own module (`learn`).

app::whole_app!(
    engine::scenario::Page::Learn,
    app::pages::learn::add_style,
    app::pages::learn::LearnPage
);
