//! `puzzlelab sliding cost-to-go data|train`: a 15-puzzle value network learned from optimal solutions
//! (the pattern-database IDA*'s), for batch-weighted A* (`eval --bwas-lambda`, the page's
//! sliding card). The learner is `agent::dqn::cost_to_go`; see docs/sliding.md.

use crate::files::{continue_lines, machine, round, utc_now};
use crate::sliding::{load_databases, repository_file, STANDARD_DATABASES};
#[cfg(feature = "learn")]
use anyhow::Context;
use anyhow::{bail, ensure, Result};
use clap::{Args, Subcommand};
use puzzlelab::env::sliding::solve::SlidingSolver;
use puzzlelab::env::sliding::{Direction, SlidingPuzzle};
use puzzlelab::rng::Rng;
use puzzlelab::search::Limits;
use std::io::Write;
use std::rc::Rc;
use std::time::Instant;

/// `puzzlelab sliding cost-to-go <command>`.
#[derive(Args, Debug)]
pub struct CostToGoArgs {
    #[command(subcommand)]
    pub command: CostToGoCommand,
}

/// The cost-to-go learner's commands.
#[derive(Subcommand, Debug)]
pub enum CostToGoCommand {
    /// Solves uniformly random 15-puzzles optimally (IDA* with the shipped 6-6-3 pattern
    /// databases) and appends one line per position to --out: the position, then its optimal
    /// moves (u/d/l/r, the blank's). Every position on each path is a training example with its
    /// exact distance. An --out that exists is continued: its positions are drawn again and
    /// skipped, so a run cut short goes on where it stopped.
    Data(DataArgs),
    /// Trains a value network (one output, minus the moves left) on the paths of --data files
    /// (`--features learn`).
    Train(TrainArgs),
    /// Solves uniformly random positions (those of `eval --uniform-positions N --seed S`) by
    /// batch-weighted A* over the model, against their optima, prints the JSON and, with
    /// --record, adds it with this command to the model's manifest (`--features learn`).
    Eval(CostToGoEvalArgs),
}

/// `puzzlelab sliding cost-to-go eval`.
#[derive(Args, Debug)]
pub struct CostToGoEvalArgs {
    /// The model (a value network, or any sliding-puzzle Q-network).
    #[arg(long)]
    pub model: String,
    /// Positions to solve.
    #[arg(long, default_value_t = 100)]
    pub positions: usize,
    /// Their seed.
    #[arg(long)]
    pub seed: u64,
    /// λ in f = λ·g + h.
    #[arg(long, default_value_t = 1.08)]
    pub lambda: f32,
    /// Nodes expanded per forward pass.
    #[arg(long, default_value_t = 100)]
    pub batch: usize,
    /// Nodes expanded at most per position.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_nodes: usize,
    /// Adds the result to MODEL.json's "evaluations", under this name (such as "validation" or
    /// "fresh").
    #[arg(long, value_name = "NAME")]
    pub record: Option<String>,
}

/// `puzzlelab sliding cost-to-go data`.
#[derive(Args, Debug)]
pub struct DataArgs {
    /// Positions to solve (in all, counting those already in --out).
    #[arg(long)]
    pub positions: usize,
    /// The seed of the positions.
    #[arg(long)]
    pub seed: u64,
    /// The file to write (text; lines starting with # are comments).
    #[arg(long)]
    pub out: String,
}

/// `puzzlelab sliding cost-to-go train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    pub value: ValueTrainArgs,
    /// Do not add each example's mirror image across the main diagonal (added by default: the
    /// same distance, twice the data).
    #[arg(long)]
    pub no_transposes: bool,
}

/// The flags of every value network's training (`cost-to-go train`, `dust value-train`).
#[derive(Args, Debug)]
pub struct ValueTrainArgs {
    /// Training data: files of the puzzle's data command (comma-separated or repeated).
    #[arg(long, value_delimiter = ',', required = true)]
    pub data: Vec<String>,
    /// Validation data (positions no training file has; by another seed): measured after each
    /// epoch.
    #[arg(long)]
    pub validation: String,
    /// Hidden layer widths.
    #[arg(long, value_delimiter = ',', default_value = "250,250,250")]
    pub hidden: Vec<usize>,
    /// Epochs in all (a resumed run goes on to this many).
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Minibatch size.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Adam's learning rate in the first epoch.
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f64,
    /// The learning rate in the last epoch (geometric in between).
    #[arg(long, default_value_t = 3e-5)]
    pub lr_end: f64,
    /// How much more an overestimate weighs than an underestimate in the squared error.
    #[arg(long, default_value_t = 1.0)]
    pub over_weight: f32,
    /// The seed of the weights and of the minibatches.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The model to write (and its manifest, FILE.json), after every epoch.
    #[arg(long)]
    pub out: String,
    /// Go on from --out and its manifest (the same data and flags; Adam's moments start again).
    #[arg(long)]
    pub resume: bool,
}

/// One position and its optimal moves, as a data line.
pub fn data_line(
    puzzle: &SlidingPuzzle,
    start: &puzzlelab::env::sliding::Board,
    moves: &[Direction],
) -> String {
    let moves: String = moves.iter().map(|d| &d.name()[..1]).collect();
    let moves = if moves.is_empty() {
        "-".to_string()
    } else {
        moves
    };
    format!("{} {moves}", puzzle.format(start))
}

/// `puzzlelab sliding cost-to-go data`.
pub fn data(args: &DataArgs, command: &str) -> Result<()> {
    ensure!(args.positions >= 1, "--positions must be at least 1");
    let puzzle = SlidingPuzzle::standard(4, 4)?;
    let seed_mark = format!("(SlidingPuzzle::random_solvable, seed {}),", args.seed);
    let header = format!(
        "# puzzlelab sliding cost-to-go data: uniformly random 15-puzzles {seed_mark} \
         each with an optimal solution by IDA* with the 6-6-3 pattern databases; {command} on {}, {}",
        machine(),
        utc_now()
    );
    let (complete, mut file) =
        continue_lines(&args.out, "cost-to-go data", &header, |complete, _| {
            if let Some(header) = complete.lines().find(|l| l.starts_with('#')) {
                ensure!(
                    header.contains(&seed_mark),
                    "{} was written with another --seed (its first line: {header})",
                    args.out
                );
            }
            Ok(())
        })?;
    let complete = complete.as_str();
    let done = complete
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count();
    let databases = Rc::new(load_databases(
        &repository_file(STANDARD_DATABASES),
        puzzle.goal(),
    )?);
    let mut rng = Rng::new(args.seed);
    let clock = Instant::now();
    let mut moves_total = 0usize;
    for i in 0..args.positions {
        let start = puzzle.random_solvable(&mut rng);
        if i < done {
            continue;
        }
        let limits = Limits {
            max_nodes: u64::MAX,
        };
        let mut solver =
            SlidingSolver::with_pattern_databases(&puzzle, start, databases.clone(), limits)?;
        let report = solver.run_to_end(u64::MAX, |_| true);
        let mut end = start;
        if end.apply(&report.moves).is_err() || &end != puzzle.goal() {
            bail!(
                "the solver's moves do not reach the goal from {}",
                puzzle.format(&start)
            );
        }
        moves_total += report.moves.len();
        // One write a line, so that a stop leaves whole lines or an unfinished last one.
        file.write_all(format!("{}\n", data_line(&puzzle, &start, &report.moves)).as_bytes())?;
        let made = i + 1 - done;
        if made % 500 == 0 || i + 1 == args.positions {
            file.flush()?;
            let s = clock.elapsed().as_secs_f64();
            eprintln!(
                "cost-to-go data: {}/{} positions, {:.1} s, {:.1} positions/s, mean length {:.2}",
                i + 1,
                args.positions,
                s,
                made as f64 / s,
                moves_total as f64 / made as f64
            );
        }
    }
    let s = clock.elapsed().as_secs_f64();
    crate::files::print_json(&serde_json::json!({
        "out": args.out,
        "positions": args.positions,
        "already_there": done,
        "solved_now": args.positions.saturating_sub(done),
        "seconds": round(s, 1),
        "machine": machine(),
    }));
    Ok(())
}

needs_learn! {
    "sliding cost-to-go train": fn train(&TrainArgs, &str) -> ();
    "sliding cost-to-go eval": fn eval(&CostToGoEvalArgs, &str) -> ();
}

/// `puzzlelab sliding cost-to-go eval`.
#[cfg(feature = "learn")]
pub fn eval(args: &CostToGoEvalArgs, command: &str) -> Result<()> {
    use puzzlelab::agent::bwas::BwasSettings;
    ensure!(args.positions >= 1, "--positions must be at least 1");
    let settings = BwasSettings {
        lambda: args.lambda,
        batch: args.batch,
        max_nodes: args.max_nodes,
        parity_offset: None,
    }
    .checked()
    .map_err(|e| anyhow::anyhow!("--lambda, --batch, --max-nodes: {e}"))?;
    let policy = crate::learner::read_policy(&args.model)?;
    // The manifest is read first: a missing one fails before minutes of search.
    let manifest: Option<serde_json::Value> = match &args.record {
        Some(_) => Some(crate::files::read_manifest(&args.model)?),
        None => None,
    };
    let clock = Instant::now();
    let mut report = crate::dqn_sliding::bwas_on_uniform_positions(
        &policy,
        args.positions,
        args.seed,
        &settings,
    )?;
    report["seed"] = serde_json::json!(args.seed);
    report["positions_drawn"] =
        serde_json::json!("SlidingPuzzle::random_solvable, as eval --uniform-positions draws them");
    report["optimum"] = serde_json::json!("IDA* with the shipped 6-6-3 pattern databases");
    report["machine"] = serde_json::json!(machine());
    report["command"] = serde_json::json!(command);
    report["seconds"] = serde_json::json!(round(clock.elapsed().as_secs_f64(), 1));
    report["date"] = serde_json::json!(utc_now());
    if let (Some(name), Some(manifest)) = (&args.record, manifest) {
        crate::files::record_evaluation(&args.model, manifest, name, &report)?;
    }
    crate::files::print_json(&report);
    Ok(())
}

/// Reads data files into examples; returns them and, per file, its path, paths and examples.
#[cfg(feature = "learn")]
fn read_samples(
    puzzle: &SlidingPuzzle,
    files: &[String],
) -> Result<(
    puzzlelab::agent::dqn::cost_to_go::CostToGoSamples,
    Vec<serde_json::Value>,
)> {
    let mut samples = puzzlelab::agent::dqn::cost_to_go::CostToGoSamples::default();
    let mut described = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).with_context(|| file.clone())?;
        let before = samples.len();
        let paths = samples
            .push_text(puzzle, &text)
            .map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
        described.push(serde_json::json!({
            "file": file,
            "paths": paths,
            "examples": samples.len() - before,
            "fnv1a": puzzlelab::checksum::fnv1a_hex(text.as_bytes()),
        }));
    }
    Ok((samples, described))
}

/// The flags a run records (and a resumed run must repeat, but --epochs).
#[cfg(feature = "learn")]
fn hyperparameters(args: &ValueTrainArgs) -> serde_json::Value {
    serde_json::json!({
        "epochs": args.epochs,
        "hidden": args.hidden,
        "batch": args.batch,
        "lr": args.lr,
        "lr_end": args.lr_end,
        "over_weight": args.over_weight,
        "seed": args.seed,
        "optimizer": "Adam (β 0.9, 0.999; ε 1e-7)",
    })
}

/// A value network's training set: the encoding, the examples and validation examples, the
/// files they came from (with checksums) and what a fresh manifest says of the puzzle.
#[cfg(feature = "learn")]
pub struct ValueRun<E: puzzlelab::agent::dqn::cost_to_go::ValueEncoding> {
    pub encoding: E,
    pub samples: puzzlelab::agent::dqn::cost_to_go::CostToGoSamples<E::Position>,
    pub data: Vec<serde_json::Value>,
    pub validation: puzzlelab::agent::dqn::cost_to_go::CostToGoSamples<E::Position>,
    pub validation_data: Vec<serde_json::Value>,
    /// Fields of a fresh manifest ("kind", "puzzle", …).
    pub about: serde_json::Value,
    /// Flags of the puzzle's own the run records beside the shared ones.
    pub extra_hyperparameters: serde_json::Value,
}

/// `puzzlelab sliding cost-to-go train`.
#[cfg(feature = "learn")]
pub fn train(args: &TrainArgs, command: &str) -> Result<()> {
    use puzzlelab::agent::dqn::cost_to_go::SlidingValue;
    use serde_json::json;
    let puzzle = SlidingPuzzle::standard(4, 4)?;
    let (mut samples, data) = read_samples(&puzzle, &args.value.data)?;
    if !args.no_transposes {
        samples.add_transposes(puzzle.goal());
    }
    let (validation, validation_data) =
        read_samples(&puzzle, std::slice::from_ref(&args.value.validation))?;
    let run = ValueRun {
        encoding: SlidingValue::new(&puzzle),
        samples,
        data,
        validation,
        validation_data,
        about: json!({
            "kind": "value network (cost-to-go) learned from optimal solutions",
            "puzzle": "sliding 4x4 goal 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,_",
            "size": "4x4",
            "goal": "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,_",
        }),
        extra_hyperparameters: json!({ "transposes": !args.no_transposes }),
    };
    train_value(&args.value, run, command)
}

/// Trains (or resumes) a value network on `run`'s examples, epoch by epoch, writing the model and
/// its manifest after each.
#[cfg(feature = "learn")]
pub fn train_value<E: puzzlelab::agent::dqn::cost_to_go::ValueEncoding>(
    args: &ValueTrainArgs,
    run: ValueRun<E>,
    command: &str,
) -> Result<()> {
    use puzzlelab::agent::dqn::cost_to_go::{CostToGo, CostToGoErrors};
    use puzzlelab::agent::dqn::QPolicy;
    use serde_json::{json, Value};
    ensure!(args.epochs >= 1, "--epochs must be at least 1");
    ensure!(args.batch >= 1, "--batch must be at least 1");
    ensure!(
        args.lr.is_finite() && args.lr > 0.0 && args.lr_end.is_finite() && args.lr_end > 0.0,
        "--lr and --lr-end must be numbers above 0"
    );
    ensure!(
        args.over_weight.is_finite() && args.over_weight > 0.0,
        "--over-weight must be a number above 0"
    );
    ensure!(
        args.hidden.iter().all(|&w| (1..=4096).contains(&w)) && !args.hidden.is_empty(),
        "--hidden takes widths from 1 to 4096"
    );
    let ValueRun {
        encoding,
        samples,
        data,
        validation,
        validation_data,
        about,
        extra_hyperparameters,
    } = run;
    ensure!(!samples.is_empty(), "the --data files hold no examples");
    let mut asked = hyperparameters(args);
    if let (Some(asked), Some(extra)) = (asked.as_object_mut(), extra_hyperparameters.as_object()) {
        asked.extend(extra.clone());
    }
    let (mut learner, mut manifest, first_epoch) = if args.resume {
        let manifest: Value = crate::files::read_manifest(&args.out)?;
        let epochs_done = manifest["epochs_done"]
            .as_u64()
            .context("the manifest says no epochs_done")? as usize;
        let steps = manifest["steps"].as_u64().unwrap_or(0) as usize;
        let bytes = std::fs::read(&args.out).with_context(|| args.out.clone())?;
        let policy = QPolicy::from_bytes(&bytes, &burn::tensor::Device::flex())?;
        ensure!(
            policy.network_config().hidden == args.hidden,
            "--hidden differs from the model's {:?}",
            policy.network_config().hidden
        );
        ensure!(
            epochs_done < args.epochs,
            "the model has trained {epochs_done} epochs already: ask for more with --epochs"
        );
        // The same run, resumed: the same flags (but --epochs) and the same data files.
        let recorded = manifest["hyperparameters"]
            .as_object()
            .context("the manifest records no hyperparameters")?;
        for (flag, value) in recorded {
            ensure!(
                flag == "epochs" || asked.get(flag) == Some(value),
                "--resume goes on with the same flags: the manifest has {flag} {value}, this command {}",
                asked.get(flag).unwrap_or(&Value::Null)
            );
        }
        let checksums = |v: &Value| -> Vec<Value> {
            v.as_array()
                .map(|a| a.iter().map(|d| d["fnv1a"].clone()).collect())
                .unwrap_or_default()
        };
        ensure!(
            checksums(&manifest["data"]) == checksums(&json!(data))
                && checksums(&manifest["validation_data"]) == checksums(&json!(validation_data)),
            "--resume goes on with the same data: a --data or --validation file differs from the manifest's"
        );
        let learner = CostToGo::resume(encoding, &policy, args.seed ^ epochs_done as u64, steps)
            .map_err(anyhow::Error::msg)?;
        (learner, manifest, epochs_done)
    } else {
        let mut manifest = json!({
            "model": std::path::Path::new(&args.out).file_name().map(|n| n.to_string_lossy()),
        });
        if let (Some(m), Some(about)) = (manifest.as_object_mut(), about.as_object()) {
            m.extend(about.clone());
        }
        manifest["commands"] = json!([]);
        manifest["wall_seconds"] = json!(0.0);
        manifest["epochs_log"] = json!([]);
        (
            CostToGo::new(encoding, &args.hidden, args.seed),
            manifest,
            0,
        )
    };
    manifest["commands"]
        .as_array_mut()
        .context("the manifest's commands are not a list")?
        .push(json!(command));
    manifest["architecture"] = json!({
        "kind": "MLP, ReLU between dense layers, one output (minus the moves left)",
        "observation_len": learner.network_config().observation_len,
        "hidden": args.hidden,
        "parameters": learner.network_config().num_params(),
    });
    manifest["hyperparameters"] = asked;
    manifest["data"] = json!(data);
    manifest["validation_data"] = json!(validation_data);
    manifest["machine"] = json!(machine());
    manifest["build"] = json!(crate::files::build());
    eprintln!(
        "value train: {} examples ({} validation), {} parameters, epochs {}..{}",
        samples.len(),
        validation.len(),
        learner.network_config().num_params(),
        first_epoch + 1,
        args.epochs
    );
    for epoch in first_epoch..args.epochs {
        let clock = Instant::now();
        let t = if args.epochs > 1 {
            epoch as f64 / (args.epochs - 1) as f64
        } else {
            0.0
        };
        let lr = args.lr * (args.lr_end / args.lr).powf(t);
        let loss = learner.train_epoch_with(
            &samples,
            args.batch,
            lr,
            args.over_weight,
            |done, all, loss| {
                eprintln!(
                    "  epoch {}: {done}/{all} minibatches, loss {loss:.4}, {:.0} s",
                    epoch + 1,
                    clock.elapsed().as_secs_f64()
                )
            },
        );
        let errors = CostToGoErrors::of(
            &learner.estimates(&validation.boards),
            &validation.distances,
        );
        let seconds = clock.elapsed().as_secs_f64();
        eprintln!(
            "epoch {}/{}: lr {lr:.2e}, loss {loss:.4}, validation MAE {:.3}, RMSE {:.3}, bias {:+.3}, over {:.3}, ≥1 over {:.4}, ≥2 over {:.5} ({seconds:.0} s)",
            epoch + 1,
            args.epochs,
            errors.mean_absolute,
            errors.root_mean_squared,
            errors.bias,
            errors.over,
            errors.over_one,
            errors.over_two
        );
        let wall = manifest["wall_seconds"].as_f64().unwrap_or(0.0) + seconds;
        manifest["wall_seconds"] = json!(round(wall, 1));
        manifest["epochs_done"] = json!(epoch + 1);
        manifest["steps"] = json!(learner.steps);
        manifest["finished"] = json!(epoch + 1 == args.epochs);
        manifest["date"] = json!(utc_now());
        manifest["validation"] = json!(errors);
        manifest["epochs_log"]
            .as_array_mut()
            .context("the manifest's epochs_log is not a list")?
            .push(json!({
                "epoch": epoch + 1, "lr": lr, "loss": round(loss, 5), "seconds": round(seconds, 1),
                "validation": errors,
            }));
        crate::files::write_model_and_manifest(&args.out, &learner.policy().to_bytes(), &manifest)?;
    }
    crate::files::print_json(&manifest);
    Ok(())
}
