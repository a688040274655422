//! The dust puzzle's part of the learning bundle's one trainer and model class (`web::learner`):
//! how a saved network (`agent::dqn::dust`: puzzlelab's full backups, the blog's batched DQN, or a
//! value network) clears the page's board (its clicks, to compare with the optimum) and seeded
//! boards beside the greedy rule ([`Board::greedy_click`]). Networks play as their learner does
//! ([`crate::agent::dqn::dust::play`]: puzzlelab's with one step of lookahead, the batched DQN
//! greedily). Boards travel as text (rows top first, `1`–`5` colours, `.` empty; the dust rules'
//! 8 × 6) and clicks as row-major cells of the board before each (row 0 at the top).

use super::learner::{EvaluationJob, InRanges, WebLearner};
use super::{count_of, js_error, request_of, seed_of, to_js};
use crate::agent::dqn::dust::{clearing_with_values, env_for, AgainstGreedy, DustLearner};
use crate::agent::dqn::QPolicy;
use crate::env::samegame::{Board, Rules};
use std::ops::Range;
use wasm_bindgen::prelude::*;

/// The most boards an evaluation plays.
const MAX_BOARDS: usize = 10_000;

/// The model's clearing of a board.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Play {
    /// Each click as `[column, row]` of the board before it (row 0 at the top).
    clicks: Vec<(usize, usize)>,
    /// The same clicks as row-major cells.
    cells: Vec<usize>,
    /// The network's Q-value of each click (`backups`: 10 minus the clicks it expects to need
    /// after this one), or a value network's value of the board before it.
    values: Vec<f32>,
    /// The board after the last click, as text.
    after: String,
    cleared: bool,
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
        let board = Board::parse(Rules::dust(), &board)
            .map_err(|e| js_error(format!("the model plays the dust rules' 8 × 6 boards: {e}")))?;
        let (cells, values, after) = clearing_with_values(policy, board).map_err(js_error)?;
        let width = Rules::dust().width;
        to_js(&Play {
            clicks: cells.iter().map(|&c| (c % width, c / width)).collect(),
            cells,
            values,
            after: after.to_text(),
            cleared: after.is_empty(),
        })
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
        let count = count_of(r.boards, MAX_BOARDS, "boards")?;
        let played = AgainstGreedy::new(policy.clone(), seed_of(r.seed)?, count);
        let play = |p: &mut AgainstGreedy, boards: Range<usize>| p.play(boards).map_err(js_error);
        let result = |p: &AgainstGreedy| to_js(&p.summary());
        Ok(Box::new(InRanges::new(count, played, play, result)))
    }
}
