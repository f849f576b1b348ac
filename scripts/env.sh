# Sourced by the scripts: tool paths and build settings shared by serve, test and setup.
export PATH="$HOME/.cargo/bin:$PWD/tests/node_modules/.bin:$PATH"
# Build artefacts outside the clone survive CI's fresh clones on a kept machine.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/accelscope/target}"
export TRUNK_SKIP_VERSION_CHECK=true
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
