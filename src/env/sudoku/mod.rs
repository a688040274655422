//! Sudoku: the grid and its rules, exact and logical solvers, the coursework's genetic algorithm,
//! and the game as an [`Environment`](crate::env::Environment) for learners.
//!
//! Sources: the coursework's genetic algorithm ("Evolutionary Algorithm to Solve Sudoku") and Mehta's RL paper for
//! constraint-satisfaction games ("Reinforcement Learning For Constraint Satisfaction Game Agents"); the exact solver's yardsticks are
//! tdoku's benchmark and the `sudoku` crate (a JCZSolve port).
//!
//! Everything is re-exported here: `puzzlelab::env::sudoku::X` is the path to use.
//!
//! Files: `grid.rs` (shapes, the grid, parsing and its errors, candidates), `exact.rs` (the fast
//! 9 × 9 exact solver, band-wise bitsets), `backtrack.rs` (the reference exact solver for every
//! shape, and [`search`], which picks the fast one for 9 × 9), `logic.rs` (named techniques, hints and the rating;
//! `logic/techniques.rs` finds each technique), `generate.rs` (puzzles by
//! difficulty), `genetic.rs` (the coursework's genetic algorithm), `environment.rs` (the game for learners, Mehta's set-up).

mod backtrack;
mod bins;
mod environment;
mod exact;
mod generate;
mod genetic;
mod grid;
mod logic;

pub use backtrack::{count_solutions, search, search_reference, search_with, Search};
pub use bins::{
    binned_puzzles, training_puzzles, BinnedDraw, GuessBin, TRAINING_SEED, VALIDATION_SEED,
};
pub use environment::{
    SudokuEnv, SudokuObservation, SudokuReward, FEATURES, MOVE_LIMIT, MOVE_LIMIT_LOSS,
};
pub use exact::{solve, solve_with, Branching, Solved};
pub use generate::{generate, generate_with_givens, random_solution, Difficulty, Generated};
pub use genetic::{
    band_bounds, crossover, fitness, ga_puzzle, initialise, survivor_count, GaConfig, GaError,
    GenerationStats, GeneticAlgorithm, Initialisation, GA_GRIDS, MAX_FITNESS,
};
pub use grid::{Grid, Shape, SudokuError, UnitKind};
pub use logic::{hint, one_decimal, rate, rate_with, Board, Rating, Step, Technique, STUCK_RATING};

#[cfg(test)]
mod tests;
