//! `puzzlelab sliding local-vi eval` and `solve --algo local-vi`: local value iteration (tile by tile,
//! exact sweeps) and the paper's sampled Q-learning of it, on the paper's difficulty bands.

use crate::files::{machine, print_json, round};
use crate::sliding::{load_databases, repository_file, BoardArgs, STANDARD_DATABASES};
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use puzzlelab::agent::local_vi::sampled::{SampledConfig, SampledLocalQ};
use puzzlelab::agent::local_vi::{
    LocalValueIteration, LocalViConfig, LocalViReport, LocalViSolution, TableStats,
};
use puzzlelab::clock;
use puzzlelab::env::sliding::solve::{ExactDistances, SlidingSolver, SolveStatus};
use puzzlelab::env::sliding::{Board, HeuristicTables, SlidingPuzzle};
use puzzlelab::rng::Rng;
use puzzlelab::search::Limits;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// `puzzlelab sliding local-vi <command>`.
#[derive(Args, Debug)]
pub struct LocalViArgs {
    #[command(subcommand)]
    pub command: LocalViCommand,
}

/// Local value iteration's commands.
#[derive(Subcommand, Debug)]
pub enum LocalViCommand {
    /// Builds the tables, solves positions of the paper's bands (random walks binned by the sum
    /// of Manhattan distances: easy < 10, medium 10-29, hard >= 30; and uniformly random ones);
    /// prints JSON: solved %, mean length, mean ratio to the optimum, table sizes and build time.
    Eval(EvalArgs),
}

/// `puzzlelab sliding local-vi eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Positions in each band.
    #[arg(long, default_value_t = 1000)]
    pub per_band: usize,
    /// How many positions of each band get their optimum (exact table up to 9 cells, IDA* with
    /// the shipped pattern databases on 4x4; none on other boards). Default: all.
    #[arg(long)]
    pub optimal: Option<usize>,
    /// The seed of the positions.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Also train the paper's sampled Q-learning of the same sub-problems and play it.
    #[arg(long)]
    pub sampled: bool,
    /// The sampled version's training episodes (the paper: 1,000,000).
    #[arg(long, default_value_t = 100_000, requires = "sampled")]
    pub episodes: usize,
    /// The sampled version without the paper's sub-episode limits (tile i within i² moves); the
    /// game's cells² limit stays.
    #[arg(long, requires = "sampled")]
    pub no_sub_episode_limits: bool,
    /// The sampled version's training seed.
    #[arg(long, default_value_t = 0, requires = "sampled")]
    pub train_seed: u64,
}

/// The paper's bands by the sum of Manhattan distances, and uniformly random positions.
const BANDS: [(&str, u32, u32); 3] = [("easy", 1, 10), ("medium", 10, 30), ("hard", 30, u32::MAX)];

/// Positions of one band.
struct Band {
    name: &'static str,
    rule: String,
    positions: Vec<Board>,
}

/// Random walks (no immediate reversals) of 1 to 10·cells moves from the goal, binned by the sum
/// of Manhattan distances until every band has `per_band` (or 200·per_band walks were made);
/// then `per_band` uniformly random solvable positions.
fn bands(puzzle: &SlidingPuzzle, per_band: usize, seed: u64) -> Vec<Band> {
    let mut rng = Rng::new(seed);
    let tables = HeuristicTables::new(puzzle.goal());
    let cells = puzzle.rows() * puzzle.cols();
    let mut binned: Vec<Vec<Board>> = vec![Vec::new(); BANDS.len()];
    let mut walks = 0;
    while binned.iter().any(|b| b.len() < per_band) && walks < 200 * per_band.max(1) {
        walks += 1;
        let length = 1 + rng.below(10 * cells);
        let board = puzzle.random_walk(1, length, &mut rng, |_| 0);
        let manhattan = tables.manhattan(&board);
        if let Some(i) = BANDS
            .iter()
            .position(|&(_, lo, hi)| lo <= manhattan && manhattan < hi)
        {
            if binned[i].len() < per_band {
                binned[i].push(board);
            }
        }
    }
    let mut out: Vec<Band> = BANDS
        .iter()
        .zip(binned)
        .map(|(&(name, lo, hi), positions)| Band {
            name,
            rule: match hi {
                u32::MAX => format!("random walk, Manhattan sum >= {lo}"),
                _ => format!("random walk, Manhattan sum {lo}..{}", hi - 1),
            },
            positions,
        })
        .collect();
    let uniform = (0..per_band)
        .map(|_| puzzle.random_solvable(&mut rng))
        .filter(|b| b != puzzle.goal())
        .collect();
    out.push(Band {
        name: "uniform",
        rule: "uniformly random solvable".into(),
        positions: uniform,
    });
    out
}

/// Optimal lengths: the exact table (at most 9 cells) or IDA* with the shipped databases (4x4).
enum Optimum {
    Exact(ExactDistances),
    Databases(Rc<puzzlelab::env::sliding::pdb::PdbHeuristic>),
    None,
}

impl Optimum {
    fn for_puzzle(puzzle: &SlidingPuzzle) -> Result<Optimum> {
        if let Some(exact) = ExactDistances::build(puzzle.goal()) {
            return Ok(Optimum::Exact(exact));
        }
        if (puzzle.rows(), puzzle.cols()) == (4, 4) {
            let path = repository_file(STANDARD_DATABASES);
            let db = load_databases(&path, puzzle.goal()).context("the shipped databases")?;
            return Ok(Optimum::Databases(Rc::new(db)));
        }
        Ok(Optimum::None)
    }

    fn length(&self, puzzle: &SlidingPuzzle, board: &Board) -> Option<u32> {
        match self {
            Optimum::Exact(exact) => exact.distance(board),
            Optimum::Databases(db) => {
                let limits = Limits::default();
                let mut solver =
                    SlidingSolver::with_pattern_databases(puzzle, *board, db.clone(), limits)
                        .ok()?;
                let report = solver.run_to_end(u64::MAX, |_| true);
                (report.status == SolveStatus::Solved).then_some(report.length as u32)
            }
            Optimum::None => None,
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Optimum::Exact(_) => "exact distance table",
            Optimum::Databases(_) => "IDA* with the shipped 6-6-3 pattern databases",
            Optimum::None => "none (no exact solver for this board)",
        }
    }
}

#[derive(Serialize)]
struct RatioReport {
    /// Positions whose optimum was computed.
    counted: usize,
    mean_optimal: f64,
    /// Mean local-VI length over the same positions.
    mean_length: f64,
    /// Mean of length / optimum.
    mean_ratio: f64,
    max_ratio: f64,
    /// Positions solved optimally.
    optimal_pct: f64,
    /// Milliseconds for all the optima.
    optimum_ms: f64,
}

#[derive(Serialize)]
struct SampledBand {
    won_pct: f64,
    /// Mean moves of the games won.
    mean_length_won: f64,
    /// Games lost, by the sub-problem that ran out of moves.
    lost_in: BTreeMap<String, usize>,
}

#[derive(Serialize)]
struct BandReport {
    band: &'static str,
    rule: String,
    positions: usize,
    mean_manhattan: f64,
    solved_pct: f64,
    mean_length: f64,
    /// Solutions that would also keep the paper's limits (sub-episode ending with tile i
    /// within i² moves, the game within cells² moves).
    within_sub_episode_limits_pct: f64,
    /// Sub-problems enlarged by the rule, per position.
    enlarged_per_position: f64,
    solve_ms_mean: f64,
    ratio: Option<RatioReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sampled: Option<SampledBand>,
}

#[derive(Serialize)]
struct SampledReport {
    config: SampledConfig,
    train_ms: f64,
    stats: puzzlelab::agent::local_vi::sampled::SampledStats,
}

#[derive(Serialize)]
struct EvalReport {
    size: String,
    seed: u64,
    per_band: usize,
    tables: TableStats,
    table_bytes: usize,
    optimum: &'static str,
    bands: Vec<BandReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sampled: Option<SampledReport>,
    machine: String,
}

fn percent(part: usize, whole: usize) -> f64 {
    round(100.0 * part as f64 / whole.max(1) as f64, 1)
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// `puzzlelab sliding local-vi eval`.
pub fn run(args: &LocalViArgs) -> Result<()> {
    match &args.command {
        LocalViCommand::Eval(eval) => evaluate(eval),
    }
}

fn evaluate(args: &EvalArgs) -> Result<()> {
    let puzzle = args.board.puzzle(None)?;
    let learner = LocalValueIteration::build(&puzzle, LocalViConfig::default())?;
    eprintln!(
        "tables: {} ({} states) in {:.1} ms",
        learner.stats().tables,
        learner.stats().states,
        learner.stats().build_ms
    );
    let optimum = Optimum::for_puzzle(&puzzle)?;
    let mut sampled = args.sampled.then(|| {
        let config = SampledConfig {
            episodes: args.episodes,
            max_walk: 10 * puzzle.rows() * puzzle.cols(),
            seed: args.train_seed,
            sub_episode_limits: !args.no_sub_episode_limits,
            ..SampledConfig::default()
        };
        let started = clock::seconds();
        let mut q = SampledLocalQ::new(config);
        let chunk = 10_000;
        while q.stats(&learner).episodes < args.episodes {
            let stats = q.train(&learner, chunk);
            eprintln!(
                "sampled: {} episodes, training win rate {:.3}",
                stats.episodes, stats.training_win_rate
            );
        }
        let report = SampledReport {
            config,
            train_ms: round((clock::seconds() - started) * 1000.0, 1),
            stats: q.stats(&learner),
        };
        (q, report)
    });
    let tables = HeuristicTables::new(puzzle.goal());
    let cells = puzzle.rows() * puzzle.cols();
    let mut reports = Vec::new();
    for band in bands(&puzzle, args.per_band, args.seed) {
        let n = band.positions.len();
        let mut solutions: Vec<Option<(LocalViSolution, f64)>> = Vec::with_capacity(n);
        for board in &band.positions {
            let started = clock::seconds();
            let solution = learner.solve(board).ok();
            let ms = (clock::seconds() - started) * 1000.0;
            solutions.push(solution.map(|s| (s, ms)));
        }
        let solved: Vec<&(LocalViSolution, f64)> = solutions.iter().flatten().collect();
        let counted = args.optimal.unwrap_or(n).min(n);
        let ratio = (!matches!(optimum, Optimum::None) && counted > 0).then(|| {
            let started = clock::seconds();
            let pairs: Vec<(f64, f64)> = band.positions[..counted]
                .iter()
                .zip(&solutions)
                .filter_map(|(b, s)| {
                    let optimal = optimum.length(&puzzle, b)?;
                    Some((s.as_ref()?.0.moves.len() as f64, f64::from(optimal)))
                })
                .collect();
            eprintln!("{}: {} optima", band.name, pairs.len());
            RatioReport {
                counted: pairs.len(),
                mean_optimal: round(mean(pairs.iter().map(|p| p.1)), 2),
                mean_length: round(mean(pairs.iter().map(|p| p.0)), 2),
                mean_ratio: round(mean(pairs.iter().map(|p| p.0 / p.1)), 3),
                max_ratio: round(pairs.iter().map(|p| p.0 / p.1).fold(0.0, f64::max), 3),
                optimal_pct: percent(pairs.iter().filter(|p| p.0 == p.1).count(), pairs.len()),
                optimum_ms: round((clock::seconds() - started) * 1000.0, 1),
            }
        });
        let sampled_band = sampled.as_mut().map(|(q, _)| {
            let games: Vec<_> = band
                .positions
                .iter()
                .map(|b| q.solve(&learner, b))
                .collect();
            let mut lost_in = BTreeMap::new();
            for g in &games {
                if let Some(tiles) = &g.lost_in {
                    *lost_in.entry(format!("{tiles:?}")).or_insert(0) += 1;
                }
            }
            SampledBand {
                won_pct: percent(games.iter().filter(|g| g.won).count(), n),
                mean_length_won: round(
                    mean(games.iter().filter(|g| g.won).map(|g| g.moves.len() as f64)),
                    2,
                ),
                lost_in,
            }
        });
        reports.push(BandReport {
            band: band.name,
            rule: band.rule,
            positions: n,
            mean_manhattan: round(
                mean(
                    band.positions
                        .iter()
                        .map(|b| f64::from(tables.manhattan(b))),
                ),
                2,
            ),
            solved_pct: percent(solved.len(), n),
            mean_length: round(mean(solved.iter().map(|s| s.0.moves.len() as f64)), 2),
            within_sub_episode_limits_pct: percent(
                solved
                    .iter()
                    .filter(|s| s.0.within_sub_episode_limits(cells))
                    .count(),
                n,
            ),
            enlarged_per_position: round(
                mean(
                    solved
                        .iter()
                        .map(|s| s.0.stages.iter().filter(|st| st.enlarged).count() as f64),
                ),
                3,
            ),
            solve_ms_mean: round(mean(solved.iter().map(|s| s.1)), 4),
            ratio,
            sampled: sampled_band,
        });
    }
    print_json(&EvalReport {
        size: format!("{}x{}", puzzle.rows(), puzzle.cols()),
        seed: args.seed,
        per_band: args.per_band,
        table_bytes: learner.stats().states,
        tables: learner.stats().clone(),
        optimum: optimum.name(),
        bands: reports,
        sampled: sampled.map(|(_, report)| report),
        machine: machine(),
    });
    Ok(())
}

thread_local! {
    /// The learner of the last goal solved, reused by the next position.
    static LEARNER: RefCell<Option<Rc<LocalValueIteration>>> = const { RefCell::new(None) };
}

/// `solve --algo local-vi` on one position; `None` when it cannot reach the goal.
pub fn solve(puzzle: &SlidingPuzzle, start: &Board) -> Result<Option<LocalViReport>> {
    let cached = LEARNER.with_borrow(|l| l.clone().filter(|l| l.goal() == puzzle.goal()));
    let learner = match cached {
        Some(learner) => learner,
        None => {
            let built = Rc::new(LocalValueIteration::build(
                puzzle,
                LocalViConfig::default(),
            )?);
            LEARNER.set(Some(built.clone()));
            built
        }
    };
    let report = learner.report(start);
    Ok((report.solve.status != SolveStatus::Unsolvable).then_some(report))
}
