//! Deep Q-learning on the sliding puzzles: `train`, `eval`, `bench-dqn` and `solve --algo dqn`
//! (the learner of `agent::dqn`; these need `--features learn`). The flags shared with
//! `2048 train` are [`DqnArgs`] and [`RunArgs`].

#![cfg_attr(not(feature = "learn"), allow(dead_code))]

use crate::sliding::BoardArgs;
use clap::{Args, ValueEnum};

/// What a learn-only command says in a build without burn.
#[cfg(not(feature = "learn"))]
pub const NEEDS_LEARN: &str =
    "this needs the deep-learning build: cargo build --release --features learn";

/// The size of a `--net cells` network, the one network shared by every cell (Minesweeper: 3x3
/// convolutions; Sudoku: 1x1 layers over each (cell, digit)); unset, the learner's defaults.
#[derive(Args, Debug, Clone)]
pub struct CellsNetArgs {
    /// --net cells: hidden layers.
    #[arg(long)]
    pub layers: Option<usize>,
    /// --net cells: filters (units) per layer.
    #[arg(long)]
    pub filters: Option<usize>,
}

/// The name a value of a `--flag` takes on the command line (and a manifest records).
pub fn flag_value<T: ValueEnum>(value: &T) -> String {
    value
        .to_possible_value()
        .expect("every value is named")
        .get_name()
        .to_string()
}

/// The deep Q-learner's hyper-parameters (each trainer has its own defaults).
#[derive(Args, Debug, Clone)]
pub struct DqnArgs {
    /// Hidden layer widths, comma-separated (the dissertation's 250,250,250).
    #[arg(long, value_delimiter = ',', value_name = "W1,W2,...")]
    pub hidden: Option<Vec<usize>>,
    /// Adam's learning rate (may change on --resume: a lower rate to go on at).
    #[arg(long)]
    pub lr: Option<f64>,
    /// The discount γ.
    #[arg(long)]
    pub gamma: Option<f32>,
    /// Minibatch size.
    #[arg(long)]
    pub batch: Option<usize>,
    /// Replay buffer capacity.
    #[arg(long)]
    pub replay: Option<usize>,
    /// Environments played side by side.
    #[arg(long)]
    pub envs: Option<usize>,
    /// Episodes played before the first gradient step.
    #[arg(long)]
    pub warmup: Option<usize>,
    /// ε's factor per finished episode.
    #[arg(long)]
    pub epsilon_decay: Option<f32>,
    /// ε's floor.
    #[arg(long)]
    pub epsilon_min: Option<f32>,
    /// Gradient steps between copies into the target network (dissertation: 10).
    #[arg(long)]
    pub target_every: Option<usize>,
    /// Double DQN targets.
    #[arg(long)]
    pub double: bool,
    /// Huber loss instead of the squared error.
    #[arg(long)]
    pub huber: bool,
    /// Only legal moves are chosen and bootstrapped from.
    #[arg(long)]
    pub mask: bool,
    /// Prioritised replay.
    #[arg(long)]
    pub prioritized: bool,
    /// No play and no replay: each gradient step draws --batch fresh starts and backs up every
    /// move of each (DeepCubeA's value iteration on Q-values).
    #[arg(long)]
    pub full_backups: bool,
    /// With --full-backups: the share of every batch drawn from states where the greedy policy
    /// failed (found by playing it from fresh starts every 500 steps; 0: none).
    #[arg(long, value_name = "SHARE")]
    pub failure_share: Option<f32>,
    /// The run's seed (default 0).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// A chunked training run: its length, chunks, evaluations, checkpoints and files.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Training steps in all (a resumed run goes on to this count).
    #[arg(long)]
    pub steps: Option<usize>,
    /// Steps a progress line.
    #[arg(long, default_value_t = 1000)]
    pub chunk: usize,
    /// An in-training evaluation every N steps (0: only at the end).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub eval_every: usize,
    /// The model and its manifest are written every N steps as checkpoints.
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub checkpoint_every: usize,
    /// The model file to write (its manifest is FILE.json).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Goes on from a saved model (and its manifest) to --steps in all; Adam's moments and the
    /// replay buffer start again.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<String>,
    /// Starts a new run from this model's weights (its network is taken): to go on with other
    /// settings than the model's run (a larger batch, demonstrations, a new board size).
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub init: Option<String>,
    /// Where the networks train: the CPU, the GPU (burn's wgpu backend over Vulkan, Metal or
    /// DX12; a binary built with --features gpu), or the GPU when one answers, else the CPU. The
    /// model file is the same whichever trained it.
    #[arg(long, value_enum, default_value = "cpu")]
    pub device: DeviceArg,
}

/// Where a run trains (`--device`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeviceArg {
    /// burn's CPU backend.
    Cpu,
    /// burn's wgpu backend on the machine's GPU.
    Gpu,
    /// The GPU when one answers, else the CPU.
    Auto,
}

impl RunArgs {
    /// The driver's plan to `target` steps in all.
    pub fn plan(&self, target: usize) -> crate::training::Plan {
        crate::training::Plan {
            target: target as u64,
            chunk: self.chunk as u64,
            eval_every: self.eval_every as u64,
            checkpoint_every: self.checkpoint_every as u64,
        }
    }
}

/// How the evaluation and the model-guided search run.
#[derive(Args, Debug, Clone, Default)]
pub struct EvaluationArgs {
    /// Positions per optimal distance (boards of at most 9 cells) or per walk difficulty (4x4).
    #[arg(long)]
    pub per_distance: Option<usize>,
    /// The beam search's width.
    #[arg(long)]
    pub beam_width: Option<usize>,
    /// The beam search's node budget.
    #[arg(long)]
    pub max_nodes_search: Option<usize>,
}

/// A reward scheme of the sliding puzzles' DQN.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RewardArg {
    /// −(Manhattan + 2 × linear conflicts), −1 more into a wall (the N-puzzle DQN dissertation's
    /// reward; also accepted as `thesis`).
    #[value(aliases = ["thesis", "seed000"])]
    HeuristicPenalty,
    /// −1 a move (the dust-puzzle blog post's step reward).
    #[value(alias = "seed001")]
    Steps,
    /// −10 a move, −1000 into a wall, +100 at the goal (the sun/moon Q-learning README's reward;
    /// also accepted as `seed003`).
    #[value(aliases = ["seed003", "sun-moon"])]
    StepCostGoalBonus,
}

/// `puzzlelab sliding train`: deep Q-learning on a sliding puzzle, with the N-puzzle DQN dissertation's
/// defaults.
///
/// One progress line per chunk on stderr; writes the model FILE (default dqn-RxC.dqn) and its
/// manifest FILE.json, also as checkpoints. --difficulty D: the random walk's Manhattan + 2·LC
/// (default 10); --curriculum starts at D (default 1) and raises it after 3 in-training
/// evaluations in a row above 80%; --mixed draws each episode's difficulty from 1 to the current
/// one. With --resume, only --difficulty, --mixed, --uniform-starts and --lr may change.
#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    #[command(flatten)]
    pub dqn: DqnArgs,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub evaluation: EvaluationArgs,
    /// The random walk's Manhattan + 2 × linear conflicts that starts an episode.
    #[arg(long)]
    pub difficulty: Option<u32>,
    /// Raise the difficulty after 3 evaluations in a row above 80% (the dissertation's).
    #[arg(long)]
    pub curriculum: bool,
    /// The reward.
    #[arg(long, value_enum)]
    pub reward: Option<RewardArg>,
    /// Each episode's difficulty is drawn from 1 to the current one.
    #[arg(long)]
    pub mixed: bool,
    /// With --mixed: every other episode starts from a uniformly random solvable position.
    #[arg(long)]
    pub uniform_starts: bool,
}

/// `puzzlelab sliding eval`: evaluates a model on fresh positions by optimal distance: greedy solved %
/// within 50 moves, model-guided beam search solved % and mean extra moves; prints JSON (stdout)
/// and a table (stderr).
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The model file.
    #[arg(long, value_name = "FILE", required = true)]
    pub model: String,
    #[command(flatten)]
    pub evaluation: EvaluationArgs,
    /// Adds a table for N uniformly random positions.
    #[arg(long, value_name = "N")]
    pub uniform_positions: Option<usize>,
    /// Adds the greedy policy's score on every position that can reach the goal (boards of at
    /// most 9 cells: 181,440 on the 8-puzzle), checked against the exact table: solved,
    /// optimal, the distribution of extra moves (`every_position`).
    #[arg(long)]
    pub every_position: bool,
    /// The positions' seed (default: the board's evaluation seed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// With --uniform-positions: also solves them by batch-weighted A* over the network's
    /// estimate of the moves left, f = LAMBDA·g + h (1: closest to optimal; DeepCubeA's 0.6:
    /// faster), and reports how many solutions are optimal.
    #[arg(long, value_name = "LAMBDA")]
    pub bwas_lambda: Option<f32>,
    /// Batch-weighted A*: nodes expanded per forward pass.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub bwas_batch: usize,
    /// Batch-weighted A*: nodes expanded at most per position.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub bwas_max_nodes: usize,
    /// Batch-weighted A*: round each estimate plus this offset down to the position's parity
    /// (docs/sliding.md).
    #[arg(long, value_name = "OFFSET")]
    pub bwas_parity_offset: Option<f32>,
    /// Adds the result, with this command, the machine and the date, to MODEL.json's
    /// "evaluations" under this name (such as "every_position").
    #[arg(long, value_name = "NAME")]
    pub record: Option<String>,
}

/// `puzzlelab sliding bench-dqn`: times the dissertation's DQN on the CPU: training steps per second
/// (after the warm-up) and the latency of one greedy move, on the 8- and 15-puzzle networks;
/// prints JSON.
#[derive(Args, Debug)]
pub struct BenchDqnArgs {
    /// Timed training steps per board.
    #[arg(long, default_value_t = 2000)]
    pub steps: usize,
    /// The learner's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Where the networks train (as `train --device`).
    #[arg(long, value_enum, default_value = "cpu")]
    pub device: DeviceArg,
}

/// `puzzlelab <puzzle> average`: the weighted mean of trained models' weights (models trained on
/// from one ancestor), validated as the puzzle's `train` validates, with a manifest that lists
/// every input and the commands that made it.
#[derive(Args, Debug)]
pub struct AverageArgs {
    /// The models, comma separated (one puzzle, one network; the first one's setup is kept).
    #[arg(long, value_name = "A,B,...", value_delimiter = ',', required = true)]
    pub models: Vec<String>,
    /// Each model's share of the mean, comma separated (default: equal shares).
    #[arg(long, value_name = "S,S,...", value_delimiter = ',')]
    pub shares: Vec<f64>,
    /// Where to write the model (and its manifest, FILE.json).
    #[arg(long, value_name = "FILE", required = true)]
    pub out: String,
}

impl AverageArgs {
    /// Each model with its share (equal shares when none are given).
    pub fn shared(&self) -> anyhow::Result<Vec<(String, f64)>> {
        let shares = match self.shares.len() {
            0 => vec![1.0; self.models.len()],
            n if n == self.models.len() => self.shares.clone(),
            n => anyhow::bail!(
                "{n} shares for {} models: give one share a model",
                self.models.len()
            ),
        };
        Ok(self.models.iter().cloned().zip(shares).collect())
    }
}

#[cfg(feature = "learn")]
pub use crate::dqn_sliding::{average, bench_dqn, eval, solve_with_model, train};

#[cfg(not(feature = "learn"))]
pub use unavailable::{average, bench_dqn, eval, solve_with_model, train};

#[cfg(not(feature = "learn"))]
mod unavailable {
    use super::{AverageArgs, BenchDqnArgs, EvalArgs, TrainArgs, NEEDS_LEARN};
    use crate::sliding::SolveArgs;
    use anyhow::{bail, Result};

    pub fn train(_: &TrainArgs, _: &str) -> Result<()> {
        bail!("sliding train: {NEEDS_LEARN}")
    }

    pub fn eval(_: &EvalArgs, _: &str) -> Result<()> {
        bail!("sliding eval: {NEEDS_LEARN}")
    }

    pub fn bench_dqn(_: &BenchDqnArgs) -> Result<()> {
        bail!("bench-dqn: {NEEDS_LEARN}")
    }

    pub fn average(_: &AverageArgs, _: &str) -> Result<()> {
        bail!("sliding average: {NEEDS_LEARN}")
    }

    pub fn solve_with_model(_: &SolveArgs, _: &str) -> Result<String> {
        bail!("--algo dqn: {NEEDS_LEARN}")
    }
}
