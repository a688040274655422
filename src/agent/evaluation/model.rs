//! A trained sliding-puzzle model with the puzzle it plays, as `puzzlelab sliding solve --algo dqn`
//! and the page's learning card use it: boards checked against the model's puzzle, solves (greedy
//! then beam search, or batch-weighted A*) reported against the optimum where it is known, its
//! Q-values for a board, and the evaluation by exact optimal distance a few positions at a time.

use super::{
    exact_positions, model_bwas, model_solve, place, EvaluationSettings, ModelSolution,
    ModelSolveReport, StepwiseEvaluation,
};
use crate::agent::bwas::BwasSettings;
use crate::agent::dqn::sliding::{puzzle_of, training_env};
use crate::agent::dqn::QPolicy;
use crate::env::sliding::solve::ExactDistances;
use crate::env::sliding::{Board, SlidingEnv, SlidingPuzzle};
use crate::env::Environment;
use std::rc::Rc;

/// Batch-weighted A*'s λ over a Q-network's estimate (−max Q), chosen on validation positions
/// for the shipped 15-puzzle Q-network (docs/sliding.md).
pub const DEFAULT_LAMBDA_Q: f32 = 1.2;

/// Batch-weighted A*'s λ over a value network's estimate, chosen on validation positions for the
/// shipped 15-puzzle value network (docs/sliding.md).
pub const DEFAULT_LAMBDA_VALUES: f32 = 1.08;

/// Where a model finds the exact distances to its goal (boards of at most 9 cells): built for it,
/// or shared between models (the page keeps a few goals' tables).
pub type ExactSource = fn(&Board) -> Option<Rc<ExactDistances>>;

/// A trained sliding-puzzle model on the CPU, with the puzzle it plays and the exact distances
/// to its goal once a solve or an evaluation asked for them.
pub struct SlidingModel {
    policy: QPolicy,
    puzzle: SlidingPuzzle,
    env: SlidingEnv,
    exact: Option<Option<Rc<ExactDistances>>>,
    exact_source: ExactSource,
}

/// A model's solve: its report against the optimum where known, and the milliseconds it took.
#[derive(Clone, Debug)]
pub struct TimedSolve {
    /// The moves found, how, and against the optimum.
    pub report: ModelSolveReport,
    /// Milliseconds of the search.
    pub ms: f64,
}

impl SlidingModel {
    /// `policy` on the puzzle its file says it plays (or `puzzle`, which it must then fit).
    pub fn open(policy: QPolicy, puzzle: Option<SlidingPuzzle>) -> Result<Self, String> {
        let puzzle = match puzzle {
            Some(puzzle) => puzzle,
            None => puzzle_of(&policy)?,
        };
        let env = training_env(&puzzle, 0);
        policy
            .check_fits_or_values(&env)
            .map_err(|e| e.to_string())?;
        Ok(SlidingModel {
            policy,
            puzzle,
            env,
            exact: None,
            exact_source: |goal| ExactDistances::build(goal).map(Rc::new),
        })
    }

    /// The same, finding its exact distances through `source`.
    pub fn with_exact_source(self, exact_source: ExactSource) -> Self {
        SlidingModel {
            exact_source,
            ..self
        }
    }

    /// The puzzle it plays.
    pub fn puzzle(&self) -> &SlidingPuzzle {
        &self.puzzle
    }

    /// The exact distances to its goal (none above 9 cells), built once.
    fn exact(&mut self) -> Option<Rc<ExactDistances>> {
        let source = self.exact_source;
        let goal = *self.puzzle.goal();
        self.exact.get_or_insert_with(|| source(&goal)).clone()
    }

    /// `cells` (row-major labels, 0 = blank) as a board of its puzzle that can reach the goal.
    pub fn board(&self, cells: &[u8]) -> Result<Board, String> {
        let puzzle = &self.puzzle;
        let board = Board::new(puzzle.rows(), puzzle.cols(), cells).map_err(|e| e.to_string())?;
        if !puzzle.is_solvable(&board) {
            return Err(format!(
                "this position cannot reach the goal {} (the permutation parity differs)",
                puzzle.format(puzzle.goal())
            ));
        }
        Ok(board)
    }

    /// Refuses, saying why, a board of `rows` × `cols` with `goal` other than its puzzle's.
    pub fn check_fits(&self, rows: usize, cols: usize, goal: &[u8]) -> Result<(), String> {
        let puzzle = &self.puzzle;
        let same_size = (rows, cols) == (puzzle.rows(), puzzle.cols());
        if same_size && goal == puzzle.goal().cells() {
            return Ok(());
        }
        let theirs = match Board::new(rows, cols, goal) {
            Ok(board) if same_size => format!(" with the goal {}", puzzle.format(&board)),
            _ => String::new(),
        };
        Err(format!(
            "This model was trained for the {} × {} puzzle with the goal {}; the board is {rows} × {cols}{theirs}.",
            puzzle.rows(),
            puzzle.cols(),
            puzzle.format(puzzle.goal())
        ))
    }

    /// Solves `start` by greedy play within `settings.greedy_max_moves` moves, else the
    /// model-guided beam search ([`model_solve`]).
    pub fn solve(&mut self, start: Board, settings: &EvaluationSettings) -> TimedSolve {
        self.timed(start, |model| {
            model_solve(&model.policy, &mut model.env, start, settings)
        })
    }

    /// The λ batch-weighted A* uses by default over this model: [`DEFAULT_LAMBDA_VALUES`] for a
    /// value network, else [`DEFAULT_LAMBDA_Q`].
    pub fn default_lambda(&self) -> f32 {
        match self.policy.is_value_network() {
            true => DEFAULT_LAMBDA_VALUES,
            false => DEFAULT_LAMBDA_Q,
        }
    }

    /// Solves `start` by batch-weighted A* over the network's estimate ([`model_bwas`]).
    pub fn solve_bwas(&mut self, start: Board, settings: &BwasSettings) -> TimedSolve {
        self.timed(start, |model| {
            model_bwas(&model.policy, &mut model.env, start, settings)
        })
    }

    fn timed(
        &mut self,
        start: Board,
        search: impl FnOnce(&mut Self) -> ModelSolution,
    ) -> TimedSolve {
        let clock = web_time::Instant::now();
        let found = search(self);
        let ms = clock.elapsed().as_secs_f64() * 1000.0;
        let optimal_length = self.exact().and_then(|exact| exact.distance(&start));
        TimedSolve {
            report: found.report(&start, self.puzzle.goal(), optimal_length),
            ms,
        }
    }

    /// The network's Q-values for `cells` (a board of its puzzle's size, which need not reach the
    /// goal), one per direction (up, down, left, right); for a value network, its one output
    /// (minus the moves left).
    pub fn q_values(&mut self, cells: &[u8]) -> Result<Vec<f32>, String> {
        let (rows, cols) = (self.puzzle.rows(), self.puzzle.cols());
        let board = Board::new(rows, cols, cells).map_err(|e| e.to_string())?;
        place(&mut self.env, board);
        let mut observation = vec![0.0; self.policy.network_config().observation_len];
        self.env.write_observation(&mut observation);
        Ok(self.policy.q_values(&observation))
    }

    /// An evaluation by exact optimal distance (boards of at most 9 cells): `settings.per_distance`
    /// fresh positions at every distance, to be played a few at a time.
    pub fn start_evaluation(
        &mut self,
        settings: &EvaluationSettings,
    ) -> Result<StepwiseEvaluation, String> {
        let exact = self.exact().ok_or(
            "the page evaluates boards of at most 9 cells (use `puzzlelab sliding eval` for 4×4)",
        )?;
        let positions = exact_positions(&exact, settings.per_distance, settings.seed);
        Ok(StepwiseEvaluation::new(
            &self.policy,
            &self.env,
            positions,
            settings,
        ))
    }
}
