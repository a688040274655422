//! 2048 (Gabriele Cirulli, 2014) as an [`Environment`](crate::env::Environment), on a packed
//! 64-bit board.
//!
//! The rules are the original game's: a move slides every tile as far as it goes toward one side;
//! two equal tiles that meet merge into one of twice the value, merging from the side moved
//! toward, and a merged tile does not merge again in the same move (`[2,2,2,2]` left →
//! `[4,4,_,_]`, `[2,2,2,_]` → `[4,2,_,_]`, `[4,2,2,_]` → `[4,4,_,_]`). After every move that
//! changes the board a new tile appears on a uniformly chosen empty cell: a 2 with probability
//! 0.9, a 4 with 0.1 (the DQN of Mehta's RL paper for constraint-satisfaction games only ever adds
//! 2s: [`Game2048Config::always_two`]). The game starts with two such tiles and ends when no move
//! changes the board. The score is the sum of the merged tiles' values; the reward of a move is the
//! score it gains (or that paper's shaped reward, [`Reward2048::WeightedFeatures`]).
//!
//! The board is 16 nibbles of a `u64` (cell `4·row + col` in bits `4·cell..4·cell+4`), each the
//! tile's exponent (0 = empty, 1 = 2, 2 = 4, ..., 15 = 32768). Moves use 65,536-entry row tables
//! (the layout of nneonneo's 2048-ai and of the n-tuple papers' implementations), so a move costs
//! four table look-ups and, for up and down, two transpositions: the n-tuple learner
//! ([`crate::agent::ntuple`]) plays millions of moves per minute on it. Two 32768 tiles do not
//! merge (a 65536 tile does not fit in a nibble); no game of record has reached that.
//!
//! The learner's "afterstate" (Szubert & Jaśkowski 2014) is the board after the slide and before
//! the new tile: [`Board::slide`]. [`Board::parse`] reads a board from text for tests.
//!
//! Actions follow that paper's order: 0 up, 1 right, 2 down, 3 left. The observation is its
//! one-hot encoding: 16 cells × 16 exponents (256 floats, cell-major).
//!
//! Files: `board.rs` (the packed board, its slides and text form), `game.rs` (the game as an
//! environment, its rules and rewards), `expectimax.rs` (expectimax search over any evaluation of
//! afterstates: 2048's own solver, so it lives with the puzzle), `stats.rs` (batches of seeded games and what they
//! reached, the speed clock) and `tiles.rs` (tile-by-tile slides for animation). Everything is
//! re-exported here: `puzzlelab::env::game2048::X` is the path to use.

mod board;
pub mod expectimax;
mod game;
mod stats;
mod tiles;

pub use board::{Board, BoardParseError, Move, Slide};
pub use game::{weighted_features_reward, Game2048, Game2048Config, Reward2048};
pub use stats::{
    clock_seconds, game_seed, legal_moves, play_game_range, play_games, random_move, GameStats,
    GameSummary, REPORTED_TILES,
};
pub use tiles::{tile_moves, TileMove};
