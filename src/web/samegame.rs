//! The dust puzzle and SameGame in the page: a game handle ([`SameGameHandle`]) that the board
//! view plays on (groups under the pointer, clicks with what fell and closed, undo, restart, the
//! board text), a hint, and the two solvers the solver worker runs on it: the exact fewest
//! clicks with progress and a stop ([`SameGameHandle::solve_fewest_clicks`]) and SameGame's Monte
//! Carlo searches with a time budget ([`SameGameHandle::search_score`]).
//!
//! Cells travel as a `Uint8Array`, row-major, row 0 at the top: 0 empty, 1 to 9 a colour.

use super::{js_error, seed_of, to_js};
use crate::env::samegame::{
    group_score, nested_search, nrpa, solve_fewest_clicks, Board, ExactLimits, ExactProgress,
    McLimits, McProgress, Objective, Rules, CLEAR_BONUS,
};
use wasm_bindgen::prelude::*;

/// Positions the exact solver expands for a dust hint before it settles for the best clearing
/// found (its greedy one at least): about a tenth of a second in the browser (the solver expands
/// some 250,000 positions a second natively; a full 8 × 6 board often needs millions).
const HINT_NODES: u64 = 20_000;
/// The width of the beam search that gives a dust hint its first clearing.
const HINT_BEAM: usize = 200;
/// Seconds a SameGame hint searches (nested Monte Carlo search, level 1).
const HINT_SECONDS: f64 = 0.25;
/// Positions the exact solver's transposition table keeps in the browser (about 40 bytes each,
/// and the table doubles as it grows): a quarter of the native default, so that a minute's solve
/// stays near 100 MB of the worker's memory. Past it the search stays exact, only slower.
const SOLVE_TABLE: usize = 2_000_000;

/// The group under a cell, as JS reads it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct GroupReport {
    /// Its cells, row-major, increasing.
    cells: Vec<usize>,
    size: usize,
    /// Whether a click removes it (at least the rules' smallest group).
    legal: bool,
    /// The points removing it earns (SameGame; 0 under the clicks objective), the clearing bonus
    /// included when it is the last group.
    points: u32,
}

/// What a click did, as JS reads it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ClickReport {
    colour: u8,
    /// The cells removed (indices before the click).
    cells: Vec<usize>,
    /// `[from, to]` of every pile left, before and after the click.
    moved: Vec<(usize, usize)>,
    points: u32,
    score: u32,
    clicks: usize,
    over: bool,
    cleared: bool,
}

/// A hint, as JS reads it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct HintReport {
    /// The cell to click (row-major) and its group.
    cell: usize,
    group: Vec<usize>,
    /// Dust: clicks left on the line found (this one included; 0 for the greedy click on boards
    /// the exact solver does not take); whether that line is proved the fewest. SameGame: the score the line found reaches from here (this move's points included).
    clicks_left: usize,
    optimal: bool,
    line_score: u32,
    /// "exact", "best-found" (dust, the solver's budget ran out), "greedy" (dust, a board the
    /// exact solver does not take) or "nmcs" (SameGame).
    method: &'static str,
}

/// The exact solver's answer, as JS reads it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ExactReport {
    /// The clicks as row-major cells of the board before each.
    cells: Vec<usize>,
    optimal: bool,
    lower_bound: usize,
    nodes: f64,
    table: usize,
    /// Whether the caller stopped it (its callback returned false).
    stopped: bool,
}

/// A Monte Carlo search's answer, as JS reads it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct SearchReport {
    /// The moves as row-major cells of the board before each.
    cells: Vec<usize>,
    /// The score the moves add to the current one.
    score: u32,
    cleared: bool,
    playouts: f64,
    seconds: f64,
}

/// A game of the dust puzzle or SameGame as the page plays it: the board, the clicks so far (with
/// a history for undo) and the score.
#[wasm_bindgen]
pub struct SameGameHandle {
    start: Board,
    board: Board,
    /// The board and score before each click so far.
    history: Vec<(Board, u32)>,
    score: u32,
    seed: Option<u64>,
}

fn rules_named(name: &str) -> Result<Rules, JsValue> {
    Rules::named(name)
        .ok_or_else(|| js_error(format!("unknown rules \"{name}\": use dust or samegame")))
}

impl SameGameHandle {
    fn with_board(board: Board, seed: Option<u64>) -> SameGameHandle {
        SameGameHandle {
            start: board.clone(),
            board,
            history: Vec::new(),
            score: 0,
            seed,
        }
    }

    fn cell_of(&self, (col, row): (usize, usize)) -> usize {
        row * self.board.width() + col
    }

    fn check_cell(&self, cell: usize) -> Result<(), JsValue> {
        if cell < self.board.cells().len() {
            Ok(())
        } else {
            Err(js_error(format!("cell {cell} is not on the board")))
        }
    }

    /// Names `(column, row)` clicks as row-major cells (the width never changes).
    fn cells_of_clicks(&self, clicks: &[(usize, usize)]) -> Vec<usize> {
        clicks.iter().map(|&click| self.cell_of(click)).collect()
    }

    /// The points of a group of `size` on the board as it stands (the bonus when it is all that is
    /// left).
    fn points_of(&self, size: usize) -> u32 {
        if self.board.rules().objective != Objective::Score {
            return 0;
        }
        let bonus = if size == self.board.piles() {
            CLEAR_BONUS
        } else {
            0
        };
        group_score(size) + bonus
    }
}

#[wasm_bindgen]
impl SameGameHandle {
    /// A random board under the named rules ("dust": 8 × 6, 5 colours, fewest clicks; "samegame":
    /// 15 × 15, 5 colours, score); `seed` (a whole number) fixes it.
    #[wasm_bindgen(constructor)]
    pub fn new(rules: &str, seed: f64) -> Result<SameGameHandle, JsValue> {
        let rules = rules_named(rules)?;
        let seed = seed_of(seed)?;
        let board = Board::random(rules, seed).map_err(js_error)?;
        Ok(SameGameHandle::with_board(board, Some(seed)))
    }

    /// A game from a board text under the named rules' other settings (rows top first, `1`–`9`
    /// colours, `.` empty; any size up to 30 × 30): an error says what is wrong with the text.
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(rules: &str, text: &str) -> Result<SameGameHandle, JsValue> {
        let rules = rules_named(rules)?;
        let board = Board::parse_any(rules, text).map_err(js_error)?;
        Ok(SameGameHandle::with_board(board, None))
    }

    /// "dust" or "samegame".
    #[wasm_bindgen(getter)]
    pub fn rules(&self) -> String {
        match self.board.rules().objective {
            Objective::Clicks => "dust".into(),
            Objective::Score => "samegame".into(),
        }
    }

    /// Columns.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> usize {
        self.board.width()
    }

    /// Rows.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> usize {
        self.board.height()
    }

    /// Colours of the rules (at least the board text's highest).
    #[wasm_bindgen(getter)]
    pub fn colours(&self) -> u8 {
        self.board.rules().colours
    }

    /// The smallest group a click removes (1 dust, 2 SameGame).
    #[wasm_bindgen(getter, js_name = minGroup)]
    pub fn min_group(&self) -> usize {
        self.board.rules().min_group
    }

    /// The seed of a random board; undefined for a board from text.
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> Option<f64> {
        self.seed.map(|s| s as f64)
    }

    /// The cells, row-major, row 0 at the top (0 empty, 1–9 a colour).
    pub fn cells(&self) -> Vec<u8> {
        self.board.cells().to_vec()
    }

    /// Clicks so far (undone ones not counted).
    #[wasm_bindgen(getter)]
    pub fn clicks(&self) -> usize {
        self.history.len()
    }

    /// SameGame's score so far (0 under dust's rules).
    #[wasm_bindgen(getter)]
    pub fn score(&self) -> u32 {
        self.score
    }

    /// Piles left.
    #[wasm_bindgen(getter)]
    pub fn piles(&self) -> usize {
        self.board.piles()
    }

    /// Whether the game is over: the board is empty, or (SameGame) no group of two is left.
    #[wasm_bindgen(getter, js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.board.is_over()
    }

    /// Whether the board is empty.
    #[wasm_bindgen(getter, js_name = isCleared)]
    pub fn is_cleared(&self) -> bool {
        self.board.is_empty()
    }

    /// Whether the exact solver takes this board (dust rules, at most 64 cells, 8 rows and 7
    /// colours); false with the reason in [`SameGameHandle::exact_refusal`].
    #[wasm_bindgen(getter, js_name = exactSupported)]
    pub fn exact_supported(&self) -> bool {
        crate::env::samegame::exact_supports(&self.board).is_ok()
    }

    /// Why the exact solver refuses this board, or undefined.
    #[wasm_bindgen(getter, js_name = exactRefusal)]
    pub fn exact_refusal(&self) -> Option<String> {
        crate::env::samegame::exact_supports(&self.board)
            .err()
            .map(|e| e.to_string())
    }

    /// The group under `cell`: `{ cells, size, legal, points }`, or null on an empty cell.
    pub fn group(&self, cell: usize) -> Result<JsValue, JsValue> {
        self.check_cell(cell)?;
        let cells = self.board.group(cell);
        if cells.is_empty() {
            return Ok(JsValue::NULL);
        }
        let size = cells.len();
        let legal = size >= self.board.rules().min_group;
        to_js(&GroupReport {
            cells,
            size,
            legal,
            points: if legal { self.points_of(size) } else { 0 },
        })
    }

    /// Clicks `cell`: `{ colour, cells, moved: [[from, to]…], points, score, clicks, over,
    /// cleared }`. An empty cell, a group too small or a cell off the board is refused with a
    /// message, and nothing changes.
    pub fn click(&mut self, cell: usize) -> Result<JsValue, JsValue> {
        let before = self.board.clone();
        let removal = self.board.click_cell(cell).map_err(js_error)?;
        self.history.push((before, self.score));
        self.score += removal.points;
        to_js(&ClickReport {
            colour: removal.colour,
            cells: removal.cells,
            moved: removal.moved,
            points: removal.points,
            score: self.score,
            clicks: self.history.len(),
            over: self.board.is_over(),
            cleared: self.board.is_empty(),
        })
    }

    /// Takes back the last click; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((board, score)) => {
                self.board = board;
                self.score = score;
                true
            }
            None => false,
        }
    }

    /// Back to the board the game started from.
    pub fn restart(&mut self) {
        self.board = self.start.clone();
        self.history.clear();
        self.score = 0;
    }

    /// The board as text (what [`SameGameHandle::from_text`] reads).
    #[wasm_bindgen(js_name = toText)]
    pub fn to_text(&self) -> String {
        self.board.to_text()
    }

    /// The board the game started from, as text.
    #[wasm_bindgen(js_name = startText)]
    pub fn start_text(&self) -> String {
        self.start.to_text()
    }

    /// The next click of a quick search, or null when the game is over: `{ cell, group,
    /// clicksLeft, optimal, lineScore, method }`. Dust: the first click of the exact solver's
    /// clearing within a small budget (proved the fewest when `optimal`); SameGame: the first
    /// move of the best game a short nested Monte Carlo search finds. Dust boards the exact
    /// solver does not take (over 64 cells, 8 rows or 7 colours) get the greedy click: the one
    /// that leaves the fewest groups.
    pub fn hint(&self) -> Result<JsValue, JsValue> {
        if self.board.is_over() {
            return Ok(JsValue::NULL);
        }
        let report = match self.board.rules().objective {
            Objective::Clicks if !self.exact_supported() => {
                let cell = self.board.greedy_click().expect("the game is not over");
                HintReport {
                    cell,
                    group: self.board.group(cell),
                    clicks_left: 0,
                    optimal: false,
                    line_score: 0,
                    method: "greedy",
                }
            }
            Objective::Clicks => {
                let limits = ExactLimits {
                    max_nodes: HINT_NODES,
                    max_table: 100_000,
                    beam_width: HINT_BEAM,
                };
                let solution =
                    solve_fewest_clicks(&self.board, limits, &mut |_| true).map_err(js_error)?;
                let cell = self.cell_of(solution.clicks[0]);
                HintReport {
                    cell,
                    group: self.board.group(cell),
                    clicks_left: solution.clicks.len(),
                    optimal: solution.optimal,
                    line_score: 0,
                    method: if solution.optimal {
                        "exact"
                    } else {
                        "best-found"
                    },
                }
            }
            Objective::Score => {
                let limits = McLimits {
                    seed: self.seed.unwrap_or(0) ^ (self.history.len() as u64 + 1),
                    ..McLimits::new(HINT_SECONDS, 1)
                };
                let found = nested_search(&self.board, limits, &mut |_| true);
                let Some(&first) = found.moves.first() else {
                    return Ok(JsValue::NULL);
                };
                let cell = self.cell_of(first);
                HintReport {
                    cell,
                    group: self.board.group(cell),
                    clicks_left: found.moves.len(),
                    optimal: false,
                    line_score: found.score,
                    method: "nmcs",
                }
            }
        };
        to_js(&report)
    }

    /// The fewest clicks that clear the board (the exact solver; dust rules): `{ cells, optimal,
    /// lowerBound, nodes, table, stopped }`. `progress({ nodes, depth, best })` is called between
    /// depths and every 65,536 positions; when it returns false the solver stops and answers the
    /// best clearing found (the greedy one at least) with `optimal: false`. `max_nodes` caps the
    /// positions expanded (0: no cap).
    #[wasm_bindgen(js_name = solveFewestClicks)]
    pub fn solve_fewest_clicks(
        &self,
        progress: &js_sys::Function,
        max_nodes: f64,
    ) -> Result<JsValue, JsValue> {
        let limits = ExactLimits {
            max_nodes: if max_nodes >= 1.0 {
                max_nodes as u64
            } else {
                u64::MAX
            },
            max_table: SOLVE_TABLE,
            ..ExactLimits::default()
        };
        let mut stopped = false;
        let mut callback = |p: ExactProgress| {
            let numbers = [
                ("nodes", p.nodes as f64),
                ("depth", p.depth as f64),
                ("best", p.best as f64),
            ];
            let go_on = go_on(progress, &numbers);
            stopped |= !go_on;
            go_on
        };
        let solution = solve_fewest_clicks(&self.board, limits, &mut callback).map_err(js_error)?;
        to_js(&ExactReport {
            cells: self.cells_of_clicks(&solution.clicks),
            optimal: solution.optimal,
            lower_bound: solution.lower_bound,
            nodes: solution.nodes as f64,
            table: solution.table,
            stopped,
        })
    }

    /// SameGame's best game from here in `seconds` (`algo` "nrpa" at level 2 with 100
    /// iterations a level, or "nmcs" at level 2): `{ cells, score, cleared, playouts, seconds }`;
    /// `score` is what the moves add to the current score. `progress` (optional) is called about
    /// every quarter of a second with `{ best, playouts, seconds }` (`best`: the best whole game's
    /// points from here so far); returning `false` stops the search, which then answers its best
    /// game.
    #[wasm_bindgen(js_name = searchScore)]
    pub fn search_score(
        &self,
        algo: &str,
        seconds: f64,
        seed: f64,
        progress: Option<js_sys::Function>,
    ) -> Result<JsValue, JsValue> {
        if self.board.rules().objective != Objective::Score {
            return Err(js_error(
                "the Monte Carlo searches play for the score: these are the dust puzzle's rules",
            ));
        }
        if !(seconds.is_finite() && seconds > 0.0) {
            return Err(js_error("the time budget must be above 0 seconds"));
        }
        let seed = seed_of(seed)?;
        let limits = McLimits {
            seed,
            ..McLimits::new(seconds, 2)
        };
        let mut callback = |p: McProgress| {
            let numbers = [
                ("best", p.best as f64),
                ("playouts", p.playouts as f64),
                ("seconds", p.seconds),
            ];
            (progress.as_ref()).is_none_or(|progress| go_on(progress, &numbers))
        };
        let found = match algo {
            "nrpa" => nrpa(&self.board, limits, &mut callback),
            "nmcs" => nested_search(&self.board, limits, &mut callback),
            _ => {
                return Err(js_error(format!(
                    "unknown search \"{algo}\": use nrpa or nmcs"
                )))
            }
        };
        to_js(&SearchReport {
            cells: self.cells_of_clicks(&found.moves),
            score: found.score,
            cleared: found.cleared,
            playouts: found.playouts as f64,
            seconds: found.seconds,
        })
    }
}

/// Calls a search's `progress` with `{name: number, …}`; whether to go on (anything but `false`;
/// a callback that throws stops the search).
fn go_on(progress: &js_sys::Function, numbers: &[(&str, f64)]) -> bool {
    let report = js_sys::Object::new();
    for &(name, value) in numbers {
        js_sys::Reflect::set(&report, &name.into(), &value.into()).ok();
    }
    (progress.call1(&JsValue::NULL, &report)).is_ok_and(|answer| answer.as_bool() != Some(false))
}
