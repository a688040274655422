//! `puzzlelab`: the native command-line tool.
//!
//! ```text
//! puzzlelab solve [POSITION ...] [--size RxC] [--goal G] [--preset NAME]
//!                 [--algo bfs|astar|wastar|idastar|qlearning] [--weight W]
//!                 [--heuristic misplaced|manhattan|linear-conflict] [--max-nodes N]
//! puzzlelab table [--size RxC] [--goal G] [--preset NAME]
//! puzzlelab scramble [--size RxC] [--goal G] [--difficulty D] [--exact] [--seed S] [--count N]
//! puzzlelab bench-pdb [--set korf|random|all] [--count N] [--seed S] [--baseline-count N] [--out FILE]
//! puzzlelab train --steps N [--size 3] [--curriculum] [--out FILE] [--resume FILE] ...  (--features learn)
//! puzzlelab eval --model FILE [--per-distance K] [--seed S]                            (--features learn)
//! puzzlelab train-2048 --games N [--seed S] [--out FILE] [--resume FILE] [--alpha A] [--chunk K]
//! puzzlelab eval-2048 --model FILE --games N [--seed S] [--agent ntuple|expectimax|random] [--depth D]
//! puzzlelab train-dqn-2048 --steps N [--filters F1,F2] [--out FILE] [--resume FILE] ... (--features learn)
//! puzzlelab eval-dqn-2048 --model FILE [--games N] [--seed S]                           (--features learn)
//! ```
//! `solve` reads positions from its arguments, or one per line from stdin when none are given,
//! and prints one JSON object per position (an `error` object for a position it cannot solve).

use puzzlelab::agent::q_table::QLearningConfig;
use puzzlelab::env::sliding::pdb::{Partition, PdbHeuristic};
use puzzlelab::env::sliding::solve::{
    ExactDistances, SlidingQLearning, SlidingSolver, DEFAULT_WEIGHT,
};
use puzzlelab::env::sliding::{parse_size, Heuristic, HeuristicTables, PuzzleError, SlidingPuzzle};
use puzzlelab::env::sliding::{Board, Direction};
use puzzlelab::rng::Rng;
use puzzlelab::search::{Algorithm, Limits};
use serde_json::{json, Value};
use std::io::{BufRead, Read, Write};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

const USAGE: &str = "usage:
  puzzlelab solve [POSITION ...] [--size RxC] [--goal G] [--preset sun-moon]
                  [--algo bfs|astar|wastar|idastar|qlearning|dqn] [--weight W]
                  [--heuristic misplaced|manhattan|linear-conflict|pdb] [--pdb FILE] [--partition P]
                  [--max-nodes N] [--model FILE]
      Positions come from the arguments, or one per line from stdin. Prints one JSON object per position.
      wastar is weighted A*: solutions at most W times the optimum (W from 1 to 100, default 2).
      dqn (--features learn) plays a trained --model greedily, then by model-guided beam search.
      --heuristic pdb (4x4, IDA*): additive pattern databases, read from FILE (as written by
      `puzzlelab pdb`) or built once per run with --partition 5-5-5 (default) or 6-6-3.
  puzzlelab train [--size 3] [--goal G] --steps N [--seed S] [--difficulty D | --curriculum]
                  [--hidden 250,250,250] [--lr 1e-4] [--gamma 0.9] [--batch 100] [--replay 100000]
                  [--double] [--huber] [--mask] [--prioritized] [--reward thesis|steps] [--mixed] [--envs 1] [--warmup 100]
                  [--epsilon-decay 0.999] [--epsilon-min 0.3] [--target-every 10] [--full-backups]
                  [--uniform-starts]
                  [--chunk 1000] [--eval-every N]
                  [--checkpoint-every N] [--per-distance K] [--out FILE] [--resume FILE]
      (build with --features learn) Deep Q-learning with the thesis's defaults. One progress line per
      chunk on stderr; writes the model FILE (default dqn-RxC.dqn) and its manifest FILE.json, also as
      checkpoints every --checkpoint-every steps (default 10000). --resume FILE goes on from a saved
      model to --steps in all (Adam's moments and the replay buffer start again). --difficulty D: the
      random walk's Manhattan + 2·LC (default 10); --curriculum starts at D (default 1) and raises it
      after 3 in-training evaluations in a row above 80%; --mixed draws each episode's difficulty from 1 to
      the current one. With --resume, only --difficulty, --mixed, --uniform-starts and --lr (a lower rate to go on at) may change. --reward steps: −1 a move (seed 001) instead of the thesis's −(Manhattan + 2·LC).
      --target-every N: gradient steps between copies into the target network (thesis: 10).
      --full-backups: no play and no replay; each gradient step draws --batch fresh starts and backs
      up every move of each (DeepCubeA's value iteration on Q-values); evaluations every 50 steps.
      --uniform-starts (with --mixed): every other episode starts from a uniformly random solvable
      position.
  puzzlelab eval --model FILE [--per-distance K] [--uniform-positions N] [--seed S] [--beam-width W]
                 [--max-nodes-search N]
      (--features learn) Evaluates a model on fresh positions by optimal distance: greedy solved %
      within 50 moves, model-guided beam search solved % and mean extra moves; prints JSON (stdout)
      and a table (stderr). --uniform-positions N adds a table for N uniformly random positions.
  puzzlelab bench-dqn [--steps 2000] [--seed S]
      (--features learn) Times the thesis's DQN on the CPU: training steps per second (after the
      warm-up) and the latency of one greedy move, on the 8- and 15-puzzle networks; prints JSON.
  puzzlelab train-2048 --games N [--seed S] [--out FILE] [--resume FILE] [--alpha A] [--chunk 1000]
                       [--tuples 4x5|4x6|5x4] [--precision f32|f16] [--eval-games 100]
      2048: learns an n-tuple network by TD(0) on afterstates (Szubert & Jaskowski 2014) from N games
      in all, playing greedily. One progress line per chunk of K games on stderr; after each chunk
      writes FILE (default 2048-ntuple.ntuple; gzip when it ends in .gz; f32 unless --precision f16)
      and its manifest FILE.json (commands, seed, games, wall time, machine, training curve), so a
      killed run goes on with --resume FILE. At the end, plays --eval-games games greedily with the
      network as written and records the evaluation in the manifest; prints the manifest. --alpha:
      the TD step for the whole value (default 0.1; a resumed run keeps its file's unless given).
  puzzlelab eval-2048 --model FILE [--games 100] [--seed S] [--agent ntuple|expectimax|random] [--depth 2]
      Plays N full games of 2048 (new tiles: 2 with p 0.9, 4 with 0.1) with the network's greedy
      1-ply policy, expectimax D moves deep over the network's values, or random moves (no model);
      prints JSON: reach rates of 1024...32768, mean and median score, moves per second.
  puzzlelab train-dqn-2048 --steps N [--filters 128,128] [--hidden 256] [--lr 5e-4] [--gamma 0.9]
                           [--batch 64] [--replay 100000] [--epsilon-decay 0.9995] [--epsilon-min 0.01] [--target-every 100]
                           [--double] [--huber] [--prioritized] [--envs 1] [--warmup 10] [--seed S]
                           [--chunk 1000] [--eval-every N] [--eval-games 100] [--checkpoint-every N]
                           [--out FILE] [--resume FILE]
      (--features learn) Seed 004's deep Q-network on 2048: one-hot 4x4x16, two levels of (1,2)/(2,1)
      convolutions, a dense layer, its shaped reward; legal moves only. One progress line per chunk;
      every --eval-every steps and at the end plays --eval-games greedy games; writes FILE (default
      2048-dqn.dqn) and FILE.json (manifest with the training curve), also as checkpoints.
  puzzlelab eval-dqn-2048 --model FILE [--games 100] [--seed S]
      (--features learn) Plays N full games with a 2048 DQN's greedy legal move; prints JSON like
      eval-2048's.
  puzzlelab pdb [--goal G] [--partition 6-6-3|5-5-5] --out FILE
      Builds the 15-puzzle pattern databases for a goal, writes them (gzip when FILE ends in .gz)
      and a manifest FILE.json (command, machine, wall time, sizes, checksum).
  puzzlelab table [--size RxC] [--goal G] [--preset sun-moon]
      Builds the exact distance table of a board of at most 9 cells and prints its histogram.
  puzzlelab bench [--count N] [--seed S]
      Times the exact 8-puzzle table, Q-learning on sun/moon and IDA* on N random 15-puzzles; prints JSON.
  puzzlelab bench-pdb [--set korf|random|all] [--count 100] [--seed 2026] [--korf FILE]
                      [--baseline-count 10] [--baseline-timeout-ms 10000] [--out FILE]
      Times IDA* with the shipped 6-6-3 pattern databases on Korf's 100 (checking their known optimal
      lengths) and on N uniformly random positions, and the pathfinding crate's IDA* with Manhattan
      distance on the first few of each (stopped after the timeout); writes JSON (stdout by default).
  puzzlelab scramble [--size RxC] [--goal G] [--preset sun-moon] [--difficulty D] [--exact|--uniform] [--seed S] [--count N]
      Prints scrambled positions: the thesis's random walk until Manhattan + 2·linear conflicts >= D,
      or with --exact a uniformly random position at exactly D optimal moves (boards of at most 9 cells),
      or with --uniform a position drawn uniformly from all solvable ones.
Positions: 123456780, \"1 2 3 4 5 6 7 8 0\", 1,2,3,8,_,4,7,6,5, or a multi-line grid; 0 or _ is the blank.";

/// The options of `train`, `eval` and `solve --algo dqn` that take a value.
const LEARN_VALUE_FLAGS: &[&str] = &[
    "--steps",
    "--hidden",
    "--lr",
    "--gamma",
    "--batch",
    "--replay",
    "--envs",
    "--chunk",
    "--resume",
    "--eval-every",
    "--checkpoint-every",
    "--model",
    "--per-distance",
    "--uniform-positions",
    "--beam-width",
    "--max-nodes-search",
    "--warmup",
    // train-2048 and eval-2048.
    "--games",
    "--alpha",
    "--tuples",
    "--precision",
    "--eval-games",
    "--agent",
    "--depth",
    "--reward",
    "--filters",
    "--epsilon-decay",
    "--epsilon-min",
    "--target-every",
];
/// The on/off options of `train`.
const LEARN_SWITCHES: &[&str] = &[
    "--double",
    "--huber",
    "--mask",
    "--prioritized",
    "--curriculum",
    "--mixed",
    "--full-backups",
    "--uniform-starts",
];

/// Options shared by the subcommands.
#[derive(Clone)]
struct Options {
    positional: Vec<String>,
    size: Option<String>,
    goal: Option<String>,
    preset: Option<String>,
    algorithm: Option<String>,
    heuristic: Option<String>,
    max_nodes: Option<u64>,
    weight: Option<f64>,
    pdb: Option<String>,
    partition: Option<String>,
    out: Option<String>,
    difficulty: u32,
    exact: bool,
    uniform: bool,
    seed: u64,
    count: usize,
    /// `bench-pdb`: which positions (`korf`, `random`, `all`), Korf's file, the baseline's share.
    set: Option<String>,
    korf: Option<String>,
    baseline_count: Option<usize>,
    baseline_timeout_ms: Option<u64>,
    /// `train`, `eval` and `solve --algo dqn`: their flags' values, read by the `learn` module.
    learn_values: std::collections::BTreeMap<String, String>,
    /// The flags given, for subcommands whose defaults differ (`bench-pdb`'s seed and count).
    given: Vec<String>,
}

impl Options {
    fn given(&self, flag: &str) -> bool {
        self.given.iter().any(|f| f == flag)
    }
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        positional: Vec::new(),
        size: None,
        goal: None,
        preset: None,
        algorithm: None,
        heuristic: None,
        max_nodes: None,
        weight: None,
        pdb: None,
        partition: None,
        out: None,
        difficulty: 20,
        exact: false,
        uniform: false,
        seed: 0,
        count: 1,
        set: None,
        korf: None,
        baseline_count: None,
        baseline_timeout_ms: None,
        learn_values: Default::default(),
        given: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        let number = |v: String, what: &str| {
            v.trim()
                .parse::<u64>()
                .map_err(|_| format!("{what} must be a whole number, not \"{v}\""))
        };
        match flag.as_str() {
            "--size" => o.size = Some(value()?),
            "--goal" => o.goal = Some(value()?),
            "--preset" => o.preset = Some(value()?),
            "--algo" | "--algorithm" => o.algorithm = Some(value()?),
            "--heuristic" => o.heuristic = Some(value()?),
            "--max-nodes" => o.max_nodes = Some(number(value()?, "--max-nodes")?),
            "--weight" => {
                let v = value()?;
                let weight = v.trim().parse::<f64>();
                o.weight =
                    Some(weight.map_err(|_| format!("--weight must be a number, not \"{v}\""))?);
            }
            "--pdb" => o.pdb = Some(value()?),
            "--partition" => o.partition = Some(value()?),
            "--out" => o.out = Some(value()?),
            "--difficulty" => o.difficulty = number(value()?, "--difficulty")? as u32,
            "--seed" => o.seed = number(value()?, "--seed")?,
            "--count" => o.count = number(value()?, "--count")? as usize,
            "--exact" => o.exact = true,
            "--uniform" => o.uniform = true,
            "--set" => o.set = Some(value()?),
            "--korf" => o.korf = Some(value()?),
            "--baseline-count" => {
                o.baseline_count = Some(number(value()?, "--baseline-count")? as usize)
            }
            "--baseline-timeout-ms" => {
                o.baseline_timeout_ms = Some(number(value()?, "--baseline-timeout-ms")?)
            }
            f if LEARN_VALUE_FLAGS.contains(&f) => {
                let v = value()?;
                o.learn_values.insert(f.to_string(), v);
            }
            f if LEARN_SWITCHES.contains(&f) => {}
            f if f.starts_with("--") => return Err(format!("unknown option {f}")),
            _ => o.positional.push(arg.clone()),
        }
        if flag.starts_with("--") {
            o.given.push(flag);
        }
        i += 1;
    }
    Ok(o)
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

fn puzzle_for(o: &Options, sample: Option<&str>) -> Result<SlidingPuzzle, String> {
    let mut puzzle = match &o.preset {
        Some(name) => SlidingPuzzle::preset(name).map_err(|e| e.to_string())?,
        None => {
            let (rows, cols) = match (&o.size, o.goal.as_deref().or(sample)) {
                (Some(size), _) => parse_size(size).map_err(|e| e.to_string())?,
                (None, Some(text)) => infer_size(text)
                    .ok_or("cannot tell the board's size from this position: give --size RxC")?,
                (None, None) => (3, 3),
            };
            SlidingPuzzle::standard(rows, cols).map_err(|e| e.to_string())?
        }
    };
    if let Some(goal) = &o.goal {
        puzzle
            .set_goal_text(goal)
            .map_err(|e: PuzzleError| format!("goal: {e}"))?;
    }
    Ok(puzzle)
}

/// A file's bytes, gunzipped when it is gzip-compressed.
fn read_maybe_gzip(path: &str) -> Result<Vec<u8>, String> {
    let raw = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if !raw.starts_with(&[0x1f, 0x8b]) {
        return Ok(raw);
    }
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut out)
        .map_err(|e| format!("{path}: {e}"))?;
    Ok(out)
}

/// Reads pattern databases saved by `puzzlelab pdb` (gzip-compressed or not) for `goal`.
fn load_databases(path: &str, goal: &Board) -> Result<PdbHeuristic, String> {
    let bytes = read_maybe_gzip(path)?;
    PdbHeuristic::from_bytes(&bytes, goal).map_err(|e| format!("{path}: {e}"))
}

/// Pattern databases for the goal of `puzzle`: the `--pdb` file, or built with `--partition`
/// (5-5-5 by default), once per run.
fn databases_for(
    o: &Options,
    puzzle: &SlidingPuzzle,
    cache: &mut Option<Rc<PdbHeuristic>>,
) -> Result<Rc<PdbHeuristic>, String> {
    if let Some(db) = cache.as_ref().filter(|db| db.goal() == puzzle.goal()) {
        return Ok(db.clone());
    }
    let db = match &o.pdb {
        Some(path) => load_databases(path, puzzle.goal())?,
        None => {
            let name = o.partition.as_deref().unwrap_or("5-5-5");
            let partition = Partition::from_name(name)
                .ok_or_else(|| format!("unknown partition \"{name}\": 6-6-3 or 5-5-5"))?;
            PdbHeuristic::build(puzzle.goal(), partition, |_| {}).map_err(|e| e.to_string())?
        }
    };
    Ok(cache.insert(Rc::new(db)).clone())
}

fn solve_one(
    o: &Options,
    text: &str,
    cache: &mut Option<Rc<PdbHeuristic>>,
) -> Result<Value, String> {
    let algorithm = o.algorithm.as_deref().unwrap_or("idastar");
    if algorithm == "dqn" {
        return solve_with_model(o, text);
    }
    let puzzle = puzzle_for(o, Some(text))?;
    let start = puzzle.parse(text).map_err(|e| e.to_string())?;
    let heuristic_name = o.heuristic.as_deref().unwrap_or("linear-conflict");
    let use_databases = heuristic_name == "pdb";
    let heuristic = if use_databases {
        Heuristic::LinearConflict
    } else {
        Heuristic::from_name(heuristic_name)
            .ok_or_else(|| format!("unknown heuristic \"{heuristic_name}\""))?
    };
    let databases = if use_databases {
        if algorithm != "idastar" {
            return Err("--heuristic pdb works with --algo idastar".into());
        }
        Some(databases_for(o, &puzzle, cache)?)
    } else {
        None
    };
    let clock = Instant::now();
    let mut report = if algorithm == "qlearning" {
        let mut learner = SlidingQLearning::new(&puzzle, start, QLearningConfig::default())
            .map_err(|e| e.to_string())?;
        learner.train(usize::MAX);
        serde_json::to_value(learner.report()).expect("report serialises")
    } else {
        let algorithm = Algorithm::from_name(algorithm)
            .ok_or_else(|| format!("unknown algorithm \"{algorithm}\""))?;
        let limits = Limits {
            max_nodes: o.max_nodes.unwrap_or(Limits::default().max_nodes),
        };
        let solver = match (algorithm, o.weight) {
            _ if databases.is_some() => SlidingSolver::with_pattern_databases(
                &puzzle,
                start,
                databases.clone().expect("checked"),
                limits,
            ),
            (Algorithm::WeightedAStar, weight) => {
                let weight = weight.unwrap_or(DEFAULT_WEIGHT);
                SlidingSolver::weighted(&puzzle, start, heuristic, weight, limits)
            }
            (_, Some(_)) => return Err("--weight is for --algo wastar".into()),
            (_, None) => SlidingSolver::new(&puzzle, start, algorithm, heuristic, limits),
        };
        let mut solver = solver.map_err(|e| e.to_string())?;
        let report = solver.run_to_end(u64::MAX, |_| true);
        if report.status == "unsolvable" {
            return Err(format!(
                "this position cannot reach the goal {} (the permutation parity differs)",
                puzzle.format(puzzle.goal())
            ));
        }
        serde_json::to_value(report).expect("report serialises")
    };
    let ms = clock.elapsed().as_secs_f64() * 1000.0;
    describe_solve(
        report.as_object_mut().expect("an object"),
        ms,
        text,
        &puzzle,
        &start,
    );
    Ok(report)
}

/// Adds what every `solve` line carries besides the report: time, input, start, goal and size.
fn describe_solve(
    object: &mut serde_json::Map<String, Value>,
    ms: f64,
    text: &str,
    puzzle: &SlidingPuzzle,
    start: &Board,
) {
    object.insert("ms".into(), json!((ms * 1000.0).round() / 1000.0));
    object.insert("input".into(), json!(text));
    object.insert("start".into(), json!(puzzle.format(start)));
    object.insert("goal".into(), json!(puzzle.format(puzzle.goal())));
    object.insert(
        "size".into(),
        json!(format!("{}x{}", puzzle.rows(), puzzle.cols())),
    );
}

fn solve(o: &Options) -> ExitCode {
    let mut inputs = o.positional.clone();
    if inputs.is_empty() {
        let stdin = std::io::stdin();
        inputs = stdin
            .lock()
            .lines()
            .map_while(Result::ok)
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .collect();
    }
    let mut out = std::io::stdout().lock();
    let mut failures = 0;
    let mut databases = None;
    for text in &inputs {
        let value = solve_one(o, text, &mut databases).unwrap_or_else(|error| {
            failures += 1;
            json!({ "input": text, "error": error })
        });
        let _ = writeln!(out, "{value}");
        let _ = out.flush();
    }
    if failures > 0 && failures == inputs.len() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn table(o: &Options) -> Result<Value, String> {
    let puzzle = puzzle_for(o, None)?;
    let clock = Instant::now();
    let exact = ExactDistances::build(puzzle.goal())
        .ok_or("exact tables are built for boards of at most 9 cells")?;
    let ms = clock.elapsed().as_secs_f64() * 1000.0;
    Ok(json!({
        "size": format!("{}x{}", puzzle.rows(), puzzle.cols()),
        "goal": puzzle.format(puzzle.goal()),
        "reachable": exact.reachable(),
        "max_distance": exact.max_distance(),
        "histogram": exact.histogram(),
        "ms": ms,
    }))
}

fn scramble(o: &Options) -> Result<Vec<String>, String> {
    let puzzle = puzzle_for(o, None)?;
    let mut rng = Rng::new(o.seed);
    let tables = HeuristicTables::new(puzzle.goal());
    let exact = if o.exact {
        Some(
            ExactDistances::build(puzzle.goal())
                .ok_or("--exact needs a board of at most 9 cells")?,
        )
    } else {
        None
    };
    Ok((0..o.count)
        .map(|_| {
            let board = match &exact {
                _ if o.uniform => puzzle.random_solvable(&mut rng),
                Some(e) => e.random_at(o.difficulty, &mut rng),
                None => puzzle.random_walk(o.difficulty, 100_000, &mut rng, |b| {
                    tables.estimate(b, Heuristic::LinearConflict)
                }),
            };
            puzzle.format(&board)
        })
        .collect())
}

/// `puzzlelab pdb`: builds pattern databases, writes them and their manifest.
fn build_databases(o: &Options) -> Result<Value, String> {
    let out = o.out.as_deref().ok_or("pdb needs --out FILE")?;
    let size = o.size.clone().unwrap_or_else(|| "4x4".into());
    if parse_size(&size).map_err(|e| e.to_string())? != (4, 4) {
        return Err("pattern databases are built for 4x4 boards".into());
    }
    let options = Options {
        size: Some(size),
        ..o.clone()
    };
    let puzzle = puzzle_for(&options, None)?;
    let name = o.partition.as_deref().unwrap_or("6-6-3");
    let partition = Partition::from_name(name)
        .ok_or_else(|| format!("unknown partition \"{name}\": 6-6-3 or 5-5-5"))?;
    let clock = Instant::now();
    let databases =
        PdbHeuristic::build(puzzle.goal(), partition, |_| {}).map_err(|e| e.to_string())?;
    let build_ms = clock.elapsed().as_secs_f64() * 1000.0;
    let bytes = databases.to_bytes();
    let written = if out.ends_with(".gz") {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&bytes).map_err(|e| e.to_string())?;
        encoder.finish().map_err(|e| e.to_string())?
    } else {
        bytes.clone()
    };
    std::fs::write(out, &written).map_err(|e| format!("{out}: {e}"))?;
    let checksum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
    let manifest = json!({
        "what": "additive disjoint pattern databases for the 15-puzzle (puzzlelab format version 1)",
        "command": std::env::args().collect::<Vec<_>>().join(" "),
        "goal": puzzle.format(puzzle.goal()),
        "partition": partition.name(),
        "groups": partition.groups(puzzle.goal()),
        "mirrored_lookup": databases.has_mirror(),
        "max_values": databases.databases().iter().map(|d| d.max_value()).collect::<Vec<_>>(),
        "entries": databases.table_bytes(),
        "file_bytes": bytes.len(),
        "written_bytes": written.len(),
        "checksum_fnv1a": format!("{checksum:016x}"),
        "build_ms": (build_ms * 10.0).round() / 10.0,
        "machine": machine(),
        "puzzlelab_version": env!("CARGO_PKG_VERSION"),
    });
    let manifest_path = format!("{out}.json");
    std::fs::write(
        &manifest_path,
        serde_json::to_string_pretty(&manifest).expect("json") + "\n",
    )
    .map_err(|e| format!("{manifest_path}: {e}"))?;
    Ok(manifest)
}

/// A short description of this machine: OS, architecture, CPU model and core count.
fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!(
        "{} {}, {cpu}, {cores} cores",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Timings for comparison between runs and machines (never used as pass/fail).
fn bench(o: &Options) -> Value {
    let ms = |clock: Instant| clock.elapsed().as_secs_f64() * 1000.0;
    let mut table_ms: Vec<f64> = (0..5)
        .map(|_| {
            let clock = Instant::now();
            let exact =
                ExactDistances::build(SlidingPuzzle::standard(3, 3).unwrap().goal()).unwrap();
            assert_eq!(exact.reachable(), 181_440);
            ms(clock)
        })
        .collect();
    let sun = SlidingPuzzle::preset("sun-moon").unwrap();
    let start = sun.preset_start().unwrap();
    let mut q_ms = Vec::new();
    let mut q_lengths = Vec::new();
    for seed in 0..5 {
        let clock = Instant::now();
        let config = QLearningConfig {
            seed,
            ..QLearningConfig::default()
        };
        let mut learner = SlidingQLearning::new(&sun, start, config).unwrap();
        learner.train(usize::MAX);
        q_lengths.push(learner.report().solve.length);
        q_ms.push(ms(clock));
    }
    let puzzle = SlidingPuzzle::standard(4, 4).unwrap();
    let tables = HeuristicTables::new(puzzle.goal());
    let mut rng = Rng::new(o.seed);
    let mut positions = Vec::new();
    let mut ida_ms = Vec::new();
    for _ in 0..o.count.max(1) {
        let board = puzzle.random_walk(o.difficulty, 100_000, &mut rng, |b| {
            tables.estimate(b, Heuristic::LinearConflict)
        });
        let clock = Instant::now();
        let mut solver = SlidingSolver::new(
            &puzzle,
            board,
            Algorithm::IdaStar,
            Heuristic::LinearConflict,
            Limits::default(),
        )
        .unwrap();
        let report = solver.run_to_end(u64::MAX, |_| true);
        let t = ms(clock);
        ida_ms.push(t);
        positions.push(json!({"start": puzzle.format(&board), "length": report.length, "nodes": report.nodes, "ms": t}));
    }
    json!({
        "machine": format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        "exact_table_3x3_ms_median": median(&mut table_ms),
        "q_learning_sun_moon": {"ms_median": median(&mut q_ms), "lengths": q_lengths, "episodes": 1000},
        "idastar_15_puzzle": {
            "scramble": format!("random walk to Manhattan + 2·LC >= {}, seed {}", o.difficulty, o.seed),
            "ms_median": median(&mut ida_ms),
            "ms_max": ida_ms.iter().copied().fold(0.0, f64::max),
            "positions": positions,
        },
    })
}

/// `bench-pdb`'s seed for its random positions (documented in the README, so runs compare).
const BENCH_PDB_SEED: u64 = 2026;
/// Korf's 100 instances (Korf 1985), with their optimal lengths.
const KORF_100: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/benchmarks/korf100.txt"
);
/// Korf's goal: blank first, then 1..15 row by row.
const KORF_GOAL: &str = "_,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15";
/// The shipped 6-6-3 databases for Korf's goal and for the standard goal (repository paths).
const BLANK_FIRST_DATABASES: &str = "www/models/pdb-4x4-6-6-3-blank-first.pdb.gz";
const STANDARD_DATABASES: &str = "www/models/pdb-4x4-6-6-3-standard.pdb.gz";

/// One position of a `bench-pdb` set.
struct BenchPosition {
    id: usize,
    start: Board,
    /// The proven optimum, where the set gives one (Korf's instances).
    known_length: Option<usize>,
}

/// Korf's instances (`id optimal_length tile × 16` per line, `0` the blank, `#` comments).
fn read_korf(path: &str, puzzle: &SlidingPuzzle) -> Result<Vec<BenchPosition>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let lines = text.lines().enumerate();
    let lines = lines.filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    lines
        .map(|(number, line)| {
            let fail = |what: String| format!("{path}:{}: {what}", number + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let (id, length, tiles) = match words.as_slice() {
                [id, length, tiles @ ..] if tiles.len() == 16 => (id, length, tiles),
                _ => return Err(fail("expected an id, a length and 16 tiles".into())),
            };
            Ok(BenchPosition {
                id: id.parse().map_err(|_| fail(format!("bad id \"{id}\"")))?,
                start: puzzle
                    .parse(&tiles.join(" "))
                    .map_err(|e| fail(e.to_string()))?,
                known_length: Some(
                    length
                        .parse()
                        .map_err(|_| fail(format!("bad length \"{length}\"")))?,
                ),
            })
        })
        .collect()
}

/// The `q`-quantile of `values` (linear interpolation between closest ranks, as numpy's default).
fn quantile(values: &[f64], q: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = q * (sorted.len() - 1) as f64;
    let (low, high) = (rank.floor() as usize, rank.ceil() as usize);
    sorted[low] + (sorted[high] - sorted[low]) * (rank - low as f64)
}

/// Median, 90th percentile, max and total of `values`, rounded to thousandths.
fn distribution(values: &[f64]) -> Value {
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    json!({
        "median": round(quantile(values, 0.5)),
        "p90": round(quantile(values, 0.9)),
        "max": round(values.iter().copied().fold(f64::NAN, f64::max)),
        "total": round(values.iter().sum()),
    })
}

/// What the baseline did on one position.
struct BaselineRun {
    length: Option<usize>,
    /// Successor calls (expansions).
    nodes: u64,
    ms: f64,
}

/// The baseline: the `pathfinding` crate's IDA* with plain Manhattan distance, as a Rust user
/// would write it. It has no budget, so once `budget` has passed its successors come back empty
/// and the search ends with `None` (at most one more iteration, and without new nodes).
fn baseline_idastar(puzzle: &SlidingPuzzle, start: Board, budget: Duration) -> BaselineRun {
    let tables = HeuristicTables::new(puzzle.goal());
    let goal = *puzzle.goal();
    let clock = Instant::now();
    let mut nodes = 0u64;
    let mut out_of_time = false;
    let found = pathfinding::prelude::idastar(
        &start,
        |board: &Board| {
            // Reading the clock every 1024 calls keeps its cost out of the baseline's time.
            out_of_time = out_of_time || (nodes % 1024 == 1023 && clock.elapsed() >= budget);
            if out_of_time {
                return Vec::new();
            }
            nodes += 1;
            let moved = Direction::ALL.iter().filter_map(|&d| board.moved(d));
            moved.map(|next| (next, 1u32)).collect()
        },
        |board| tables.manhattan(board),
        |board| *board == goal,
    );
    BaselineRun {
        // A path found while unwinding after the budget is still optimal: it is within the bound.
        length: found.map(|(path, _)| path.len() - 1),
        nodes,
        ms: clock.elapsed().as_secs_f64() * 1000.0,
    }
}

/// Solves one set with the shipped databases at `databases` (and its first `baseline_count`
/// positions with the baseline too); the set's JSON.
fn bench_pdb_set(
    name: &str,
    puzzle: &SlidingPuzzle,
    databases: &str,
    positions: &[BenchPosition],
    baseline_count: usize,
    budget: Duration,
) -> Result<Value, String> {
    let ms = |clock: Instant| clock.elapsed().as_secs_f64() * 1000.0;
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    let clock = Instant::now();
    let path = format!("{}/{databases}", env!("CARGO_MANIFEST_DIR"));
    let heuristic = Rc::new(load_databases(&path, puzzle.goal())?);
    let load_ms = ms(clock);
    let mut ours = Vec::new();
    let (mut ours_ms, mut ours_nodes) = (Vec::new(), Vec::new());
    for (i, position) in positions.iter().enumerate() {
        let clock = Instant::now();
        let limits = Limits {
            max_nodes: u64::MAX,
        };
        let mut solver = SlidingSolver::with_pattern_databases(
            puzzle,
            position.start,
            heuristic.clone(),
            limits,
        )
        .map_err(|e| e.to_string())?;
        let report = solver.run_to_end(u64::MAX, |_| true);
        let t = ms(clock);
        let mut end = position.start;
        let reaches_goal = end.apply(&report.moves).is_ok() && &end == puzzle.goal();
        let correct = report.status == "solved"
            && reaches_goal
            && position.known_length.is_none_or(|k| k == report.length);
        if !correct {
            eprintln!(
                "bench-pdb: {name} #{}: WRONG ({} moves)",
                position.id, report.length
            );
        }
        eprintln!(
            "bench-pdb: {name} {}/{}: {} moves, {} nodes, {t:.1} ms",
            i + 1,
            positions.len(),
            report.length,
            report.nodes
        );
        ours_ms.push(t);
        ours_nodes.push(report.nodes as f64);
        ours.push(json!({
            "id": position.id,
            "start": puzzle.format(&position.start),
            "length": report.length,
            "optimal_length": position.known_length,
            "correct": correct,
            "nodes": report.nodes,
            "ms": round(t),
        }));
    }
    let mut baseline = Vec::new();
    let (mut both_ours, mut both_baseline, mut speedups) = (0.0, 0.0, Vec::new());
    let (mut all_ours, mut all_baseline) = (0.0, 0.0);
    let mut lengths_agree = true;
    for (position, (&our_ms, our)) in positions.iter().zip(ours_ms.iter().zip(&ours)) {
        if baseline.len() >= baseline_count {
            break;
        }
        let run = baseline_idastar(puzzle, position.start, budget);
        eprintln!(
            "bench-pdb: {name} baseline {}/{}: {}, {} nodes, {:.0} ms",
            baseline.len() + 1,
            baseline_count.min(positions.len()),
            run.length
                .map_or("timed out".into(), |l| format!("{l} moves")),
            run.nodes,
            run.ms
        );
        all_ours += our_ms;
        all_baseline += run.ms;
        if let Some(length) = run.length {
            lengths_agree &= our["length"] == json!(length);
            both_ours += our_ms;
            both_baseline += run.ms;
            speedups.push(run.ms / our_ms);
        }
        baseline.push(json!({
            "id": position.id,
            "start": puzzle.format(&position.start),
            "length": run.length,
            "timed_out": run.length.is_none(),
            "nodes": run.nodes,
            "ms": round(run.ms),
        }));
    }
    let solved = speedups.len();
    let ratio = |a: f64, b: f64| (solved > 0).then(|| round(a / b));
    Ok(json!({
        "goal": puzzle.format(puzzle.goal()),
        "databases": databases,
        "databases_load_ms": round(load_ms),
        "ours": {
            "solver": "puzzlelab IDA* (in place) with additive 6-6-3 pattern databases, mirrored lookup",
            "positions": ours.len(),
            "all_correct": ours.iter().all(|p| p["correct"] == true),
            "ms": distribution(&ours_ms),
            "nodes": distribution(&ours_nodes),
        },
        "baseline": {
            "solver": "pathfinding::prelude::idastar with Manhattan distance",
            "budget_ms": budget.as_millis() as u64,
            "positions": baseline.len(),
            "solved": solved,
            "timed_out": baseline.len() - solved,
            "lengths_agree": lengths_agree,
            "on_both_solved": {
                "baseline_total_ms": round(both_baseline),
                "ours_total_ms": round(both_ours),
                "total_time_ratio": ratio(both_baseline, both_ours),
                "speedup_median": (solved > 0).then(|| round(quantile(&speedups, 0.5))),
            },
            // Timed-out positions count their budget: a lower bound on the true ratio.
            "total_time_ratio_all_at_least": (!baseline.is_empty()).then(|| round(all_baseline / all_ours)),
        },
        "positions": ours,
        "baseline_positions": baseline,
    }))
}

/// `puzzlelab bench-pdb`: the shipped pattern databases on Korf's 100 and on uniformly random
/// positions, beside the `pathfinding` crate's IDA* with Manhattan distance. Timings only.
fn bench_pdb(o: &Options) -> Result<(), String> {
    let (korf, random) = match o.set.as_deref().unwrap_or("all") {
        "korf" => (true, false),
        "random" => (false, true),
        "all" => (true, true),
        other => return Err(format!("unknown set \"{other}\": korf, random or all")),
    };
    let seed = if o.given("--seed") {
        o.seed
    } else {
        BENCH_PDB_SEED
    };
    let count = if o.given("--count") { o.count } else { 100 };
    let baseline_count = o.baseline_count.unwrap_or(10);
    let budget = Duration::from_millis(o.baseline_timeout_ms.unwrap_or(10_000));
    let korf_path = o.korf.as_deref().unwrap_or(KORF_100);
    let mut sets = serde_json::Map::new();
    if korf {
        let puzzle = SlidingPuzzle::with_goal_text(4, 4, KORF_GOAL).map_err(|e| e.to_string())?;
        let mut positions = read_korf(korf_path, &puzzle)?;
        positions.truncate(count);
        let set = bench_pdb_set(
            "korf",
            &puzzle,
            BLANK_FIRST_DATABASES,
            &positions,
            baseline_count,
            budget,
        )?;
        sets.insert("korf".into(), set);
    }
    if random {
        let puzzle = SlidingPuzzle::standard(4, 4).map_err(|e| e.to_string())?;
        let mut rng = Rng::new(seed);
        let positions: Vec<BenchPosition> = (1..=count)
            .map(|id| BenchPosition {
                id,
                start: puzzle.random_solvable(&mut rng),
                known_length: None,
            })
            .collect();
        let set = bench_pdb_set(
            "random",
            &puzzle,
            STANDARD_DATABASES,
            &positions,
            baseline_count,
            budget,
        )?;
        sets.insert("random".into(), set);
    }
    let report = json!({
        "what": "15-puzzle: IDA* with the shipped 6-6-3 pattern databases vs pathfinding's IDA* with Manhattan distance",
        "date": utc_now(),
        "machine": machine(),
        "build": if cfg!(debug_assertions) { "debug" } else { "release" },
        "puzzlelab_version": env!("CARGO_PKG_VERSION"),
        "settings": {
            "set": o.set.as_deref().unwrap_or("all"),
            "count": count,
            "korf": korf.then_some(korf_path),
            "seed": random.then_some(seed),
            "random": "SlidingPuzzle::random_solvable (uniform over solvable positions), standard goal",
            "baseline_count": baseline_count,
            "baseline_timeout_ms": budget.as_millis() as u64,
            "quantiles": "linear interpolation between closest ranks",
        },
        "sets": sets,
    });
    let text = serde_json::to_string_pretty(&report).expect("json") + "\n";
    match &o.out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{path}: {e}")),
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string()),
    }
}

/// The value of a `train` / `eval` / `*-2048` flag (`--steps N`), read as `T`, if given.
fn value<T: std::str::FromStr>(o: &Options, flag: &str) -> Result<Option<T>, String> {
    o.learn_values
        .get(flag)
        .map(|v| {
            v.trim()
                .parse()
                .map_err(|_| format!("{flag}: cannot read \"{v}\""))
        })
        .transpose()
}

/// The manifest `FILE.json` written beside a model or network `path`, which resuming needs.
fn read_manifest(path: &str) -> Result<Value, String> {
    let manifest_path = format!("{path}.json");
    std::fs::read_to_string(&manifest_path)
        .map_err(|e| format!("{manifest_path}: {e} (needed to resume)"))
        .and_then(|t| serde_json::from_str(&t).map_err(|e| format!("{manifest_path}: {e}")))
}

/// The strings of a JSON array (a manifest's `commands`); none if it is not one.
fn strings(value: &Value) -> Vec<String> {
    value.as_array().map_or(Vec::new(), |items| {
        items
            .iter()
            .filter_map(|c| c.as_str().map(String::from))
            .collect()
    })
}

/// `--resume` goes on with what the model records: refuses the `recorded` flags beside it.
#[cfg(feature = "learn")]
fn refuse_changes_on_resume(o: &Options, recorded: &[&str]) -> Result<(), String> {
    match recorded
        .iter()
        .find(|f| o.learn_values.contains_key("--resume") && o.given(f))
    {
        Some(flag) => Err(format!(
            "--resume goes on with the model's recorded puzzle and configuration: {flag} cannot \
             change them"
        )),
        None => Ok(()),
    }
}

/// A list of numbers given as `--flag 250,250,250`, if given.
#[cfg(feature = "learn")]
fn numbers(o: &Options, flag: &str) -> Result<Option<Vec<usize>>, String> {
    o.learn_values
        .get(flag)
        .map(|text| {
            text.split(',')
                .map(|w| {
                    w.trim()
                        .parse()
                        .map_err(|_| format!("{flag}: cannot read \"{text}\""))
                })
                .collect()
        })
        .transpose()
}

/// A DQN configuration: `defaults` with the flags given over them (`--hidden`, `--lr`, `--gamma`,
/// `--batch`, `--replay`, `--envs`, `--warmup`, `--epsilon-decay`, `--epsilon-min`, `--seed`, and
/// the switches `--double`, `--huber`, `--mask`, `--prioritized`, `--full-backups`, which only turn
/// options on).
#[cfg(feature = "learn")]
fn dqn_config_from(
    o: &Options,
    defaults: puzzlelab::agent::dqn::DqnConfig,
) -> Result<puzzlelab::agent::dqn::DqnConfig, String> {
    let d = defaults;
    let config = puzzlelab::agent::dqn::DqnConfig {
        hidden: numbers(o, "--hidden")?.unwrap_or(d.hidden.clone()),
        learning_rate: value(o, "--lr")?.unwrap_or(d.learning_rate),
        gamma: value(o, "--gamma")?.unwrap_or(d.gamma),
        batch_size: value(o, "--batch")?.unwrap_or(d.batch_size),
        replay_capacity: value(o, "--replay")?.unwrap_or(d.replay_capacity),
        num_envs: value(o, "--envs")?.unwrap_or(d.num_envs),
        warmup_episodes: value(o, "--warmup")?.unwrap_or(d.warmup_episodes),
        epsilon_decay: value(o, "--epsilon-decay")?.unwrap_or(d.epsilon_decay),
        epsilon_min: value(o, "--epsilon-min")?.unwrap_or(d.epsilon_min),
        target_update_interval: value(o, "--target-every")?.unwrap_or(d.target_update_interval),
        double_dqn: d.double_dqn || o.given("--double"),
        huber_loss: d.huber_loss || o.given("--huber"),
        mask_actions: d.mask_actions || o.given("--mask"),
        prioritized_replay: d.prioritized_replay || o.given("--prioritized"),
        full_backups: d.full_backups || o.given("--full-backups"),
        seed: o.seed,
        ..d
    };
    config.validate().map_err(|e| e.to_string())?;
    Ok(config)
}

/// Writes a DQN model's manifest `out.json`: the learner's part (hyper-parameters, seed, steps,
/// episodes, wall time, steps/s over all runs, machine, build, date, commands), then `fields`,
/// what the puzzle's trainer adds (puzzle, architecture, evaluation, ...).
#[cfg(feature = "learn")]
fn write_dqn_manifest<E: puzzlelab::env::Environment>(
    out: &str,
    dqn: &puzzlelab::agent::dqn::Dqn<E>,
    wall_seconds: f64,
    commands: &[String],
    finished: bool,
    fields: Value,
) -> Result<(), String> {
    let mut manifest = serde_json::json!({
        "model": out,
        "hyperparameters": dqn.config(),
        "seed": dqn.config().seed,
        "steps": dqn.steps_done(),
        "episodes": dqn.episodes_done(),
        "finished": finished,
        "wall_seconds": (wall_seconds * 10.0).round() / 10.0,
        // Over all the runs that made the model, evaluations and checkpoints included.
        "steps_per_s": if wall_seconds > 0.0 {
            (dqn.steps_done() as f64 * dqn.config().num_envs as f64 / wall_seconds).round()
        } else {
            0.0
        },
        "machine": machine(),
        "build": if cfg!(debug_assertions) { "debug" } else { "release" },
        "date": utc_now(),
        "command": commands.last(),
        "commands": commands,
        "puzzlelab_version": env!("CARGO_PKG_VERSION"),
    });
    if let (Some(manifest), Value::Object(fields)) = (manifest.as_object_mut(), fields) {
        manifest.extend(fields);
    }
    let text = serde_json::to_string_pretty(&manifest).expect("json") + "\n";
    write_atomically(&format!("{out}.json"), text.as_bytes())
}

/// A DQN model to resume: its bytes, the model, and its manifest.
#[cfg(feature = "learn")]
fn open_to_resume(path: &str) -> Result<(Vec<u8>, puzzlelab::agent::dqn::QPolicy, Value), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let policy = puzzlelab::agent::dqn::QPolicy::from_bytes(&bytes, &burn::tensor::Device::flex())
        .map_err(|e| format!("{path}: {e}"))?;
    if policy.training().is_none() {
        return Err(format!(
            "{path}: the model has no training record to resume"
        ));
    }
    Ok((bytes, policy, read_manifest(path)?))
}

/// Writes `bytes` to `path` through a temporary file, so that a killed run never leaves half a
/// file (models, checkpoints and manifests).
fn write_atomically(path: &str, bytes: &[u8]) -> Result<(), String> {
    let temporary = format!("{path}.partial");
    std::fs::write(&temporary, bytes).map_err(|e| format!("{temporary}: {e}"))?;
    std::fs::rename(&temporary, path).map_err(|e| format!("{path}: {e}"))
}

/// Now in UTC as `YYYY-MM-DDTHH:MM:SSZ` (civil-from-days, Howard Hinnant's algorithm).
fn utc_now() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, time) = ((seconds / 86_400) as i64, seconds % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        time / 3600,
        time / 60 % 60,
        time % 60
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(command) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let options = match parse_options(&args[1..]) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("puzzlelab: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match command.as_str() {
        "solve" => return solve(&options),
        "pdb" => build_databases(&options).map(|v| println!("{v}")),
        "bench" => {
            println!("{}", bench(&options));
            Ok(())
        }
        "bench-pdb" => bench_pdb(&options),
        "train" => train(&options, &args),
        "eval" => eval(&options),
        "bench-dqn" => bench_dqn(&options),
        "train-2048" => game2048::train(&options, &args),
        "eval-2048" => game2048::eval(&options),
        "train-dqn-2048" => train_dqn_2048(&options, &args),
        "eval-dqn-2048" => eval_dqn_2048(&options),
        "table" => table(&options).map(|v| println!("{v}")),
        "scramble" => scramble(&options).map(|lines| lines.iter().for_each(|l| println!("{l}"))),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command \"{other}\"")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("puzzlelab: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(not(feature = "learn"))]
const NEEDS_LEARN: &str =
    "this needs the deep-learning build: cargo build --release --features learn";

#[cfg(not(feature = "learn"))]
fn train(_: &Options, _: &[String]) -> Result<(), String> {
    Err(format!("train: {NEEDS_LEARN}"))
}

#[cfg(not(feature = "learn"))]
fn eval(_: &Options) -> Result<(), String> {
    Err(format!("eval: {NEEDS_LEARN}"))
}

#[cfg(not(feature = "learn"))]
fn solve_with_model(_: &Options, _: &str) -> Result<Value, String> {
    Err(format!("--algo dqn: {NEEDS_LEARN}"))
}

#[cfg(not(feature = "learn"))]
fn bench_dqn(_: &Options) -> Result<(), String> {
    Err(format!("bench-dqn: {NEEDS_LEARN}"))
}

#[cfg(not(feature = "learn"))]
fn train_dqn_2048(_: &Options, _: &[String]) -> Result<(), String> {
    Err(format!("train-dqn-2048: {NEEDS_LEARN}"))
}

#[cfg(not(feature = "learn"))]
fn eval_dqn_2048(_: &Options) -> Result<(), String> {
    Err(format!("eval-dqn-2048: {NEEDS_LEARN}"))
}

#[cfg(feature = "learn")]
use dqn2048::{eval as eval_dqn_2048, train as train_dqn_2048};
#[cfg(feature = "learn")]
use learn::{bench_dqn, eval, solve_with_model, train};

/// `train`, `eval` and `solve --algo dqn`: the deep Q-learner of `agent::dqn` on sliding puzzles.
#[cfg(feature = "learn")]
mod learn {
    use super::{
        dqn_config_from, load_databases, machine, open_to_resume, puzzle_for,
        refuse_changes_on_resume, strings, utc_now, value, write_atomically, write_dqn_manifest,
        Options, STANDARD_DATABASES,
    };
    use burn::tensor::Device;
    use puzzlelab::agent::dqn::sliding::{puzzle_of, training_env, SlidingTrainer, MAX_WALK};
    use puzzlelab::agent::dqn::{Dqn, DqnConfig, QPolicy};
    use puzzlelab::agent::evaluation::{
        evaluate_by_distance, exact_positions, model_solve, EvaluationSettings, EvaluationTable,
        ModelSolution,
    };
    use puzzlelab::env::sliding::pdb::{Partition, PdbHeuristic};
    use puzzlelab::env::sliding::solve::{ExactDistances, SlidingSolver, SolveReport};
    use puzzlelab::env::sliding::{
        Board, Heuristic, HeuristicTables, RewardScheme, SlidingEnv, SlidingPuzzle,
    };
    use puzzlelab::env::Environment;
    use puzzlelab::rng::Rng;
    use puzzlelab::search::Limits;
    use serde_json::{json, Value};
    use std::rc::Rc;
    use std::time::Instant;

    /// The 4×4 evaluation's random-walk difficulties (Manhattan + 2·linear conflicts).
    const LARGE_BOARD_DIFFICULTIES: [u32; 5] = [6, 12, 18, 24, 30];

    fn read_model(path: &str) -> Result<QPolicy, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        QPolicy::from_bytes(&bytes, &Device::flex()).map_err(|e| format!("{path}: {e}"))
    }

    /// Optimal lengths of positions: the exact table on boards of at most 9 cells; on 4×4, IDA*
    /// with pattern databases (the shipped 6-6-3 for the standard goal, else 5-5-5 built once).
    enum OptimalLengths {
        Exact(ExactDistances),
        PatternDatabases(Rc<PdbHeuristic>),
    }

    impl OptimalLengths {
        fn for_puzzle(puzzle: &SlidingPuzzle) -> Result<OptimalLengths, String> {
            if let Some(exact) = ExactDistances::build(puzzle.goal()) {
                return Ok(OptimalLengths::Exact(exact));
            }
            if (puzzle.rows(), puzzle.cols()) != (4, 4) {
                return Err("evaluation needs a board of at most 9 cells, or 4x4".into());
            }
            let standard = SlidingPuzzle::standard(4, 4).map_err(|e| e.to_string())?;
            let databases = if standard.goal() == puzzle.goal() {
                let path = format!("{}/{STANDARD_DATABASES}", env!("CARGO_MANIFEST_DIR"));
                load_databases(&path, puzzle.goal())?
            } else {
                eprintln!("eval: building 5-5-5 pattern databases for this goal ...");
                PdbHeuristic::build(puzzle.goal(), Partition::FiveFiveFive, |_| {})
                    .map_err(|e| e.to_string())?
            };
            Ok(OptimalLengths::PatternDatabases(Rc::new(databases)))
        }

        fn of(&self, puzzle: &SlidingPuzzle, board: Board) -> Result<u32, String> {
            match self {
                OptimalLengths::Exact(exact) => exact
                    .distance(&board)
                    .ok_or_else(|| "a position that cannot reach the goal".to_string()),
                OptimalLengths::PatternDatabases(databases) => {
                    let limits = Limits {
                        max_nodes: u64::MAX,
                    };
                    let mut solver = SlidingSolver::with_pattern_databases(
                        puzzle,
                        board,
                        databases.clone(),
                        limits,
                    )
                    .map_err(|e| e.to_string())?;
                    Ok(solver.run_to_end(u64::MAX, |_| true).length as u32)
                }
            }
        }
    }

    /// Fresh positions with their optimal lengths: drawn by exact distance on boards of at most
    /// 9 cells; on 4×4, random walks at several difficulties, solved optimally.
    fn positions(
        puzzle: &SlidingPuzzle,
        optimal: &OptimalLengths,
        settings: &EvaluationSettings,
    ) -> Result<Vec<(Board, u32)>, String> {
        if let OptimalLengths::Exact(exact) = optimal {
            return Ok(exact_positions(exact, settings.per_distance, settings.seed));
        }
        let tables = HeuristicTables::new(puzzle.goal());
        let mut rng = Rng::new(settings.seed);
        let mut out = Vec::new();
        for difficulty in LARGE_BOARD_DIFFICULTIES {
            for _ in 0..settings.per_distance {
                let board = puzzle.random_walk(difficulty, MAX_WALK, &mut rng, |b| {
                    tables.estimate(b, Heuristic::LinearConflict)
                });
                out.push((board, optimal.of(puzzle, board)?));
            }
        }
        Ok(out)
    }

    /// `count` uniformly random positions that reach the goal, with their optimal lengths.
    fn uniform_positions(
        puzzle: &SlidingPuzzle,
        optimal: &OptimalLengths,
        count: usize,
        seed: u64,
    ) -> Result<Vec<(Board, u32)>, String> {
        let mut rng = Rng::new(seed ^ 0x0F1F_0A11);
        (0..count)
            .map(|_| {
                let board = puzzle.random_solvable(&mut rng);
                Ok((board, optimal.of(puzzle, board)?))
            })
            .collect()
    }

    /// The evaluation and model-solve settings: the board's defaults, changed by the flags.
    fn settings_from(
        o: &Options,
        puzzle: &SlidingPuzzle,
        seed: Option<u64>,
    ) -> Result<EvaluationSettings, String> {
        let defaults = EvaluationSettings::for_cells(puzzle.rows() * puzzle.cols());
        Ok(EvaluationSettings {
            per_distance: value(o, "--per-distance")?.unwrap_or(defaults.per_distance),
            seed: seed.unwrap_or(defaults.seed),
            beam_width: value(o, "--beam-width")?.unwrap_or(defaults.beam_width),
            max_nodes: value(o, "--max-nodes-search")?.unwrap_or(defaults.max_nodes),
            ..defaults
        })
    }

    fn evaluate_model(
        policy: &QPolicy,
        puzzle: &SlidingPuzzle,
        settings: &EvaluationSettings,
    ) -> Result<EvaluationTable, String> {
        let optimal = OptimalLengths::for_puzzle(puzzle)?;
        let positions = positions(puzzle, &optimal, settings)?;
        let mut env = training_env(puzzle, 0);
        policy.check_fits(&env).map_err(|e| e.to_string())?;
        Ok(evaluate_by_distance(policy, &mut env, &positions, settings))
    }

    /// `puzzlelab eval --model F`: the evaluation table as JSON (stdout) and text (stderr).
    pub fn eval(o: &Options) -> Result<(), String> {
        let path = o
            .learn_values
            .get("--model")
            .ok_or("eval needs --model FILE")?;
        let policy = read_model(path)?;
        let puzzle = puzzle_of(&policy)?;
        let seed = o.given("--seed").then_some(o.seed);
        let settings = settings_from(o, &puzzle, seed)?;
        let table = evaluate_model(&policy, &puzzle, &settings)?;
        eprint!("{}", table.to_text());
        let uniform = match value::<usize>(o, "--uniform-positions")? {
            Some(count) => {
                let optimal = OptimalLengths::for_puzzle(&puzzle)?;
                let positions = uniform_positions(&puzzle, &optimal, count, settings.seed)?;
                let mut env = training_env(&puzzle, 0);
                let table = evaluate_by_distance(&policy, &mut env, &positions, &settings);
                eprintln!("{count} uniformly random positions:");
                eprint!("{}", table.to_text());
                Some(table)
            }
            None => None,
        };
        let report = json!({
            "model": path,
            "puzzle": policy.puzzle_id(),
            "steps": policy.training().map(|t| t.steps),
            "evaluation": table,
            "uniform_evaluation": uniform,
        });
        println!("{}", serde_json::to_string_pretty(&report).expect("json"));
        Ok(())
    }

    /// `puzzlelab solve --algo dqn --model F`: greedy play, then beam search if greedy fails.
    /// The board is the model's unless `--size`, `--goal` or `--preset` say otherwise (and then
    /// the model must fit it).
    pub fn solve_with_model(o: &Options, text: &str) -> Result<Value, String> {
        let path = o
            .learn_values
            .get("--model")
            .ok_or("--algo dqn needs --model FILE")?;
        let policy = read_model(path)?;
        let puzzle = &if o.size.is_some() || o.goal.is_some() || o.preset.is_some() {
            puzzle_for(o, Some(text))?
        } else {
            puzzle_of(&policy)?
        };
        let start = puzzle.parse(text).map_err(|e| e.to_string())?;
        let mut env = training_env(puzzle, 0);
        policy.check_fits(&env).map_err(|e| e.to_string())?;
        if !puzzle.is_solvable(&start) {
            return Err(format!(
                "this position cannot reach the goal {} (the permutation parity differs)",
                puzzle.format(puzzle.goal())
            ));
        }
        let settings = settings_from(o, puzzle, None)?;
        let clock = Instant::now();
        let ModelSolution {
            method,
            moves,
            nodes,
        } = model_solve(&policy, &mut env, start, &settings);
        let ms = clock.elapsed().as_secs_f64() * 1000.0;
        let optimal_length = ExactDistances::build(puzzle.goal()).and_then(|e| e.distance(&start));
        let moves = moves.unwrap_or_default();
        let mut report = SolveReport::from_moves(&start, moves, puzzle.goal(), false, "dqn");
        report.nodes = nodes as u64;
        let solved = report.status == "solved";
        let mut value = serde_json::to_value(&report).expect("report serialises");
        let object = value.as_object_mut().expect("an object");
        object.insert(
            "optimal".into(),
            json!(solved && Some(report.length as u32) == optimal_length),
        );
        object.insert("method".into(), json!(method));
        object.insert("model".into(), json!(path));
        object.insert("optimal_length".into(), json!(optimal_length));
        object.insert(
            "extra_moves".into(),
            json!(optimal_length
                .filter(|_| solved)
                .map(|d| report.length as i64 - d as i64)),
        );
        super::describe_solve(object, ms, text, puzzle, &start);
        Ok(value)
    }

    /// What the manifest keeps between runs of a resumed training.
    struct Progress {
        /// The latest evaluation table and the step it was made at.
        evaluation: Option<(usize, EvaluationTable)>,
        curriculum: bool,
        difficulty: u32,
        reward: RewardScheme,
        mixed: bool,
        uniform_starts: bool,
        wall_seconds: f64,
        commands: Vec<String>,
    }

    #[allow(clippy::too_many_arguments)]
    fn save(
        out: &str,
        dqn: &Dqn<SlidingEnv>,
        puzzle: &SlidingPuzzle,
        progress: &Progress,
        finished: bool,
    ) -> Result<(), String> {
        let policy = dqn.policy();
        write_atomically(out, &policy.to_bytes())?;
        let network = dqn.network_config();
        let manifest = json!({
            "what": format!(
                "puzzlelab DQN model (format version {})",
                puzzlelab::agent::dqn::MODEL_FORMAT_VERSION
            ),
            "model": out,
            "puzzle": policy.puzzle_id(),
            "size": format!("{}x{}", puzzle.rows(), puzzle.cols()),
            "goal": puzzle.format(puzzle.goal()),
            "architecture": {
                "kind": "MLP, ReLU between dense layers",
                "observation_len": network.observation_len,
                "hidden": network.hidden,
                "num_actions": network.num_actions,
                "parameters": network.num_params(),
            },
            "reward": progress.reward.name(),
            "mixed_difficulty": progress.mixed,
            "uniform_starts": progress.uniform_starts,
            "curriculum": progress.curriculum,
            "difficulty": progress.difficulty,
            "resume": "weights, steps, episodes (ε, episode seeds), difficulty; Adam's moments, the replay buffer and the curriculum's streak start again",
            "evaluation_step": progress.evaluation.as_ref().map(|(step, _)| step),
            "evaluation": progress.evaluation.as_ref().map(|(_, table)| table),
        });
        write_dqn_manifest(
            out,
            dqn,
            progress.wall_seconds,
            &progress.commands,
            finished,
            manifest,
        )
    }

    fn config_from(o: &Options) -> Result<DqnConfig, String> {
        dqn_config_from(o, DqnConfig::default())
    }

    /// `puzzlelab train`: trains in chunks with a progress line each, checkpoints, evaluates.
    /// `puzzlelab bench-dqn`: training steps/s and greedy-move latency of the thesis's network on
    /// the CPU backend, on 3×3 and 4×4, as JSON on stdout.
    pub fn bench_dqn(o: &Options) -> Result<(), String> {
        let steps: usize = value(o, "--steps")?.unwrap_or(2000);
        let mut cases = Vec::new();
        for size in [3, 4] {
            let puzzle = SlidingPuzzle::standard(size, size).map_err(|e| e.to_string())?;
            let config = DqnConfig {
                warmup_episodes: 2,
                eval_interval_episodes: 0,
                seed: o.seed,
                ..DqnConfig::default()
            };
            let mut trainer = SlidingTrainer::new(
                &puzzle,
                config,
                RewardScheme::Thesis,
                10,
                false,
                &Device::flex(),
            )
            .map_err(|e| e.to_string())?;
            // Fill the buffer past a batch so that every timed step also takes a gradient step.
            while trainer.dqn().updates_done() < 10 {
                trainer.train_steps(50);
            }
            let clock = Instant::now();
            let stats = trainer.train_steps(steps);
            let train_seconds = clock.elapsed().as_secs_f64();
            let policy = trainer.dqn().policy();
            let mut env = training_env(&puzzle, 30);
            let mut observation = vec![0.0; policy.network_config().observation_len];
            let mut latencies = Vec::new();
            for seed in 0..200 {
                env.reset(seed);
                env.write_observation(&mut observation);
                let clock = Instant::now();
                std::hint::black_box(policy.greedy_action(&observation, None));
                latencies.push(clock.elapsed().as_secs_f64() * 1e6);
            }
            latencies.sort_by(f64::total_cmp);
            cases.push(json!({
                "puzzle": format!("{size}x{size}"),
                "network": policy.network_config(),
                "parameters": policy.network_config().num_params(),
                "train_steps": steps,
                "gradient_steps": stats.updates,
                "train_seconds": train_seconds,
                "train_steps_per_s": steps as f64 / train_seconds,
                "greedy_move_us_median": latencies[latencies.len() / 2],
                "greedy_move_us_p90": latencies[latencies.len() * 9 / 10],
            }));
        }
        let report = json!({
            "what": "puzzlelab bench-dqn: the thesis's DQN (batch 100, Adam) on burn's CPU backend (flex)",
            "backend": "cpu (flex)",
            "machine": machine(),
            "build": if cfg!(debug_assertions) { "debug" } else { "release" },
            "date": utc_now(),
            "cases": cases,
        });
        println!("{}", serde_json::to_string_pretty(&report).expect("json"));
        Ok(())
    }

    pub fn train(o: &Options, args: &[String]) -> Result<(), String> {
        let command = std::iter::once("puzzlelab".to_string())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ");
        let resume = o.learn_values.get("--resume").cloned();
        let recorded = [
            "--size",
            "--goal",
            "--preset",
            "--seed",
            "--curriculum",
            "--reward",
            "--hidden",
            "--gamma",
            "--batch",
            "--replay",
            "--envs",
            "--warmup",
            "--double",
            "--huber",
            "--mask",
            "--prioritized",
            "--epsilon-decay",
            "--epsilon-min",
            "--target-every",
            "--full-backups",
        ];
        refuse_changes_on_resume(o, &recorded)?;
        let (puzzle, config, mut progress, bytes) = match &resume {
            Some(path) => {
                let (bytes, policy, manifest) = open_to_resume(path)?;
                let record = policy.training().expect("checked by open_to_resume");
                let manifest_path = format!("{path}.json");
                let commands = strings(&manifest["commands"]);
                let progress = Progress {
                    evaluation: None,
                    curriculum: manifest["curriculum"].as_bool().unwrap_or(false),
                    difficulty: manifest["difficulty"].as_u64().unwrap_or(1) as u32,
                    reward: match manifest["reward"].as_str() {
                        None => RewardScheme::Thesis,
                        Some(name) => RewardScheme::from_name(name)
                            .ok_or(format!("{manifest_path}: unknown reward \"{name}\""))?,
                    },
                    mixed: manifest["mixed_difficulty"].as_bool().unwrap_or(false),
                    uniform_starts: manifest["uniform_starts"].as_bool().unwrap_or(false),
                    wall_seconds: manifest["wall_seconds"].as_f64().unwrap_or(0.0),
                    commands,
                };
                let config = puzzlelab::agent::dqn::DqnConfig {
                    learning_rate: value(o, "--lr")?.unwrap_or(record.config.learning_rate),
                    ..record.config.clone()
                };
                config.validate().map_err(|e| e.to_string())?;
                (puzzle_of(&policy)?, config, progress, Some(bytes))
            }
            None => {
                let options = Options {
                    size: Some(o.size.clone().unwrap_or_else(|| "3".into())),
                    ..o.clone()
                };
                let curriculum = o.given("--curriculum");
                let difficulty = if o.given("--difficulty") {
                    o.difficulty
                } else if curriculum {
                    1
                } else {
                    10
                };
                let reward = match o.learn_values.get("--reward") {
                    None => RewardScheme::Thesis,
                    Some(name) => {
                        RewardScheme::parse(name).map_err(|e| format!("--reward: {e}"))?
                    }
                };
                let progress = Progress {
                    evaluation: None,
                    curriculum,
                    difficulty,
                    reward,
                    mixed: o.given("--mixed"),
                    uniform_starts: o.given("--uniform-starts"),
                    wall_seconds: 0.0,
                    commands: Vec::new(),
                };
                (puzzle_for(&options, None)?, config_from(o)?, progress, None)
            }
        };
        progress.commands.push(command);
        let default_out = format!("dqn-{}x{}.dqn", puzzle.rows(), puzzle.cols());
        let out = o.out.clone().or(resume).unwrap_or(default_out);
        let target_steps: usize = value(o, "--steps")?.ok_or("train needs --steps N (in all)")?;
        let chunk: usize = value(o, "--chunk")?.unwrap_or(1000).max(1);
        let eval_every: usize = value(o, "--eval-every")?.unwrap_or(0);
        let checkpoint_every: usize = value(o, "--checkpoint-every")?.unwrap_or(10_000);
        let settings = settings_from(o, &puzzle, None)?;

        if bytes.is_some() {
            // Where episodes start may change between runs (the manifest records it); the
            // learner's configuration may not.
            if o.given("--difficulty") {
                progress.difficulty = o.difficulty;
            }
            progress.mixed |= o.given("--mixed");
            progress.uniform_starts |= o.given("--uniform-starts");
        }
        let difficulty = progress.difficulty;
        let mut trainer = SlidingTrainer::new(
            &puzzle,
            config,
            progress.reward,
            difficulty,
            progress.curriculum,
            &Device::flex(),
        )
        .map_err(|e| e.to_string())?;
        trainer.set_mixed_difficulty(progress.mixed);
        trainer
            .set_uniform_starts(progress.uniform_starts)
            .map_err(|_| "--uniform-starts goes with --mixed (half the episodes start uniformly, half by mixed walks)")?;
        if let Some(bytes) = &bytes {
            trainer.dqn_mut().resume(bytes).map_err(|e| e.to_string())?;
            eprintln!(
                "train: resuming at step {} (difficulty {})",
                trainer.dqn().steps_done(),
                progress.difficulty
            );
        }
        eprintln!(
            "train: {} with {} parameters, to step {target_steps}, writing {out}",
            trainer.dqn().policy().puzzle_id(),
            trainer.dqn().network_config().num_params()
        );
        let clock = Instant::now();
        let wall_before = progress.wall_seconds;
        while trainer.dqn().steps_done() < target_steps {
            let before = trainer.dqn().steps_done();
            let stats = trainer.train_steps(chunk.min(target_steps - before));
            let after = trainer.dqn().steps_done();
            progress.difficulty = trainer.difficulty();
            let show = |x: Option<f32>| x.map_or("-".into(), |x| format!("{x:.3}"));
            eprintln!(
                "step {after}/{target_steps} | loss/td {} | epsilon {:.3} | difficulty {} | solved {} | eval {} | final distance {} | {:.0} steps/s",
                show(stats.td_loss),
                stats.epsilon,
                progress.difficulty,
                show(stats.solved_rate),
                show(stats.eval_solved_rate()),
                show(stats.eval_final_distance),
                stats.steps_per_s
            );
            progress.wall_seconds = wall_before + clock.elapsed().as_secs_f64();
            let crossed = |every: usize| every > 0 && after / every > before / every;
            if crossed(eval_every) && after < target_steps {
                let evaluation = evaluate_model(&trainer.dqn().policy(), &puzzle, &settings)?;
                eprint!("{}", evaluation.to_text());
                progress.evaluation = Some((after, evaluation));
            }
            if crossed(checkpoint_every) && after < target_steps {
                save(&out, trainer.dqn(), &puzzle, &progress, false)?;
            }
        }
        let dqn = trainer.dqn();
        let evaluation = evaluate_model(&dqn.policy(), &puzzle, &settings)?;
        eprint!("{}", evaluation.to_text());
        progress.evaluation = Some((dqn.steps_done(), evaluation));
        progress.wall_seconds = wall_before + clock.elapsed().as_secs_f64();
        save(&out, dqn, &puzzle, &progress, true)?;
        eprintln!(
            "train: wrote {out} and {out}.json ({} steps, {:.1} s)",
            dqn.steps_done(),
            progress.wall_seconds
        );
        Ok(())
    }
}

/// `train-2048` and `eval-2048`: the n-tuple learner of `agent::ntuple` and expectimax on 2048.
mod game2048 {
    use super::{machine, read_manifest, strings, utc_now, value, write_atomically, Options};
    use puzzlelab::agent::ntuple::{
        evaluate_greedy, Agent2048, Evaluation, NTupleNetwork, Precision, TdConfig, TdLearner,
        TupleSet,
    };
    use puzzlelab::env::game2048::{Game2048Config, GameSummary, REPORTED_TILES};
    use serde_json::{json, Value};
    use std::io::Write;
    use std::time::Instant;

    /// The seed offset of evaluation games, so they are never training games.
    const EVALUATION_SEED: u64 = 0x2048_E7A1;

    /// Reads a network file, gzip-compressed or not.
    fn read_network(path: &str) -> Result<NTupleNetwork, String> {
        let bytes = super::read_maybe_gzip(path)?;
        NTupleNetwork::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    }

    /// The bytes of `network` as written to `path` (gzip when it ends in `.gz`).
    fn file_bytes(network: &NTupleNetwork, path: &str, precision: Precision) -> Vec<u8> {
        let bytes = network.to_bytes(precision);
        if !path.ends_with(".gz") {
            return bytes;
        }
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&bytes).expect("in memory");
        encoder.finish().expect("in memory")
    }

    fn reach_line(summary: &GameSummary) -> String {
        REPORTED_TILES[1..4]
            .iter()
            .map(|t| format!("{t} {:.1}%", 100.0 * summary.reach[&t.to_string()]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// What the manifest keeps between runs of a resumed training.
    struct Run {
        commands: Vec<String>,
        wall_seconds: f64,
        curve: Vec<Value>,
        seed: u64,
        /// The learning rate of the run resumed (kept unless --alpha is given).
        alpha: f32,
    }

    #[allow(clippy::too_many_arguments)]
    fn save(
        out: &str,
        learner: &TdLearner,
        precision: Precision,
        run: &Run,
        evaluation: Option<(&GameSummary, u64)>,
        target_games: u64,
    ) -> Result<(), String> {
        let bytes = file_bytes(&learner.network, out, precision);
        write_atomically(out, &bytes)?;
        let network = &learner.network;
        let set = network.tuple_set();
        let trained = network.games_trained();
        let manifest = json!({
            "what": format!(
                "puzzlelab 2048 n-tuple network (format version {}), TD(0) on afterstates",
                puzzlelab::agent::ntuple::FILE_VERSION
            ),
            "model": out,
            "puzzle": "2048 4x4",
            "rules": Game2048Config::default(),
            "tuple_set": set.name(),
            "tuples": set.tuples(),
            "symmetric_sampling": 8,
            "weights": set.num_weights(),
            "precision": precision,
            "raw_bytes": network.to_bytes(precision).len(),
            "file_bytes": bytes.len(),
            "gzip": out.ends_with(".gz"),
            // f32 → f64 through its shortest decimal text: 0.05, not 0.05000000074505806.
            "alpha": learner.config.alpha.to_string().parse::<f64>().expect("a number"),
            "alpha_per_weight": learner.config.alpha / network.weights_per_value() as f32,
            "seed": run.seed,
            "games": trained,
            "finished": trained >= target_games,
            "wall_seconds": (run.wall_seconds * 10.0).round() / 10.0,
            "games_per_s": if run.wall_seconds > 0.0 { trained as f64 / run.wall_seconds } else { 0.0 },
            "machine": machine(),
            "build": if cfg!(debug_assertions) { "debug" } else { "release" },
            "date": utc_now(),
            "command": run.commands.last(),
            "commands": run.commands,
            "training_curve": run.curve,
            "evaluation_seed": evaluation.map(|(_, seed)| seed),
            "evaluation": evaluation.map(|(summary, _)| json!({
                "agent": "ntuple greedy 1-ply",
                "of": "the network as written to this file",
                "summary": summary,
            })),
            "puzzlelab_version": env!("CARGO_PKG_VERSION"),
        });
        let text = serde_json::to_string_pretty(&manifest).expect("json") + "\n";
        write_atomically(&format!("{out}.json"), text.as_bytes())
    }

    /// `puzzlelab train-2048`.
    pub fn train(o: &Options, args: &[String]) -> Result<(), String> {
        let games: u64 = value(o, "--games")?.ok_or("train-2048 needs --games N")?;
        let chunk: u64 = value(o, "--chunk")?.unwrap_or(1000).max(1);
        let eval_games: u64 = value(o, "--eval-games")?.unwrap_or(100);
        let out = o.out.clone().unwrap_or_else(|| "2048-ntuple.ntuple".into());
        let precision = match value::<String>(o, "--precision")?.as_deref() {
            None | Some("f32") => Precision::F32,
            Some("f16") => Precision::F16,
            Some(other) => return Err(format!("--precision {other}: f32 or f16")),
        };
        let command = format!("puzzlelab {}", args.join(" "));
        let resume: Option<String> = value(o, "--resume")?;
        let (network, mut run) = match &resume {
            Some(path) => {
                let network = read_network(path)?;
                let set = network.tuple_set().name();
                if value::<String>(o, "--tuples")?.is_some_and(|t| t != set) {
                    return Err(format!(
                        "{path} has the {set} tuple set; --tuples must match"
                    ));
                }
                let manifest = read_manifest(path)?;
                let mut commands = strings(&manifest["commands"]);
                commands.push(command);
                let seed = if o.given("--seed") {
                    o.seed
                } else {
                    manifest["seed"].as_u64().unwrap_or(o.seed)
                };
                let run = Run {
                    commands,
                    wall_seconds: manifest["wall_seconds"].as_f64().unwrap_or(0.0),
                    curve: manifest["training_curve"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default(),
                    seed,
                    alpha: manifest["alpha"]
                        .as_f64()
                        .map_or(TdConfig::default().alpha, |a| a as f32),
                };
                (network, run)
            }
            None => {
                let name: String = value(o, "--tuples")?.unwrap_or_else(|| "4x5".into());
                let set = TupleSet::from_name(&name)
                    .ok_or_else(|| format!("--tuples {name}: 4x5, 4x6 or 5x4"))?;
                let run = Run {
                    commands: vec![command],
                    wall_seconds: 0.0,
                    curve: Vec::new(),
                    seed: o.seed,
                    alpha: TdConfig::default().alpha,
                };
                (NTupleNetwork::new(set), run)
            }
        };
        let config = TdConfig {
            alpha: value(o, "--alpha")?.unwrap_or(run.alpha),
            seed: run.seed,
            game: Game2048Config::default(),
        };
        let mut learner = TdLearner::new(network, config);
        eprintln!(
            "train-2048: {} tuples, {} weights, alpha {}, seed {}, from game {} to {games}",
            learner.network.tuple_set().name(),
            learner.network.tuple_set().num_weights(),
            config.alpha,
            config.seed,
            learner.network.games_trained()
        );
        while learner.network.games_trained() < games {
            let n = chunk.min(games - learner.network.games_trained());
            let clock = Instant::now();
            let stats = learner.train_games(n);
            let s = &stats.summary;
            eprintln!(
                "games {:>8}  mean score {:>8.0}  {}  {:.1} games/s  {:.0} moves/s",
                stats.games_trained,
                s.mean_score,
                reach_line(s),
                s.games_per_s,
                s.moves_per_s
            );
            run.curve.push(json!({
                "games": stats.games_trained,
                "mean_score": s.mean_score.round(),
                "max_score": s.max_score,
                "reach": s.reach,
                "games_per_s": (s.games_per_s * 100.0).round() / 100.0,
                "moves_per_s": s.moves_per_s.round(),
                "alpha": config.alpha.to_string().parse::<f64>().expect("a number"),
            }));
            run.wall_seconds += clock.elapsed().as_secs_f64();
            save(&out, &learner, precision, &run, None, games)?;
        }
        // Evaluate the network as it is written (f16 rounding included).
        let written = NTupleNetwork::from_bytes(&learner.network.to_bytes(precision))
            .map_err(|e| e.to_string())?;
        let seed = run.seed ^ EVALUATION_SEED;
        let evaluation = evaluate_greedy(&written, Game2048Config::default(), eval_games, seed);
        eprintln!(
            "evaluation over {eval_games} games: mean score {:.0}, {}",
            evaluation.mean_score,
            reach_line(&evaluation)
        );
        save(
            &out,
            &learner,
            precision,
            &run,
            Some((&evaluation, seed)),
            games,
        )?;
        println!(
            "{}",
            std::fs::read_to_string(format!("{out}.json")).map_err(|e| e.to_string())?
        );
        Ok(())
    }

    /// `puzzlelab eval-2048`.
    pub fn eval(o: &Options) -> Result<(), String> {
        let games: u64 = value(o, "--games")?.unwrap_or(100);
        let name: String = value(o, "--agent")?.unwrap_or_else(|| "ntuple".into());
        let depth: u32 = value(o, "--depth")?.unwrap_or(2);
        let model: Option<String> = value(o, "--model")?;
        let network = match (&model, name.as_str()) {
            (Some(path), _) => Some(read_network(path)?),
            (None, "random") => None,
            (None, _) => return Err(format!("eval-2048 --agent {name} needs --model FILE")),
        };
        let agent = Agent2048::from_name(&name, depth)
            .ok_or_else(|| format!("--agent {name}: ntuple, expectimax or random"))?;
        // The same evaluation as the page's worker runs (in chunks there, in one call here).
        let mut evaluation = Evaluation::new(agent, Game2048Config::default(), games, o.seed);
        evaluation
            .play(network.as_ref(), games)
            .map_err(|e| e.to_string())?;
        let mut report = serde_json::to_value(evaluation.report(network.as_ref(), model))
            .map_err(|e| e.to_string())?;
        report["machine"] = json!(machine());
        println!("{report}");
        Ok(())
    }
}

/// `train-dqn-2048` and `eval-dqn-2048`: seed 004's deep Q-network on 2048
/// (`env::game2048_learn`).
#[cfg(feature = "learn")]
mod dqn2048 {
    use super::{
        dqn_config_from, machine, numbers, open_to_resume, refuse_changes_on_resume, strings,
        utc_now, value, write_atomically, write_dqn_manifest, Options,
    };
    use burn::tensor::Device;
    use puzzlelab::agent::dqn::game2048::{
        play_greedy_games, seed004_config, training_rules, Game2048Trainer,
    };
    use puzzlelab::agent::dqn::{DqnConfig, PairConvConfig, QPolicy};
    use puzzlelab::env::game2048::{Game2048Config, GameSummary};
    use serde_json::{json, Value};
    use std::time::Instant;

    /// The evaluation games' seed unless --seed is given to eval-dqn-2048.
    const EVALUATION_SEED: u64 = 0x2048_D090;

    fn config_from(o: &Options) -> Result<DqnConfig, String> {
        let d = seed004_config();
        let conv = match numbers(o, "--filters")?.as_deref() {
            None => d.conv.clone(),
            Some([f1, f2]) => Some(PairConvConfig {
                filters1: *f1,
                filters2: *f2,
                ..PairConvConfig::seed004()
            }),
            Some(_) => return Err("--filters takes two numbers, F1,F2".into()),
        };
        dqn_config_from(o, DqnConfig { conv, ..d })
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

    /// What the manifest keeps between runs of a resumed training.
    struct Run {
        commands: Vec<String>,
        wall_seconds: f64,
        curve: Vec<Value>,
    }

    fn save(
        out: &str,
        trainer: &Game2048Trainer,
        run: &Run,
        evaluation: Option<&GameSummary>,
        finished: bool,
    ) -> Result<(), String> {
        let dqn = trainer.dqn();
        let policy = dqn.policy();
        write_atomically(out, &policy.to_bytes())?;
        let network = dqn.network_config();
        let manifest = json!({
            "what": format!(
                "puzzlelab DQN model (format version {}): seed 004's network on 2048",
                puzzlelab::agent::dqn::MODEL_FORMAT_VERSION
            ),
            "model": out,
            "puzzle": policy.puzzle_id(),
            "architecture": {
                "kind": "seed 004: one-hot 4x4x16, (1,2)/(2,1) convolutions on two levels, ReLU, dense, one Q-value per move",
                "conv": network.conv,
                "hidden": network.hidden,
                "num_actions": network.num_actions,
                "parameters": network.num_params(),
            },
            "training_rules": trainer.rules(),
            "training_curve": run.curve,
            "evaluation_seed": EVALUATION_SEED,
            "evaluation": evaluation.map(|summary| json!({
                "agent": "greedy (legal moves), original rules (a 4 one time in ten)",
                "summary": summary,
            })),
            "resume": "weights, steps, episodes (ε); Adam's moments and the replay buffer start again",
        });
        write_dqn_manifest(
            out,
            dqn,
            run.wall_seconds,
            &run.commands,
            finished,
            manifest,
        )
    }

    /// `puzzlelab train-dqn-2048`: trains in chunks with a progress line each, evaluates by whole
    /// games, checkpoints; `--resume FILE` goes on from a saved model.
    pub fn train(o: &Options, args: &[String]) -> Result<(), String> {
        let command = std::iter::once("puzzlelab".to_string())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ");
        let resume = o.learn_values.get("--resume").cloned();
        refuse_changes_on_resume(
            o,
            &[
                "--seed",
                "--filters",
                "--hidden",
                "--lr",
                "--gamma",
                "--batch",
                "--replay",
                "--envs",
                "--warmup",
                "--double",
                "--huber",
                "--prioritized",
                "--epsilon-decay",
                "--epsilon-min",
                "--target-every",
            ],
        )?;
        let (config, mut run, bytes) = match &resume {
            Some(path) => {
                let (bytes, policy, manifest) = open_to_resume(path)?;
                let record = policy.training().expect("checked by open_to_resume");
                let run = Run {
                    commands: strings(&manifest["commands"]),
                    wall_seconds: manifest["wall_seconds"].as_f64().unwrap_or(0.0),
                    curve: manifest["training_curve"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default(),
                };
                (record.config.clone(), run, Some(bytes))
            }
            None => {
                let run = Run {
                    commands: Vec::new(),
                    wall_seconds: 0.0,
                    curve: Vec::new(),
                };
                (config_from(o)?, run, None)
            }
        };
        run.commands.push(command);
        let out = o
            .out
            .clone()
            .or(resume)
            .unwrap_or_else(|| "2048-dqn.dqn".into());
        let target_steps: usize =
            value(o, "--steps")?.ok_or("train-dqn-2048 needs --steps N (in all)")?;
        let chunk: usize = value(o, "--chunk")?.unwrap_or(1000).max(1);
        let eval_every: usize = value(o, "--eval-every")?.unwrap_or(0);
        let eval_games: u64 = value(o, "--eval-games")?.unwrap_or(100);
        let checkpoint_every: usize = value(o, "--checkpoint-every")?.unwrap_or(10_000);

        let mut trainer = Game2048Trainer::new(config, training_rules(), &Device::flex())
            .map_err(|e| e.to_string())?;
        if let Some(bytes) = &bytes {
            trainer.dqn_mut().resume(bytes).map_err(|e| e.to_string())?;
            eprintln!(
                "train-dqn-2048: resuming at step {}",
                trainer.dqn().steps_done()
            );
        }
        eprintln!(
            "train-dqn-2048: {} parameters, to step {target_steps}, writing {out}",
            trainer.dqn().network_config().num_params()
        );
        let clock = Instant::now();
        let wall_before = run.wall_seconds;
        let mut evaluation = None;
        while trainer.dqn().steps_done() < target_steps {
            let before = trainer.dqn().steps_done();
            let stats = trainer.train_steps(chunk.min(target_steps - before));
            let after = trainer.dqn().steps_done();
            let show = |x: Option<f32>| x.map_or("-".into(), |x| format!("{x:.3}"));
            eprintln!(
                "step {after}/{target_steps} | loss/td {} | epsilon {:.3} | games {} | moves/game {} | {:.0} steps/s",
                show(stats.td_loss),
                stats.epsilon,
                trainer.dqn().episodes_done(),
                stats.episode_length.map_or("-".into(), |x| format!("{x:.0}")),
                stats.steps_per_s
            );
            run.wall_seconds = wall_before + clock.elapsed().as_secs_f64();
            let crossed = |every: usize| every > 0 && after / every > before / every;
            if crossed(eval_every) && after < target_steps {
                let summary = evaluate(&trainer.dqn().policy(), eval_games, EVALUATION_SEED);
                eprintln!(
                    "eval ({} games): mean score {:.0}, {}",
                    summary.games,
                    summary.mean_score,
                    reach_line(&summary)
                );
                run.curve.push(json!({
                    "step": after,
                    "games": summary.games,
                    "mean_score": summary.mean_score,
                    "reach": summary.reach,
                }));
                evaluation = Some(summary);
            }
            if crossed(checkpoint_every) && after < target_steps {
                save(&out, &trainer, &run, evaluation.as_ref(), false)?;
            }
        }
        let summary = evaluate(&trainer.dqn().policy(), eval_games, EVALUATION_SEED);
        eprintln!(
            "eval ({} games): mean score {:.0}, {}",
            summary.games,
            summary.mean_score,
            reach_line(&summary)
        );
        run.curve.push(json!({
            "step": trainer.dqn().steps_done(),
            "games": summary.games,
            "mean_score": summary.mean_score,
            "reach": summary.reach,
        }));
        run.wall_seconds = wall_before + clock.elapsed().as_secs_f64();
        save(&out, &trainer, &run, Some(&summary), true)?;
        eprintln!(
            "train-dqn-2048: wrote {out} and {out}.json ({} steps, {:.1} s)",
            trainer.dqn().steps_done(),
            run.wall_seconds
        );
        Ok(())
    }

    /// `puzzlelab eval-dqn-2048`: plays full games greedily with a saved model; JSON on stdout.
    pub fn eval(o: &Options) -> Result<(), String> {
        let path: String = value(o, "--model")?.ok_or("eval-dqn-2048 needs --model FILE")?;
        let games: u64 = value(o, "--games")?.unwrap_or(100);
        let seed = if o.given("--seed") {
            o.seed
        } else {
            EVALUATION_SEED
        };
        let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
        let policy =
            QPolicy::from_bytes(&bytes, &Device::flex()).map_err(|e| format!("{path}: {e}"))?;
        policy
            .check_fits(&puzzlelab::env::game2048::Game2048::new(
                Game2048Config::default(),
            ))
            .map_err(|e| format!("{path}: {e}"))?;
        let summary = evaluate(&policy, games, seed);
        let report = json!({
            "what": "puzzlelab eval-dqn-2048: greedy legal moves of a deep Q-network, original rules",
            "model": path,
            "seed": seed,
            "summary": summary,
            "machine": machine(),
            "build": if cfg!(debug_assertions) { "debug" } else { "release" },
            "date": utc_now(),
        });
        println!("{}", serde_json::to_string_pretty(&report).expect("json"));
        Ok(())
    }
}
