#!/usr/bin/env bash
# The whole test suite: formatting and lints, native Rust tests (unit, integration, CLI), the
# wasm API's tests (wasm-bindgen-test in Node), then the page end to end in Debian Chromium.
# Build output is cached outside the clone ($HOME/.cache/puzzlelab) so later runs are quick.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/puzzlelab/target}"
export CARGO_TERM_COLOR=never
start=$(date +%s)
step() { echo; echo "== $1 ($(( $(date +%s) - start )) s)"; }

step "prerequisites"
bash scripts/setup.sh --browser

step "the repository stands alone"
bash scripts/check-repository.sh

step "format and lints"
cargo fmt --check
cargo clippy --all-targets -- -D warnings
cargo clippy --lib --target wasm32-unknown-unknown -- -D warnings
cargo clippy --lib --target wasm32-unknown-unknown --features webgpu -- -D warnings
cargo clippy --all-targets --features learn -- -D warnings

step "native tests"
cargo test --all-targets

step "deep-learning tests (burn, --features learn)"
cargo test --features learn --lib --test dqn --test dqn2048 --test dqn_cli --test dust_value --test minesweeper_dqn --test sudoku_dqn --test shipped_models --test hostile_models

step "wasm API tests (Node)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --target wasm32-unknown-unknown --test web

step "wasm bundles (core, learning)"
bash scripts/build-wasm.sh all

step "browser tests (Chromium)"
node --test --test-concurrency=1 tests/browser/

step "done in $(( $(date +%s) - start )) s"
