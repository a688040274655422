//! Learners that work over any [`crate::env::Environment`]: one file each.
//!
//! - [`q_table`]: tabular Q-learning (Watkins 1989), seed 003's algorithm and defaults.

pub mod q_table;
