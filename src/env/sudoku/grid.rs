//! The Sudoku grid: its shapes (4 × 4, 6 × 6, 9 × 9), units, parsing of the usual text formats
//! with typed errors, candidates and the text forms.

use std::fmt;

/// A grid's shape: `size` × `size` cells, boxes of `box_rows` × `box_cols` (`box_rows ·
/// box_cols = size`). Digits are `1..=size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Rows (and columns, and digits).
    pub size: usize,
    /// Rows of a box.
    pub box_rows: usize,
    /// Columns of a box.
    pub box_cols: usize,
}

impl Shape {
    /// The classic 9 × 9 with 3 × 3 boxes.
    pub const CLASSIC: Shape = Shape {
        size: 9,
        box_rows: 3,
        box_cols: 3,
    };
    /// 6 × 6 with boxes of 2 rows × 3 columns (the usual "mini" Sudoku).
    pub const SIX: Shape = Shape {
        size: 6,
        box_rows: 2,
        box_cols: 3,
    };
    /// 4 × 4 with 2 × 2 boxes.
    pub const FOUR: Shape = Shape {
        size: 4,
        box_rows: 2,
        box_cols: 2,
    };

    /// The shapes puzzlelab plays, smallest first.
    pub const ALL: [Shape; 3] = [Shape::FOUR, Shape::SIX, Shape::CLASSIC];

    /// The shape with `cells` cells (16, 36 or 81).
    pub fn with_cells(cells: usize) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.cells() == cells)
    }

    /// The shape `size` × `size` (4, 6 or 9).
    pub fn with_size(size: usize) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.size == size)
    }

    /// Cells of the grid.
    pub fn cells(&self) -> usize {
        self.size * self.size
    }

    /// Boxes across a row of boxes (`size / box_cols`).
    pub fn boxes_across(&self) -> usize {
        self.size / self.box_cols
    }

    /// The box of cell `(row, col)`, numbered row-major.
    pub fn box_of(&self, row: usize, col: usize) -> usize {
        (row / self.box_rows) * self.boxes_across() + col / self.box_cols
    }

    /// Every unit: rows `0..size`, then columns, then boxes (each a list of cell indices).
    pub fn units(&self) -> Vec<Vec<usize>> {
        let n = self.size;
        let mut units = Vec::with_capacity(3 * n);
        for r in 0..n {
            units.push((0..n).map(|c| r * n + c).collect());
        }
        for c in 0..n {
            units.push((0..n).map(|r| r * n + c).collect());
        }
        for b in 0..n {
            let top = (b / self.boxes_across()) * self.box_rows;
            let left = (b % self.boxes_across()) * self.box_cols;
            let mut cells = Vec::with_capacity(n);
            for r in top..top + self.box_rows {
                for c in left..left + self.box_cols {
                    cells.push(r * n + c);
                }
            }
            units.push(cells);
        }
        units
    }

    /// The three units of each cell: `[row, size + col, 2·size + box]` indices into [`Shape::units`].
    pub fn units_of(&self, cell: usize) -> [usize; 3] {
        let (r, c) = (cell / self.size, cell % self.size);
        [r, self.size + c, 2 * self.size + self.box_of(r, c)]
    }

    /// Every cell that shares a unit with `cell` (not `cell` itself), sorted.
    pub fn peers(&self, cell: usize) -> Vec<usize> {
        let (r, c) = (cell / self.size, cell % self.size);
        (0..self.cells())
            .filter(|&o| {
                let (orow, ocol) = (o / self.size, o % self.size);
                o != cell
                    && (orow == r || ocol == c || self.box_of(orow, ocol) == self.box_of(r, c))
            })
            .collect()
    }

    /// The mask of every digit, bits `1..=size`.
    pub fn all_digits(&self) -> u16 {
        ((1u32 << (self.size + 1)) - 2) as u16
    }
}

/// Which kind of unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
}

impl UnitKind {
    /// The kind of unit `unit` (an index into [`Shape::units`]) and its number from 0.
    pub fn of(shape: Shape, unit: usize) -> (UnitKind, usize) {
        let n = shape.size;
        match unit / n {
            0 => (UnitKind::Row, unit),
            1 => (UnitKind::Column, unit - n),
            _ => (UnitKind::Box, unit - 2 * n),
        }
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        })
    }
}

/// Why a text is not a Sudoku puzzle, or a puzzle not a proper one. Rows, columns, lines and
/// boxes count from 1 in the messages (as a person reads a grid).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SudokuError {
    /// The text holds a number of cells other than 16, 36 or 81.
    #[error("a Sudoku has 16, 36 or 81 cells (4 × 4, 6 × 6, 9 × 9); this text has {0}")]
    WrongLength(usize),
    /// A character that is neither a cell (`1`–`9`, `.`, `0`, `_`) nor a separator.
    #[error("unexpected character {character:?} at line {line}, column {column} (cells are 1-9 with . 0 or _ for empty; separators are spaces | - + = ,)")]
    BadCharacter {
        /// The character.
        character: char,
        /// Its line, from 1.
        line: usize,
        /// Its column on that line, from 1 (in characters).
        column: usize,
    },
    /// A digit larger than the grid's size (a 7 in a 6 × 6).
    #[error("the digit {digit} at row {row}, column {col} does not fit a {size} × {size} grid")]
    DigitTooLarge {
        /// The digit.
        digit: u8,
        /// Its row, from 1.
        row: usize,
        /// Its column, from 1.
        col: usize,
        /// The grid's size.
        size: usize,
    },
    /// Two givens break a rule: the same digit twice in a unit.
    #[error("the {digit} at row {}, column {} and the {digit} at row {}, column {} share {kind} {}", first.0 + 1, first.1 + 1, second.0 + 1, second.1 + 1, unit + 1)]
    Conflict {
        /// The digit.
        digit: u8,
        /// The kind of unit they share.
        kind: UnitKind,
        /// That unit's number, from 0.
        unit: usize,
        /// The first cell (row, col), from 0.
        first: (usize, usize),
        /// The second cell (row, col), from 0.
        second: (usize, usize),
    },
    /// The givens break no rule, yet no grid completes them.
    #[error("this puzzle has no solution")]
    NoSolution,
    /// More than one grid completes the givens.
    #[error("this puzzle has more than one solution")]
    MultipleSolutions,
}

/// A grid: digits row-major, 0 for an empty cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

impl Grid {
    /// An empty grid of `shape`.
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            cells: vec![0; shape.cells()],
        }
    }

    /// A grid from its digits (row-major, 0 empty); the shape follows from the length. Digits
    /// too large are refused; rule conflicts are not checked (see [`Grid::conflicts`]).
    pub fn from_cells(cells: &[u8]) -> Result<Grid, SudokuError> {
        let shape = Shape::with_cells(cells.len()).ok_or(SudokuError::WrongLength(cells.len()))?;
        for (i, &d) in cells.iter().enumerate() {
            if d as usize > shape.size {
                return Err(SudokuError::DigitTooLarge {
                    digit: d,
                    row: i / shape.size + 1,
                    col: i % shape.size + 1,
                    size: shape.size,
                });
            }
        }
        Ok(Grid {
            shape,
            cells: cells.to_vec(),
        })
    }

    /// Reads a puzzle from the usual text formats: one line of 16, 36 or 81 cells (`.`, `0` or
    /// `_` empty), or a grid over several lines with any of the separators ` | - + = ,` (and
    /// tabs), as printed by most programs. Then checks that no two givens break a rule.
    /// Whether it has exactly one solution is the solvers' business ([`super::solve`]).
    pub fn parse(text: &str) -> Result<Grid, SudokuError> {
        let mut cells = Vec::with_capacity(81);
        for (line_index, line) in text.lines().enumerate() {
            for (col_index, ch) in line.chars().enumerate() {
                match ch {
                    '1'..='9' => cells.push(ch as u8 - b'0'),
                    '.' | '0' | '_' => cells.push(0),
                    ' ' | '\t' | '|' | '-' | '+' | '=' | ',' | '\r' => {}
                    _ => {
                        return Err(SudokuError::BadCharacter {
                            character: ch,
                            line: line_index + 1,
                            column: col_index + 1,
                        })
                    }
                }
            }
        }
        let grid = Grid::from_cells(&cells)?;
        if let Some(conflict) = grid.conflicts().into_iter().next() {
            return Err(conflict);
        }
        Ok(grid)
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The digits, row-major, 0 empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The digit at `cell` (0 empty).
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets `cell` to `digit` (0 empties it). Panics if `digit > size`.
    pub fn set(&mut self, cell: usize, digit: u8) {
        assert!(digit as usize <= self.shape.size, "digit {digit} too large");
        self.cells[cell] = digit;
    }

    /// Filled cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }

    /// Whether every cell is filled and no rule is broken.
    pub fn is_solved(&self) -> bool {
        self.filled() == self.shape.cells() && self.conflicts().is_empty()
    }

    /// Every pair of equal digits sharing a unit, as [`SudokuError::Conflict`]s, row units first.
    pub fn conflicts(&self) -> Vec<SudokuError> {
        let n = self.shape.size;
        let mut found = Vec::new();
        for (u, unit) in self.shape.units().iter().enumerate() {
            let mut seen = [usize::MAX; 10];
            for &cell in unit {
                let d = self.cells[cell];
                if d == 0 {
                    continue;
                }
                let first = seen[d as usize];
                if first == usize::MAX {
                    seen[d as usize] = cell;
                } else {
                    let (kind, unit) = UnitKind::of(self.shape, u);
                    found.push(SudokuError::Conflict {
                        digit: d,
                        kind,
                        unit,
                        first: (first / n, first % n),
                        second: (cell / n, cell % n),
                    });
                }
            }
        }
        found
    }

    /// The cells whose digit breaks a rule (shares a unit with an equal digit), sorted.
    pub fn conflicting_cells(&self) -> Vec<usize> {
        let n = self.shape.size;
        let mut cells: Vec<usize> = self
            .conflicts()
            .into_iter()
            .flat_map(|c| match c {
                SudokuError::Conflict { first, second, .. } => {
                    vec![first.0 * n + first.1, second.0 * n + second.1]
                }
                _ => vec![],
            })
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// The candidates of every cell as bit masks (bit `d` for digit `d`): the digits no peer
    /// holds for an empty cell, 0 for a filled one.
    pub fn candidates(&self) -> Vec<u16> {
        let shape = self.shape;
        let mut used = vec![0u16; 3 * shape.size];
        for (cell, &d) in self.cells.iter().enumerate() {
            if d != 0 {
                for u in shape.units_of(cell) {
                    used[u] |= 1 << d;
                }
            }
        }
        (0..shape.cells())
            .map(|cell| {
                if self.cells[cell] != 0 {
                    0
                } else {
                    let [a, b, c] = shape.units_of(cell);
                    shape.all_digits() & !(used[a] | used[b] | used[c])
                }
            })
            .collect()
    }

    /// One line, row-major, `.` for an empty cell (the usual exchange format).
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
            .collect()
    }
}

impl fmt::Display for Grid {
    /// The grid over `size` lines with box separators (`|` and `-`), `.` for empty cells; it
    /// parses back with [`Grid::parse`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.shape;
        for r in 0..s.size {
            if r > 0 && r % s.box_rows == 0 {
                let dashes: Vec<String> = (0..s.boxes_across())
                    .map(|_| "-".repeat(2 * s.box_cols + 1))
                    .collect();
                writeln!(f, "{}", dashes.join("+").trim_matches(' '))?;
            }
            let mut line = String::new();
            for c in 0..s.size {
                if c > 0 && c % s.box_cols == 0 {
                    line.push_str("| ");
                }
                let d = self.cells[r * s.size + c];
                line.push(if d == 0 { '.' } else { (b'0' + d) as char });
                line.push(' ');
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}
