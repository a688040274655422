#!/usr/bin/env bash
# Builds the page's WebAssembly and serves the repository on http://127.0.0.1:${PORT:-8080}/www/.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/puzzlelab/target}"
bash scripts/setup.sh
bash scripts/build-wasm.sh all
exec node scripts/serve.mjs
