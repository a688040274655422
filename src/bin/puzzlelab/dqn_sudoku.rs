//! `puzzlelab sudoku train` and `sudoku eval` (`--features learn`): deep Q-learning on Sudoku
//! (`agent::dqn::sudoku`), evaluated on puzzles binned by the exact solver's guesses.

#![cfg_attr(not(feature = "learn"), allow(dead_code))]

use crate::dqn::{DqnArgs, RunArgs};
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
    /// --net cells: hidden 1x1 layers.
    #[arg(long)]
    pub layers: Option<usize>,
    /// --net cells: units per layer.
    #[arg(long)]
    pub filters: Option<usize>,
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

#[cfg(not(feature = "learn"))]
pub fn train(_: &TrainArgs, _: &str) -> anyhow::Result<()> {
    anyhow::bail!("sudoku train: {}", crate::dqn::NEEDS_LEARN)
}

#[cfg(not(feature = "learn"))]
pub fn eval(_: &EvalArgs) -> anyhow::Result<()> {
    anyhow::bail!("sudoku eval: {}", crate::dqn::NEEDS_LEARN)
}

#[cfg(feature = "learn")]
mod learn {
    use super::{EvalArgs, NetArg, TrainArgs};
    use crate::files::{print_json, read_manifest, write_atomically, write_json};
    use crate::manifest::{open_to_resume, refuse_changes_on_resume, DqnRun, ResumeRecord};
    use crate::training::{self, ChunkedTraining};
    use anyhow::{anyhow, Context, Result};
    use burn::tensor::Device;
    use clap::ValueEnum;
    use puzzlelab::agent::dqn::sudoku::{
        cells_config, cells_env, dense_config, dense_env, evaluate_bins, SudokuEvaluation,
    };
    use puzzlelab::agent::dqn::{Dqn, DqnConfig, QPolicy, MODEL_FORMAT_VERSION};
    // The validation seed and the training pool's first seed are the library's (the page's
    // trainer uses the same).
    use puzzlelab::env::sudoku::{
        binned_puzzles, training_puzzles, Grid, GuessBin, SudokuEnv, TRAINING_SEED, VALIDATION_SEED,
    };
    use serde::{Deserialize, Serialize};
    use serde_json::{json, Value};

    /// Puzzles played side by side in an evaluation (one forward pass a move for all).
    const EVAL_BATCH: usize = 50;
    /// Puzzles drawn at most to fill the bins (hard ones are ~4% at 23 givens).
    const MAX_DRAWN: usize = 400_000;

    /// What a manifest records of the puzzles (read back by --resume).
    #[derive(Serialize, Deserialize, Clone, Debug)]
    struct Puzzles {
        net: String,
        count: usize,
        givens: Vec<usize>,
        seed: u64,
    }

    #[derive(Deserialize)]
    struct PuzzlesRecord {
        puzzles: Puzzles,
    }

    /// The name `--net` takes for `net`, as the manifest records it.
    fn net_name(net: NetArg) -> String {
        net.to_possible_value().expect("named").get_name().into()
    }

    fn config_from(args: &TrainArgs) -> Result<DqnConfig> {
        let defaults = match args.net {
            NetArg::Dense => dense_config(),
            NetArg::Cells => cells_config(args.layers.unwrap_or(2), args.filters.unwrap_or(32)),
        };
        let (backup_visited, survival_logits) = (defaults.backup_visited, defaults.survival_logits);
        let config = DqnConfig {
            backup_visited,
            survival_logits,
            ..args.dqn.config(defaults)?
        };
        config.validate()?;
        Ok(config)
    }

    fn make_env(net: NetArg, puzzles: Vec<Grid>) -> SudokuEnv {
        match net {
            NetArg::Dense => dense_env(puzzles),
            NetArg::Cells => cells_env(puzzles),
        }
    }

    /// The bins as JSON, beside the rates Mehta's RL paper published.
    fn bins_json(results: &[(GuessBin, SudokuEvaluation)]) -> Value {
        Value::Object(
            results
                .iter()
                .map(|(bin, e)| {
                    let mut value = serde_json::to_value(e).expect("plain numbers");
                    value["published_solved_rate"] = json!(bin.published_solved_rate());
                    (bin.name().to_string(), value)
                })
                .collect(),
        )
    }

    /// A `sudoku train` run, as the driver steps it.
    struct SudokuRun {
        dqn: Dqn<SudokuEnv>,
        net: NetArg,
        puzzles: Puzzles,
        validation: [Vec<Grid>; 3],
        out: String,
        target: usize,
        commands: Vec<String>,
        curve: Vec<Value>,
        evaluation: Option<Value>,
    }

    #[derive(Serialize)]
    struct Manifest<'a> {
        #[serde(flatten)]
        run: DqnRun<'a>,
        what: String,
        puzzle: String,
        puzzles: &'a Puzzles,
        reward: &'static str,
        parameters: usize,
        training_curve: &'a [Value],
        validation_seed: u64,
        validation_per_bin: usize,
        validation: Option<&'a Value>,
        resume: &'static str,
    }

    impl ChunkedTraining for SudokuRun {
        fn done(&self) -> u64 {
            self.dqn.steps_done() as u64
        }

        fn train_chunk(&mut self, units: u64) -> Result<String> {
            let stats = self.dqn.train_steps(units as usize);
            Ok(training::dqn_progress(
                self.dqn.steps_done(),
                self.target,
                &stats,
                ("episodes", self.dqn.episodes_done()),
            ))
        }

        fn evaluate(&mut self) -> Result<()> {
            let results = evaluate_bins(&self.dqn.policy(), &self.validation, EVAL_BATCH)?;
            let line: Vec<String> = results
                .iter()
                .map(|(bin, e)| {
                    format!(
                        "{} {:.1}% ({:.2} filled)",
                        bin.name(),
                        100.0 * e.solved_rate,
                        e.filled_fraction
                    )
                })
                .collect();
            eprintln!(
                "validation ({} a bin): {}",
                self.validation[0].len(),
                line.join(", ")
            );
            let bins = bins_json(&results);
            self.curve.push(json!({
                "step": self.dqn.steps_done(),
                "episodes": self.dqn.episodes_done(),
                "bins": bins,
            }));
            self.evaluation = Some(bins);
            Ok(())
        }

        fn save(&mut self, finished: bool, wall_seconds: f64) -> Result<()> {
            let policy = self.dqn.policy();
            write_atomically(&self.out, &policy.to_bytes())?;
            let dense = self.net == NetArg::Dense;
            let manifest = Manifest {
                run: DqnRun::new(&self.out, &self.dqn, wall_seconds, &self.commands, finished),
                what: format!(
                    "puzzlelab DQN model (format version {MODEL_FORMAT_VERSION}): Sudoku 9x9, {}",
                    if dense {
                        "one dense layer 810 -> 810 on the one-hot grid (the network of Mehta's RL paper)"
                    } else {
                        "puzzlelab's network shared by all 810 actions over per-action features"
                    }
                ),
                puzzle: policy.puzzle_id().to_string(),
                puzzles: &self.puzzles,
                reward: if dense {
                    "progress (Mehta's): progress +1, no progress -1, a broken rule -2 (162 moves at most)"
                } else {
                    "a right digit +1, a wrong one -1 and the episode ends (fitted as log-odds)"
                },
                parameters: self.dqn.network_config().num_params(),
                training_curve: &self.curve,
                validation_seed: VALIDATION_SEED,
                validation_per_bin: self.validation[0].len(),
                validation: self.evaluation.as_ref(),
                resume:
                    "weights, steps, episodes (ε); Adam's moments and the replay buffer start again",
            };
            write_json(&format!("{}.json", self.out), &manifest)
        }
    }

    /// `puzzlelab sudoku train`.
    pub fn train(args: &TrainArgs, command: &str) -> Result<()> {
        let resume = args.run.resume.clone();
        let mut recorded = vec![
            ("--layers", args.layers.is_some()),
            ("--filters", args.filters.is_some()),
        ];
        recorded.extend(
            args.dqn
                .recorded()
                .into_iter()
                .filter(|(flag, _)| *flag != "--lr"),
        );
        refuse_changes_on_resume(resume.is_some(), &recorded)?;
        let (config, puzzles, record, bytes) = match &resume {
            Some(path) => {
                let (bytes, policy, record) = open_to_resume(path)?;
                let puzzles: PuzzlesRecord = read_manifest(path)?;
                let training = policy.training().expect("checked by open_to_resume");
                (
                    training.config.clone(),
                    puzzles.puzzles,
                    record,
                    Some(bytes),
                )
            }
            None => {
                let config = config_from(args)?;
                let puzzles = Puzzles {
                    net: net_name(args.net),
                    count: args.puzzles,
                    givens: args.set.givens.clone(),
                    seed: TRAINING_SEED + config.seed,
                };
                (config, puzzles, ResumeRecord::default(), None)
            }
        };
        // An older manifest may name the network by its former name (`paper`): read through the
        // aliases, recorded again by the current name.
        let net = NetArg::from_str(&puzzles.net, false).map_err(|e| anyhow!(e))?;
        let puzzles = Puzzles {
            net: net_name(net),
            ..puzzles
        };
        let target = args
            .run
            .steps
            .ok_or_else(|| anyhow!("sudoku train needs --steps N (in all)"))?;
        let started = std::time::Instant::now();
        let pool = training_puzzles(puzzles.seed, puzzles.count, &puzzles.givens);
        anyhow::ensure!(!pool.is_empty(), "no training puzzle could be generated");
        let validation = binned_puzzles(
            VALIDATION_SEED,
            args.eval_per_bin,
            &puzzles.givens,
            MAX_DRAWN,
        );
        eprintln!(
            "sudoku train: {} training puzzles, validation {}/{}/{} (easy/medium/hard), made in {:.1} s",
            pool.len(),
            validation[0].len(),
            validation[1].len(),
            validation[2].len(),
            started.elapsed().as_secs_f64()
        );
        let mut dqn = Dqn::new(|| make_env(net, pool.clone()), config, &Device::flex())?;
        if let Some(bytes) = &bytes {
            dqn.resume(bytes)?;
            eprintln!("sudoku train: resuming at step {}", dqn.steps_done());
        }
        let out = args
            .run
            .out
            .clone()
            .or(resume)
            .unwrap_or_else(|| format!("sudoku-{}.dqn", puzzles.net));
        eprintln!(
            "sudoku train: {} parameters, to step {target}, writing {out}",
            dqn.network_config().num_params(),
        );
        let mut commands = record.commands;
        commands.push(command.to_string());
        let mut run = SudokuRun {
            dqn,
            net,
            puzzles,
            validation,
            out,
            target,
            commands,
            curve: record.training_curve,
            evaluation: None,
        };
        let wall_seconds = training::run(&mut run, args.run.plan(target), record.wall_seconds)?;
        training::report_written("sudoku train", &run.out, run.dqn.steps_done(), wall_seconds);
        Ok(())
    }

    /// `puzzlelab sudoku eval`.
    pub fn eval(args: &EvalArgs) -> Result<()> {
        let path = &args.model;
        let bytes = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
        let policy =
            QPolicy::from_bytes(&bytes, &Device::flex()).with_context(|| path.to_string())?;
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
            None => (
                binned_puzzles(args.seed, args.per_bin, &args.set.givens, MAX_DRAWN),
                json!({ "generated": { "seed": args.seed, "givens": args.set.givens } }),
            ),
        };
        let made = started.elapsed().as_secs_f64();
        let results = evaluate_bins(&policy, &bins, EVAL_BATCH).with_context(|| path.clone())?;
        print_json(&json!({
            "model": path,
            "puzzle": policy.puzzle_id(),
            "puzzles": source,
            "seconds_to_make_puzzles": made,
            "bins": bins_json(&results),
        }));
        Ok(())
    }
}
