//! Learners that work over any [`crate::env::Environment`]: one file each.
//!
//! - [`q_table`]: tabular Q-learning (Watkins 1989), seed 003's algorithm and defaults.
//! - `dqn` (feature `learn`): deep Q-learning (Mnih et al. 2015) on burn, the thesis's (seed 000)
//!   design and defaults.

#[cfg(feature = "learn")]
pub mod dqn;
pub mod q_table;
