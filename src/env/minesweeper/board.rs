//! The minefield: its size and mine count ([`Layout`], the classic [`Level`]s), the first-click
//! rule ([`FirstClick`]), and the game ([`Minefield`]): reveal with the flood fill of zeros,
//! flags and "?" marks, chording, win and loss. Seeded: the same seed and clicks give the same game.

use crate::rng::Rng;
use std::fmt;

/// The largest board side.
pub const MAX_SIDE: usize = 50;

/// A board's size and mine count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Layout {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Mines on the board.
    pub mines: usize,
}

/// The three classic levels (Windows Minesweeper's sizes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// 9 × 9, 10 mines.
    Beginner,
    /// 16 × 16, 40 mines.
    Intermediate,
    /// 30 × 16, 99 mines.
    Expert,
}

impl Level {
    /// The level's layout.
    pub fn layout(self) -> Layout {
        match self {
            Level::Beginner => Layout::new(9, 9, 10),
            Level::Intermediate => Layout::new(16, 16, 40),
            Level::Expert => Layout::new(30, 16, 99),
        }
    }

    /// `beginner`, `intermediate` or `expert`.
    pub fn parse(name: &str) -> Option<Level> {
        match name {
            "beginner" => Some(Level::Beginner),
            "intermediate" => Some(Level::Intermediate),
            "expert" => Some(Level::Expert),
            _ => None,
        }
    }
}

/// Where the mines may not be when the first cell is revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FirstClick {
    /// Mines are placed after the first click, never on the clicked cell (Windows' rule).
    Safe,
    /// Mines are placed after the first click, never on it nor on its neighbours: it opens.
    Opening,
    /// Mines are placed at the start; the first click may hit one.
    None,
}

impl FirstClick {
    /// `safe`, `opening` or `none`.
    pub fn parse(name: &str) -> Option<FirstClick> {
        match name {
            "safe" => Some(FirstClick::Safe),
            "opening" => Some(FirstClick::Opening),
            "none" => Some(FirstClick::None),
            _ => None,
        }
    }

    /// The name [`FirstClick::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            FirstClick::Safe => "safe",
            FirstClick::Opening => "opening",
            FirstClick::None => "none",
        }
    }
}

/// Why a layout, a board text or a click was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MinesError {
    /// Width or height outside `1..=MAX_SIDE`.
    #[error("a board is 1 to {MAX_SIDE} cells wide and high, not {0} × {1}")]
    Size(usize, usize),
    /// More mines than the first-click rule leaves room for.
    #[error("{mines} mines do not fit on {width} × {height} with the first-click rule \"{rule}\" (at most {most})")]
    TooManyMines {
        /// Mines asked for.
        mines: usize,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
        /// The rule.
        rule: &'static str,
        /// The most that fit.
        most: usize,
    },
    /// A board text whose rows differ in length or whose size is not the one expected.
    #[error("board text: {0}")]
    Shape(String),
    /// A character a board text does not use.
    #[error("board text: unexpected character {character:?} at row {row}, column {col} (use . * F f ? 0-8)")]
    Character {
        /// The character.
        character: char,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// A revealed number that the mines around it contradict.
    #[error("board text: the {shown} at row {row}, column {col} has {actual} mines around it")]
    WrongNumber {
        /// The number written.
        shown: u8,
        /// The mines around it.
        actual: u8,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// A cell outside the board.
    #[error("cell {0} is not on the board")]
    Cell(usize),
}

impl Layout {
    /// A layout (not yet checked: see [`Layout::check`]).
    pub const fn new(width: usize, height: usize, mines: usize) -> Layout {
        Layout {
            width,
            height,
            mines,
        }
    }

    /// Cells on the board.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The most mines the rule leaves room for, for a first click anywhere on this board.
    pub fn most_mines(&self, rule: FirstClick) -> usize {
        let cells = self.cells();
        match rule {
            FirstClick::None => cells,
            FirstClick::Safe => cells - 1,
            // The first click may be in the middle: nine cells stay free (fewer on a thin board).
            FirstClick::Opening => cells - self.width.min(3) * self.height.min(3),
        }
    }

    /// Checks the size and that the mines fit under the first-click rule.
    pub fn check(&self, rule: FirstClick) -> Result<(), MinesError> {
        if !(1..=MAX_SIDE).contains(&self.width) || !(1..=MAX_SIDE).contains(&self.height) {
            return Err(MinesError::Size(self.width, self.height));
        }
        let most = self.most_mines(rule);
        if self.mines > most {
            return Err(MinesError::TooManyMines {
                mines: self.mines,
                width: self.width,
                height: self.height,
                rule: rule.name(),
                most,
            });
        }
        Ok(())
    }

    /// The cell at `(col, row)`.
    pub fn cell(&self, col: usize, row: usize) -> usize {
        row * self.width + col
    }

    /// The neighbours of `cell` (up to eight), in reading order.
    pub fn neighbours(&self, cell: usize) -> Neighbours {
        let (w, h) = (self.width as isize, self.height as isize);
        let (col, row) = ((cell % self.width) as isize, (cell / self.width) as isize);
        let mut out = Neighbours {
            cells: [0; 8],
            len: 0,
        };
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (c, r) = (col + dx, row + dy);
                if (dx, dy) != (0, 0) && (0..w).contains(&c) && (0..h).contains(&r) {
                    out.cells[out.len] = (r * w + c) as u16;
                    out.len += 1;
                }
            }
        }
        out
    }
}

/// Up to eight neighbouring cells (no allocation).
#[derive(Clone, Copy, Debug)]
pub struct Neighbours {
    cells: [u16; 8],
    len: usize,
}

impl Neighbours {
    /// The cells as a slice.
    pub fn as_slice(&self) -> &[u16] {
        &self.cells[..self.len]
    }

    /// The cells as indices.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.as_slice().iter().map(|&c| c as usize)
    }
}

/// What the player sees of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Covered and unmarked.
    Covered,
    /// Covered with a flag.
    Flagged,
    /// Covered with a "?" mark.
    Marked,
    /// Revealed: the number of mines around it.
    Revealed(u8),
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Nothing revealed yet (under `safe` and `opening` the mines are not placed yet).
    Ready,
    /// Being played.
    Playing,
    /// Every safe cell revealed.
    Won,
    /// A mine revealed: the cell.
    Lost(usize),
}

/// What revealing, chording or flagging did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Cells revealed, in flood-fill order.
    pub revealed: Vec<usize>,
    /// The mine that went off, if one did.
    pub exploded: Option<usize>,
}

/// One game of Minesweeper.
#[derive(Clone, Debug)]
pub struct Minefield {
    layout: Layout,
    rule: FirstClick,
    rng: Rng,
    mines: Vec<bool>,
    placed: bool,
    cells: Vec<Cell>,
    status: Status,
    covered_safe: usize,
    no_guess: bool,
    attempts: usize,
}

/// Boards tried at most when generating a no-guess board (then the last one is kept and
/// [`Minefield::no_guess_found`] says so).
pub const NO_GUESS_ATTEMPTS: usize = 20_000;

/// A complete snapshot of a game (what [`crate::env::Environment::State`] needs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MinefieldState {
    /// What the player sees.
    pub cells: Vec<Cell>,
    /// The mines (all `false` before they are placed).
    pub mines: Vec<bool>,
    /// Where the game stands.
    pub status: Status,
}

impl Minefield {
    /// A new game: `seed` fixes where the mines go. Under [`FirstClick::None`] they are placed now;
    /// otherwise at the first reveal, away from it.
    pub fn new(layout: Layout, rule: FirstClick, seed: u64) -> Result<Minefield, MinesError> {
        layout.check(rule)?;
        let cells = layout.cells();
        let mut game = Minefield {
            layout,
            rule,
            rng: Rng::new(seed),
            mines: vec![false; cells],
            placed: false,
            cells: vec![Cell::Covered; cells],
            status: Status::Ready,
            covered_safe: cells - layout.mines,
            no_guess: false,
            attempts: 0,
        };
        if rule == FirstClick::None {
            game.place_mines(&[]);
        }
        Ok(game)
    }

    /// A game from a board text (what [`Minefield::to_text`] writes): the mines are where the
    /// text puts them, revealed cells are revealed, flags and marks kept; its rule is `none`.
    pub fn parse(text: &str) -> Result<Minefield, MinesError> {
        let rows: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .collect();
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.chars().count());
        if let Some((i, r)) = rows
            .iter()
            .enumerate()
            .find(|(_, r)| r.chars().count() != width)
        {
            return Err(MinesError::Shape(format!(
                "row {} has {} cells, row 1 has {width}",
                i + 1,
                r.chars().count()
            )));
        }
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(MinesError::Size(width, height));
        }
        let layout = Layout::new(width, height, 0);
        let mut mines = vec![false; layout.cells()];
        let mut cells = vec![Cell::Covered; layout.cells()];
        let mut shown = vec![None; layout.cells()];
        for (row, r) in rows.iter().enumerate() {
            for (col, character) in r.chars().enumerate() {
                let cell = layout.cell(col, row);
                match character {
                    '.' => {}
                    '*' => mines[cell] = true,
                    'F' => {
                        mines[cell] = true;
                        cells[cell] = Cell::Flagged;
                    }
                    'f' => cells[cell] = Cell::Flagged,
                    '?' => cells[cell] = Cell::Marked,
                    '0'..='8' => shown[cell] = Some(character as u8 - b'0'),
                    _ => {
                        return Err(MinesError::Character {
                            character,
                            row: row + 1,
                            col: col + 1,
                        })
                    }
                }
            }
        }
        let mine_count = mines.iter().filter(|&&m| m).count();
        let layout = Layout::new(width, height, mine_count);
        let mut game = Minefield {
            layout,
            rule: FirstClick::None,
            rng: Rng::new(0),
            mines,
            placed: true,
            cells,
            status: Status::Ready,
            covered_safe: layout.cells() - mine_count,
            no_guess: false,
            attempts: 0,
        };
        for (cell, number) in shown.iter().enumerate() {
            if let Some(number) = *number {
                let actual = game.mines_around(cell);
                if actual != number {
                    return Err(MinesError::WrongNumber {
                        shown: number,
                        actual,
                        row: cell / width + 1,
                        col: cell % width + 1,
                    });
                }
                game.cells[cell] = Cell::Revealed(number);
                game.covered_safe -= 1;
            }
        }
        if game.covered_safe == 0 {
            game.status = Status::Won;
        } else if shown.iter().any(Option::is_some) {
            game.status = Status::Playing;
        }
        Ok(game)
    }

    /// The board as text: `.` covered, `*` covered mine, `F` flagged mine, `f` wrong flag, `?`
    /// mark, digits revealed (what [`Minefield::parse`] reads back).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for row in 0..self.layout.height {
            for col in 0..self.layout.width {
                let cell = self.layout.cell(col, row);
                out.push(match (self.cells[cell], self.mines[cell]) {
                    (Cell::Revealed(n), _) => (b'0' + n) as char,
                    (Cell::Flagged, true) => 'F',
                    (Cell::Flagged, false) => 'f',
                    (Cell::Marked, _) => '?',
                    (Cell::Covered, true) => '*',
                    (Cell::Covered, false) => '.',
                });
            }
            out.push('\n');
        }
        out
    }

    /// A new game whose mines, placed at the first reveal (away from it as `rule` says; `none`
    /// acts as `safe` here), leave nothing to guess: from that reveal on, the numbers and the
    /// mine count always prove some covered cell safe (the solver's certain deductions, exact
    /// [`super::analyse`] included). Boards are drawn from `seed` until one is, at most
    /// [`NO_GUESS_ATTEMPTS`].
    pub fn new_no_guess(
        layout: Layout,
        rule: FirstClick,
        seed: u64,
    ) -> Result<Minefield, MinesError> {
        let rule = if rule == FirstClick::None {
            FirstClick::Safe
        } else {
            rule
        };
        let mut game = Minefield::new(layout, rule, seed)?;
        game.no_guess = true;
        Ok(game)
    }

    /// Whether this game was asked to be free of guesses.
    pub fn is_no_guess(&self) -> bool {
        self.no_guess
    }

    /// Boards drawn before a no-guess one was found (0 before the first reveal or for an
    /// ordinary game).
    pub fn no_guess_attempts(&self) -> usize {
        self.attempts
    }

    /// Whether a no-guess game found its board (`false` before the first reveal, for an
    /// ordinary game, or when every attempt needed a guess: then the last board is played).
    pub fn no_guess_found(&self) -> bool {
        self.no_guess && (1..=NO_GUESS_ATTEMPTS).contains(&self.attempts)
    }

    /// Draws boards until one needs no guess from `first`.
    fn place_no_guess(&mut self, first: usize, free: &[usize]) {
        for attempt in 1..=NO_GUESS_ATTEMPTS {
            self.mines.fill(false);
            self.place_mines(free);
            self.attempts = attempt;
            let mut trial = self.clone();
            trial.no_guess = false;
            trial.status = Status::Playing;
            trial.flood(first, &mut Vec::new());
            if trial.covered_safe == 0 || super::play::solves_without_guessing(&mut trial) {
                return;
            }
        }
        self.attempts = NO_GUESS_ATTEMPTS + 1;
    }

    fn place_mines(&mut self, free: &[usize]) {
        let mut candidates: Vec<usize> = (0..self.layout.cells())
            .filter(|c| !free.contains(c))
            .collect();
        // A partial Fisher–Yates: the first `mines` entries are a uniform sample.
        for i in 0..self.layout.mines {
            let j = i + self.rng.below(candidates.len() - i);
            candidates.swap(i, j);
            self.mines[candidates[i]] = true;
        }
        self.placed = true;
    }

    /// The size and mine count.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The first-click rule.
    pub fn rule(&self) -> FirstClick {
        self.rule
    }

    /// What the player sees of each cell.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Whether the game is over (won or lost).
    pub fn is_over(&self) -> bool {
        matches!(self.status, Status::Won | Status::Lost(_))
    }

    /// Whether `cell` holds a mine (`false` everywhere before the mines are placed).
    pub fn is_mine(&self, cell: usize) -> bool {
        self.mines[cell]
    }

    /// Whether the mines have been placed.
    pub fn mines_placed(&self) -> bool {
        self.placed
    }

    /// Safe cells still covered.
    pub fn covered_safe(&self) -> usize {
        self.covered_safe
    }

    /// Flags on the board.
    pub fn flags(&self) -> usize {
        self.cells.iter().filter(|c| **c == Cell::Flagged).count()
    }

    /// Mines around `cell`.
    pub fn mines_around(&self, cell: usize) -> u8 {
        self.layout
            .neighbours(cell)
            .iter()
            .filter(|&n| self.mines[n])
            .count() as u8
    }

    /// A complete snapshot.
    pub fn snapshot(&self) -> MinefieldState {
        MinefieldState {
            cells: self.cells.clone(),
            mines: self.mines.clone(),
            status: self.status,
        }
    }

    /// Reveals `cell` (and, from a zero, every cell the zeros reach). Revealing a revealed or
    /// flagged cell, or any cell once the game is over, does nothing.
    pub fn reveal(&mut self, cell: usize) -> Result<Outcome, MinesError> {
        if cell >= self.cells.len() {
            return Err(MinesError::Cell(cell));
        }
        let mut outcome = Outcome::default();
        if self.is_over() || !matches!(self.cells[cell], Cell::Covered | Cell::Marked) {
            return Ok(outcome);
        }
        if !self.placed {
            let free: Vec<usize> = match self.rule {
                FirstClick::Opening => std::iter::once(cell)
                    .chain(self.layout.neighbours(cell).iter())
                    .collect(),
                _ => vec![cell],
            };
            if self.no_guess {
                self.place_no_guess(cell, &free);
            } else {
                self.place_mines(&free);
            }
        }
        self.status = Status::Playing;
        if self.mines[cell] {
            self.status = Status::Lost(cell);
            outcome.exploded = Some(cell);
            return Ok(outcome);
        }
        self.flood(cell, &mut outcome.revealed);
        if self.covered_safe == 0 {
            self.status = Status::Won;
        }
        Ok(outcome)
    }

    /// Reveals `start` and every cell the zeros from it reach (flags stop the fill).
    fn flood(&mut self, start: usize, revealed: &mut Vec<usize>) {
        let mut stack = vec![start];
        while let Some(cell) = stack.pop() {
            if !matches!(self.cells[cell], Cell::Covered | Cell::Marked) || self.mines[cell] {
                continue;
            }
            let n = self.mines_around(cell);
            self.cells[cell] = Cell::Revealed(n);
            self.covered_safe -= 1;
            revealed.push(cell);
            if n == 0 {
                stack.extend(self.layout.neighbours(cell).iter());
            }
        }
    }

    /// Chords on `cell`: on a revealed number with exactly that many flags around it, reveals
    /// every other covered neighbour (a wrong flag sets off a mine). Anywhere else does nothing.
    pub fn chord(&mut self, cell: usize) -> Result<Outcome, MinesError> {
        if cell >= self.cells.len() {
            return Err(MinesError::Cell(cell));
        }
        let mut outcome = Outcome::default();
        let Cell::Revealed(n) = self.cells[cell] else {
            return Ok(outcome);
        };
        let around = self.layout.neighbours(cell);
        let flags = around
            .iter()
            .filter(|&c| self.cells[c] == Cell::Flagged)
            .count();
        if self.is_over() || n == 0 || flags != n as usize {
            return Ok(outcome);
        }
        for c in around.iter() {
            if !matches!(self.cells[c], Cell::Covered | Cell::Marked) || self.is_over() {
                continue;
            }
            let step = self.reveal(c)?;
            outcome.revealed.extend(step.revealed);
            if step.exploded.is_some() {
                outcome.exploded = step.exploded;
            }
        }
        Ok(outcome)
    }

    /// Cycles a covered cell's mark: none → flag → (with `question_marks`) "?" → none. Revealed
    /// cells and finished games do not change. Returns the cell's new look.
    pub fn toggle_flag(&mut self, cell: usize, question_marks: bool) -> Result<Cell, MinesError> {
        if cell >= self.cells.len() {
            return Err(MinesError::Cell(cell));
        }
        if !self.is_over() {
            self.cells[cell] = match self.cells[cell] {
                Cell::Covered => Cell::Flagged,
                Cell::Flagged if question_marks => Cell::Marked,
                Cell::Flagged | Cell::Marked => Cell::Covered,
                revealed => revealed,
            };
        }
        Ok(self.cells[cell])
    }
}

impl fmt::Display for Minefield {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}
