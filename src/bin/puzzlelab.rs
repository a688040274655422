//! `puzzlelab`: the native command-line tool.
//!
//! ```text
//! puzzlelab solve [POSITION ...] [--size RxC] [--goal G] [--preset NAME]
//!                 [--algo bfs|astar|wastar|idastar|qlearning] [--weight W]
//!                 [--heuristic misplaced|manhattan|linear-conflict] [--max-nodes N]
//! puzzlelab table [--size RxC] [--goal G] [--preset NAME]
//! puzzlelab scramble [--size RxC] [--goal G] [--difficulty D] [--exact] [--seed S] [--count N]
//! ```
//! `solve` reads positions from its arguments, or one per line from stdin when none are given,
//! and prints one JSON object per position (an `error` object for a position it cannot solve).

use puzzlelab::agent::q_table::QLearningConfig;
use puzzlelab::env::sliding::pdb::{Partition, PdbHeuristic};
use puzzlelab::env::sliding::solve::{
    ExactDistances, SlidingQLearning, SlidingSolver, DEFAULT_WEIGHT,
};
use puzzlelab::env::sliding::Board;
use puzzlelab::env::sliding::{parse_size, Heuristic, HeuristicTables, PuzzleError, SlidingPuzzle};
use puzzlelab::rng::Rng;
use puzzlelab::search::{Algorithm, Limits};
use serde_json::{json, Value};
use std::io::{BufRead, Read, Write};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

const USAGE: &str = "usage:
  puzzlelab solve [POSITION ...] [--size RxC] [--goal G] [--preset sun-moon]
                  [--algo bfs|astar|wastar|idastar|qlearning] [--weight W]
                  [--heuristic misplaced|manhattan|linear-conflict|pdb] [--pdb FILE] [--partition P]
                  [--max-nodes N]
      Positions come from the arguments, or one per line from stdin. Prints one JSON object per position.
      wastar is weighted A*: solutions at most W times the optimum (W from 1 to 100, default 2).
      --heuristic pdb (4x4, IDA*): additive pattern databases, read from FILE (as written by
      `puzzlelab pdb`) or built once per run with --partition 5-5-5 (default) or 6-6-3.
  puzzlelab pdb [--goal G] [--partition 6-6-3|5-5-5] --out FILE
      Builds the 15-puzzle pattern databases for a goal, writes them (gzip when FILE ends in .gz)
      and a manifest FILE.json (command, machine, wall time, sizes, checksum).
  puzzlelab table [--size RxC] [--goal G] [--preset sun-moon]
      Builds the exact distance table of a board of at most 9 cells and prints its histogram.
  puzzlelab bench [--count N] [--seed S]
      Times the exact 8-puzzle table, Q-learning on sun/moon and IDA* on N random 15-puzzles; prints JSON.
  puzzlelab scramble [--size RxC] [--goal G] [--preset sun-moon] [--difficulty D] [--exact|--uniform] [--seed S] [--count N]
      Prints scrambled positions: the thesis's random walk until Manhattan + 2·linear conflicts >= D,
      or with --exact a uniformly random position at exactly D optimal moves (boards of at most 9 cells),
      or with --uniform a position drawn uniformly from all solvable ones.
Positions: 123456780, \"1 2 3 4 5 6 7 8 0\", 1,2,3,8,_,4,7,6,5, or a multi-line grid; 0 or _ is the blank.";

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
            f if f.starts_with("--") => return Err(format!("unknown option {f}")),
            _ => o.positional.push(arg.clone()),
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

/// Reads pattern databases saved by `puzzlelab pdb` (gzip-compressed or not) for `goal`.
fn load_databases(path: &str, goal: &Board) -> Result<PdbHeuristic, String> {
    let raw = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("{path}: {e}"))?;
        out
    } else {
        raw
    };
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
    let puzzle = puzzle_for(o, Some(text))?;
    let start = puzzle.parse(text).map_err(|e| e.to_string())?;
    let algorithm = o.algorithm.as_deref().unwrap_or("idastar");
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
    let object = report.as_object_mut().expect("an object");
    object.insert("ms".into(), json!((ms * 1000.0).round() / 1000.0));
    object.insert("input".into(), json!(text));
    object.insert("start".into(), json!(puzzle.format(&start)));
    object.insert("goal".into(), json!(puzzle.format(puzzle.goal())));
    object.insert(
        "size".into(),
        json!(format!("{}x{}", puzzle.rows(), puzzle.cols())),
    );
    Ok(report)
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
