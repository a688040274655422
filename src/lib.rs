//! puzzlelab: puzzles, optimal search and reinforcement learning, in the browser and natively.
//!
//! The same code serves the native tools (`src/bin/`), the tests and the WebAssembly bundle the
//! page loads (`src/web/`, compiled only for `wasm32`).
//!
//! - [`env`]: the environment contract every puzzle obeys, and one module per puzzle.
//! - [`search`]: generic search (BFS, A*, IDA*, expectimax for 2048) and exact distance tables.
//! - [`agent`]: learners (tabular Q-learning; n-tuple networks for 2048; deep Q-learning with the
//!   `learn` feature).
//! - [`puzzles`]: the puzzle registry: every puzzle and where its parts are, once.
//! - [`checksum`]: the FNV-1a checksum stored in every model and database file.
//! - [`rng`]: the small seeded random generator everything random goes through.
//! - `web` (wasm32 only): the thin wasm-bindgen boundary used by the page and its worker.
#![warn(missing_docs)]

pub mod agent;
pub mod checksum;
pub mod clock;
pub mod env;
pub mod hash;
pub mod puzzles;
pub mod rng;
pub mod search;

#[cfg(target_arch = "wasm32")]
pub mod web;
