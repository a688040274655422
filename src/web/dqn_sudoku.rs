//! Sudoku's part of the learning bundle's one trainer and model class (`web::learner`): how a
//! saved network (`agent::dqn::sudoku`: puzzlelab's network shared by all 810 actions, or Mehta's
//! one dense layer) plays greedily from the page's grid (its moves, and where it went wrong) and
//! seeded puzzles binned as Mehta's paper bins them. Grids travel as text (81 cells, `.` or `0`
//! empty).

use super::learner::{request_of, seed_of, WebLearner};
use super::{js_error, to_js};
use crate::agent::dqn::sudoku::{env_for, SudokuLearner, SudokuSetup};
use crate::agent::dqn::{best_allowed, PuzzleLearner, QPolicy};
use crate::env::sudoku::{random_solution, search, Grid, Shape};
use crate::env::Environment;
use crate::rng::Rng;
use wasm_bindgen::prelude::*;

/// The most puzzles a bin of an evaluation may ask for.
const MAX_PER_BIN: usize = 10_000;

/// One move of the model on a board.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Move {
    cell: usize,
    /// The digit written; 0 erases (only the dense network erases).
    digit: u8,
    /// Whether it is the solution's digit (an erase: whether the cell held a wrong one).
    right: bool,
    /// The network's value of the move (the cells network: the log-odds that it is right).
    value: f32,
}

/// How the model's play on a board ended.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Play {
    /// `solved`, `mistake` (the cells network: a wrong digit ends the game), `stuck` (no digit
    /// fits an empty cell) or `limit` (162 moves, the paper's limit).
    outcome: &'static str,
    moves: Vec<Move>,
    /// The index in `moves` of the first wrong digit, if any.
    first_mistake: Option<usize>,
    /// The puzzle's solution, 81 digits as text, to say what the right digit was.
    solution: String,
}

fn play_grid(policy: &QPolicy, grid: &str) -> Result<JsValue, JsValue> {
    let grid = Grid::parse(grid).map_err(js_error)?;
    if grid.shape() != Shape::CLASSIC {
        let size = grid.shape().size;
        return Err(js_error(format!(
            "the model plays 9 × 9 Sudoku, not {size} × {size}"
        )));
    }
    let found = search(&grid, 2);
    let solution = match (found.count, found.solution) {
        (1, Some(solution)) => solution,
        (0, _) | (_, None) => {
            return Err(js_error(
                "this position has no solution: a digit on the board is wrong",
            ))
        }
        _ => return Err(js_error("this position has more than one solution")),
    };
    let mut env = env_for(policy, vec![grid]).map_err(js_error)?;
    let values_per_cell = Shape::CLASSIC.size + 1;
    let mut observation = vec![0.0; env.observation_len()];
    let mut allowed = vec![false; env.num_actions()];
    let (mut moves, mut first_mistake) = (Vec::new(), None);
    let outcome = loop {
        if env.grid().is_solved() {
            break "solved";
        }
        if env.is_lost() {
            break "mistake";
        }
        if moves.len() >= crate::env::sudoku::MOVE_LIMIT {
            break "limit";
        }
        env.action_mask(&mut allowed);
        if !allowed.contains(&true) {
            break "stuck";
        }
        env.write_observation(&mut observation);
        let values = policy.q_values(&observation);
        let action = best_allowed(&values, &allowed);
        let (cell, digit) = (action / values_per_cell, (action % values_per_cell) as u8);
        let right = if digit == 0 {
            env.grid().get(cell) != solution.get(cell)
        } else {
            digit == solution.get(cell)
        };
        if digit != 0 && !right && first_mistake.is_none() {
            first_mistake = Some(moves.len());
        }
        env.step(action);
        moves.push(Move {
            cell,
            digit,
            right,
            value: values[action],
        });
    };
    to_js(&Play {
        outcome,
        moves,
        first_mistake,
        solution: solution.to_line(),
    })
}

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

    fn policy(policy: &QPolicy) -> &QPolicy {
        policy
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
        play_grid(policy, &grid)
    }

    /// `{perBin, seed, givens}`: the puzzles of `puzzlelab sudoku eval --seed --per-bin --givens`
    /// (a bin may come out short when few of its puzzles turn up) → `{easy, medium, hard}`, each
    /// `{puzzles, solved, solved_rate, solved_rate_95, filled_fraction, ms_per_puzzle,
    /// published_solved_rate}`.
    fn play_seeded(policy: &QPolicy, request: JsValue) -> Result<JsValue, JsValue> {
        let r: BinsRequest = request_of(request)?;
        if !(1..=MAX_PER_BIN).contains(&r.per_bin) {
            return Err(js_error(format!("puzzles a bin: 1 to {MAX_PER_BIN}")));
        }
        let setup = SudokuSetup {
            givens: r.givens,
            ..SudokuSetup::default()
        };
        let bins =
            SudokuLearner::validation(&setup, r.per_bin, seed_of(r.seed)?).map_err(js_error)?;
        to_js(&SudokuLearner::evaluate(policy, &bins).map_err(js_error)?)
    }
}
