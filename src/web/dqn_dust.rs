//! The dust puzzle's part of the learning bundle's one trainer and model class (`web::learner`):
//! how a saved network (`agent::dqn::dust`: puzzlelab's full backups, the blog's batched DQN, or a
//! value network) clears the page's board (its clicks, to compare with the optimum) and seeded
//! boards beside the greedy rule ([`Board::greedy_click`]). Networks play as their learner does
//! ([`crate::agent::dqn::dust::play`]: puzzlelab's with one step of lookahead, the batched DQN
//! greedily). Boards travel as text (rows top first, `1`–`5` colours, `.` empty; the dust rules'
//! 8 × 6) and clicks as row-major cells of the board before each (row 0 at the top).

use super::learner::{EvaluationJob, InRanges, WebLearner};
use super::{js_error, request_of, seed_of, to_js};
use crate::agent::dqn::dust::{env_for, play, seeded_boards, ClicksSummary, DustLearner};
use crate::agent::dqn::QPolicy;
use crate::env::samegame::{Board, Rules};
use crate::env::Environment;
use wasm_bindgen::prelude::*;

/// Boards played side by side (one forward pass a click for all), as `puzzlelab dust train`.
const EVAL_BATCH: usize = 200;
/// The most boards an evaluation plays.
const MAX_BOARDS: usize = 10_000;

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

fn play_board(policy: &QPolicy, board: &str) -> Result<JsValue, JsValue> {
    let board = Board::parse(Rules::dust(), board)
        .map_err(|e| js_error(format!("the model plays the dust rules' 8 × 6 boards: {e}")))?;
    let mut env = env_for(policy).map_err(js_error)?;
    env.set_board(board);
    let width = Rules::dust().width;
    let mut observation = vec![0.0; env.observation_len()];
    let cells = play(policy, std::slice::from_ref(env.board()), 1)
        .map_err(js_error)?
        .remove(0);
    let mut values = Vec::new();
    for &cell in &cells {
        env.write_observation(&mut observation);
        let q = policy.q_values(&observation);
        // A value network's one output is the board's value; a Q-network's, the click's.
        values.push(if policy.is_value_network() {
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

/// A board to clear: `{board}` (text).
#[derive(serde::Deserialize)]
struct PlayRequest {
    board: String,
}

/// Seeded boards: `{boards, seed}`.
#[derive(serde::Deserialize)]
struct BoardsRequest {
    boards: usize,
    seed: f64,
}

/// What the page shows about a model beside its network: its learner, from its training record.
#[derive(serde::Serialize)]
struct About {
    /// `backups` or `batched` (null without a record).
    net: Option<&'static str>,
    /// `max` or `mean` (the same).
    target: Option<&'static str>,
}

impl WebLearner for DustLearner {
    type Opened = QPolicy;

    fn open(policy: QPolicy) -> Result<QPolicy, JsValue> {
        env_for(&policy).map_err(js_error)?;
        Ok(policy)
    }

    fn policy(policy: &QPolicy) -> &QPolicy {
        policy
    }

    fn about(policy: &QPolicy) -> Result<JsValue, JsValue> {
        let training = policy.training();
        to_js(&About {
            net: training.map(|t| match t.config.full_backups {
                true => "backups",
                false => "batched",
            }),
            target: training.map(|t| if t.config.mean_next_q { "mean" } else { "max" }),
        })
    }

    /// `{board}` (the dust rules' 8 × 6, as text): cleared as the model's learner plays (puzzlelab's
    /// with one step of lookahead, the batched DQN greedily, a value network by a beam search),
    /// among the piles: `{clicks: [[column, row]], cells, values, after, cleared}` (`values`: each
    /// click's Q-value, or for a value network the board's value before it). Refused when the text
    /// is not an 8 × 6 board of at most five colours.
    fn play_position(policy: &QPolicy, request: JsValue) -> Result<JsValue, JsValue> {
        let PlayRequest { board } = request_of(request)?;
        play_board(policy, &board)
    }

    /// `{boards, seed}`: boards `0..boards` of the run seeded with `seed` (the boards of
    /// `puzzlelab dust eval --seed`) as the model's learner plays, and the greedy rule the same
    /// boards: `{seed, boards, mean_clicks, distribution, greedy: {boards, mean_clicks,
    /// distribution}}`.
    fn start_evaluation(
        policy: &QPolicy,
        request: JsValue,
    ) -> Result<Box<dyn EvaluationJob>, JsValue> {
        let r: BoardsRequest = request_of(request)?;
        if !(1..=MAX_BOARDS).contains(&r.boards) {
            return Err(js_error(format!("boards: 1 to {MAX_BOARDS}")));
        }
        let seed = seed_of(r.seed)?;
        let (boards, model, greedy) = (seeded_boards(seed, r.boards), Vec::new(), Vec::new());
        let played = Played {
            policy: policy.clone(),
            seed,
            boards,
            model,
            greedy,
        };
        Ok(Box::new(InRanges::new(
            r.boards,
            played,
            Played::play,
            Played::result,
        )))
    }
}

/// Seeded boards played a range at a time: the model's clicks and the greedy rule's on each.
struct Played {
    policy: QPolicy,
    seed: u64,
    boards: Vec<Board>,
    model: Vec<usize>,
    greedy: Vec<usize>,
}

impl Played {
    fn play(&mut self, range: std::ops::Range<usize>) -> Result<(), JsValue> {
        let boards = &self.boards[range];
        let clicks = play(&self.policy, boards, EVAL_BATCH).map_err(js_error)?;
        self.model.extend(clicks.iter().map(Vec::len));
        self.greedy
            .extend(boards.iter().map(|b| b.greedy_clearing().len()));
        Ok(())
    }

    fn result(&self) -> Result<JsValue, JsValue> {
        to_js(&Evaluation {
            seed: self.seed,
            model: ClicksSummary::of(self.model.iter().copied()),
            greedy: ClicksSummary::of(self.greedy.iter().copied()),
        })
    }
}
