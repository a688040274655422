//! Sliding-tile puzzles: the 8-, 15- and 24-puzzle, any rectangle from 2×2 to 5×5, any goal
//! (the blank may be anywhere), and tiles whose labels repeat (the sun/moon preset of the sun/moon README).
//!
//! - [`Board`]: a position (`Copy`, no allocation) and the moves of its blank.
//! - [`SlidingPuzzle`]: a puzzle's definition (size, goal, how tiles are labelled), parsing,
//!   solvability and scrambles.
//! - [`heuristic`]: misplaced tiles, Manhattan, Manhattan + linear conflicts.
//! - [`environment`]: the puzzle as an [`crate::env::Environment`] with the seeds' reward schemes.
//! - [`solve`]: the puzzle as a [`crate::search::SearchProblem`], exact distance tables for small
//!   boards, and one entry point that runs any of the algorithms.

pub mod environment;
pub mod heuristic;
mod parse;
pub mod pdb;
pub mod solve;

use crate::rng::Rng;
use serde::Serialize;
use std::fmt;

pub use environment::{RewardScheme, SlidingEnv, StartRule};
pub use heuristic::{Heuristic, HeuristicTables};

/// The most cells a board may have (5×5).
pub const MAX_CELLS: usize = 25;
/// The smallest and largest number of rows or columns.
pub const SIZE_RANGE: std::ops::RangeInclusive<usize> = 2..=5;
/// The label of the blank cell.
pub const BLANK: u8 = 0;

/// A direction the blank moves in (the tile beside it slides the opposite way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// The blank moves up: the tile above it slides down.
    Up,
    /// The blank moves down: the tile below it slides up.
    Down,
    /// The blank moves left: the tile on its left slides right.
    Left,
    /// The blank moves right: the tile on its right slides left.
    Right,
}

impl Direction {
    /// All four directions, in action order (action `i` is `ALL[i]`).
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The direction that undoes this one.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }

    /// The lowercase name (`"up"`, ...), as used by the CLI and the page.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }

    /// Parses a name as written by [`Direction::name`] (also `u`, `d`, `l`, `r`).
    pub fn from_name(name: &str) -> Option<Direction> {
        match name.trim().to_ascii_lowercase().as_str() {
            "up" | "u" => Some(Direction::Up),
            "down" | "d" => Some(Direction::Down),
            "left" | "l" => Some(Direction::Left),
            "right" | "r" => Some(Direction::Right),
            _ => None,
        }
    }

    /// This direction's action index in environments (`Direction::ALL[index]`).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Everything that can be wrong with a puzzle a person typed, or with a request made of it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// Rows or columns outside 2..=5.
    #[error("a board is 2 to 5 rows by 2 to 5 columns; {rows}×{cols} is not supported")]
    BadSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// The text named a size that is not a size.
    #[error("\"{0}\" is not a size: write it like 3, 4x4 or 2x3")]
    BadSizeText(String),
    /// Nothing was typed.
    #[error("the {what} is empty: type the tiles row by row, 0 or _ for the blank")]
    Empty {
        /// "start" or "goal".
        what: &'static str,
    },
    /// The number of tiles does not fill the board.
    #[error("the {what} has {found} cells but a {rows}×{cols} board has {expected}")]
    WrongCount {
        /// "start" or "goal".
        what: &'static str,
        /// Cells the board has.
        expected: usize,
        /// Cells typed.
        found: usize,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// The rows of a multi-line grid have different lengths or do not match the size.
    #[error("the {what} grid has {found_rows} rows of {found_cols} cells; expected {rows} rows of {cols}")]
    GridShape {
        /// "start" or "goal".
        what: &'static str,
        /// Rows typed.
        found_rows: usize,
        /// Cells in the first row typed.
        found_cols: usize,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A token is not a tile of this puzzle.
    #[error("\"{symbol}\" (cell {position}) is not a tile of this puzzle: {expected}")]
    UnknownSymbol {
        /// The token typed.
        symbol: String,
        /// 1-based cell number.
        position: usize,
        /// What is expected instead.
        expected: String,
    },
    /// A numbered tile appears more than once.
    #[error("tile {tile} appears more than once in the {what}")]
    DuplicateTile {
        /// "start" or "goal".
        what: &'static str,
        /// The repeated tile.
        tile: String,
    },
    /// A numbered tile is missing.
    #[error("tile {tile} is missing from the {what}")]
    MissingTile {
        /// "start" or "goal".
        what: &'static str,
        /// The missing tile.
        tile: String,
    },
    /// No blank cell.
    #[error("the {what} has no blank: mark it with 0 or _")]
    NoBlank {
        /// "start" or "goal".
        what: &'static str,
    },
    /// More than one blank cell.
    #[error("the {what} has {count} blanks; a board has exactly one")]
    ManyBlanks {
        /// "start" or "goal".
        what: &'static str,
        /// Blanks found.
        count: usize,
    },
    /// Start and goal do not carry the same tiles.
    #[error("the start and the goal do not carry the same tiles: the start has {start}, the goal has {goal}")]
    LabelsMismatch {
        /// Tile counts of the start.
        start: String,
        /// Tile counts of the goal.
        goal: String,
    },
    /// An unknown preset name.
    #[error("unknown preset \"{0}\": the presets are {1}")]
    UnknownPreset(String, String),
    /// Cells given do not form a board (internal use of [`Board::new`]).
    #[error("{0}")]
    Invalid(String),
}

/// A position: the label of every cell, row-major, with the blank's index cached.
///
/// `Copy` and allocation-free so that searches can keep millions of them.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; MAX_CELLS],
    rows: u8,
    cols: u8,
    blank: u8,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({}x{} {:?})", self.rows, self.cols, self.cells())
    }
}

impl Board {
    /// A board from row-major labels (`0` = blank). Checks the size and that there is exactly one blank.
    pub fn new(rows: usize, cols: usize, labels: &[u8]) -> Result<Board, PuzzleError> {
        if !SIZE_RANGE.contains(&rows) || !SIZE_RANGE.contains(&cols) {
            return Err(PuzzleError::BadSize { rows, cols });
        }
        if labels.len() != rows * cols {
            return Err(PuzzleError::Invalid(format!(
                "{} labels for a {rows}×{cols} board",
                labels.len()
            )));
        }
        let blanks = labels.iter().filter(|&&l| l == BLANK).count();
        if blanks != 1 {
            return Err(PuzzleError::Invalid(format!(
                "{blanks} blanks; a board has exactly one"
            )));
        }
        let mut cells = [0u8; MAX_CELLS];
        cells[..labels.len()].copy_from_slice(labels);
        let blank = labels.iter().position(|&l| l == BLANK).unwrap_or(0) as u8;
        Ok(Board {
            cells,
            rows: rows as u8,
            cols: cols as u8,
            blank,
        })
    }

    /// The standard goal: tiles `1..n` in order and the blank in the last cell.
    pub fn standard_goal(rows: usize, cols: usize) -> Result<Board, PuzzleError> {
        let n = rows * cols;
        let labels: Vec<u8> = (1..n as u8).chain(std::iter::once(BLANK)).collect();
        Board::new(rows, cols, &labels)
    }

    /// Rows of the board.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Columns of the board.
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.rows() * self.cols()
    }

    /// Always false: a board has at least four cells (present for the `len` convention).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The labels, row-major.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.len()]
    }

    /// The blank's cell index.
    pub fn blank(&self) -> usize {
        self.blank as usize
    }

    /// The cell the blank would move to in `direction`, if that is inside the board.
    pub fn target(&self, direction: Direction) -> Option<usize> {
        let (r, c) = (self.blank() / self.cols(), self.blank() % self.cols());
        match direction {
            Direction::Up if r > 0 => Some(self.blank() - self.cols()),
            Direction::Down if r + 1 < self.rows() => Some(self.blank() + self.cols()),
            Direction::Left if c > 0 => Some(self.blank() - 1),
            Direction::Right if c + 1 < self.cols() => Some(self.blank() + 1),
            _ => None,
        }
    }

    /// Moves the blank; returns false (and changes nothing) at a wall.
    pub fn move_blank(&mut self, direction: Direction) -> bool {
        match self.target(direction) {
            Some(t) => {
                self.cells[self.blank()] = self.cells[t];
                self.cells[t] = BLANK;
                self.blank = t as u8;
                true
            }
            None => false,
        }
    }

    /// The board after moving the blank, or `None` at a wall.
    pub fn moved(&self, direction: Direction) -> Option<Board> {
        let mut next = *self;
        next.move_blank(direction).then_some(next)
    }

    /// The label of the tile that moving the blank in `direction` slides (`None` at a wall).
    pub fn tile_moved_by(&self, direction: Direction) -> Option<u8> {
        self.target(direction).map(|t| self.cells[t])
    }

    /// The blank moves that slide the tile at `index` (and the tiles between it and the blank)
    /// into the blank, when `index` shares the blank's row or column; empty otherwise.
    pub fn moves_to_slide(&self, index: usize) -> Vec<Direction> {
        if index >= self.len() || index == self.blank() {
            return Vec::new();
        }
        let cols = self.cols();
        let (br, bc) = (self.blank() / cols, self.blank() % cols);
        let (r, c) = (index / cols, index % cols);
        let (direction, count) = if r == br {
            if c < bc {
                (Direction::Left, bc - c)
            } else {
                (Direction::Right, c - bc)
            }
        } else if c == bc {
            if r < br {
                (Direction::Up, br - r)
            } else {
                (Direction::Down, r - br)
            }
        } else {
            return Vec::new();
        };
        vec![direction; count]
    }

    /// Applies blank moves in order; stops with `Err(i)` at the first move `i` that hits a wall.
    pub fn apply(&mut self, moves: &[Direction]) -> Result<(), usize> {
        for (i, &d) in moves.iter().enumerate() {
            if !self.move_blank(d) {
                return Err(i);
            }
        }
        Ok(())
    }

    /// The largest label on the board.
    pub fn max_label(&self) -> u8 {
        self.cells().iter().copied().max().unwrap_or(0)
    }

    /// How many tiles carry each label (index = label; index 0 counts the blank).
    pub fn label_counts(&self) -> [u8; MAX_CELLS + 1] {
        let mut counts = [0u8; MAX_CELLS + 1];
        for &l in self.cells() {
            counts[l as usize] += 1;
        }
        counts
    }
}

/// Parity of the permutation taking `from` to `to` (both permutations of the same distinct labels).
fn permutation_parity(from: &[u8], to: &[u8]) -> bool {
    let mut position_in_to = [0usize; MAX_CELLS + 1];
    for (i, &l) in to.iter().enumerate() {
        position_in_to[l as usize] = i;
    }
    let perm: Vec<usize> = from.iter().map(|&l| position_in_to[l as usize]).collect();
    let mut seen = vec![false; perm.len()];
    let mut odd = false;
    for i in 0..perm.len() {
        if seen[i] {
            continue;
        }
        let mut len = 0;
        let mut j = i;
        while !seen[j] {
            seen[j] = true;
            j = perm[j];
            len += 1;
        }
        if len % 2 == 0 {
            odd = !odd;
        }
    }
    odd
}

/// Whether `start` can reach `goal` by sliding (both must carry the same labels).
///
/// Each move is a transposition of the blank with a neighbour, so the parity of the whole
/// permutation (blank included) flips with every move, exactly as the parity of the blank's
/// taxicab distance to its goal cell does. On every board from 2×2 up, all permutations with
/// matching parities are reachable. (For odd widths this is the classic inversion count; for even
/// widths it is the inversion count plus the blank's row difference: the same rule.) With a
/// repeated label, two equal tiles can be swapped in the mapping to fix the parity, so every
/// arrangement with the goal's labels is reachable.
pub fn is_solvable(start: &Board, goal: &Board) -> bool {
    if start.rows != goal.rows
        || start.cols != goal.cols
        || start.label_counts() != goal.label_counts()
    {
        return false;
    }
    let counts = start.label_counts();
    if counts[1..].iter().any(|&c| c > 1) {
        return true;
    }
    let cols = start.cols();
    let (a, b) = (start.blank(), goal.blank());
    let blank_distance = (a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols);
    permutation_parity(start.cells(), goal.cells()) == (blank_distance % 2 == 1)
}

/// How a puzzle's tiles are labelled and shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiles {
    /// Tiles `1..n`, each once.
    Numbered,
    /// A preset's symbolic tiles, which may repeat.
    Symbols(&'static SymbolSet),
}

/// The symbols of a labelled preset: label `i + 1` is `symbols[i]`.
#[derive(Debug, PartialEq, Eq)]
pub struct SymbolSet {
    /// Per label: the symbol shown, the name spoken (ARIA, errors), and other accepted spellings.
    pub symbols: &'static [(&'static str, &'static str, &'static [&'static str])],
}

/// The sun/moon README's symbols: label 1 is a sun, label 2 a moon.
pub static SUN_MOON_SYMBOLS: SymbolSet = SymbolSet {
    symbols: &[
        ("☼", "sun", &["s", "S", "sun", "☀", "*"]),
        ("☾", "moon", &["m", "M", "moon", "☽", "c", "C"]),
    ],
};

/// A named puzzle with a fixed start and goal.
#[derive(Debug)]
pub struct Preset {
    /// Name used in URLs, the CLI and the page.
    pub name: &'static str,
    /// What it is, for people.
    pub description: &'static str,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The start, as text.
    pub start: &'static str,
    /// The goal, as text.
    pub goal: &'static str,
    /// How its tiles are labelled.
    pub tiles: &'static SymbolSet,
}

/// The presets: the sun/moon README's sun/moon game (its exact start and goal, read off the document).
pub static PRESETS: &[Preset] = &[Preset {
    name: "sun-moon",
    description: "4 suns, 4 moons and a blank on 3×3 (the sun/moon README)",
    rows: 3,
    cols: 3,
    start: "☼☼☼ ☾☼☾ ☾_☾",
    goal: "_☾☼ ☾☼☾ ☼☾☼",
    tiles: &SUN_MOON_SYMBOLS,
}];

/// A puzzle: its size, its goal and how its tiles are labelled. Positions are [`Board`]s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlidingPuzzle {
    goal: Board,
    tiles: Tiles,
    preset: Option<&'static str>,
}

impl SlidingPuzzle {
    /// The numbered puzzle of this size with the standard goal (blank last).
    pub fn standard(rows: usize, cols: usize) -> Result<SlidingPuzzle, PuzzleError> {
        Ok(SlidingPuzzle {
            goal: Board::standard_goal(rows, cols)?,
            tiles: Tiles::Numbered,
            preset: None,
        })
    }

    /// A numbered puzzle with the goal typed by a person (`""` means the standard goal).
    pub fn with_goal_text(
        rows: usize,
        cols: usize,
        goal: &str,
    ) -> Result<SlidingPuzzle, PuzzleError> {
        let mut puzzle = SlidingPuzzle::standard(rows, cols)?;
        if !goal.trim().is_empty() {
            puzzle.goal = parse::parse_board(goal, rows, cols, Tiles::Numbered, "goal")?;
        }
        Ok(puzzle)
    }

    /// A preset by name, with its goal; its start is [`SlidingPuzzle::preset_start`].
    pub fn preset(name: &str) -> Result<SlidingPuzzle, PuzzleError> {
        let preset = find_preset(name)?;
        let tiles = Tiles::Symbols(preset.tiles);
        let goal = parse::parse_board(preset.goal, preset.rows, preset.cols, tiles, "goal")?;
        Ok(SlidingPuzzle {
            goal,
            tiles,
            preset: Some(preset.name),
        })
    }

    /// The preset's own start position.
    pub fn preset_start(&self) -> Option<Board> {
        let preset = PRESETS.iter().find(|p| Some(p.name) == self.preset)?;
        self.parse(preset.start).ok()
    }

    /// Replaces the goal with one typed by a person (checked like a start).
    pub fn set_goal_text(&mut self, text: &str) -> Result<(), PuzzleError> {
        let goal = parse::parse_board(text, self.rows(), self.cols(), self.tiles, "goal")?;
        check_same_labels(&self.goal, &goal, self.tiles)?;
        self.goal = goal;
        Ok(())
    }

    /// Parses a position typed by a person: `123456780`, `1 2 3 4 5 6 7 8 0`,
    /// `1,2,3,8,_,4,7,6,5`, a multi-line grid, `0` or `_` for the blank, a preset's symbols.
    /// It must carry exactly the goal's tiles.
    pub fn parse(&self, text: &str) -> Result<Board, PuzzleError> {
        let board = parse::parse_board(text, self.rows(), self.cols(), self.tiles, "start")?;
        check_same_labels(&board, &self.goal, self.tiles)?;
        Ok(board)
    }

    /// Writes a board compactly (`1,2,3,4,5,6,7,8,_`; symbols for presets), as [`Self::parse`] reads it.
    pub fn format(&self, board: &Board) -> String {
        let sep = if matches!(self.tiles, Tiles::Numbered) {
            ","
        } else {
            ""
        };
        board
            .cells()
            .iter()
            .map(|&l| self.symbol(l))
            .map(|s| if s.is_empty() { "_".to_string() } else { s })
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// Writes a board as a grid, one row per line, for terminals.
    pub fn format_grid(&self, board: &Board) -> String {
        let width = (0..=board.max_label())
            .map(|l| self.symbol(l).chars().count())
            .max()
            .unwrap_or(1)
            .max(1);
        board
            .cells()
            .chunks(board.cols())
            .map(|row| {
                row.iter()
                    .map(|&l| {
                        let s = self.symbol(l);
                        format!("{:>width$}", if s.is_empty() { "_".to_string() } else { s })
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The text shown for a label (`""` for the blank).
    pub fn symbol(&self, label: u8) -> String {
        match (label, self.tiles) {
            (BLANK, _) => String::new(),
            (l, Tiles::Numbered) => l.to_string(),
            (l, Tiles::Symbols(set)) => set
                .symbols
                .get(l as usize - 1)
                .map(|s| s.0.to_string())
                .unwrap_or_default(),
        }
    }

    /// The name of a label for people and screen readers (`"5"`, `"sun"`, `"blank"`).
    pub fn label_name(&self, label: u8) -> String {
        match (label, self.tiles) {
            (BLANK, _) => "blank".to_string(),
            (l, Tiles::Numbered) => l.to_string(),
            (l, Tiles::Symbols(set)) => set
                .symbols
                .get(l as usize - 1)
                .map(|s| s.1.to_string())
                .unwrap_or_default(),
        }
    }

    /// Rows of the board.
    pub fn rows(&self) -> usize {
        self.goal.rows()
    }

    /// Columns of the board.
    pub fn cols(&self) -> usize {
        self.goal.cols()
    }

    /// The goal position.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// How tiles are labelled.
    pub fn tiles(&self) -> Tiles {
        self.tiles
    }

    /// The preset's name, if this is a preset.
    pub fn preset_name(&self) -> Option<&'static str> {
        self.preset
    }

    /// Whether `board` is the goal.
    pub fn is_solved(&self, board: &Board) -> bool {
        board == &self.goal
    }

    /// Whether `board` can reach this puzzle's goal.
    pub fn is_solvable(&self, board: &Board) -> bool {
        is_solvable(board, &self.goal)
    }

    /// A position drawn uniformly from all positions that can reach the goal: a uniform shuffle
    /// of the goal's cells, and when it cannot reach the goal, two tiles swapped (a bijection
    /// between the unsolvable and the solvable halves, so the result stays uniform).
    pub fn random_solvable(&self, rng: &mut Rng) -> Board {
        let mut cells = self.goal.cells().to_vec();
        rng.shuffle(&mut cells);
        let mut board =
            Board::new(self.rows(), self.cols(), &cells).expect("a shuffle of the goal");
        if !self.is_solvable(&board) {
            let tiles: Vec<usize> = (0..cells.len())
                .filter(|&i| cells[i] != BLANK)
                .take(2)
                .collect();
            cells.swap(tiles[0], tiles[1]);
            board = Board::new(self.rows(), self.cols(), &cells).expect("a swap of two tiles");
        }
        board
    }

    /// The thesis's scramble: a random walk back from the goal (never undoing the previous move)
    /// until `distance(board) >= difficulty`, or `max_moves` moves.
    pub fn random_walk(
        &self,
        difficulty: u32,
        max_moves: usize,
        rng: &mut Rng,
        mut distance: impl FnMut(&Board) -> u32,
    ) -> Board {
        let mut board = self.goal;
        let mut previous: Option<Direction> = None;
        let mut moves = 0;
        while distance(&board) < difficulty && moves < max_moves {
            previous = Some(walk_step(&mut board, previous, rng));
            moves += 1;
        }
        board
    }

    /// A random walk of exactly `moves` moves back from the goal, never undoing the previous
    /// move (its optimal distance is at most `moves`, and has `moves`' parity).
    pub fn walk(&self, moves: usize, rng: &mut Rng) -> Board {
        let mut board = self.goal;
        let mut previous: Option<Direction> = None;
        for _ in 0..moves {
            previous = Some(walk_step(&mut board, previous, rng));
        }
        board
    }
}

/// One move of a random walk: the blank moves in a random direction that stays on the board and
/// does not undo `previous`; returns the move.
fn walk_step(board: &mut Board, previous: Option<Direction>, rng: &mut Rng) -> Direction {
    let options: Vec<Direction> = Direction::ALL
        .into_iter()
        .filter(|&d| Some(d.opposite()) != previous && board.target(d).is_some())
        .collect();
    let d = *rng.choose(&options);
    board.move_blank(d);
    d
}

fn find_preset(name: &str) -> Result<&'static Preset, PuzzleError> {
    PRESETS
        .iter()
        .find(|p| p.name == name.trim())
        .ok_or_else(|| {
            PuzzleError::UnknownPreset(
                name.to_string(),
                PRESETS
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        })
}

fn describe_counts(board: &Board, tiles: Tiles) -> String {
    let counts = board.label_counts();
    let puzzle = SlidingPuzzle {
        goal: *board,
        tiles,
        preset: None,
    };
    (1..counts.len())
        .filter(|&l| counts[l] > 0)
        .map(|l| format!("{} {}", counts[l], puzzle.label_name(l as u8)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn check_same_labels(a: &Board, b: &Board, tiles: Tiles) -> Result<(), PuzzleError> {
    if a.label_counts() == b.label_counts() {
        Ok(())
    } else {
        Err(PuzzleError::LabelsMismatch {
            start: describe_counts(a, tiles),
            goal: describe_counts(b, tiles),
        })
    }
}

/// Parses a size written as `3`, `4x4`, `2x3` (also `×`, `X`, `*`) into (rows, cols).
pub fn parse_size(text: &str) -> Result<(usize, usize), PuzzleError> {
    let t = text.trim().to_ascii_lowercase().replace(['×', '*'], "x");
    let parts: Vec<&str> = t.split('x').map(str::trim).collect();
    let numbers: Option<Vec<usize>> = parts.iter().map(|p| p.parse().ok()).collect();
    let (rows, cols) = match numbers.as_deref() {
        Some([n]) => (*n, *n),
        Some([r, c]) => (*r, *c),
        _ => return Err(PuzzleError::BadSizeText(text.to_string())),
    };
    if !SIZE_RANGE.contains(&rows) || !SIZE_RANGE.contains(&cols) {
        return Err(PuzzleError::BadSize { rows, cols });
    }
    Ok((rows, cols))
}

#[cfg(test)]
mod tests;
