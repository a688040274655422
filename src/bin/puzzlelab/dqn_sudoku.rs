//! `puzzlelab sudoku train` and `sudoku eval` (`--features learn`): deep Q-learning on Sudoku
//! (`agent::dqn::sudoku`), evaluated on puzzles binned by the exact solver's guesses.

#![cfg_attr(not(feature = "learn"), allow(dead_code))]

use crate::dqn::{CellsNetArgs, DqnArgs, RunArgs};
use clap::{Args, ValueEnum};

/// Which network and learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum NetArg {
    /// One dense layer 810 -> 810 on the one-hot grid, the progress rewards, replayed
    /// transitions, every action choosable (the network and set-up of Mehta's RL paper; also
    /// accepted as `paper`).
    #[value(alias = "paper")]
    Dense,
    /// puzzlelab's: features per (cell, digit) read by 1x1 layers shared by all actions; legal
    /// digits only; a wrong digit loses; every legal digit of each visited position backed up.
    Cells,
}

/// The puzzles: generated with a unique solution, `--givens` givens each (one of the list drawn
/// per puzzle), binned by the exact solver's guesses (easy < 3, medium 3-5, hard >= 6).
#[derive(Args, Debug, Clone)]
pub struct PuzzleSetArgs {
    /// Numbers of givens to draw from, comma-separated (fewer: more guesses).
    #[arg(long, value_delimiter = ',', default_value = "22,23,24,26,28")]
    pub givens: Vec<usize>,
}

/// `puzzlelab sudoku train`: deep Q-learning on a pool of generated 9x9 puzzles.
///
/// One progress line per chunk; every --eval-every steps and at the end plays --eval-per-bin
/// validation puzzles of each bin greedily; writes FILE (default sudoku-<net>.dqn) and FILE.json
/// (manifest with the curve), also as checkpoints. With --resume nothing of the learner or the
/// puzzles may change.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The network and learner.
    #[arg(long, value_enum, default_value = "cells")]
    pub net: NetArg,
    #[command(flatten)]
    pub cells: CellsNetArgs,
    /// Training puzzles (drawn from --seed; validation and reports use other seeds).
    #[arg(long, default_value_t = 2_000)]
    pub puzzles: usize,
    #[command(flatten)]
    pub set: PuzzleSetArgs,
    #[command(flatten)]
    pub dqn: DqnArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Validation puzzles of each bin.
    #[arg(long, default_value_t = 100)]
    pub eval_per_bin: usize,
}

/// `puzzlelab sudoku eval`: a model's greedy play on puzzles binned by guesses; prints JSON.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The model file.
    #[arg(long, value_name = "FILE")]
    pub model: String,
    /// Puzzles of each bin (generated from --seed).
    #[arg(long, default_value_t = 500)]
    pub per_bin: usize,
    /// The puzzles' seed (use one no run trained or validated on).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub set: PuzzleSetArgs,
    /// Plays the puzzles of this file instead (one a line), binned by guesses.
    #[arg(long, value_name = "FILE")]
    pub file: Option<String>,
}

#[cfg(feature = "learn")]
pub use learn::{eval, train};

needs_learn! {
    "sudoku train": fn train(&TrainArgs, &str) -> ();
    "sudoku eval": fn eval(&EvalArgs) -> ();
}

#[cfg(feature = "learn")]
mod learn {
    use super::{EvalArgs, TrainArgs};
    use crate::files::print_json;
    use crate::learner::{self, read_policy, TrainRequest};
    use anyhow::{Context, Result};
    use puzzlelab::agent::dqn::sudoku::{SudokuBins, SudokuLearner, SudokuSetup};
    use puzzlelab::agent::dqn::PuzzleLearner;
    use puzzlelab::env::sudoku::{Grid, GuessBin};
    use serde_json::json;

    /// `puzzlelab sudoku train`.
    pub fn train(args: &TrainArgs, command: &str) -> Result<()> {
        let setup = SudokuSetup {
            net: crate::dqn::flag_value(&args.net),
            count: args.puzzles,
            givens: args.set.givens.clone(),
            seed: None,
            layers: args.cells.layers,
            filters: args.cells.filters,
        };
        learner::train::<SudokuLearner>(
            setup,
            TrainRequest {
                may_change: &["--eval-per-bin"],
                ..TrainRequest::new(&args.dqn, &args.run, args.eval_per_bin, command)
            },
        )
    }

    /// `puzzlelab sudoku eval`.
    pub fn eval(args: &EvalArgs) -> Result<()> {
        let path = &args.model;
        let policy = read_policy(path)?;
        let started = std::time::Instant::now();
        let (bins, source) = match &args.file {
            Some(file) => {
                let text = std::fs::read_to_string(file)
                    .with_context(|| format!("{file}: cannot read"))?;
                let mut bins: [Vec<Grid>; 3] = Default::default();
                for (i, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    let grid = Grid::parse(line.split_whitespace().next().unwrap_or(line))
                        .with_context(|| format!("{file}:{}", i + 1))?;
                    bins[GuessBin::of(&grid) as usize].push(grid);
                }
                (bins, json!({ "file": file }))
            }
            None => {
                let setup = SudokuSetup {
                    givens: args.set.givens.clone(),
                    ..SudokuSetup::default()
                };
                (
                    SudokuLearner::validation(&setup, args.per_bin, args.seed)?,
                    json!({ "generated": { "seed": args.seed, "givens": args.set.givens } }),
                )
            }
        };
        let made = started.elapsed().as_secs_f64();
        let bins = SudokuBins::of(&policy, &bins).with_context(|| path.clone())?;
        print_json(&json!({
            "model": path,
            "puzzle": policy.puzzle_id(),
            "puzzles": source,
            "seconds_to_make_puzzles": made,
            "bins": bins,
        }));
        Ok(())
    }
}
