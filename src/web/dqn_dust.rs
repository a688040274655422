//! The dust puzzle's deep Q-network in the learning bundle (feature `learn`): [`DqnDustTrainer`]
//! trains it in the learning worker on the CPU or WebGPU, in chunks, and plays the seeded
//! validation boards with the network so far; [`DqnDustModel`] plays a saved one on the CPU: on
//! the page's board (its clicks, to compare with the optimum), and on seeded boards beside the
//! greedy rule ([`Board::greedy_click`]). Networks play as their learner does
//! ([`crate::agent::dqn::dust::play`]: puzzlelab's with one step of lookahead, the batched DQN
//! greedily).
//!
//! The learners are [`crate::agent::dqn::dust`]'s: puzzlelab's full backups of every click of
//! boards from every stage of a game (`net: "backups"`, the default) or the dust-puzzle blog
//! post's batched DQN (`net: "batched"`; `"blog"`, its former name, is still accepted), with the
//! TD target from the max (default) or the blog's mean of the next Q-values (`target`). Their
//! hidden layers default to sizes a tab trains in minutes (three and five of 256); `puzzlelab dust
//! train`'s are 3 × 512 and the blog's 5 × 1,500. Boards travel as text (rows top first, `1`–`5`
//! colours, `.` empty; the dust rules' 8 × 6) and clicks as row-major cells of the board before
//! each (row 0 at the top).

use super::learn::{config_over, cpu_policy, policy_of, puzzle_options, TrainerCell};
use super::{js_error, to_js};
use crate::agent::dqn::dust::{
    backups_config, backups_env, batched_config, env_for, one_hot_env, play, seeded_boards,
    ClicksSummary, BACKUP_START_CLICKS, VALIDATION_SEED,
};
use crate::agent::dqn::{DqnConfig, QPolicy};
use crate::env::samegame::{Board, Clusters, Rules};
use crate::env::Environment;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// What a trainer learns with; the rest of its options are [`crate::agent::dqn::DqnConfig`]'s
/// (`hidden` among them).
#[derive(Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct DustOptions {
    net: Net,
    target: Target,
    /// Validation boards (default 100).
    validation_boards: Option<usize>,
}

/// The learner a trainer trains: `backups` (default) or `batched` (read also as `blog`, its
/// former name).
#[derive(Clone, Copy, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum Net {
    #[default]
    Backups,
    #[serde(alias = "blog")]
    Batched,
}

/// The next position's value in the TD target: `max` (default) or `mean` (the blog's).
#[derive(Clone, Copy, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum Target {
    #[default]
    Max,
    Mean,
}

impl Net {
    /// Its settings, with the hidden layers of a tab (three of 256, or five for the batched DQN).
    fn config(self) -> DqnConfig {
        match self {
            Net::Backups => backups_config(vec![256; 3]),
            Net::Batched => batched_config(vec![256; 5]),
        }
    }

    /// Its environment (random full boards, or boards from every stage of a game).
    fn env_maker(self) -> fn() -> Clusters {
        match self {
            Net::Backups => backups_env,
            Net::Batched => one_hot_env,
        }
    }
}

/// Boards played side by side (one forward pass a click for all), as `puzzlelab dust train`.
const EVAL_BATCH: usize = 200;
/// Validation boards of a trainer in the tab.
const DEFAULT_VALIDATION_BOARDS: usize = 100;
/// The most boards a validation or an evaluation plays.
const MAX_BOARDS: usize = 10_000;

/// A count of boards from 1 to [`MAX_BOARDS`], or an error naming `what`.
fn check_boards(count: usize, what: &str) -> Result<usize, JsValue> {
    if (1..=MAX_BOARDS).contains(&count) {
        Ok(count)
    } else {
        Err(js_error(format!("{what}: 1 to {MAX_BOARDS}")))
    }
}

/// `policy`'s clearings of `boards` as its learner plays (with lookahead for puzzlelab's, greedily
/// for the batched DQN), summed up.
fn clicks_of(policy: &QPolicy, boards: &[Board]) -> Result<ClicksSummary, JsValue> {
    let clicks = play(policy, boards, EVAL_BATCH).map_err(js_error)?;
    Ok(ClicksSummary::of(clicks.iter().map(Vec::len)))
}

/// What a trainer trains and validates on.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct TrainerSetup {
    net: Net,
    target: Target,
    hidden: Vec<usize>,
    /// Clicks a training board has had at most before it starts (`backups`; 0 for `batched`).
    start_clicks: usize,
    /// The validation boards' seed, in hexadecimal (beyond JS's exact integers).
    validation_seed: String,
    validation_boards: usize,
}

/// A deep Q-learner playing the dust puzzle in the browser.
#[wasm_bindgen]
pub struct DqnDustTrainer {
    cell: TrainerCell<Clusters>,
    validation: Rc<Vec<Board>>,
    setup: TrainerSetup,
}

#[wasm_bindgen]
impl DqnDustTrainer {
    /// A learner with fresh weights. `options`: `net` (`backups` or `batched`, also read as
    /// `blog`), `target` (`max` or `mean`), `validationBoards` (default 100) and
    /// [`crate::agent::dqn::DqnConfig`]'s fields in camelCase over that learner's settings
    /// ([`backups_config`] or [`batched_config`]; `hidden` defaults to three layers of 256 for
    /// `backups`, five for `batched`). The validation boards are
    /// `puzzlelab dust train`'s (seed [`VALIDATION_SEED`]). `backend`: `cpu` or `webgpu`.
    pub async fn create(options: JsValue, backend: String) -> Result<DqnDustTrainer, JsValue> {
        let dust: DustOptions = puzzle_options(&options)?;
        let count = check_boards(
            dust.validation_boards.unwrap_or(DEFAULT_VALIDATION_BOARDS),
            "validation boards",
        )?;
        let mut config = config_over(dust.net.config(), &options)?;
        config.mean_next_q = dust.target == Target::Mean;
        config.validate().map_err(js_error)?;
        let setup = TrainerSetup {
            net: dust.net,
            target: dust.target,
            hidden: config.hidden.clone(),
            start_clicks: if dust.net == Net::Backups {
                BACKUP_START_CLICKS
            } else {
                0
            },
            validation_seed: format!("{VALIDATION_SEED:#x}"),
            validation_boards: count,
        };
        Ok(DqnDustTrainer {
            cell: TrainerCell::create(dust.net.env_maker(), config, &backend).await?,
            validation: Rc::new(seeded_boards(VALIDATION_SEED, count)),
            setup,
        })
    }

    /// `cpu` or `webgpu`.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        self.cell.backend().to_string()
    }

    /// What it trains and validates on: `{net, target, hidden, startClicks, validationSeed,
    /// validationBoards}`.
    #[wasm_bindgen(getter)]
    pub fn setup(&self) -> Result<JsValue, JsValue> {
        to_js(&self.setup)
    }

    /// The network's number of weights and biases.
    #[wasm_bindgen(getter, js_name = numParams)]
    pub fn num_params(&self) -> Result<usize, JsValue> {
        self.cell.num_params()
    }

    /// Trains `steps` steps; resolves to the chunk's report (`tdLoss`, `epsilon`, `episodes`,
    /// `episodeReturn`, `episodeLength`, `solvedRate`, `stepsPerS`, `stepsDone`, `episodesDone`,
    /// `updatesDone`, `backend`).
    #[wasm_bindgen(js_name = trainSteps)]
    pub fn train_steps(&self, steps: usize) -> js_sys::Promise {
        self.cell.train_steps(steps)
    }

    /// Times a fresh network of this trainer's shape on `backend`, as `DqnTrainer.timingProbe`
    /// does; resolves to `{ steps, stepsPerS, greedyMoves, greedyMoveMs }`.
    #[wasm_bindgen(js_name = timingProbe)]
    pub fn timing_probe(&self, backend: String, steps: usize, moves: usize) -> js_sys::Promise {
        self.cell.timing_probe(backend, steps, moves)
    }

    /// The network so far (copied to the CPU) clears the validation boards; resolves to
    /// `{boards, mean_clicks, distribution}` (distribution: boards by clicks taken).
    pub fn evaluate(&self) -> js_sys::Promise {
        let dqn = self.cell.shared();
        let validation = self.validation.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let policy = cpu_policy(&dqn).await?;
            to_js(&clicks_of(&policy, &validation)?)
        })
    }

    /// The current network as a model file (the format `puzzlelab dust train` writes).
    #[wasm_bindgen(js_name = saveModel)]
    pub fn save_model(&self) -> js_sys::Promise {
        self.cell.save_model()
    }

    /// Goes on from a saved model's weights (same network); Adam's moments start again.
    #[wasm_bindgen(js_name = loadModel)]
    pub fn load_model(&self, bytes: &[u8]) -> Result<(), JsValue> {
        self.cell.load_model(bytes)
    }

    /// After WebGPU was lost (a chunk failed because the GPU stopped answering): goes on on the
    /// CPU from the network of the last chunk; returns the steps done then.
    #[wasm_bindgen(js_name = fallBackToCpu)]
    pub fn fall_back_to_cpu(&self) -> Result<usize, JsValue> {
        self.cell.fall_back_to_cpu()
    }
}

/// The model's greedy clearing of a board.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Play {
    /// Each click as `[column, row]` of the board before it (row 0 at the top).
    clicks: Vec<(usize, usize)>,
    /// The same clicks as row-major cells.
    cells: Vec<usize>,
    /// The network's Q-value of each click (`backups`: 10 minus the clicks it expects to need
    /// after this one).
    values: Vec<f32>,
    /// The board after the last click, as text.
    after: String,
    cleared: bool,
}

/// A model's evaluation on seeded boards, beside the greedy rule's on the same boards.
#[derive(serde::Serialize)]
struct Evaluation {
    seed: u64,
    #[serde(flatten)]
    model: ClicksSummary,
    greedy: ClicksSummary,
}

/// What the page shows about a model.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ModelInfo<'a> {
    puzzle_id: &'a str,
    /// `backups` or `batched` (from its training record; null without one).
    net: Option<&'static str>,
    /// `max` or `mean` (the same).
    target: Option<&'static str>,
    network: &'a crate::agent::dqn::QNetworkConfig,
    num_params: usize,
    training: Option<&'a crate::agent::dqn::TrainingRecord>,
}

/// A saved dust DQN on the CPU.
#[wasm_bindgen]
pub struct DqnDustModel {
    policy: QPolicy,
}

#[wasm_bindgen]
impl DqnDustModel {
    /// Reads a model file; the error says what is wrong with a damaged or foreign one (a Sudoku
    /// or sliding-puzzle model, for instance).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<DqnDustModel, JsValue> {
        let policy = policy_of(bytes, "dust-", "the dust puzzle")?;
        env_for(&policy).map_err(js_error)?;
        Ok(DqnDustModel { policy })
    }

    /// `{puzzleId, net, target, network: {observationLen, numActions, hidden, …}, numParams,
    /// training: {config, steps, episodes} | null}`.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        let network = self.policy.network_config();
        let training = self.policy.training();
        to_js(&ModelInfo {
            puzzle_id: self.policy.puzzle_id(),
            net: training.map(|t| {
                if t.config.full_backups {
                    "backups"
                } else {
                    "batched"
                }
            }),
            target: training.map(|t| if t.config.mean_next_q { "mean" } else { "max" }),
            network,
            num_params: network.num_params(),
            training,
        })
    }

    /// Clears `board` (the dust rules' 8 × 6, as text) as the model's learner plays (puzzlelab's
    /// with one step of lookahead, the batched DQN greedily, a value network by a beam search),
    /// choosing among the piles: `{clicks: [[column, row]], cells, values, after, cleared}`
    /// (`values`: each click's Q-value, or for a value network the board's value before it). Refused when the text is not
    /// an 8 × 6 board of at most five colours.
    pub fn play(&self, board: &str) -> Result<JsValue, JsValue> {
        let board = Board::parse(Rules::dust(), board)
            .map_err(|e| js_error(format!("the model plays the dust rules' 8 × 6 boards: {e}")))?;
        let mut env = env_for(&self.policy).map_err(js_error)?;
        env.set_board(board);
        let width = Rules::dust().width;
        let mut observation = vec![0.0; env.observation_len()];
        let cells = play(&self.policy, std::slice::from_ref(env.board()), 1)
            .map_err(js_error)?
            .remove(0);
        let mut values = Vec::new();
        for &cell in &cells {
            env.write_observation(&mut observation);
            let q = self.policy.q_values(&observation);
            // A value network's one output is the board's value; a Q-network's, the click's.
            values.push(if self.policy.is_value_network() {
                q[0]
            } else {
                q[cell]
            });
            env.step(cell);
        }
        to_js(&Play {
            clicks: cells.iter().map(|&c| (c % width, c / width)).collect(),
            cells,
            values,
            after: env.board().to_text(),
            cleared: env.board().is_empty(),
        })
    }

    /// Clears boards `0..boards` of the run seeded with `seed` (the boards of `puzzlelab dust
    /// eval --seed`) as the model's learner plays, and the greedy rule the same boards: `{seed, boards, mean_clicks,
    /// distribution, greedy: {boards, mean_clicks, distribution}}`.
    pub fn evaluate(&self, boards: usize, seed: f64) -> Result<JsValue, JsValue> {
        if !(seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0) {
            return Err(js_error("the seed must be a whole number"));
        }
        let played = seeded_boards(seed as u64, check_boards(boards, "boards")?);
        to_js(&Evaluation {
            seed: seed as u64,
            model: clicks_of(&self.policy, &played)?,
            greedy: ClicksSummary::of(played.iter().map(|b| b.greedy_clearing().len())),
        })
    }
}
