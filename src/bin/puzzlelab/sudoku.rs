//! `puzzlelab sudoku …`: Sudoku's commands.

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
    /// The coursework's genetic algorithm on one puzzle; prints JSON.
    Ga(crate::sudoku_ga::GaArgs),
}

/// Runs a `sudoku` command.
pub fn run(args: &SudokuArgs, _command_line: &str) -> Result<()> {
    match &args.command {
        SudokuCommand::Ga(args) => crate::sudoku_ga::ga(args),
    }
}
