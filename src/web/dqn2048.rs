//! The pair-convolution deep Q-network on 2048 (Mehta's RL paper's) in the learning bundle (feature `learn`): [`Dqn2048Trainer`]
//! trains it in the learning worker on the CPU or WebGPU, in chunks; [`Dqn2048Model`] plays a
//! saved one on the CPU (a move for a board, whole games for an evaluation).

use super::learn::{
    config_over, fall_back_to_cpu, take, timing_probe_promise, webgpu_device, ChunkReport,
};
use super::{js_error, to_js};
use crate::agent::dqn::game2048::{
    pair_conv_config, play_greedy_games, training_rules, Game2048Trainer,
};
use crate::agent::dqn::{best_allowed, QPolicy};
use crate::env::game2048::{Board, Game2048, Game2048Config, GameStats};
use crate::env::Environment;
use burn::tensor::Device;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A board from 16 exponents (row-major; 0 = empty, e = the tile 2^e).
fn board_of(exponents: &[u8]) -> Result<Board, JsValue> {
    let cells: [u8; 16] = exponents.try_into().map_err(|_| {
        js_error(format!(
            "a 2048 board has 16 cells, not {}",
            exponents.len()
        ))
    })?;
    if let Some(e) = cells.iter().find(|&&e| e > 15) {
        return Err(js_error(format!("2^{e} is beyond the largest tile, 2^15")));
    }
    Ok(Board::from_exponents(cells))
}

/// The greedy legal move of `policy` on `board` (0 up, 1 right, 2 down, 3 left), with its
/// Q-values; `None` when the game is over.
fn greedy(policy: &QPolicy, board: Board) -> (Option<usize>, Vec<f32>) {
    let game = Game2048::from_board(Game2048Config::default(), board, 0);
    let mut observation = vec![0.0; game.observation_len()];
    game.write_observation(&mut observation);
    let values = policy.q_values(&observation);
    let mut mask = [false; 4];
    game.action_mask(&mut mask);
    let best = mask.contains(&true).then(|| best_allowed(&values, &mask));
    (best, values)
}

/// Plays games `start..end` of the run seeded with `seed`; the [`GameStats`] as a plain object
/// (`games`, `moves`, `scores`, `max_tile_counts`), so that chunks can be merged in JS, and the
/// summary of the chunk (`summary`: reach rates, mean and median score, moves/s, as the
/// native `2048 eval --agent dqn` names them).
fn play(policy: &QPolicy, start: u32, end: u32, seed: u32) -> Result<JsValue, JsValue> {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Played {
        stats: GameStats,
        summary: crate::env::game2048::GameSummary,
    }
    if end < start {
        return Err(js_error(format!(
            "games {start}..{end}: the end is before the start"
        )));
    }
    let clock = web_time::Instant::now();
    let stats = play_greedy_games(
        policy,
        Game2048Config::default(),
        u64::from(start)..u64::from(end),
        u64::from(seed),
    );
    let summary = stats.summary(clock.elapsed().as_secs_f64());
    to_js(&Played { stats, summary })
}

/// The pair-convolution DQN learning 2048 in the browser.
#[wasm_bindgen]
pub struct Dqn2048Trainer {
    trainer: Rc<RefCell<Option<Game2048Trainer>>>,
    backend: &'static str,
}

#[wasm_bindgen]
impl Dqn2048Trainer {
    /// A learner with fresh weights. `options`: [`DqnConfig`]'s fields in camelCase over
    /// [`pair_conv_config`]'s (`conv: {filters1, filters2, …}`, `hidden: [256]`, …).
    /// `backend`: `cpu` or `webgpu`.
    pub async fn create(options: JsValue, backend: String) -> Result<Dqn2048Trainer, JsValue> {
        // The pair-convolution configuration with `options`' fields over it.
        let config = config_over(pair_conv_config(), &options)?;
        let (device, backend) = match backend.as_str() {
            "cpu" => (Device::flex(), "cpu"),
            "webgpu" => (webgpu_device().await?, "webgpu"),
            other => return Err(js_error(format!("unknown backend \"{other}\""))),
        };
        let trainer = Game2048Trainer::new(config, training_rules(), &device).map_err(js_error)?;
        Ok(Dqn2048Trainer {
            trainer: Rc::new(RefCell::new(Some(trainer))),
            backend,
        })
    }

    /// `cpu` or `webgpu`.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        self.backend.to_string()
    }

    /// The network's number of weights and biases.
    #[wasm_bindgen(getter, js_name = numParams)]
    pub fn num_params(&self) -> Result<usize, JsValue> {
        let slot = self.trainer.borrow();
        let trainer = slot
            .as_ref()
            .ok_or_else(|| js_error("the trainer is busy with a chunk"))?;
        Ok(trainer.dqn().network_config().num_params())
    }

    /// Trains `steps` moves (one gradient step each); resolves to the chunk's report (`tdLoss`,
    /// `epsilon`, `episodes`, `episodeReturn`, `episodeLength`, `stepsPerS`, `stepsDone`,
    /// `episodesDone`, `updatesDone`, `backend`).
    #[wasm_bindgen(js_name = trainSteps)]
    pub fn train_steps(&self, steps: usize) -> js_sys::Promise {
        let cell = self.trainer.clone();
        let backend = self.backend;
        wasm_bindgen_futures::future_to_promise(async move {
            let mut trainer = take(&cell)?;
            let stats = trainer.train_steps_async(steps).await;
            let report = stats.map(|stats| ChunkReport::new(trainer.dqn(), stats, backend));
            *cell.borrow_mut() = Some(trainer);
            to_js(&report.map_err(js_error)?)
        })
    }

    /// Times a fresh network of this trainer's shape on `backend` (`cpu` or `webgpu`), as
    /// `DqnTrainer.timingProbe` does; resolves to `{ steps, stepsPerS, greedyMoves,
    /// greedyMoveMs }`.
    #[wasm_bindgen(js_name = timingProbe)]
    pub fn timing_probe(&self, backend: String, steps: usize, moves: usize) -> js_sys::Promise {
        timing_probe_promise(
            self.trainer.clone(),
            Game2048Trainer::dqn,
            backend,
            steps,
            moves,
        )
    }

    /// Plays games `start..end` of the evaluation run seeded with `seed` greedily with the
    /// current network (copied to the CPU); resolves to `{stats, summary}` (see
    /// [`Dqn2048Model::play_games`]).
    #[wasm_bindgen(js_name = playGames)]
    pub fn play_games(&self, start: u32, end: u32, seed: u32) -> js_sys::Promise {
        let cell = self.trainer.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let trainer = take(&cell)?;
            let policy = trainer.dqn().policy_on(&Device::flex()).await;
            *cell.borrow_mut() = Some(trainer);
            play(&policy.map_err(js_error)?, start, end, seed)
        })
    }

    /// The current network as a model file (the format `puzzlelab 2048 train` writes).
    #[wasm_bindgen(js_name = saveModel)]
    pub fn save_model(&self) -> js_sys::Promise {
        let cell = self.trainer.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let trainer = take(&cell)?;
            let policy = trainer.dqn().policy_on(&Device::flex()).await;
            *cell.borrow_mut() = Some(trainer);
            let policy = policy.map_err(js_error)?;
            Ok(js_sys::Uint8Array::from(policy.to_bytes().as_slice()).into())
        })
    }

    /// Goes on from a saved model's weights (same network); Adam's moments start again.
    #[wasm_bindgen(js_name = loadModel)]
    pub fn load_model(&self, bytes: &[u8]) -> Result<(), JsValue> {
        let mut slot = self.trainer.borrow_mut();
        let trainer = slot
            .as_mut()
            .ok_or_else(|| js_error("the trainer is busy with a chunk"))?;
        trainer.dqn_mut().load_weights(bytes).map_err(js_error)
    }

    /// After WebGPU was lost (a chunk failed because the GPU stopped answering): goes on on the
    /// CPU from the network of the last chunk; returns the steps done then.
    #[wasm_bindgen(js_name = fallBackToCpu)]
    pub fn fall_back_to_cpu(&self) -> Result<usize, JsValue> {
        fall_back_to_cpu(&self.trainer, Game2048Trainer::dqn_mut)
    }
}

/// A saved 2048 DQN on the CPU.
#[wasm_bindgen]
pub struct Dqn2048Model {
    policy: QPolicy,
}

#[wasm_bindgen]
impl Dqn2048Model {
    /// Reads a model file; the error says what is wrong with a damaged or foreign one (a sliding
    /// puzzle's model, for instance).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<Dqn2048Model, JsValue> {
        let policy = QPolicy::from_bytes(bytes, &Device::flex()).map_err(js_error)?;
        policy
            .check_fits(&Game2048::new(Game2048Config::default()))
            .map_err(js_error)?;
        Ok(Dqn2048Model { policy })
    }

    /// `{network: {observationLen, hidden, numActions, conv}, numParams, training: {config, steps,
    /// episodes} | null}`.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        #[derive(serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Info<'a> {
            network: &'a crate::agent::dqn::QNetworkConfig,
            num_params: usize,
            training: Option<&'a crate::agent::dqn::TrainingRecord>,
        }
        to_js(&Info {
            network: self.policy.network_config(),
            num_params: self.policy.network_config().num_params(),
            training: self.policy.training(),
        })
    }

    /// The greedy legal move for a board of 16 exponents (0 up, 1 right, 2 down, 3 left), or −1
    /// when no move changes the board.
    #[wasm_bindgen(js_name = bestMove)]
    pub fn best_move(&self, exponents: &[u8]) -> Result<i32, JsValue> {
        let (best, _) = greedy(&self.policy, board_of(exponents)?);
        Ok(best.map_or(-1, |a| a as i32))
    }

    /// The network's Q-value of each move (up, right, down, left) for a board of 16 exponents.
    #[wasm_bindgen(js_name = qValues)]
    pub fn q_values(&self, exponents: &[u8]) -> Result<Vec<f32>, JsValue> {
        Ok(greedy(&self.policy, board_of(exponents)?).1)
    }

    /// Plays games `start..end` of the run seeded with `seed` (the same games the native
    /// `puzzlelab 2048 eval --agent dqn --seed S` plays): `{stats: {games, moves, scores, max_tile_counts},
    /// summary: {games, mean_score, median_score, reach: {"2048": rate, …}, moves_per_s, …}}`
    /// (the names of the native JSON).
    #[wasm_bindgen(js_name = playGames)]
    pub fn play_games(&self, start: u32, end: u32, seed: u32) -> Result<JsValue, JsValue> {
        play(&self.policy, start, end, seed)
    }
}
