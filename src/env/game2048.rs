//! 2048 (Gabriele Cirulli, 2014) as an [`Environment`], on a packed 64-bit board.
//!
//! The rules are the original game's: a move slides every tile as far as it goes toward one side;
//! two equal tiles that meet merge into one of twice the value, merging from the side moved
//! toward, and a merged tile does not merge again in the same move (`[2,2,2,2]` left →
//! `[4,4,_,_]`, `[2,2,2,_]` → `[4,2,_,_]`, `[4,2,2,_]` → `[4,4,_,_]`). After every move that
//! changes the board a new tile appears on a uniformly chosen empty cell: a 2 with probability
//! 0.9, a 4 with 0.1 (seed 004's DQN only ever adds 2s: [`Game2048Config::always_two`]). The game
//! starts with two such tiles and ends when no move changes the board. The score is the sum of
//! the merged tiles' values; the reward of a move is the score it gains (or seed 004's shaped
//! reward, [`Reward2048::Seed004`]).
//!
//! The board is 16 nibbles of a `u64` (cell `4·row + col` in bits `4·cell..4·cell+4`), each the
//! tile's exponent (0 = empty, 1 = 2, 2 = 4, ..., 15 = 32768). Moves use 65,536-entry row tables
//! (the layout of nneonneo's 2048-ai and of the n-tuple papers' implementations), so a move costs
//! four table look-ups and, for up and down, two transpositions: the n-tuple learner
//! ([`crate::agent::ntuple`]) plays millions of moves per minute on it. Two 32768 tiles do not
//! merge (a 65536 tile does not fit in a nibble); no game of record has reached that.
//!
//! The learner's "afterstate" (Szubert & Jaśkowski 2014) is the board after the slide and before
//! the new tile: [`Board::slide`]. [`Board::parse`] reads a board from text for tests.
//!
//! Actions follow seed 004's order: 0 up, 1 right, 2 down, 3 left. The observation is seed 004's
//! one-hot encoding: 16 cells × 16 exponents (256 floats, cell-major).

use super::{Environment, Step};
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
    /// All four moves in action order (action `i` is `ALL[i]`; seed 004's up, right, down, left).
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

/// The reward a step reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reward2048 {
    /// The score the move gained (the sum of the merged tiles' values): the game's own score,
    /// the reward of the n-tuple papers.
    #[default]
    Score,
    /// Seed 004's shaped reward R = 4·x0 + 3·x1 + 1·x2 + 1·x3 of the board after the move's
    /// slide, with x0 the maximum tile, x1 the free cells, x2 the pairs of adjacent equal tiles
    /// and x3 "the sum of neighbouring cells". The seed gives no units, so puzzlelab reads x0 as
    /// the maximum tile's exponent (log2) and x3 as the score the move gained (the merged
    /// neighbours' sum) divided by 2^x0, which keeps the four terms of the same size. A move that
    /// changes nothing earns 0.
    Seed004,
}

impl Reward2048 {
    /// `score` or `seed004`.
    pub fn name(self) -> &'static str {
        match self {
            Reward2048::Score => "score",
            Reward2048::Seed004 => "seed004",
        }
    }
}

/// Seed 004's shaped reward of the afterstate `slide` (see [`Reward2048::Seed004`]).
pub fn seed004_reward(slide: Slide) -> f32 {
    let board = slide.board;
    let max_exponent = board.max_exponent() as f32;
    let free = board.empty_cells() as f32;
    let mut pairs = 0u32;
    for row in 0..4 {
        for col in 0..4 {
            let e = board.exponent(4 * row + col);
            if e == 0 {
                continue;
            }
            if col < 3 && board.exponent(4 * row + col + 1) == e {
                pairs += 1;
            }
            if row < 3 && board.exponent(4 * (row + 1) + col) == e {
                pairs += 1;
            }
        }
    }
    let merged = slide.score as f32 / board.max_tile().max(1) as f32;
    4.0 * max_exponent + 3.0 * free + pairs as f32 + merged
}

/// The rules that may vary: how new tiles are drawn and what a step rewards.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Game2048Config {
    /// Probability that a new tile is a 4 rather than a 2 (original game: 0.1; seed 004: 0).
    pub four_probability: f64,
    /// What a step rewards.
    pub reward: Reward2048,
}

impl Default for Game2048Config {
    fn default() -> Self {
        Game2048Config {
            four_probability: 0.1,
            reward: Reward2048::Score,
        }
    }
}

impl Game2048Config {
    /// Seed 004's rule: every new tile is a 2.
    pub fn always_two() -> Self {
        Game2048Config {
            four_probability: 0.0,
            ..Default::default()
        }
    }
}

/// A game of 2048: the board, the score, the move count and the game's own random generator.
#[derive(Clone, Debug)]
pub struct Game2048 {
    config: Game2048Config,
    board: Board,
    score: u64,
    moves: u64,
    rng: Rng,
}

impl Game2048 {
    /// A new game (two starting tiles drawn with seed 0; call [`Environment::reset`] to reseed).
    pub fn new(config: Game2048Config) -> Self {
        let mut game = Game2048 {
            config,
            board: Board::EMPTY,
            score: 0,
            moves: 0,
            rng: Rng::new(0),
        };
        game.reset(0);
        game
    }

    /// A game that goes on from `board` (score 0), its new tiles drawn with `seed`.
    pub fn from_board(config: Game2048Config, board: Board, seed: u64) -> Self {
        Game2048 {
            config,
            board,
            score: 0,
            moves: 0,
            rng: Rng::new(seed),
        }
    }

    /// The rules this game follows.
    pub fn config(&self) -> Game2048Config {
        self.config
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The score so far: the sum of all merged tiles' values.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Moves that changed the board so far.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The largest tile's value.
    pub fn max_tile(&self) -> u32 {
        self.board.max_tile()
    }

    /// Plays `direction`: slides, adds the score and, when the board changed, a new tile. Returns
    /// the slide (its `score` is the points gained; 0 and the same board when illegal).
    pub fn play(&mut self, direction: Move) -> Slide {
        let slide = self.board.slide(direction);
        if slide.board != self.board {
            self.score += slide.score as u64;
            self.moves += 1;
            self.board = slide
                .board
                .spawn(&mut self.rng, self.config.four_probability);
        }
        slide
    }
}

impl Environment for Game2048 {
    type State = Board;

    fn num_actions(&self) -> usize {
        4
    }

    fn reset(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
        self.score = 0;
        self.moves = 0;
        let p = self.config.four_probability;
        self.board = Board::EMPTY.spawn(&mut self.rng, p).spawn(&mut self.rng, p);
    }

    fn state(&self) -> Board {
        self.board
    }

    fn action_mask(&self, mask: &mut [bool]) {
        for (m, slot) in Move::ALL.iter().zip(mask.iter_mut()) {
            *slot = self.board.can_move(*m);
        }
    }

    fn step(&mut self, action: usize) -> Step {
        let direction = Move::from_index(action).expect("2048 has actions 0..4");
        let before = self.board;
        let slide = self.play(direction);
        let reward = if slide.board == before {
            0.0
        } else {
            match self.config.reward {
                Reward2048::Score => slide.score as f32,
                Reward2048::Seed004 => seed004_reward(slide),
            }
        };
        Step {
            reward,
            terminated: self.board.is_game_over(),
            truncated: false,
        }
    }

    fn is_terminal(&self) -> bool {
        self.board.is_game_over()
    }

    fn validate(&self) -> Result<(), String> {
        let tiles = 16 - self.board.empty_cells();
        if tiles < 2 {
            return Err(format!("{tiles} tiles: a game always has at least two"));
        }
        if self.score % 2 == 1 {
            return Err(format!("odd score {}", self.score));
        }
        Ok(())
    }

    fn observation_len(&self) -> usize {
        256
    }

    fn write_observation(&self, out: &mut [f32]) {
        out[..256].fill(0.0);
        for cell in 0..16 {
            out[16 * cell + self.board.exponent(cell) as usize] = 1.0;
        }
    }

    fn puzzle_id(&self) -> String {
        "2048 4x4".to_string()
    }

    fn distance_to_goal(&self) -> Option<f32> {
        None
    }
}

/// What a batch of games reached: scores, max tiles, moves.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct GameStats {
    /// Games played.
    pub games: u64,
    /// Moves played in all.
    pub moves: u64,
    /// Every game's final score, in order.
    pub scores: Vec<u64>,
    /// `max_tile_counts[e]`: games whose largest tile was 2^e.
    pub max_tile_counts: [u64; 16],
}

impl GameStats {
    /// Records one finished game.
    pub fn record(&mut self, game: &Game2048) {
        self.games += 1;
        self.moves += game.moves();
        self.scores.push(game.score());
        self.max_tile_counts[game.board().max_exponent() as usize] += 1;
    }

    /// The mean final score (0 when no game was played).
    pub fn mean_score(&self) -> f64 {
        if self.scores.is_empty() {
            return 0.0;
        }
        self.scores.iter().sum::<u64>() as f64 / self.scores.len() as f64
    }

    /// The median final score (the upper median; 0 when no game was played).
    pub fn median_score(&self) -> u64 {
        let mut sorted = self.scores.clone();
        sorted.sort_unstable();
        sorted.get(sorted.len() / 2).copied().unwrap_or(0)
    }

    /// The best final score.
    pub fn max_score(&self) -> u64 {
        self.scores.iter().copied().max().unwrap_or(0)
    }

    /// The fraction of games whose largest tile reached at least `tile` (a power of two).
    pub fn reach_rate(&self, tile: u32) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let e = tile.trailing_zeros() as usize;
        let reached: u64 = self.max_tile_counts[e.min(16)..].iter().sum();
        reached as f64 / self.games as f64
    }

    /// Adds another batch's games.
    pub fn merge(&mut self, other: &GameStats) {
        self.games += other.games;
        self.moves += other.moves;
        self.scores.extend_from_slice(&other.scores);
        for (a, b) in self.max_tile_counts.iter_mut().zip(other.max_tile_counts) {
            *a += b;
        }
    }
}

/// The tiles whose reach rates reports give.
pub const REPORTED_TILES: [u32; 6] = [1024, 2048, 4096, 8192, 16384, 32768];

/// A batch of games in a few numbers (stable names for reports and manifests).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameSummary {
    /// Games played.
    pub games: u64,
    /// Mean final score.
    pub mean_score: f64,
    /// Median final score.
    pub median_score: u64,
    /// Best final score.
    pub max_score: u64,
    /// Mean moves per game.
    pub mean_moves: f64,
    /// For each tile of [`REPORTED_TILES`] (as text: `"2048"`), the fraction of games reaching it.
    pub reach: std::collections::BTreeMap<String, f64>,
    /// Wall time of the batch in seconds.
    pub seconds: f64,
    /// Games per second.
    pub games_per_s: f64,
    /// Moves per second.
    pub moves_per_s: f64,
}

impl GameStats {
    /// The batch's summary, given the seconds it took.
    pub fn summary(&self, seconds: f64) -> GameSummary {
        let per_s = |n: u64| {
            if seconds > 0.0 {
                n as f64 / seconds
            } else {
                0.0
            }
        };
        GameSummary {
            games: self.games,
            mean_score: self.mean_score(),
            median_score: self.median_score(),
            max_score: self.max_score(),
            mean_moves: if self.games > 0 {
                self.moves as f64 / self.games as f64
            } else {
                0.0
            },
            reach: REPORTED_TILES
                .iter()
                .map(|&t| (t.to_string(), self.reach_rate(t)))
                .collect(),
            seconds,
            games_per_s: per_s(self.games),
            moves_per_s: per_s(self.moves),
        }
    }
}

/// Plays `games` games to their end with `choose` picking each move from the board (it must
/// return a move that changes the board), game `g` seeded with [`game_seed`]`(seed, g)`.
pub fn play_games(
    config: Game2048Config,
    games: u64,
    seed: u64,
    choose: impl FnMut(Board) -> Move,
) -> GameStats {
    play_game_range(config, 0..games, seed, choose)
}

/// Plays games number `games.start` to `games.end − 1` of the run seeded with `seed`, as
/// [`play_games`] would play them: a run played in chunks of ranges gives the same games as one
/// call (an evaluation that reports progress between chunks).
pub fn play_game_range(
    config: Game2048Config,
    games: std::ops::Range<u64>,
    seed: u64,
    mut choose: impl FnMut(Board) -> Move,
) -> GameStats {
    let mut stats = GameStats::default();
    let mut game = Game2048::new(config);
    for g in games {
        game.reset(game_seed(seed, g));
        while !game.board().is_game_over() {
            let direction = choose(game.board());
            let before = game.board();
            game.play(direction);
            assert_ne!(game.board(), before, "the policy chose an illegal move");
        }
        stats.record(&game);
    }
    stats
}

/// The seed of game number `game` of a run seeded with `seed` (distinct runs, distinct games).
pub fn game_seed(seed: u64, game: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game.wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// The moves that change `board`, in action order.
pub fn legal_moves(board: Board) -> impl Iterator<Item = Move> {
    Move::ALL.into_iter().filter(move |&m| board.can_move(m))
}

/// A uniformly random legal move (for a baseline); `None` when the game is over.
pub fn random_move(board: Board, rng: &mut Rng) -> Option<Move> {
    let moves: Vec<Move> = legal_moves(board).collect();
    (!moves.is_empty()).then(|| *rng.choose(&moves))
}

/// Where one tile goes in a slide: what a board view needs to animate it ([`tile_moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TileMove {
    /// The cell (`4·row + col`) the tile starts in.
    pub from: u8,
    /// The cell it ends in (the same cell when it does not move).
    pub to: u8,
    /// Its exponent before the slide.
    pub exponent: u8,
    /// Whether it merges with another tile in `to` (both tiles of a merge say so; the tile left
    /// in `to` has exponent `exponent + 1`).
    pub merged: bool,
}

/// The cells of line `line` (a row for left and right, a column for up and down), starting at
/// the side `direction` slides toward.
fn line_cells(direction: Move, line: usize) -> [usize; 4] {
    match direction {
        Move::Left => [4 * line, 4 * line + 1, 4 * line + 2, 4 * line + 3],
        Move::Right => [4 * line + 3, 4 * line + 2, 4 * line + 1, 4 * line],
        Move::Up => [line, 4 + line, 8 + line, 12 + line],
        Move::Down => [12 + line, 8 + line, 4 + line, line],
    }
}

/// Where every tile of `board` goes when it slides toward `direction`, in cell order of each
/// line: the same rules as [`Board::slide`] (its row tables are built by `slide_row_left`), told
/// tile by tile so that a page can animate the move. Tiles that stay put are included (`from ==
/// to`). When the move is illegal every tile stays.
pub fn tile_moves(board: Board, direction: Move) -> Vec<TileMove> {
    let mut moves = Vec::with_capacity(16);
    for line in 0..4 {
        let cells = line_cells(direction, line);
        let tiles: Vec<(usize, u8)> = cells
            .iter()
            .map(|&cell| (cell, board.exponent(cell)))
            .filter(|&(_, e)| e != 0)
            .collect();
        let (mut i, mut k) = (0, 0);
        while i < tiles.len() {
            let (cell, e) = tiles[i];
            let to = cells[k] as u8;
            if i + 1 < tiles.len() && tiles[i + 1].1 == e && e < 15 {
                for &(from, exponent) in &tiles[i..i + 2] {
                    moves.push(TileMove {
                        from: from as u8,
                        to,
                        exponent,
                        merged: true,
                    });
                }
                i += 2;
            } else {
                moves.push(TileMove {
                    from: cell as u8,
                    to,
                    exponent: e,
                    merged: false,
                });
                i += 1;
            }
            k += 1;
        }
    }
    moves
}

/// Seconds on a clock that only goes forward, for speed reports (moves/s): std's `Instant`
/// natively, `Date.now()` in the browser (std has no clock on `wasm32-unknown-unknown`).
pub fn clock_seconds() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now() / 1000.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        static START: OnceLock<std::time::Instant> = OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::check_env;

    fn board(text: &str) -> Board {
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

    #[test]
    fn a_new_tile_appears_only_after_a_move_that_changes_the_board() {
        let start = board("2 4 8 16 / . . . . / . . . . / . . . .");
        let mut game = Game2048::from_board(Game2048Config::default(), start, 5);
        // Left and up change nothing: no tile, no score, no move counted.
        for m in [Move::Left, Move::Up] {
            let step = game.step(m.index());
            assert_eq!(game.board(), start);
            assert_eq!(step.reward, 0.0);
        }
        assert_eq!(game.moves(), 0);
        let step = game.step(Move::Down.index());
        assert_eq!(step.reward, 0.0);
        assert_eq!(game.moves(), 1);
        let after = game.board();
        assert_eq!(
            16 - after.empty_cells(),
            5,
            "four tiles slid plus one new one:\n{after}"
        );
        let bottom: Vec<u32> = (12..16).map(|c| after.tile(c)).collect();
        assert_eq!(bottom, [2, 4, 8, 16]);
    }

    #[test]
    fn score_accumulates_merged_values_and_the_reward_is_the_gain() {
        let start = board("2 2 4 4 / 8 8 . . / . . . . / . . . .");
        let mut game = Game2048::from_board(Game2048Config::always_two(), start, 1);
        let step = game.step(Move::Left.index());
        assert_eq!(step.reward, (4 + 8 + 16) as f32);
        assert_eq!(game.score(), 28);
        assert_eq!(game.max_tile(), 16);
    }

    #[test]
    fn game_over_exactly_when_no_move_changes_the_board() {
        let stuck = board("2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 2");
        assert!(stuck.is_game_over());
        let full_but_mergeable = board("2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 8 8");
        assert!(!full_but_mergeable.is_game_over());
        let mut game = Game2048::from_board(Game2048Config::default(), full_but_mergeable, 3);
        let mut mask = [false; 4];
        game.action_mask(&mut mask);
        assert_eq!(
            mask,
            [false, true, false, true],
            "only right and left merge the 8s"
        );
        // The game may or may not end after left, but `terminated` must agree with the board.
        let step = game.step(Move::Left.index());
        assert_eq!(step.reward, 16.0);
        assert_eq!(step.terminated, game.board().is_game_over());
        assert_eq!(game.board().max_tile(), 16);
    }

    #[test]
    fn the_mask_agrees_with_the_moves_that_change_the_board() {
        let mut game = Game2048::new(Game2048Config::default());
        let mut rng = Rng::new(9);
        let mut mask = [false; 4];
        for seed in 0..20 {
            game.reset(seed);
            while !game.is_terminal() {
                game.action_mask(&mut mask);
                for m in Move::ALL {
                    assert_eq!(mask[m.index()], game.board().slide(m).board != game.board());
                }
                let m = random_move(game.board(), &mut rng).unwrap();
                game.play(m);
            }
            game.action_mask(&mut mask);
            assert_eq!(mask, [false; 4]);
        }
    }

    #[test]
    fn same_seed_same_game_and_two_starting_tiles() {
        let play = |seed| {
            let mut game = Game2048::new(Game2048Config::default());
            game.reset(seed);
            assert_eq!(16 - game.board().empty_cells(), 2);
            let mut rng = Rng::new(seed);
            let mut boards = vec![game.board()];
            while let Some(m) = random_move(game.board(), &mut rng) {
                game.play(m);
                boards.push(game.board());
            }
            (boards, game.score())
        };
        assert_eq!(play(4), play(4));
        assert_ne!(play(4), play(5));
    }

    #[test]
    fn new_tiles_are_twos_and_fours_in_about_nine_to_one() {
        let mut rng = Rng::new(1);
        let (mut twos, mut fours) = (0, 0);
        for _ in 0..10_000 {
            match Board::EMPTY.spawn(&mut rng, 0.1).max_exponent() {
                1 => twos += 1,
                2 => fours += 1,
                e => panic!("spawned exponent {e}"),
            }
        }
        assert!((800..1200).contains(&fours), "{twos} twos, {fours} fours");
        let mut only_two = Game2048::new(Game2048Config::always_two());
        for seed in 0..50 {
            only_two.reset(seed);
            assert_eq!(only_two.board().max_exponent(), 1);
        }
    }

    #[test]
    fn observation_is_one_hot_per_cell() {
        let game = Game2048::from_board(
            Game2048Config::default(),
            board("2 . . . / . 4 . . / . . . . / . . . 32768"),
            0,
        );
        let mut out = vec![9.0; game.observation_len()];
        game.write_observation(&mut out);
        assert_eq!(out.iter().sum::<f32>(), 16.0);
        assert_eq!(out[1], 1.0);
        assert_eq!(out[16], 1.0);
        assert_eq!(out[16 * 5 + 2], 1.0);
        assert_eq!(out[16 * 15 + 15], 1.0);
        assert_eq!(game.puzzle_id(), "2048 4x4");
        assert_eq!(game.distance_to_goal(), None);
    }

    #[test]
    fn seed004_reward_counts_its_four_features() {
        // Afterstate "4 4 . . / ...": max exponent 2, 14 free, 1 adjacent pair, merged 8 / 4.
        let slide = board("2 2 2 2 / . . . . / . . . . / . . . .").slide(Move::Left);
        assert_eq!(seed004_reward(slide), 4.0 * 2.0 + 3.0 * 14.0 + 1.0 + 2.0);
        let mut game = Game2048::from_board(
            Game2048Config {
                reward: Reward2048::Seed004,
                ..Game2048Config::always_two()
            },
            board("2 2 2 2 / . . . . / . . . . / . . . ."),
            0,
        );
        assert_eq!(game.step(Move::Left.index()).reward, 53.0);
    }

    #[test]
    fn tile_moves_tell_where_each_tile_goes() {
        let start = board("2 2 2 2 / 4 . 4 8 / . . . . / 2 . . 2");
        let moves = tile_moves(start, Move::Left);
        let tm = |from, to, exponent, merged| TileMove {
            from,
            to,
            exponent,
            merged,
        };
        assert_eq!(
            moves,
            [
                tm(0, 0, 1, true),
                tm(1, 0, 1, true),
                tm(2, 1, 1, true),
                tm(3, 1, 1, true),
                tm(4, 4, 2, true),
                tm(6, 4, 2, true),
                tm(7, 5, 3, false),
                tm(12, 12, 1, true),
                tm(15, 12, 1, true),
            ]
        );
        // Right merges from the right: [2,2,2,_] → [_,_,2,4], the rightmost pair merging.
        let moves = tile_moves(board("2 2 2 . / . . . . / . . . . / . . . ."), Move::Right);
        assert_eq!(
            moves,
            [tm(2, 3, 1, true), tm(1, 3, 1, true), tm(0, 2, 1, false)]
        );
        // An illegal move moves nothing.
        let stuck = board("2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 2");
        for m in Move::ALL {
            assert!(tile_moves(stuck, m)
                .iter()
                .all(|t| t.from == t.to && !t.merged));
        }
    }

    #[test]
    fn tile_moves_agree_with_slide_on_random_games() {
        let mut game = Game2048::new(Game2048Config::default());
        let mut rng = Rng::new(11);
        for seed in 0..30 {
            game.reset(seed);
            while let Some(played) = random_move(game.board(), &mut rng) {
                let before = game.board();
                for m in Move::ALL {
                    let moves = tile_moves(before, m);
                    assert_eq!(moves.len() as u32, 16 - before.empty_cells());
                    // Rebuild the afterstate from the tiles' destinations.
                    let mut after = Board::EMPTY;
                    let mut score = 0;
                    for t in &moves {
                        assert_eq!(before.exponent(t.from as usize), t.exponent);
                        let e = if t.merged { t.exponent + 1 } else { t.exponent };
                        if t.merged && after.exponent(t.to as usize) == e {
                            score += 1 << e;
                        }
                        after = after.with(t.to as usize, e);
                    }
                    let slide = before.slide(m);
                    assert_eq!(after, slide.board, "{m:?} from\n{before}");
                    assert_eq!(score, slide.score, "{m:?} from\n{before}");
                }
                game.play(played);
            }
        }
    }

    #[test]
    fn the_environment_contract_holds() {
        check_env(|| Game2048::new(Game2048Config::default()), 20, 2000).unwrap();
        check_env(|| Game2048::new(Game2048Config::always_two()), 10, 300).unwrap();
        check_env(
            || {
                Game2048::new(Game2048Config {
                    reward: Reward2048::Seed004,
                    four_probability: 0.1,
                })
            },
            10,
            300,
        )
        .unwrap();
    }
}
