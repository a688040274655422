//! The board under its rules ([`Rules`], in `rules.rs`): groups, removal, the fall, the closing of empty
//! columns (toward the centre for the dust puzzle, to the left for SameGame), the end of the game,
//! seeded boards, canonical forms and the board text.

pub use super::rules::{
    group_score, BoardError, Closing, Objective, Rules, CLEAR_BONUS, MAX_COLOURS, MAX_SIDE,
};
use crate::rng::Rng;
use std::fmt;

/// What one click did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Removal {
    /// The colour removed.
    pub colour: u8,
    /// The cells removed, as row-major indices of the board before the click.
    pub cells: Vec<usize>,
    /// Where each pile left went: `(from, to)` row-major indices, before and after (for
    /// animation).
    pub moved: Vec<(usize, usize)>,
    /// The points earned ([`group_score`], plus [`CLEAR_BONUS`] if the board is now empty, under
    /// the score objective; 0 under the clicks objective).
    pub points: u32,
}

/// A board: `width × height` cells, row-major, row 0 at the top; 0 is empty, 1 to
/// [`MAX_COLOURS`] a pile's colour. A board is always settled: no pile floats over an empty cell,
/// and empty columns sit where the closing rule leaves them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rules: Rules,
    cells: Vec<u8>,
}

impl Board {
    /// A random board under `rules`: each cell's colour drawn uniformly from the seed.
    pub fn random(rules: Rules, seed: u64) -> Result<Board, BoardError> {
        rules.check()?;
        let mut rng = Rng::new(seed);
        let cells = (0..rules.width * rules.height)
            .map(|_| 1 + rng.below(rules.colours as usize) as u8)
            .collect();
        Ok(Board { rules, cells })
    }

    /// Reads a board text: rows top first, one character a cell (`1`–`9` or `A`–`I`/`a`–`i` for
    /// colours 1–9, `.` or `0` for empty); blank lines before and after and spaces around rows
    /// are ignored. The text's size must be the rules' (or `rules` is `None` and the text sets the
    /// size of `default`-like rules: see [`Board::parse_any`]).
    pub fn parse(rules: Rules, text: &str) -> Result<Board, BoardError> {
        rules.check()?;
        let (width, height, cells) = read_cells(text)?;
        if width != rules.width || height != rules.height {
            return Err(BoardError::WrongSize {
                width,
                height,
                want_width: rules.width,
                want_height: rules.height,
            });
        }
        Board::from_cells(rules, cells)
    }

    /// Reads a board text of any size under `rules`' other settings (the size is the text's;
    /// the colours at least the text's highest).
    pub fn parse_any(rules: Rules, text: &str) -> Result<Board, BoardError> {
        let (width, height, cells) = read_cells(text)?;
        let highest = cells.iter().copied().max().unwrap_or(0);
        let rules = Rules {
            width,
            height,
            colours: rules.colours.max(highest).max(1),
            ..rules
        };
        rules.check()?;
        Board::from_cells(rules, cells)
    }

    /// A board from row-major cells, checked (colours, settled).
    pub fn from_cells(rules: Rules, cells: Vec<u8>) -> Result<Board, BoardError> {
        rules.check()?;
        if cells.len() != rules.width * rules.height {
            return Err(BoardError::WrongSize {
                width: cells.len(),
                height: 1,
                want_width: rules.width,
                want_height: rules.height,
            });
        }
        let w = rules.width;
        for (i, &c) in cells.iter().enumerate() {
            if c > rules.colours {
                return Err(BoardError::Colour {
                    colour: c,
                    row: i / w + 1,
                    col: i % w + 1,
                    colours: rules.colours,
                });
            }
        }
        for col in 0..w {
            for row in 0..rules.height - 1 {
                if cells[row * w + col] != 0 && cells[(row + 1) * w + col] == 0 {
                    return Err(BoardError::Floating {
                        row: row + 1,
                        col: col + 1,
                    });
                }
            }
        }
        let board = Board { rules, cells };
        let filled: Vec<bool> = (0..w).map(|c| board.column_height(c) > 0).collect();
        if let Some(col) = open_column(rules.closing, &filled) {
            return Err(BoardError::OpenColumn {
                col: col + 1,
                closing: rules.closing.name(),
            });
        }
        Ok(board)
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.rules.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.rules.height
    }

    /// The cells, row-major, row 0 at the top (0 empty).
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The colour at (`col`, `row`), 0 if empty.
    pub fn get(&self, col: usize, row: usize) -> u8 {
        self.cells[row * self.rules.width + col]
    }

    /// Piles left on the board.
    pub fn piles(&self) -> usize {
        self.cells.iter().filter(|&&c| c != 0).count()
    }

    /// Whether no pile is left.
    pub fn is_empty(&self) -> bool {
        self.cells.iter().all(|&c| c == 0)
    }

    /// Piles in column `col`.
    pub fn column_height(&self, col: usize) -> usize {
        (0..self.rules.height)
            .filter(|&row| self.get(col, row) != 0)
            .count()
    }

    /// The colours still on the board.
    pub fn colours_left(&self) -> usize {
        let mut seen = 0u32;
        for &c in &self.cells {
            if c != 0 {
                seen |= 1 << c;
            }
        }
        seen.count_ones() as usize
    }

    /// The group (cluster) of the pile at row-major index `cell`: every pile of its colour joined
    /// to it through edge neighbours, row-major indices in increasing order; empty if the cell is.
    pub fn group(&self, cell: usize) -> Vec<usize> {
        let colour = self.cells[cell];
        if colour == 0 {
            return Vec::new();
        }
        let (w, h) = (self.rules.width, self.rules.height);
        let mut seen = vec![false; w * h];
        let mut stack = vec![cell];
        let mut group = Vec::new();
        seen[cell] = true;
        while let Some(i) = stack.pop() {
            group.push(i);
            let (col, row) = (i % w, i / w);
            let mut visit = |j: usize| {
                if !seen[j] && self.cells[j] == colour {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if col > 0 {
                visit(i - 1);
            }
            if col + 1 < w {
                visit(i + 1);
            }
            if row > 0 {
                visit(i - w);
            }
            if row + 1 < h {
                visit(i + w);
            }
        }
        group.sort_unstable();
        group
    }

    /// Every group on the board, each once (the cells of each in increasing order), ordered by
    /// their first cell.
    pub fn groups(&self) -> Vec<Vec<usize>> {
        let mut done = vec![false; self.cells.len()];
        let mut groups = Vec::new();
        for cell in 0..self.cells.len() {
            if self.cells[cell] != 0 && !done[cell] {
                let group = self.group(cell);
                for &i in &group {
                    done[i] = true;
                }
                groups.push(group);
            }
        }
        groups
    }

    /// The groups a click may remove (size at least the rules' smallest group).
    pub fn moves(&self) -> Vec<Vec<usize>> {
        let min = self.rules.min_group;
        self.groups()
            .into_iter()
            .filter(|g| g.len() >= min)
            .collect()
    }

    /// Whether a click may remove the group at `cell`.
    pub fn is_legal(&self, cell: usize) -> bool {
        cell < self.cells.len()
            && self.cells[cell] != 0
            && (self.rules.min_group <= 1 || self.group(cell).len() >= self.rules.min_group)
    }

    /// Whether the game is over: the board is empty, or no group is large enough to remove.
    pub fn is_over(&self) -> bool {
        if self.rules.min_group <= 1 {
            return self.is_empty();
        }
        let (w, h) = (self.rules.width, self.rules.height);
        for i in 0..self.cells.len() {
            let c = self.cells[i];
            if c == 0 {
                continue;
            }
            if (i % w + 1 < w && self.cells[i + 1] == c)
                || (i / w + 1 < h && self.cells[i + w] == c)
            {
                return false;
            }
        }
        true
    }

    /// The greedy click: the group whose removal leaves the fewest groups (ties: the largest
    /// group, then the first cell), as its first row-major cell; `None` when the game is over.
    pub fn greedy_click(&self) -> Option<usize> {
        let mut best: Option<(usize, std::cmp::Reverse<usize>, usize)> = None;
        for group in self.moves() {
            let mut after = self.clone();
            after.click_cell(group[0]).expect("a group the rules allow");
            let key = (
                after.groups().len(),
                std::cmp::Reverse(group.len()),
                group[0],
            );
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
        best.map(|b| b.2)
    }

    /// The greedy rule's clearing: [`Board::greedy_click`] until the game is over, as cells
    /// (row-major, of the board before each click).
    pub fn greedy_clearing(&self) -> Vec<usize> {
        let mut board = self.clone();
        let mut cells = Vec::new();
        while let Some(cell) = board.greedy_click() {
            cells.push(cell);
            board.click_cell(cell).expect("a group the rules allow");
        }
        cells
    }

    /// Clicks the pile at (`col`, `row`) (row 0 at the top): removes its group, lets the piles
    /// fall and closes the empty columns. Refused (and nothing changes) off the board, on an
    /// empty cell, or on a group smaller than the rules allow.
    pub fn click(&mut self, col: usize, row: usize) -> Result<Removal, BoardError> {
        let (w, h) = (self.rules.width, self.rules.height);
        if col >= w || row >= h {
            return Err(BoardError::OffBoard {
                col,
                row,
                width: w,
                height: h,
            });
        }
        let cell = row * w + col;
        let colour = self.cells[cell];
        if colour == 0 {
            return Err(BoardError::EmptyCell { col, row });
        }
        let group = self.group(cell);
        if group.len() < self.rules.min_group {
            return Err(BoardError::SmallGroup {
                col,
                row,
                size: group.len(),
                min: self.rules.min_group,
            });
        }
        for &i in &group {
            self.cells[i] = 0;
        }
        let moved = self.settle();
        let mut points = 0;
        if self.rules.objective == Objective::Score {
            points = group_score(group.len());
            if self.is_empty() {
                points += CLEAR_BONUS;
            }
        }
        Ok(Removal {
            colour,
            cells: group,
            moved,
            points,
        })
    }

    /// Clicks the pile at row-major index `cell`.
    pub fn click_cell(&mut self, cell: usize) -> Result<Removal, BoardError> {
        let w = self.rules.width;
        if cell >= self.cells.len() {
            return Err(BoardError::OffBoard {
                col: cell % w,
                row: cell / w,
                width: w,
                height: self.rules.height,
            });
        }
        self.click(cell % w, cell / w)
    }

    /// Lets piles fall and closes empty columns; returns where each pile went (row-major
    /// `(from, to)`, piles that stayed included).
    fn settle(&mut self) -> Vec<(usize, usize)> {
        let (w, h) = (self.rules.width, self.rules.height);
        // Each column's piles, bottom first, with where they were.
        let columns: Vec<Vec<(u8, usize)>> = (0..w)
            .map(|col| {
                (0..h)
                    .rev()
                    .map(|row| row * w + col)
                    .filter(|&i| self.cells[i] != 0)
                    .map(|i| (self.cells[i], i))
                    .collect()
            })
            .collect();
        let filled: Vec<bool> = columns.iter().map(|c| !c.is_empty()).collect();
        let target = closed_positions(self.rules.closing, &filled);
        self.cells.fill(0);
        let mut moved = Vec::with_capacity(self.cells.len());
        for (col, piles) in columns.iter().enumerate() {
            let Some(to_col) = target[col] else { continue };
            for (level, &(colour, from)) in piles.iter().enumerate() {
                let to = (h - 1 - level) * w + to_col;
                self.cells[to] = colour;
                moved.push((from, to));
            }
        }
        moved
    }

    /// This board with its colours renamed in the order they first appear (rows from the bottom,
    /// each left to right) and, on a board of even width closing toward the centre, the smaller
    /// of it and its mirror image. Neither changes the fewest clicks (the rules treat colours
    /// alike, and the centre closing of an even width is symmetric): what
    /// [`SameGameObservation::Counts`](super::SameGameObservation::Counts) encodes, so that a value
    /// network learns one value for all of them.
    pub fn canonical(&self) -> Board {
        let rules = self.rules;
        let (w, h) = (rules.width, rules.height);
        let cells = &self.cells;
        let mirrors: &[bool] = if w % 2 == 0 && rules.closing == Closing::Centre {
            &[false, true]
        } else {
            &[false]
        };
        let mut best: Option<Vec<u8>> = None;
        for &mirror in mirrors {
            let mut rename = [0u8; 256];
            let mut next = 1u8;
            let mut out = vec![0u8; w * h];
            for row in (0..h).rev() {
                for col in 0..w {
                    let from = if mirror { w - 1 - col } else { col };
                    let c = cells[row * w + from];
                    if c != 0 {
                        if rename[c as usize] == 0 {
                            rename[c as usize] = next;
                            next += 1;
                        }
                        out[row * w + col] = rename[c as usize];
                    }
                }
            }
            if best.as_ref().is_none_or(|b| out < *b) {
                best = Some(out);
            }
        }
        Board::from_cells(rules, best.expect("one image at least"))
            .expect("renaming colours and mirroring keep a board settled")
    }

    /// The board text: rows top first, `1`–`9` for colours, `.` for empty, a newline after each
    /// row.
    pub fn to_text(&self) -> String {
        let w = self.rules.width;
        let mut text = String::with_capacity(self.cells.len() + self.rules.height);
        for row in self.cells.chunks(w) {
            for &c in row {
                text.push(if c == 0 { '.' } else { (b'0' + c) as char });
            }
            text.push('\n');
        }
        text
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// Where each column goes once the empty ones close (`None` for an empty column), given which
/// columns hold piles.
pub fn closed_positions(closing: Closing, filled: &[bool]) -> Vec<Option<usize>> {
    let w = filled.len();
    let mut target = vec![None; w];
    match closing {
        Closing::Left => {
            let mut next = 0;
            for col in 0..w {
                if filled[col] {
                    target[col] = Some(next);
                    next += 1;
                }
            }
        }
        Closing::Centre => {
            let cut = w / 2;
            // Left of the cut: pack to the right, ending at column cut − 1.
            let mut next = cut;
            for col in (0..cut).rev() {
                if filled[col] {
                    next -= 1;
                    target[col] = Some(next);
                }
            }
            // Right of the cut: pack to the left, starting at column cut.
            let mut next = cut;
            for col in cut..w {
                if filled[col] {
                    target[col] = Some(next);
                    next += 1;
                }
            }
        }
    }
    target
}

/// The first empty column (0-based) that the closing rule would have closed, if any.
fn open_column(closing: Closing, filled: &[bool]) -> Option<usize> {
    let target = closed_positions(closing, filled);
    (0..filled.len())
        .find(|&col| filled[col] && target[col] != Some(col))
        .map(|col| {
            // Report the empty column that this pile column should have moved across.
            let to = target[col].unwrap();
            let (lo, hi) = if to < col { (to, col) } else { (col, to) };
            (lo..=hi).find(|&c| !filled[c]).unwrap_or(col)
        })
}

/// Reads the cells of a board text (see [`Board::parse`]): width, height, row-major cells.
fn read_cells(text: &str) -> Result<(usize, usize, Vec<u8>), BoardError> {
    let rows: Vec<&str> = text.lines().map(str::trim).collect();
    let first = rows.iter().position(|r| !r.is_empty());
    let last = rows.iter().rposition(|r| !r.is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return Err(BoardError::Empty);
    };
    let rows = &rows[first..=last];
    let width = rows[0].chars().count();
    if rows.len() > MAX_SIDE || width > MAX_SIDE {
        return Err(BoardError::Size(width, rows.len()));
    }
    let mut cells = Vec::with_capacity(width * rows.len());
    for (r, row) in rows.iter().enumerate() {
        let found = row.chars().count();
        if found != width {
            return Err(BoardError::RowLength {
                row: r + 1,
                expected: width,
                found,
            });
        }
        for (c, ch) in row.chars().enumerate() {
            let colour = match ch {
                '.' | '0' => 0,
                '1'..='9' => ch as u8 - b'0',
                'A'..='I' => ch as u8 - b'A' + 1,
                'a'..='i' => ch as u8 - b'a' + 1,
                _ => {
                    return Err(BoardError::Character {
                        character: ch,
                        row: r + 1,
                        col: c + 1,
                    })
                }
            };
            cells.push(colour);
        }
    }
    Ok((width, rows.len(), cells))
}
