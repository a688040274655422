//! `puzzlelab sudoku …`: Sudoku's commands.

use crate::sudoku_bench;
use anyhow::Result;
use clap::{Args, Subcommand};

/// `puzzlelab sudoku <command>`.
#[derive(Args, Debug)]
pub struct SudokuArgs {
    #[command(subcommand)]
    pub command: SudokuCommand,
}

/// Sudoku's commands.
#[derive(Subcommand, Debug)]
pub enum SudokuCommand {
    /// Times our exact solver beside the `sudoku` crate on puzzle files (JSON).
    Bench(sudoku_bench::BenchArgs),
}

/// Runs a `sudoku` command.
pub fn run(args: &SudokuArgs, _command_line: &str) -> Result<()> {
    match &args.command {
        SudokuCommand::Bench(args) => sudoku_bench::bench(args),
    }
}
