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

step "repository checks (stands alone; comments name files that exist)"
bash scripts/check-repository.sh
node scripts/check-file-references.mjs
node scripts/module-preloads.mjs --check

step "format and lints"
cargo fmt --check
cargo clippy --all-targets -- -D warnings
cargo clippy --lib --target wasm32-unknown-unknown -- -D warnings
cargo clippy --lib --target wasm32-unknown-unknown --features webgpu -- -D warnings
cargo clippy --all-targets --features learn -- -D warnings

step "native tests"
cargo test --all-targets

step "deep-learning tests (burn, --features learn)"
# Every test file that compiles only with `learn` (a `#![cfg(feature = "learn")]` line), found
# rather than listed: a new one runs without editing this script. The others ran above.
learn_tests=()
# A test target is a file tests/NAME.rs or a folder tests/NAME/ with a main.rs (Cargo's two forms).
for file in tests/*.rs tests/*/main.rs; do
  if grep -q '^#!\[cfg(feature = "learn")\]' "$file"; then
    case "$file" in
      */main.rs) name=$(basename "$(dirname "$file")") ;;
      *) name=$(basename "$file" .rs) ;;
    esac
    learn_tests+=(--test "$name")
  fi
done
echo "learn test files: ${learn_tests[*]}"
[ "${#learn_tests[@]}" -gt 0 ] || { echo "no learn test file found" >&2; exit 1; }
cargo test --features learn --lib "${learn_tests[@]}"

step "native GPU training (--features gpu, on lavapipe)"
cargo test --features gpu --test gpu

step "wasm API tests (Node)"
# With the learning bundle's features, so that its tests (LearnerTrainer, marked
# #[cfg(feature = "learn")]) run too instead of compiling to nothing.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --target wasm32-unknown-unknown --features webgpu --test web

step "wasm bundles (core, learning)"
bash scripts/build-wasm.sh all

step "browser tests (Chromium)"
node --test --test-concurrency=1 tests/browser/

step "done in $(( $(date +%s) - start )) s"
