# Sourced by the scripts: tool paths and build settings shared by serve, test and setup.
export PATH="$HOME/.cargo/bin:$PWD/tests/node_modules/.bin:$PATH"
# No shared CARGO_TARGET_DIR: two checkouts sharing one would reuse each other's stale
# builds of the workspace crates (cargo fingerprints them by relative path and mtime).
export TRUNK_SKIP_VERSION_CHECK=true
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
