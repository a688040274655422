//! Positions with their optimal lengths: drawn at each exact distance from the table (boards of
//! at most 9 cells), or by random walks and solved over pattern databases (larger boards).

use super::EvaluationSettings;
use crate::agent::dqn::sliding::MAX_WALK;
use crate::env::sliding::pdb::PdbHeuristic;
use crate::env::sliding::solve::{ExactDistances, SlidingSolver};
use crate::env::sliding::{Board, Heuristic, HeuristicTables, SlidingPuzzle};
use crate::rng::Rng;
use crate::search::Limits;
use std::rc::Rc;

/// `per_distance` positions drawn uniformly at each optimal distance 1..=max, with that distance.
pub fn exact_positions(
    exact: &ExactDistances,
    per_distance: usize,
    seed: u64,
) -> Vec<(Board, u32)> {
    let mut rng = Rng::new(seed);
    (1..=exact.max_distance())
        .flat_map(|d| (0..per_distance).map(move |_| d))
        .map(|d| (exact.random_at(d, &mut rng), d))
        .collect()
}

/// The random-walk difficulties (Manhattan + 2·linear conflicts) of the positions
/// [`OptimalLengths::fresh_positions`] draws on boards too large for the exact table.
pub const LARGE_BOARD_DIFFICULTIES: [u32; 5] = [6, 12, 18, 24, 30];

/// Where positions' optimal lengths come from: the exact table (boards of at most 9 cells), or
/// IDA* over pattern databases (larger boards: the caller loads or builds them).
#[derive(Clone)]
pub enum OptimalLengths {
    /// Every position's distance, from the table.
    Exact(Rc<ExactDistances>),
    /// Each position solved optimally by IDA* over these databases.
    PatternDatabases(Rc<PdbHeuristic>),
}

impl OptimalLengths {
    /// The optimal number of moves from `board` to `puzzle`'s goal.
    pub fn of(&self, puzzle: &SlidingPuzzle, board: Board) -> Result<u32, String> {
        match self {
            OptimalLengths::Exact(exact) => exact
                .distance(&board)
                .ok_or_else(|| "a position that cannot reach the goal".into()),
            OptimalLengths::PatternDatabases(databases) => {
                let limits = Limits {
                    max_nodes: u64::MAX,
                };
                let mut solver =
                    SlidingSolver::with_pattern_databases(puzzle, board, databases.clone(), limits)
                        .map_err(|e| e.to_string())?;
                Ok(solver.run_to_end(u64::MAX, |_| true).length as u32)
            }
        }
    }

    /// Fresh positions with their optimal lengths: `settings.per_distance` at each distance of
    /// the exact table ([`exact_positions`]), or over pattern databases as many random walks at
    /// each of [`LARGE_BOARD_DIFFICULTIES`], solved optimally.
    pub fn fresh_positions(
        &self,
        puzzle: &SlidingPuzzle,
        settings: &EvaluationSettings,
    ) -> Result<Vec<(Board, u32)>, String> {
        if let OptimalLengths::Exact(exact) = self {
            return Ok(exact_positions(exact, settings.per_distance, settings.seed));
        }
        let tables = HeuristicTables::new(puzzle.goal());
        let mut rng = Rng::new(settings.seed);
        let mut out = Vec::new();
        for difficulty in LARGE_BOARD_DIFFICULTIES {
            for _ in 0..settings.per_distance {
                let board = puzzle.random_walk(difficulty, MAX_WALK, &mut rng, |b| {
                    tables.estimate(b, Heuristic::LinearConflict)
                });
                out.push((board, self.of(puzzle, board)?));
            }
        }
        Ok(out)
    }

    /// `count` uniformly random positions that reach the goal, drawn by `seed`, with their
    /// optimal lengths.
    pub fn uniform_positions(
        &self,
        puzzle: &SlidingPuzzle,
        count: usize,
        seed: u64,
    ) -> Result<Vec<(Board, u32)>, String> {
        let mut rng = Rng::new(seed ^ 0x0F1F_0A11);
        (0..count)
            .map(|_| {
                let board = puzzle.random_solvable(&mut rng);
                Ok((board, self.of(puzzle, board)?))
            })
            .collect()
    }
}
