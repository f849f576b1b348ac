#!/usr/bin/env bash
# Sets up, builds the app, and serves dist/ on 127.0.0.1 (PORT, default 8080) with a plain
# static server, as any static host would.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
source scripts/env.sh
trunk build --release
exec node tests/serve-dist.mjs dist "${PORT:-8080}"
