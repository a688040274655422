//! The sliding puzzles' part of the learning bundle's one trainer and model class
//! (`web::learner`): a saved sliding-puzzle model (the library's [`SlidingModel`]) solves the
//! page's board (greedy, then model-guided beam search, or batch-weighted A* over its estimate),
//! gives its Q-values, and is evaluated by exact optimal distance (a batch at a time); the
//! network being trained gives its Q-values for a board on the training device.

use super::learner::{EvaluationJob, WebLearner};
use super::{js_error, request_of, to_js};
use crate::agent::bwas::BwasSettings;
use crate::agent::dqn::sliding::{training_env, SlidingLearner, SlidingSetup};
use crate::agent::dqn::QPolicy;
use crate::agent::evaluation::{EvaluationSettings, SlidingModel, StepwiseEvaluation, TimedSolve};
use crate::env::sliding::solve::SolveReport;
use crate::env::sliding::Board;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

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
/// the method's options beside them, and the page's puzzle (`rows`, `cols`, `goal`), checked
/// against the model's when given.
#[derive(serde::Deserialize)]
struct PositionRequest {
    cells: Vec<u8>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    rows: Option<usize>,
    #[serde(default)]
    cols: Option<usize>,
    #[serde(default)]
    goal: Option<Vec<u8>>,
}

/// Batch-weighted A*'s options: `lambda` (default [`SlidingModel::default_lambda`]), `batch`
/// (100), `maxNodes` (1,000,000), `parityOffset` (none); see `docs/sliding.md`.
#[derive(Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct BwasOptions {
    lambda: Option<f32>,
    batch: Option<usize>,
    max_nodes: Option<usize>,
    parity_offset: Option<f32>,
}

/// A solve's report for the page, in camelCase: the moves found (none: gave up), against the
/// optimum where it is known, and the milliseconds it took.
fn solution(solved: TimedSolve) -> Result<JsValue, JsValue> {
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
    let TimedSolve { report, ms } = solved;
    to_js(&Solution {
        report: report.report,
        method: report.method,
        optimal_length: report.optimal_length,
        extra_moves: report.extra_moves,
        ms,
    })
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

/// The board's default evaluation settings ([`EvaluationSettings::for_cells`]) with `options`'
/// fields (camelCase) over them.
fn settings(model: &SlidingModel, options: &JsValue) -> Result<EvaluationSettings, JsValue> {
    let cells = model.puzzle().rows() * model.puzzle().cols();
    super::laid_over(&EvaluationSettings::for_cells(cells), options, "options")
}

impl WebLearner for SlidingLearner {
    type Opened = OpenedSliding;

    fn open(policy: QPolicy) -> Result<OpenedSliding, JsValue> {
        let model = SlidingModel::open(policy.clone(), None)
            .map_err(js_error)?
            .with_exact_source(super::shared_exact);
        Ok(OpenedSliding {
            policy,
            model: RefCell::new(model),
        })
    }

    /// `{rows, cols, goal}`: the board it plays.
    fn about(opened: &OpenedSliding) -> Result<JsValue, JsValue> {
        let model = opened.model.borrow();
        let puzzle = model.puzzle();
        to_js(&serde_json::json!({
            "rows": puzzle.rows(),
            "cols": puzzle.cols(),
            "goal": puzzle.format(puzzle.goal()),
        }))
    }

    /// `{cells, method?, rows?, cols?, goal?, …options}` (a board of another size or goal than the
    /// model's is refused, saying so, when `rows`, `cols` and `goal` are given): `method` absent or
    /// `beam`: greedy play within 50 moves, else the model-guided beam search (`beamWidth`,
    /// `maxNodes`, `maxDepth`); `bwas`: batch-weighted A* ([`BwasOptions`]); `values`: the
    /// network's Q-values (a value network: its one output). A solve's report is the search's
    /// (`status`, `moves`, `tiles`, `length`, `nodes`, …) plus `method` and `ms`, and where the
    /// optimum is known (at most 9 cells) `optimalLength` and `extraMoves`.
    fn play_position(opened: &OpenedSliding, request: JsValue) -> Result<JsValue, JsValue> {
        let position: PositionRequest = request_of(request.clone())?;
        let mut model = opened.model.borrow_mut();
        if let (Some(rows), Some(cols), Some(goal)) = (position.rows, position.cols, &position.goal)
        {
            model.check_fits(rows, cols, goal).map_err(js_error)?;
        }
        let method = position.method.as_deref();
        if method == Some("values") {
            let values = model.q_values(&position.cells).map_err(js_error)?;
            return Ok(js_sys::Float32Array::from(values.as_slice()).into());
        }
        let start = model.board(&position.cells).map_err(js_error)?;
        let solved = match method {
            None | Some("beam") => {
                let settings = settings(&model, &request)?;
                model.solve(start, &settings)
            }
            Some("bwas") => {
                let options: BwasOptions = super::options_or_default(&request, "options")?;
                let settings = BwasSettings {
                    lambda: options.lambda.unwrap_or(model.default_lambda()),
                    batch: options.batch.unwrap_or(100).min(10_000),
                    max_nodes: options.max_nodes.unwrap_or(1_000_000).min(50_000_000),
                    parity_offset: options.parity_offset,
                }
                .checked()
                .map_err(js_error)?;
                model.solve_bwas(start, &settings)
            }
            Some(other) => {
                return Err(js_error(format!(
                    "unknown method \"{other}\": beam, bwas or values"
                )))
            }
        };
        solution(solved)
    }

    /// The evaluation by exact optimal distance (boards of at most 9 cells; [`EvaluationSettings`]
    /// in camelCase: `perDistance`, `seed`, `beamWidth`, …), a few positions at a time.
    fn start_evaluation(
        opened: &OpenedSliding,
        request: JsValue,
    ) -> Result<Box<dyn EvaluationJob>, JsValue> {
        let mut model = opened.model.borrow_mut();
        let settings = settings(&model, &request)?;
        Ok(Box::new(
            model.start_evaluation(&settings).map_err(js_error)?,
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
