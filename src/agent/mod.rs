//! Learners that work over any [`crate::env::Environment`]: one file each.
//!
//! - [`ntuple`]: n-tuple networks for 2048 learned by TD(0) on afterstates (Szubert & Jaśkowski
//!   2014), plain Rust for the small bundle.
//! - [`q_table`]: tabular Q-learning (Watkins 1989), the sun/moon Q-learning write-up's algorithm
//!   and defaults.
//! - `dqn` (feature `learn`): deep Q-learning (Mnih et al. 2015) on burn, the N-puzzle DQN
//!   dissertation's (2021) design and defaults.
//! - `evaluation` (feature `learn`): a Q-network on sliding puzzles against exact optimal
//!   distances, greedy and by model-guided beam search.

#[cfg(feature = "learn")]
pub mod dqn;
#[cfg(feature = "learn")]
pub mod evaluation;
pub mod ntuple;
pub mod q_table;
