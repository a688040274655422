//! `puzzlelab dust …` and `puzzlelab samegame …`: the dust puzzle's exact solver and evaluation,
//! SameGame's Monte Carlo searches.

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use puzzlelab::clock;
use puzzlelab::env::minesweeper::game_seed;
use puzzlelab::env::samegame::{
    nested_search, nrpa, solve_fewest_clicks, Board, ExactLimits, ExactSolution, McLimits, Rules,
};
use serde_json::{json, Value};
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::files::print_json;

/// `puzzlelab dust <command>`.
#[derive(Args, Debug)]
pub struct DustArgs {
    #[command(subcommand)]
    pub command: DustCommand,
}

/// The dust puzzle's commands.
#[derive(Subcommand, Debug)]
pub enum DustCommand {
    /// Finds the fewest clicks that clear each board read from stdin (rows top first, one
    /// character a cell: 1-9 or A-I colours, `.` empty; a blank line between boards); prints one
    /// JSON line a board.
    Solve(DustSolveArgs),
    /// Plays an agent on seeded random boards and compares it with the optimum (JSON).
    Eval(DustEvalArgs),
    /// Deep Q-learning: the blog's batched DQN or puzzlelab's full backups (needs `--features
    /// learn`).
    Train(crate::dqn_dust::TrainArgs),
    /// Draws part-played boards, solves each exactly and appends its optimal clearing to --out:
    /// the examples of the value network (`dust value-train`).
    ValueData(crate::dust_value::ValueDataArgs),
    /// Trains the value network (one output, minus the clicks left) on `value-data` files
    /// (needs `--features learn`); it plays with `eval --agent dqn --play beam`.
    ValueTrain(crate::dust_value::DustValueTrainArgs),
}

/// The exact solver's limits on the command line.
#[derive(Args, Debug, Clone, Copy)]
pub struct ExactArgs {
    /// Seconds a board may take; past it the best clearing found is printed with
    /// `"optimal": false`.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Positions expanded a board at most.
    #[arg(long, default_value_t = u64::MAX)]
    pub max_nodes: u64,
    /// Positions the transposition table keeps at most.
    #[arg(long, default_value_t = ExactLimits::default().max_table)]
    pub max_table: usize,
    /// Positions a layer of the beam search for the first clearing keeps (0 or 1: the greedy
    /// clearing); also the width of `dust eval --agent dqn --play beam`.
    #[arg(long, default_value_t = ExactLimits::default().beam_width)]
    pub beam_width: usize,
}

/// `puzzlelab dust solve`.
#[derive(Args, Debug)]
pub struct DustSolveArgs {
    #[command(flatten)]
    pub limits: ExactArgs,
}

/// Who plays in `dust eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DustAgent {
    /// The exact solver (the optimum, proved within the time limit).
    Optimal,
    /// Each time the click that leaves the fewest groups (ties: the largest group).
    Greedy,
    /// A click on a random pile.
    Random,
    /// A trained Q-network (`--model FILE`, from `dust train`): its greedy click among the piles.
    Dqn,
}

/// `puzzlelab dust eval`.
#[derive(Args, Debug)]
pub struct DustEvalArgs {
    /// Who plays.
    #[arg(long, value_enum, default_value = "optimal")]
    pub agent: DustAgent,
    /// `--agent dqn`: the model file.
    #[arg(long, value_name = "FILE", required_if_eq("agent", "dqn"))]
    pub model: Option<String>,
    /// `--agent dqn`: how the network chooses (auto: as its learner plays, with lookahead for
    /// puzzlelab's backups learner, greedily for the blog's).
    #[arg(long, value_enum, default_value = "auto")]
    pub play: crate::dqn_dust::PlayArg,
    /// Boards.
    #[arg(long, default_value_t = 100)]
    pub boards: usize,
    /// The seed of the boards (board i is `Board::random(rules, game_seed(seed, i))`).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (the results do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Also solve each board exactly, to report the gap to the optimum (on by default for
    /// agents other than `optimal`).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub compare: bool,
    #[command(flatten)]
    pub limits: ExactArgs,
}

/// `puzzlelab samegame <command>`.
#[derive(Args, Debug)]
pub struct SameGameArgs {
    #[command(subcommand)]
    pub command: SameGameCommand,
}

/// SameGame's commands.
#[derive(Subcommand, Debug)]
pub enum SameGameCommand {
    /// Searches each board read from stdin (15 rows of 15 digits, top row first, a blank line
    /// between boards) for its best score; prints one JSON line a board and a total.
    Solve(SameGameSolveArgs),
}

/// SameGame's searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Algo {
    /// Nested Monte Carlo search (Cazenave 2009), tabu-colour playouts.
    Nmcs,
    /// Nested rollout policy adaptation (Rosin 2011), biased against the tabu colour.
    Nrpa,
}

/// `puzzlelab samegame solve`.
#[derive(Args, Debug)]
pub struct SameGameSolveArgs {
    /// The search.
    #[arg(long, value_enum, default_value = "nrpa")]
    pub algo: Algo,
    /// Seconds a board (wall time: with `--threads 2` both threads search the same board for
    /// this long, with different seeds, and the better game is kept).
    #[arg(long, default_value_t = 60.0)]
    pub seconds: f64,
    /// Nesting level (NMCS default 2; NRPA default 3).
    #[arg(long)]
    pub level: Option<u32>,
    /// NRPA's iterations a level.
    #[arg(long, default_value_t = 100)]
    pub iterations: u32,
    /// The seed of the playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads searching each board.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Instead of reading stdin, search this many seeded random boards (board i is
    /// `Board::random(Rules::samegame(), game_seed(--board-seed, i))`).
    #[arg(long)]
    pub random: Option<usize>,
    /// The seed of `--random`'s boards.
    #[arg(long, default_value_t = 0)]
    pub board_seed: u64,
    /// NRPA: added to the weight of every move of the most common colour.
    #[arg(long, default_value_t = McLimits::new(0.0, 1).tabu_bias, allow_hyphen_values = true)]
    pub tabu_bias: f64,
}

/// Runs `puzzlelab dust …`.
pub fn run_dust(args: &DustArgs, command_line: &str) -> Result<()> {
    match &args.command {
        DustCommand::Solve(a) => dust_solve(a),
        DustCommand::Eval(a) => dust_eval(a),
        DustCommand::Train(a) => crate::dqn_dust::train(a, command_line),
        DustCommand::ValueData(a) => crate::dust_value::data(a, command_line),
        DustCommand::ValueTrain(a) => crate::dust_value::train(a, command_line),
    }
}

/// Runs `puzzlelab samegame …`.
pub fn run_samegame(args: &SameGameArgs) -> Result<()> {
    match &args.command {
        SameGameCommand::Solve(a) => samegame_solve(a),
    }
}

/// The boards of stdin: blocks of lines separated by blank lines.
fn read_boards(rules: Rules, any_size: bool) -> Result<Vec<Result<Board, String>>> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .context("reading boards from stdin")?;
    let mut blocks: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            if !current.is_empty() {
                blocks.push(std::mem::take(&mut current));
            }
        } else {
            current.push_str(line.trim());
            current.push('\n');
        }
    }
    if !current.is_empty() {
        blocks.push(current);
    }
    if blocks.is_empty() {
        bail!("no board on stdin");
    }
    Ok(blocks
        .iter()
        .map(|b| {
            if any_size {
                Board::parse_any(rules, b)
            } else {
                Board::parse(rules, b)
            }
            .map_err(|e| e.to_string())
        })
        .collect())
}

fn exact(board: &Board, limits: ExactArgs) -> Result<(ExactSolution, f64)> {
    let start = clock::seconds();
    let deadline = start + limits.seconds;
    let found = solve_fewest_clicks(
        board,
        ExactLimits {
            max_nodes: limits.max_nodes,
            max_table: limits.max_table,
            beam_width: limits.beam_width,
        },
        &mut |_| clock::seconds() < deadline,
    )?;
    Ok((found, (clock::seconds() - start) * 1e3))
}

fn solution_json(board: &Board, found: &ExactSolution, ms: f64) -> Value {
    json!({
        "board": board.to_text(),
        "clicks": found.clicks.iter().map(|&(c, r)| [c, r]).collect::<Vec<_>>(),
        "length": found.clicks.len(),
        "optimal": found.optimal,
        "lower_bound": found.lower_bound,
        "nodes": found.nodes,
        "table": found.table,
        "ms": ms,
    })
}

fn dust_solve(args: &DustSolveArgs) -> Result<()> {
    let mut failed = false;
    for board in read_boards(Rules::dust(), true)? {
        let value = match board {
            Err(e) => {
                failed = true;
                json!({ "error": e })
            }
            Ok(board) => match exact(&board, args.limits) {
                Ok((found, ms)) => solution_json(&board, &found, ms),
                Err(e) => {
                    failed = true;
                    json!({ "board": board.to_text(), "error": e.to_string() })
                }
            },
        };
        println!("{value}");
    }
    if failed {
        bail!("some boards could not be solved (see their \"error\")");
    }
    Ok(())
}

/// The greedy clearing ([`Board::greedy_clearing`]) as (column, row) clicks.
fn greedy_clicks(board: &Board) -> Vec<(usize, usize)> {
    let w = board.width();
    board
        .greedy_clearing()
        .into_iter()
        .map(|cell| (cell % w, cell / w))
        .collect()
}

fn random_clicks(board: &Board, seed: u64) -> Vec<(usize, usize)> {
    let mut rng = puzzlelab::rng::Rng::new(seed);
    let mut b = board.clone();
    let mut clicks = Vec::new();
    let w = b.width();
    while !b.is_over() {
        let piles: Vec<usize> = (0..b.cells().len()).filter(|&i| b.is_legal(i)).collect();
        let cell = *rng.choose(&piles);
        clicks.push((cell % w, cell / w));
        b.click_cell(cell).expect("a legal pile");
    }
    clicks
}

/// Runs `f` over `0..n` on `threads` threads; results in index order.
fn parallel_map<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let value = f(i);
                out.lock().unwrap()[i] = Some(value);
            });
        }
    });
    out.into_inner()
        .unwrap()
        .into_iter()
        .map(|v| v.expect("every index ran"))
        .collect()
}

fn dust_eval(args: &DustEvalArgs) -> Result<()> {
    let rules = Rules::dust();
    let start = clock::seconds();
    let compare = args.compare || args.agent == DustAgent::Optimal;
    // The network plays every board at once (one forward pass a click for all boards).
    let (learnt, learnt_ms) = match (&args.model, args.agent) {
        (Some(model), DustAgent::Dqn) => {
            let boards = (0..args.boards)
                .map(|i| Board::random(rules, game_seed(args.seed, i)))
                .collect::<Result<Vec<_>, _>>()?;
            let t = clock::seconds();
            let cells =
                crate::dqn_dust::dqn_clicks(model, &boards, args.play, args.limits.beam_width)?;
            let ms = (clock::seconds() - t) * 1e3 / args.boards.max(1) as f64;
            let w = rules.width;
            let clicks: Vec<Vec<(usize, usize)>> = cells
                .iter()
                .map(|c| c.iter().map(|&cell| (cell % w, cell / w)).collect())
                .collect();
            (Some(clicks), ms)
        }
        _ => (None, 0.0),
    };
    let rows = parallel_map(args.boards, args.threads, |i| -> Result<Value> {
        let seed = game_seed(args.seed, i);
        let board = Board::random(rules, seed)?;
        let t = clock::seconds();
        let (clicks, optimal_run) = match args.agent {
            DustAgent::Dqn => (learnt.as_ref().expect("played above")[i].clone(), None),
            DustAgent::Optimal => {
                let (found, _) = exact(&board, args.limits)?;
                (found.clicks.clone(), Some(found))
            }
            DustAgent::Greedy => (greedy_clicks(&board), None),
            DustAgent::Random => (random_clicks(&board, seed ^ 0x5EED), None),
        };
        let agent_ms = match args.agent {
            DustAgent::Dqn => learnt_ms,
            _ => (clock::seconds() - t) * 1e3,
        };
        let optimum = match (compare, optimal_run) {
            (_, Some(found)) => Some(found),
            (true, None) => Some(exact(&board, args.limits)?.0),
            (false, None) => None,
        };
        Ok(json!({
            "clicks": clicks.len(),
            "ms": agent_ms,
            "optimum": optimum.as_ref().map(|o| o.clicks.len()),
            "proved": optimum.as_ref().map(|o| o.optimal),
            "lower_bound": optimum.as_ref().map(|o| o.lower_bound),
        }))
    });
    let rows: Vec<Value> = rows.into_iter().collect::<Result<_>>()?;
    let n = rows.len().max(1) as f64;
    let clicks: Vec<usize> = rows
        .iter()
        .map(|r| r["clicks"].as_u64().unwrap() as usize)
        .collect();
    let mut distribution = std::collections::BTreeMap::new();
    for &c in &clicks {
        *distribution.entry(c).or_insert(0usize) += 1;
    }
    let mut ms: Vec<f64> = rows.iter().map(|r| r["ms"].as_f64().unwrap()).collect();
    ms.sort_by(f64::total_cmp);
    let mut report = json!({
        "agent": format!("{:?}", args.agent).to_lowercase(),
        "model": args.model,
        "play": format!("{:?}", args.play).to_lowercase(),
        "rules": rules.id(),
        "boards": rows.len(),
        "seed": args.seed,
        "mean_clicks": clicks.iter().sum::<usize>() as f64 / n,
        "distribution": distribution,
        "ms_mean": ms.iter().sum::<f64>() / n,
        "ms_median": ms.get(ms.len() / 2).copied().unwrap_or(0.0),
        "ms_max": ms.last().copied().unwrap_or(0.0),
        "seconds_limit": args.limits.seconds,
        "wall_seconds": clock::seconds() - start,
        "threads": args.threads,
    });
    if compare {
        let proved = rows.iter().filter(|r| r["proved"] == json!(true)).count();
        let optimum: Vec<usize> = rows
            .iter()
            .map(|r| r["optimum"].as_u64().unwrap() as usize)
            .collect();
        let at_optimum = clicks.iter().zip(&optimum).filter(|(c, o)| c == o).count();
        let mut optimal_distribution = std::collections::BTreeMap::new();
        for &c in &optimum {
            *optimal_distribution.entry(c).or_insert(0usize) += 1;
        }
        let lower: Vec<usize> = rows
            .iter()
            .map(|r| r["lower_bound"].as_u64().unwrap() as usize)
            .collect();
        let mut proved_distribution = std::collections::BTreeMap::new();
        for (row, &o) in rows.iter().zip(&optimum) {
            if row["proved"] == json!(true) {
                *proved_distribution.entry(o).or_insert(0usize) += 1;
            }
        }
        report["optimum"] = json!({
            "proved": proved,
            "proved_share": proved as f64 / n,
            "proved_distribution": proved_distribution,
            "mean_clicks": optimum.iter().sum::<usize>() as f64 / n,
            "distribution": optimal_distribution,
            "lower_bound_mean": lower.iter().sum::<usize>() as f64 / n,
            "gap_to_lower_bound_mean": (optimum.iter().sum::<usize>() as f64 - lower.iter().sum::<usize>() as f64) / n,
        });
        report["gap_mean"] =
            json!((clicks.iter().sum::<usize>() as f64 - optimum.iter().sum::<usize>() as f64) / n);
        report["at_optimum"] = json!(at_optimum);
        report["at_optimum_share"] = json!(at_optimum as f64 / n);
    }
    print_json(&report);
    Ok(())
}

fn samegame_solve(args: &SameGameSolveArgs) -> Result<()> {
    let boards = match args.random {
        Some(n) => (0..n)
            .map(|i| {
                Board::random(Rules::samegame(), game_seed(args.board_seed, i))
                    .map_err(|e| e.to_string())
            })
            .collect(),
        None => read_boards(Rules::samegame(), true)?,
    };
    let mut total = 0u64;
    let mut failed = false;
    for (index, board) in boards.into_iter().enumerate() {
        let board = match board {
            Ok(b) => b,
            Err(e) => {
                failed = true;
                println!("{}", json!({ "board": index + 1, "error": e }));
                continue;
            }
        };
        let level = args.level.unwrap_or(match args.algo {
            Algo::Nmcs => 2,
            Algo::Nrpa => 3,
        });
        let start = clock::seconds();
        let results = parallel_map(args.threads.max(1), args.threads.max(1), |t| {
            let limits = McLimits {
                seconds: args.seconds,
                level,
                iterations: args.iterations,
                seed: game_seed(args.seed, index * 64 + t),
                tabu_bias: args.tabu_bias,
            };
            match args.algo {
                Algo::Nmcs => nested_search(&board, limits, &mut |_| true),
                Algo::Nrpa => nrpa(&board, limits, &mut |_| true),
            }
        });
        let playouts: u64 = results.iter().map(|r| r.playouts).sum();
        let best = results
            .into_iter()
            .max_by_key(|r| r.score)
            .expect("one thread ran");
        total += best.score as u64;
        println!(
            "{}",
            json!({
                "board": index + 1,
                "algo": format!("{:?}", args.algo).to_lowercase(),
                "level": level,
                "score": best.score,
                "moves": best.moves.iter().map(|&(c, r)| [c, r]).collect::<Vec<_>>(),
                "cleared": best.cleared,
                "playouts": playouts,
                "seconds": clock::seconds() - start,
            })
        );
    }
    println!("{}", json!({ "total": total }));
    if failed {
        bail!("some boards could not be read (see their \"error\")");
    }
    Ok(())
}
