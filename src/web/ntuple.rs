//! Training 2048's n-tuple network by TD(0) in the page's worker, in chunks, and evaluating agents
//! in the browser.
//!
//! Thin handles over [`crate::agent::ntuple`]: [`NTupleTrainer`] owns a [`TdLearner`] and trains
//! it a chunk of games at a time (`www/2048/ntuple-worker.js` reports, pauses and stops between
//! chunks); [`NTupleEvaluation`] owns a network and an [`Evaluation`], the same one `puzzlelab
//! 2048 eval` runs, so the browser plays exactly the native games for a seed and reports them in
//! the CLI's JSON shape. Files are the CLI's (`PZL2048N`), not gzip-compressed: the worker
//! unpacks `.gz` files with the browser's `DecompressionStream` (the core bundle has no gzip).
//!
//! Only tuple sets of at most [`MAX_WEIGHTS_IN_A_TAB`] weights are accepted: Yeh's 4 × 6-tuples
//! (67 M weights) would take 256 MiB of f32 weights in the tab, plus as much again to save them.

use super::{js_error, to_js};
use crate::agent::ntuple::{
    Agent2048, Evaluation, NTupleNetwork, Precision, TdConfig, TdLearner, TupleSet,
};
use crate::env::game2048::Game2048Config;
use wasm_bindgen::prelude::*;

/// The most weights a network may have here: 2^24 (64 MiB as f32). The 4 × 5-tuples (4.2 M
/// weights, 16 MiB) and 5 × 4-tuples (327,680) fit; the 4 × 6-tuples (67 M, 256 MiB) do not.
pub const MAX_WEIGHTS_IN_A_TAB: usize = 1 << 24;

/// The tuple sets, for the page's choice: `[{name, tuples, cells, weights, megabytesF32,
/// fitsInATab}]`, `tuples` being each tuple's cells (row-major, 0 = top left).
#[wasm_bindgen(js_name = ntupleTupleSets)]
pub fn ntuple_tuple_sets() -> Result<JsValue, JsValue> {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct SetInfo {
        name: &'static str,
        tuples: Vec<Vec<u8>>,
        weights: usize,
        megabytes_f32: f64,
        fits_in_a_tab: bool,
    }
    let sets: Vec<SetInfo> = [
        TupleSet::FourFiveTuples,
        TupleSet::FiveFourTuples,
        TupleSet::FourSixTuples,
    ]
    .into_iter()
    .map(|set| SetInfo {
        name: set.name(),
        tuples: set.tuples(),
        weights: set.num_weights(),
        megabytes_f32: (set.num_weights() * 4) as f64 / (1 << 20) as f64,
        fits_in_a_tab: set.num_weights() <= MAX_WEIGHTS_IN_A_TAB,
    })
    .collect();
    to_js(&sets)
}

/// Refuses tuple sets too big for a tab, saying why and what to do instead.
fn check_fits(set: TupleSet) -> Result<(), JsValue> {
    if set.num_weights() <= MAX_WEIGHTS_IN_A_TAB {
        return Ok(());
    }
    Err(js_error(format!(
        "the {} tuple set has {} weights ({} MiB as f32): too big for a browser tab; train and \
         evaluate it with the command line (puzzlelab 2048 ntuple train / 2048 eval)",
        set.name(),
        set.num_weights(),
        (set.num_weights() * 4) >> 20
    )))
}

/// Reads a network file (not gzip), refusing damaged files and sets too big for a tab.
fn read_network(bytes: &[u8]) -> Result<NTupleNetwork, JsValue> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return Err(js_error(
            "this network file is gzip-compressed: decompress it first",
        ));
    }
    let network = NTupleNetwork::from_bytes(bytes).map_err(js_error)?;
    check_fits(network.tuple_set())?;
    Ok(network)
}

/// Reads a network file's bytes (not gzip) and says what it holds: `{tupleSet, weights,
/// gamesTrained}`; a damaged file, another kind of file or a set too big for a tab is an error
/// saying so.
#[wasm_bindgen(js_name = ntupleNetworkInfo)]
pub fn ntuple_network_info(bytes: &[u8]) -> Result<JsValue, JsValue> {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct NetworkInfo {
        tuple_set: &'static str,
        weights: usize,
        games_trained: u64,
    }
    let network = read_network(bytes)?;
    to_js(&NetworkInfo {
        tuple_set: network.tuple_set().name(),
        weights: network.weights().len(),
        games_trained: network.games_trained(),
    })
}

/// `"f32"` (exact) or `"f16"` (half the size, ~3 significant digits).
fn parse_precision(precision: &str) -> Result<Precision, JsValue> {
    match precision.trim() {
        "" | "f32" => Ok(Precision::F32),
        "f16" => Ok(Precision::F16),
        other => Err(js_error(format!(
            "unknown precision \"{other}\": f32 or f16"
        ))),
    }
}

/// A seed from JS: a whole number from 0 to 2^53 (a JS number holds no more exactly).
fn parse_seed(seed: f64) -> Result<u64, JsValue> {
    if seed.is_nan() {
        return Ok(0); // left out
    }
    super::seed_of(seed)
}

/// A TD(0) learner of an n-tuple network, trained a chunk of games at a time.
#[wasm_bindgen]
pub struct NTupleTrainer {
    learner: TdLearner,
}

impl NTupleTrainer {
    fn with_network(network: NTupleNetwork, alpha: f64, seed: f64) -> Result<Self, JsValue> {
        // A caller that leaves α out passes `undefined`, which arrives as NaN.
        let alpha = if alpha.is_nan() {
            TdConfig::default().alpha
        } else {
            alpha as f32
        };
        if !(alpha > 0.0 && alpha <= 1.0) {
            return Err(js_error(format!(
                "the learning rate α must lie above 0 and at most 1, not {alpha}"
            )));
        }
        let config = TdConfig {
            alpha,
            seed: parse_seed(seed)?,
            game: Game2048Config::default(),
        };
        Ok(NTupleTrainer {
            learner: TdLearner::new(network, config),
        })
    }
}

#[wasm_bindgen]
impl NTupleTrainer {
    /// A new network of `tuple_set` (`4x5` or `5x4`; `4x6` is refused as too big for a tab),
    /// every weight 0, learned with rate `alpha` (0.1 when left out) from games seeded by `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(tuple_set: &str, alpha: f64, seed: f64) -> Result<NTupleTrainer, JsValue> {
        let set = TupleSet::from_name(tuple_set).ok_or_else(|| {
            js_error(format!(
                "unknown tuple set \"{tuple_set}\": 4x5, 5x4 or 4x6"
            ))
        })?;
        check_fits(set)?;
        NTupleTrainer::with_network(NTupleNetwork::new(set), alpha, seed)
    }

    /// Goes on training a saved network (a file's bytes, not gzip): its games trained carry on,
    /// so game `g` is the `g`-th of the run seeded by `seed`.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8], alpha: f64, seed: f64) -> Result<NTupleTrainer, JsValue> {
        NTupleTrainer::with_network(read_network(bytes)?, alpha, seed)
    }

    /// Plays and learns from `games` more games (at least 1). Returns the chunk's statistics,
    /// `{games_trained, summary: {games, mean_score, median_score, max_score, mean_moves, reach:
    /// {"1024": rate, …, "32768": rate}, seconds, games_per_s, moves_per_s}}`, as the CLI's
    /// training curve has them.
    #[wasm_bindgen(js_name = trainGames)]
    pub fn train_games(&mut self, games: f64) -> Result<JsValue, JsValue> {
        if !(1.0..=1e9).contains(&games) {
            return Err(js_error(format!(
                "games per chunk must be from 1 to a billion, not {games}"
            )));
        }
        to_js(&self.learner.train_games(games as u64))
    }

    /// The network as a file (`PZL2048N`, what `puzzlelab 2048 eval --model` reads):
    /// `precision` `"f32"` (exact: training goes on where it was) or `"f16"` (half the size).
    #[wasm_bindgen(js_name = saveNetwork)]
    pub fn save_network(&self, precision: &str) -> Result<Vec<u8>, JsValue> {
        Ok(self.learner.network.to_bytes(parse_precision(precision)?))
    }

    /// Training games played so far (over every run the network has been through).
    #[wasm_bindgen(getter, js_name = gamesTrained)]
    pub fn games_trained(&self) -> f64 {
        self.learner.network.games_trained() as f64
    }

    /// `4x5`, `5x4` (or `4x6`).
    #[wasm_bindgen(getter, js_name = tupleSet)]
    pub fn tuple_set(&self) -> String {
        self.learner.network.tuple_set().name().to_string()
    }

    /// Weights in the network.
    #[wasm_bindgen(getter)]
    pub fn weights(&self) -> f64 {
        self.learner.network.weights().len() as f64
    }

    /// The learning rate α (for the whole value).
    #[wasm_bindgen(getter)]
    pub fn alpha(&self) -> f64 {
        // Through its shortest decimal text: 0.1, not 0.10000000149011612.
        self.learner
            .config
            .alpha
            .to_string()
            .parse()
            .unwrap_or(f64::NAN)
    }

    /// The seed of the training games.
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> f64 {
        self.learner.config.seed as f64
    }
}

/// An evaluation of an agent playing with a network: `games` games seeded from `seed`, played in
/// chunks; the report is `puzzlelab 2048 eval`'s JSON without `machine`.
#[wasm_bindgen]
pub struct NTupleEvaluation {
    network: Option<NTupleNetwork>,
    evaluation: Evaluation,
    model: Option<String>,
}

impl NTupleEvaluation {
    fn create(
        network: Option<NTupleNetwork>,
        agent: &str,
        depth: u32,
        games: f64,
        seed: f64,
        model: Option<String>,
    ) -> Result<NTupleEvaluation, JsValue> {
        let agent = Agent2048::from_name(agent, depth).ok_or_else(|| {
            js_error(format!(
                "unknown agent \"{agent}\": greedy (or ntuple), expectimax or random"
            ))
        })?;
        if let Agent2048::Expectimax { depth } = agent {
            if depth > 4 {
                return Err(js_error(format!(
                    "expectimax {depth} moves deep would take minutes a move here: 1 to 4"
                )));
            }
        }
        if !(1.0..=1e7).contains(&games) || games.fract() != 0.0 {
            return Err(js_error(format!(
                "games must be a whole number from 1 to 10 million, not {games}"
            )));
        }
        let config = Game2048Config::default();
        Ok(NTupleEvaluation {
            network,
            evaluation: Evaluation::new(agent, config, games as u64, parse_seed(seed)?),
            model: model.filter(|m| !m.is_empty()),
        })
    }
}

#[wasm_bindgen]
impl NTupleEvaluation {
    /// Evaluates the network in a file's bytes (not gzip). `agent`: `greedy` (or `ntuple`),
    /// `expectimax` (`depth` moves deep, 1 to 4) or `random`; `games` games, game `g` seeded with
    /// `game_seed(seed, g)` as natively; `model` names the file in the report (`""`: none).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        bytes: &[u8],
        agent: &str,
        depth: u32,
        games: f64,
        seed: f64,
        model: &str,
    ) -> Result<NTupleEvaluation, JsValue> {
        let network = read_network(bytes)?;
        NTupleEvaluation::create(Some(network), agent, depth, games, seed, Some(model.into()))
    }

    /// Evaluates a copy of the trainer's network as it is now (training may go on meanwhile).
    #[wasm_bindgen(js_name = fromTrainer)]
    pub fn from_trainer(
        trainer: &NTupleTrainer,
        agent: &str,
        depth: u32,
        games: f64,
        seed: f64,
    ) -> Result<NTupleEvaluation, JsValue> {
        let network = trainer.learner.network.clone();
        NTupleEvaluation::create(Some(network), agent, depth, games, seed, None)
    }

    /// Plays up to `games` more games (at least 1); true once every game has been played.
    pub fn play(&mut self, games: f64) -> Result<bool, JsValue> {
        let games = if games >= 1.0 { games as u64 } else { 1 };
        self.evaluation
            .play(self.network.as_ref(), games)
            .map_err(js_error)
    }

    /// Games played so far.
    #[wasm_bindgen(getter, js_name = gamesDone)]
    pub fn games_done(&self) -> f64 {
        self.evaluation.games_done() as f64
    }

    /// Games to play in all.
    #[wasm_bindgen(getter)]
    pub fn games(&self) -> f64 {
        self.evaluation.games() as f64
    }

    /// The report of the games played so far: `{agent, depth, model, games_trained, tuple_set,
    /// seed, chance_nodes, summary: {games, mean_score, median_score, max_score, mean_moves,
    /// reach: {"1024": rate, …}, seconds, games_per_s, moves_per_s}}`.
    pub fn report(&self) -> Result<JsValue, JsValue> {
        to_js(
            &self
                .evaluation
                .report(self.network.as_ref(), self.model.clone()),
        )
    }
}
