//! Sudoku in the page: a game handle ([`SudokuGame`]) that the board view plays on. It holds the
//! puzzle (its givens), the digits placed so far and the puzzle's one solution; it answers with
//! candidates, conflicts, mistakes, the logical solver's hint (named techniques, the cells and
//! units they use) and the puzzle's rating. Pencil marks and undo live in JS (`www/sudoku/`):
//! they are the player's notes, not the puzzle's state.
//!
//! Cells travel as a `Uint8Array` of digits, row-major, 0 for an empty cell; candidates as a
//! `Uint16Array` of bit masks (bit `d` for digit `d`), as [`Grid::candidates`] computes them.

use super::{js_error, seed_of, to_js};
use crate::env::sudoku::{
    generate, hint, one_decimal, rate, search, Difficulty, Grid, Shape, SudokuError,
};
use wasm_bindgen::prelude::*;

/// Full grids the generator may draw for one puzzle: enough for a hard or expert 6 × 6 (they
/// take up to about a hundred draws), a fraction of a second natively.
const MAX_ATTEMPTS: usize = 300;

/// One step of a hint, as JS reads it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct HintStep {
    technique: &'static str,
    rating: f64,
    explanation: String,
    /// `[cell, digit]` pairs.
    placements: Vec<(usize, u8)>,
    /// `[cell, digit]` pairs.
    eliminations: Vec<(usize, u8)>,
    cells: Vec<usize>,
    /// Indices into the shape's units (rows, then columns, then boxes).
    units: Vec<usize>,
    /// The cells of each unit of `units`, for highlighting.
    unit_cells: Vec<Vec<usize>>,
    digits: Vec<u8>,
}

/// The puzzle's rating, as JS reads it.
#[derive(Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct RatingReport {
    /// Whether the techniques finish the puzzle.
    solved: bool,
    rating: f64,
    hardest: Option<&'static str>,
    /// The level the rating falls in (`None` above expert's ceiling).
    difficulty: Option<&'static str>,
    steps: usize,
}

/// A difficulty level for the page's menu.
#[derive(serde::Serialize)]
struct Level {
    name: &'static str,
    /// Exclusive.
    floor: f64,
    /// Inclusive.
    ceiling: f64,
}

/// A game of Sudoku as the page plays it.
#[wasm_bindgen]
pub struct SudokuGame {
    puzzle: Grid,
    grid: Grid,
    solution: Grid,
    seed: Option<u64>,
    rating: Option<RatingReport>,
}

impl SudokuGame {
    /// A game on `puzzle` (rules already checked by the parser): refused unless exactly one grid
    /// completes it.
    fn with_puzzle(puzzle: Grid, seed: Option<u64>) -> Result<SudokuGame, SudokuError> {
        let found = search(&puzzle, 2);
        let solution = match (found.count, found.solution) {
            (1, Some(solution)) => solution,
            (0, _) | (_, None) => return Err(SudokuError::NoSolution),
            _ => return Err(SudokuError::MultipleSolutions),
        };
        Ok(SudokuGame {
            grid: puzzle.clone(),
            puzzle,
            solution,
            seed,
            rating: None,
        })
    }

    fn shape(&self) -> Shape {
        self.puzzle.shape()
    }

    fn check_cell(&self, cell: usize) -> Result<(), JsValue> {
        if cell < self.shape().cells() {
            Ok(())
        } else {
            Err(js_error(format!("cell {cell} is not on the grid")))
        }
    }

    fn cell_name(&self, cell: usize) -> String {
        let n = self.shape().size;
        format!("row {}, column {}", cell / n + 1, cell % n + 1)
    }
}

#[wasm_bindgen]
impl SudokuGame {
    /// A game from a puzzle's text (one line of 16, 36 or 81 cells, or a grid with separators;
    /// `.`, `0` or `_` empty). Refused with the reason when the text is not a grid, two givens
    /// break a rule, or the puzzle has no solution or more than one.
    pub fn parse(text: &str) -> Result<SudokuGame, JsValue> {
        let puzzle = Grid::parse(text).map_err(js_error)?;
        SudokuGame::with_puzzle(puzzle, None).map_err(js_error)
    }

    /// A new puzzle of `size` (4, 6 or 9) at `difficulty` ("easy", "medium", "hard", "expert")
    /// with a unique solution, from `seed` (a whole number: the same seed, the same puzzle).
    pub fn generate(size: usize, difficulty: &str, seed: f64) -> Result<SudokuGame, JsValue> {
        let shape = Shape::with_size(size)
            .ok_or_else(|| js_error(format!("a Sudoku is 4, 6 or 9 cells a side, not {size}")))?;
        let level = Difficulty::from_name(difficulty).ok_or_else(|| {
            js_error(format!(
                "unknown difficulty \"{difficulty}\": use easy, medium, hard or expert"
            ))
        })?;
        let seed = seed_of(seed)?;
        let generated = generate(shape, level, seed, MAX_ATTEMPTS).ok_or_else(|| {
            js_error(format!(
                "no {difficulty} {size} × {size} puzzle turned up in {MAX_ATTEMPTS} grids: try another difficulty or seed"
            ))
        })?;
        let mut game = SudokuGame::with_puzzle(generated.puzzle, Some(seed)).map_err(js_error)?;
        let rating = generated.rating;
        game.rating = Some(RatingReport {
            solved: rating.solved,
            rating: one_decimal(rating.rating),
            hardest: rating.hardest.map(|t| t.name()),
            difficulty: Some(level.name()),
            steps: rating.steps.len(),
        });
        Ok(game)
    }

    /// Cells a side (4, 6 or 9).
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.shape().size
    }

    /// Rows of a box.
    #[wasm_bindgen(getter, js_name = boxRows)]
    pub fn box_rows(&self) -> usize {
        self.shape().box_rows
    }

    /// Columns of a box.
    #[wasm_bindgen(getter, js_name = boxCols)]
    pub fn box_cols(&self) -> usize {
        self.shape().box_cols
    }

    /// The generator's seed, or `undefined` for a puzzle given as text.
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> Option<f64> {
        self.seed.map(|s| s as f64)
    }

    /// The digits shown, row-major (0 empty): givens and the player's.
    pub fn cells(&self) -> Vec<u8> {
        self.grid.cells().to_vec()
    }

    /// The puzzle's givens, row-major (0 empty).
    pub fn givens(&self) -> Vec<u8> {
        self.puzzle.cells().to_vec()
    }

    /// The one solution, row-major.
    pub fn solution(&self) -> Vec<u8> {
        self.solution.cells().to_vec()
    }

    /// The puzzle as one line (`.` empty), for links.
    #[wasm_bindgen(js_name = puzzleText)]
    pub fn puzzle_text(&self) -> String {
        self.puzzle.to_line()
    }

    /// The digits shown as one line (`.` empty).
    pub fn text(&self) -> String {
        self.grid.to_line()
    }

    /// Puts `digit` in `cell` (0 empties it). Givens cannot change; a digit may break a rule
    /// (the page shows the conflict). Returns whether the cell changed.
    pub fn set(&mut self, cell: usize, digit: u8) -> Result<bool, JsValue> {
        self.check_cell(cell)?;
        if digit as usize > self.shape().size {
            let n = self.shape().size;
            return Err(js_error(format!(
                "{digit} does not fit a {n} × {n} grid (digits 1 to {n})"
            )));
        }
        if self.puzzle.get(cell) != 0 {
            return Err(js_error(format!(
                "{} holds a given: it cannot change",
                self.cell_name(cell)
            )));
        }
        let changed = self.grid.get(cell) != digit;
        self.grid.set(cell, digit);
        Ok(changed)
    }

    /// Shows `digits` (row-major, 0 empty; for undo and shared links): the givens must be the
    /// puzzle's. On error nothing changes.
    pub fn restore(&mut self, digits: &[u8]) -> Result<(), JsValue> {
        let grid = Grid::from_cells(digits).map_err(js_error)?;
        if grid.shape() != self.shape() {
            return Err(js_error(format!(
                "{} digits do not fit this {} × {} grid",
                digits.len(),
                self.size(),
                self.size()
            )));
        }
        for (cell, &given) in self.puzzle.cells().iter().enumerate() {
            if given != 0 && grid.get(cell) != given {
                return Err(js_error(format!(
                    "{} must hold the given {given}",
                    self.cell_name(cell)
                )));
            }
        }
        self.grid = grid;
        Ok(())
    }

    /// Every cell's candidates from the digits shown (bit `d` for digit `d`; 0 for a filled cell).
    pub fn candidates(&self) -> Vec<u16> {
        self.grid.candidates()
    }

    /// The cells whose digit shares a unit with an equal digit, sorted.
    pub fn conflicts(&self) -> Vec<u32> {
        self.grid
            .conflicting_cells()
            .into_iter()
            .map(|c| c as u32)
            .collect()
    }

    /// The filled cells whose digit is not the solution's, sorted.
    pub fn mistakes(&self) -> Vec<u32> {
        (0..self.shape().cells())
            .filter(|&c| self.grid.get(c) != 0 && self.grid.get(c) != self.solution.get(c))
            .map(|c| c as u32)
            .collect()
    }

    /// Whether every cell is filled and no rule is broken (then it is the solution).
    #[wasm_bindgen(js_name = isSolved)]
    pub fn is_solved(&self) -> bool {
        self.grid.is_solved()
    }

    /// The next move from the digits shown, as the logical solver finds it: the steps, easiest
    /// technique first, up to and including the first that places a digit; each `{ technique,
    /// rating, explanation, placements, eliminations, cells, units, unitCells, digits }`
    /// (placements and eliminations as `[cell, digit]` pairs). Empty when the grid is full or the
    /// techniques are stuck. Refused while a digit shown is wrong (the hint would reason from it).
    pub fn hint(&self) -> Result<JsValue, JsValue> {
        if let Some(&cell) = self.mistakes().first() {
            return Err(js_error(format!(
                "the {} at {} is not the solution's: take it out first",
                self.grid.get(cell as usize),
                self.cell_name(cell as usize)
            )));
        }
        let shape = self.shape();
        let units = shape.units();
        let steps: Vec<HintStep> = hint(&self.grid)
            .into_iter()
            .map(|step| HintStep {
                technique: step.technique.name(),
                rating: one_decimal(step.rating),
                explanation: step.explain(shape),
                unit_cells: step.units.iter().map(|&u| units[u].clone()).collect(),
                placements: step.placements,
                eliminations: step.eliminations,
                cells: step.cells,
                units: step.units,
                digits: step.digits,
            })
            .collect();
        to_js(&steps)
    }

    /// The puzzle's rating (its givens, not the digits shown): `{ solved, rating, hardest,
    /// difficulty, steps }` on Sudoku Explainer's scale; `difficulty` is the level it falls in.
    pub fn rate(&mut self) -> Result<JsValue, JsValue> {
        if self.rating.is_none() {
            let rating = rate(&self.puzzle);
            self.rating = Some(RatingReport {
                solved: rating.solved,
                rating: one_decimal(rating.rating),
                hardest: rating.hardest.map(|t| t.name()),
                difficulty: Difficulty::of_rating(rating.rating)
                    .filter(|_| rating.solved)
                    .map(|d| d.name()),
                steps: rating.steps.len(),
            });
        }
        to_js(&self.rating)
    }
}

/// The difficulty levels, easiest first: `[{ name, floor, ceiling }]` (the rating is above the
/// floor and at most the ceiling).
#[wasm_bindgen(js_name = sudokuLevels)]
pub fn sudoku_levels() -> Result<JsValue, JsValue> {
    let levels: Vec<Level> = Difficulty::ALL
        .into_iter()
        .map(|d| {
            let (floor, ceiling) = d.range();
            Level {
                name: d.name(),
                floor: one_decimal(floor),
                ceiling: one_decimal(ceiling),
            }
        })
        .collect();
    to_js(&levels)
}

/// Solves every 9 × 9 puzzle of `cells` (81 digits a puzzle, row-major, 0 empty), each up to
/// `limit` solutions, with the exact solver; returns how many have exactly one. For the browser
/// benchmark (scripts/bench-sudoku.mjs): the puzzles arrive decoded, so only solving is timed.
#[wasm_bindgen(js_name = sudokuSolveAll)]
pub fn sudoku_solve_all(cells: &[u8], limit: usize) -> Result<u32, JsValue> {
    if !cells.len().is_multiple_of(81) {
        return Err(js_error(format!(
            "{} digits are not whole 9 × 9 puzzles (81 digits each)",
            cells.len()
        )));
    }
    if let Some(d) = cells.iter().find(|&&d| d > 9) {
        return Err(js_error(format!("{d} is not a digit (0 empty, 1-9)")));
    }
    let mut unique = 0;
    for puzzle in cells.chunks_exact(81) {
        let puzzle: &[u8; 81] = puzzle.try_into().expect("chunks of 81");
        if crate::env::sudoku::solve(puzzle, limit).count == 1 {
            unique += 1;
        }
    }
    Ok(unique)
}
