//! Learners that work over any [`crate::env::Environment`]: one file each.
//!
//! - [`bwas`]: batch-weighted A* (DeepCubeA's search) over a heuristic that values boards in
//!   batches, such as a network's cost-to-go.
//! - [`local_vi`]: local value iteration for sliding puzzles, tile by tile (Bischoff et al. 2013,
//!   as Mehta's RL paper plays the 15-puzzle): exact sweeps of small sub-problems, and the paper's
//!   sampled Q-learning of the same sub-problems.
//! - [`ntuple`]: n-tuple networks for 2048 learned by TD(0) on afterstates (Szubert & Jaśkowski
//!   2014), plain Rust for the small bundle.
//! - [`q_table`]: tabular Q-learning (Watkins 1989), the sun/moon Q-learning write-up's algorithm
//!   and defaults.
//! - `dqn` (feature `learn`): deep Q-learning (Mnih et al. 2015) on burn, the N-puzzle DQN
//!   dissertation's (2021) design and defaults.
//! - `evaluation` (feature `learn`): a Q-network on sliding puzzles against exact optimal
//!   distances, greedy and by model-guided beam search.

pub mod bwas;
#[cfg(feature = "learn")]
pub mod dqn;
#[cfg(feature = "learn")]
pub mod evaluation;
pub mod local_vi;
pub mod ntuple;
pub mod q_table;
