//! 2048's part of the learning bundle's one trainer and model class (`web::learner`): how a
//! saved pair-convolution network (Mehta's RL paper's; `agent::dqn::game2048`) plays the page's
//! board (a move and its Q-values) and seeded whole games for an evaluation.

use super::learner::{EvaluationJob, InRanges, WebLearner};
use super::{js_error, request_of, to_js};
use crate::agent::dqn::game2048::{play_greedy_games, Game2048Learner};
use crate::agent::dqn::{best_allowed, QPolicy};
use crate::env::game2048::{Board, Game2048, Game2048Config, GameStats};
use crate::env::Environment;
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

/// What greedy games of the run seeded with `seed` reached, played a few at a time on the model's
/// copy.
struct Played {
    policy: QPolicy,
    seed: u64,
    stats: GameStats,
    /// The time spent playing (the summary's moves/s), without the worker's turns between steps.
    seconds: f64,
}

impl Played {
    fn play(&mut self, games: std::ops::Range<usize>) -> Result<(), JsValue> {
        let clock = web_time::Instant::now();
        let range = games.start as u64..games.end as u64;
        let rules = Game2048Config::default();
        (self.stats).merge(&play_greedy_games(&self.policy, rules, range, self.seed));
        self.seconds += clock.elapsed().as_secs_f64();
        Ok(())
    }

    /// `{stats: {games, moves, scores, max_tile_counts}, summary: {games, mean_score,
    /// median_score, reach: {"2048": rate, …}, moves_per_s, …}}`, as the native `2048 eval --agent
    /// dqn` names them.
    fn result(&self) -> Result<JsValue, JsValue> {
        #[derive(serde::Serialize)]
        struct Report<'a> {
            stats: &'a GameStats,
            summary: crate::env::game2048::GameSummary,
        }
        let summary = self.stats.summary(self.seconds);
        to_js(&Report {
            stats: &self.stats,
            summary,
        })
    }
}

/// A move for the page's board: `{exponents}` (16, row-major).
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
    games: u32,
    seed: u32,
}

impl WebLearner for Game2048Learner {
    type Opened = QPolicy;

    fn open(policy: QPolicy) -> Result<QPolicy, JsValue> {
        policy
            .check_fits(&Game2048::new(Game2048Config::default()))
            .map_err(js_error)?;
        Ok(policy)
    }

    fn policy(policy: &QPolicy) -> &QPolicy {
        policy
    }

    fn about(_: &QPolicy) -> Result<JsValue, JsValue> {
        Ok(JsValue::UNDEFINED)
    }

    /// `{exponents}` → `{move, values}`.
    fn play_position(policy: &QPolicy, request: JsValue) -> Result<JsValue, JsValue> {
        let request: MoveRequest = request_of(request)?;
        let (best, values) = greedy(policy, board_of(&request.exponents)?);
        to_js(&Move {
            best: best.map_or(-1, |a| a as i32),
            values,
        })
    }

    /// `{games, seed}`: games `0..games` of the run seeded with `seed` (the games of `puzzlelab
    /// 2048 eval --agent dqn --seed S`), a few at a time.
    fn start_evaluation(
        policy: &QPolicy,
        request: JsValue,
    ) -> Result<Box<dyn EvaluationJob>, JsValue> {
        let GamesRequest { games, seed } = request_of(request)?;
        let (stats, seconds) = (GameStats::default(), 0.0);
        let played = Played {
            policy: policy.clone(),
            seed: u64::from(seed),
            stats,
            seconds,
        };
        Ok(Box::new(InRanges::new(
            games as usize,
            played,
            Played::play,
            Played::result,
        )))
    }
}
