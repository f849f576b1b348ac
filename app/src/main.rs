//! Entry point of the accelscope web app: installs the panic panel and mounts the app.

fn main() {
    app::start();
}
