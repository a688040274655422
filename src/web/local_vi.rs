//! Local value iteration in the page: [`LocalViSolver`] builds the tables of a numbered puzzle's
//! standard goal once (in the solver worker, `www/sliding/solver-worker.js`), then solves boards
//! tile by tile, reporting for every move the sub-problem it belongs to, so that the page can
//! mark the tiles being placed as the solution plays.

use super::{js_error, to_js, Puzzle};
use crate::agent::local_vi::{LocalValueIteration, LocalViConfig, LocalViReport};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The tables of local value iteration (Mehta's tile-by-tile learner, swept exactly) for one goal.
#[wasm_bindgen]
pub struct LocalViSolver {
    learner: LocalValueIteration,
}

/// [`LocalViReport`] with the stage of every move.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PageReport {
    #[serde(flatten)]
    report: LocalViReport,
    /// For each move, the index of its stage in `stages`.
    move_stages: Vec<usize>,
}

#[wasm_bindgen]
impl LocalViSolver {
    /// Builds every table a solvable position of the puzzle's goal can need: about 20 ms and
    /// 50,610 one-byte states on 4×4, seconds and 4.1 million on 5×5. Only numbered puzzles whose
    /// goal is 1, 2, … with the blank last (not the presets, not a typed goal).
    pub fn build(puzzle: &Puzzle) -> Result<LocalViSolver, JsValue> {
        let learner = LocalValueIteration::build(&puzzle.puzzle, LocalViConfig::default())
            .map_err(js_error)?;
        Ok(LocalViSolver { learner })
    }

    /// The tables' sizes and build time: `{tables, states, largest, largestTiles, enlarged,
    /// buildMs}` (one byte a state, so `states` is also their size in bytes; `buildMs` to the
    /// millisecond, from `Date.now`).
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        to_js(self.learner.stats())
    }

    /// Whether these tables serve the puzzle's goal.
    #[wasm_bindgen(js_name = fitsGoalOf)]
    pub fn fits_goal_of(&self, puzzle: &Puzzle) -> bool {
        self.learner.goal() == puzzle.puzzle.goal()
    }

    /// Solves the puzzle's current board: the search report's fields (`status`, `moves`, `tiles`,
    /// `length`, `optimal`, `lower_bound`: Manhattan + linear conflicts, `nodes` 0, `algorithm`
    /// `"local-vi"`), `stages` (`{tiles, through, moves, enlarged}`: G of each sub-problem, in
    /// order), `moveStages` (the stage of each move) and `tables` (as [`LocalViSolver::stats`]).
    /// Status `"unsolvable"` when the board cannot reach the goal.
    pub fn solve(&self, puzzle: &Puzzle) -> Result<JsValue, JsValue> {
        if !self.fits_goal_of(puzzle) {
            return Err(js_error("these tables were built for a different goal"));
        }
        let report = self.learner.report(&puzzle.board);
        let move_stages = report
            .stages
            .iter()
            .enumerate()
            .flat_map(|(i, stage)| std::iter::repeat_n(i, stage.moves))
            .collect();
        to_js(&PageReport {
            report,
            move_stages,
        })
    }
}
