//! `puzzlelab minesweeper train` and `minesweeper eval --agent dqn` (`--features learn`): deep
//! Q-learning on Minesweeper (`agent::dqn::minesweeper`).

#![cfg_attr(not(feature = "learn"), allow(dead_code))]

use crate::dqn::{CellsNetArgs, DqnArgs, RunArgs};
use crate::minesweeper::BoardArgs;
use clap::{Args, ValueEnum};

/// Which network and learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum NetArg {
    /// Convolutions 4x4x16, 3x3x32, 2x2x64 flattened into a dense layer to one Q-value per cell;
    /// the progress rewards; replayed transitions; revealed cells choosable (the network and
    /// set-up of Mehta's RL paper; also accepted as `paper`).
    #[value(alias = "paper")]
    ConvDense,
    /// puzzlelab's: fully convolutional (3x3 layers, a 1x1 head per cell, any board size);
    /// covered cells only; every covered cell of each visited position backed up; win +1/loss -1.
    Cells,
}

/// `puzzlelab minesweeper train`: deep Q-learning on one board (--level or
/// --width/--height/--mines, --first-click).
///
/// One progress line per chunk; every --eval-every steps and at the end plays --eval-games
/// greedy validation games (first click at --first-cell); writes FILE (default
/// minesweeper-<net>.dqn) and FILE.json (manifest with the curve), also as checkpoints. With
/// --resume nothing of the learner or the board may change.
#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The network and learner.
    #[arg(long, value_enum, default_value = "cells")]
    pub net: NetArg,
    #[command(flatten)]
    pub cells: CellsNetArgs,
    /// --net cells: fit each cell's log-odds of not losing by cross-entropy instead of its
    /// reward by squared error (a two-atom categorical DQN; DqnConfig::survival_logits).
    #[arg(long)]
    pub survival: bool,
    #[command(flatten)]
    pub dqn: DqnArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Games of each validation.
    #[arg(long, default_value_t = 500)]
    pub eval_games: usize,
}

#[cfg(feature = "learn")]
pub use learn::{eval_model, train};

needs_learn! {
    "minesweeper train": fn train(&TrainArgs, &str) -> ();
    "minesweeper eval --agent dqn": fn eval_model(&str, puzzlelab::env::minesweeper::Layout, puzzlelab::env::minesweeper::FirstClick, usize, usize, u64) -> puzzlelab::env::minesweeper::Evaluation;
}

#[cfg(feature = "learn")]
mod learn {
    use super::TrainArgs;
    use crate::learner::{self, TrainRequest};
    use anyhow::Result;
    use puzzlelab::agent::dqn::minesweeper::{MinesSetup, MinesweeperLearner};
    use puzzlelab::env::minesweeper::{Evaluation, FirstClick, Layout};

    /// The setup of a board, its first click (rule, and cell of validation games) and network.
    fn setup(layout: Layout, first_click: FirstClick, first: usize, net: &str) -> MinesSetup {
        MinesSetup {
            width: layout.width,
            height: layout.height,
            mines: layout.mines,
            first_click,
            first_cell: [first % layout.width, first / layout.width],
            net: net.into(),
            ..MinesSetup::default()
        }
    }

    /// `puzzlelab minesweeper train`.
    pub fn train(args: &TrainArgs, command: &str) -> Result<()> {
        let (layout, rule, first) = args.board.resolve()?;
        let setup = MinesSetup {
            layers: args.cells.layers,
            filters: args.cells.filters,
            survival: args.survival,
            ..setup(layout, rule, first, &crate::dqn::flag_value(&args.net))
        };
        learner::train::<MinesweeperLearner>(
            setup,
            TrainRequest {
                may_change: &["--eval-games"],
                ..TrainRequest::new(&args.dqn, &args.run, args.eval_games, command)
            },
        )
    }

    /// `minesweeper eval --agent dqn --model FILE`: the model's greedy play on the seeded boards
    /// (a fully convolutional model plays any size).
    pub fn eval_model(
        path: &str,
        layout: Layout,
        rule: FirstClick,
        first: usize,
        games: usize,
        seed: u64,
    ) -> Result<Evaluation> {
        let setup = setup(layout, rule, first, "cells");
        learner::eval_model::<MinesweeperLearner>(path, &setup, games, seed)
    }
}
