//! `puzzlelab 2048 <verb>`: the noun, `eval` (the n-tuple network's greedy 1-ply play,
//! expectimax over it, random play, or a DQN's greedy play) and `ntuple train` (TD(0) on
//! afterstates, Szubert & Jaśkowski 2014); `train` is the DQN's ([`crate::dqn2048`]).

use crate::files::{self, gzip_for, machine, read_maybe_gzip};
use crate::manifest::ResumeRecord;
use crate::training::{self, ChunkedTraining, Plan};
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use puzzlelab::agent::ntuple::{
    evaluate_greedy, Agent2048, Evaluation, NTupleNetwork, Precision, TdConfig, TdLearner,
    TupleSet, FILE_VERSION,
};
use puzzlelab::env::game2048::{Game2048Config, GameSummary, REPORTED_TILES};
use serde::Serialize;
use serde_json::{json, Value};

/// The seed offset of evaluation games, so they are never training games.
const EVALUATION_SEED: u64 = 0x2048_E7A1;

/// `puzzlelab 2048 <verb>`.
#[derive(Args, Debug)]
pub struct Game2048Args {
    #[command(subcommand)]
    pub command: Game2048Command,
}

/// 2048's verbs.
#[derive(Subcommand, Debug)]
pub enum Game2048Command {
    /// Trains the deep Q-network (Mehta's network and reward; `--features learn`).
    Train(Box<crate::dqn2048::TrainArgs>),
    /// Plays full games with an n-tuple network, expectimax over it, random moves or a DQN.
    Eval(EvalArgs),
    /// Averages the weights of trained DQN models (`--features learn`).
    Average(crate::dqn::AverageArgs),
    /// The n-tuple network, learned by TD(0) on afterstates: `puzzlelab 2048 ntuple train`.
    Ntuple(NtupleArgs),
}

/// `puzzlelab 2048 ntuple <verb>`.
#[derive(Args, Debug)]
pub struct NtupleArgs {
    #[command(subcommand)]
    pub command: NtupleCommand,
}

/// The n-tuple learner's verbs (it plays through `puzzlelab 2048 eval --agent ntuple`).
#[derive(Subcommand, Debug)]
pub enum NtupleCommand {
    /// Learns an n-tuple network by TD(0) on afterstates.
    Train(TrainArgs),
}

/// Runs `puzzlelab 2048 …`.
pub fn run(args: &Game2048Args, command_line: &str) -> Result<()> {
    match &args.command {
        Game2048Command::Train(a) => crate::dqn2048::train(a, command_line),
        Game2048Command::Eval(a) => eval(a),
        Game2048Command::Average(a) => crate::dqn2048::average(a, command_line),
        Game2048Command::Ntuple(NtupleArgs {
            command: NtupleCommand::Train(a),
        }) => train(a, command_line),
    }
}

/// The tuple shapes of an n-tuple network.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum TuplesArg {
    /// Four 5-tuples.
    #[value(name = "4x5")]
    FourFive,
    /// Four 6-tuples (Szubert & Jaśkowski's larger network).
    #[value(name = "4x6")]
    FourSix,
    /// Five 4-tuples.
    #[value(name = "5x4")]
    FiveFour,
}

impl TuplesArg {
    fn name(self) -> &'static str {
        match self {
            TuplesArg::FourFive => "4x5",
            TuplesArg::FourSix => "4x6",
            TuplesArg::FiveFour => "5x4",
        }
    }
}

/// How weights are stored in the file.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum PrecisionArg {
    /// 32-bit floats: exact (checkpoints, resuming).
    F32,
    /// IEEE half floats: half the size, for shipping.
    F16,
}

/// `puzzlelab 2048 ntuple train`: learns an n-tuple network by TD(0) on afterstates (Szubert &
/// Jaśkowski 2014) from N games in all, playing greedily.
///
/// One progress line per chunk of K games on stderr; after each chunk writes FILE (gzip when it
/// ends in .gz) and its manifest FILE.json (commands, seed, games, wall time, machine, training
/// curve), so a killed run goes on with --resume FILE. At the end, plays --eval-games games
/// greedily with the network as written and records the evaluation in the manifest; prints the
/// manifest.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Training games in all (a resumed run goes on to this count).
    #[arg(long)]
    pub games: Option<u64>,
    /// The seed of the training games (a resumed run keeps its manifest's unless given).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The network file to write.
    #[arg(long, value_name = "FILE", default_value = "2048-ntuple.ntuple")]
    pub out: String,
    /// Goes on from a network and its manifest.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<String>,
    /// The TD step for the whole value (default 0.1; a resumed run keeps its file's unless
    /// given).
    #[arg(long)]
    pub alpha: Option<f32>,
    /// Games a progress line (and a checkpoint).
    #[arg(long, default_value_t = 1000)]
    pub chunk: u64,
    /// The tuple shapes (default 4x5; a resumed network keeps its own).
    #[arg(long, value_enum)]
    pub tuples: Option<TuplesArg>,
    /// How the file stores weights.
    #[arg(long, value_enum, default_value = "f32")]
    pub precision: PrecisionArg,
    /// Games of the final greedy evaluation.
    #[arg(long, default_value_t = 100)]
    pub eval_games: u64,
}

/// A player of 2048.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum AgentArg {
    /// The network's greedy 1-ply policy.
    #[value(alias = "greedy")]
    Ntuple,
    /// Expectimax --depth moves deep over the network's values.
    Expectimax,
    /// Random moves (no model).
    Random,
    /// A deep Q-network's greedy legal moves (`--features learn`).
    Dqn,
}

/// `puzzlelab 2048 eval`: plays N full games of 2048 (new tiles: 2 with p 0.9, 4 with 0.1);
/// prints JSON: reach rates of 1024...32768, mean and median score, moves per second.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The n-tuple network (gzip or not), or with --agent dqn the DQN model; not needed by
    /// --agent random.
    #[arg(long, value_name = "FILE")]
    pub model: Option<String>,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// The games' seed (default 0; with --agent dqn the DQN trainer's evaluation seed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Who plays.
    #[arg(long, value_enum, default_value = "ntuple")]
    pub agent: AgentArg,
    /// Expectimax's depth in moves.
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
}

/// Reads a network file, gzip-compressed or not.
fn read_network(path: &str) -> Result<NTupleNetwork> {
    let bytes = read_maybe_gzip(path)?;
    NTupleNetwork::from_bytes(&bytes).with_context(|| path.to_string())
}

fn reach_line(summary: &GameSummary) -> String {
    REPORTED_TILES[1..4]
        .iter()
        .map(|t| format!("{t} {:.1}%", 100.0 * summary.reach[&t.to_string()]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// f32 → f64 through its shortest decimal text: 0.05, not 0.05000000074505806.
fn decimal(x: f32) -> f64 {
    x.to_string().parse().expect("a number")
}

/// One point of the training curve (a chunk of games).
#[derive(Serialize)]
struct CurvePoint<'a> {
    games: u64,
    mean_score: f64,
    max_score: u64,
    reach: &'a std::collections::BTreeMap<String, f64>,
    games_per_s: f64,
    moves_per_s: f64,
    alpha: f64,
}

/// The final evaluation as the manifest records it.
#[derive(Serialize)]
struct EvaluationRecord<'a> {
    agent: &'static str,
    of: &'static str,
    summary: &'a GameSummary,
}

/// An n-tuple network's manifest.
#[derive(Serialize)]
struct NTupleManifest<'a> {
    what: String,
    model: &'a str,
    puzzle: &'static str,
    rules: Game2048Config,
    tuple_set: &'static str,
    tuples: Vec<Vec<u8>>,
    symmetric_sampling: u32,
    weights: usize,
    precision: Precision,
    raw_bytes: usize,
    file_bytes: usize,
    gzip: bool,
    alpha: f64,
    alpha_per_weight: f32,
    seed: u64,
    games: u64,
    finished: bool,
    wall_seconds: f64,
    games_per_s: f64,
    machine: String,
    build: &'static str,
    date: String,
    command: Option<&'a String>,
    commands: &'a [String],
    training_curve: &'a [Value],
    evaluation_seed: Option<u64>,
    evaluation: Option<EvaluationRecord<'a>>,
    puzzlelab_version: &'static str,
}

/// A `2048 ntuple train` run, as the driver steps it.
struct NTupleRun {
    learner: TdLearner,
    precision: Precision,
    out: String,
    commands: Vec<String>,
    curve: Vec<Value>,
    seed: u64,
    eval_games: u64,
    evaluation: Option<(GameSummary, u64)>,
}

impl ChunkedTraining for NTupleRun {
    fn done(&self) -> u64 {
        self.learner.network.games_trained()
    }

    fn train_chunk(&mut self, units: u64) -> Result<String> {
        let stats = self.learner.train_games(units);
        let s = &stats.summary;
        let point = CurvePoint {
            games: stats.games_trained,
            mean_score: s.mean_score.round(),
            max_score: s.max_score,
            reach: &s.reach,
            games_per_s: files::round(s.games_per_s, 2),
            moves_per_s: s.moves_per_s.round(),
            alpha: decimal(self.learner.config.alpha),
        };
        self.curve.push(serde_json::to_value(point)?);
        Ok(format!(
            "games {:>8}  mean score {:>8.0}  {}  {:.1} games/s  {:.0} moves/s",
            stats.games_trained,
            s.mean_score,
            reach_line(s),
            s.games_per_s,
            s.moves_per_s
        ))
    }

    /// Evaluates the network as it is written (f16 rounding included).
    fn evaluate(&mut self) -> Result<()> {
        let written = NTupleNetwork::from_bytes(&self.learner.network.to_bytes(self.precision))?;
        let seed = self.seed ^ EVALUATION_SEED;
        let games = self.eval_games;
        let evaluation = evaluate_greedy(&written, Game2048Config::default(), games, seed);
        eprintln!(
            "evaluation over {games} games: mean score {:.0}, {}",
            evaluation.mean_score,
            reach_line(&evaluation)
        );
        self.evaluation = Some((evaluation, seed));
        Ok(())
    }

    fn save(&mut self, finished: bool, wall_seconds: f64) -> Result<()> {
        let (learner, out, precision) = (&self.learner, &self.out, self.precision);
        let network = &learner.network;
        let raw = network.to_bytes(precision);
        let raw_bytes = raw.len();
        let bytes = gzip_for(out, raw);
        let set = network.tuple_set();
        let trained = network.games_trained();
        let manifest = NTupleManifest {
            what: format!(
                "puzzlelab 2048 n-tuple network (format version {FILE_VERSION}), TD(0) on afterstates"
            ),
            model: out,
            puzzle: "2048 4x4",
            rules: Game2048Config::default(),
            tuple_set: set.name(),
            tuples: set.tuples(),
            symmetric_sampling: 8,
            weights: set.num_weights(),
            precision,
            raw_bytes,
            file_bytes: bytes.len(),
            gzip: out.ends_with(".gz"),
            alpha: decimal(learner.config.alpha),
            alpha_per_weight: learner.config.alpha / network.weights_per_value() as f32,
            seed: self.seed,
            games: trained,
            finished,
            wall_seconds: files::round(wall_seconds, 1),
            games_per_s: if wall_seconds > 0.0 {
                trained as f64 / wall_seconds
            } else {
                0.0
            },
            machine: machine(),
            build: files::build(),
            date: files::utc_now(),
            command: self.commands.last(),
            commands: &self.commands,
            training_curve: &self.curve,
            evaluation_seed: self.evaluation.as_ref().map(|(_, seed)| *seed),
            evaluation: self.evaluation.as_ref().map(|(summary, _)| EvaluationRecord {
                agent: "ntuple greedy 1-ply",
                of: "the network as written to this file",
                summary,
            }),
            puzzlelab_version: env!("CARGO_PKG_VERSION"),
        };
        files::write_model_and_manifest(out, &bytes, &manifest)
    }
}

/// `puzzlelab 2048 ntuple train`.
pub fn train(args: &TrainArgs, command: &str) -> Result<()> {
    let games = args
        .games
        .ok_or_else(|| anyhow!("2048 ntuple train needs --games N"))?;
    let precision = match args.precision {
        PrecisionArg::F32 => Precision::F32,
        PrecisionArg::F16 => Precision::F16,
    };
    let (network, record) = match &args.resume {
        Some(path) => {
            let network = read_network(path)?;
            let set = network.tuple_set().name();
            if args.tuples.is_some_and(|t| t.name() != set) {
                bail!("{path} has the {set} tuple set; --tuples must match");
            }
            let record = ResumeRecord::read(path)?;
            (network, record)
        }
        None => {
            let name = args.tuples.map_or("4x5", TuplesArg::name);
            let set = TupleSet::from_name(name).expect("every --tuples value is a set");
            (NTupleNetwork::new(set), ResumeRecord::default())
        }
    };
    let seed = args.seed.or(record.seed).unwrap_or(0);
    let config = TdConfig {
        alpha: args
            .alpha
            .or(record.alpha.map(|a| a as f32))
            .unwrap_or(TdConfig::default().alpha),
        seed,
        game: Game2048Config::default(),
    };
    let mut commands = record.commands;
    commands.push(command.to_string());
    let learner = TdLearner::new(network, config);
    eprintln!(
        "2048 ntuple train: {} tuples, {} weights, alpha {}, seed {}, from game {} to {games}",
        learner.network.tuple_set().name(),
        learner.network.tuple_set().num_weights(),
        config.alpha,
        config.seed,
        learner.network.games_trained()
    );
    let mut run = NTupleRun {
        learner,
        precision,
        out: args.out.clone(),
        commands,
        curve: record.training_curve,
        seed,
        eval_games: args.eval_games,
        evaluation: None,
    };
    let plan = Plan {
        target: games,
        chunk: args.chunk,
        eval_every: 0,
        // A checkpoint after every chunk: a killed run loses at most one chunk.
        checkpoint_every: args.chunk.max(1),
    };
    training::run(&mut run, plan, record.wall_seconds)?;
    let manifest_path = format!("{}.json", run.out);
    let text = std::fs::read_to_string(&manifest_path)
        .with_context(|| format!("{manifest_path}: cannot read"))?;
    println!("{text}");
    Ok(())
}

/// `puzzlelab 2048 eval`.
pub fn eval(args: &EvalArgs) -> Result<()> {
    if let AgentArg::Dqn = args.agent {
        let Some(model) = &args.model else {
            bail!("2048 eval --agent dqn needs --model FILE");
        };
        return crate::dqn2048::eval(model, args.games, args.seed);
    }
    let seed = args.seed.unwrap_or(0);
    let network = match (&args.model, args.agent) {
        (Some(path), _) => Some(read_network(path)?),
        (None, AgentArg::Random) => None,
        (None, agent) => bail!(
            "2048 eval --agent {} needs --model FILE",
            agent
                .to_possible_value()
                .expect("no skipped values")
                .get_name()
        ),
    };
    let agent = match args.agent {
        AgentArg::Ntuple => Agent2048::Greedy,
        AgentArg::Expectimax => Agent2048::Expectimax {
            depth: args.depth.max(1),
        },
        AgentArg::Random => Agent2048::Random,
        AgentArg::Dqn => unreachable!("played above"),
    };
    // The same evaluation as the page's worker runs (in chunks there, in one call here).
    let mut evaluation = Evaluation::new(agent, Game2048Config::default(), args.games, seed);
    evaluation.play(network.as_ref(), args.games)?;
    let mut report = serde_json::to_value(evaluation.report(network.as_ref(), args.model.clone()))?;
    report["machine"] = json!(machine());
    println!("{report}");
    Ok(())
}
