//! Learners that work over any [`crate::env::Environment`]: one file each.
//!
//! - [`q_table`]: tabular Q-learning (Watkins 1989), seed 003's algorithm and defaults.
//! - `dqn` (feature `learn`): deep Q-learning (Mnih et al. 2015) on burn, the thesis's (seed 000)
//!   design and defaults.
//! - `evaluation` (feature `learn`): a Q-network on sliding puzzles against exact optimal
//!   distances, greedy and by model-guided beam search.

#[cfg(feature = "learn")]
pub mod dqn;
#[cfg(feature = "learn")]
pub mod evaluation;
pub mod q_table;
