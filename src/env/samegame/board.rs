//! The board and its rules ([`Rules`]): clusters, removal, the fall, the closing of empty
//! columns (toward the centre for the dust puzzle, to the left for SameGame), the end of the game,
//! SameGame's score, seeded boards and the board text.

use crate::rng::Rng;
use std::fmt;

/// The largest board side.
pub const MAX_SIDE: usize = 30;
/// The most colours (the board text writes them 1–9).
pub const MAX_COLOURS: u8 = 9;
/// SameGame's bonus for clearing the board.
pub const CLEAR_BONUS: u32 = 1000;

/// How columns close once the piles have fallen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Closing {
    /// The dust puzzle's: the board is cut between columns `width / 2 − 1` and `width / 2`;
    /// empty columns disappear and the columns left of the cut close in to the right, those right
    /// of it to the left, so every column keeps its side and the piles gather at the middle.
    Centre,
    /// SameGame's: empty columns disappear and the columns right of them move left.
    Left,
}

impl Closing {
    /// `centre` or `left`.
    pub fn parse(name: &str) -> Option<Closing> {
        match name {
            "centre" | "center" => Some(Closing::Centre),
            "left" => Some(Closing::Left),
            _ => None,
        }
    }

    /// The name [`Closing::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Closing::Centre => "centre",
            Closing::Left => "left",
        }
    }
}

/// What a game is played for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// The fewest clicks to clear the board (the dust puzzle).
    Clicks,
    /// SameGame's score: (n − 2)² for a group of n, +1,000 for clearing the board.
    Score,
}

/// A rule set: the board's size and colours, the smallest group a click removes, the closing
/// and the objective. [`Rules::dust`] and [`Rules::samegame`] are the two named ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Colours of a random board (1 to [`MAX_COLOURS`]).
    pub colours: u8,
    /// The smallest group a click removes: 1 (any pile, the dust puzzle) or 2 (SameGame).
    pub min_group: usize,
    /// How empty columns close.
    pub closing: Closing,
    /// What the game is played for.
    pub objective: Objective,
}

/// Why rules, a board text or a click were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Width or height outside `1..=MAX_SIDE`.
    #[error("a board is 1 to {MAX_SIDE} cells wide and high, not {0} × {1}")]
    Size(usize, usize),
    /// Colours outside `1..=MAX_COLOURS`.
    #[error("a board has 1 to {MAX_COLOURS} colours, not {0}")]
    Colours(u8),
    /// A smallest group other than 1 or 2.
    #[error("the smallest group is 1 or 2 piles, not {0}")]
    MinGroup(usize),
    /// A board text with no rows.
    #[error("board text: no rows")]
    Empty,
    /// A row whose length differs from the first row's.
    #[error("board text: row {row} has {found} cells, row 1 has {expected}")]
    RowLength {
        /// 1-based row.
        row: usize,
        /// The first row's length.
        expected: usize,
        /// This row's length.
        found: usize,
    },
    /// A board text of another size than the rules'.
    #[error("board text: {width} × {height}, the rules want {want_width} × {want_height}")]
    WrongSize {
        /// The text's columns.
        width: usize,
        /// The text's rows.
        height: usize,
        /// The rules' columns.
        want_width: usize,
        /// The rules' rows.
        want_height: usize,
    },
    /// A character the board text does not use.
    #[error("board text: unexpected character {character:?} at row {row}, column {col} (use 1-9 or A-I for colours, . or 0 for empty)")]
    Character {
        /// The character.
        character: char,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// A colour above the rules' number of colours.
    #[error("board text: colour {colour} at row {row}, column {col}, but the rules have {colours} colours")]
    Colour {
        /// The colour.
        colour: u8,
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// The rules' colours.
        colours: u8,
    },
    /// A pile with an empty cell under it: piles always rest on the floor or on a pile.
    #[error("board text: the pile at row {row}, column {col} floats over an empty cell")]
    Floating {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// An empty column where the closing rule leaves none (inside the board).
    #[error("board text: column {col} is empty, but the `{closing}` closing would have closed it")]
    OpenColumn {
        /// 1-based column.
        col: usize,
        /// The closing rule's name.
        closing: &'static str,
    },
    /// A click outside the board.
    #[error("no cell at column {col}, row {row} on a {width} × {height} board")]
    OffBoard {
        /// 0-based column.
        col: usize,
        /// 0-based row.
        row: usize,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A click on an empty cell.
    #[error("the cell at column {col}, row {row} is empty")]
    EmptyCell {
        /// 0-based column.
        col: usize,
        /// 0-based row.
        row: usize,
    },
    /// A click on a group smaller than the rules allow.
    #[error("the group at column {col}, row {row} has {size} pile(s); the rules remove groups of {min} or more")]
    SmallGroup {
        /// 0-based column.
        col: usize,
        /// 0-based row.
        row: usize,
        /// The group's size.
        size: usize,
        /// The rules' smallest group.
        min: usize,
    },
}

impl Rules {
    /// The dust puzzle: 8 wide × 6 high, 5 colours, any pile may be clicked, columns close toward
    /// the centre, played for the fewest clicks.
    pub fn dust() -> Rules {
        Rules {
            width: 8,
            height: 6,
            colours: 5,
            min_group: 1,
            closing: Closing::Centre,
            objective: Objective::Clicks,
        }
    }

    /// SameGame: 15 × 15, 5 colours, groups of 2 or more, columns close to the left, played for
    /// the score.
    pub fn samegame() -> Rules {
        Rules {
            width: 15,
            height: 15,
            colours: 5,
            min_group: 2,
            closing: Closing::Left,
            objective: Objective::Score,
        }
    }

    /// `dust` or `samegame`.
    pub fn named(name: &str) -> Option<Rules> {
        match name {
            "dust" => Some(Rules::dust()),
            "samegame" => Some(Rules::samegame()),
            _ => None,
        }
    }

    /// Checks the sizes, colours and smallest group.
    pub fn check(&self) -> Result<(), BoardError> {
        if !(1..=MAX_SIDE).contains(&self.width) || !(1..=MAX_SIDE).contains(&self.height) {
            return Err(BoardError::Size(self.width, self.height));
        }
        if !(1..=MAX_COLOURS).contains(&self.colours) {
            return Err(BoardError::Colours(self.colours));
        }
        if !(1..=2).contains(&self.min_group) {
            return Err(BoardError::MinGroup(self.min_group));
        }
        Ok(())
    }

    /// The same rules on another board size.
    pub fn with_size(self, width: usize, height: usize) -> Rules {
        Rules {
            width,
            height,
            ..self
        }
    }

    /// A short name of the rules (`dust-8x6-c5`, `samegame-15x15-c5`, or every field spelt out
    /// for other mixes): what saved models record.
    pub fn id(&self) -> String {
        let base = if self.min_group == 1
            && self.closing == Closing::Centre
            && self.objective == Objective::Clicks
        {
            "dust".to_string()
        } else if self.min_group == 2
            && self.closing == Closing::Left
            && self.objective == Objective::Score
        {
            "samegame".to_string()
        } else {
            format!(
                "clusters-min{}-{}-{}",
                self.min_group,
                self.closing.name(),
                match self.objective {
                    Objective::Clicks => "clicks",
                    Objective::Score => "score",
                }
            )
        };
        format!("{base}-{}x{}-c{}", self.width, self.height, self.colours)
    }
}

/// The points a group of `size` piles earns in SameGame: (size − 2)², 0 below 2.
pub fn group_score(size: usize) -> u32 {
    if size < 2 {
        0
    } else {
        ((size - 2) * (size - 2)) as u32
    }
}

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
