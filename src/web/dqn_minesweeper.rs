//! Minesweeper's part of the learning bundle's one trainer and model class (`web::learner`): how
//! a saved network (`agent::dqn::minesweeper::MinesweeperModel`: puzzlelab's fully convolutional
//! one on any board size, or Mehta's) plays the page's board (the greedy cell and every cell's
//! Q-value) and the solver's seeded games. Boards travel as the page's cell codes
//! ([`super::minesweeper`]: 0–8 revealed, 9 covered, 10 flag, 11 "?").

use super::learner::{EvaluationJob, WebLearner};
use super::minesweeper::{SeededGames, COVERED, FLAGGED, MARKED};
use super::{js_error, request_of, to_js};
use crate::agent::dqn::minesweeper::{MinesweeperLearner, MinesweeperModel, PolicyGames};
use crate::agent::dqn::QPolicy;
use crate::env::minesweeper::{Cell, FirstCell, Layout};
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
    /// games of `puzzlelab minesweeper eval --agent dqn`, and of `minesweeperSolverEvaluation`
    /// with the same arguments), a batch at a time → `{games, wins, win_rate, win_rate_95,
    /// guesses_per_game, ms_per_game}`.
    fn start_evaluation(
        model: &MinesweeperModel,
        request: JsValue,
    ) -> Result<Box<dyn EvaluationJob>, JsValue> {
        let g = SeededGames::checked(request)?;
        let first = FirstCell::At(g.first_cell % g.layout.width, g.first_cell / g.layout.width);
        let games = model.start_evaluation(g.layout, g.rule, first, g.games, g.seed);
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
