//! `puzzlelab dust train` and `dust eval --agent dqn` (`--features learn`): deep Q-learning on the
//! dust puzzle (`agent::dqn::dust`), validated by greedy play on seeded boards.

#![cfg_attr(not(feature = "learn"), allow(dead_code))]

use crate::dqn::{DqnArgs, RunArgs};
use clap::{Args, ValueEnum};
use puzzlelab::env::samegame::Board;

/// Which learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum NetArg {
    /// Batched DQN: 1,000 games at once, ε-greedy play and replay, every cell clickable (an
    /// empty one costs -10), gamma 0.8, dense layers (the dust-puzzle blog post's learner, five
    /// layers of 1,500; also accepted as `blog`).
    #[value(alias = "blog")]
    Batched,
    /// puzzlelab's: every legal click of fresh boards from every stage of a game backed up
    /// (DeepCubeA's value iteration on Q-values), gamma 1, piles only.
    Backups,
}

/// The next position's value in the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TargetArg {
    /// The usual max over the next Q-values.
    Max,
    /// The mean of the next Q-values (the dust-puzzle blog post's target).
    Mean,
}

/// How a network chooses its clicks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlayArg {
    /// As its learner plays: with lookahead for puzzlelab's (backups), greedily for the batched
    /// DQN's.
    Auto,
    /// Its greedy click among the piles.
    Greedy,
    /// The group whose board after it the network values most (one step of lookahead).
    Lookahead,
    /// A beam search over the network's values of the boards after each group, `--beam-width`
    /// boards a layer.
    Beam,
}

/// `puzzlelab dust train`: deep Q-learning on seeded random boards.
///
/// One progress line per chunk; every --eval-every steps and at the end plays --eval-boards
/// validation boards greedily; writes FILE (default dust-<net>.dqn) and FILE.json (manifest with
/// the curve), also as checkpoints. With --resume nothing of the learner may change.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The learner.
    #[arg(long, value_enum, default_value = "backups")]
    pub net: NetArg,
    /// The next position's value in the TD target.
    #[arg(long, value_enum, default_value = "max")]
    pub target: TargetArg,
    #[command(flatten)]
    pub dqn: DqnArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Validation boards (their own seed, apart from training's and from eval's default).
    #[arg(long, default_value_t = 200)]
    pub eval_boards: usize,
}

#[cfg(feature = "learn")]
pub use learn::{dqn_clicks, train};

needs_learn! {
    "dust train": fn train(&TrainArgs, &str) -> ();
    "dust eval --agent dqn": fn dqn_clicks(&str, &[Board], PlayArg, usize) -> Vec<Vec<usize>>;
}

#[cfg(feature = "learn")]
mod learn {
    use super::{Board, PlayArg, TrainArgs};
    use crate::dqn::flag_value;
    use crate::learner::{self, read_policy, TrainRequest};
    use anyhow::{Context, Result};
    use puzzlelab::agent::dqn::dust::{
        play, play_beam, play_greedy, play_lookahead, DustLearner, DustSetup,
    };

    /// Boards played side by side (one forward pass a click for all).
    const EVAL_BATCH: usize = 200;

    /// The clicks on `boards` of the model file at `path`, played the way `how` says (`width`:
    /// the beam's, for [`PlayArg::Beam`]).
    pub fn dqn_clicks(
        path: &str,
        boards: &[Board],
        how: PlayArg,
        width: usize,
    ) -> Result<Vec<Vec<usize>>> {
        let policy = read_policy(path)?;
        match how {
            PlayArg::Auto => play(&policy, boards, EVAL_BATCH),
            PlayArg::Lookahead => play_lookahead(&policy, boards, EVAL_BATCH),
            PlayArg::Greedy => play_greedy(&policy, boards, EVAL_BATCH),
            PlayArg::Beam => play_beam(&policy, boards, width),
        }
        .with_context(|| path.to_string())
    }

    /// `puzzlelab dust train`.
    pub fn train(args: &TrainArgs, command: &str) -> Result<()> {
        let setup = DustSetup {
            net: flag_value(&args.net),
            target: flag_value(&args.target),
        };
        learner::train::<DustLearner>(
            setup,
            TrainRequest {
                may_change: &["--eval-boards"],
                ..TrainRequest::new(&args.dqn, &args.run, args.eval_boards, command)
            },
        )
    }
}
