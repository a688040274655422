//! Sudoku's part of the learning bundle's one trainer and model class (`web::learner`): how a
//! saved network (`agent::dqn::sudoku`: puzzlelab's network shared by all 810 actions, or Mehta's
//! one dense layer) plays greedily from the page's grid (`play_from`: its moves, and where it
//! went wrong) and seeded puzzles binned as Mehta's paper bins them. Grids travel as text (81
//! cells, `.` or `0` empty).

use super::learner::{EvaluationJob, WebLearner};
use super::{count_of, js_error, request_of, seed_of, to_js};
use crate::agent::dqn::sudoku::{env_for, play_from, BinsEvaluation, SudokuLearner, SudokuSetup};
use crate::agent::dqn::QPolicy;
use crate::env::sudoku::{random_solution, Grid, Shape};
use crate::rng::Rng;
use wasm_bindgen::prelude::*;

/// The most puzzles a bin of an evaluation may ask for.
const MAX_PER_BIN: usize = 10_000;

/// A grid to play from: `{grid}` (81 cells as text).
#[derive(serde::Deserialize)]
struct PlayRequest {
    grid: String,
}

/// Seeded puzzles of each bin: `{perBin, seed, givens}`.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct BinsRequest {
    per_bin: usize,
    seed: f64,
    givens: Vec<usize>,
}

/// What the page shows about a model beside its network.
#[derive(serde::Serialize)]
struct About {
    /// `cells` or `dense`.
    net: &'static str,
}

impl WebLearner for SudokuLearner {
    type Opened = QPolicy;

    fn open(policy: QPolicy) -> Result<QPolicy, JsValue> {
        // A model whose network does not fit its environment would fail at the first move.
        let full = random_solution(Shape::CLASSIC, &mut Rng::new(0));
        env_for(&policy, vec![full]).map_err(js_error)?;
        Ok(policy)
    }

    fn about(policy: &QPolicy) -> Result<JsValue, JsValue> {
        let net = match policy.network_config().grid.is_some() {
            true => "cells",
            false => "dense",
        };
        to_js(&About { net })
    }

    /// `{grid}` (the page's board, givens and digits placed): plays greedily until the grid is
    /// full, a wrong digit ends it (the cells network), no digit fits an empty cell, or 162 moves:
    /// `{outcome, moves: [{cell, digit, right, value}], firstMistake, solution}`. Refused when the
    /// grid is not 9 × 9 or has no single solution (a digit on it is wrong, or too few givens).
    fn play_position(policy: &QPolicy, request: JsValue) -> Result<JsValue, JsValue> {
        let PlayRequest { grid } = request_of(request)?;
        let grid = Grid::parse(&grid).map_err(js_error)?;
        to_js(&play_from(policy, &grid).map_err(js_error)?)
    }

    /// `{perBin, seed, givens}`: the puzzles of `puzzlelab sudoku eval --seed --per-bin --givens`
    /// (a bin may come out short when few of its puzzles turn up) → `{easy, medium, hard}`, each
    /// `{puzzles, solved, solved_rate, solved_rate_95, filled_fraction, ms_per_puzzle,
    /// published_solved_rate}`, drawn and played a few puzzles at a time ([`BinsEvaluation`]).
    fn start_evaluation(
        policy: &QPolicy,
        request: JsValue,
    ) -> Result<Box<dyn EvaluationJob>, JsValue> {
        let r: BinsRequest = request_of(request)?;
        let per_bin = count_of(r.per_bin, MAX_PER_BIN, "puzzles a bin")?;
        let setup = SudokuSetup {
            givens: r.givens,
            ..SudokuSetup::default()
        };
        let evaluation = BinsEvaluation::new(policy.clone(), &setup, per_bin, seed_of(r.seed)?);
        Ok(Box::new(evaluation.map_err(js_error)?))
    }
}

/// The puzzles drawn into their bins, then played, a few at a time (`done` and `total` count
/// both); the result is `puzzlelab sudoku eval`'s `bins`.
impl EvaluationJob for BinsEvaluation {
    fn step(&mut self, count: usize) -> Result<bool, JsValue> {
        BinsEvaluation::step(self, count).map_err(js_error)
    }
    fn done(&self) -> usize {
        BinsEvaluation::done(self)
    }
    fn total(&self) -> usize {
        BinsEvaluation::total(self)
    }
    fn result(&self) -> Result<JsValue, JsValue> {
        to_js(&self.result())
    }
}
