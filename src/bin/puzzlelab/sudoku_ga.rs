//! `puzzlelab sudoku ga`: the coursework's genetic algorithm on one puzzle, under a time limit.

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use puzzlelab::clock;
use puzzlelab::env::sudoku::{ga_puzzle, GaConfig, GeneticAlgorithm, Initialisation};
use serde_json::json;

/// `puzzlelab sudoku ga`.
#[derive(Args, Debug)]
pub struct GaArgs {
    /// The puzzle: 81 characters row-major ('.' or '0' empty), or grid1|grid2|grid3 (the
    /// experiment's grids of 29, 33 and 23 givens, docs/sudoku.md).
    #[arg(long, default_value = "grid1")]
    pub puzzle: String,
    /// Individuals per generation.
    #[arg(long, default_value_t = 1000)]
    pub population: usize,
    /// Stops after this many seconds (checked after each generation).
    #[arg(long, default_value_t = 60.0)]
    pub seconds: f64,
    /// Stops after this many generations.
    #[arg(long)]
    pub generations: Option<u64>,
    /// The run's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Which unit starts as a permutation (and which the operators exchange).
    #[arg(long, value_enum, default_value_t = InitArg::Rows)]
    pub init: InitArg,
    /// After mutation, apply each unit's best improving swap (off in the coursework).
    #[arg(long)]
    pub repair: bool,
    /// Adds every generation's best and mean fitness to the JSON (`trace`).
    #[arg(long)]
    pub trace: bool,
}

/// `--init`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InitArg {
    /// The coursework's: rows are permutations.
    Rows,
    /// Its proposal: boxes are permutations.
    Boxes,
}

/// Runs the GA and prints one JSON object: solved, best fitness, generations, seconds (and to
/// reach 243), the best grid, and with `--trace` the per-generation best and mean.
pub fn ga(args: &GaArgs) -> Result<()> {
    let puzzle = ga_puzzle(&args.puzzle)?;
    let config = GaConfig {
        population: args.population,
        initialisation: match args.init {
            InitArg::Rows => Initialisation::Rows,
            InitArg::Boxes => Initialisation::Boxes,
        },
        repair: args.repair,
        ..GaConfig::default()
    };
    let start = clock::seconds();
    let mut ga =
        GeneticAlgorithm::new(&puzzle, config, args.seed).context("the GA cannot start")?;
    let mut trace = vec![ga.stats()];
    let mut seconds_to_solve = ga.solved().then(|| clock::seconds() - start);
    let cap = args.generations.unwrap_or(u64::MAX);
    while !ga.solved() && ga.generation() < cap && clock::seconds() - start < args.seconds {
        let stats = ga.run_generations(1);
        if args.trace {
            trace.extend(stats);
        }
        if ga.solved() {
            seconds_to_solve = Some(clock::seconds() - start);
        }
    }
    let best = ga.best();
    let mut out = json!({
        "puzzle": puzzle.iter().map(|d| char::from(b'0' + d)).collect::<String>(),
        "givens": puzzle.iter().filter(|&&d| d != 0).count(),
        "population": args.population,
        "seed": args.seed,
        "init": format!("{:?}", args.init).to_lowercase(),
        "repair": args.repair,
        "solved": ga.solved(),
        "best_fitness": ga.best_fitness(),
        "mean_fitness": ga.stats().mean,
        "generations": ga.generation(),
        "seconds": clock::seconds() - start,
        "seconds_to_solve": seconds_to_solve,
        "grid": best.iter().map(|d| char::from(b'0' + d)).collect::<String>(),
    });
    if args.trace {
        out["trace"] = json!(trace);
    }
    println!("{out}");
    Ok(())
}
