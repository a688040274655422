//! `puzzlelab minesweeper train` and `minesweeper eval --agent dqn` (`--features learn`): deep
//! Q-learning on Minesweeper (`agent::dqn::minesweeper`).

#![cfg_attr(not(feature = "learn"), allow(dead_code))]

use crate::dqn::{DqnArgs, RunArgs};
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

impl NetArg {
    /// The name `--net` takes and the manifest records (`conv-dense`, `cells`).
    pub fn name(self) -> &'static str {
        match self {
            NetArg::ConvDense => "conv-dense",
            NetArg::Cells => "cells",
        }
    }
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
    /// --net cells: 3x3 convolution layers.
    #[arg(long)]
    pub layers: Option<usize>,
    /// --net cells: filters per layer.
    #[arg(long)]
    pub filters: Option<usize>,
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
    /// Starts from this model's weights (a fully convolutional one made on any board size; its
    /// layers and filters are taken), e.g. to go on from a beginner model on expert boards.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub init: Option<String>,
}

/// The validation games' seed (in-training evaluations; reports use fresh seeds).
pub const VALIDATION_SEED: u64 = 0x4D1E_5EED;

#[cfg(feature = "learn")]
pub use learn::{eval_model, train};

#[cfg(not(feature = "learn"))]
pub fn train(_: &TrainArgs, _: &str) -> anyhow::Result<()> {
    anyhow::bail!("minesweeper train: {}", crate::dqn::NEEDS_LEARN)
}

#[cfg(not(feature = "learn"))]
pub fn eval_model(
    _: &str,
    _: puzzlelab::env::minesweeper::MinesConfig,
    _: puzzlelab::env::minesweeper::FirstCell,
    _: usize,
    _: u64,
) -> anyhow::Result<puzzlelab::env::minesweeper::Evaluation> {
    anyhow::bail!("minesweeper eval --agent dqn: {}", crate::dqn::NEEDS_LEARN)
}

#[cfg(feature = "learn")]
mod learn {
    use super::{NetArg, TrainArgs, VALIDATION_SEED};
    use crate::files::{read_manifest, write_atomically, write_json};
    use crate::manifest::{open_to_resume, refuse_changes_on_resume, DqnRun, ResumeRecord};
    use crate::training::{self, ChunkedTraining};
    use anyhow::{anyhow, Context, Result};
    use burn::tensor::Device;
    use clap::ValueEnum;
    use puzzlelab::agent::dqn::minesweeper::{
        cells_config, cells_rules, conv_dense_config, conv_dense_rules, evaluate_policy, fit_policy,
    };
    use puzzlelab::agent::dqn::{Dqn, DqnConfig, QPolicy, MODEL_FORMAT_VERSION};
    use puzzlelab::env::minesweeper::{
        Evaluation, FirstCell, FirstClick, Layout, MinesConfig, MinesReward, Minesweeper,
    };
    use serde::{Deserialize, Serialize};
    use serde_json::{json, Value};

    /// Games played side by side in an evaluation (one forward pass a move for all).
    const EVAL_BATCH: usize = 100;

    /// The board and rules as a manifest records them (read back by --resume).
    #[derive(Serialize, Deserialize, Clone, Copy, Debug)]
    struct Rules {
        width: usize,
        height: usize,
        mines: usize,
        first_click: FirstClick,
        /// Where validation games click first: `[column, row]`.
        first_cell: [usize; 2],
        net: &'static str,
    }

    #[derive(Deserialize)]
    struct RulesRecord {
        rules: RulesOwned,
    }

    #[derive(Deserialize)]
    struct RulesOwned {
        width: usize,
        height: usize,
        mines: usize,
        first_click: FirstClick,
        first_cell: [usize; 2],
        net: String,
    }

    fn mines_config(layout: Layout, rule: FirstClick, net: NetArg) -> MinesConfig {
        match net {
            NetArg::ConvDense => conv_dense_rules(layout, rule),
            NetArg::Cells => cells_rules(layout, rule),
        }
    }

    fn config_from(args: &TrainArgs, layout: &Layout) -> Result<DqnConfig> {
        let defaults = match args.net {
            NetArg::ConvDense => conv_dense_config(layout),
            NetArg::Cells => {
                cells_config(layout, args.layers.unwrap_or(5), args.filters.unwrap_or(32))
            }
        };
        let backup_visited = defaults.backup_visited;
        let config = args.dqn.config(defaults)?;
        let config = DqnConfig {
            backup_visited,
            survival_logits: args.survival,
            ..config
        };
        config.validate()?;
        Ok(config)
    }

    /// A `minesweeper train` run, as the driver steps it.
    struct MinesRun {
        dqn: Dqn<Minesweeper>,
        net: NetArg,
        rules: Rules,
        config: MinesConfig,
        out: String,
        target: usize,
        eval_games: usize,
        commands: Vec<String>,
        curve: Vec<Value>,
        evaluation: Option<Evaluation>,
    }

    impl MinesRun {
        fn first_cell(&self) -> FirstCell {
            FirstCell::At(self.rules.first_cell[0], self.rules.first_cell[1])
        }
    }

    #[derive(Serialize)]
    struct Manifest<'a> {
        #[serde(flatten)]
        run: DqnRun<'a>,
        what: String,
        puzzle: String,
        rules: Rules,
        reward: &'static str,
        parameters: usize,
        training_curve: &'a [Value],
        validation_seed: u64,
        validation: Option<&'a Evaluation>,
        resume: &'static str,
    }

    impl ChunkedTraining for MinesRun {
        fn done(&self) -> u64 {
            self.dqn.steps_done() as u64
        }

        fn train_chunk(&mut self, units: u64) -> Result<String> {
            let stats = self.dqn.train_steps(units as usize);
            Ok(training::dqn_progress(
                self.dqn.steps_done(),
                self.target,
                &stats,
                ("games", self.dqn.episodes_done()),
            ))
        }

        fn evaluate(&mut self) -> Result<()> {
            let evaluation = evaluate_policy(
                &self.dqn.policy(),
                self.config,
                self.first_cell(),
                self.eval_games,
                VALIDATION_SEED,
                EVAL_BATCH,
            )?;
            eprintln!(
                "validation ({} games): won {:.1}% [{:.1}, {:.1}], {:.1} guesses a game",
                evaluation.games,
                100.0 * evaluation.win_rate,
                100.0 * evaluation.win_rate_95[0],
                100.0 * evaluation.win_rate_95[1],
                evaluation.guesses_per_game
            );
            self.curve.push(json!({
                "step": self.dqn.steps_done(),
                "episodes": self.dqn.episodes_done(),
                "games": evaluation.games,
                "win_rate": evaluation.win_rate,
                "guesses_per_game": evaluation.guesses_per_game,
            }));
            self.evaluation = Some(evaluation);
            Ok(())
        }

        fn save(&mut self, finished: bool, wall_seconds: f64) -> Result<()> {
            let policy = self.dqn.policy();
            write_atomically(&self.out, &policy.to_bytes())?;
            let manifest = Manifest {
                run: DqnRun::new(&self.out, &self.dqn, wall_seconds, &self.commands, finished),
                what: format!(
                    "puzzlelab DQN model (format version {MODEL_FORMAT_VERSION}): Minesweeper, {}",
                    match self.net {
                        NetArg::ConvDense => "convolutions flattened into a dense layer (the network of Mehta's RL paper)",
                        NetArg::Cells => "puzzlelab's fully convolutional network (any board size)",
                    }
                ),
                puzzle: policy.puzzle_id().to_string(),
                rules: self.rules,
                reward: match self.config.reward {
                    MinesReward::Progress => "progress (Mehta's): win +cells, loss -cells, progress +1, known cell -0.5, blind guess -0.5",
                    MinesReward::Outcome => "win +1, loss -1, else 0",
                },
                parameters: self.dqn.network_config().num_params(),
                training_curve: &self.curve,
                validation_seed: VALIDATION_SEED,
                validation: self.evaluation.as_ref(),
                resume: "weights, steps, episodes (ε); Adam's moments and the replay buffer start again",
            };
            write_json(&format!("{}.json", self.out), &manifest)
        }
    }

    /// `puzzlelab minesweeper train`.
    pub fn train(args: &TrainArgs, command: &str) -> Result<()> {
        let resume = args.run.resume.clone();
        let mut recorded = vec![
            ("--layers", args.layers.is_some()),
            ("--filters", args.filters.is_some()),
            ("--survival", args.survival),
        ];
        // The learning rate may change on --resume (a schedule: go on at a lower rate).
        recorded.extend(
            args.dqn
                .recorded()
                .into_iter()
                .filter(|(flag, _)| *flag != "--lr"),
        );
        refuse_changes_on_resume(resume.is_some(), &recorded)?;
        let (layout, rule, first) = args.board.resolve()?;
        let (config, net, layout, rule, first, record, bytes) = match &resume {
            Some(path) => {
                let (bytes, policy, record) = open_to_resume(path)?;
                let rules: RulesRecord = read_manifest(path)?;
                let r = rules.rules;
                let net = NetArg::from_str(&r.net, false).map_err(|e| anyhow!(e))?;
                let training = policy.training().expect("checked by open_to_resume");
                let layout = Layout::new(r.width, r.height, r.mines);
                let first = r.first_cell[1] * r.width + r.first_cell[0];
                (
                    training.config.clone(),
                    net,
                    layout,
                    r.first_click,
                    first,
                    record,
                    Some(bytes),
                )
            }
            None => (
                config_from(args, &layout)?,
                args.net,
                layout,
                rule,
                first,
                ResumeRecord::default(),
                None,
            ),
        };
        let target = args
            .run
            .steps
            .ok_or_else(|| anyhow!("minesweeper train needs --steps N (in all)"))?;
        let mines = mines_config(layout, rule, net);
        let mut config = config;
        let init = match &args.init {
            Some(path) => {
                let bytes = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
                let policy = QPolicy::from_bytes(&bytes, &Device::flex())
                    .with_context(|| path.to_string())?;
                let fitted = fit_policy(&policy, &Minesweeper::new(mines)?)
                    .with_context(|| path.to_string())?;
                config.grid = fitted.network_config().grid.clone();
                config.hidden = fitted.network_config().hidden.clone();
                Some(fitted.to_bytes())
            }
            None => None,
        };
        let mut dqn = Dqn::new(
            || Minesweeper::new(mines).expect("the board was checked"),
            config,
            &Device::flex(),
        )?;
        if let Some(weights) = &init {
            dqn.load_weights(weights)?;
        }
        if let Some(bytes) = &bytes {
            dqn.resume(bytes)?;
            eprintln!("minesweeper train: resuming at step {}", dqn.steps_done());
        }
        let net_name = net.name();
        let out = args
            .run
            .out
            .clone()
            .or(resume)
            .unwrap_or_else(|| format!("minesweeper-{net_name}.dqn"));
        eprintln!(
            "minesweeper train: {} parameters, {}x{}/{} ({}), to step {target}, writing {out}",
            dqn.network_config().num_params(),
            layout.width,
            layout.height,
            layout.mines,
            rule.name()
        );
        let mut commands = record.commands;
        commands.push(command.to_string());
        let mut run = MinesRun {
            dqn,
            net,
            rules: Rules {
                width: layout.width,
                height: layout.height,
                mines: layout.mines,
                first_click: rule,
                first_cell: [first % layout.width, first / layout.width],
                net: net_name,
            },
            config: mines,
            out,
            target,
            eval_games: args.eval_games,
            commands,
            curve: record.training_curve,
            evaluation: None,
        };
        let wall_seconds = training::run(&mut run, args.run.plan(target), record.wall_seconds)?;
        training::report_written(
            "minesweeper train",
            &run.out,
            run.dqn.steps_done(),
            wall_seconds,
        );
        Ok(())
    }

    /// `minesweeper eval --agent dqn --model FILE`: the model's greedy play on the seeded boards
    /// (a fully convolutional model plays any size).
    pub fn eval_model(
        path: &str,
        rules: MinesConfig,
        first: FirstCell,
        games: usize,
        seed: u64,
    ) -> Result<Evaluation> {
        let bytes = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
        let policy =
            QPolicy::from_bytes(&bytes, &Device::flex()).with_context(|| path.to_string())?;
        evaluate_policy(&policy, rules, first, games, seed, EVAL_BATCH)
            .with_context(|| path.to_string())
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
        assert_eq!(NetArg::from_str("paper", false), Ok(NetArg::ConvDense));
    }
}
