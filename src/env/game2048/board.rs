//! The 2048 board: 16 tile exponents packed in the nibbles of a `u64`, its four slides (row
//! tables, merging from the side moved toward, each tile merging at most once), new tiles, and
//! its text form ([`Board::parse`], [`fmt::Display`]).

use crate::rng::Rng;
use std::fmt;
use std::sync::OnceLock;

/// A move: the direction every tile slides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Toward the top row.
    Up,
    /// Toward the right column.
    Right,
    /// Toward the bottom row.
    Down,
    /// Toward the left column.
    Left,
}

impl Move {
    /// All four moves in action order (action `i` is `ALL[i]`; the order of Mehta's RL paper:
    /// up, right, down, left).
    pub const ALL: [Move; 4] = [Move::Up, Move::Right, Move::Down, Move::Left];

    /// The action number of this move.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The move of action `action` (`None` outside `0..4`).
    pub fn from_index(action: usize) -> Option<Move> {
        Move::ALL.get(action).copied()
    }

    /// `up`, `right`, `down` or `left`.
    pub fn name(self) -> &'static str {
        match self {
            Move::Up => "up",
            Move::Right => "right",
            Move::Down => "down",
            Move::Left => "left",
        }
    }
}

/// What a slide did: the afterstate and the score it gained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slide {
    /// The board after the slide, before a new tile appears.
    pub board: Board,
    /// The sum of the values of the tiles merged by the slide.
    pub score: u32,
}

/// Why a text is not a 2048 board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardParseError {
    /// Not 16 cells.
    #[error("a 2048 board has 16 cells, this text has {0}")]
    CellCount(usize),
    /// A cell that is not empty (`0`, `.`, `_`) nor a power of two from 2 to 32768.
    #[error("\"{0}\" is not a tile: use 0, . or _ for an empty cell, else 2, 4, 8, ..., 32768")]
    BadTile(String),
    /// 16 exponents expected.
    #[error("a 2048 board has 16 cells, not {0}")]
    ExponentCount(usize),
    /// An exponent above 15.
    #[error("2^{0} is beyond the largest tile, 2^15")]
    BadExponent(u8),
}

/// A 2048 board: 16 exponents packed in nibbles (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board(pub u64);

/// Row tables: for each 16-bit row (4 exponents, leftmost in the low nibble), the row after a
/// slide to the left and to the right, and the score either slide gains (the same both ways).
struct RowTables {
    left: Vec<u16>,
    right: Vec<u16>,
    score: Vec<u32>,
}

fn reverse_row(row: u16) -> u16 {
    (row >> 12) | ((row >> 4) & 0x00F0) | ((row << 4) & 0x0F00) | (row << 12)
}

/// One row slid toward its low end (left): the rules in one place, used to build the tables.
fn slide_row_left(row: [u8; 4]) -> ([u8; 4], u32) {
    let tiles: Vec<u8> = row.iter().copied().filter(|&t| t != 0).collect();
    let mut out = [0u8; 4];
    let (mut score, mut i, mut k) = (0u32, 0, 0);
    while i < tiles.len() {
        if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] && tiles[i] < 15 {
            out[k] = tiles[i] + 1;
            score += 1 << out[k];
            i += 2;
        } else {
            out[k] = tiles[i];
            i += 1;
        }
        k += 1;
    }
    (out, score)
}

fn row_tables() -> &'static RowTables {
    static TABLES: OnceLock<RowTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut left = vec![0u16; 1 << 16];
        let mut right = vec![0u16; 1 << 16];
        let mut score = vec![0u32; 1 << 16];
        for row in 0..=u16::MAX {
            let cells = [0, 1, 2, 3].map(|i| ((row >> (4 * i)) & 0xF) as u8);
            let (out, gained) = slide_row_left(cells);
            let packed = out
                .iter()
                .enumerate()
                .fold(0u16, |acc, (i, &t)| acc | (t as u16) << (4 * i));
            left[row as usize] = packed;
            score[row as usize] = gained;
            right[reverse_row(row) as usize] = reverse_row(packed);
        }
        RowTables { left, right, score }
    })
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board(0);

    /// A board from 16 exponents, row-major (0 = empty, `e` = the tile 2^e; `e` ≤ 15).
    pub fn from_exponents(exponents: [u8; 16]) -> Board {
        let mut board = 0u64;
        for (cell, &e) in exponents.iter().enumerate() {
            assert!(e < 16, "exponent {e} does not fit a nibble");
            board |= (e as u64) << (4 * cell);
        }
        Board(board)
    }

    /// A board from exponents as a page sends them: 16, row-major, each at most 15.
    pub fn try_from_exponents(exponents: &[u8]) -> Result<Board, BoardParseError> {
        let cells: [u8; 16] =
            (exponents.try_into()).map_err(|_| BoardParseError::ExponentCount(exponents.len()))?;
        match cells.iter().find(|&&e| e > 15) {
            Some(&e) => Err(BoardParseError::BadExponent(e)),
            None => Ok(Board::from_exponents(cells)),
        }
    }

    /// Reads a board from text: 16 tile values row-major (`0`, `.` or `_` for an empty cell),
    /// separated by spaces, commas, `|` or new lines; e.g. `"2 2 4 0 / ..."` as four lines.
    pub fn parse(text: &str) -> Result<Board, BoardParseError> {
        let cells: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | '|' | ';' | '/'))
            .filter(|s| !s.is_empty())
            .collect();
        if cells.len() != 16 {
            return Err(BoardParseError::CellCount(cells.len()));
        }
        let mut exponents = [0u8; 16];
        for (cell, text) in cells.iter().enumerate() {
            exponents[cell] = match *text {
                "0" | "." | "_" => 0,
                _ => {
                    let value: u32 = text
                        .parse()
                        .map_err(|_| BoardParseError::BadTile(text.to_string()))?;
                    if value < 2 || !value.is_power_of_two() || value > 32768 {
                        return Err(BoardParseError::BadTile(text.to_string()));
                    }
                    value.trailing_zeros() as u8
                }
            };
        }
        Ok(Board::from_exponents(exponents))
    }

    /// The 16 exponents, row-major.
    pub fn exponents(self) -> [u8; 16] {
        std::array::from_fn(|cell| self.exponent(cell))
    }

    /// The exponent at `cell` (`4·row + col`): 0 when empty.
    #[inline]
    pub fn exponent(self, cell: usize) -> u8 {
        ((self.0 >> (4 * cell)) & 0xF) as u8
    }

    /// The tile value at `cell` (0 when empty).
    pub fn tile(self, cell: usize) -> u32 {
        match self.exponent(cell) {
            0 => 0,
            e => 1 << e,
        }
    }

    /// The board with exponent `exponent` at `cell`.
    #[inline]
    pub fn with(self, cell: usize, exponent: u8) -> Board {
        let shift = 4 * cell;
        Board((self.0 & !(0xF << shift)) | ((exponent as u64 & 0xF) << shift))
    }

    /// Rows become columns (cell `(r, c)` goes to `(c, r)`).
    #[inline]
    pub fn transpose(self) -> Board {
        let x = self.0;
        let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
        let a2 = x & 0x0000_F0F0_0000_F0F0;
        let a3 = x & 0x0F0F_0000_0F0F_0000;
        let a = a1 | (a2 << 12) | (a3 >> 12);
        let b1 = a & 0xFF00_FF00_00FF_00FF;
        let b2 = a & 0x00FF_00FF_0000_0000;
        let b3 = a & 0x0000_0000_FF00_FF00;
        Board(b1 | (b2 >> 24) | (b3 << 24))
    }

    /// Mirror image left ↔ right.
    #[inline]
    pub fn mirror(self) -> Board {
        let x = self.0;
        Board(
            ((x & 0x000F_000F_000F_000F) << 12)
                | ((x & 0x00F0_00F0_00F0_00F0) << 4)
                | ((x & 0x0F00_0F00_0F00_0F00) >> 4)
                | ((x & 0xF000_F000_F000_F000) >> 12),
        )
    }

    #[inline]
    fn rows_through(self, table: &[u16]) -> (u64, u32) {
        let scores = &row_tables().score;
        let mut out = 0u64;
        let mut score = 0u32;
        for r in 0..4 {
            let row = ((self.0 >> (16 * r)) & 0xFFFF) as usize;
            out |= (table[row] as u64) << (16 * r);
            score += scores[row];
        }
        (out, score)
    }

    /// Slides every tile toward `direction` and merges: the afterstate (no new tile yet) and the
    /// score gained. The board is unchanged when the move is illegal.
    #[inline]
    pub fn slide(self, direction: Move) -> Slide {
        let tables = row_tables();
        let (board, score) = match direction {
            Move::Left => self.rows_through(&tables.left),
            Move::Right => self.rows_through(&tables.right),
            Move::Up => {
                let (b, s) = self.transpose().rows_through(&tables.left);
                (Board(b).transpose().0, s)
            }
            Move::Down => {
                let (b, s) = self.transpose().rows_through(&tables.right);
                (Board(b).transpose().0, s)
            }
        };
        Slide {
            board: Board(board),
            score,
        }
    }

    /// Whether `direction` changes the board.
    pub fn can_move(self, direction: Move) -> bool {
        self.slide(direction).board != self
    }

    /// Whether no move changes the board: the game is over.
    pub fn is_game_over(self) -> bool {
        Move::ALL.iter().all(|&m| !self.can_move(m))
    }

    /// The number of empty cells.
    #[inline]
    pub fn empty_cells(self) -> u32 {
        // A nibble is empty iff none of its four bits is set.
        let x = self.0;
        let occupied = (x | (x >> 1) | (x >> 2) | (x >> 3)) & 0x1111_1111_1111_1111;
        16 - occupied.count_ones()
    }

    /// The largest exponent on the board (0 on the empty board).
    pub fn max_exponent(self) -> u8 {
        (0..16).map(|c| self.exponent(c)).max().unwrap_or(0)
    }

    /// The largest tile's value (0 on the empty board).
    pub fn max_tile(self) -> u32 {
        match self.max_exponent() {
            0 => 0,
            e => 1 << e,
        }
    }

    /// Places a new tile on a uniformly chosen empty cell: exponent 2 (a 4) with probability
    /// `four_probability`, else 1 (a 2). A full board is returned unchanged.
    pub fn spawn(self, rng: &mut Rng, four_probability: f64) -> Board {
        let empty = self.empty_cells();
        if empty == 0 {
            return self;
        }
        let mut nth = rng.below(empty as usize);
        let exponent = if four_probability > 0.0 && rng.chance(four_probability) {
            2
        } else {
            1
        };
        for cell in 0..16 {
            if self.exponent(cell) == 0 {
                if nth == 0 {
                    return self.with(cell, exponent);
                }
                nth -= 1;
            }
        }
        unreachable!("an empty cell was counted")
    }
}

impl fmt::Display for Board {
    /// Four lines of tile values, `.` for an empty cell (the format [`Board::parse`] reads).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..4 {
            let cells: Vec<String> = (0..4)
                .map(|col| match self.tile(4 * row + col) {
                    0 => ".".to_string(),
                    t => t.to_string(),
                })
                .collect();
            write!(f, "{}", cells.join(" "))?;
            if row < 3 {
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A board from its text form (the other files' tests use it too).
    pub(in crate::env::game2048) fn board(text: &str) -> Board {
        Board::parse(text).unwrap()
    }

    fn slid(text: &str, direction: Move) -> (String, u32) {
        let s = board(text).slide(direction);
        (s.board.to_string(), s.score)
    }

    #[test]
    fn rows_merge_from_the_side_moved_toward_and_only_once() {
        let cases = [
            ("2 2 2 2", "4 4 . .", 8),
            ("2 2 2 0", "4 2 . .", 4),
            ("4 2 2 0", "4 4 . .", 4),
            ("2 0 0 2", "4 . . .", 4),
            ("4 4 8 8", "8 16 . .", 24),
            ("2 4 8 16", "2 4 8 16", 0),
            ("0 0 0 2", "2 . . .", 0),
            ("8 0 8 8", "16 8 . .", 16),
            ("2 2 4 4", "4 8 . .", 12),
            ("4 4 4 0", "8 4 . .", 8),
        ];
        for (row, expected, score) in cases {
            let text = format!("{row}\n0 0 0 0\n0 0 0 0\n0 0 0 0");
            let (out, gained) = slid(&text, Move::Left);
            assert_eq!(out.lines().next().unwrap(), expected, "{row} left");
            assert_eq!(gained, score, "{row} left");
        }
        // Right merges from the right: [2,2,2,_] right → [_,_,2,4].
        let (out, score) = slid("2 2 2 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", Move::Right);
        assert_eq!(out.lines().next().unwrap(), ". . 2 4");
        assert_eq!(score, 4);
        let (out, _) = slid("0 4 2 2 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", Move::Right);
        assert_eq!(out.lines().next().unwrap(), ". . 4 4");
    }

    #[test]
    fn all_four_directions_on_a_hand_checked_board() {
        let start = "2 . 2 4 / 2 4 . 4 / 4 . . 8 / 4 8 8 8";
        assert_eq!(
            slid(start, Move::Left),
            ("4 4 . .\n2 8 . .\n4 8 . .\n4 16 8 .".into(), 4 + 8 + 16)
        );
        assert_eq!(
            slid(start, Move::Right),
            (". . 4 4\n. . 2 8\n. . 4 8\n. 4 8 16".into(), 4 + 8 + 16)
        );
        assert_eq!(
            slid(start, Move::Up),
            ("4 4 2 8\n8 8 8 16\n. . . .\n. . . .".into(), 4 + 8 + 8 + 16)
        );
        assert_eq!(
            slid(start, Move::Down),
            (". . . .\n. . . .\n4 4 2 8\n8 8 8 16".into(), 4 + 8 + 8 + 16)
        );
    }

    #[test]
    fn columns_merge_once_from_the_side_moved_toward() {
        let column = "2 . . . / 2 . . . / 2 . . . / 2 . . .";
        assert_eq!(
            slid(column, Move::Up).0.replace('\n', " / "),
            "4 . . . / 4 . . . / . . . . / . . . ."
        );
        let column = "2 . . . / 2 . . . / 2 . . . / . . . .";
        assert_eq!(
            slid(column, Move::Down).0.replace('\n', " / "),
            ". . . . / . . . . / 2 . . . / 4 . . ."
        );
    }

    #[test]
    fn transpose_and_mirror_move_cells_where_they_should() {
        let b = Board::from_exponents(std::array::from_fn(|i| i as u8));
        let t = b.transpose();
        let m = b.mirror();
        for r in 0..4 {
            for c in 0..4 {
                assert_eq!(t.exponent(4 * c + r), b.exponent(4 * r + c));
                assert_eq!(m.exponent(4 * r + (3 - c)), b.exponent(4 * r + c));
            }
        }
        assert_eq!(t.transpose(), b);
        assert_eq!(m.mirror(), b);
    }

    #[test]
    fn parsing_rejects_bad_text_and_round_trips() {
        assert_eq!(Board::parse("2 2"), Err(BoardParseError::CellCount(2)));
        assert!(matches!(
            Board::parse("3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"),
            Err(BoardParseError::BadTile(_))
        ));
        let b = board("2,4,8,16|32,64,128,256|512,1024,2048,4096|8192,16384,32768,_");
        assert_eq!(Board::parse(&b.to_string()).unwrap(), b);
        assert_eq!(b.max_tile(), 32768);
        assert_eq!(b.empty_cells(), 1);
    }
}
