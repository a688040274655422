//! An n-tuple network for 2048, learned by TD(0) on afterstates.
//!
//! The method of Szubert & Jaśkowski, "Temporal Difference Learning of N-Tuple Networks for the
//! Game 2048" (CIG 2014), the paper that Mehta's RL paper for constraint-satisfaction games names
//! as the 97% anchor, with the tuple set and the backward update order of Yeh, Wu et al.
//! ("Multi-stage temporal difference learning for 2048-like games", 2016) and Jaśkowski ("Mastering
//! 2048 with delayed temporal coherence learning...", 2018):
//!
//! - The value of an afterstate (the board after a slide, before the new tile) is a sum of
//!   look-ups: each tuple of cells indexes a table by the exponents in those cells. With symmetric
//!   sampling every tuple is read in all 8 rotations and reflections of the board, sharing one
//!   table, so the network learns the game's symmetry for free.
//! - The agent plays greedily (1-ply): the move maximising reward + V(afterstate); the new tiles
//!   are exploration enough.
//! - TD(0) on afterstates: V(s'ₜ) ← V(s'ₜ) + α (rₜ₊₁ + V(s'ₜ₊₁) − V(s'ₜ)), 0 after the last move.
//!   Updates are made backward over the finished game (Yeh's and Matsuzaki's order; Szubert &
//!   Jaśkowski update online — the same targets, applied sooner).
//!
//! The learning rate is `alpha` for the whole value, split evenly over the weights one afterstate
//! touches (each gets α / m of the error, m = 8 × tuples): `alpha = 0.1` gives 0.0031 per weight
//! for the 4 × 6-tuple set, close to Szubert & Jaśkowski's 0.0025 per tuple, and it keeps the
//! effective step the same whatever the tuple set.
//!
//! Three tuple sets ([`TupleSet`]): Yeh's 4 × 6-tuples (the strongest, but 4 × 16⁶ = 67 M
//! weights: 256 MiB as f32 in memory, 128 MiB as f16 on disk — too big to ship to a browser),
//! the same four shapes cut to 5 cells (4.2 M weights: 16 MiB in memory, ≤ 8 MiB as an f16 file
//! before gzip — the shipped one), and 5 × 4-tuples after Szubert & Jaśkowski's straight and
//! square 4-tuples (327,680 weights; weaker, tiny, for quick tests). Files ([`NTupleNetwork::to_bytes`]) store f32 (exact,
//! for checkpoints) or f16 (for shipping: half the size, and the many never-visited zero
//! weights compress to almost nothing under gzip).
//!
//! [`Evaluation`] plays a network's agents — greedy, expectimax over its values ([`Agent2048`]),
//! or random moves — over numbered, seeded games in chunks: `puzzlelab 2048 eval` and the page's
//! worker both use it, so they report the same games in the same [`EvaluationReport`].
//!
//! Files: `tuples.rs` (the tuple sets and the board's symmetries), `network.rs` (the network,
//! its value and greedy move), `td.rs` (TD(0) learning), `file.rs` (the model file format) and
//! `evaluation.rs` (agents playing seeded games in chunks). Everything is re-exported here:
//! `puzzlelab::agent::ntuple::X` is the path to use.

mod evaluation;
mod file;
mod network;
mod td;
mod tuples;

pub use evaluation::{evaluate_greedy, Agent2048, Evaluation, EvaluationError, EvaluationReport};
pub use file::{NTupleFileError, Precision, FILE_MAGIC, FILE_VERSION};
pub use network::NTupleNetwork;
pub use td::{TdConfig, TdLearner, TrainStats};
pub use tuples::TupleSet;
