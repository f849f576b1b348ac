#!/usr/bin/env bash
# Sets up and runs every check: format, lints, docs, the no_std engine build, native unit,
# golden and property tests, browser tests (wasm-bindgen-test), the release build,
# benchmarks, a million-input fuzz run, and end-to-end tests in Chromium. The last line is
# the e2e count.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh all
source scripts/env.sh
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "format"
cargo fmt --all -- --check
step "clippy (host and wasm)"
cargo clippy --workspace --all-targets --locked -q -- -D warnings
cargo clippy -p app -p worker -p kernels-page -p lazy-pages --target wasm32-unknown-unknown --all-targets --locked -q -- -D warnings
step "engine builds without std for wasm32"
cargo build -p engine --no-default-features --target wasm32-unknown-unknown --locked -q
step "engine docs"
RUSTDOCFLAGS="-D warnings" cargo doc -p engine --no-deps --locked -q
step "native tests: engine, CLI, charts"
cargo test --workspace --locked
step "browser tests (wasm-bindgen-test in headless Chromium)"
(cd app && cargo test --target wasm32-unknown-unknown --locked)
step "release build (trunk)"
trunk build --release
step "benchmarks"
cargo bench -p engine --locked -q
# The native side of the browser-versus-native kernel comparison.
cargo build --release -p cli --locked -q
(cd tests && node bench.mjs)
step "fuzz: a million generated and mutated links and JSON files, decoded and evaluated"
cargo run --release -p engine --example fuzz --locked -q
step "end-to-end tests (Playwright + Chromium)"
(cd tests && node e2e.mjs)
