//! The wasm-bindgen boundary, and the only `#[wasm_bindgen]` code in the crate.
//!
//! Opaque handles own Rust state ([`Puzzle`], [`SearchJob`], [`QLearningJob`]); results are
//! small: boards as `Uint8Array` (row-major labels, 0 = blank), moves as direction names, reports
//! as plain objects through serde-wasm-bindgen. Every fallible function returns `Result` so that
//! JS receives an `Error` with a message a person can read; nothing panics across the boundary
//! (the panic hook installed at start reports bugs to the console).
//!
//! `www/sliding/solver-worker.js` runs [`SearchJob`] and [`QLearningJob`] in chunks and keeps a
//! [`local_vi::LocalViSolver`] per goal; `www/sliding/board.js` plays on a [`Puzzle`].

use crate::agent::q_table::QLearningConfig;
use crate::env::sliding::pdb::{Partition, PdbHeuristic};
use crate::env::sliding::solve::{
    checked_walk, ExactDistances, SlidingQLearning, SlidingSolver, DEFAULT_WEIGHT, MAX_EXACT_CELLS,
};
use crate::env::sliding::{Board, Direction, Heuristic, HeuristicTables, SlidingPuzzle};
use crate::rng::Rng;
use crate::search::{Algorithm, Limits};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[cfg(feature = "learn")]
pub mod dqn2048;
#[cfg(feature = "learn")]
pub mod dqn_dust;
#[cfg(feature = "learn")]
pub mod dqn_minesweeper;
#[cfg(feature = "learn")]
pub mod dqn_model;
#[cfg(feature = "learn")]
pub mod dqn_sudoku;
pub mod evaluation;
pub mod game2048;
#[cfg(feature = "learn")]
pub mod learn;
#[cfg(feature = "learn")]
pub mod learner;
pub mod local_vi;
pub mod minesweeper;
pub mod ntuple;
pub mod samegame;
pub mod sudoku;
pub mod sudoku_ga;

/// Installs the panic hook once, when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn js_error(message: impl std::fmt::Display) -> JsValue {
    js_sys::Error::new(&message.to_string()).into()
}

fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(js_error)
}

/// `request` read as `T` (a field of the wrong type is a readable error).
pub(crate) fn request_of<T: serde::de::DeserializeOwned>(request: JsValue) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(request).map_err(|e| js_error(format!("request: {e}")))
}

/// `options` read as `T`, or `T::default()` when none are given (not an object); `what` names
/// them in an error ("training options: …").
#[cfg(feature = "learn")]
pub(crate) fn options_or_default<T: serde::de::DeserializeOwned + Default>(
    options: &JsValue,
    what: &str,
) -> Result<T, JsValue> {
    if !options.is_object() {
        return Ok(T::default());
    }
    serde_wasm_bindgen::from_value(options.clone()).map_err(|e| js_error(format!("{what}: {e}")))
}

/// `defaults` with `options`' fields (camelCase) laid over them; `what` names them in an error.
#[cfg(feature = "learn")]
pub(crate) fn laid_over<T: serde::Serialize + serde::de::DeserializeOwned>(
    defaults: &T,
    options: &JsValue,
    what: &str,
) -> Result<T, JsValue> {
    let merged = to_js(defaults)?;
    if options.is_object() {
        js_sys::Object::assign(
            merged.unchecked_ref::<js_sys::Object>(),
            options.unchecked_ref::<js_sys::Object>(),
        );
    }
    serde_wasm_bindgen::from_value(merged).map_err(|e| js_error(format!("{what}: {e}")))
}

/// A seed from JavaScript: a whole number from 0 to 2^53 (what a JS number holds exactly).
pub(crate) fn seed_of(seed: f64) -> Result<u64, JsValue> {
    if seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0 && seed <= 9_007_199_254_740_992.0 {
        Ok(seed as u64)
    } else {
        // Not formatted into the message: float formatting would add kilobytes to the bundle.
        Err(js_error("the seed must be a whole number from 0 to 2^53"))
    }
}

/// `count` when it is from 1 to `max`, else "Evaluate 1 to `max` `what`." (`what`: "games",
/// "boards", …), the words of every evaluation's refusal.
pub(crate) fn count_of(count: usize, max: usize, what: &str) -> Result<usize, JsValue> {
    if (1..=max).contains(&count) {
        return Ok(count);
    }
    let digits = max.to_string();
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    Err(js_error(format!("Evaluate 1 to {grouped} {what}.")))
}

/// A sliding puzzle and its current board, as the page plays it.
#[wasm_bindgen]
pub struct Puzzle {
    puzzle: SlidingPuzzle,
    board: Board,
    /// Built on first use by an exact shuffle (boards of at most 9 cells).
    exact: Option<Rc<ExactDistances>>,
}

impl Puzzle {
    fn new(puzzle: SlidingPuzzle, board: Board) -> Puzzle {
        Puzzle {
            puzzle,
            board,
            exact: None,
        }
    }

    fn exact(&mut self) -> Option<Rc<ExactDistances>> {
        if self.exact.is_none() && self.board.len() <= MAX_EXACT_CELLS {
            self.exact = shared_exact(self.puzzle.goal());
        }
        self.exact.clone()
    }
}

/// Random walks [`Puzzle::shuffle_by_checked_walk`] tries before it leaves the shuffle to the
/// exact-distance table.
const CHECKED_WALK_TRIES: usize = 64;

/// Exact-distance tables kept for this many goals at most (the newest used last).
const SHARED_EXACT_GOALS: usize = 4;

thread_local! {
    /// Exact-distance tables by goal, shared by every handle of this wasm instance: fifty
    /// widgets of the 8-puzzle on one page build the table once (about 40 ms), not once each.
    static EXACT_TABLES: std::cell::RefCell<Vec<(Board, Rc<ExactDistances>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The exact distances to `goal` (boards of at most 9 cells), built once per goal for the whole
/// instance; `None` for larger boards.
pub(crate) fn shared_exact(goal: &Board) -> Option<Rc<ExactDistances>> {
    EXACT_TABLES.with(|tables| {
        let mut tables = tables.borrow_mut();
        if let Some(at) = tables.iter().position(|(g, _)| g == goal) {
            let entry = tables.remove(at);
            let table = entry.1.clone();
            tables.push(entry);
            return Some(table);
        }
        let table = Rc::new(ExactDistances::build(goal)?);
        if tables.len() >= SHARED_EXACT_GOALS {
            tables.remove(0);
        }
        tables.push((*goal, table.clone()));
        Some(table)
    })
}

#[wasm_bindgen]
impl Puzzle {
    /// The numbered puzzle of `rows × cols` (2..=5 each), solved (goal 1..n−1, blank last).
    pub fn standard(rows: usize, cols: usize) -> Result<Puzzle, JsValue> {
        let puzzle = SlidingPuzzle::standard(rows, cols).map_err(js_error)?;
        let board = *puzzle.goal();
        Ok(Puzzle::new(puzzle, board))
    }

    /// A preset (`"sun-moon"`) at its own start.
    pub fn preset(name: &str) -> Result<Puzzle, JsValue> {
        let puzzle = SlidingPuzzle::preset(name).map_err(js_error)?;
        let board = puzzle.preset_start().unwrap_or(*puzzle.goal());
        Ok(Puzzle::new(puzzle, board))
    }

    /// A puzzle from typed text: `goal` `""` keeps the default goal, `preset` `""` means numbered
    /// tiles (then `rows`/`cols` give the size; a preset has its own).
    pub fn parse(
        rows: usize,
        cols: usize,
        start: &str,
        goal: &str,
        preset: &str,
    ) -> Result<Puzzle, JsValue> {
        let mut puzzle = if preset.trim().is_empty() {
            SlidingPuzzle::standard(rows, cols)
        } else {
            SlidingPuzzle::preset(preset)
        }
        .map_err(js_error)?;
        if !goal.trim().is_empty() {
            puzzle
                .set_goal_text(goal)
                .map_err(|e| js_error(format!("goal: {e}")))?;
        }
        let board = puzzle.parse(start).map_err(js_error)?;
        Ok(Puzzle::new(puzzle, board))
    }

    /// Rows of the board.
    #[wasm_bindgen(getter)]
    pub fn rows(&self) -> usize {
        self.puzzle.rows()
    }

    /// Columns of the board.
    #[wasm_bindgen(getter)]
    pub fn cols(&self) -> usize {
        self.puzzle.cols()
    }

    /// The preset's name, or `""` for a numbered puzzle.
    #[wasm_bindgen(getter, js_name = presetName)]
    pub fn preset_name(&self) -> String {
        self.puzzle.preset_name().unwrap_or("").to_string()
    }

    /// The current board, row-major (0 = blank).
    pub fn board(&self) -> Vec<u8> {
        self.board.cells().to_vec()
    }

    /// The goal, row-major (0 = blank).
    pub fn goal(&self) -> Vec<u8> {
        self.puzzle.goal().cells().to_vec()
    }

    /// Display text per label: `symbols()[label]`, `""` for the blank.
    pub fn symbols(&self) -> Vec<String> {
        (0..=self.puzzle.goal().max_label())
            .map(|l| self.puzzle.symbol(l))
            .collect()
    }

    /// A label's name for people and screen readers (`"5"`, `"sun"`, `"blank"`).
    #[wasm_bindgen(js_name = labelName)]
    pub fn label_name(&self, label: u8) -> String {
        self.puzzle.label_name(label)
    }

    /// Whether the board is the goal.
    #[wasm_bindgen(js_name = isSolved)]
    pub fn is_solved(&self) -> bool {
        self.puzzle.is_solved(&self.board)
    }

    /// Whether the board can reach the goal.
    #[wasm_bindgen(js_name = isSolvable)]
    pub fn is_solvable(&self) -> bool {
        self.puzzle.is_solvable(&self.board)
    }

    /// Moves the blank (`"up"`, `"down"`, `"left"`, `"right"`); false at a wall.
    #[wasm_bindgen(js_name = moveBlank)]
    pub fn move_blank(&mut self, direction: &str) -> Result<bool, JsValue> {
        let d = Direction::from_name(direction)
            .ok_or_else(|| js_error(format!("unknown direction \"{direction}\"")))?;
        Ok(self.board.move_blank(d))
    }

    /// Slides the tile at cell `index` and those between it and the blank, if it shares the
    /// blank's row or column. Returns the blank moves made (none otherwise).
    #[wasm_bindgen(js_name = clickTile)]
    pub fn click_tile(&mut self, index: usize) -> Vec<String> {
        let moves = self.board.moves_to_slide(index);
        self.board.apply(&moves).expect("slides stay on the board");
        moves.iter().map(|d| d.name().to_string()).collect()
    }

    /// Scrambles from the goal. Boards of at most 9 cells: a uniformly random position at exactly
    /// `difficulty` optimal moves (clamped to the maximum), returns `"exact"`. Larger boards: the
    /// thesis's random walk until Manhattan + 2·linear conflicts ≥ `difficulty`, returns `"random-walk"`.
    pub fn shuffle(&mut self, difficulty: u32, seed: u32) -> String {
        let mut rng = Rng::new(seed as u64);
        match self.exact() {
            Some(exact) => {
                self.board = exact.random_at(difficulty, &mut rng);
                "exact".into()
            }
            None => {
                let tables = HeuristicTables::new(self.puzzle.goal());
                self.board = self.puzzle.random_walk(difficulty, 100_000, &mut rng, |b| {
                    tables.estimate(b, Heuristic::LinearConflict)
                });
                "random-walk".into()
            }
        }
    }

    /// Scrambles to a position exactly `difficulty` optimal moves from the goal without building
    /// the exact-distance table when it is not built yet (a page or a widget that starts need not
    /// wait for it): a random walk that A* checks ([`checked_walk`], up to 64 walks of boards of at
    /// most 9 cells, presets left out); with the table already built, as [`Puzzle::shuffle`] does.
    /// Returns whether the board is now that far from the goal; when not (every walk came back
    /// closer, a preset or a larger board), the board is unchanged and [`Puzzle::shuffle`] is the
    /// way.
    #[wasm_bindgen(js_name = shuffleByCheckedWalk)]
    pub fn shuffle_by_checked_walk(&mut self, difficulty: u32, seed: u32) -> bool {
        let mut rng = Rng::new(seed as u64);
        if let Some(exact) = &self.exact {
            if difficulty > exact.max_distance() {
                return false;
            }
            self.board = exact.random_at(difficulty, &mut rng);
            return true;
        }
        // A preset's repeated labels leave A*'s linear conflict unproved there: its shuffle is exact.
        if self.board.len() > MAX_EXACT_CELLS || self.puzzle.preset_name().is_some() {
            return false;
        }
        match checked_walk(
            &self.puzzle,
            difficulty,
            CHECKED_WALK_TRIES,
            100_000,
            &mut rng,
        ) {
            Some(board) => {
                self.board = board;
                true
            }
            None => false,
        }
    }

    /// The largest difficulty worth asking [`Puzzle::shuffle`] for.
    #[wasm_bindgen(js_name = maxDifficulty)]
    pub fn max_difficulty(&mut self) -> u32 {
        match self.exact() {
            Some(exact) => exact.max_distance(),
            None => ((self.board.len() - 1) * (self.rows() + self.cols() - 2) / 2) as u32,
        }
    }

    /// Replaces the board with typed text; on error the board is unchanged.
    #[wasm_bindgen(js_name = setBoard)]
    pub fn set_board(&mut self, text: &str) -> Result<(), JsValue> {
        self.board = self.puzzle.parse(text).map_err(js_error)?;
        Ok(())
    }

    /// The board as compact text (`1,2,3,4,5,6,7,8,_`; symbols for presets), for URLs.
    #[wasm_bindgen(js_name = startText)]
    pub fn start_text(&self) -> String {
        self.puzzle.format(&self.board)
    }

    /// The goal as compact text.
    #[wasm_bindgen(js_name = goalText)]
    pub fn goal_text(&self) -> String {
        self.puzzle.format(self.puzzle.goal())
    }
}

/// A search (BFS, A*, weighted A* or IDA*) from a puzzle's current board, run in chunks by the worker.
#[wasm_bindgen]
pub struct SearchJob {
    solver: SlidingSolver,
    report: Option<crate::env::sliding::solve::SolveReport>,
}

#[wasm_bindgen]
impl SearchJob {
    /// Prepares a search. `algorithm`: `bfs`, `astar`, `wastar` (weighted A*), `idastar`;
    /// `heuristic`: `misplaced`, `manhattan`, `linear-conflict`; `node_budget` 0 picks the default
    /// (a million nodes for BFS and A*, whose memory grows by about 200 bytes a node; a billion for IDA*).
    /// `weight` (weighted A* only, from 1 to 100): 0, or left out, picks 2.
    #[wasm_bindgen(constructor)]
    pub fn new(
        puzzle: &Puzzle,
        algorithm: &str,
        heuristic: &str,
        node_budget: f64,
        weight: f64,
    ) -> Result<SearchJob, JsValue> {
        let algorithm = Algorithm::from_name(algorithm)
            .ok_or_else(|| js_error(format!("unknown algorithm \"{algorithm}\"")))?;
        let heuristic = Heuristic::from_name(heuristic)
            .ok_or_else(|| js_error(format!("unknown heuristic \"{heuristic}\"")))?;
        let max_nodes = if node_budget >= 1.0 {
            node_budget as u64
        } else if algorithm == Algorithm::IdaStar {
            1_000_000_000
        } else {
            1_000_000
        };
        let limits = Limits { max_nodes };
        // A caller that leaves `weight` out passes `undefined`, which arrives as NaN.
        let weight = if weight > 0.0 { weight } else { DEFAULT_WEIGHT };
        let solver = match algorithm {
            Algorithm::WeightedAStar => {
                SlidingSolver::weighted(&puzzle.puzzle, puzzle.board, heuristic, weight, limits)
            }
            _ => SlidingSolver::new(&puzzle.puzzle, puzzle.board, algorithm, heuristic, limits),
        }
        .map_err(js_error)?;
        Ok(SearchJob {
            solver,
            report: None,
        })
    }

    /// Prepares IDA* guided by pattern databases (4×4 boards; the databases must be for this
    /// puzzle's goal). `node_budget` 0 means a billion nodes.
    #[wasm_bindgen(js_name = withPatternDatabases)]
    pub fn with_pattern_databases(
        puzzle: &Puzzle,
        databases: &PatternDatabases,
        node_budget: f64,
    ) -> Result<SearchJob, JsValue> {
        let max_nodes = if node_budget >= 1.0 {
            node_budget as u64
        } else {
            1_000_000_000
        };
        let solver = SlidingSolver::with_pattern_databases(
            &puzzle.puzzle,
            puzzle.board,
            databases.heuristic.clone(),
            Limits { max_nodes },
        )
        .map_err(js_error)?;
        Ok(SearchJob {
            solver,
            report: None,
        })
    }

    /// Expands up to `max_nodes` more nodes; true once the search has finished.
    pub fn step(&mut self, max_nodes: f64) -> bool {
        if self.report.is_none() {
            self.report = self.solver.run(max_nodes.max(1.0) as u64);
        }
        self.report.is_some()
    }

    /// Nodes expanded so far.
    #[wasm_bindgen(getter)]
    pub fn nodes(&self) -> f64 {
        self.solver.nodes() as f64
    }

    /// The report (`{status, moves, tiles, length, optimal, lower_bound, weight, nodes,
    /// algorithm, heuristic}`), once finished.
    pub fn result(&self) -> Result<JsValue, JsValue> {
        let report = self
            .report
            .as_ref()
            .ok_or_else(|| js_error("the search has not finished"))?;
        to_js(report)
    }
}

/// The sun/moon README's tabular Q-learning from a puzzle's current board (boards of at most 9 cells).
#[wasm_bindgen]
pub struct QLearningJob {
    learner: SlidingQLearning,
}

#[wasm_bindgen]
impl QLearningJob {
    /// Prepares Q-learning; `config` is `{episodes, maxSteps, alpha, gamma, epsilon, maskIllegal,
    /// seed}`, every field optional (the sun/moon README's values by default).
    #[wasm_bindgen(constructor)]
    pub fn new(puzzle: &Puzzle, config: JsValue) -> Result<QLearningJob, JsValue> {
        let config: QLearningConfig = if config.is_undefined() || config.is_null() {
            QLearningConfig::default()
        } else {
            serde_wasm_bindgen::from_value(config)
                .map_err(|e| js_error(format!("Q-learning settings: {e}")))?
        };
        let learner =
            SlidingQLearning::new(&puzzle.puzzle, puzzle.board, config).map_err(js_error)?;
        Ok(QLearningJob { learner })
    }

    /// Runs up to `episodes` more episodes; true once all configured episodes are done.
    pub fn train(&mut self, episodes: usize) -> bool {
        self.learner.train(episodes)
    }

    /// Episodes trained so far.
    #[wasm_bindgen(getter, js_name = episodesDone)]
    pub fn episodes_done(&self) -> usize {
        self.learner.episodes_done()
    }

    /// The greedy rollout of the table as a report (with `optimalLength`, `episodes`, `states`).
    pub fn result(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.learner.report())
    }
}

/// Additive pattern databases for a 4×4 puzzle's goal: built here, or loaded from a file that
/// `puzzlelab sliding pdb` wrote (the page fetches the shipped ones from `www/models/`).
#[wasm_bindgen]
pub struct PatternDatabases {
    heuristic: Rc<PdbHeuristic>,
}

#[wasm_bindgen]
impl PatternDatabases {
    /// Builds the databases for the puzzle's goal. `partition`: `5-5-5` (about a second) or
    /// `6-6-3` (stronger, several seconds); `progress(fraction)` is called as it goes.
    pub fn build(
        puzzle: &Puzzle,
        partition: &str,
        progress: &js_sys::Function,
    ) -> Result<PatternDatabases, JsValue> {
        let partition = Partition::from_name(partition).ok_or_else(|| {
            js_error(format!("unknown partition \"{partition}\": 6-6-3 or 5-5-5"))
        })?;
        let mut last = -1.0f32;
        let heuristic = PdbHeuristic::build(puzzle.puzzle.goal(), partition, |fraction| {
            if fraction - last >= 0.01 || fraction >= 1.0 {
                last = fraction;
                let _ = progress.call1(&JsValue::NULL, &JsValue::from_f64(fraction as f64));
            }
        })
        .map_err(js_error)?;
        Ok(PatternDatabases {
            heuristic: Rc::new(heuristic),
        })
    }

    /// Reads databases saved by `puzzlelab sliding pdb` (already decompressed), checking that they are
    /// intact and built for the puzzle's goal.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(puzzle: &Puzzle, bytes: &[u8]) -> Result<PatternDatabases, JsValue> {
        let heuristic = PdbHeuristic::from_bytes(bytes, puzzle.puzzle.goal()).map_err(js_error)?;
        Ok(PatternDatabases {
            heuristic: Rc::new(heuristic),
        })
    }

    /// `6-6-3` or `5-5-5`.
    #[wasm_bindgen(getter)]
    pub fn partition(&self) -> String {
        self.heuristic.partition().name().to_string()
    }

    /// Whether the mirrored lookup is used (goal blank on the main diagonal).
    #[wasm_bindgen(getter)]
    pub fn mirrored(&self) -> bool {
        self.heuristic.has_mirror()
    }

    /// Table entries (one byte each in memory).
    #[wasm_bindgen(getter, js_name = tableBytes)]
    pub fn table_bytes(&self) -> usize {
        self.heuristic.table_bytes()
    }

    /// Whether these databases serve the puzzle's goal.
    #[wasm_bindgen(js_name = fitsGoalOf)]
    pub fn fits_goal_of(&self, puzzle: &Puzzle) -> bool {
        self.heuristic.goal() == puzzle.puzzle.goal()
    }

    /// The estimate for the puzzle's current board (a lower bound on its optimal moves).
    pub fn estimate(&self, puzzle: &Puzzle) -> Result<u32, JsValue> {
        if !self.fits_goal_of(puzzle) {
            return Err(js_error(
                "these pattern databases were built for a different goal",
            ));
        }
        Ok(self.heuristic.estimate(&puzzle.board))
    }
}
