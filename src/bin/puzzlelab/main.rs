//! `puzzlelab`: the native command-line tool (solvers, benchmarks, trainers and evaluators).
//!
//! One grammar: `puzzlelab <puzzle> <verb>`, a noun a puzzle: `sliding` ([`sliding`]: solve,
//! table, scramble, pdb, bench, bench-pdb, train, eval, bench-dqn, local-vi, cost-to-go), `2048`
//! ([`game2048`]: train, eval, ntuple train), `minesweeper` ([`minesweeper`]), `sudoku`
//! ([`sudoku`]), `dust` and `samegame` ([`samegame`]). The nouns are
//! [`puzzlelab::puzzles::PUZZLES`]' command names (a test holds them to it). The flat spellings
//! of earlier versions (`train`, `train-dqn-2048`, `local-vi`, …) still work, hidden, and say their
//! new name on stderr. [`training`] is the chunked training loop every trainer shares,
//! [`manifest`] the manifests written beside models, [`files`] file and machine helpers.
//! `puzzlelab <puzzle> --help` lists a puzzle's verbs.

/// Without the `learn` feature the deep-learning commands keep their flags and help, and say
/// how to build them when run: `needs_learn! { "sudoku eval": fn eval(&EvalArgs) -> (); }`
/// writes that function for builds without burn.
macro_rules! needs_learn {
    ($($what:literal: fn $name:ident($($arg:ty),*) -> $ret:ty;)*) => {$(
        #[cfg(not(feature = "learn"))]
        pub fn $name($(_: $arg),*) -> anyhow::Result<$ret> {
            anyhow::bail!("{}: {}", $what, crate::dqn::NEEDS_LEARN)
        }
    )*};
}

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
mod learner;
mod local_vi;
mod manifest;
mod minesweeper;
mod samegame;
mod sliding;
mod sudoku;
mod sudoku_bench;
mod sudoku_ga;
mod training;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};
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

/// The nouns, a puzzle each, in the registry's order (a test holds them to
/// [`puzzlelab::puzzles::PUZZLES`]): each line gives the noun's arguments and what runs them, so
/// a new puzzle's commands are its module and one line here.
macro_rules! nouns {
    ($($(#[$meta:meta])* $noun:ident($args:ty) => $run:expr,)*) => {
        /// A puzzle's commands.
        #[derive(Subcommand, Debug)]
        enum Noun {
            $($(#[$meta])* $noun($args),)*
        }

        impl Noun {
            fn run(self, command_line: &str) -> anyhow::Result<ExitCode> {
                match self {
                    $(Noun::$noun(args) => ($run)(&args, command_line),)*
                }
            }
        }
    };
}

nouns! {
    /// Sliding-tile puzzles (8-puzzle, 15-puzzle, any board up to 5x5, sun/moon): search, DQN,
    /// local value iteration, the cost-to-go network.
    Sliding(sliding::SlidingArgs) => sliding::run,
    /// 2048: the n-tuple network, expectimax, the DQN.
    #[command(name = "2048")]
    Game2048(game2048::Game2048Args) => |a, line| done(game2048::run(a, line)),
    /// Minesweeper: the exact probability solver, no-guess boards, the DQN.
    Minesweeper(minesweeper::MinesweeperArgs) => |a, line| done(minesweeper::run(a, line)),
    /// Sudoku: the exact solver, rater, generator, genetic algorithm, the DQN.
    Sudoku(sudoku::SudokuArgs) => |a, line| done(sudoku::run(a, line)),
    /// The dust puzzle (clear the board in the fewest clicks): exact solver, DQN, value network.
    Dust(samegame::DustArgs) => |a, line| done(samegame::run_dust(a, line)),
    /// SameGame (score points): nested Monte Carlo search and NRPA.
    Samegame(samegame::SameGameArgs) => |a, _| done(samegame::run_samegame(a)),
}

/// A command that succeeds with exit status 0.
fn done(result: anyhow::Result<()>) -> anyhow::Result<ExitCode> {
    result.map(|()| ExitCode::SUCCESS)
}

/// The flags of the old `eval-dqn-2048` (now `2048 eval --agent dqn`, which has more).
#[derive(clap::Args, Debug)]
struct EvalDqn2048Args {
    /// The model file.
    #[arg(long, value_name = "FILE", required = true)]
    model: String,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// The games' seed (default: the trainer's evaluation seed).
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Subcommand, Debug)]
enum Command {
    #[command(flatten)]
    Noun(Noun),

    // The flat spellings of earlier versions, hidden; each says its new name on stderr.
    #[command(hide = true)]
    Solve(sliding::SolveArgs),
    #[command(hide = true)]
    Table(sliding::TableArgs),
    #[command(hide = true)]
    Scramble(sliding::ScrambleArgs),
    #[command(hide = true)]
    Pdb(sliding::PdbArgs),
    #[command(hide = true)]
    Bench(bench::BenchArgs),
    #[command(hide = true)]
    BenchPdb(bench::BenchPdbArgs),
    #[command(hide = true)]
    Train(dqn::TrainArgs),
    #[command(hide = true)]
    Eval(dqn::EvalArgs),
    #[command(hide = true)]
    BenchDqn(dqn::BenchDqnArgs),
    #[command(hide = true, name = "train-2048")]
    Train2048(game2048::TrainArgs),
    #[command(hide = true, name = "eval-2048")]
    Eval2048(game2048::EvalArgs),
    #[command(hide = true, name = "train-dqn-2048")]
    TrainDqn2048(dqn2048::TrainArgs),
    #[command(hide = true, name = "eval-dqn-2048")]
    EvalDqn2048(EvalDqn2048Args),
    #[command(hide = true)]
    LocalVi(local_vi::LocalViArgs),
    #[command(hide = true)]
    CostToGo(cost_to_go::CostToGoArgs),
}

impl Command {
    /// An old flat spelling as its noun-first command, with both names (`None` for a noun).
    fn renamed(self) -> Option<(&'static str, &'static str, Command)> {
        use game2048::{Game2048Args, Game2048Command, NtupleArgs, NtupleCommand};
        use sliding::{SlidingArgs, SlidingCommand};
        let slide = |command| Command::Noun(Noun::Sliding(SlidingArgs { command }));
        let game = |command| Command::Noun(Noun::Game2048(Game2048Args { command }));
        Some(match self {
            Command::Solve(a) => ("solve", "sliding solve", slide(SlidingCommand::Solve(a))),
            Command::Table(a) => ("table", "sliding table", slide(SlidingCommand::Table(a))),
            Command::Scramble(a) => (
                "scramble",
                "sliding scramble",
                slide(SlidingCommand::Scramble(a)),
            ),
            Command::Pdb(a) => ("pdb", "sliding pdb", slide(SlidingCommand::Pdb(a))),
            Command::Bench(a) => ("bench", "sliding bench", slide(SlidingCommand::Bench(a))),
            Command::BenchPdb(a) => (
                "bench-pdb",
                "sliding bench-pdb",
                slide(SlidingCommand::BenchPdb(a)),
            ),
            Command::Train(a) => (
                "train",
                "sliding train",
                slide(SlidingCommand::Train(a.into())),
            ),
            Command::Eval(a) => ("eval", "sliding eval", slide(SlidingCommand::Eval(a))),
            Command::BenchDqn(a) => (
                "bench-dqn",
                "sliding bench-dqn",
                slide(SlidingCommand::BenchDqn(a)),
            ),
            Command::LocalVi(a) => (
                "local-vi",
                "sliding local-vi",
                slide(SlidingCommand::LocalVi(a)),
            ),
            Command::CostToGo(a) => (
                "cost-to-go",
                "sliding cost-to-go",
                slide(SlidingCommand::CostToGo(a)),
            ),
            Command::Train2048(a) => (
                "train-2048",
                "2048 ntuple train",
                game(Game2048Command::Ntuple(NtupleArgs {
                    command: NtupleCommand::Train(a),
                })),
            ),
            Command::Eval2048(a) => ("eval-2048", "2048 eval", game(Game2048Command::Eval(a))),
            Command::TrainDqn2048(a) => (
                "train-dqn-2048",
                "2048 train",
                game(Game2048Command::Train(a.into())),
            ),
            Command::EvalDqn2048(a) => (
                "eval-dqn-2048",
                "2048 eval --agent dqn",
                game(Game2048Command::Eval(game2048::EvalArgs {
                    model: Some(a.model),
                    games: a.games,
                    seed: a.seed,
                    agent: game2048::AgentArg::Dqn,
                    depth: 2,
                })),
            ),
            Command::Noun(_) => return None,
        })
    }
}

/// Runs a command; an old spelling says its new name in one line on stderr, then runs as it.
fn run(command: Command, command_line: &str) -> anyhow::Result<ExitCode> {
    match command {
        Command::Noun(noun) => noun.run(command_line),
        old => {
            let (old, new, command) = old.renamed().expect("a noun ran above");
            eprintln!(
                "puzzlelab: `puzzlelab {old}` is now `puzzlelab {new}` (the old spelling still works)"
            );
            run(command, command_line)
        }
    }
}

fn main() -> ExitCode {
    // clap prints usage errors itself and exits with 2; `--help` and `--version` exit with 0.
    let definition = Cli::command();
    let matches = definition.clone().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    learner::note_given_flags(given_flags(&definition, &matches));
    let command_line = files::command_line();
    finish(run(cli.command, &command_line))
}

/// The long flags typed on the command line for the command that runs (its defaults left out):
/// what `--resume` checks against the model's record.
fn given_flags(definition: &clap::Command, matches: &ArgMatches) -> Vec<String> {
    let (mut command, mut matches) = (definition, matches);
    while let Some((name, sub)) = matches.subcommand() {
        command = command.find_subcommand(name).expect("clap matched it");
        matches = sub;
    }
    command
        .get_arguments()
        .filter(|arg| {
            matches.value_source(arg.get_id().as_str())
                == Some(clap::parser::ValueSource::CommandLine)
        })
        .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")))
        .collect()
}

/// The exit status of a command's result: its own on success, 1 (with the error) on failure.
fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
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

    #[test]
    fn the_visible_nouns_are_the_puzzle_registry() {
        let cli = Cli::command();
        let nouns: Vec<&str> = cli
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(|c| c.get_name())
            .collect();
        let registry: Vec<&str> = puzzlelab::puzzles::PUZZLES.iter().map(|p| p.id).collect();
        assert_eq!(nouns, registry);
    }
}
