//! The learners' command line end to end (`puzzlelab <puzzle> train|eval|solve`, `average`), on tiny
//! models trained in the test: the model and its manifest, re-evaluation, resuming, solving, and
//! clear errors for damaged or foreign files. One file a puzzle, and `files` for what every
//! trainer shares.
#![cfg(feature = "learn")]

#[path = "../common/mod.rs"]
mod common;

mod dust;
mod files;
mod game2048;
mod minesweeper;
mod sliding;
mod sudoku;

use common::{args, succeeds};

/// Writes `model` with its last byte flipped to `to`; returns the bytes written.
pub(crate) fn write_damaged_copy(model: &str, to: &str) -> Vec<u8> {
    let mut bytes = std::fs::read(model).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(to, &bytes).unwrap();
    bytes
}

/// A 2×3 model of 50 steps with an 8-unit layer, written to `path` (and its manifest beside it).
pub(crate) fn train_tiny_sliding_model(path: &str) {
    succeeds(&args(
        "sliding train --size 2x3 --steps 50 --hidden 8 --warmup 1 --batch 8 --per-distance 1 \
         --out {}",
        &[path],
    ));
}
