//! `puzzlelab minesweeper …`: Minesweeper's commands (`eval`, `no-guess`, and with `--features
//! learn` `train`, in `dqn_minesweeper.rs`).

use anyhow::{anyhow, bail, Result};
use clap::{Args, Subcommand, ValueEnum};
use puzzlelab::clock;
use puzzlelab::env::minesweeper::{
    evaluate, game_seed, play_solver_game, Cell, FirstCell, FirstClick, GameResult, Layout, Level,
    Minefield, Status, Strategy,
};
use puzzlelab::rng::Rng;
use serde_json::json;

use crate::files::machine;

/// `puzzlelab minesweeper <command>`.
#[derive(Args, Debug)]
pub struct MinesweeperArgs {
    #[command(subcommand)]
    pub command: MinesCommand,
}

/// Minesweeper's commands.
#[derive(Subcommand, Debug)]
pub enum MinesCommand {
    /// Plays seeded games with an agent; prints JSON: games, wins, win rate and its 95%
    /// interval, guesses and milliseconds per game.
    Eval(EvalArgs),
    /// Draws no-guess boards (the first click as given); prints JSON: boards found, draws and
    /// milliseconds a board (mean, median, largest).
    NoGuess(NoGuessArgs),
    /// Trains a deep Q-network (--features learn); see `minesweeper help train`.
    Train(Box<crate::dqn_minesweeper::TrainArgs>),
}

/// `puzzlelab minesweeper no-guess`.
#[derive(Args, Debug)]
pub struct NoGuessArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Boards to draw.
    #[arg(long, default_value_t = 100)]
    pub boards: usize,
    /// The boards' seed (board i's depends on this seed and i only).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AgentArg {
    /// The exact probability solver.
    Solver,
    /// Uniformly random covered cells.
    Random,
    /// A deep Q-network's greedy covered cell (--model FILE; --features learn).
    Dqn,
}

/// The board: a level, or width, height and mines (which override the level's).
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// beginner (9×9/10), intermediate (16×16/40) or expert (30×16/99).
    #[arg(long, default_value = "expert")]
    pub level: String,
    /// Columns (1 to 50).
    #[arg(long)]
    pub width: Option<usize>,
    /// Rows (1 to 50).
    #[arg(long)]
    pub height: Option<usize>,
    /// Mines.
    #[arg(long)]
    pub mines: Option<usize>,
    /// safe (never a mine under the first click), opening (nor around it) or none.
    #[arg(long, default_value = "safe")]
    pub first_click: String,
    /// Where the first click goes: corner, centre or X,Y (0-based column, row).
    #[arg(long, default_value = "corner")]
    pub first_cell: String,
}

impl BoardArgs {
    /// The layout, the rule and the first cell, checked.
    pub fn resolve(&self) -> Result<(Layout, FirstClick, usize)> {
        let level = Level::parse(&self.level).ok_or_else(|| {
            anyhow!(
                "unknown level {:?}: beginner, intermediate or expert",
                self.level
            )
        })?;
        let base = level.layout();
        let layout = Layout::new(
            self.width.unwrap_or(base.width),
            self.height.unwrap_or(base.height),
            self.mines.unwrap_or(base.mines),
        );
        let rule = FirstClick::parse(&self.first_click).ok_or_else(|| {
            anyhow!(
                "unknown first-click rule {:?}: safe, opening or none",
                self.first_click
            )
        })?;
        layout.check(rule)?;
        let first = FirstCell::parse(&self.first_cell)
            .ok_or_else(|| {
                anyhow!(
                    "unknown first cell {:?}: corner, centre or X,Y",
                    self.first_cell
                )
            })?
            .cell(&layout)?;
        Ok((layout, rule, first))
    }
}

/// `puzzlelab minesweeper eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Who plays.
    #[arg(long, value_enum, default_value = "solver")]
    pub agent: AgentArg,
    /// --agent dqn: the model file (a fully convolutional one plays any board size).
    #[arg(long, value_name = "FILE")]
    pub model: Option<String>,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// The games' seed (game i's mines depend on this seed and i only).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Threads to play on (the results do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The solver's guesses: cells within this much safety of the safest are weighed by progress.
    #[arg(long, default_value_t = Strategy::default().tolerance)]
    pub tolerance: f64,
    /// The solver's guesses: the worth of progress against safety.
    #[arg(long, default_value_t = Strategy::default().progress_weight)]
    pub progress_weight: f64,
    /// The solver's guesses: how many candidates to look ahead (0: the safest cell).
    #[arg(long, default_value_t = Strategy::default().candidates)]
    pub candidates: usize,
    /// The solver's guesses: score by the chance of surviving the guess and the next move.
    #[arg(long)]
    pub two_step: bool,
    /// The solver's guesses: search the endgame exhaustively when at most this many mine
    /// placements remain (0: never; the search has fixed budgets of steps and work, so a large
    /// limit mostly gives up on the positions it adds).
    #[arg(long, default_value_t = Strategy::default().endgame)]
    pub endgame: usize,
}

/// A game of uniformly random reveals (of covered cells).
fn play_random_game(
    layout: Layout,
    rule: FirstClick,
    first: usize,
    seed: u64,
) -> Result<GameResult> {
    let mut game = Minefield::new(layout, rule, seed)?;
    let mut rng = Rng::new(seed ^ 0x5EED);
    game.reveal(first)?;
    let mut moves = 1;
    while game.status() == Status::Playing {
        let covered: Vec<usize> = (0..layout.cells())
            .filter(|&c| !matches!(game.cells()[c], Cell::Revealed(_)))
            .collect();
        game.reveal(*rng.choose(&covered))?;
        moves += 1;
    }
    Ok(GameResult {
        won: game.status() == Status::Won,
        guesses: moves - 1,
        moves,
        fatal: None,
    })
}

/// Runs `puzzlelab minesweeper <command>`.
pub fn run(args: &MinesweeperArgs, command_line: &str) -> Result<()> {
    match &args.command {
        MinesCommand::Eval(args) => eval(args),
        MinesCommand::NoGuess(args) => no_guess(args),
        MinesCommand::Train(args) => crate::dqn_minesweeper::train(args, command_line),
    }
}

fn no_guess(args: &NoGuessArgs) -> Result<()> {
    let (layout, rule, first) = args.board.resolve()?;
    if args.boards == 0 {
        bail!("--boards must be at least 1");
    }
    let (mut found, mut draws, mut ms) = (0, Vec::new(), Vec::new());
    for i in 0..args.boards {
        let started = clock::seconds();
        let mut game = Minefield::new_no_guess(layout, rule, game_seed(args.seed, i))?;
        game.reveal(first)?;
        ms.push((clock::seconds() - started) * 1000.0);
        found += game.no_guess_found() as usize;
        draws.push(game.no_guess_attempts());
    }
    let mut sorted = ms.clone();
    sorted.sort_by(f64::total_cmp);
    let report = json!({
        "boards": args.boards,
        "found": found,
        "draws_mean": draws.iter().sum::<usize>() as f64 / args.boards as f64,
        "draws_max": draws.iter().max(),
        "ms_mean": ms.iter().sum::<f64>() / args.boards as f64,
        "ms_median": sorted[sorted.len() / 2],
        "ms_max": sorted[sorted.len() - 1],
        "board": {
            "width": layout.width, "height": layout.height, "mines": layout.mines,
            "first_click": rule.name(), "first_cell": [first % layout.width, first / layout.width],
        },
        "seed": args.seed,
        "machine": machine(),
    });
    println!("{report}");
    Ok(())
}

fn eval(args: &EvalArgs) -> Result<()> {
    let (layout, rule, first) = args.board.resolve()?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let strategy = Strategy {
        tolerance: args.tolerance,
        progress_weight: args.progress_weight,
        candidates: args.candidates,
        two_step: args.two_step,
        endgame: args.endgame,
    };
    let evaluation = match args.agent {
        AgentArg::Solver => evaluate(args.games, args.seed, args.threads, |seed| {
            play_solver_game(layout, rule, first, seed, &strategy)
        })?,
        AgentArg::Random => evaluate(args.games, args.seed, args.threads, |seed| {
            play_random_game(layout, rule, first, seed)
                .map_err(|e| e.downcast().expect("only board errors"))
        })?,
        AgentArg::Dqn => {
            let model = args
                .model
                .as_deref()
                .ok_or_else(|| anyhow!("--agent dqn needs --model FILE"))?;
            crate::dqn_minesweeper::eval_model(model, layout, rule, first, args.games, args.seed)?
        }
    };
    let agent = match args.agent {
        AgentArg::Solver => "solver",
        AgentArg::Random => "random",
        AgentArg::Dqn => "dqn",
    };
    let mut report = serde_json::to_value(&evaluation)?;
    report["agent"] = json!(agent);
    report["board"] = json!({
        "width": layout.width, "height": layout.height, "mines": layout.mines,
        "first_click": rule.name(), "first_cell": [first % layout.width, first / layout.width],
    });
    report["seed"] = json!(args.seed);
    if let Some(model) = &args.model {
        report["model"] = json!(model);
    }
    if args.agent == AgentArg::Solver {
        report["strategy"] = json!({
            "tolerance": strategy.tolerance,
            "progress_weight": strategy.progress_weight,
            "candidates": strategy.candidates,
            "two_step": strategy.two_step,
            "endgame": strategy.endgame,
        });
    }
    report["machine"] = json!(machine());
    println!("{report}");
    Ok(())
}
