//! Sudoku's deep Q-network in the learning bundle (feature `learn`): [`DqnSudokuTrainer`] trains
//! it in the learning worker on the CPU or WebGPU, in chunks, on a small pool of generated puzzles,
//! and plays seeded validation puzzles of each of the paper's bins with the network so far;
//! [`DqnSudokuModel`] plays a saved one on the CPU: greedily on the page's board (the moves it
//! makes, and where it went wrong), and on seeded puzzles binned as the paper bins them.
//!
//! The learner is [`crate::agent::dqn::sudoku`]'s: puzzlelab's network shared by all 810 actions
//! over per-action features (`net: "cells"`, the default) or one dense layer over the one-hot grid,
//! the network of Mehta's paper (`net: "dense"`; `"paper"`, its former name, is still accepted),
//! with `puzzlelab sudoku train`'s defaults. Grids travel as text (81 cells,
//! `.` or `0` empty).

use super::learn::{
    config_over, cpu_policy, fall_back_to_cpu, policy_of, puzzle_options, save_model_promise,
    timing_probe_promise, train_chunk_promise, webgpu_device,
};
use super::{js_error, to_js};
use crate::agent::dqn::sudoku::{
    cells_config, cells_env, dense_config, dense_env, env_for, evaluate_bins, SudokuEvaluation,
};
use crate::agent::dqn::{best_allowed, Dqn, QPolicy};
use crate::env::sudoku::{
    binned_puzzles, random_solution, search, training_puzzles, Grid, Shape, SudokuEnv,
    TRAINING_SEED, VALIDATION_SEED,
};
use crate::env::Environment;
use crate::rng::Rng;
use burn::tensor::Device;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Puzzles played side by side in an evaluation (as `puzzlelab sudoku eval`).
const EVAL_BATCH: usize = 50;
/// The givens `puzzlelab sudoku train` draws from.
const DEFAULT_GIVENS: [usize; 5] = [22, 23, 24, 26, 28];
/// The training pool in the tab: small, so that it is generated in a moment.
const DEFAULT_POOL: usize = 200;
/// Validation puzzles of each bin in the tab.
const DEFAULT_VALIDATION_PER_BIN: usize = 10;
/// Puzzles drawn at most for each one a bin wants (hard ones are about one in thirty): the bins
/// may come out short rather than the tab waiting.
const DRAWS_PER_BIN_PUZZLE: usize = 200;
/// The most puzzles a pool or a bin may ask for.
const MAX_PUZZLES: usize = 10_000;

/// What a trainer trains on and with; the rest of its options are [`crate::agent::dqn::DqnConfig`]'s.
#[derive(Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct SudokuOptions {
    /// `cells` (default) or `dense` (also read as `paper`, its former name).
    net: Option<String>,
    /// `cells`: hidden 1 × 1 layers (default 2) and units per layer (default 32), as `puzzlelab
    /// sudoku train`.
    layers: Option<usize>,
    filters: Option<usize>,
    /// Numbers of givens to draw from (default 22, 23, 24, 26, 28).
    givens: Option<Vec<usize>>,
    /// Training puzzles (default 200).
    puzzles: Option<usize>,
    /// Validation puzzles of each bin (default 10).
    validation_per_bin: Option<usize>,
}

/// The network a trainer learns with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Net {
    Cells,
    Dense,
}

impl Net {
    fn parse(name: Option<&str>) -> Result<Net, JsValue> {
        match name.unwrap_or("cells") {
            "cells" => Ok(Net::Cells),
            "dense" | "paper" => Ok(Net::Dense),
            other => Err(js_error(format!(
                "unknown network \"{other}\": cells or dense"
            ))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Net::Cells => "cells",
            Net::Dense => "dense",
        }
    }

    fn env(self, puzzles: Vec<Grid>) -> SudokuEnv {
        match self {
            Net::Cells => cells_env(puzzles),
            Net::Dense => dense_env(puzzles),
        }
    }
}

/// Numbers of givens a 9 × 9 puzzle with one solution can have here (17 to 80), or an error.
fn check_givens(givens: &[usize]) -> Result<(), JsValue> {
    if givens.is_empty() {
        return Err(js_error("give at least one number of givens"));
    }
    match givens.iter().find(|&&g| !(17..=80).contains(&g)) {
        Some(g) => Err(js_error(format!(
            "{g} givens: a 9 × 9 puzzle here has 17 to 80"
        ))),
        None => Ok(()),
    }
}

/// A count of puzzles from 1 to [`MAX_PUZZLES`], or an error naming `what`.
fn check_count(count: usize, what: &str) -> Result<usize, JsValue> {
    if (1..=MAX_PUZZLES).contains(&count) {
        Ok(count)
    } else {
        Err(js_error(format!("{what}: 1 to {MAX_PUZZLES}")))
    }
}

/// One bin of an evaluation, as `puzzlelab sudoku eval` reports it (beside the rate Mehta's paper
/// published).
#[derive(serde::Serialize)]
struct BinReport {
    bin: &'static str,
    published_solved_rate: f64,
    /// The same rate under the key the pages read before the rename; dropped once they read
    /// `published_solved_rate`.
    #[serde(rename = "paper_solved_rate")]
    former_published_solved_rate: f64,
    #[serde(flatten)]
    evaluation: SudokuEvaluation,
}

/// Greedy play on `bins` (easy, medium, hard) as a list of [`BinReport`]s.
fn bins_js(policy: &QPolicy, bins: &[Vec<Grid>; 3]) -> Result<JsValue, JsValue> {
    let results = evaluate_bins(policy, bins, EVAL_BATCH).map_err(js_error)?;
    let reports: Vec<BinReport> = results
        .into_iter()
        .map(|(bin, evaluation)| BinReport {
            bin: bin.name(),
            published_solved_rate: bin.published_solved_rate(),
            former_published_solved_rate: bin.published_solved_rate(),
            evaluation,
        })
        .collect();
    to_js(&reports)
}

/// Seeded puzzles of each bin, `per_bin` of each drawn from `seed` with `givens`.
fn seeded_bins(seed: u64, per_bin: usize, givens: &[usize]) -> [Vec<Grid>; 3] {
    binned_puzzles(seed, per_bin, givens, per_bin * DRAWS_PER_BIN_PUZZLE)
}

/// What a trainer trains on: `{net, puzzles, givens, poolSeed, validation: [easy, medium, hard]}`.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct TrainerSetup {
    net: &'static str,
    puzzles: usize,
    givens: Vec<usize>,
    pool_seed: u64,
    validation_seed: u64,
    /// Validation puzzles in each bin (a bin may come out short).
    validation: [usize; 3],
}

/// A deep Q-learner playing Sudoku in the browser.
#[wasm_bindgen]
pub struct DqnSudokuTrainer {
    /// Taken out while a chunk runs, so that a second call while one is pending is refused.
    dqn: Rc<RefCell<Option<Dqn<SudokuEnv>>>>,
    validation: Rc<[Vec<Grid>; 3]>,
    setup: TrainerSetup,
    backend: &'static str,
}

/// The learner itself (what [`timing_probe_promise`] reaches into).
fn learner(dqn: &Dqn<SudokuEnv>) -> &Dqn<SudokuEnv> {
    dqn
}

#[wasm_bindgen]
impl DqnSudokuTrainer {
    /// A learner with fresh weights on a pool of generated puzzles. `options`: `net` (`cells`
    /// with `layers` and `filters`, or `dense`, also read as `paper`), `givens` (a list),
    /// `puzzles` (the pool, default 200), `validationPerBin` (default 10) and
    /// [`crate::agent::dqn::DqnConfig`]'s fields in camelCase over that network's settings
    /// ([`cells_config`] or [`dense_config`]); the pool
    /// is drawn from `TRAINING_SEED + seed`, the validation puzzles from `VALIDATION_SEED`, as
    /// `puzzlelab sudoku train` draws them. `backend`: `cpu` or `webgpu`.
    pub async fn create(options: JsValue, backend: String) -> Result<DqnSudokuTrainer, JsValue> {
        let sudoku: SudokuOptions = puzzle_options(&options)?;
        let net = Net::parse(sudoku.net.as_deref())?;
        let givens = sudoku.givens.unwrap_or_else(|| DEFAULT_GIVENS.to_vec());
        check_givens(&givens)?;
        let count = check_count(sudoku.puzzles.unwrap_or(DEFAULT_POOL), "training puzzles")?;
        let per_bin = check_count(
            sudoku
                .validation_per_bin
                .unwrap_or(DEFAULT_VALIDATION_PER_BIN),
            "validation puzzles a bin",
        )?;
        let defaults = match net {
            Net::Cells => cells_config(sudoku.layers.unwrap_or(2), sudoku.filters.unwrap_or(32)),
            Net::Dense => dense_config(),
        };
        let config = config_over(defaults, &options)?;
        let (device, backend) = match backend.as_str() {
            "cpu" => (Device::flex(), "cpu"),
            "webgpu" => (webgpu_device().await?, "webgpu"),
            other => return Err(js_error(format!("unknown backend \"{other}\""))),
        };
        let pool_seed = TRAINING_SEED + config.seed;
        let pool = training_puzzles(pool_seed, count, &givens);
        if pool.is_empty() {
            return Err(js_error("no training puzzle could be generated"));
        }
        let validation = seeded_bins(VALIDATION_SEED, per_bin, &givens);
        let setup = TrainerSetup {
            net: net.name(),
            puzzles: pool.len(),
            givens,
            pool_seed,
            validation_seed: VALIDATION_SEED,
            validation: [0, 1, 2].map(|bin| validation[bin].len()),
        };
        let dqn = Dqn::new(|| net.env(pool.clone()), config, &device).map_err(js_error)?;
        Ok(DqnSudokuTrainer {
            dqn: Rc::new(RefCell::new(Some(dqn))),
            validation: Rc::new(validation),
            setup,
            backend,
        })
    }

    /// `cpu` or `webgpu`.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        self.backend.to_string()
    }

    /// What it trains on: `{net, puzzles, givens, poolSeed, validationSeed, validation}` (the
    /// last: validation puzzles in each bin, easy, medium, hard).
    #[wasm_bindgen(getter)]
    pub fn setup(&self) -> Result<JsValue, JsValue> {
        to_js(&self.setup)
    }

    /// The network's number of weights and biases.
    #[wasm_bindgen(getter, js_name = numParams)]
    pub fn num_params(&self) -> Result<usize, JsValue> {
        let slot = self.dqn.borrow();
        let dqn = slot
            .as_ref()
            .ok_or_else(|| js_error("the trainer is busy with a chunk"))?;
        Ok(dqn.network_config().num_params())
    }

    /// Trains `steps` steps; resolves to the chunk's report (`tdLoss`, `epsilon`, `episodes`,
    /// `episodeReturn`, `episodeLength`, `solvedRate` (of the training episodes that ended),
    /// `stepsPerS`, `stepsDone`, `episodesDone`, `updatesDone`, `backend`).
    #[wasm_bindgen(js_name = trainSteps)]
    pub fn train_steps(&self, steps: usize) -> js_sys::Promise {
        train_chunk_promise(self.dqn.clone(), steps, self.backend)
    }

    /// Times a fresh network of this trainer's shape on `backend` (`cpu` or `webgpu`), as
    /// `DqnTrainer.timingProbe` does; resolves to `{ steps, stepsPerS, greedyMoves,
    /// greedyMoveMs }`.
    #[wasm_bindgen(js_name = timingProbe)]
    pub fn timing_probe(&self, backend: String, steps: usize, moves: usize) -> js_sys::Promise {
        timing_probe_promise(self.dqn.clone(), learner, backend, steps, moves)
    }

    /// The network so far (copied to the CPU) plays the validation puzzles greedily; resolves to
    /// one report a bin, easy first: `{bin, published_solved_rate, puzzles, solved, solved_rate,
    /// solved_rate_95, filled_fraction, ms_per_puzzle}` (as `puzzlelab sudoku train` logs them),
    /// and `paper_solved_rate`, the published rate's former key, while the pages still read it.
    pub fn evaluate(&self) -> js_sys::Promise {
        let cell = self.dqn.clone();
        let validation = self.validation.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let policy = cpu_policy(&cell).await?;
            bins_js(&policy, &validation)
        })
    }

    /// The current network as a model file (the format `puzzlelab sudoku train` writes).
    #[wasm_bindgen(js_name = saveModel)]
    pub fn save_model(&self) -> js_sys::Promise {
        save_model_promise(self.dqn.clone())
    }

    /// Goes on from a saved model's weights (same network); Adam's moments start again.
    #[wasm_bindgen(js_name = loadModel)]
    pub fn load_model(&self, bytes: &[u8]) -> Result<(), JsValue> {
        let mut slot = self.dqn.borrow_mut();
        let dqn = slot
            .as_mut()
            .ok_or_else(|| js_error("the trainer is busy with a chunk"))?;
        dqn.load_weights(bytes).map_err(js_error)
    }

    /// After WebGPU was lost (a chunk failed because the GPU stopped answering): goes on on the
    /// CPU from the network of the last chunk; returns the steps done then.
    #[wasm_bindgen(js_name = fallBackToCpu)]
    pub fn fall_back_to_cpu(&self) -> Result<usize, JsValue> {
        fall_back_to_cpu(&self.dqn, |dqn| dqn)
    }
}

/// One move of the model on a board.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Move {
    cell: usize,
    /// The digit written; 0 erases (only the dense network erases).
    digit: u8,
    /// Whether it is the solution's digit (an erase: whether the cell held a wrong one).
    right: bool,
    /// The network's value of the move (the cells network: the log-odds that it is right).
    value: f32,
}

/// How the model's play on a board ended.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Play {
    /// `solved`, `mistake` (the cells network: a wrong digit ends the game), `stuck` (no digit
    /// fits an empty cell) or `limit` (162 moves, the paper's limit).
    outcome: &'static str,
    moves: Vec<Move>,
    /// The index in `moves` of the first wrong digit, if any.
    first_mistake: Option<usize>,
    /// The puzzle's solution, 81 digits as text, to say what the right digit was.
    solution: String,
}

/// A saved Sudoku DQN on the CPU.
#[wasm_bindgen]
pub struct DqnSudokuModel {
    policy: QPolicy,
}

/// What the page shows about a model.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ModelInfo<'a> {
    puzzle_id: &'a str,
    /// `cells` or `dense`.
    net: &'static str,
    network: &'a crate::agent::dqn::QNetworkConfig,
    num_params: usize,
    training: Option<&'a crate::agent::dqn::TrainingRecord>,
}

#[wasm_bindgen]
impl DqnSudokuModel {
    /// Reads a model file; the error says what is wrong with a damaged or foreign one (a
    /// Minesweeper or 2048 model, for instance).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<DqnSudokuModel, JsValue> {
        let policy = policy_of(bytes, "sudoku-", "Sudoku")?;
        // A model whose network does not fit its environment would fail at the first move.
        let full = random_solution(Shape::CLASSIC, &mut Rng::new(0));
        env_for(&policy, vec![full]).map_err(js_error)?;
        Ok(DqnSudokuModel { policy })
    }

    /// `{puzzleId, net, network: {observationLen, numActions, grid, …}, numParams, training:
    /// {config, steps, episodes} | null}`.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        let network = self.policy.network_config();
        to_js(&ModelInfo {
            puzzle_id: self.policy.puzzle_id(),
            net: if network.grid.is_some() {
                Net::Cells.name()
            } else {
                Net::Dense.name()
            },
            network,
            num_params: network.num_params(),
            training: self.policy.training(),
        })
    }

    /// Plays greedily from `grid` (81 cells as text: the page's board, givens and digits
    /// placed) until the grid is full, a wrong digit ends it (the cells network), no digit fits
    /// an empty cell, or 162 moves: `{outcome, moves: [{cell, digit, right, value}],
    /// firstMistake, solution}`. Refused when the grid is not 9 × 9 or has no single solution
    /// (a digit on it is wrong, or too few givens).
    pub fn play(&self, grid: &str) -> Result<JsValue, JsValue> {
        let grid = Grid::parse(grid).map_err(js_error)?;
        if grid.shape() != Shape::CLASSIC {
            let size = grid.shape().size;
            return Err(js_error(format!(
                "the model plays 9 × 9 Sudoku, not {size} × {size}"
            )));
        }
        let found = search(&grid, 2);
        let solution = match (found.count, found.solution) {
            (1, Some(solution)) => solution,
            (0, _) | (_, None) => {
                return Err(js_error(
                    "this position has no solution: a digit on the board is wrong",
                ))
            }
            _ => return Err(js_error("this position has more than one solution")),
        };
        let mut env = env_for(&self.policy, vec![grid]).map_err(js_error)?;
        let values_per_cell = Shape::CLASSIC.size + 1;
        let mut observation = vec![0.0; env.observation_len()];
        let mut allowed = vec![false; env.num_actions()];
        let (mut moves, mut first_mistake) = (Vec::new(), None);
        let outcome = loop {
            if env.grid().is_solved() {
                break "solved";
            }
            if env.is_lost() {
                break "mistake";
            }
            if moves.len() >= crate::env::sudoku::MOVE_LIMIT {
                break "limit";
            }
            env.action_mask(&mut allowed);
            if !allowed.contains(&true) {
                break "stuck";
            }
            env.write_observation(&mut observation);
            let values = self.policy.q_values(&observation);
            let action = best_allowed(&values, &allowed);
            let (cell, digit) = (action / values_per_cell, (action % values_per_cell) as u8);
            let right = if digit == 0 {
                env.grid().get(cell) != solution.get(cell)
            } else {
                digit == solution.get(cell)
            };
            if digit != 0 && !right && first_mistake.is_none() {
                first_mistake = Some(moves.len());
            }
            env.step(action);
            moves.push(Move {
                cell,
                digit,
                right,
                value: values[action],
            });
        };
        to_js(&Play {
            outcome,
            moves,
            first_mistake,
            solution: solution.to_line(),
        })
    }

    /// Plays `per_bin` puzzles of each bin drawn from `seed` with `givens` (the puzzles of
    /// `puzzlelab sudoku eval --seed --per-bin --givens`; a bin may come out short when few of
    /// its puzzles turn up): one report a bin, as [`DqnSudokuTrainer::evaluate`]'s.
    pub fn evaluate(
        &self,
        per_bin: usize,
        seed: f64,
        givens: Vec<u32>,
    ) -> Result<JsValue, JsValue> {
        if !(seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0) {
            return Err(js_error("the seed must be a whole number"));
        }
        let givens: Vec<usize> = givens.into_iter().map(|g| g as usize).collect();
        check_givens(&givens)?;
        let per_bin = check_count(per_bin, "puzzles a bin")?;
        bins_js(&self.policy, &seeded_bins(seed as u64, per_bin, &givens))
    }
}
