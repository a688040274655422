#!/usr/bin/env bash
# Installs, when missing, what building the page and running the tests need on a fresh Debian
# machine: the wasm32 Rust target, wasm-bindgen-cli at exactly Cargo.lock's version, the npm
# packages of package.json (playwright-core, binaryen's wasm-opt, TensorFlow.js for
# scripts/bench-webml.mjs only), and with --browser (the suite) Debian's Chromium and Mesa's
# software Vulkan driver (lavapipe). Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

want=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "installing wasm-bindgen-cli $want (found: ${have:-none})"
  # --force: a leftover record of an earlier install must not make cargo skip a missing binary.
  cargo install --force wasm-bindgen-cli --version "$want"
fi

if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/binaryen ] || [ ! -d node_modules/marked ] || [ ! -d node_modules/@tensorflow/tfjs ]; then
  npm ci --no-audit --no-fund
fi

# The suite's extras: Debian's Chromium for the browser tests, and Mesa's software Vulkan driver
# (lavapipe) for the native GPU training test (tests/gpu.rs).
if [ "${1:-}" = "--browser" ]; then
  missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 || missing+=(mesa-vulkan-drivers)
  if [ "${#missing[@]}" -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
  fi
fi
