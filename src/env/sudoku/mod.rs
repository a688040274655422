//! Sudoku: the grid and its rules, exact and logical solvers, the coursework's genetic algorithm,
//! and the game as an [`Environment`](crate::env::Environment) for learners.
//!
//! Sources: the coursework's genetic algorithm (`../shared/seeds/002_…`) and Mehta's RL paper for
//! constraint-satisfaction games (`../shared/seeds/004_…`); the exact solver's yardsticks are
//! tdoku's benchmark and the `sudoku` crate (a JCZSolve port).
//!
//! Everything is re-exported here: `puzzlelab::env::sudoku::X` is the path to use.

mod genetic;
pub use genetic::{
    band_bounds, crossover, fitness, initialise, survivor_count, GaConfig, GaError,
    GenerationStats, GeneticAlgorithm, Initialisation, GA_GRIDS, MAX_FITNESS,
};
