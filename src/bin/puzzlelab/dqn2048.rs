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
    /// Also learn from the demonstrations of this n-tuple network's greedy play (DQfD: pre-train
    /// on them, then keep a share of every batch demonstrated, with a large-margin loss on the
    /// demonstrator's move).
    #[arg(long, value_name = "NTUPLE_FILE")]
    pub demonstrations: Option<String>,
    /// Demonstrated games.
    #[arg(long, default_value_t = 100, requires = "demonstrations")]
    pub demo_games: u64,
    /// Demonstrated transitions kept at most.
    #[arg(long, default_value_t = 400_000, requires = "demonstrations")]
    pub demo_transitions: usize,
    /// Training steps on the demonstrations alone before any play.
    #[arg(long, default_value_t = 20_000, requires = "demonstrations")]
    pub pretrain_steps: usize,
    /// The share of each later batch drawn from the demonstrations.
    #[arg(long, default_value_t = 0.25, requires = "demonstrations")]
    pub demo_share: f32,
    /// The large-margin loss's margin.
    #[arg(long, default_value_t = 0.8, requires = "demonstrations")]
    pub margin: f32,
    /// The large-margin loss's weight beside the TD loss.
    #[arg(long, default_value_t = 1.0, requires = "demonstrations")]
    pub demo_weight: f32,
    /// Also demonstrate in the states that this DQN model's own greedy games reach: the n-tuple
    /// network labels each with its move (DAgger), beside its own games' moves.
    #[arg(long, value_name = "MODEL_FILE", requires = "demonstrations")]
    pub label_games_of: Option<String>,
    /// Games of --label-games-of's model.
    #[arg(long, default_value_t = 100, requires = "label_games_of")]
    pub labelled_games: u64,
    /// Labelled transitions kept at most (beside --demo-transitions).
    #[arg(long, default_value_t = 400_000, requires = "label_games_of")]
    pub labelled_transitions: usize,
}

#[cfg(feature = "learn")]
pub use learn::{average, eval, train};

needs_learn! {
    "2048 train": fn train(&TrainArgs, &str) -> ();
    "2048 eval --agent dqn": fn eval(&str, u64, Option<u64>) -> ();
    "2048 average": fn average(&crate::dqn::AverageArgs, &str) -> ();
}

#[cfg(feature = "learn")]
mod learn {
    use super::TrainArgs;
    use crate::files::{self, machine, print_json};
    use crate::learner::{self, TrainRequest};
    use anyhow::Result;
    use puzzlelab::agent::dqn::game2048::{
        DemonstrationSetup, Game2048Learner, Game2048Setup, LabelledPlay, EVALUATION_SEED,
        LABELLED_SEED,
    };
    use serde_json::json;

    /// `puzzlelab 2048 train`: trains in chunks with a progress line each, evaluates by
    /// whole games, checkpoints; `--resume FILE` goes on from a saved model.
    pub fn train(args: &TrainArgs, command: &str) -> Result<()> {
        let labelled = match &args.label_games_of {
            Some(file) => Some(LabelledPlay {
                model: learner::full_path("--label-games-of", file)?,
                games: args.labelled_games,
                seed: LABELLED_SEED,
                max_transitions: args.labelled_transitions,
                model_fnv1a: None,
            }),
            None => None,
        };
        let demonstrations = match &args.demonstrations {
            Some(file) => Some(DemonstrationSetup {
                ntuple: learner::full_path("--demonstrations", file)?,
                games: args.demo_games,
                max_transitions: args.demo_transitions,
                pretrain_steps: args.pretrain_steps,
                share: args.demo_share,
                margin: args.margin,
                weight: args.demo_weight,
                labelled,
                ..DemonstrationSetup::default()
            }),
            None => None,
        };
        let setup = Game2048Setup {
            filters: args.filters.clone(),
            demonstrations,
            ..Game2048Setup::default()
        };
        learner::train::<Game2048Learner>(
            setup,
            TrainRequest {
                may_change: &["--eval-games"],
                ..TrainRequest::new(&args.dqn, &args.run, args.eval_games as usize, command)
            },
        )
    }

    /// `puzzlelab 2048 average`: the models' weighted mean ([`crate::learner::average`]),
    /// validated on the trainer's games.
    pub fn average(args: &crate::dqn::AverageArgs, command: &str) -> Result<()> {
        learner::average::<Game2048Learner>(&args.shared()?, |_| Ok(None), &args.out, command)
    }

    /// `puzzlelab 2048 eval --agent dqn`: plays `games` full games seeded with `seed` (default: the
    /// trainer's evaluation seed) greedily with the model at `model`; JSON on stdout.
    pub fn eval(model: &str, games: u64, seed: Option<u64>) -> Result<()> {
        let seed = seed.unwrap_or(EVALUATION_SEED);
        let setup = Game2048Setup::default();
        let summary = learner::eval_model::<Game2048Learner>(model, &setup, games as usize, seed)?;
        print_json(&json!({
            "what": "puzzlelab 2048 eval --agent dqn: greedy legal moves of a deep Q-network, original rules",
            "model": model,
            "seed": seed,
            "summary": summary,
            "machine": machine(),
            "build": files::build(),
            "date": files::utc_now(),
        }));
        Ok(())
    }
}
