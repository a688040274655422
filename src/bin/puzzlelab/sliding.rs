//! `puzzlelab sliding <verb>`: the sliding puzzles' noun, and its search commands `solve`, `table`,
//! `scramble` and `pdb`; the other verbs live in their own files ([`crate::bench`],
//! [`crate::dqn`], [`crate::local_vi`], [`crate::cost_to_go`]).

use crate::files::{self, gzip_for, machine, read_maybe_gzip, round};
use anyhow::{anyhow, bail, ensure, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use puzzlelab::agent::q_table::QLearningConfig;
use puzzlelab::env::sliding::pdb::{Partition, PdbHeuristic};
use puzzlelab::env::sliding::solve::{
    ExactDistances, SlidingQLearning, SlidingSolver, SolveStatus, DEFAULT_WEIGHT,
};
use puzzlelab::env::sliding::{parse_size, Board, Heuristic, HeuristicTables, SlidingPuzzle};
use puzzlelab::rng::Rng;
use puzzlelab::search::{Algorithm, Limits};
use serde::Serialize;
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

/// `puzzlelab sliding <verb>`.
#[derive(Args, Debug)]
pub struct SlidingArgs {
    #[command(subcommand)]
    pub command: SlidingCommand,
}

/// The sliding puzzles' verbs.
#[derive(Subcommand, Debug)]
pub enum SlidingCommand {
    /// Solves positions (one JSON object per position).
    Solve(SolveArgs),
    /// Builds the exact distance table of a board of at most 9 cells and prints its histogram.
    Table(TableArgs),
    /// Prints scrambled positions.
    Scramble(ScrambleArgs),
    /// Builds the 15-puzzle's additive pattern databases for a goal and writes them.
    Pdb(PdbArgs),
    /// Times the exact 8-puzzle table, Q-learning on sun/moon and IDA* on random 15-puzzles.
    Bench(crate::bench::BenchArgs),
    /// Times IDA* with the shipped pattern databases on Korf's 100 and random 15-puzzles.
    BenchPdb(crate::bench::BenchPdbArgs),
    /// Trains a deep Q-network (`--features learn`).
    Train(Box<crate::dqn::TrainArgs>),
    /// Evaluates a DQN model on fresh positions (`--features learn`).
    Eval(crate::dqn::EvalArgs),
    /// Times DQN training steps and greedy moves on the CPU backend (`--features learn`).
    BenchDqn(crate::dqn::BenchDqnArgs),
    /// Averages the weights of trained DQN models (`--features learn`).
    Average(crate::dqn::AverageArgs),
    /// Local value iteration, tile by tile: `puzzlelab sliding local-vi eval …`.
    LocalVi(crate::local_vi::LocalViArgs),
    /// A 15-puzzle value network learned from optimal solutions: `sliding cost-to-go data|train|eval`.
    CostToGo(crate::cost_to_go::CostToGoArgs),
}

/// Runs `puzzlelab sliding …`. `solve` sets its own exit status (1 when a position failed).
pub fn run(args: &SlidingArgs, command_line: &str) -> Result<ExitCode> {
    use crate::cost_to_go::CostToGoCommand;
    match &args.command {
        SlidingCommand::Solve(a) => return Ok(solve(a)),
        SlidingCommand::Table(a) => table(a),
        SlidingCommand::Scramble(a) => scramble(a),
        SlidingCommand::Pdb(a) => build_databases(a, command_line),
        SlidingCommand::Bench(a) => crate::bench::bench(a),
        SlidingCommand::BenchPdb(a) => crate::bench::bench_pdb(a),
        SlidingCommand::Train(a) => crate::dqn::train(a, command_line),
        SlidingCommand::Eval(a) => crate::dqn::eval(a, command_line),
        SlidingCommand::BenchDqn(a) => crate::dqn::bench_dqn(a),
        SlidingCommand::Average(a) => crate::dqn::average(a, command_line),
        SlidingCommand::LocalVi(a) => crate::local_vi::run(a),
        SlidingCommand::CostToGo(a) => match &a.command {
            CostToGoCommand::Data(a) => crate::cost_to_go::data(a, command_line),
            CostToGoCommand::Train(a) => crate::cost_to_go::train(a, command_line),
            CostToGoCommand::Eval(a) => crate::cost_to_go::eval(a, command_line),
        },
    }?;
    Ok(ExitCode::SUCCESS)
}

/// The board: its size, goal, or a named puzzle.
#[derive(Args, Clone, Debug, Default)]
pub struct BoardArgs {
    /// Rows x columns (`3x3`, `2x3`), or one number for a square board. Default: the size of the
    /// typed position (a square cell count or a grid), else 3x3.
    #[arg(long, value_name = "RxC")]
    pub size: Option<String>,
    /// The goal position (default: 1, 2, ... with the blank last). The blank may be anywhere.
    #[arg(long, value_name = "POSITION")]
    pub goal: Option<String>,
    /// A named puzzle: `sun-moon` (4 suns, 4 moons and a blank, from the sun/moon Q-learning
    /// README, with its start and goal).
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
}

impl BoardArgs {
    /// Whether any of the three was given.
    #[cfg_attr(not(feature = "learn"), allow(dead_code))] // only the DQN commands use it
    pub fn given(&self) -> bool {
        self.size.is_some() || self.goal.is_some() || self.preset.is_some()
    }

    /// The puzzle these flags describe; `sample` (a typed position) gives the size when
    /// `--size` does not.
    pub fn puzzle(&self, sample: Option<&str>) -> Result<SlidingPuzzle> {
        let mut puzzle = match &self.preset {
            Some(name) => SlidingPuzzle::preset(name)?,
            None => {
                let (rows, cols) = match (&self.size, self.goal.as_deref().or(sample)) {
                    (Some(size), _) => parse_size(size)?,
                    (None, Some(text)) => infer_size(text).ok_or_else(|| {
                        anyhow!("cannot tell the board's size from this position: give --size RxC")
                    })?,
                    (None, None) => (3, 3),
                };
                SlidingPuzzle::standard(rows, cols)?
            }
        };
        if let Some(goal) = &self.goal {
            puzzle.set_goal_text(goal).context("goal")?;
        }
        Ok(puzzle)
    }
}

/// Guesses rows × cols from a typed position: a multi-line grid's shape, or a square cell count.
fn infer_size(text: &str) -> Option<(usize, usize)> {
    let is_sep = |c: char| c.is_whitespace() || matches!(c, ',' | ';' | '|');
    let count = |line: &str| {
        let words: Vec<&str> = line.split(is_sep).filter(|w| !w.is_empty()).collect();
        if words.len() == 1 {
            words[0].chars().count()
        } else {
            words.len()
        }
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() > 1 {
        return Some((lines.len(), count(lines[0])));
    }
    let n = count(text);
    (2..=5).find(|k| k * k == n).map(|k| (k, k))
}

/// A search algorithm, or a learner that solves (`qlearning`, `dqn`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlgorithmArg {
    /// Breadth-first search (boards of at most 9 cells).
    Bfs,
    /// A* (optimal with the admissible heuristics).
    #[value(alias = "a*", alias = "a-star")]
    Astar,
    /// Weighted A*: solutions at most --weight times the optimum.
    #[value(alias = "weighted-astar", alias = "wa*")]
    Wastar,
    /// IDA* (optimal; the default).
    #[value(alias = "ida*", alias = "ida-star")]
    Idastar,
    /// Tabular Q-learning from this start (the sun/moon Q-learning README's learner).
    Qlearning,
    /// A trained DQN --model: greedy play, then model-guided beam search (`--features learn`).
    Dqn,
    /// Local value iteration: tile by tile along exactly swept sub-problem tables (standard goal).
    LocalVi,
}

/// A heuristic of A* and IDA*.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicArg {
    /// Misplaced tiles.
    #[value(alias = "hamming", alias = "misplaced-tiles")]
    Misplaced,
    /// Manhattan distance.
    #[value(alias = "md")]
    Manhattan,
    /// Manhattan distance plus 2 per linear conflict.
    #[value(alias = "linear-conflicts", alias = "lc", alias = "manhattan+lc")]
    LinearConflict,
    /// Additive pattern databases (4x4, IDA*): --pdb FILE, or built with --partition.
    Pdb,
}

impl HeuristicArg {
    fn heuristic(self) -> Heuristic {
        match self {
            HeuristicArg::Misplaced => Heuristic::Misplaced,
            HeuristicArg::Manhattan => Heuristic::Manhattan,
            HeuristicArg::LinearConflict | HeuristicArg::Pdb => Heuristic::LinearConflict,
        }
    }
}

/// How the 15 tiles are split into pattern databases.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartitionArg {
    /// Two groups of 6 tiles and one of 3 (larger, faster searches).
    #[value(name = "6-6-3")]
    SixSixThree,
    /// Three groups of 5 tiles (small, quick to build).
    #[value(name = "5-5-5")]
    FiveFiveFive,
}

impl PartitionArg {
    fn partition(self) -> Partition {
        match self {
            PartitionArg::SixSixThree => Partition::SixSixThree,
            PartitionArg::FiveFiveFive => Partition::FiveFiveFive,
        }
    }
}

/// `puzzlelab sliding solve`.
///
/// Positions come from the arguments, or one per line from stdin (`#` starts a comment). Prints
/// one JSON object per position: the moves, the tiles slid, the length, whether it is proven
/// optimal, nodes, time, the algorithm and the heuristic used; an `error` object for a position
/// it cannot solve. Exits with 1 when every position failed.
///
/// On a 4x4 board IDA* uses the shipped 6-6-3 pattern databases by itself when the goal is
/// theirs (1..15 with the blank last, or the blank first as in Korf's instances), and says so in
/// `heuristic` and `databases`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Positions to solve (default: one per line from stdin).
    #[arg(value_name = "POSITION")]
    pub positions: Vec<String>,
    #[command(flatten)]
    pub board: BoardArgs,
    /// The algorithm.
    #[arg(
        long = "algo",
        visible_alias = "algorithm",
        value_enum,
        default_value = "idastar"
    )]
    pub algorithm: AlgorithmArg,
    /// Weighted A*'s weight W, from 1 to 100 (with --algo wastar; default 2).
    #[arg(long)]
    pub weight: Option<f64>,
    /// The heuristic (default: the shipped pattern databases where they fit, else
    /// linear-conflict).
    #[arg(long, value_enum)]
    pub heuristic: Option<HeuristicArg>,
    /// Pattern databases written by `puzzlelab sliding pdb` (gzip or not) for --heuristic pdb.
    #[arg(long, value_name = "FILE")]
    pub pdb: Option<String>,
    /// The partition of the databases built for --heuristic pdb without --pdb (default 5-5-5).
    #[arg(long, value_enum)]
    pub partition: Option<PartitionArg>,
    /// The node budget of a search.
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// `--algo dqn`'s model file (written by `puzzlelab sliding train`).
    #[arg(long, value_name = "FILE")]
    pub model: Option<String>,
    /// `--algo dqn`: the beam search's width.
    #[arg(long)]
    pub beam_width: Option<usize>,
    /// `--algo dqn`: the beam search's node budget.
    #[arg(long)]
    pub max_nodes_search: Option<usize>,
}

/// What `solve` prints for a position: the solver's report and where it was made.
#[derive(Serialize)]
pub struct SolveLine<'a, R: Serialize> {
    #[serde(flatten)]
    pub report: R,
    /// The pattern-database file used, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub databases: Option<String>,
    pub ms: f64,
    pub input: &'a str,
    pub start: String,
    pub goal: String,
    pub size: String,
}

impl<'a, R: Serialize> SolveLine<'a, R> {
    /// `report` of `start`, typed as `input`, found in `ms`.
    pub fn new(report: R, ms: f64, input: &'a str, puzzle: &SlidingPuzzle, start: &Board) -> Self {
        SolveLine {
            report,
            databases: None,
            ms: round(ms, 3),
            input,
            start: puzzle.format(start),
            goal: puzzle.format(puzzle.goal()),
            size: format!("{}x{}", puzzle.rows(), puzzle.cols()),
        }
    }
}

/// The error for a start that cannot reach the goal.
pub fn unreachable_goal(puzzle: &SlidingPuzzle) -> anyhow::Error {
    anyhow!(
        "this position cannot reach the goal {} (the permutation parity differs)",
        puzzle.format(puzzle.goal())
    )
}

/// The shipped 6-6-3 databases for the standard goal (1..15, blank last), repository path.
pub const STANDARD_DATABASES: &str = "www/models/pdb-4x4-6-6-3-standard.pdb.gz";
/// The shipped 6-6-3 databases for Korf's goal (blank first, then 1..15), repository path.
pub const BLANK_FIRST_DATABASES: &str = "www/models/pdb-4x4-6-6-3-blank-first.pdb.gz";
/// Korf's goal: blank first, then 1..15 row by row.
pub const KORF_GOAL: &str = "_,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15";

/// A repository file: from the current directory when it is there, else from the source tree
/// this binary was built from.
pub fn repository_file(path: &str) -> String {
    if Path::new(path).exists() {
        path.to_string()
    } else {
        format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
    }
}

/// The shipped databases whose goal is `puzzle`'s, if any (4x4 boards).
pub fn shipped_databases_for(puzzle: &SlidingPuzzle) -> Option<&'static str> {
    if (puzzle.rows(), puzzle.cols()) != (4, 4) {
        return None;
    }
    let standard = SlidingPuzzle::standard(4, 4).ok()?;
    let korf = SlidingPuzzle::with_goal_text(4, 4, KORF_GOAL).ok()?;
    [
        (standard, STANDARD_DATABASES),
        (korf, BLANK_FIRST_DATABASES),
    ]
    .into_iter()
    .find(|(p, _)| p.goal() == puzzle.goal())
    .map(|(_, file)| file)
}

/// Reads pattern databases saved by `puzzlelab sliding pdb` (gzip-compressed or not) for `goal`.
pub fn load_databases(path: &str, goal: &Board) -> Result<PdbHeuristic> {
    let bytes = read_maybe_gzip(path)?;
    PdbHeuristic::from_bytes(&bytes, goal).with_context(|| path.to_string())
}

/// Databases loaded or built once per run, with the file they came from.
type DatabaseCache = Option<(Rc<PdbHeuristic>, Option<String>)>;

/// The pattern databases `solve` uses for `puzzle`, if any, and their file: `--pdb`, built with
/// `--partition`, or the shipped ones when no heuristic is named and IDA* runs on their goal.
fn databases_for(
    args: &SolveArgs,
    puzzle: &SlidingPuzzle,
    cache: &mut DatabaseCache,
) -> Result<DatabaseCache> {
    let asked = args.heuristic == Some(HeuristicArg::Pdb)
        || (args.heuristic.is_none() && (args.pdb.is_some() || args.partition.is_some()));
    let shipped = match args.heuristic {
        None if !asked && args.algorithm == AlgorithmArg::Idastar => {
            shipped_databases_for(puzzle).map(repository_file)
        }
        _ => None,
    };
    if !asked && shipped.is_none() {
        return Ok(None);
    }
    ensure!(
        args.algorithm == AlgorithmArg::Idastar,
        "--heuristic pdb works with --algo idastar"
    );
    if let Some(entry) = cache.as_ref().filter(|(db, _)| db.goal() == puzzle.goal()) {
        return Ok(Some(entry.clone()));
    }
    let entry = match args.pdb.clone().or(shipped) {
        Some(path) => (load_databases(&path, puzzle.goal())?, Some(path)),
        None => {
            let partition = args.partition.unwrap_or(PartitionArg::FiveFiveFive);
            let built = PdbHeuristic::build(puzzle.goal(), partition.partition(), |_| {})?;
            (built, None)
        }
    };
    *cache = Some((Rc::new(entry.0), entry.1));
    Ok(cache.clone())
}

fn solve_one(args: &SolveArgs, text: &str, cache: &mut DatabaseCache) -> Result<String> {
    if args.algorithm == AlgorithmArg::Dqn {
        return crate::dqn::solve_with_model(args, text);
    }
    let puzzle = args.board.puzzle(Some(text))?;
    let start = puzzle.parse(text)?;
    let heuristic = args
        .heuristic
        .map_or(Heuristic::LinearConflict, HeuristicArg::heuristic);
    let clock = Instant::now();
    if args.algorithm == AlgorithmArg::Qlearning {
        let mut learner = SlidingQLearning::new(&puzzle, start, QLearningConfig::default())?;
        learner.train(usize::MAX);
        let line = SolveLine::new(learner.report(), 0.0, text, &puzzle, &start);
        let ms = clock.elapsed().as_secs_f64() * 1000.0;
        return Ok(to_json(&SolveLine {
            ms: round(ms, 3),
            ..line
        }));
    }
    if args.algorithm == AlgorithmArg::LocalVi {
        ensure!(
            args.weight.is_none() && args.heuristic.is_none() && args.pdb.is_none(),
            "--algo local-vi takes no --weight, --heuristic or --pdb"
        );
        let report = crate::local_vi::solve(&puzzle, &start)?;
        let report = report.ok_or_else(|| unreachable_goal(&puzzle))?;
        let ms = clock.elapsed().as_secs_f64() * 1000.0;
        return Ok(to_json(&SolveLine::new(report, ms, text, &puzzle, &start)));
    }
    if args.weight.is_some() && args.algorithm != AlgorithmArg::Wastar {
        bail!("--weight is for --algo wastar");
    }
    let databases = databases_for(args, &puzzle, cache)?;
    let limits = Limits {
        max_nodes: args.max_nodes.unwrap_or(Limits::default().max_nodes),
    };
    let algorithm = match args.algorithm {
        AlgorithmArg::Bfs => Algorithm::Bfs,
        AlgorithmArg::Astar => Algorithm::AStar,
        AlgorithmArg::Wastar => Algorithm::WeightedAStar,
        _ => Algorithm::IdaStar,
    };
    let solver = match (&databases, algorithm, args.weight) {
        (Some((db, _)), _, _) => {
            SlidingSolver::with_pattern_databases(&puzzle, start, db.clone(), limits)
        }
        (None, Algorithm::WeightedAStar, weight) => {
            let weight = weight.unwrap_or(DEFAULT_WEIGHT);
            SlidingSolver::weighted(&puzzle, start, heuristic, weight, limits)
        }
        (None, _, _) => SlidingSolver::new(&puzzle, start, algorithm, heuristic, limits),
    };
    let report = solver?.run_to_end(u64::MAX, |_| true);
    if report.status == SolveStatus::Unsolvable {
        return Err(unreachable_goal(&puzzle));
    }
    let ms = clock.elapsed().as_secs_f64() * 1000.0;
    let mut line = SolveLine::new(report, ms, text, &puzzle, &start);
    line.databases = databases.and_then(|(_, file)| file);
    Ok(to_json(&line))
}

fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("reports serialise")
}

/// `puzzlelab sliding solve`: one JSON line per position; exits with 1 when every position failed.
pub fn solve(args: &SolveArgs) -> ExitCode {
    let mut inputs = args.positions.clone();
    if inputs.is_empty() {
        inputs = std::io::stdin()
            .lock()
            .lines()
            .map_while(Result::ok)
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .collect();
    }
    let mut out = std::io::stdout().lock();
    let mut failures = 0;
    let mut cache = None;
    for text in &inputs {
        let line = solve_one(args, text, &mut cache).unwrap_or_else(|error| {
            failures += 1;
            to_json(&serde_json::json!({ "input": text, "error": format!("{error:#}") }))
        });
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
    if failures > 0 && failures == inputs.len() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `puzzlelab sliding table`: builds the exact distance table of a board of at most 9 cells and prints
/// its histogram.
#[derive(Args, Debug)]
pub struct TableArgs {
    #[command(flatten)]
    pub board: BoardArgs,
}

#[derive(Serialize)]
struct TableReport {
    size: String,
    goal: String,
    reachable: usize,
    max_distance: u32,
    histogram: Vec<usize>,
    ms: f64,
}

/// `puzzlelab sliding table`.
pub fn table(args: &TableArgs) -> Result<()> {
    let puzzle = args.board.puzzle(None)?;
    let clock = Instant::now();
    let exact = ExactDistances::build(puzzle.goal())
        .ok_or_else(|| anyhow!("exact tables are built for boards of at most 9 cells"))?;
    let report = TableReport {
        size: format!("{}x{}", puzzle.rows(), puzzle.cols()),
        goal: puzzle.format(puzzle.goal()),
        reachable: exact.reachable(),
        max_distance: exact.max_distance(),
        histogram: exact.histogram(),
        ms: clock.elapsed().as_secs_f64() * 1000.0,
    };
    println!("{}", to_json(&report));
    Ok(())
}

/// `puzzlelab sliding scramble`: prints scrambled positions, one a line.
///
/// By default the N-puzzle DQN dissertation's random walk back from the goal until Manhattan +
/// 2 × linear conflicts reaches --difficulty; with --exact a uniformly random position at exactly
/// --difficulty optimal moves (boards of at most 9 cells); with --uniform a position drawn
/// uniformly from all solvable ones.
#[derive(Args, Debug)]
pub struct ScrambleArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The walk's Manhattan + 2·LC to reach, or with --exact the optimal distance.
    #[arg(long, default_value_t = 20)]
    pub difficulty: u32,
    /// Exactly --difficulty optimal moves from the goal (boards of at most 9 cells).
    #[arg(long, conflicts_with = "uniform")]
    pub exact: bool,
    /// Uniformly random over all solvable positions.
    #[arg(long)]
    pub uniform: bool,
    /// The random generator's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How many positions.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
}

/// `puzzlelab sliding scramble`.
pub fn scramble(args: &ScrambleArgs) -> Result<()> {
    let puzzle = args.board.puzzle(None)?;
    let mut rng = Rng::new(args.seed);
    let tables = HeuristicTables::new(puzzle.goal());
    let exact = match args.exact {
        true => Some(
            ExactDistances::build(puzzle.goal())
                .ok_or_else(|| anyhow!("--exact needs a board of at most 9 cells"))?,
        ),
        false => None,
    };
    for _ in 0..args.count {
        let board = match &exact {
            _ if args.uniform => puzzle.random_solvable(&mut rng),
            Some(e) => e.random_at(args.difficulty, &mut rng),
            None => puzzle.random_walk(args.difficulty, 100_000, &mut rng, |b| {
                tables.estimate(b, Heuristic::LinearConflict)
            }),
        };
        println!("{}", puzzle.format(&board));
    }
    Ok(())
}

/// `puzzlelab sliding pdb`: builds the 15-puzzle's additive pattern databases for a goal, writes them
/// (gzip when FILE ends in .gz) and a manifest FILE.json (command, machine, wall time, sizes,
/// checksum); prints the manifest.
#[derive(Args, Debug)]
pub struct PdbArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// How the tiles are split into databases.
    #[arg(long, value_enum, default_value = "6-6-3")]
    pub partition: PartitionArg,
    /// The file to write.
    #[arg(long, value_name = "FILE", required = true)]
    pub out: String,
}

/// The manifest written beside pattern databases.
#[derive(Serialize)]
struct PdbManifest {
    what: &'static str,
    command: String,
    goal: String,
    partition: &'static str,
    groups: Vec<Vec<u8>>,
    mirrored_lookup: bool,
    max_values: Vec<u8>,
    entries: usize,
    file_bytes: usize,
    written_bytes: usize,
    checksum_fnv1a: String,
    build_ms: f64,
    machine: String,
    puzzlelab_version: &'static str,
}

/// `puzzlelab sliding pdb`.
pub fn build_databases(args: &PdbArgs, command: &str) -> Result<()> {
    let board = BoardArgs {
        size: Some(args.board.size.clone().unwrap_or_else(|| "4x4".into())),
        ..args.board.clone()
    };
    ensure!(
        parse_size(board.size.as_deref().expect("set above"))? == (4, 4),
        "pattern databases are built for 4x4 boards"
    );
    let puzzle = board.puzzle(None)?;
    let partition = args.partition.partition();
    let clock = Instant::now();
    let databases = PdbHeuristic::build(puzzle.goal(), partition, |_| {})?;
    let build_ms = clock.elapsed().as_secs_f64() * 1000.0;
    let bytes = databases.to_bytes();
    let checksum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
    let written = gzip_for(&args.out, bytes.clone());
    std::fs::write(&args.out, &written).with_context(|| format!("{}: cannot write", args.out))?;
    let manifest = PdbManifest {
        what: "additive disjoint pattern databases for the 15-puzzle (puzzlelab format version 1)",
        command: command.to_string(),
        goal: puzzle.format(puzzle.goal()),
        partition: partition.name(),
        groups: partition.groups(puzzle.goal()),
        mirrored_lookup: databases.has_mirror(),
        max_values: databases
            .databases()
            .iter()
            .map(|d| d.max_value())
            .collect(),
        entries: databases.table_bytes(),
        file_bytes: bytes.len(),
        written_bytes: written.len(),
        checksum_fnv1a: format!("{checksum:016x}"),
        build_ms: round(build_ms, 1),
        machine: machine(),
        puzzlelab_version: env!("CARGO_PKG_VERSION"),
    };
    files::write_json(&format!("{}.json", args.out), &manifest)?;
    println!("{}", to_json(&manifest));
    Ok(())
}
