//! The benchmarks' commands: `bench` (exact table, Q-learning, IDA*) and `bench-pdb` (the shipped
//! pattern databases on Korf's 100 and random 15-puzzles, beside the `pathfinding` crate's IDA*).
//! Timings only: never pass/fail.

use crate::files::{self, machine};
use crate::sliding::{
    load_databases, repository_file, BLANK_FIRST_DATABASES, KORF_GOAL, STANDARD_DATABASES,
};
use anyhow::{anyhow, Context, Result};
use clap::{Args, ValueEnum};
use puzzlelab::agent::q_table::QLearningConfig;
use puzzlelab::env::sliding::solve::{ExactDistances, SlidingQLearning, SlidingSolver};
use puzzlelab::env::sliding::{Board, Direction, Heuristic, HeuristicTables, SlidingPuzzle};
use puzzlelab::rng::Rng;
use puzzlelab::search::{Algorithm, Limits};
use serde_json::{json, Value};
use std::io::Write;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// `puzzlelab sliding bench`: times the exact 8-puzzle table, Q-learning on sun/moon and IDA* (linear
/// conflicts) on --count random 15-puzzles; prints JSON.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// How many 15-puzzles IDA* solves.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// The seed of the 15-puzzles' random walks.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The walks' Manhattan + 2·LC.
    #[arg(long, default_value_t = 20)]
    pub difficulty: u32,
}

/// Which positions `bench-pdb` solves.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum PositionSet {
    /// Korf's 100 instances (their optimal lengths are checked).
    Korf,
    /// --count uniformly random solvable positions.
    Random,
    /// Both.
    All,
}

/// `puzzlelab sliding bench-pdb`: times IDA* with the shipped 6-6-3 pattern databases on Korf's 100
/// (checking their known optimal lengths) and on uniformly random positions, and the pathfinding
/// crate's IDA* with Manhattan distance on the first few of each (stopped after the timeout);
/// writes JSON (stdout by default).
#[derive(Args, Debug)]
pub struct BenchPdbArgs {
    /// Which positions.
    #[arg(long, value_enum, default_value = "all")]
    pub set: PositionSet,
    /// Positions per set (at most 100 of Korf's).
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// The seed of the random positions.
    #[arg(long, default_value_t = BENCH_PDB_SEED)]
    pub seed: u64,
    /// Korf's instances (`id optimal_length 16 tiles` per line).
    #[arg(long, value_name = "FILE")]
    pub korf: Option<String>,
    /// How many positions of each set the baseline also solves.
    #[arg(long, default_value_t = 10)]
    pub baseline_count: usize,
    /// The baseline's time budget per position.
    #[arg(long, default_value_t = 10_000)]
    pub baseline_timeout_ms: u64,
    /// Where to write the JSON (default: stdout).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Timings for comparison between runs and machines (never used as pass/fail).
/// `puzzlelab sliding bench`.
pub fn bench(o: &BenchArgs) -> Result<()> {
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
    let report = json!({
        "machine": format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        "exact_table_3x3_ms_median": median(&mut table_ms),
        "q_learning_sun_moon": {"ms_median": median(&mut q_ms), "lengths": q_lengths, "episodes": 1000},
        "idastar_15_puzzle": {
            "scramble": format!("random walk to Manhattan + 2·LC >= {}, seed {}", o.difficulty, o.seed),
            "ms_median": median(&mut ida_ms),
            "ms_max": ida_ms.iter().copied().fold(0.0, f64::max),
            "positions": positions,
        },
    });
    println!("{report}");
    Ok(())
}

/// `bench-pdb`'s seed for its random positions (documented in docs/benchmarks.md, so runs compare).
const BENCH_PDB_SEED: u64 = 2026;
/// Korf's 100 instances (Korf 1985), with their optimal lengths, kept in the repository
/// (`data/korf100.txt`; data/README.md says where it comes from).
const KORF_100: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/korf100.txt");

/// One position of a `bench-pdb` set.
struct BenchPosition {
    id: usize,
    start: Board,
    /// The proven optimum, where the set gives one (Korf's instances).
    known_length: Option<usize>,
}

/// Korf's instances (`id optimal_length tile × 16` per line, `0` the blank, `#` comments).
fn read_korf(path: &str, puzzle: &SlidingPuzzle) -> Result<Vec<BenchPosition>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{path}: cannot read"))?;
    let lines = text.lines().enumerate();
    let lines = lines.filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    lines
        .map(|(number, line)| {
            let fail = |what: String| anyhow!("{path}:{}: {what}", number + 1);
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
) -> Result<Value> {
    let ms = |clock: Instant| clock.elapsed().as_secs_f64() * 1000.0;
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    let clock = Instant::now();
    let path = repository_file(databases);
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
        )?;
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

/// `puzzlelab sliding bench-pdb`: the shipped pattern databases on Korf's 100 and on uniformly random
/// positions, beside the `pathfinding` crate's IDA* with Manhattan distance. Timings only.
pub fn bench_pdb(o: &BenchPdbArgs) -> Result<()> {
    let (korf, random) = match o.set {
        PositionSet::Korf => (true, false),
        PositionSet::Random => (false, true),
        PositionSet::All => (true, true),
    };
    let seed = o.seed;
    let count = o.count;
    let baseline_count = o.baseline_count;
    let budget = Duration::from_millis(o.baseline_timeout_ms);
    let korf_path = o.korf.as_deref().unwrap_or(KORF_100);
    let mut sets = serde_json::Map::new();
    if korf {
        let puzzle = SlidingPuzzle::with_goal_text(4, 4, KORF_GOAL)?;
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
        let puzzle = SlidingPuzzle::standard(4, 4)?;
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
        "date": files::utc_now(),
        "machine": machine(),
        "build": files::build(),
        "puzzlelab_version": env!("CARGO_PKG_VERSION"),
        "settings": {
            "set": o.set.to_possible_value().map(|v| v.get_name().to_string()),
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
        Some(path) => std::fs::write(path, text).with_context(|| format!("{path}: cannot write")),
        None => Ok(std::io::stdout().write_all(text.as_bytes())?),
    }
}
