//! Minesweeper's part of the learning bundle's one trainer and model class (`web::learner`): how
//! a saved network (`agent::dqn::minesweeper::MinesweeperModel`: puzzlelab's fully convolutional
//! one on any board size, or Mehta's) plays the page's board (the greedy cell and every cell's
//! Q-value) and the solver's seeded games. Boards travel as the page's cell codes
//! ([`super::minesweeper`]: 0–8 revealed, 9 covered, 10 flag, 11 "?").

use super::learner::{request_of, seed_of, EvaluationJob, WebLearner};
use super::minesweeper::{COVERED, FLAGGED, MARKED};
use super::{js_error, to_js};
use crate::agent::dqn::minesweeper::{MinesweeperLearner, MinesweeperModel, PolicyGames};
use crate::agent::dqn::QPolicy;
use crate::env::minesweeper::{Cell, FirstCell, FirstClick, Layout};
use wasm_bindgen::prelude::*;

/// A board in cell codes: `{width, height, mines, cells}`.
#[derive(serde::Deserialize)]
struct BoardRequest {
    width: usize,
    height: usize,
    mines: usize,
    cells: Vec<u8>,
}

/// The greedy cell (−1 when none is left) and every cell's Q-value (the expected reward of
/// revealing it: near +1 a winning reveal, near −1 a mine).
#[derive(serde::Serialize)]
struct Choice {
    cell: i32,
    values: Vec<f32>,
}

/// Seeded games of the solver's boards.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct GamesRequest {
    width: usize,
    height: usize,
    mines: usize,
    rule: String,
    first_cell: usize,
    games: usize,
    seed: f64,
}

/// What the page shows about a model beside its network.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct About {
    width: usize,
    height: usize,
    mines: usize,
    /// Whether it plays any board size (one Q-value per cell from its neighbourhood).
    any_size: bool,
}

/// The cells of the page's cell codes.
fn cells_of(codes: &[u8]) -> Result<Vec<Cell>, JsValue> {
    (codes.iter())
        .map(|&code| match code {
            0..=8 => Ok(Cell::Revealed(code)),
            COVERED => Ok(Cell::Covered),
            FLAGGED => Ok(Cell::Flagged),
            MARKED => Ok(Cell::Marked),
            other => Err(js_error(format!("{other} is not a cell code (0 to 11)"))),
        })
        .collect()
}

impl WebLearner for MinesweeperLearner {
    type Opened = MinesweeperModel;

    fn open(policy: QPolicy) -> Result<MinesweeperModel, JsValue> {
        MinesweeperModel::open(policy).map_err(js_error)
    }

    fn policy(model: &MinesweeperModel) -> &QPolicy {
        model.policy()
    }

    fn about(model: &MinesweeperModel) -> Result<JsValue, JsValue> {
        let Layout {
            width,
            height,
            mines,
        } = model.layout();
        let any_size = model.any_size();
        to_js(&About {
            width,
            height,
            mines,
            any_size,
        })
    }

    /// `{width, height, mines, cells}` → `{cell, values}`: the greedy cell (covered or "?",
    /// never a flag; −1 when none is left) and every cell's Q-value.
    fn play_position(model: &MinesweeperModel, request: JsValue) -> Result<JsValue, JsValue> {
        let r: BoardRequest = request_of(request)?;
        let layout = Layout::new(r.width, r.height, r.mines);
        let (values, cell) = (model.choose(layout, &cells_of(&r.cells)?)).map_err(js_error)?;
        let cell = cell.map_or(-1, |cell| cell as i32);
        to_js(&Choice { cell, values })
    }

    /// `{width, height, mines, rule, firstCell, games, seed}`: the solver's seeded boards (the
    /// games of `puzzlelab minesweeper eval --agent dqn`, and of `MinesweeperSolverEvaluation`
    /// with the same arguments), a batch at a time → `{games, wins, win_rate, win_rate_95,
    /// guesses_per_game, ms_per_game}`.
    fn start_evaluation(
        model: &MinesweeperModel,
        request: JsValue,
    ) -> Result<Box<dyn EvaluationJob>, JsValue> {
        let r: GamesRequest = request_of(request)?;
        let rule = FirstClick::parse(&r.rule).ok_or_else(|| {
            js_error(format!(
                "unknown first-click rule \"{}\": safe, opening or none",
                r.rule
            ))
        })?;
        let layout = Layout::new(r.width, r.height, r.mines);
        if r.first_cell >= layout.cells() {
            return Err(js_error(format!(
                "the first cell {} is not on the {} × {} board",
                r.first_cell, layout.width, layout.height
            )));
        }
        let first = FirstCell::At(r.first_cell % layout.width, r.first_cell / layout.width);
        let games = model.start_evaluation(layout, rule, first, r.games, seed_of(r.seed)?);
        Ok(Box::new(games.map_err(js_error)?))
    }
}

/// `{games, wins, win_rate, win_rate_95, guesses_per_game, ms_per_game}` of the games played so far.
impl EvaluationJob for PolicyGames {
    fn step(&mut self, count: usize) -> Result<bool, JsValue> {
        Ok(self.play(count))
    }
    fn done(&self) -> usize {
        self.played()
    }
    fn total(&self) -> usize {
        self.games()
    }
    fn result(&self) -> Result<JsValue, JsValue> {
        to_js(&self.evaluation())
    }
}
