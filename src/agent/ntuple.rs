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
//!
//! [`Evaluation`] plays a network's agents — greedy, expectimax over its values ([`Agent2048`]),
//! or random moves — over numbered, seeded games in chunks: `puzzlelab eval-2048` and the page's
//! worker both use it, so they report the same games in the same [`EvaluationReport`].

use crate::checksum::fnv1a;
use crate::env::game2048::{
    clock_seconds, game_seed, play_game_range, random_move, Board, Game2048, Game2048Config,
    GameStats, GameSummary, Move, Slide,
};
use crate::env::Environment;
use crate::rng::Rng;
use crate::search::expectimax::Expectimax;

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
    let mut evaluation = Evaluation::new(Agent2048::Greedy, config, games, seed);
    evaluation
        .play(Some(network), games)
        .expect("the greedy agent has its network");
    evaluation.summary()
}

// ---- evaluation: the agents that play with a network, in chunks --------------------------------

/// The agents an evaluation can play (`puzzlelab eval-2048 --agent`, the page's Evaluate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent2048 {
    /// The network's greedy 1-ply policy: the move maximising reward + V(afterstate). Named
    /// `ntuple` in reports, as the CLI's `--agent ntuple`.
    Greedy,
    /// Expectimax ([`crate::search::expectimax`]) `depth` moves deep over the network's values.
    Expectimax {
        /// Moves searched ahead (at least 1; 1 is the greedy policy).
        depth: u32,
    },
    /// Uniformly random legal moves: the baseline, which needs no network.
    Random,
}

impl Agent2048 {
    /// `ntuple` (or `greedy`), `expectimax` (searching `depth` moves deep, at least 1) or `random`.
    pub fn from_name(name: &str, depth: u32) -> Option<Agent2048> {
        match name.trim() {
            "ntuple" | "greedy" => Some(Agent2048::Greedy),
            "expectimax" => Some(Agent2048::Expectimax {
                depth: depth.max(1),
            }),
            "random" => Some(Agent2048::Random),
            _ => None,
        }
    }

    /// The name reports use: `ntuple`, `expectimax` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            Agent2048::Greedy => "ntuple",
            Agent2048::Expectimax { .. } => "expectimax",
            Agent2048::Random => "random",
        }
    }

    /// The search depth (expectimax only).
    pub fn depth(self) -> Option<u32> {
        match self {
            Agent2048::Expectimax { depth } => Some(depth),
            _ => None,
        }
    }

    /// Whether the agent plays with a network's values.
    pub fn needs_network(self) -> bool {
        self != Agent2048::Random
    }
}

/// Why an evaluation cannot play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvaluationError {
    /// A greedy or expectimax evaluation was given no network.
    #[error("the {0} agent plays with a network, and none was given")]
    NeedsNetwork(&'static str),
}

/// What an evaluation reports: the JSON of `puzzlelab eval-2048` (which adds `machine`) and the
/// result of the page's Evaluate, so that the two can be compared field by field.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EvaluationReport {
    /// `ntuple` (greedy), `expectimax` or `random`.
    pub agent: String,
    /// Expectimax's depth (`None` for the other agents).
    pub depth: Option<u32>,
    /// Where the network came from (a path or URL; `None` when not said).
    pub model: Option<String>,
    /// The network's training games (`None` without a network).
    pub games_trained: Option<u64>,
    /// The network's tuple set (`None` without a network).
    pub tuple_set: Option<String>,
    /// The run's seed: game `g` is seeded with `game_seed(seed, g)`.
    pub seed: u64,
    /// Chance nodes expectimax evaluated (expectimax only).
    pub chance_nodes: Option<u64>,
    /// The games in numbers: reach rates, mean and median score, moves/s.
    pub summary: GameSummary,
}

/// An evaluation of an agent over a fixed number of games, played in chunks so that a worker
/// can report progress and stop between them. Game `g` is seeded with `game_seed(seed, g)`
/// whatever the chunks, so a chunked run plays exactly the games of one long call (and the same
/// games natively and in the browser). The wall time counts only the time spent playing.
#[derive(Clone, Debug)]
pub struct Evaluation {
    agent: Agent2048,
    config: Game2048Config,
    seed: u64,
    games: u64,
    stats: GameStats,
    seconds: f64,
    chance_nodes: u64,
    /// The random agent's moves (the CLI's seed for them since its first version).
    random: Rng,
}

impl Evaluation {
    /// An evaluation of `agent` over `games` games of `config`'s rules seeded from `seed`.
    pub fn new(agent: Agent2048, config: Game2048Config, games: u64, seed: u64) -> Self {
        Evaluation {
            agent,
            config,
            seed,
            games,
            stats: GameStats::default(),
            seconds: 0.0,
            chance_nodes: 0,
            random: Rng::new(seed ^ 0x5EED),
        }
    }

    /// The agent evaluated.
    pub fn agent(&self) -> Agent2048 {
        self.agent
    }

    /// Games to play in all.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Games played so far.
    pub fn games_done(&self) -> u64 {
        self.stats.games
    }

    /// Whether every game has been played.
    pub fn is_finished(&self) -> bool {
        self.stats.games >= self.games
    }

    /// The games played so far, game by game.
    pub fn stats(&self) -> &GameStats {
        &self.stats
    }

    /// Plays up to `max_games` more games with `network` (the same network every call; the
    /// random agent needs none). Returns whether the evaluation is finished.
    pub fn play(
        &mut self,
        network: Option<&NTupleNetwork>,
        max_games: u64,
    ) -> Result<bool, EvaluationError> {
        let first = self.stats.games;
        let range = first..first + max_games.min(self.games - first);
        let (config, seed) = (self.config, self.seed);
        let started = clock_seconds();
        let stats = match (self.agent, network) {
            (Agent2048::Random, _) => {
                let rng = &mut self.random;
                play_game_range(config, range, seed, |board| {
                    random_move(board, rng).expect("a legal move")
                })
            }
            (agent, None) => return Err(EvaluationError::NeedsNetwork(agent.name())),
            (Agent2048::Greedy, Some(network)) => play_game_range(config, range, seed, |board| {
                network.best_move(board).expect("a legal move").0
            }),
            (Agent2048::Expectimax { depth }, Some(network)) => {
                // Its cache is cleared before every decision: a new search per chunk plays the
                // same moves as one for the whole run.
                let mut search =
                    Expectimax::new(|b| network.value(b), depth, config.four_probability);
                let stats = play_game_range(config, range, seed, |board| {
                    search.best_move(board).expect("a legal move").0
                });
                self.chance_nodes += search.nodes();
                stats
            }
        };
        self.seconds += clock_seconds() - started;
        self.stats.merge(&stats);
        Ok(self.is_finished())
    }

    /// The games played so far in a few numbers.
    pub fn summary(&self) -> GameSummary {
        self.stats.summary(self.seconds)
    }

    /// The report of the games played so far; `network` and `model` (its path or URL) say what
    /// played.
    pub fn report(
        &self,
        network: Option<&NTupleNetwork>,
        model: Option<String>,
    ) -> EvaluationReport {
        EvaluationReport {
            agent: self.agent.name().to_string(),
            depth: self.agent.depth(),
            model,
            games_trained: network.map(|n| n.games_trained()),
            tuple_set: network.map(|n| n.tuple_set().name().to_string()),
            seed: self.seed,
            chance_nodes: matches!(self.agent, Agent2048::Expectimax { .. })
                .then_some(self.chance_nodes),
            summary: self.summary(),
        }
    }
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

    /// Plays `evaluation` to its end in chunks of `chunk` games.
    fn play_in_chunks(
        mut evaluation: Evaluation,
        network: Option<&NTupleNetwork>,
        chunk: u64,
    ) -> Evaluation {
        let mut calls = 0;
        while !evaluation.play(network, chunk).unwrap() {
            calls += 1;
            assert!(calls < 100, "an evaluation always ends");
        }
        evaluation
    }

    #[test]
    fn an_evaluation_in_chunks_plays_the_games_of_one_call() {
        let network = trained(TupleSet::FiveFourTuples, 40);
        let config = Game2048Config::default();
        let greedy = play_games(config, 7, 5, |b| network.best_move(b).unwrap().0);
        let chunked = play_in_chunks(
            Evaluation::new(Agent2048::Greedy, config, 7, 5),
            Some(&network),
            3,
        );
        assert_eq!(chunked.stats(), &greedy);
        assert_eq!(chunked.games_done(), 7);
        assert!(chunked.is_finished());
        let summary = evaluate_greedy(&network, config, 7, 5);
        assert_eq!(summary.mean_score, greedy.mean_score());
        assert_eq!(summary.reach, chunked.summary().reach);

        // Expectimax: one search for the whole run, as the CLI had it, against chunks of 2.
        let mut search = Expectimax::new(|b| network.value(b), 2, config.four_probability);
        let whole = play_games(config, 5, 6, |b| search.best_move(b).unwrap().0);
        let agent = Agent2048::from_name("expectimax", 2).unwrap();
        let chunked = play_in_chunks(Evaluation::new(agent, config, 5, 6), Some(&network), 2);
        assert_eq!(chunked.stats(), &whole);
        let report = chunked.report(Some(&network), Some("net.ntuple".into()));
        assert_eq!(report.chance_nodes, Some(search.nodes()));
        assert_eq!(report.agent, "expectimax");
        assert_eq!(report.depth, Some(2));
        assert_eq!(report.games_trained, Some(40));
        assert_eq!(report.tuple_set.as_deref(), Some("5x4"));
        assert_eq!(report.seed, 6);
        assert_eq!(report.summary.games, 5);

        // Random moves: the CLI's generator, carried over the chunks.
        let mut rng = Rng::new(8 ^ 0x5EED);
        let whole = play_games(config, 6, 8, |b| {
            crate::env::game2048::random_move(b, &mut rng).unwrap()
        });
        let chunked = play_in_chunks(Evaluation::new(Agent2048::Random, config, 6, 8), None, 4);
        assert_eq!(chunked.stats(), &whole);
        let report = chunked.report(None, None);
        assert_eq!(
            (report.agent.as_str(), report.depth, report.chance_nodes),
            ("random", None, None)
        );
    }

    #[test]
    fn evaluation_agents_are_named_and_need_their_network() {
        assert_eq!(Agent2048::from_name("greedy", 3), Some(Agent2048::Greedy));
        assert_eq!(Agent2048::from_name("ntuple", 3), Some(Agent2048::Greedy));
        assert_eq!(
            Agent2048::from_name("expectimax", 0),
            Some(Agent2048::Expectimax { depth: 1 })
        );
        assert_eq!(Agent2048::from_name("minimax", 2), None);
        assert_eq!(Agent2048::Greedy.name(), "ntuple");
        let mut evaluation = Evaluation::new(
            Agent2048::Expectimax { depth: 2 },
            Game2048Config::default(),
            3,
            1,
        );
        let error = evaluation.play(None, 3).unwrap_err();
        assert_eq!(error, EvaluationError::NeedsNetwork("expectimax"));
        assert!(error.to_string().contains("network"));
        assert_eq!(evaluation.games_done(), 0);
        // An evaluation of no games is finished at once.
        let mut empty = Evaluation::new(Agent2048::Random, Game2048Config::default(), 0, 1);
        assert!(empty.play(None, 10).unwrap());
        assert_eq!(empty.summary().games, 0);
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
