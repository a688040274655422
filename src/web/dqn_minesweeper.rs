//! Minesweeper's deep Q-network in the learning bundle (feature `learn`):
//! [`DqnMinesweeperTrainer`] trains it in the learning worker on the CPU or WebGPU, in chunks,
//! and plays the solver's seeded boards with the network so far; [`DqnMinesweeperModel`] plays a
//! saved one on the CPU: the greedy cell and every cell's Q-value for the page's board (a fully
//! convolutional model on any board size), and seeded games.
//!
//! The learner is [`crate::agent::dqn::minesweeper`]'s: puzzlelab's fully convolutional network
//! (`net: "cells"`, the default) or convolutions flattened into a dense layer, the network of
//! Mehta's paper (`net: "conv-dense"`; `"paper"`, its former name, is still accepted). Boards
//! travel as the page's cell codes ([`super::minesweeper`]: 0–8 revealed, 9 covered, 10 flag, 11 "?").

use super::learn::{
    config_over, cpu_policy, fall_back_to_cpu, puzzle_options, save_model_promise,
    timing_probe_promise, train_chunk_promise, webgpu_device,
};
use super::minesweeper::{COVERED, FLAGGED, MARKED};
use super::{js_error, to_js};
use crate::agent::dqn::minesweeper::{
    cells_config, cells_rules, conv_dense_config, conv_dense_rules, evaluate_policy, fit_policy,
};
use crate::agent::dqn::{best_allowed, Dqn, QPolicy};
use crate::env::minesweeper::{
    Cell, FirstCell, FirstClick, Layout, Level, MinesConfig, MinesReward, Minesweeper, Observation,
};
use burn::tensor::Device;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Games played per forward pass by the evaluations (as `puzzlelab minesweeper eval`).
const EVAL_BATCH: usize = 100;

/// The board and network a trainer is set up with; the rest of its options are
/// [`DqnConfig`](crate::agent::dqn::DqnConfig)'s.
#[derive(Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct BoardOptions {
    /// `beginner`, `intermediate` or `expert`; else `width`, `height`, `mines` (default beginner).
    level: Option<String>,
    width: Option<usize>,
    height: Option<usize>,
    mines: Option<usize>,
    /// `safe` (default), `opening` or `none`.
    first_click: Option<String>,
    /// `cells` (default: puzzlelab's fully convolutional network) or `conv-dense` (Mehta's; also
    /// read as `paper`, its former name).
    net: Option<String>,
    /// `cells`: 3 × 3 convolution layers (default 5) and filters per layer (default 32), as
    /// `puzzlelab minesweeper train`.
    layers: Option<usize>,
    filters: Option<usize>,
}

/// The network a trainer learns with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Net {
    Cells,
    ConvDense,
}

impl BoardOptions {
    fn layout(&self) -> Result<Layout, JsValue> {
        if let Some(name) = &self.level {
            return Level::parse(name).map(Level::layout).ok_or_else(|| {
                js_error(format!(
                    "unknown level \"{name}\": beginner, intermediate or expert"
                ))
            });
        }
        match (self.width, self.height, self.mines) {
            (None, None, None) => Ok(Level::Beginner.layout()),
            (Some(width), Some(height), Some(mines)) => Ok(Layout::new(width, height, mines)),
            _ => Err(js_error("give a level, or the width, height and mines")),
        }
    }

    fn net(&self) -> Result<Net, JsValue> {
        match self.net.as_deref().unwrap_or("cells") {
            "cells" => Ok(Net::Cells),
            "conv-dense" | "paper" => Ok(Net::ConvDense),
            other => Err(js_error(format!(
                "unknown network \"{other}\": cells or conv-dense"
            ))),
        }
    }
}

/// A first-click rule by name, or an error naming the known ones.
fn rule_of(name: &str) -> Result<FirstClick, JsValue> {
    FirstClick::parse(name).ok_or_else(|| {
        js_error(format!(
            "unknown first-click rule \"{name}\": safe, opening or none"
        ))
    })
}

/// The first click of seeded games: cell `index` of `layout`.
fn first_cell(layout: &Layout, index: usize) -> Result<FirstCell, JsValue> {
    if index >= layout.cells() {
        return Err(js_error(format!(
            "the first cell {index} is not on the {} × {} board",
            layout.width, layout.height
        )));
    }
    Ok(FirstCell::At(index % layout.width, index / layout.width))
}

/// A greedy evaluation on the solver's boards, as `puzzlelab minesweeper eval` reports it
/// (`games`, `wins`, `win_rate`, `win_rate_95`, `guesses_per_game`, `ms_per_game`).
fn evaluation_js(
    policy: &QPolicy,
    rules: MinesConfig,
    first: FirstCell,
    games: usize,
    seed: f64,
) -> Result<JsValue, JsValue> {
    if !(seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0) {
        return Err(js_error("the seed must be a whole number"));
    }
    let evaluation =
        evaluate_policy(policy, rules, first, games, seed as u64, EVAL_BATCH).map_err(js_error)?;
    to_js(&evaluation)
}

/// The board a trainer plays: `{width, height, mines, firstClick, net}`.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct TrainerBoard {
    width: usize,
    height: usize,
    mines: usize,
    first_click: &'static str,
    net: &'static str,
}

/// A deep Q-learner playing Minesweeper in the browser.
#[wasm_bindgen]
pub struct DqnMinesweeperTrainer {
    /// Taken out while a chunk runs, so that a second call while one is pending is refused.
    dqn: Rc<RefCell<Option<Dqn<Minesweeper>>>>,
    rules: MinesConfig,
    net: Net,
    backend: &'static str,
}

/// The learner itself (what [`timing_probe_promise`] reaches into).
fn learner(dqn: &Dqn<Minesweeper>) -> &Dqn<Minesweeper> {
    dqn
}

#[wasm_bindgen]
impl DqnMinesweeperTrainer {
    /// A learner with fresh weights. `options`: the board (`level`, or `width`, `height`,
    /// `mines`; `firstClick`), the network (`net`: `cells` with `layers` and `filters`, or
    /// `conv-dense`, also read as `paper`) and [`DqnConfig`](crate::agent::dqn::DqnConfig)'s
    /// fields in camelCase over that network's settings ([`cells_config`] or
    /// [`conv_dense_config`]). `backend`: `cpu` or `webgpu`.
    pub async fn create(
        options: JsValue,
        backend: String,
    ) -> Result<DqnMinesweeperTrainer, JsValue> {
        let board: BoardOptions = puzzle_options(&options)?;
        let layout = board.layout()?;
        let rule = rule_of(board.first_click.as_deref().unwrap_or("safe"))?;
        layout.check(rule).map_err(js_error)?;
        let net = board.net()?;
        let (defaults, rules) = match net {
            Net::Cells => (
                cells_config(
                    &layout,
                    board.layers.unwrap_or(5),
                    board.filters.unwrap_or(32),
                ),
                cells_rules(layout, rule),
            ),
            Net::ConvDense => (conv_dense_config(&layout), conv_dense_rules(layout, rule)),
        };
        let config = config_over(defaults, &options)?;
        let (device, backend) = match backend.as_str() {
            "cpu" => (Device::flex(), "cpu"),
            "webgpu" => (webgpu_device().await?, "webgpu"),
            other => return Err(js_error(format!("unknown backend \"{other}\""))),
        };
        let template = Minesweeper::new(rules).map_err(js_error)?;
        let dqn = Dqn::new(|| template.clone(), config, &device).map_err(js_error)?;
        Ok(DqnMinesweeperTrainer {
            dqn: Rc::new(RefCell::new(Some(dqn))),
            rules,
            net,
            backend,
        })
    }

    /// `cpu` or `webgpu`.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        self.backend.to_string()
    }

    /// The board it trains on: `{width, height, mines, firstClick, net}`.
    #[wasm_bindgen(getter)]
    pub fn board(&self) -> Result<JsValue, JsValue> {
        let layout = self.rules.layout;
        to_js(&TrainerBoard {
            width: layout.width,
            height: layout.height,
            mines: layout.mines,
            first_click: self.rules.first_click.name(),
            net: match self.net {
                Net::Cells => "cells",
                Net::ConvDense => "conv-dense",
            },
        })
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
    /// `episodeReturn` (with the cells network's reward, 2 × win rate − 1 of the games that
    /// ended), `episodeLength`, `stepsPerS`, `stepsDone`, `episodesDone`, `updatesDone`,
    /// `backend`).
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

    /// Plays `games` games of the solver's boards seeded with `seed` (the games of `puzzlelab
    /// minesweeper eval --seed`), the first click on cell `first_cell`, greedily with the current
    /// network (copied to the CPU); resolves to `{games, wins, win_rate, win_rate_95,
    /// guesses_per_game, ms_per_game}`.
    pub fn evaluate(&self, games: usize, seed: f64, first_cell: usize) -> js_sys::Promise {
        let cell = self.dqn.clone();
        let rules = self.rules;
        wasm_bindgen_futures::future_to_promise(async move {
            let first = self::first_cell(&rules.layout, first_cell)?;
            let policy = cpu_policy(&cell).await?;
            evaluation_js(&policy, rules, first, games, seed)
        })
    }

    /// The current network as a model file (the format `puzzlelab minesweeper train` writes).
    #[wasm_bindgen(js_name = saveModel)]
    pub fn save_model(&self) -> js_sys::Promise {
        save_model_promise(self.dqn.clone())
    }

    /// Goes on from a saved model's weights (same board and network); Adam's moments start again.
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

/// What a model's puzzle id (`minesweeper-{w}x{h}-{mines}-{encoding}`) says.
struct ModelBoard {
    layout: Layout,
    observation: Observation,
}

fn model_board(puzzle_id: &str) -> Option<ModelBoard> {
    let rest = puzzle_id.strip_prefix("minesweeper-")?;
    let mut parts = rest.split('-');
    let (width, height) = parts.next()?.split_once('x')?;
    let mines = parts.next()?.parse().ok()?;
    let observation = match parts.next()? {
        "condensed" => Observation::Condensed,
        "onehot" => Observation::OneHot,
        _ => return None,
    };
    Some(ModelBoard {
        layout: Layout::new(width.parse().ok()?, height.parse().ok()?, mines),
        observation,
    })
}

/// A saved Minesweeper DQN on the CPU.
#[wasm_bindgen]
pub struct DqnMinesweeperModel {
    policy: QPolicy,
    board: ModelBoard,
    /// The policy fitted to the last board size asked about: `(width, height, policy)`.
    fitted: RefCell<Option<(usize, usize, QPolicy)>>,
}

impl DqnMinesweeperModel {
    /// The rules of a game of `layout` under `rule` as the model sees it (its encoding).
    fn rules(&self, layout: Layout, rule: FirstClick) -> MinesConfig {
        MinesConfig {
            layout,
            first_click: rule,
            observation: self.board.observation,
            reward: MinesReward::Outcome,
        }
    }

    /// The model for a board of `layout`: itself, or resized when it is fully convolutional.
    fn fitted(&self, layout: Layout) -> Result<QPolicy, JsValue> {
        if let Some((w, h, policy)) = self.fitted.borrow().as_ref() {
            if (*w, *h) == (layout.width, layout.height) {
                return Ok(policy.clone());
            }
        }
        let env = Minesweeper::new(self.rules(layout, FirstClick::None)).map_err(js_error)?;
        let policy = fit_policy(&self.policy, &env).map_err(js_error)?;
        *self.fitted.borrow_mut() = Some((layout.width, layout.height, policy.clone()));
        Ok(policy)
    }

    /// The Q-values of a board of `width × height` with `mines` mines given as cell codes, and
    /// which cells may be revealed (covered or "?", not flagged).
    fn values(
        &self,
        width: usize,
        height: usize,
        mines: usize,
        codes: &[u8],
    ) -> Result<(Vec<f32>, Vec<bool>), JsValue> {
        let layout = Layout::new(width, height, mines);
        layout.check(FirstClick::None).map_err(js_error)?;
        if codes.len() != layout.cells() {
            return Err(js_error(format!(
                "a {width} × {height} board has {} cells, not {}",
                layout.cells(),
                codes.len()
            )));
        }
        let cells = codes
            .iter()
            .map(|&code| match code {
                0..=8 => Ok(Cell::Revealed(code)),
                COVERED => Ok(Cell::Covered),
                FLAGGED => Ok(Cell::Flagged),
                MARKED => Ok(Cell::Marked),
                other => Err(js_error(format!("{other} is not a cell code (0 to 11)"))),
            })
            .collect::<Result<Vec<Cell>, JsValue>>()?;
        let policy = self.fitted(layout)?;
        let mut observation = vec![0.0; self.board.observation.channels() * cells.len()];
        self.board.observation.write(&cells, &mut observation);
        let values = policy.q_values(&observation);
        let allowed = codes.iter().map(|&c| c == COVERED || c == MARKED).collect();
        Ok((values, allowed))
    }
}

/// What the page shows about a model.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ModelInfo<'a> {
    puzzle_id: &'a str,
    width: usize,
    height: usize,
    mines: usize,
    /// Whether it plays any board size (one Q-value per cell from its neighbourhood).
    any_size: bool,
    network: &'a crate::agent::dqn::QNetworkConfig,
    num_params: usize,
    training: Option<&'a crate::agent::dqn::TrainingRecord>,
}

#[wasm_bindgen]
impl DqnMinesweeperModel {
    /// Reads a model file; the error says what is wrong with a damaged or foreign one (a 2048 or
    /// sliding-puzzle model, for instance).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<DqnMinesweeperModel, JsValue> {
        let policy = QPolicy::from_bytes(bytes, &Device::flex()).map_err(js_error)?;
        let board = model_board(policy.puzzle_id()).ok_or_else(|| {
            js_error(format!(
                "the model plays \"{}\", not Minesweeper",
                policy.puzzle_id()
            ))
        })?;
        // A model whose network does not fit its own board would fail at the first move.
        let env = Minesweeper::new(MinesConfig {
            layout: board.layout,
            first_click: FirstClick::None,
            observation: board.observation,
            reward: MinesReward::Outcome,
        })
        .map_err(js_error)?;
        policy.check_fits(&env).map_err(js_error)?;
        Ok(DqnMinesweeperModel {
            policy,
            board,
            fitted: RefCell::new(None),
        })
    }

    /// `{puzzleId, width, height, mines, anySize, network: {observationLen, numActions, grid, …},
    /// numParams, training: {config, steps, episodes} | null}`.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        let network = self.policy.network_config();
        to_js(&ModelInfo {
            puzzle_id: self.policy.puzzle_id(),
            width: self.board.layout.width,
            height: self.board.layout.height,
            mines: self.board.layout.mines,
            any_size: network.grid.as_ref().is_some_and(|g| g.per_cell),
            network,
            num_params: network.num_params(),
            training: self.policy.training(),
        })
    }

    /// The greedy cell (covered or "?", never a flag) of a `width × height` board with `mines`
    /// mines given as cell codes, or −1 when none is left.
    #[wasm_bindgen(js_name = bestCell)]
    pub fn best_cell(
        &self,
        width: usize,
        height: usize,
        mines: usize,
        codes: &[u8],
    ) -> Result<i32, JsValue> {
        let (values, allowed) = self.values(width, height, mines, codes)?;
        if !allowed.contains(&true) {
            return Ok(-1);
        }
        Ok(best_allowed(&values, &allowed) as i32)
    }

    /// The network's Q-value of every cell (the expected reward of revealing it: near +1 a
    /// winning reveal, near −1 a mine) for a board given as [`DqnMinesweeperModel::best_cell`]'s.
    #[wasm_bindgen(js_name = qValues)]
    pub fn q_values(
        &self,
        width: usize,
        height: usize,
        mines: usize,
        codes: &[u8],
    ) -> Result<Vec<f32>, JsValue> {
        Ok(self.values(width, height, mines, codes)?.0)
    }

    /// Plays `games` games of the solver's boards of `width × height` with `mines` mines under
    /// `rule`, seeded with `seed`, the first click on cell `first_cell` (the games of `puzzlelab
    /// minesweeper eval --agent dqn`, and of `minesweeperSolverEval` with the same arguments):
    /// `{games, wins, win_rate, win_rate_95, guesses_per_game, ms_per_game}`.
    #[wasm_bindgen(js_name = playGames)]
    #[allow(clippy::too_many_arguments)]
    pub fn play_games(
        &self,
        width: usize,
        height: usize,
        mines: usize,
        rule: &str,
        first_cell: usize,
        games: usize,
        seed: f64,
    ) -> Result<JsValue, JsValue> {
        let rule = rule_of(rule)?;
        let layout = Layout::new(width, height, mines);
        layout.check(rule).map_err(js_error)?;
        let first = self::first_cell(&layout, first_cell)?;
        evaluation_js(&self.policy, self.rules(layout, rule), first, games, seed)
    }
}
