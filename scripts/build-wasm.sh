#!/usr/bin/env bash
# Builds the core WebAssembly bundle into pkg/ (wasm-bindgen --target web), optimised for size.
# Needs the prerequisites of scripts/setup.sh. Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-target}"
cargo build --lib --target wasm32-unknown-unknown --profile wasm
wasm="$target_dir/wasm32-unknown-unknown/wasm/puzzlelab.wasm"
rm -rf pkg.tmp && wasm-bindgen --target web --no-typescript --out-dir pkg.tmp "$wasm"
if [ -x node_modules/.bin/wasm-opt ]; then
  # npm's binaryen (pinned in package.json); Debian's wasm-opt 108 emits broken modules for current Rust.
  node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --strip-debug --strip-producers \
    pkg.tmp/puzzlelab_bg.wasm -o pkg.tmp/puzzlelab_bg.opt.wasm
  mv pkg.tmp/puzzlelab_bg.opt.wasm pkg.tmp/puzzlelab_bg.wasm
fi
rm -rf pkg && mv pkg.tmp pkg
raw=$(stat -c %s pkg/puzzlelab_bg.wasm)
gz=$(gzip -9 -c pkg/puzzlelab_bg.wasm | wc -c)
echo "pkg/puzzlelab_bg.wasm: $raw bytes, $gz bytes gzipped"
