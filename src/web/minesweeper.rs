//! Minesweeper in the page: a game handle ([`MinesGame`]) that the board view plays on, with the
//! exact probability solver's overlay ([`MinesGame::analyse`]) and hint ([`MinesGame::hint`]).
//!
//! Cells travel as a `Uint8Array` of codes: 0–8 a revealed number, [`COVERED`], [`FLAGGED`],
//! [`MARKED`]; [`MinesGame::mines`] shows where the mines are once the game is over.

use super::evaluation::{Evaluation, InRanges};
use super::{count_of, js_error, request_of, seed_of, to_js};
use crate::clock;
use crate::env::minesweeper::{
    analyse, choose, play_solver_game, Cell, Choice, FirstClick, Layout, Minefield, Outcome,
    Reason, Status, Strategy, Tally,
};
use std::ops::Range;
use wasm_bindgen::prelude::*;

/// The code of a covered cell.
pub const COVERED: u8 = 9;
/// The code of a flagged cell.
pub const FLAGGED: u8 = 10;
/// The code of a cell marked "?".
pub const MARKED: u8 = 11;

fn code(cell: Cell) -> u8 {
    match cell {
        Cell::Revealed(n) => n,
        Cell::Covered => COVERED,
        Cell::Flagged => FLAGGED,
        Cell::Marked => MARKED,
    }
}

/// What a reveal or chord did, as JS reads it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct MoveReport {
    revealed: Vec<usize>,
    exploded: Option<usize>,
    status: &'static str,
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Ready => "ready",
        Status::Playing => "playing",
        Status::Won => "won",
        Status::Lost(_) => "lost",
    }
}

/// A game of Minesweeper as the page plays it.
#[wasm_bindgen]
pub struct MinesGame {
    game: Minefield,
    /// How long the first reveal took when it drew a no-guess board.
    no_guess_ms: f64,
}

impl MinesGame {
    fn report(&self, outcome: Outcome) -> JsValue {
        to_js(&MoveReport {
            revealed: outcome.revealed,
            exploded: outcome.exploded,
            status: status_name(self.game.status()),
        })
        .unwrap_or(JsValue::NULL)
    }

    fn check_cell(&self, cell: usize) -> Result<(), JsValue> {
        if cell < self.game.layout().cells() {
            Ok(())
        } else {
            Err(js_error(format!("cell {cell} is not on the board")))
        }
    }
}

#[wasm_bindgen]
impl MinesGame {
    /// A new game of `width × height` with `mines` mines under the first-click rule `rule`
    /// ("safe", "opening" or "none"); `seed` (a whole number) fixes the mines. With `no_guess`
    /// the mines are drawn at the first reveal until the board needs no guess from there.
    #[wasm_bindgen(constructor)]
    pub fn new(
        width: usize,
        height: usize,
        mines: usize,
        rule: &str,
        seed: f64,
        no_guess: bool,
    ) -> Result<MinesGame, JsValue> {
        let rule = first_click(rule)?;
        let (layout, seed) = (Layout::new(width, height, mines), seed_of(seed)?);
        let game = if no_guess {
            Minefield::new_no_guess(layout, rule, seed)
        } else {
            Minefield::new(layout, rule, seed)
        }
        .map_err(js_error)?;
        Ok(MinesGame {
            game,
            no_guess_ms: 0.0,
        })
    }

    /// A game from a board text (`.` covered, `*` mine, `F` flagged mine, `f` wrong flag, `?`,
    /// digits revealed); an error says what is wrong with the text.
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(text: &str) -> Result<MinesGame, JsValue> {
        Ok(MinesGame {
            game: Minefield::parse(text).map_err(js_error)?,
            no_guess_ms: 0.0,
        })
    }

    /// The board as text (what [`MinesGame::from_text`] reads).
    #[wasm_bindgen(js_name = toText)]
    pub fn to_text(&self) -> String {
        self.game.to_text()
    }

    /// Columns.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> usize {
        self.game.layout().width
    }

    /// Rows.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> usize {
        self.game.layout().height
    }

    /// Mines on the board.
    #[wasm_bindgen(getter)]
    pub fn mines(&self) -> usize {
        self.game.layout().mines
    }

    /// Flags placed.
    #[wasm_bindgen(getter)]
    pub fn flags(&self) -> usize {
        self.game.flags()
    }

    /// "ready", "playing", "won" or "lost".
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> String {
        status_name(self.game.status()).into()
    }

    /// The mine that went off, or `undefined`.
    #[wasm_bindgen(getter)]
    pub fn exploded(&self) -> Option<usize> {
        match self.game.status() {
            Status::Lost(cell) => Some(cell),
            _ => None,
        }
    }

    /// Boards drawn to find a no-guess one (0 before the first reveal or for an ordinary game).
    #[wasm_bindgen(getter, js_name = noGuessAttempts)]
    pub fn no_guess_attempts(&self) -> usize {
        self.game.no_guess_attempts()
    }

    /// Milliseconds the first reveal of a no-guess game took to draw its board.
    #[wasm_bindgen(getter, js_name = noGuessMs)]
    pub fn no_guess_ms(&self) -> f64 {
        self.no_guess_ms
    }

    /// Whether a no-guess game found a board that needs no guess.
    #[wasm_bindgen(getter, js_name = noGuessFound)]
    pub fn no_guess_found(&self) -> bool {
        self.game.no_guess_found()
    }

    /// Every cell's code (0–8 revealed, 9 covered, 10 flag, 11 "?").
    pub fn cells(&self) -> Vec<u8> {
        self.game.cells().iter().map(|&c| code(c)).collect()
    }

    /// 1 where a mine is, once the game is over; empty before (the page cannot peek).
    #[wasm_bindgen(js_name = mineMap)]
    pub fn mine_map(&self) -> Vec<u8> {
        if !self.game.is_over() {
            return Vec::new();
        }
        (0..self.game.layout().cells())
            .map(|c| self.game.is_mine(c) as u8)
            .collect()
    }

    /// Reveals `cell` (with the flood fill of zeros): `{ revealed, exploded, status }`.
    pub fn reveal(&mut self, cell: usize) -> Result<JsValue, JsValue> {
        self.check_cell(cell)?;
        let drawing = self.game.is_no_guess() && self.game.status() == Status::Ready;
        let started = clock::seconds();
        let outcome = self.game.reveal(cell).map_err(js_error)?;
        if drawing {
            self.no_guess_ms = (clock::seconds() - started) * 1000.0;
        }
        Ok(self.report(outcome))
    }

    /// Chords on `cell` (a number with as many flags around it): as [`MinesGame::reveal`].
    pub fn chord(&mut self, cell: usize) -> Result<JsValue, JsValue> {
        self.check_cell(cell)?;
        let outcome = self.game.chord(cell).map_err(js_error)?;
        Ok(self.report(outcome))
    }

    /// Cycles `cell`'s flag (and "?" with `question_marks`); returns its new code.
    #[wasm_bindgen(js_name = toggleFlag)]
    pub fn toggle_flag(&mut self, cell: usize, question_marks: bool) -> Result<u8, JsValue> {
        self.check_cell(cell)?;
        Ok(code(
            self.game
                .toggle_flag(cell, question_marks)
                .map_err(js_error)?,
        ))
    }

    /// The exact mine probability of every cell and what is certain: `{ probabilities, safe,
    /// mines, frontier, components, outside, outsideProbability, log10Placements }`.
    pub fn analyse(&self) -> Result<JsValue, JsValue> {
        let analysis = analyse(&self.game.layout(), self.game.cells()).map_err(js_error)?;
        to_js(&analysis)
    }

    /// The cell the solver would reveal next and why: `{ cell, probability, reason: "certain" |
    /// "guess", progress }`, or `null` when the game is over.
    pub fn hint(&self) -> Result<JsValue, JsValue> {
        if self.game.is_over() {
            return Ok(JsValue::NULL);
        }
        let layout = self.game.layout();
        if self.game.status() == Status::Ready {
            // Before the first reveal: the rule makes it safe (but under "none"); a corner wins
            // most often under "safe", the third row and column under "opening" (docs/minesweeper.md).
            let (cell, probability, reason) = match self.game.rule() {
                FirstClick::Opening => (
                    layout.cell(2.min(layout.width - 1), 2.min(layout.height - 1)),
                    0.0,
                    Reason::Certain,
                ),
                FirstClick::Safe => (0, 0.0, Reason::Certain),
                FirstClick::None => (
                    0,
                    layout.mines as f64 / layout.cells() as f64,
                    Reason::Guess,
                ),
            };
            return to_js(&Choice {
                cell,
                probability,
                reason,
                progress: None,
                win_chance: None,
            });
        }
        let choice = choose(&layout, self.game.cells(), &Strategy::default()).map_err(js_error)?;
        match choice {
            Some(choice) => to_js(&choice),
            None => Ok(JsValue::NULL),
        }
    }
}

/// The first-click rule named `rule` ("safe", "opening" or "none").
fn first_click(rule: &str) -> Result<FirstClick, JsValue> {
    FirstClick::parse(rule).ok_or_else(|| {
        js_error(format!(
            "unknown first-click rule \"{rule}\": use safe, opening or none"
        ))
    })
}

/// The most games one evaluation plays (the solver's expert games take tens of ms each).
const MAX_GAMES: usize = 100_000;

/// Seeded games of the solver's boards as the page asks for them: `{width, height, mines, rule,
/// firstCell, games, seed}` (the games of `puzzlelab minesweeper eval --seed`; game `g` of seed
/// `s` is the same game for the solver and for a model).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SeededGames {
    width: usize,
    height: usize,
    mines: usize,
    rule: String,
    first_cell: usize,
    games: usize,
    seed: f64,
}

/// [`SeededGames`], checked.
#[derive(Clone, Copy)]
pub(crate) struct CheckedGames {
    pub layout: Layout,
    pub rule: FirstClick,
    /// The first click's cell, row-major.
    pub first_cell: usize,
    pub games: usize,
    pub seed: u64,
}

impl SeededGames {
    /// The request read and checked: a known first-click rule, a board it allows, the first cell
    /// on the board, a whole seed.
    pub(crate) fn checked(request: JsValue) -> Result<CheckedGames, JsValue> {
        let r: SeededGames = request_of(request)?;
        let rule = first_click(&r.rule)?;
        let layout = Layout::new(r.width, r.height, r.mines);
        layout.check(rule).map_err(js_error)?;
        if r.first_cell >= layout.cells() {
            return Err(js_error(format!(
                "the first cell {} is not on the {} × {} board",
                r.first_cell, layout.width, layout.height
            )));
        }
        let (first_cell, seed) = (r.first_cell, seed_of(r.seed)?);
        let games = count_of(r.games, MAX_GAMES, "games")?;
        Ok(CheckedGames {
            layout,
            rule,
            first_cell,
            games,
            seed,
        })
    }
}

/// Plays seeded games with the solver ([`SeededGames`]: `{width, height, mines, rule, firstCell,
/// games, seed}`) and reports as `puzzlelab minesweeper eval` does: `{ games, wins, win_rate,
/// win_rate_95, guesses_per_game, ms_per_game }`, a batch of games at a time ([`Evaluation`]), so
/// that a worker reports progress and honours Cancel between batches (game `g` is the same
/// whatever the batches). The browser half of scripts/bench-minesweeper.mjs.
#[wasm_bindgen(js_name = minesweeperSolverEvaluation)]
pub fn solver_evaluation(request: JsValue) -> Result<Evaluation, JsValue> {
    let games = SeededGames::checked(request)?;
    let play = |(g, tally): &mut (CheckedGames, Tally), range: Range<usize>| {
        let strategy = Strategy::default();
        let (layout, rule, first) = (g.layout, g.rule, g.first_cell);
        let game = |s| play_solver_game(layout, rule, first, s, &strategy);
        tally.play(range, g.seed, game).map_err(js_error)
    };
    let result = |(_, tally): &(CheckedGames, Tally)| to_js(&tally.evaluation());
    let tally = (games, Tally::default());
    let job = InRanges::new(games.games, tally, play, result);
    Ok(Evaluation(Box::new(job)))
}
