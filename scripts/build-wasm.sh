#!/usr/bin/env bash
# Builds the page's WebAssembly (wasm-bindgen --target web), optimised for size:
#   core  (default) pkg/        play and search; what the page and the widget load first
#   learn           pkg/learn/  the same crate with burn (--features webgpu): the DQN trainer and
#                               models, loaded only by the learning worker
#   all             both
# Needs the prerequisites of scripts/setup.sh. Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-target}"
# Where wasm-opt's outputs are kept between builds (below).
opt_cache="$HOME/.cache/puzzlelab/wasm-opt"

build() { # build NAME OUT_DIR CARGO_FEATURE_ARGS...
  local name=$1 out=$2
  shift 2
  cargo build --lib --target wasm32-unknown-unknown --profile wasm "$@"
  local wasm="$target_dir/wasm32-unknown-unknown/wasm/puzzlelab.wasm"
  local tmp="$out.tmp"
  rm -rf "$tmp" && mkdir -p "$(dirname "$tmp")"
  wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section \
    --out-dir "$tmp" "$wasm"
  if [ -x node_modules/.bin/wasm-opt ]; then
    # npm's binaryen (pinned in package.json); Debian's wasm-opt 108 emits broken modules for current Rust.
    # The learning bundle has SIMD128 (gemm's kernels for burn's CPU backend).
    local simd=()
    [ "$name" = learn ] && simd=(--enable-simd)
    local opt=(-Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
      --enable-mutable-globals "${simd[@]}" --strip-debug --strip-producers)
    # wasm-opt takes minutes on the learning bundle (about 10 on a slow 2-core machine): its output is
    # kept under the checksum of its input, its version and its flags, so that a build whose Rust did
    # not change (a change to the pages only) reuses it. The newest few are kept.
    local key kept
    key=$( (sha256sum <"$tmp/puzzlelab_bg.wasm"; node_modules/.bin/wasm-opt --version; echo "${opt[*]}") | sha256sum | cut -c1-32)
    kept="$opt_cache/$key.wasm"
    if [ -f "$kept" ]; then
      echo "wasm-opt: the $name bundle's optimised module from $kept (its input is unchanged)"
      cp "$kept" "$tmp/puzzlelab_bg.wasm"
      touch "$kept"
    else
      node_modules/.bin/wasm-opt "${opt[@]}" "$tmp/puzzlelab_bg.wasm" -o "$tmp/puzzlelab_bg.opt.wasm"
      mv "$tmp/puzzlelab_bg.opt.wasm" "$tmp/puzzlelab_bg.wasm"
      mkdir -p "$opt_cache"
      cp "$tmp/puzzlelab_bg.wasm" "$kept.part" && mv "$kept.part" "$kept"
      # The six newest (both bundles of the last three builds).
      ls -t "$opt_cache"/*.wasm | tail -n +7 | xargs -r rm -f
    fi
  fi
  # pkg/ holds pkg/learn/: replace the core files only, never the other bundle.
  if [ "$name" = core ]; then
    mkdir -p "$out"
    rm -f "$out"/puzzlelab* "$out"/package.json
    mv "$tmp"/* "$out"/ && rmdir "$tmp"
  else
    rm -rf "$out" && mv "$tmp" "$out"
  fi
  local raw gz
  raw=$(stat -c %s "$out/puzzlelab_bg.wasm")
  gz=$(gzip -9 -c "$out/puzzlelab_bg.wasm" | wc -c)
  echo "$out/puzzlelab_bg.wasm ($name bundle): $raw bytes, $gz bytes gzipped"
  # The budgets (README, docs/benchmarks.md): the core bundle every page loads first, and the
  # learning bundle only the learning worker loads.
  local budget=300000
  [ "$name" = learn ] && budget=4000000
  if [ "$gz" -gt "$budget" ]; then
    echo "the $name bundle is $gz bytes gzipped, over its budget of $budget" >&2
    exit 1
  fi
}

case "${1:-core}" in
  core) build core pkg ;;
  learn) build learn pkg/learn --features webgpu ;;
  all) build core pkg && build learn pkg/learn --features webgpu ;;
  *) echo "usage: $0 [core|learn|all]" >&2; exit 2 ;;
esac
# The checksums browsers keep the files under between visits (www/common/asset-cache.js), for a
# host that copies www/ and pkg/ (scripts/serve.mjs computes them afresh on every request).
node scripts/asset-index.mjs > pkg/asset-index.json
