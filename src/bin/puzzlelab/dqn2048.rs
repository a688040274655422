//! 2048's deep Q-network commands (`--features learn`): `2048 train` and `2048 eval --agent dqn`,
//! the network of Mehta's RL paper for constraint-satisfaction games (`agent::dqn::game2048`).

#![cfg_attr(not(feature = "learn"), allow(dead_code))]

use crate::dqn::{DqnArgs, RunArgs};
use clap::Args;

/// `puzzlelab 2048 train`: the deep Q-network of Mehta's RL paper on 2048: one-hot
/// 4x4x16, two levels of (1,2)/(2,1) convolutions, a dense layer, its shaped reward; legal
/// moves only.
///
/// One progress line per chunk; every --eval-every steps and at the end plays --eval-games
/// greedy games; writes FILE (default 2048-dqn.dqn) and FILE.json (manifest with the training
/// curve), also as checkpoints. With --resume nothing of the learner may change.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The two convolution levels' filters (the paper's 128,128).
    #[arg(long, value_delimiter = ',', value_name = "F1,F2")]
    pub filters: Option<Vec<usize>>,
    #[command(flatten)]
    pub dqn: DqnArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Games of each evaluation.
    #[arg(long, default_value_t = 100)]
    pub eval_games: u64,
}

/// `puzzlelab 2048 eval --agent dqn`: plays N full games with a 2048 DQN's greedy legal move; prints
/// JSON like 2048 eval's.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The model file.
    #[arg(long, value_name = "FILE", required = true)]
    pub model: String,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// The games' seed (default: the trainer's evaluation seed).
    #[arg(long)]
    pub seed: Option<u64>,
}

#[cfg(feature = "learn")]
pub use learn::{eval, train};

#[cfg(not(feature = "learn"))]
pub fn train(_: &TrainArgs, _: &str) -> anyhow::Result<()> {
    anyhow::bail!("2048 train: {}", crate::dqn::NEEDS_LEARN)
}

#[cfg(not(feature = "learn"))]
pub fn eval(_: &EvalArgs) -> anyhow::Result<()> {
    anyhow::bail!("2048 eval --agent dqn: {}", crate::dqn::NEEDS_LEARN)
}

#[cfg(feature = "learn")]
mod learn {
    use super::{EvalArgs, TrainArgs};
    use crate::files::{self, machine, print_json, write_atomically, write_json};
    use crate::manifest::{open_to_resume, refuse_changes_on_resume, DqnRun, ResumeRecord};
    use crate::training::{self, show, ChunkedTraining};
    use anyhow::{anyhow, bail, Context, Result};
    use burn::tensor::Device;
    use puzzlelab::agent::dqn::game2048::{
        pair_conv_config, play_greedy_games, training_rules, Game2048Trainer,
    };
    use puzzlelab::agent::dqn::{
        DqnConfig, PairConvConfig, QNetworkConfig, QPolicy, MODEL_FORMAT_VERSION,
    };
    use puzzlelab::env::game2048::{Game2048, Game2048Config, GameSummary};
    use serde::Serialize;
    use serde_json::{json, Value};
    use std::time::Instant;

    /// The evaluation games' seed unless --seed is given to `2048 eval --agent dqn`.
    const EVALUATION_SEED: u64 = 0x2048_D090;

    fn config_from(args: &TrainArgs) -> Result<DqnConfig> {
        let d = pair_conv_config();
        let conv = match args.filters.as_deref() {
            None => d.conv.clone(),
            Some([f1, f2]) => Some(PairConvConfig {
                filters1: *f1,
                filters2: *f2,
                ..PairConvConfig::game2048()
            }),
            Some(_) => bail!("--filters takes two numbers, F1,F2"),
        };
        args.dqn.config(DqnConfig { conv, ..d })
    }

    fn evaluate(policy: &QPolicy, games: u64, seed: u64) -> GameSummary {
        let clock = Instant::now();
        let stats = play_greedy_games(policy, Game2048Config::default(), 0..games, seed);
        stats.summary(clock.elapsed().as_secs_f64())
    }

    fn reach_line(summary: &GameSummary) -> String {
        ["1024", "2048", "4096"]
            .iter()
            .map(|t| format!("{t} {:.1}%", 100.0 * summary.reach[*t]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The architecture as the manifest describes it.
    #[derive(Serialize)]
    struct Architecture<'a> {
        kind: &'static str,
        conv: &'a Option<PairConvConfig>,
        hidden: &'a [usize],
        num_actions: usize,
        parameters: usize,
    }

    impl<'a> Architecture<'a> {
        fn of(network: &'a QNetworkConfig) -> Self {
            Architecture {
                kind: "Mehta's RL paper: one-hot 4x4x16, (1,2)/(2,1) convolutions on two levels, ReLU, dense, one Q-value per move",
                conv: &network.conv,
                hidden: &network.hidden,
                num_actions: network.num_actions,
                parameters: network.num_params(),
            }
        }
    }

    /// The evaluation as the manifest records it.
    #[derive(Serialize)]
    struct EvaluationRecord<'a> {
        agent: &'static str,
        summary: &'a GameSummary,
    }

    /// A 2048 DQN model's manifest.
    #[derive(Serialize)]
    struct Manifest<'a> {
        #[serde(flatten)]
        run: DqnRun<'a>,
        what: String,
        puzzle: String,
        architecture: Architecture<'a>,
        training_rules: Game2048Config,
        training_curve: &'a [Value],
        evaluation_seed: u64,
        evaluation: Option<EvaluationRecord<'a>>,
        resume: &'static str,
    }

    /// A `2048 train` run, as the driver steps it.
    struct Dqn2048Run {
        trainer: Game2048Trainer,
        out: String,
        target: usize,
        eval_games: u64,
        commands: Vec<String>,
        curve: Vec<Value>,
        evaluation: Option<GameSummary>,
    }

    impl ChunkedTraining for Dqn2048Run {
        fn done(&self) -> u64 {
            self.trainer.dqn().steps_done() as u64
        }

        fn train_chunk(&mut self, units: u64) -> Result<String> {
            let stats = self.trainer.train_steps(units as usize);
            let dqn = self.trainer.dqn();
            Ok(format!(
                "step {}/{} | loss/td {} | epsilon {:.3} | games {} | moves/game {} | {:.0} steps/s",
                dqn.steps_done(),
                self.target,
                show(stats.td_loss),
                stats.epsilon,
                dqn.episodes_done(),
                stats.episode_length.map_or("-".into(), |x| format!("{x:.0}")),
                stats.steps_per_s
            ))
        }

        fn evaluate(&mut self) -> Result<()> {
            let summary = evaluate(
                &self.trainer.dqn().policy(),
                self.eval_games,
                EVALUATION_SEED,
            );
            eprintln!(
                "eval ({} games): mean score {:.0}, {}",
                summary.games,
                summary.mean_score,
                reach_line(&summary)
            );
            self.curve.push(json!({
                "step": self.trainer.dqn().steps_done(),
                "games": summary.games,
                "mean_score": summary.mean_score,
                "reach": summary.reach,
            }));
            self.evaluation = Some(summary);
            Ok(())
        }

        fn save(&mut self, finished: bool, wall_seconds: f64) -> Result<()> {
            let dqn = self.trainer.dqn();
            let policy = dqn.policy();
            write_atomically(&self.out, &policy.to_bytes())?;
            let manifest = Manifest {
                run: DqnRun::new(&self.out, dqn, wall_seconds, &self.commands, finished),
                what: format!(
                    "puzzlelab DQN model (format version {MODEL_FORMAT_VERSION}): the 2048 network of Mehta's RL paper"
                ),
                puzzle: policy.puzzle_id().to_string(),
                architecture: Architecture::of(dqn.network_config()),
                training_rules: self.trainer.rules(),
                training_curve: &self.curve,
                evaluation_seed: EVALUATION_SEED,
                evaluation: self.evaluation.as_ref().map(|summary| EvaluationRecord {
                    agent: "greedy (legal moves), original rules (a 4 one time in ten)",
                    summary,
                }),
                resume: "weights, steps, episodes (ε); Adam's moments and the replay buffer start again",
            };
            write_json(&format!("{}.json", self.out), &manifest)
        }
    }

    /// `puzzlelab 2048 train`: trains in chunks with a progress line each, evaluates by
    /// whole games, checkpoints; `--resume FILE` goes on from a saved model.
    pub fn train(args: &TrainArgs, command: &str) -> Result<()> {
        let resume = args.run.resume.clone();
        let mut recorded = vec![("--filters", args.filters.is_some())];
        recorded.extend(args.dqn.recorded());
        refuse_changes_on_resume(resume.is_some(), &recorded)?;
        let (config, record, bytes) = match &resume {
            Some(path) => {
                let (bytes, policy, record) = open_to_resume(path)?;
                let training = policy.training().expect("checked by open_to_resume");
                (training.config.clone(), record, Some(bytes))
            }
            None => (config_from(args)?, ResumeRecord::default(), None),
        };
        let mut commands = record.commands;
        commands.push(command.to_string());
        let out = args
            .run
            .out
            .clone()
            .or(resume)
            .unwrap_or_else(|| "2048-dqn.dqn".into());
        let target = args
            .run
            .steps
            .ok_or_else(|| anyhow!("2048 train needs --steps N (in all)"))?;
        let mut trainer = Game2048Trainer::new(config, training_rules(), &Device::flex())?;
        if let Some(bytes) = &bytes {
            trainer.dqn_mut().resume(bytes)?;
            eprintln!(
                "2048 train: resuming at step {}",
                trainer.dqn().steps_done()
            );
        }
        eprintln!(
            "2048 train: {} parameters, to step {target}, writing {out}",
            trainer.dqn().network_config().num_params()
        );
        let mut run = Dqn2048Run {
            trainer,
            out,
            target,
            eval_games: args.eval_games,
            commands,
            curve: record.training_curve,
            evaluation: None,
        };
        let wall_seconds = training::run(&mut run, args.run.plan(target), record.wall_seconds)?;
        training::report_written(
            "2048 train",
            &run.out,
            run.trainer.dqn().steps_done(),
            wall_seconds,
        );
        Ok(())
    }

    /// `puzzlelab 2048 eval --agent dqn`: plays full games greedily with a saved model; JSON on stdout.
    pub fn eval(args: &EvalArgs) -> Result<()> {
        let path = &args.model;
        let seed = args.seed.unwrap_or(EVALUATION_SEED);
        let bytes = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
        let policy =
            QPolicy::from_bytes(&bytes, &Device::flex()).with_context(|| path.to_string())?;
        policy
            .check_fits(&Game2048::new(Game2048Config::default()))
            .with_context(|| path.to_string())?;
        let summary = evaluate(&policy, args.games, seed);
        print_json(&json!({
            "what": "puzzlelab 2048 eval --agent dqn: greedy legal moves of a deep Q-network, original rules",
            "model": path,
            "seed": seed,
            "summary": summary,
            "machine": machine(),
            "build": files::build(),
            "date": files::utc_now(),
        }));
        Ok(())
    }
}
