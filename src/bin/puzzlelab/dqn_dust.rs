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

impl NetArg {
    /// The name `--net` takes and the manifest records (`batched`, `backups`).
    pub fn name(self) -> &'static str {
        match self {
            NetArg::Batched => "batched",
            NetArg::Backups => "backups",
        }
    }
}

/// The hidden layers of each learner when --hidden is not given.
pub fn default_hidden(net: NetArg) -> Vec<usize> {
    match net {
        NetArg::Batched => vec![1500; 5],
        NetArg::Backups => vec![512, 512, 512],
    }
}

#[cfg(feature = "learn")]
pub use learn::{dqn_clicks, train};

#[cfg(not(feature = "learn"))]
pub fn train(_: &TrainArgs, _: &str) -> anyhow::Result<()> {
    anyhow::bail!("dust train: {}", crate::dqn::NEEDS_LEARN)
}

#[cfg(not(feature = "learn"))]
pub fn dqn_clicks(_: &str, _: &[Board], _: PlayArg, _: usize) -> anyhow::Result<Vec<Vec<usize>>> {
    anyhow::bail!("dust eval --agent dqn: {}", crate::dqn::NEEDS_LEARN)
}

#[cfg(feature = "learn")]
mod learn {
    use super::{default_hidden, Board, NetArg, PlayArg, TargetArg, TrainArgs};
    use crate::dqn_sliding::read_model;
    use crate::files::{write_atomically, write_json};
    use crate::manifest::{open_to_resume, refuse_changes_on_resume, DqnRun, ResumeRecord};
    use crate::training::{self, ChunkedTraining};
    use anyhow::{Context, Result};
    use burn::tensor::Device;
    use puzzlelab::agent::dqn::dust::{
        backups_config, backups_env, batched_config, one_hot_env, play, play_beam, play_greedy,
        play_lookahead, plays_with_lookahead, seeded_boards, BACKUP_START_CLICKS, VALIDATION_SEED,
    };
    use puzzlelab::agent::dqn::{Dqn, DqnConfig, MODEL_FORMAT_VERSION};
    use puzzlelab::env::samegame::Clusters;
    use serde::Serialize;
    use serde_json::{json, Value};

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
        let policy = read_model(path)?;
        match how {
            PlayArg::Auto => play(&policy, boards, EVAL_BATCH),
            PlayArg::Lookahead => play_lookahead(&policy, boards, EVAL_BATCH),
            PlayArg::Greedy => play_greedy(&policy, boards, EVAL_BATCH),
            PlayArg::Beam => play_beam(&policy, boards, width),
        }
        .with_context(|| path.to_string())
    }

    fn config_from(args: &TrainArgs) -> Result<DqnConfig> {
        let hidden = default_hidden(args.net);
        let defaults = match args.net {
            NetArg::Batched => batched_config(hidden),
            NetArg::Backups => backups_config(hidden),
        };
        let config = DqnConfig {
            mean_next_q: args.target == TargetArg::Mean,
            ..args.dqn.config(defaults)?
        };
        config.validate()?;
        Ok(config)
    }

    /// A `dust train` run, as the driver steps it.
    struct DustRun {
        dqn: Dqn<Clusters>,
        net: NetArg,
        validation: Vec<Board>,
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
        net: &'static str,
        reward: &'static str,
        parameters: usize,
        training_curve: &'a [Value],
        validation_seed: u64,
        validation_boards: usize,
        validation: Option<&'a Value>,
        resume: &'static str,
    }

    impl ChunkedTraining for DustRun {
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
            let policy = self.dqn.policy();
            let mean = |clicks: Vec<Vec<usize>>| {
                clicks.iter().map(Vec::len).sum::<usize>() as f64 / clicks.len().max(1) as f64
            };
            let greedy = mean(play_greedy(&policy, &self.validation, EVAL_BATCH)?);
            let lookahead = mean(play_lookahead(&policy, &self.validation, EVAL_BATCH)?);
            let played = if plays_with_lookahead(&policy) {
                lookahead
            } else {
                greedy
            };
            eprintln!(
                "validation ({} boards): {greedy:.3} clicks a board greedily, {lookahead:.3} with one step of lookahead",
                self.validation.len()
            );
            let value = json!({
                "boards": self.validation.len(),
                "mean_clicks": played,
                "play": if plays_with_lookahead(&policy) { "lookahead" } else { "greedy" },
                "mean_clicks_greedy": greedy,
                "mean_clicks_lookahead": lookahead,
            });
            self.curve.push(json!({
                "step": self.dqn.steps_done(),
                "episodes": self.dqn.episodes_done(),
                "mean_clicks_greedy": greedy,
                "mean_clicks_lookahead": lookahead,
            }));
            self.evaluation = Some(value);
            Ok(())
        }

        fn save(&mut self, finished: bool, wall_seconds: f64) -> Result<()> {
            let policy = self.dqn.policy();
            write_atomically(&self.out, &policy.to_bytes())?;
            let batched = self.net == NetArg::Batched;
            let config = self.dqn.config();
            let manifest = Manifest {
                run: DqnRun::new(&self.out, &self.dqn, wall_seconds, &self.commands, finished),
                what: format!(
                    "puzzlelab DQN model (format version {MODEL_FORMAT_VERSION}): the dust puzzle 8x6, 5 colours, {}; dense layers {:?}, TD target from the {} of the next Q-values",
                    if batched {
                        "the batched DQN of the dust-puzzle blog post (one-hot 8x6x6 in, one Q-value per cell out)"
                    } else {
                        "puzzlelab's full backups of every legal click of boards from every stage of a game"
                    },
                    config.hidden,
                    if config.mean_next_q { "mean" } else { "max" },
                ),
                puzzle: policy.puzzle_id().to_string(),
                net: self.net.name(),
                reward: if batched {
                    "click cost (the blog post's): +10 for the click that clears the board, -10 for an empty cell, -1 otherwise"
                } else {
                    "click cost (the blog post's: +10 clearing, -1 a click); piles only; starts from every stage of games of greedy or random clicks"
                },
                parameters: self.dqn.network_config().num_params(),
                training_curve: &self.curve,
                validation_seed: VALIDATION_SEED,
                validation_boards: self.validation.len(),
                validation: self.evaluation.as_ref(),
                resume: "weights, steps, episodes (ε); Adam's moments and the replay buffer start again",
            };
            write_json(&format!("{}.json", self.out), &manifest)
        }
    }

    /// `puzzlelab dust train`.
    pub fn train(args: &TrainArgs, command: &str) -> Result<()> {
        let resume = args.run.resume.clone();
        refuse_changes_on_resume(resume.is_some(), &args.dqn.recorded())?;
        let (config, record, bytes) = match &resume {
            Some(path) => {
                let (bytes, policy, record) = open_to_resume(path)?;
                let training = policy.training().expect("checked by open_to_resume");
                (training.config.clone(), record, Some(bytes))
            }
            None => (config_from(args)?, ResumeRecord::default(), None),
        };
        // The learner is told by its configuration: full backups are puzzlelab's.
        let (net, make_env): (NetArg, fn() -> Clusters) = if config.full_backups {
            (NetArg::Backups, backups_env)
        } else {
            (NetArg::Batched, one_hot_env)
        };
        let target = args
            .run
            .steps
            .ok_or_else(|| anyhow::anyhow!("dust train needs --steps N (in all)"))?;
        let mut dqn = Dqn::new(make_env, config, &Device::flex())?;
        if let Some(bytes) = &bytes {
            dqn.resume(bytes)?;
            eprintln!("dust train: resuming at step {}", dqn.steps_done());
        }
        let out = args
            .run
            .out
            .clone()
            .or(resume)
            .unwrap_or_else(|| format!("dust-{}.dqn", net.name()));
        eprintln!(
            "dust train ({}): {} parameters, to step {target}, writing {out}{}",
            net.name(),
            dqn.network_config().num_params(),
            if net == NetArg::Backups {
                format!(" (starts after up to {BACKUP_START_CLICKS} clicks of a game)")
            } else {
                String::new()
            }
        );
        let mut commands = record.commands;
        commands.push(command.to_string());
        let mut run = DustRun {
            dqn,
            net,
            validation: seeded_boards(VALIDATION_SEED, args.eval_boards),
            out,
            target,
            commands,
            curve: record.training_curve,
            evaluation: None,
        };
        let wall_seconds = training::run(&mut run, args.run.plan(target), record.wall_seconds)?;
        training::report_written("dust train", &run.out, run.dqn.steps_done(), wall_seconds);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::NetArg;
    use clap::ValueEnum;

    #[test]
    fn each_network_records_the_name_its_flag_takes() {
        for net in NetArg::value_variants() {
            let value = net.to_possible_value().expect("named");
            assert_eq!(net.name(), value.get_name());
        }
        // The name before the rename still selects it (commands and manifests written then).
        assert_eq!(NetArg::from_str("blog", false), Ok(NetArg::Batched));
    }
}
