//! `puzzlelab sudoku bench`: our exact solver beside the `sudoku` crate (a JCZSolve port) on the
//! same puzzles in the same process. Timings only: never pass/fail on speed; disagreements are
//! reported (and make the command fail).
//!
//! Both solvers look for up to two solutions (a solution and the proof that it is unique), as in
//! tdoku's benchmark. Each repeat times both solvers over the whole file, one after the other,
//! alternating which goes first. The crate is AGPL-3.0, so it is linked only with the feature
//! `sudoku-crate` (`cargo build --release --features sudoku-crate`); without it the command times
//! our solver alone and says so (`"crate": null`).

use crate::files::{self, machine, round};
use anyhow::{bail, Context, Result};
use clap::Args;
use flate2::read::GzDecoder;
use puzzlelab::env::sudoku::solve;
use serde_json::{json, Value};
use std::hint::black_box;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `puzzlelab sudoku bench --file F [--file F2 …]`: puzzles/s of our solver and of the `sudoku`
/// crate, side by side; prints JSON.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// A puzzle file: one puzzle a line, 81 characters (`1`–`9`, `.` or `0` for empty); `#` lines
    /// and empty lines are skipped; `.gz` files are decompressed. Repeatable.
    #[arg(long = "file", required = true)]
    pub files: Vec<PathBuf>,
    /// At most this many puzzles from each file (the first ones).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Timed passes over each file per solver; the best and the median are reported.
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
}

/// Runs `puzzlelab sudoku bench`.
pub fn bench(args: &BenchArgs) -> Result<()> {
    if cfg!(target_arch = "wasm32") {
        bail!("sudoku bench runs natively only");
    }
    if !WITH_CRATE {
        eprintln!("the sudoku crate is not in this build (--features sudoku-crate): ours only");
    }
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    let mut reports = Vec::new();
    let mut all_agree = true;
    for path in &args.files {
        let mut puzzles = read_puzzles(path)?;
        if let Some(limit) = args.limit {
            puzzles.truncate(limit);
        }
        if puzzles.is_empty() {
            bail!("{}: no puzzles", path.display());
        }
        eprintln!("{}: {} puzzles", path.display(), puzzles.len());
        let (report, agree) = bench_file(path, &puzzles, args.repeat);
        all_agree &= agree;
        reports.push(report);
    }
    let report = json!({
        "command": files::command_line(),
        "machine": machine(),
        "build": files::build(),
        "crate": WITH_CRATE.then_some("sudoku 0.8"),
        "solutions_looked_for": 2,
        "repeat": args.repeat,
        "files": reports,
    });
    println!("{report}");
    if !all_agree {
        bail!("the two solvers disagree on some puzzles (see \"disagreements\")");
    }
    Ok(())
}

/// The puzzles of a file (see [`BenchArgs::files`]).
fn read_puzzles(path: &Path) -> Result<Vec<[u8; 81]>> {
    let mut text = String::new();
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    if path.extension().is_some_and(|e| e == "gz") {
        GzDecoder::new(file).read_to_string(&mut text)
    } else {
        std::io::BufReader::new(file).read_to_string(&mut text)
    }
    .with_context(|| format!("reading {}", path.display()))?;
    let mut puzzles = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bytes = line.as_bytes();
        let mut cells = [0u8; 81];
        let well_formed = bytes.len() >= 81
            && bytes[..81].iter().zip(cells.iter_mut()).all(|(&b, cell)| {
                *cell = match b {
                    b'1'..=b'9' => b - b'0',
                    b'.' | b'0' => 0,
                    _ => return false,
                };
                true
            });
        if !well_formed {
            bail!(
                "{}:{}: not a puzzle (81 characters of 1-9, . or 0)",
                path.display(),
                n + 1
            );
        }
        puzzles.push(cells);
    }
    Ok(puzzles)
}

/// Whether this build has the `sudoku` crate to compare with.
const WITH_CRATE: bool = cfg!(all(feature = "sudoku-crate", not(target_arch = "wasm32")));

/// The `sudoku` crate's count (at most 2) and first solution (see Cargo.toml).
#[cfg(all(feature = "sudoku-crate", not(target_arch = "wasm32")))]
fn crate_solve(cells: &[u8; 81], buffer: &mut [[u8; 81]; 2]) -> usize {
    match sudoku::Sudoku::from_bytes(*cells) {
        Ok(puzzle) => puzzle.solutions_up_to_buffer(buffer, 2),
        Err(_) => 0,
    }
}

/// Without the crate (or on wasm32, where `bench` refuses): never called.
#[cfg(not(all(feature = "sudoku-crate", not(target_arch = "wasm32"))))]
fn crate_solve(_: &[u8; 81], _: &mut [[u8; 81]; 2]) -> usize {
    unreachable!("the sudoku crate is not in this build")
}

fn bench_file(path: &Path, puzzles: &[[u8; 81]], repeat: usize) -> (Value, bool) {
    // Untimed: do the two solvers agree?
    let (mut unique, mut several, mut none) = (0, 0, 0);
    let mut guesses = Vec::with_capacity(puzzles.len());
    let mut disagreements = Vec::new();
    let mut buffer = [[0u8; 81]; 2];
    for (i, cells) in puzzles.iter().enumerate() {
        let ours = solve(cells, 2);
        let theirs = if WITH_CRATE {
            crate_solve(cells, &mut buffer)
        } else {
            ours.count
        };
        let agree = !WITH_CRATE
            || ours.count == theirs && (ours.count != 1 || ours.solution == Some(buffer[0]));
        if !agree && disagreements.len() < 10 {
            disagreements.push(json!({"puzzle": i, "ours": ours.count, "crate": theirs}));
        }
        match ours.count {
            0 => none += 1,
            1 => unique += 1,
            _ => several += 1,
        }
        guesses.push(ours.guesses);
    }
    let agree = disagreements.is_empty();

    // Timed: each repeat runs both solvers once over the file, alternating which goes first.
    let mut ours_rates = Vec::new();
    let mut crate_rates = Vec::new();
    for r in 0..repeat {
        let order = if r % 2 == 0 { [0, 1] } else { [1, 0] };
        for solver in order.into_iter().filter(|&s| s == 0 || WITH_CRATE) {
            let start = Instant::now();
            let mut check = 0usize;
            for cells in puzzles {
                check += if solver == 0 {
                    black_box(solve(black_box(cells), 2)).count
                } else {
                    black_box(crate_solve(black_box(cells), &mut buffer))
                };
            }
            let rate = puzzles.len() as f64 / start.elapsed().as_secs_f64();
            black_box(check);
            if solver == 0 {
                ours_rates.push(rate);
            } else {
                crate_rates.push(rate);
            }
        }
        eprintln!(
            "  repeat {}: ours {:.0}/s, crate {}",
            r + 1,
            ours_rates[r],
            crate_rates
                .get(r)
                .map_or("-".into(), |c| format!("{c:.0}/s"))
        );
    }
    let (ours_best, ours_median) = best_and_median(&ours_rates);
    let crate_stats = WITH_CRATE.then(|| best_and_median(&crate_rates));
    let crate_best = crate_stats.map(|(best, _)| round(best, 0));
    let crate_median = crate_stats.map(|(_, median)| round(median, 0));
    let ratio = crate_stats.map(|(best, _)| round(ours_best / best, 3));
    let ratio_median = crate_stats.map(|(_, median)| round(ours_median / median, 3));
    guesses.sort_unstable();
    let mean_guesses = guesses.iter().sum::<u64>() as f64 / guesses.len() as f64;
    let report = json!({
        "file": path.display().to_string(),
        "puzzles": puzzles.len(),
        "ours_per_s": round(ours_best, 0),
        "crate_per_s": crate_best,
        "ratio": ratio,
        "ours_per_s_median": round(ours_median, 0),
        "crate_per_s_median": crate_median,
        "ratio_median": ratio_median,
        "ours_runs": ours_rates.iter().map(|r| round(*r, 0)).collect::<Vec<_>>(),
        "crate_runs": crate_rates.iter().map(|r| round(*r, 0)).collect::<Vec<_>>(),
        "agree": agree,
        "disagreements": disagreements,
        "unique": unique,
        "several_solutions": several,
        "no_solution": none,
        "guesses_mean": round(mean_guesses, 3),
        "guesses_median": guesses[guesses.len() / 2],
        "guesses_max": guesses[guesses.len() - 1],
    });
    (report, agree)
}

/// The best and the median of some rates.
fn best_and_median(rates: &[f64]) -> (f64, f64) {
    let mut rates = rates.to_vec();
    rates.sort_by(|a, b| b.total_cmp(a));
    (rates[0], rates[rates.len() / 2])
}
