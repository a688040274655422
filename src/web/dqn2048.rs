//! 2048's part of the learning bundle's one trainer and model class (`web::learner`): how a
//! saved pair-convolution network (`agent::dqn::game2048`, the network of Mehta's RL paper)
//! plays the page's board (a move and its Q-values) and seeded whole games for an evaluation.

use super::learner::{EvaluationJob, InRanges, WebLearner};
use super::{count_of, js_error, request_of, seed_of, to_js};
use crate::agent::dqn::game2048::{greedy_move, Game2048Learner, GreedyGames};
use crate::agent::dqn::QPolicy;
use crate::env::game2048::{Board, Game2048, Game2048Config, GameStats, GameSummary};
use std::ops::Range;
use wasm_bindgen::prelude::*;

/// The most games an evaluation plays.
const MAX_GAMES: usize = 100_000;

/// A move for the page's board: `{exponents}` (16, row-major; 0 = empty, e = the tile 2^e).
#[derive(serde::Deserialize)]
struct MoveRequest {
    exponents: Vec<u8>,
}

/// The move: `{move}` (0 up, 1 right, 2 down, 3 left; −1 when no move changes the board) and
/// every move's Q-value.
#[derive(serde::Serialize)]
struct Move {
    #[serde(rename = "move")]
    best: i32,
    values: Vec<f32>,
}

/// Games `0..games` of the run seeded with `seed`.
#[derive(serde::Deserialize)]
struct GamesRequest {
    games: usize,
    seed: f64,
}

/// An evaluation's answer, as the native `2048 eval --agent dqn` names its parts.
#[derive(serde::Serialize)]
struct Report<'a> {
    stats: &'a GameStats,
    summary: GameSummary,
}

impl WebLearner for Game2048Learner {
    type Opened = QPolicy;

    fn open(policy: QPolicy) -> Result<QPolicy, JsValue> {
        policy
            .check_fits(&Game2048::new(Game2048Config::default()))
            .map_err(js_error)?;
        Ok(policy)
    }

    /// `{exponents}` → `{move, values}`.
    fn play_position(policy: &QPolicy, request: JsValue) -> Result<JsValue, JsValue> {
        let request: MoveRequest = request_of(request)?;
        let board = Board::try_from_exponents(&request.exponents).map_err(js_error)?;
        let (best, values) = greedy_move(policy, board);
        let best = best.map_or(-1, |a| a as i32);
        to_js(&Move { best, values })
    }

    /// `{games, seed}`: games `0..games` of the run seeded with `seed` (the games of `puzzlelab
    /// 2048 eval --agent dqn --seed S`), a few at a time: `{stats: {games, moves, scores,
    /// max_tile_counts}, summary: {games, mean_score, median_score, reach: {"2048": rate, …},
    /// moves_per_s, …}}`.
    fn start_evaluation(
        policy: &QPolicy,
        request: JsValue,
    ) -> Result<Box<dyn EvaluationJob>, JsValue> {
        let GamesRequest { games, seed } = request_of(request)?;
        let (games, seed) = (count_of(games, MAX_GAMES, "games")?, seed_of(seed)?);
        let played = GreedyGames::new(policy.clone(), seed);
        let play = |g: &mut GreedyGames, games: Range<usize>| {
            g.play(games);
            Ok(())
        };
        let result = |g: &GreedyGames| {
            let (stats, summary) = (&g.stats, g.summary());
            to_js(&Report { stats, summary })
        };
        Ok(Box::new(InRanges::new(games, played, play, result)))
    }
}
