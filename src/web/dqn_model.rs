//! The sliding puzzles' part of the learning bundle's one trainer and model class
//! (`web::learner`): a saved sliding-puzzle model ([`SlidingModel`]) solves the page's board
//! (greedy, then model-guided beam search, or batch-weighted A* over its estimate), gives its
//! Q-values, and is evaluated by exact optimal distance (a batch at a time);
//! the network being trained gives its Q-values for a board on the training device.

use super::learner::{EvaluationJob, WebLearner};
use super::{js_error, request_of, to_js};
use crate::agent::bwas::BwasSettings;
use crate::agent::dqn::sliding::{puzzle_of, training_env, SlidingLearner, SlidingSetup};
use crate::agent::dqn::QPolicy;
use crate::agent::evaluation::{
    exact_positions, model_bwas, model_solve, EvaluationSettings, ModelSolution, ModelSolveReport,
    StepwiseEvaluation,
};
use crate::env::sliding::solve::{ExactDistances, SolveReport};
use crate::env::sliding::{Board, SlidingPuzzle};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Batch-weighted A*'s λ over a Q-network's estimate (−max Q), chosen on validation positions
/// for the shipped 15-puzzle Q-network (docs/sliding.md).
pub const DEFAULT_LAMBDA_Q: f32 = 1.2;

/// Batch-weighted A*'s λ over a value network's estimate, chosen on validation positions for the
/// shipped 15-puzzle value network (docs/sliding.md).
pub const DEFAULT_LAMBDA_VALUES: f32 = 1.08;

/// A trained sliding-puzzle model, on the CPU, with the puzzle it plays.
pub struct SlidingModel {
    policy: QPolicy,
    puzzle: SlidingPuzzle,
    env: crate::env::sliding::SlidingEnv,
    exact: Option<Rc<ExactDistances>>,
}

impl SlidingModel {
    /// The board's default settings ([`EvaluationSettings::for_cells`]) with `options`' fields
    /// (camelCase) over them.
    fn settings(&self, options: JsValue) -> Result<EvaluationSettings, JsValue> {
        let cells = self.puzzle.rows() * self.puzzle.cols();
        super::laid_over(&EvaluationSettings::for_cells(cells), &options, "options")
    }

    fn exact(&mut self) -> Option<Rc<ExactDistances>> {
        if self.exact.is_none() {
            self.exact = super::shared_exact(self.puzzle.goal());
        }
        self.exact.clone()
    }
}

/// What the page shows about a model beside its network: its board.
#[derive(serde::Serialize)]
struct About {
    rows: usize,
    cols: usize,
    goal: String,
}

impl SlidingModel {
    fn board(&self, cells: &[u8]) -> Result<Board, JsValue> {
        let board = Board::new(self.puzzle.rows(), self.puzzle.cols(), cells).map_err(js_error)?;
        if !self.puzzle.is_solvable(&board) {
            return Err(js_error(format!(
                "this position cannot reach the goal {} (the permutation parity differs)",
                self.puzzle.format(self.puzzle.goal())
            )));
        }
        Ok(board)
    }

    /// Solves `cells` (row-major labels, 0 = blank): greedy play within 50 moves, else the
    /// model-guided beam search (`options`: `beamWidth`, `maxNodes`, `maxDepth`). The report is
    /// the search's (`status`, `moves`, `tiles`, `length`, `nodes`, …) plus `method`, and where
    /// the optimum is known (at most 9 cells) `optimalLength` and `extraMoves`.
    pub fn solve(&mut self, cells: &[u8], options: JsValue) -> Result<JsValue, JsValue> {
        let start = self.board(cells)?;
        let settings = self.settings(options)?;
        let clock = web_time::Instant::now();
        let found = model_solve(&self.policy, &mut self.env, start, &settings);
        let ms = clock.elapsed().as_secs_f64() * 1000.0;
        self.solution(start, found, ms)
    }

    /// Solves `cells` with DeepCubeA's batch-weighted A* over the network's estimate of the moves
    /// left (`options`: `lambda`, default [`DEFAULT_LAMBDA_Q`] for a Q-network and
    /// [`DEFAULT_LAMBDA_VALUES`] for a value network, each chosen on validation positions;
    /// `batch`, default 100; `maxNodes`, default 1,000,000; `parityOffset`, default none; see
    /// `docs/sliding.md`). The report is [`SlidingModel::solve`]'s with `method` "bwas".
    pub fn solve_bwas(&mut self, cells: &[u8], options: JsValue) -> Result<JsValue, JsValue> {
        #[derive(Default, serde::Deserialize)]
        #[serde(default, rename_all = "camelCase")]
        struct Options {
            lambda: Option<f32>,
            batch: Option<usize>,
            max_nodes: Option<usize>,
            parity_offset: Option<f32>,
        }
        let start = self.board(cells)?;
        let options: Options = super::options_or_default(&options, "options")?;
        let estimate_lambda = match self.policy.is_value_network() {
            true => DEFAULT_LAMBDA_VALUES,
            false => DEFAULT_LAMBDA_Q,
        };
        let settings = BwasSettings {
            lambda: options.lambda.unwrap_or(estimate_lambda),
            batch: options.batch.unwrap_or(100).min(10_000),
            max_nodes: options.max_nodes.unwrap_or(1_000_000).min(50_000_000),
            parity_offset: options.parity_offset,
        }
        .checked()
        .map_err(js_error)?;
        let clock = web_time::Instant::now();
        let found = model_bwas(&self.policy, &mut self.env, start, &settings);
        let ms = clock.elapsed().as_secs_f64() * 1000.0;
        self.solution(start, found, ms)
    }

    /// A solve's report: the moves found (none: gave up), against the optimum where it is known,
    /// and the milliseconds it took.
    fn solution(
        &mut self,
        start: Board,
        found: ModelSolution,
        ms: f64,
    ) -> Result<JsValue, JsValue> {
        #[derive(serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Solution {
            #[serde(flatten)]
            report: SolveReport,
            method: &'static str,
            optimal_length: Option<u32>,
            extra_moves: Option<i64>,
            ms: f64,
        }
        let optimal_length = self.exact().and_then(|e| e.distance(&start));
        let ModelSolveReport {
            report,
            method,
            optimal_length,
            extra_moves,
        } = found.report(&start, self.puzzle.goal(), optimal_length);
        to_js(&Solution {
            report,
            method,
            optimal_length,
            extra_moves,
            ms,
        })
    }

    /// The network's Q-values for `cells`, one per direction (up, down, left, right); for a
    /// value network, its one output (minus the moves left).
    pub fn q_values(&mut self, cells: &[u8]) -> Result<Vec<f32>, JsValue> {
        let board = Board::new(self.puzzle.rows(), self.puzzle.cols(), cells).map_err(js_error)?;
        crate::agent::evaluation::place(&mut self.env, board);
        let mut observation = vec![0.0; self.policy.network_config().observation_len];
        use crate::env::Environment;
        self.env.write_observation(&mut observation);
        Ok(self.policy.q_values(&observation))
    }

    /// Prepares an evaluation by exact optimal distance (boards of at most 9 cells): `options`
    /// ([`EvaluationSettings`] in camelCase: `perDistance`, `seed`, `beamWidth`, …) draws
    /// `perDistance` fresh positions at every distance, to be played a few at a time.
    fn start_evaluation(&mut self, options: JsValue) -> Result<StepwiseEvaluation, JsValue> {
        let settings = self.settings(options)?;
        let exact = self.exact().ok_or_else(|| {
            js_error("the page evaluates boards of at most 9 cells (use `puzzlelab sliding eval` for 4×4)")
        })?;
        let positions = exact_positions(&exact, settings.per_distance, settings.seed);
        Ok(StepwiseEvaluation::new(
            &self.policy,
            &self.env,
            positions,
            &settings,
        ))
    }
}

/// The table so far (all of it once every position is played): `{rows: [{optimal, positions,
/// greedySolvedPercent, greedyMeanExtra, searchSolvedPercent, searchMeanExtra, …}], overall,
/// settings, seconds}`.
impl EvaluationJob for StepwiseEvaluation {
    fn step(&mut self, count: usize) -> Result<bool, JsValue> {
        Ok(StepwiseEvaluation::step(self, count))
    }
    fn done(&self) -> usize {
        StepwiseEvaluation::done(self)
    }
    fn total(&self) -> usize {
        StepwiseEvaluation::total(self)
    }
    fn result(&self) -> Result<JsValue, JsValue> {
        to_js(&self.table())
    }
}

/// A solve of the page's board: `{cells, method}` (`greedy`: greedy play, else the model-guided
/// beam search, the default; `bwas`: batch-weighted A*; `values`: the network's outputs), with
/// the method's options beside them.
#[derive(serde::Deserialize)]
struct PositionRequest {
    cells: Vec<u8>,
    #[serde(default)]
    method: Option<String>,
    /// The page's puzzle, checked against the model's when given.
    #[serde(default)]
    rows: Option<usize>,
    #[serde(default)]
    cols: Option<usize>,
    #[serde(default)]
    goal: Option<Vec<u8>>,
}

impl PositionRequest {
    /// Refuses, saying why, a board of another size or goal than `puzzle`'s (the model's).
    fn check_fits(&self, puzzle: &SlidingPuzzle) -> Result<(), JsValue> {
        let (Some(rows), Some(cols), Some(goal)) = (self.rows, self.cols, &self.goal) else {
            return Ok(());
        };
        let same_size = (rows, cols) == (puzzle.rows(), puzzle.cols());
        if same_size && goal.as_slice() == puzzle.goal().cells() {
            return Ok(());
        }
        let theirs = match Board::new(rows, cols, goal) {
            Ok(board) if same_size => format!(" with the goal {}", puzzle.format(&board)),
            _ => String::new(),
        };
        Err(js_error(format!(
            "This model was trained for the {} × {} puzzle with the goal {}; the board is {rows} × {cols}{theirs}.",
            puzzle.rows(),
            puzzle.cols(),
            puzzle.format(puzzle.goal())
        )))
    }
}

/// The network being trained reads the page's board: `{cells}` (row-major labels, 0 = blank).
#[derive(serde::Deserialize)]
struct CellsRequest {
    cells: Vec<u8>,
}

/// A sliding-puzzle model opened for the page: its policy, and the model with its caches (its
/// environment, the exact distances) that a solve changes.
pub struct OpenedSliding {
    policy: QPolicy,
    model: RefCell<SlidingModel>,
}

impl AsRef<QPolicy> for OpenedSliding {
    fn as_ref(&self) -> &QPolicy {
        &self.policy
    }
}

impl WebLearner for SlidingLearner {
    type Opened = OpenedSliding;

    fn open(policy: QPolicy) -> Result<OpenedSliding, JsValue> {
        let puzzle = puzzle_of(&policy).map_err(js_error)?;
        let env = training_env(&puzzle, 0);
        policy.check_fits_or_values(&env).map_err(js_error)?;
        Ok(OpenedSliding {
            policy: policy.clone(),
            model: RefCell::new(SlidingModel {
                policy,
                puzzle,
                env,
                exact: None,
            }),
        })
    }

    fn about(opened: &OpenedSliding) -> Result<JsValue, JsValue> {
        let model = opened.model.borrow();
        to_js(&About {
            rows: model.puzzle.rows(),
            cols: model.puzzle.cols(),
            goal: model.puzzle.format(model.puzzle.goal()),
        })
    }

    /// `{cells, method?, rows?, cols?, goal?, …options}` (a board of another size or goal than the
    /// model's is refused, saying so, when `rows`, `cols` and `goal` are given): `method` absent or `beam`: greedy play within 50 moves,
    /// else the model-guided beam search (`beamWidth`, `maxNodes`, `maxDepth`); `bwas`:
    /// batch-weighted A* (`lambda`, `batch`, `maxNodes`, `parityOffset`); `values`: the network's
    /// Q-values (a value network: its one output). A solve's report is the search's (`status`,
    /// `moves`, `tiles`, `length`, `nodes`, …) plus `method`, and where the optimum is known (at
    /// most 9 cells) `optimalLength` and `extraMoves`.
    fn play_position(opened: &OpenedSliding, request: JsValue) -> Result<JsValue, JsValue> {
        let position: PositionRequest = request_of(request.clone())?;
        let mut model = opened.model.borrow_mut();
        position.check_fits(&model.puzzle)?;
        let PositionRequest { cells, method, .. } = position;
        match method.as_deref() {
            None | Some("beam") => model.solve(&cells, request),
            Some("bwas") => model.solve_bwas(&cells, request),
            Some("values") => {
                Ok(js_sys::Float32Array::from(model.q_values(&cells)?.as_slice()).into())
            }
            Some(other) => Err(js_error(format!(
                "unknown method \"{other}\": beam, bwas or values"
            ))),
        }
    }

    /// The evaluation by exact optimal distance (boards of at most 9 cells; [`EvaluationSettings`]
    /// in camelCase: `perDistance`, `seed`, `beamWidth`, …), a few positions at a time.
    fn start_evaluation(
        opened: &OpenedSliding,
        request: JsValue,
    ) -> Result<Box<dyn EvaluationJob>, JsValue> {
        Ok(Box::new(
            opened.model.borrow_mut().start_evaluation(request)?,
        ))
    }

    /// `{cells}` as the network reads them.
    fn observation(
        setup: &SlidingSetup,
        request: JsValue,
        len: usize,
    ) -> Result<Vec<f32>, JsValue> {
        let CellsRequest { cells } = request_of(request)?;
        let puzzle = setup.puzzle().map_err(js_error)?;
        let board = Board::new(puzzle.rows(), puzzle.cols(), &cells).map_err(js_error)?;
        let mut env = training_env(&puzzle, 0);
        crate::agent::evaluation::place(&mut env, board);
        let mut observation = vec![0.0; len];
        crate::env::Environment::write_observation(&env, &mut observation);
        Ok(observation)
    }
}
