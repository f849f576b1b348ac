#!/usr/bin/env bash
# Sets up and runs every check: format, lints, docs, the no_std engine build, native unit,
# golden and property tests, browser tests (wasm-bindgen-test), the release build,
# benchmarks, a million-input fuzz run, and end-to-end tests in Chromium. The last line is
# the e2e count.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh all
source scripts/env.sh
# One run builds everything once: incremental caches would only take disk.
export CARGO_INCREMENTAL=0
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
# A clean run writes about 4 GB under target/ (debug builds for lints and tests, release for
# the app, benchmarks and fuzzing). Say so up front where the disk is short, and drop the
# debug builds once their steps are done where it is.
free_gb() { df -Pk . | awk 'NR == 2 { print int($4 / 1048576) }'; }
NEED_GB=6
if [ "$(free_gb)" -lt "$NEED_GB" ]; then
  printf 'test: only %s GB free here; a clean run needs about %s GB under target/\n' "$(free_gb)" "$NEED_GB" >&2
fi

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
if [ "$(free_gb)" -lt "$NEED_GB" ]; then
  printf 'test: %s GB free; removing the debug builds, which no later step reads\n' "$(free_gb)" >&2
  rm -rf target/debug target/wasm32-unknown-unknown/debug
fi
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
