//! An n-tuple network for 2048, learned by TD(0) on afterstates.
//!
//! The method of Szubert & Jaśkowski, "Temporal Difference Learning of N-Tuple Networks for the
//! Game 2048" (CIG 2014), the paper seed 004 names as the 97% anchor, with the tuple set and the
//! backward update order of Yeh, Wu et al. ("Multi-stage temporal difference learning for 2048-like
//! games", 2016) and Jaśkowski ("Mastering 2048 with delayed temporal coherence learning...",
//! 2018):
//!
//! - The value of an afterstate (the board after a slide, before the new tile) is a sum of
//!   look-ups: each tuple of cells indexes a table by the exponents in those cells. With symmetric
//!   sampling every tuple is read in all 8 rotations and reflections of the board, sharing one
//!   table, so the network learns the game's symmetry for free.
//! - The agent plays greedily (1-ply): the move maximising reward + V(afterstate); the new tiles
//!   are exploration enough.
//! - TD(0) on afterstates: V(s'ₜ) ← V(s'ₜ) + α (rₜ₊₁ + V(s'ₜ₊₁) − V(s'ₜ)), 0 after the last move.
//!   Updates are made backward over the finished game (Yeh's and Matsuzaki's order; Szubert &
//!   Jaśkowski update online — the same targets, applied sooner).
//!
//! The learning rate is `alpha` for the whole value, split evenly over the weights one afterstate
//! touches (each gets α / m of the error, m = 8 × tuples): `alpha = 0.1` gives 0.0031 per weight
//! for the 4 × 6-tuple set, close to Szubert & Jaśkowski's 0.0025 per tuple, and it keeps the
//! effective step the same whatever the tuple set.
//!
//! Three tuple sets ([`TupleSet`]): Yeh's 4 × 6-tuples (the strongest, but 4 × 16⁶ = 67 M
//! weights: 256 MiB as f32 in memory, 128 MiB as f16 on disk — too big to ship to a browser),
//! the same four shapes cut to 5 cells (4.2 M weights: 16 MiB in memory, ≤ 8 MiB as an f16 file
//! before gzip — the shipped one), and 5 × 4-tuples after Szubert & Jaśkowski's straight and
//! square 4-tuples (327,680 weights; weaker, tiny, for quick tests). Files ([`NTupleNetwork::to_bytes`]) store f32 (exact,
//! for checkpoints) or f16 (for shipping: half the size, and the many never-visited zero
//! weights compress to almost nothing under gzip).

use crate::env::game2048::{
    clock_seconds, game_seed, Board, Game2048, Game2048Config, GameStats, GameSummary, Move, Slide,
};
use crate::env::Environment;

/// The tuple sets this module knows (stored in model files by name and by their cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TupleSet {
    /// Yeh et al.'s four 6-tuples: two 2×3 rectangles and two "L"-shaped lines (cells
    /// `0 1 2 3 4 5`, `4 5 6 7 8 9`, `0 1 2 4 5 6`, `4 5 6 8 9 10`, row-major).
    #[serde(rename = "4x6")]
    FourSixTuples,
    /// Yeh's four shapes cut to 5 cells (`0 1 2 3 4`, `4 5 6 7 8`, `0 1 2 4 5`, `4 5 6 8 9`):
    /// 4 × 16⁵ = 4.2 M weights, 16 MiB as f32, 8 MiB as f16 before gzip; fits a browser tab.
    #[serde(rename = "4x5")]
    FourFiveTuples,
    /// Five 4-tuples after Szubert & Jaśkowski 2014: the outer and inner rows and three 2×2
    /// squares (corner, edge, centre).
    #[serde(rename = "5x4")]
    FiveFourTuples,
}

impl TupleSet {
    /// `4x6`, `4x5` or `5x4`.
    pub fn name(self) -> &'static str {
        match self {
            TupleSet::FourSixTuples => "4x6",
            TupleSet::FourFiveTuples => "4x5",
            TupleSet::FiveFourTuples => "5x4",
        }
    }

    /// Parses `4x6`, `4x5` or `5x4`.
    pub fn from_name(name: &str) -> Option<TupleSet> {
        match name.trim() {
            "4x6" => Some(TupleSet::FourSixTuples),
            "4x5" => Some(TupleSet::FourFiveTuples),
            "5x4" => Some(TupleSet::FiveFourTuples),
            _ => None,
        }
    }

    fn id(self) -> u8 {
        match self {
            TupleSet::FourSixTuples => 1,
            TupleSet::FiveFourTuples => 2,
            TupleSet::FourFiveTuples => 3,
        }
    }

    fn from_id(id: u8) -> Option<TupleSet> {
        [
            TupleSet::FourSixTuples,
            TupleSet::FourFiveTuples,
            TupleSet::FiveFourTuples,
        ]
        .into_iter()
        .find(|s| s.id() == id)
    }

    /// The base tuples' cells (row-major cell numbers, 0 = top left).
    pub fn tuples(self) -> Vec<Vec<u8>> {
        match self {
            TupleSet::FourSixTuples => vec![
                vec![0, 1, 2, 3, 4, 5],
                vec![4, 5, 6, 7, 8, 9],
                vec![0, 1, 2, 4, 5, 6],
                vec![4, 5, 6, 8, 9, 10],
            ],
            TupleSet::FourFiveTuples => vec![
                vec![0, 1, 2, 3, 4],
                vec![4, 5, 6, 7, 8],
                vec![0, 1, 2, 4, 5],
                vec![4, 5, 6, 8, 9],
            ],
            TupleSet::FiveFourTuples => vec![
                vec![0, 1, 2, 3],
                vec![4, 5, 6, 7],
                vec![0, 1, 4, 5],
                vec![1, 2, 5, 6],
                vec![5, 6, 9, 10],
            ],
        }
    }

    /// Weights in all: tuples × 16^length.
    pub fn num_weights(self) -> usize {
        self.tuples().iter().map(|t| 1usize << (4 * t.len())).sum()
    }
}

/// The 8 symmetries of the square acting on a cell: 4 rotations, each with or without a mirror.
fn symmetric_cell(cell: u8, symmetry: usize) -> u8 {
    let (mut r, mut c) = (cell / 4, cell % 4);
    for _ in 0..symmetry % 4 {
        (r, c) = (c, 3 - r);
    }
    if symmetry >= 4 {
        c = 3 - c;
    }
    4 * r + c
}

/// One tuple as read on the board: its table's offset and its (transformed) cells.
#[derive(Clone, Debug)]
struct Image {
    offset: usize,
    len: usize,
    cells: [u8; 6],
}

impl Image {
    #[inline]
    fn index(&self, board: u64) -> usize {
        let mut index = 0usize;
        for (k, &cell) in self.cells[..self.len].iter().enumerate() {
            index |= (((board >> (4 * cell)) & 0xF) as usize) << (4 * k);
        }
        self.offset + index
    }
}

/// Why a saved network cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NTupleFileError {
    /// Wrong magic bytes.
    #[error("this is not a puzzlelab 2048 n-tuple network file")]
    NotANetwork,
    /// Another format version.
    #[error(
        "the n-tuple network file has format version {found}; this build reads version {expected}"
    )]
    Version {
        /// Version in the file.
        found: u8,
        /// Version this build reads.
        expected: u8,
    },
    /// The tuple set is not one this build knows, or its cells differ from this build's.
    #[error("the n-tuple network file uses a tuple set this build does not know ({0})")]
    UnknownTupleSet(String),
    /// Checksum, length or structure wrong.
    #[error("the n-tuple network file is damaged (its checksum or length is wrong)")]
    Corrupt,
}

/// Magic bytes at the start of a network file. The format (version [`FILE_VERSION`]), all
/// numbers little-endian:
///
/// ```text
/// magic "PZL2048N" | version u8 | tuple set id u8 | tuple count u8 | per tuple: length u8, cells
/// | precision u8 (4 = f32, 2 = f16) | scale f32 (f16 only: stored × scale = weight)
/// | games trained u64 | weights (tuple by tuple, index = Σ exponent(cellₖ)·16^k)
/// | checksum u64 (FNV-1a of everything before it)
/// ```
pub const FILE_MAGIC: &[u8; 8] = b"PZL2048N";
/// The file format version this build reads and writes.
pub const FILE_VERSION: u8 = 1;

/// How weights are stored in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Precision {
    /// 32-bit floats: exact (checkpoints, resuming).
    #[serde(rename = "f32")]
    F32,
    /// 16-bit floats times a scale: half the size, ~3 significant digits (shipping).
    #[serde(rename = "f16")]
    F16,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// f32 → IEEE half, rounding to nearest even (values beyond ±65504 become ±infinity).
fn f32_to_f16(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xFF) as i32;
    let mantissa = bits & 0x7F_FFFF;
    if exponent == 0xFF {
        return sign | 0x7C00 | if mantissa != 0 { 0x200 } else { 0 };
    }
    let e = exponent - 127 + 15;
    if e >= 31 {
        return sign | 0x7C00;
    }
    let round = |value: u32, shift: u32| {
        let kept = value >> shift;
        let rest = value & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        if rest > half || (rest == half && kept & 1 == 1) {
            kept + 1
        } else {
            kept
        }
    };
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        return sign | round(mantissa | 0x80_0000, (14 - e) as u32) as u16;
    }
    // A carry out of the mantissa correctly bumps the exponent.
    sign | round(((e as u32) << 23) | mantissa, 13) as u16
}

/// IEEE half → f32 (exact).
fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = ((h >> 10) & 0x1F) as i32;
    let mantissa = (h & 0x3FF) as f32;
    match exponent {
        0 => sign * mantissa * (2f32).powi(-24),
        31 => {
            if mantissa == 0.0 {
                sign * f32::INFINITY
            } else {
                f32::NAN
            }
        }
        _ => sign * (1.0 + mantissa / 1024.0) * (2f32).powi(exponent - 15),
    }
}

/// An n-tuple network: the value function of 2048 afterstates.
#[derive(Clone, Debug)]
pub struct NTupleNetwork {
    set: TupleSet,
    images: Vec<Image>,
    weights: Vec<f32>,
    games_trained: u64,
}

impl NTupleNetwork {
    /// A network of `set` with every weight 0 (an untrained network values every afterstate 0).
    pub fn new(set: TupleSet) -> Self {
        let mut images = Vec::new();
        let mut offset = 0;
        for tuple in set.tuples() {
            for symmetry in 0..8 {
                let mut cells = [0u8; 6];
                for (k, &cell) in tuple.iter().enumerate() {
                    cells[k] = symmetric_cell(cell, symmetry);
                }
                images.push(Image {
                    offset,
                    len: tuple.len(),
                    cells,
                });
            }
            offset += 1 << (4 * tuple.len());
        }
        NTupleNetwork {
            set,
            images,
            weights: vec![0.0; offset],
            games_trained: 0,
        }
    }

    /// The tuple set.
    pub fn tuple_set(&self) -> TupleSet {
        self.set
    }

    /// Training games played so far (over all resumed runs).
    pub fn games_trained(&self) -> u64 {
        self.games_trained
    }

    /// All weights, tuple by tuple.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// Weights one evaluation touches (tuples × 8 symmetries).
    pub fn weights_per_value(&self) -> usize {
        self.images.len()
    }

    /// The value of an afterstate: the sum of its tuples' weights over the 8 symmetries.
    #[inline]
    pub fn value(&self, board: Board) -> f32 {
        self.images
            .iter()
            .map(|image| self.weights[image.index(board.0)])
            .sum()
    }

    /// Adds `delta` to every weight the afterstate `board` touches.
    #[inline]
    fn adjust(&mut self, board: Board, delta: f32) {
        for image in &self.images {
            let i = image.index(board.0);
            self.weights[i] += delta;
        }
    }

    /// The greedy (1-ply) move: the legal move maximising reward + V(afterstate), with that sum
    /// and the slide; `None` when the game is over.
    #[inline]
    pub fn best_move(&self, board: Board) -> Option<(Move, f32, Slide)> {
        let mut best: Option<(Move, f32, Slide)> = None;
        for m in Move::ALL {
            let slide = board.slide(m);
            if slide.board == board {
                continue;
            }
            let value = slide.score as f32 + self.value(slide.board);
            if best.is_none_or(|(_, v, _)| value > v) {
                best = Some((m, value, slide));
            }
        }
        best
    }

    /// Serialises the network (format in [`FILE_MAGIC`]'s documentation).
    pub fn to_bytes(&self, precision: Precision) -> Vec<u8> {
        let width = match precision {
            Precision::F32 => 4,
            Precision::F16 => 2,
        };
        let mut out = Vec::with_capacity(64 + self.weights.len() * width);
        out.extend_from_slice(FILE_MAGIC);
        out.push(FILE_VERSION);
        out.push(self.set.id());
        let tuples = self.set.tuples();
        out.push(tuples.len() as u8);
        for tuple in &tuples {
            out.push(tuple.len() as u8);
            out.extend_from_slice(tuple);
        }
        out.push(width as u8);
        let largest = self.weights.iter().fold(0f32, |m, w| m.max(w.abs()));
        // Keep f16 values under 60,000 (its largest finite value is 65,504).
        let scale = (largest / 60_000.0).max(1.0);
        out.extend_from_slice(&scale.to_le_bytes());
        out.extend_from_slice(&self.games_trained.to_le_bytes());
        match precision {
            Precision::F32 => {
                for w in &self.weights {
                    out.extend_from_slice(&w.to_le_bytes());
                }
            }
            Precision::F16 => {
                for w in &self.weights {
                    out.extend_from_slice(&f32_to_f16(w / scale).to_le_bytes());
                }
            }
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a network written by [`NTupleNetwork::to_bytes`] (not gzip: unpack first),
    /// refusing other files, other versions, unknown tuple sets and damaged files.
    pub fn from_bytes(bytes: &[u8]) -> Result<NTupleNetwork, NTupleFileError> {
        if bytes.len() < FILE_MAGIC.len() + 8 || &bytes[..FILE_MAGIC.len()] != FILE_MAGIC {
            return Err(NTupleFileError::NotANetwork);
        }
        let (body, checksum) = bytes.split_at(bytes.len() - 8);
        let mut at = FILE_MAGIC.len();
        let mut take = |count: usize| -> Result<&[u8], NTupleFileError> {
            let slice = body.get(at..at + count).ok_or(NTupleFileError::Corrupt)?;
            at += count;
            Ok(slice)
        };
        let version = take(1)?[0];
        if version != FILE_VERSION {
            return Err(NTupleFileError::Version {
                found: version,
                expected: FILE_VERSION,
            });
        }
        if fnv1a(body) != u64::from_le_bytes(checksum.try_into().expect("8 bytes")) {
            return Err(NTupleFileError::Corrupt);
        }
        let id = take(1)?[0];
        let count = take(1)?[0] as usize;
        let mut tuples = Vec::with_capacity(count);
        for _ in 0..count {
            let len = take(1)?[0] as usize;
            tuples.push(take(len)?.to_vec());
        }
        let set = TupleSet::from_id(id)
            .filter(|s| s.tuples() == tuples)
            .ok_or_else(|| NTupleFileError::UnknownTupleSet(format!("id {id}, {tuples:?}")))?;
        let width = take(1)?[0] as usize;
        let scale = f32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
        let games_trained = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
        let mut network = NTupleNetwork::new(set);
        network.games_trained = games_trained;
        let data = take(network.weights.len() * width)?;
        match width {
            4 => {
                for (w, b) in network.weights.iter_mut().zip(data.chunks_exact(4)) {
                    *w = f32::from_le_bytes(b.try_into().expect("4 bytes"));
                }
            }
            2 => {
                for (w, b) in network.weights.iter_mut().zip(data.chunks_exact(2)) {
                    *w = f16_to_f32(u16::from_le_bytes([b[0], b[1]])) * scale;
                }
            }
            _ => return Err(NTupleFileError::Corrupt),
        }
        if take(1).is_ok() {
            return Err(NTupleFileError::Corrupt);
        }
        Ok(network)
    }
}

/// Hyper-parameters of TD(0) learning of an n-tuple network.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TdConfig {
    /// Learning rate for the whole value, split over the weights touched (module docs): 0.1.
    pub alpha: f32,
    /// Seed of the training games (game g of the run uses `game_seed(seed, g)`).
    pub seed: u64,
    /// The rules (the original game's by default: 4s with probability 0.1).
    pub game: Game2048Config,
}

impl Default for TdConfig {
    fn default() -> Self {
        TdConfig {
            alpha: 0.1,
            seed: 0,
            game: Game2048Config::default(),
        }
    }
}

/// What a chunk of training did.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TrainStats {
    /// The chunk's games in numbers (mean score, reach rates, games/s, moves/s).
    pub summary: GameSummary,
    /// Training games played so far, over all chunks and resumed runs.
    pub games_trained: u64,
}

/// TD(0) learning of an n-tuple network, in chunks of games.
#[derive(Clone, Debug)]
pub struct TdLearner {
    /// The network being learned.
    pub network: NTupleNetwork,
    /// The hyper-parameters.
    pub config: TdConfig,
    game: Game2048,
    path: Vec<(Board, f32)>,
}

impl TdLearner {
    /// A learner for `network` (new or loaded: game seeds continue from its games trained).
    pub fn new(network: NTupleNetwork, config: TdConfig) -> Self {
        TdLearner {
            game: Game2048::new(config.game),
            network,
            config,
            path: Vec::new(),
        }
    }

    /// Plays and learns from one game; returns it (finished).
    pub fn train_game(&mut self) -> &Game2048 {
        let seed = game_seed(self.config.seed, self.network.games_trained);
        self.game.reset(seed);
        self.path.clear();
        // Play greedily, remembering each afterstate and the reward of the move that made it.
        while let Some((m, _, slide)) = self.network.best_move(self.game.board()) {
            self.path.push((slide.board, slide.score as f32));
            self.game.play(m);
        }
        // TD(0) backward over the game: the last afterstate led nowhere (target 0); each earlier
        // one's target is the next move's reward plus the next afterstate's (updated) value.
        let step = self.config.alpha / self.network.weights_per_value() as f32;
        let mut target = 0.0f32;
        for &(afterstate, reward) in self.path.iter().rev() {
            let error = target - self.network.value(afterstate);
            self.network.adjust(afterstate, step * error);
            target = reward + self.network.value(afterstate);
        }
        self.network.games_trained += 1;
        &self.game
    }

    /// Plays and learns from `games` games: the chunk a worker reports between.
    pub fn train_games(&mut self, games: u64) -> TrainStats {
        let started = clock_seconds();
        let mut stats = GameStats::default();
        for _ in 0..games {
            let game = self.train_game();
            stats.record(game);
        }
        TrainStats {
            summary: stats.summary(clock_seconds() - started),
            games_trained: self.network.games_trained,
        }
    }
}

/// Plays `games` games greedily with `network` (no learning), game `g` seeded with
/// `game_seed(seed, g)`.
pub fn evaluate_greedy(
    network: &NTupleNetwork,
    config: Game2048Config,
    games: u64,
    seed: u64,
) -> GameSummary {
    let started = clock_seconds();
    let stats = crate::env::game2048::play_games(config, games, seed, |board| {
        network.best_move(board).expect("a legal move").0
    });
    stats.summary(clock_seconds() - started)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::game2048::play_games;
    use crate::rng::Rng;

    #[test]
    fn symmetries_are_eight_distinct_permutations() {
        let mut seen = std::collections::HashSet::new();
        for symmetry in 0..8 {
            let image: Vec<u8> = (0..16).map(|c| symmetric_cell(c, symmetry)).collect();
            let mut sorted = image.clone();
            sorted.sort();
            assert_eq!(sorted, (0..16).collect::<Vec<u8>>());
            seen.insert(image);
        }
        assert_eq!(seen.len(), 8);
    }

    #[test]
    fn the_value_is_the_same_on_all_eight_symmetric_boards() {
        let mut network = NTupleNetwork::new(TupleSet::FiveFourTuples);
        let mut rng = Rng::new(3);
        for w in network.weights.iter_mut() {
            *w = rng.unit() as f32;
        }
        let board = Board::parse("2 4 8 . / 16 . 2 . / . 4 . 64 / 2 . . 1024").unwrap();
        let v = network.value(board);
        let mut b = board;
        for _ in 0..4 {
            b = b.transpose().mirror(); // a quarter turn
            assert!((network.value(b) - v).abs() < 1e-3);
            assert!((network.value(b.mirror()) - v).abs() < 1e-3);
        }
    }

    #[test]
    fn half_floats_round_trip_within_their_precision() {
        for x in [0.0f32, 1.0, -2.5, 0.1, 1234.567, -60000.0, 1e-6, 3e-8] {
            let y = f16_to_f32(f32_to_f16(x));
            assert!((y - x).abs() <= x.abs() / 1024.0 + 6e-8, "{x} → {y}");
        }
        assert_eq!(f16_to_f32(f32_to_f16(65504.0)), 65504.0);
    }

    fn trained(set: TupleSet, games: u64) -> NTupleNetwork {
        let mut learner = TdLearner::new(
            NTupleNetwork::new(set),
            TdConfig {
                seed: 11,
                ..TdConfig::default()
            },
        );
        learner.train_games(games);
        learner.network
    }

    #[test]
    fn save_then_load_gives_identical_values_and_damage_is_refused() {
        let network = trained(TupleSet::FiveFourTuples, 30);
        let bytes = network.to_bytes(Precision::F32);
        let loaded = NTupleNetwork::from_bytes(&bytes).unwrap();
        assert_eq!(loaded.weights(), network.weights());
        assert_eq!(loaded.games_trained(), 30);
        let half = NTupleNetwork::from_bytes(&network.to_bytes(Precision::F16)).unwrap();
        for (a, b) in half.weights().iter().zip(network.weights()) {
            assert!((a - b).abs() <= b.abs() / 1000.0 + 1e-3);
        }
        // Saving what was loaded gives the same bytes (a stable format).
        assert_eq!(loaded.to_bytes(Precision::F32), bytes);

        let mut damaged = bytes.clone();
        damaged[bytes.len() / 2] ^= 0x40;
        assert_eq!(
            NTupleNetwork::from_bytes(&damaged).unwrap_err(),
            NTupleFileError::Corrupt
        );
        assert_eq!(
            NTupleNetwork::from_bytes(&bytes[..bytes.len() - 100]).unwrap_err(),
            NTupleFileError::Corrupt
        );
        assert_eq!(
            NTupleNetwork::from_bytes(b"PZLPDB not this").unwrap_err(),
            NTupleFileError::NotANetwork
        );
        let mut other_version = bytes.clone();
        other_version[8] = 9;
        assert!(matches!(
            NTupleNetwork::from_bytes(&other_version),
            Err(NTupleFileError::Version { found: 9, .. })
        ));
    }

    #[test]
    fn a_short_td_run_beats_random_and_untrained_play() {
        let config = Game2048Config::default();
        let mut rng = Rng::new(5);
        let random = play_games(config, 50, 99, |b| {
            crate::env::game2048::random_move(b, &mut rng).unwrap()
        });
        let untrained = evaluate_greedy(
            &NTupleNetwork::new(TupleSet::FiveFourTuples),
            config,
            50,
            99,
        );
        let network = trained(TupleSet::FiveFourTuples, 400);
        let learned = evaluate_greedy(&network, config, 50, 99);
        assert!(
            learned.mean_score > 2.0 * random.mean_score()
                && learned.mean_score > 1.5 * untrained.mean_score,
            "random {}, untrained {}, after 400 games {}",
            random.mean_score(),
            untrained.mean_score,
            learned.mean_score
        );
    }
}
