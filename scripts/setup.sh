#!/usr/bin/env bash
# Installs what building, serving and testing accelscope need, idempotently: each step checks
# what is already there first. Usage: scripts/setup.sh [build|all]  (default: all)
#   build: Rust wasm target, Trunk, wasm-bindgen-cli (= Cargo.lock), wasm-opt (npm binaryen)
#   all:   build + Debian's chromium and chromium-driver for the browser tests
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
what="${1:-all}"

TRUNK_VERSION=0.21.14
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_updated=
apt_install() {
  if [ -z "$apt_updated" ]; then as_root apt-get update -qq; apt_updated=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

command -v cargo >/dev/null || { echo "setup: cargo (rustup) is required" >&2; exit 1; }
if ! command -v npm >/dev/null; then say "installing Node.js and npm"; apt_install nodejs npm; fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! trunk --version 2>/dev/null | grep -qx "trunk $TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (about 10 minutes on 2 cores)"
  cargo install --locked "trunk@$TRUNK_VERSION"
fi

# wasm-bindgen-cli must equal the wasm-bindgen library in Cargo.lock. Not --locked: its own
# lockfile pins a crate release the registry no longer serves.
WBG_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $WBG_VERSION"; then
  say "installing wasm-bindgen-cli $WBG_VERSION (about 5 minutes)"
  cargo install --force "wasm-bindgen-cli@$WBG_VERSION"
fi
grep -q "wasm_bindgen = \"$WBG_VERSION\"" Trunk.toml || {
  echo "setup: Trunk.toml [tools] wasm_bindgen must be $WBG_VERSION (Cargo.lock)" >&2
  exit 1
}

# npm packages: binaryen 132 (wasm-opt for Trunk), playwright-core and axe-core for the e2e tests.
if ! [ tests/node_modules/.package-lock.json -nt tests/package-lock.json ]; then
  say "installing npm packages (binaryen, playwright-core, axe-core)"
  (cd tests && npm ci --no-audit --no-fund --loglevel=error)
fi
wasm-opt --version | grep -q "version 132" || { echo "setup: wasm-opt 132 not on PATH" >&2; exit 1; }

if [ "$what" = all ]; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    say "installing Debian's chromium and chromium-driver"
    apt_install chromium chromium-driver
  fi
fi

# Trunk builds offline; fetch the crates once.
cargo fetch --locked -q
say "ready: $(trunk --version), $(wasm-bindgen --version), wasm-opt $(wasm-opt --version | awk '{print $3}')"
