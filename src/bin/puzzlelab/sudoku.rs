//! `puzzlelab sudoku …`: Sudoku's commands (`solve`, `rate`, `generate`; `bench` in
//! [`crate::sudoku_bench`], `ga` in [`crate::sudoku_ga`], `train` and `eval` in [`crate::dqn_sudoku`]).

use anyhow::{bail, Result};
use clap::{Args, Subcommand, ValueEnum};
use puzzlelab::clock;
use puzzlelab::env::sudoku::{self, one_decimal, Difficulty, Grid, Shape};
use serde_json::{json, Value};
use std::io::BufRead;

use crate::files::print_json;
use crate::sudoku_bench;

/// `puzzlelab sudoku <command>`.
#[derive(Args, Debug)]
pub struct SudokuArgs {
    #[command(subcommand)]
    pub command: SudokuCommand,
}

/// Sudoku's commands.
#[derive(Subcommand, Debug)]
pub enum SudokuCommand {
    /// Solves puzzles exactly; prints one JSON line a puzzle: solution, unique, guesses, ms, or
    /// an error.
    Solve(PuzzlesArgs),
    /// Rates puzzles with the logical solver (Sudoku Explainer's scale); prints one JSON line a
    /// puzzle: rating, hardest technique, solved, the techniques used and how often, or an error.
    Rate(RateArgs),
    /// Generates puzzles with a unique solution at a difficulty; prints one JSON line a puzzle.
    Generate(GenerateArgs),
    /// Times the exact solver beside the `sudoku` crate on puzzle files (JSON).
    Bench(sudoku_bench::BenchArgs),
    /// Runs the coursework's genetic algorithm on a puzzle; prints JSON.
    Ga(crate::sudoku_ga::GaArgs),
    /// Trains a deep Q-network (Mehta's or puzzlelab's) on generated puzzles (`--features learn`).
    Train(Box<crate::dqn_sudoku::TrainArgs>),
    /// Plays a DQN model greedily on puzzles binned by the exact solver's guesses; prints JSON
    /// (`--features learn`).
    Eval(crate::dqn_sudoku::EvalArgs),
}

/// Puzzles from the arguments, or one a line from stdin.
#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    /// Puzzles: 81 (or 16, 36) cells with `.` or `0` empty, or a grid with separators. Default:
    /// one a line from stdin (blank lines and lines starting with `#` skipped).
    pub puzzles: Vec<String>,
}

/// `puzzlelab sudoku rate`.
#[derive(Args, Debug)]
pub struct RateArgs {
    #[command(flatten)]
    pub input: PuzzlesArgs,
    /// Print every step's explanation too.
    #[arg(long)]
    pub steps: bool,
}

/// A difficulty level (the logical rating's range).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DifficultyArg {
    /// Hidden singles only (rating ≤ 1.5).
    Easy,
    /// Up to naked singles (≤ 2.5).
    Medium,
    /// Up to pairs, triples, fish and wings (≤ 4.5).
    Hard,
    /// Quads, jellyfish, the bivalue grave, short chains (≤ 7.5).
    Expert,
}

/// `puzzlelab sudoku generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The level.
    #[arg(long, value_enum, default_value = "medium")]
    pub difficulty: DifficultyArg,
    /// Puzzles to make.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// Puzzle i's seed is this seed + i.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Grid size: 4, 6 or 9.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Full grids drawn at most per puzzle.
    #[arg(long, default_value_t = 200)]
    pub attempts: usize,
    /// Instead of a difficulty, exactly this many givens (any difficulty; as in the coursework's
    /// genetic-algorithm experiment).
    #[arg(long, conflicts_with = "difficulty")]
    pub givens: Option<usize>,
}

/// Runs a `sudoku` command.
pub fn run(args: &SudokuArgs, command_line: &str) -> Result<()> {
    match &args.command {
        SudokuCommand::Solve(args) => solve(args),
        SudokuCommand::Rate(args) => rate(args),
        SudokuCommand::Generate(args) => generate(args),
        SudokuCommand::Bench(args) => sudoku_bench::bench(args),
        SudokuCommand::Ga(args) => crate::sudoku_ga::ga(args),
        SudokuCommand::Train(args) => crate::dqn_sudoku::train(args, command_line),
        SudokuCommand::Eval(args) => crate::dqn_sudoku::eval(args),
    }
}

/// The puzzles' texts: the arguments, or stdin's lines.
fn inputs(args: &PuzzlesArgs) -> Result<Vec<String>> {
    if !args.puzzles.is_empty() {
        return Ok(args.puzzles.clone());
    }
    let mut lines = Vec::new();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let text = line.trim();
        if !text.is_empty() && !text.starts_with('#') {
            lines.push(text.to_string());
        }
    }
    Ok(lines)
}

/// Runs `one` on every puzzle, printing a JSON line each; an unreadable puzzle prints its error
/// and makes the command fail at the end (the others are still answered).
fn each_puzzle(args: &PuzzlesArgs, mut one: impl FnMut(&Grid) -> Value) -> Result<()> {
    let mut failures = 0;
    for text in inputs(args)? {
        let value = match Grid::parse(&text) {
            Ok(grid) => one(&grid),
            Err(error) => {
                failures += 1;
                json!({"puzzle": text, "error": error.to_string()})
            }
        };
        println!("{value}");
    }
    if failures > 0 {
        bail!("{failures} puzzle(s) could not be read");
    }
    Ok(())
}

fn solve(args: &PuzzlesArgs) -> Result<()> {
    each_puzzle(args, |grid| {
        let start = clock::seconds();
        let found = sudoku::search(grid, 2);
        let ms = (clock::seconds() - start) * 1e3;
        let mut value = json!({
            "puzzle": grid.to_line(),
            "unique": found.count == 1,
            "solutions": found.count,
            "guesses": found.guesses,
            "ms": ms,
        });
        match (&found.solution, found.count) {
            (None, _) => value["error"] = json!(sudoku::SudokuError::NoSolution.to_string()),
            (Some(solution), 1) => value["solution"] = json!(solution.to_line()),
            (Some(solution), _) => {
                value["solution"] = json!(solution.to_line());
                value["error"] = json!(sudoku::SudokuError::MultipleSolutions.to_string());
            }
        }
        value
    })
}

fn rate(args: &RateArgs) -> Result<()> {
    each_puzzle(&args.input, |grid| {
        let start = clock::seconds();
        let rating = sudoku::rate(grid);
        let ms = (clock::seconds() - start) * 1e3;
        let mut used: Vec<(sudoku::Technique, usize)> = Vec::new();
        for step in &rating.steps {
            match used.iter_mut().find(|(t, _)| *t == step.technique) {
                Some((_, n)) => *n += 1,
                None => used.push((step.technique, 1)),
            }
        }
        used.sort();
        let techniques: serde_json::Map<String, Value> = used
            .iter()
            .map(|(t, n)| (t.name().to_string(), json!(n)))
            .collect();
        let mut value = json!({
            "puzzle": grid.to_line(),
            "rating": one_decimal(rating.rating),
            "solved": rating.solved,
            "hardest": rating.hardest.map(|t| t.name()),
            "techniques": techniques,
            "ms": ms,
        });
        if args.steps {
            value["steps"] = json!(rating
                .steps
                .iter()
                .map(|s| s.explain(grid.shape()))
                .collect::<Vec<_>>());
        }
        value
    })
}

fn generate(args: &GenerateArgs) -> Result<()> {
    let Some(shape) = Shape::with_size(args.size) else {
        bail!("--size is 4, 6 or 9, not {}", args.size);
    };
    let difficulty = match args.difficulty {
        DifficultyArg::Easy => Difficulty::Easy,
        DifficultyArg::Medium => Difficulty::Medium,
        DifficultyArg::Hard => Difficulty::Hard,
        DifficultyArg::Expert => Difficulty::Expert,
    };
    if let Some(givens) = args.givens {
        for i in 0..args.count {
            let seed = args.seed + i as u64;
            let Some(puzzle) = sudoku::generate_with_givens(shape, givens, seed, args.attempts)
            else {
                bail!(
                    "seed {seed}: no puzzle with {givens} givens in {} grids",
                    args.attempts
                );
            };
            let rating = sudoku::rate(&puzzle);
            print_json(&json!({
                "seed": seed,
                "puzzle": puzzle.to_line(),
                "givens": givens,
                "rating": one_decimal(rating.rating),
                "hardest": rating.hardest.map(|t| t.name()),
            }));
        }
        return Ok(());
    }
    let mut made = 0;
    for i in 0..args.count {
        let seed = args.seed + i as u64;
        let start = clock::seconds();
        let generated = sudoku::generate(shape, difficulty, seed, args.attempts);
        let ms = (clock::seconds() - start) * 1e3;
        match generated {
            Some(g) => {
                made += 1;
                print_json(&json!({
                    "seed": seed,
                    "puzzle": g.puzzle.to_line(),
                    "solution": g.solution.to_line(),
                    "givens": g.puzzle.filled(),
                    "rating": one_decimal(g.rating.rating),
                    "hardest": g.rating.hardest.map(|t| t.name()),
                    "difficulty": difficulty.name(),
                    "attempts": g.attempts,
                    "ms": ms,
                }));
            }
            None => eprintln!(
                "seed {seed}: no {} puzzle in {} grids ({ms:.0} ms)",
                difficulty.name(),
                args.attempts
            ),
        }
    }
    if made < args.count {
        bail!("made {made} of {} puzzles", args.count);
    }
    Ok(())
}
