#!/usr/bin/env bash
# A release an author can host: builds the WebAssembly, then dist/puzzlelab-<version>/ (the widget,
# its modules, pkg/ and the models, with integrity.json) and dist/puzzlelab-<version>.tar.gz.
# See scripts/dist.mjs and docs/widget.md ("A release to host").
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/puzzlelab/target}"
bash scripts/setup.sh
bash scripts/build-wasm.sh all
exec node scripts/dist.mjs "$@"
