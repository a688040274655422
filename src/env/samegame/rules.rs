//! The rules of a board ([`Rules`]): its size and colours, the smallest group a click removes, how
//! empty columns close, what the game is played for; the board text's errors ([`BoardError`]) and
//! SameGame's score of a group.

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
                "samegame-min{}-{}-{}",
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
