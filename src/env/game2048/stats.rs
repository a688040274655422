//! Batches of seeded games: what they reached ([`GameStats`], [`GameSummary`]), the seed of
//! each numbered game, legal and random moves, and a clock for speed reports.

use super::{Board, Game2048, Game2048Config, Move};
use crate::env::Environment;
use crate::rng::Rng;

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

pub use crate::clock::seconds as clock_seconds;
