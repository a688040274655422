//! `puzzlelab`: the native command-line tool (solvers, benchmarks, trainers and evaluators).
//!
//! One module per command family: [`sliding`] (solve, table, scramble, pdb), [`bench`] (bench,
//! bench-pdb), [`dqn`] (train, eval, bench-dqn and `solve --algo dqn`; `--features learn`),
//! [`local_vi`] (`local-vi eval`, `solve --algo local-vi`), [`game2048`] (train-2048, eval-2048) and [`dqn2048`] (train-dqn-2048, eval-dqn-2048;
//! `--features learn`), [`cost_to_go`] (`cost-to-go data|train|eval`: the 15-puzzle value network), [`minesweeper`] (`minesweeper eval`, `no-guess`; `train` in [`dqn_minesweeper`], `--features learn`). [`training`] is the chunked training loop every trainer shares,
//! [`manifest`] the manifests written beside models, [`files`] file and machine helpers.
//! `puzzlelab help <command>` prints each command's flags.

mod bench;
mod cost_to_go;
mod dqn;
mod dqn2048;
mod dqn_dust;
mod dqn_minesweeper;
#[cfg(feature = "learn")]
mod dqn_sliding;
mod dqn_sudoku;
mod dust_value;
mod files;
mod game2048;
mod local_vi;
mod manifest;
mod minesweeper;
mod samegame;
mod sliding;
mod sudoku;
mod sudoku_bench;
mod sudoku_ga;
mod training;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Puzzles, optimal search and reinforcement learning: the same Rust code as the page, natively.
///
/// Positions are written `123456780`, `"1 2 3 4 5 6 7 8 0"`, `1,2,3,8,_,4,7,6,5` or as a
/// multi-line grid; `0` or `_` is the blank. Commands print JSON on stdout and progress on stderr.
/// Exit status: 0 on success, 1 when the work failed, 2 for a usage error.
#[derive(Parser, Debug)]
#[command(name = "puzzlelab", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solves sliding-puzzle positions (one JSON object per position).
    Solve(sliding::SolveArgs),
    /// Builds the exact distance table of a board of at most 9 cells and prints its histogram.
    Table(sliding::TableArgs),
    /// Prints scrambled positions.
    Scramble(sliding::ScrambleArgs),
    /// Builds the 15-puzzle's additive pattern databases for a goal and writes them.
    Pdb(sliding::PdbArgs),
    /// Times the exact 8-puzzle table, Q-learning on sun/moon and IDA* on random 15-puzzles.
    Bench(bench::BenchArgs),
    /// Times IDA* with the shipped pattern databases on Korf's 100 and random 15-puzzles.
    BenchPdb(bench::BenchPdbArgs),
    /// Trains a deep Q-network on a sliding puzzle (`--features learn`).
    Train(dqn::TrainArgs),
    /// Evaluates a sliding-puzzle DQN model on fresh positions (`--features learn`).
    Eval(dqn::EvalArgs),
    /// Times DQN training steps and greedy moves on the CPU backend (`--features learn`).
    BenchDqn(dqn::BenchDqnArgs),
    /// 2048: learns an n-tuple network by TD(0) on afterstates.
    #[command(name = "train-2048")]
    Train2048(game2048::TrainArgs),
    /// 2048: plays full games with an n-tuple network, expectimax or random moves.
    #[command(name = "eval-2048")]
    Eval2048(game2048::EvalArgs),
    /// 2048: trains the deep Q-network of Mehta's RL paper (`--features learn`).
    #[command(name = "train-dqn-2048")]
    TrainDqn2048(dqn2048::TrainArgs),
    /// 2048: plays full games with a DQN's greedy legal moves (`--features learn`).
    #[command(name = "eval-dqn-2048")]
    EvalDqn2048(dqn2048::EvalArgs),
    /// Minesweeper: `puzzlelab minesweeper eval …`.
    Minesweeper(minesweeper::MinesweeperArgs),
    /// Sudoku: `puzzlelab sudoku solve|bench|…`.
    Sudoku(sudoku::SudokuArgs),
    /// Sliding puzzles by local value iteration: `puzzlelab local-vi eval …`.
    LocalVi(local_vi::LocalViArgs),
    /// The dust puzzle (fewest clicks): `puzzlelab dust solve|eval …`.
    Dust(samegame::DustArgs),
    /// SameGame (score): `puzzlelab samegame solve …`.
    Samegame(samegame::SameGameArgs),
    /// A 15-puzzle value network learned from optimal solutions: `puzzlelab cost-to-go data|train`.
    CostToGo(cost_to_go::CostToGoArgs),
}

fn main() -> ExitCode {
    // clap prints usage errors itself and exits with 2; `--help` and `--version` exit with 0.
    let cli = Cli::parse();
    let command_line = files::command_line();
    let result = match cli.command {
        Command::Solve(args) => return sliding::solve(&args),
        Command::Table(args) => sliding::table(&args),
        Command::Scramble(args) => sliding::scramble(&args),
        Command::Pdb(args) => sliding::build_databases(&args, &command_line),
        Command::Bench(args) => bench::bench(&args),
        Command::BenchPdb(args) => bench::bench_pdb(&args),
        Command::Train(args) => dqn::train(&args, &command_line),
        Command::Eval(args) => dqn::eval(&args),
        Command::BenchDqn(args) => dqn::bench_dqn(&args),
        Command::Train2048(args) => game2048::train(&args, &command_line),
        Command::Eval2048(args) => game2048::eval(&args),
        Command::TrainDqn2048(args) => dqn2048::train(&args, &command_line),
        Command::EvalDqn2048(args) => dqn2048::eval(&args),
        Command::Minesweeper(args) => minesweeper::run(&args, &command_line),
        Command::Sudoku(args) => sudoku::run(&args, &command_line),
        Command::LocalVi(args) => local_vi::run(&args),
        Command::Dust(args) => samegame::run_dust(&args, &command_line),
        Command::Samegame(args) => samegame::run_samegame(&args),
        Command::CostToGo(args) => match &args.command {
            cost_to_go::CostToGoCommand::Data(args) => cost_to_go::data(args, &command_line),
            cost_to_go::CostToGoCommand::Train(args) => cost_to_go::train(args, &command_line),
            cost_to_go::CostToGoCommand::Eval(args) => cost_to_go::eval(args, &command_line),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("puzzlelab: {error:#}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
