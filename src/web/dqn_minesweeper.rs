//! Minesweeper's part of the learning bundle's one trainer and model class (`web::learner`): how
//! a saved network (`agent::dqn::minesweeper`: puzzlelab's fully convolutional one on any board
//! size, or Mehta's) plays the page's board (the greedy cell and every cell's Q-value) and the
//! solver's seeded games. Boards travel as the page's cell codes ([`super::minesweeper`]: 0–8
//! revealed, 9 covered, 10 flag, 11 "?").

use super::learner::{request_of, seed_of, WebLearner};
use super::minesweeper::{COVERED, FLAGGED, MARKED};
use super::{js_error, to_js};
use crate::agent::dqn::minesweeper::{evaluate_policy, fit_policy, MinesweeperLearner};
use crate::agent::dqn::{best_allowed, QPolicy};
use crate::env::minesweeper::{
    Cell, FirstCell, FirstClick, Layout, MinesConfig, MinesReward, Minesweeper, Observation,
};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// Games played per forward pass by the evaluations (as `puzzlelab minesweeper eval`).
const EVAL_BATCH: usize = 100;

/// A first-click rule by name, or an error naming the known ones.
fn rule_of(name: &str) -> Result<FirstClick, JsValue> {
    FirstClick::parse(name).ok_or_else(|| {
        js_error(format!(
            "unknown first-click rule \"{name}\": safe, opening or none"
        ))
    })
}

/// The first click of seeded games: cell `index` of `layout`.
fn first_cell(layout: &Layout, index: usize) -> Result<FirstCell, JsValue> {
    if index >= layout.cells() {
        return Err(js_error(format!(
            "the first cell {index} is not on the {} × {} board",
            layout.width, layout.height
        )));
    }
    Ok(FirstCell::At(index % layout.width, index / layout.width))
}

/// What a model's puzzle id (`minesweeper-{w}x{h}-{mines}-{encoding}`) says.
struct ModelBoard {
    layout: Layout,
    observation: Observation,
}

fn model_board(puzzle_id: &str) -> Option<ModelBoard> {
    let rest = puzzle_id.strip_prefix("minesweeper-")?;
    let mut parts = rest.split('-');
    let (width, height) = parts.next()?.split_once('x')?;
    let mines = parts.next()?.parse().ok()?;
    let observation = match parts.next()? {
        "condensed" => Observation::Condensed,
        "onehot" => Observation::OneHot,
        _ => return None,
    };
    Some(ModelBoard {
        layout: Layout::new(width.parse().ok()?, height.parse().ok()?, mines),
        observation,
    })
}

/// A saved Minesweeper model, opened: the board it was made for, and the policy fitted to the last
/// board size asked about.
pub struct OpenedModel {
    policy: QPolicy,
    board: ModelBoard,
    /// `(width, height, policy)`.
    fitted: RefCell<Option<(usize, usize, QPolicy)>>,
}

impl OpenedModel {
    /// The rules of a game of `layout` under `rule` as the model sees it (its encoding).
    fn rules(&self, layout: Layout, rule: FirstClick) -> MinesConfig {
        MinesConfig {
            layout,
            first_click: rule,
            observation: self.board.observation,
            reward: MinesReward::Outcome,
        }
    }

    /// The model for a board of `layout`: itself, or resized when it is fully convolutional.
    fn fitted(&self, layout: Layout) -> Result<QPolicy, JsValue> {
        if let Some((w, h, policy)) = self.fitted.borrow().as_ref() {
            if (*w, *h) == (layout.width, layout.height) {
                return Ok(policy.clone());
            }
        }
        let env = Minesweeper::new(self.rules(layout, FirstClick::None)).map_err(js_error)?;
        let policy = fit_policy(&self.policy, &env).map_err(js_error)?;
        *self.fitted.borrow_mut() = Some((layout.width, layout.height, policy.clone()));
        Ok(policy)
    }

    /// The Q-values of a board of `width × height` with `mines` mines given as cell codes, and
    /// which cells may be revealed (covered or "?", not flagged).
    fn values(
        &self,
        width: usize,
        height: usize,
        mines: usize,
        codes: &[u8],
    ) -> Result<(Vec<f32>, Vec<bool>), JsValue> {
        let layout = Layout::new(width, height, mines);
        layout.check(FirstClick::None).map_err(js_error)?;
        if codes.len() != layout.cells() {
            return Err(js_error(format!(
                "a {width} × {height} board has {} cells, not {}",
                layout.cells(),
                codes.len()
            )));
        }
        let cells = codes
            .iter()
            .map(|&code| match code {
                0..=8 => Ok(Cell::Revealed(code)),
                COVERED => Ok(Cell::Covered),
                FLAGGED => Ok(Cell::Flagged),
                MARKED => Ok(Cell::Marked),
                other => Err(js_error(format!("{other} is not a cell code (0 to 11)"))),
            })
            .collect::<Result<Vec<Cell>, JsValue>>()?;
        let policy = self.fitted(layout)?;
        let mut observation = vec![0.0; self.board.observation.channels() * cells.len()];
        self.board.observation.write(&cells, &mut observation);
        let values = policy.q_values(&observation);
        let allowed = codes.iter().map(|&c| c == COVERED || c == MARKED).collect();
        Ok((values, allowed))
    }
}

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

impl WebLearner for MinesweeperLearner {
    type Opened = OpenedModel;

    fn open(policy: QPolicy) -> Result<OpenedModel, JsValue> {
        let board = model_board(policy.puzzle_id()).ok_or_else(|| {
            js_error(format!(
                "the model plays \"{}\", not Minesweeper",
                policy.puzzle_id()
            ))
        })?;
        // A model whose network does not fit its own board would fail at the first move.
        let env = Minesweeper::new(MinesConfig {
            layout: board.layout,
            first_click: FirstClick::None,
            observation: board.observation,
            reward: MinesReward::Outcome,
        })
        .map_err(js_error)?;
        policy.check_fits(&env).map_err(js_error)?;
        Ok(OpenedModel {
            policy,
            board,
            fitted: RefCell::new(None),
        })
    }

    fn policy(model: &OpenedModel) -> &QPolicy {
        &model.policy
    }

    fn about(model: &OpenedModel) -> Result<JsValue, JsValue> {
        let layout = model.board.layout;
        to_js(&About {
            width: layout.width,
            height: layout.height,
            mines: layout.mines,
            any_size: model
                .policy
                .network_config()
                .grid
                .as_ref()
                .is_some_and(|g| g.per_cell),
        })
    }

    /// `{width, height, mines, cells}` → `{cell, values}`: the greedy cell (covered or "?",
    /// never a flag; −1 when none is left) and every cell's Q-value.
    fn play_position(model: &OpenedModel, request: JsValue) -> Result<JsValue, JsValue> {
        let r: BoardRequest = request_of(request)?;
        let (values, allowed) = model.values(r.width, r.height, r.mines, &r.cells)?;
        let cell = match allowed.contains(&true) {
            true => best_allowed(&values, &allowed) as i32,
            false => -1,
        };
        to_js(&Choice { cell, values })
    }

    /// `{width, height, mines, rule, firstCell, games, seed}`: the solver's seeded boards (the
    /// games of `puzzlelab minesweeper eval --agent dqn`, and of `minesweeperSolverEval` with the
    /// same arguments) → `{games, wins, win_rate, win_rate_95, guesses_per_game, ms_per_game}`.
    fn play_seeded(model: &OpenedModel, request: JsValue) -> Result<JsValue, JsValue> {
        let r: GamesRequest = request_of(request)?;
        let rule = rule_of(&r.rule)?;
        let layout = Layout::new(r.width, r.height, r.mines);
        layout.check(rule).map_err(js_error)?;
        let first = first_cell(&layout, r.first_cell)?;
        let evaluation = evaluate_policy(
            &model.policy,
            model.rules(layout, rule),
            first,
            r.games,
            seed_of(r.seed)?,
            EVAL_BATCH,
        )
        .map_err(js_error)?;
        to_js(&evaluation)
    }
}
