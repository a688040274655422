//! `train`, `eval`, `average`, `bench-dqn` and `solve --algo dqn` with `--features learn`: the sliding
//! puzzles' deep Q-learner (`agent::dqn::sliding`'s `SlidingLearner`), trained by the trainer
//! every learnable puzzle shares (`learner.rs`) on a validation set of exact optimal lengths
//! (the table's, or on 4 × 4 the shipped pattern databases' that this file loads).

use crate::dqn::{flag_value, AverageArgs, BenchDqnArgs, EvalArgs, EvaluationArgs, TrainArgs};
use crate::files::{self, machine, print_json};
use crate::learner::TrainRequest;
use crate::sliding::{
    load_databases, repository_file, unreachable_goal, BoardArgs, SolveArgs, SolveLine,
    STANDARD_DATABASES,
};
use anyhow::{anyhow, ensure, Result};
use puzzlelab::agent::bwas::BwasSettings;
use puzzlelab::agent::dqn::sliding::{
    puzzle_of, training_env, SlidingLearner, SlidingSetup, SlidingValidation,
};
use puzzlelab::agent::dqn::QPolicy;
use puzzlelab::agent::evaluation::{
    bwas_report, evaluate_by_distance, score_every_position, EvaluationSettings, EvaluationTable,
    ModelSolveReport, OptimalLengths, SlidingModel,
};
use puzzlelab::env::sliding::pdb::{Partition, PdbHeuristic};
use puzzlelab::env::sliding::solve::ExactDistances;
use puzzlelab::env::sliding::{RewardScheme, SlidingPuzzle};
use serde::Serialize;
use serde_json::json;
use std::rc::Rc;

/// Where optimal lengths come from: the exact table on boards of at most 9 cells; on 4×4, IDA*
/// over pattern databases (the shipped 6-6-3 for the standard goal, else 5-5-5 built once).
fn optimal_lengths(puzzle: &SlidingPuzzle) -> Result<OptimalLengths> {
    if let Some(exact) = ExactDistances::build(puzzle.goal()) {
        return Ok(OptimalLengths::Exact(Rc::new(exact)));
    }
    ensure!(
        (puzzle.rows(), puzzle.cols()) == (4, 4),
        "evaluation needs a board of at most 9 cells, or 4x4"
    );
    let databases = if SlidingPuzzle::standard(4, 4)?.goal() == puzzle.goal() {
        load_databases(&repository_file(STANDARD_DATABASES), puzzle.goal())?
    } else {
        eprintln!("sliding eval: building 5-5-5 pattern databases for this goal ...");
        PdbHeuristic::build(puzzle.goal(), Partition::FiveFiveFive, |_| {})?
    };
    Ok(OptimalLengths::PatternDatabases(Rc::new(databases)))
}

impl EvaluationArgs {
    /// The evaluation and model-solve settings: the board's defaults, changed by the flags.
    fn settings(&self, puzzle: &SlidingPuzzle, seed: Option<u64>) -> EvaluationSettings {
        let defaults = EvaluationSettings::for_cells(puzzle.rows() * puzzle.cols());
        EvaluationSettings {
            per_distance: self.per_distance.unwrap_or(defaults.per_distance),
            seed: seed.unwrap_or(defaults.seed),
            beam_width: self.beam_width.unwrap_or(defaults.beam_width),
            max_nodes: self.max_nodes_search.unwrap_or(defaults.max_nodes),
            ..defaults
        }
    }
}

fn evaluate_model(
    policy: &QPolicy,
    puzzle: &SlidingPuzzle,
    optimal: &OptimalLengths,
    settings: &EvaluationSettings,
) -> Result<EvaluationTable> {
    let positions = optimal
        .fresh_positions(puzzle, settings)
        .map_err(anyhow::Error::msg)?;
    let env = training_env(puzzle, 0);
    policy.check_fits_or_values(&env)?;
    Ok(evaluate_by_distance(policy, &env, &positions, settings))
}

/// `puzzlelab sliding eval --model F`: the evaluation table as JSON (stdout) and text (stderr).
pub fn eval(args: &EvalArgs, command: &str) -> Result<()> {
    let path = &args.model;
    let policy = crate::learner::read_policy(path)?;
    // The manifest is read first: a missing one fails before the evaluation's time.
    let manifest: Option<serde_json::Value> = match &args.record {
        Some(_) => Some(files::read_manifest(path)?),
        None => None,
    };
    let clock = web_time::Instant::now();
    let puzzle = puzzle_of(&policy).map_err(anyhow::Error::msg)?;
    let settings = args.evaluation.settings(&puzzle, args.seed);
    let bwas_settings = match args.bwas_lambda {
        Some(lambda) => {
            ensure!(
                args.uniform_positions.is_some(),
                "--bwas-lambda solves the --uniform-positions N positions: give both"
            );
            let settings = BwasSettings {
                lambda,
                batch: args.bwas_batch,
                max_nodes: args.bwas_max_nodes,
                parity_offset: args.bwas_parity_offset,
            };
            Some(settings.checked().map_err(|e| anyhow!("--bwas-*: {e}"))?)
        }
        None => None,
    };
    // The exact table (or the pattern databases) once, for every part of the evaluation.
    let optimal = optimal_lengths(&puzzle)?;
    let table = evaluate_model(&policy, &puzzle, &optimal, &settings)?;
    eprint!("{}", table.to_text());
    let (mut uniform, mut bwas) = (None, None);
    if let Some(count) = args.uniform_positions {
        let positions = optimal
            .uniform_positions(&puzzle, count, settings.seed)
            .map_err(anyhow::Error::msg)?;
        let mut env = training_env(&puzzle, 0);
        let table = evaluate_by_distance(&policy, &env, &positions, &settings);
        eprintln!("{count} uniformly random positions:");
        eprint!("{}", table.to_text());
        uniform = Some(table);
        if let Some(bwas_settings) = bwas_settings {
            let report = json!(bwas_report(&policy, &mut env, &positions, &bwas_settings));
            eprintln!("batch-weighted A*: {report}");
            bwas = Some(report);
        }
    }
    let every_position = match args.every_position {
        true => {
            let OptimalLengths::Exact(exact) = &optimal else {
                anyhow::bail!("--every-position needs a board of at most 9 cells");
            };
            let mut env = training_env(&puzzle, 0);
            let score = score_every_position(&policy, &mut env, exact, settings.greedy_max_moves)
                .map_err(anyhow::Error::msg)?;
            eprintln!(
                "every position: {} of {} solved greedily ({:.3}%), {} optimal, {:.3}% extra moves",
                score.solved,
                score.positions,
                score.solved_percent,
                score.optimal,
                score.extra_moves_percent
            );
            Some(score)
        }
        false => None,
    };
    let report = json!({
        "model": path,
        "puzzle": policy.puzzle_id(),
        "steps": policy.training().map(|t| t.steps),
        "evaluation": table,
        "uniform_evaluation": uniform,
        "bwas_uniform": bwas,
        "every_position": every_position,
    });
    if let (Some(name), Some(manifest)) = (&args.record, manifest) {
        let mut recorded = report.clone();
        recorded["command"] = json!(command);
        recorded["machine"] = json!(machine());
        recorded["seconds"] = json!(files::round(clock.elapsed().as_secs_f64(), 1));
        recorded["date"] = json!(files::utc_now());
        files::record_evaluation(path, manifest, name, &recorded)?;
    }
    print_json(&report);
    Ok(())
}

/// Batch-weighted A* over `policy`'s estimate on `count` uniformly random positions of its
/// puzzle drawn by `seed` (those of `eval --uniform-positions`), against their optima:
/// [`bwas_report`]'s JSON.
pub fn bwas_on_uniform_positions(
    policy: &QPolicy,
    count: usize,
    seed: u64,
    settings: &BwasSettings,
) -> Result<serde_json::Value> {
    let puzzle = puzzle_of(policy).map_err(anyhow::Error::msg)?;
    let mut env = training_env(&puzzle, 0);
    policy.check_fits_or_values(&env)?;
    let positions = optimal_lengths(&puzzle)?
        .uniform_positions(&puzzle, count, seed)
        .map_err(anyhow::Error::msg)?;
    Ok(json!(bwas_report(policy, &mut env, &positions, settings)))
}

/// What `solve --algo dqn` reports: the model's solution and the model file.
#[derive(Serialize)]
struct ModelSolveLine<'a> {
    #[serde(flatten)]
    report: ModelSolveReport,
    model: &'a str,
}

/// `puzzlelab sliding solve --algo dqn --model F`: greedy play, then beam search if greedy fails.
/// The board is the model's unless `--size`, `--goal` or `--preset` say otherwise (and then
/// the model must fit it).
pub fn solve_with_model(args: &SolveArgs, text: &str) -> Result<String> {
    let path = args
        .model
        .as_deref()
        .ok_or_else(|| anyhow!("--algo dqn needs --model FILE"))?;
    let policy = crate::learner::read_policy(path)?;
    let board = args.board.given().then(|| args.board.puzzle(Some(text)));
    let mut model = SlidingModel::open(policy, board.transpose()?).map_err(anyhow::Error::msg)?;
    let puzzle = &model.puzzle().clone();
    let start = puzzle.parse(text)?;
    if !puzzle.is_solvable(&start) {
        return Err(unreachable_goal(puzzle));
    }
    let evaluation = EvaluationArgs {
        beam_width: args.beam_width,
        max_nodes_search: args.max_nodes_search,
        ..EvaluationArgs::default()
    };
    let solved = model.solve(start, &evaluation.settings(puzzle, None));
    let report = ModelSolveLine {
        report: solved.report,
        model: path,
    };
    let line = SolveLine::new(report, solved.ms, text, puzzle, &start);
    Ok(serde_json::to_string(&line).expect("reports serialise"))
}

/// `puzzlelab sliding train`: the sliding learner's setup from the flags (or, with `--resume`,
/// from the manifest, where only the walks' difficulty, `--mixed` and `--uniform-starts` may
/// change), validated by optimal distance, through the trainer every learnable puzzle shares.
pub fn train(args: &TrainArgs, command: &str) -> Result<()> {
    let board = &args.board;
    // The validation's positions need the puzzle: the resumed model's, or the flags'.
    let puzzle = match &args.run.resume {
        Some(path) => puzzle_of(&crate::learner::read_policy(path)?).map_err(anyhow::Error::msg)?,
        None => BoardArgs {
            size: Some(board.size.clone().unwrap_or_else(|| "3".into())),
            ..board.clone()
        }
        .puzzle(None)?,
    };
    let validation = validation_set(&puzzle, &args.evaluation)?;
    let setup = SlidingSetup {
        size: format!("{}x{}", puzzle.rows(), puzzle.cols()),
        goal: Some(puzzle.format(puzzle.goal())),
        difficulty: args.difficulty,
        curriculum: args.curriculum,
        mixed: args.mixed,
        uniform_starts: args.uniform_starts,
        // The flag's value is the reward's name (a test in learner.rs keeps them one).
        reward: args
            .reward
            .as_ref()
            .map_or_else(|| RewardScheme::HeuristicPenalty.name().into(), flag_value),
        streak: None,
    };
    // Where episodes start may change between runs (the manifest records it); the learner's
    // configuration may not.
    let on_resume = |recorded: &mut SlidingSetup| {
        if args.difficulty.is_some() {
            recorded.difficulty = args.difficulty;
        }
        recorded.mixed |= args.mixed;
        recorded.uniform_starts |= args.uniform_starts;
    };
    crate::learner::train::<SlidingLearner>(
        setup,
        TrainRequest {
            may_change: &[
                "--difficulty",
                "--mixed",
                "--uniform-starts",
                "--per-distance",
                "--beam-width",
                "--max-nodes-search",
            ],
            validation: Some(validation),
            on_resume: Some(Box::new(on_resume)),
            ..TrainRequest::new(&args.dqn, &args.run, 0, command)
        },
    )
}

/// `puzzlelab sliding average`: the models' weighted mean ([`crate::learner::average`]), validated
/// on the positions `sliding train` draws for its board with the default settings (20 a distance
/// on boards of at most 9 cells).
pub fn average(args: &AverageArgs, command: &str) -> Result<()> {
    let defaults = EvaluationArgs::default();
    crate::learner::average::<SlidingLearner>(
        &args.shared()?,
        |setup| Ok(Some(validation_set(&setup.puzzle()?, &defaults)?)),
        &args.out,
        command,
    )
}

/// The positions a run on `puzzle` is validated on (as the flags set the evaluation).
fn validation_set(
    puzzle: &SlidingPuzzle,
    evaluation: &EvaluationArgs,
) -> Result<SlidingValidation> {
    let settings = evaluation.settings(puzzle, None);
    Ok(SlidingValidation::draw(
        puzzle.clone(),
        &optimal_lengths(puzzle)?,
        settings,
    )?)
}

/// `puzzlelab sliding bench-dqn`: the dissertation's network (batch 100, Adam) timed by the
/// learners' bench on 3×3 and 4×4, walks of difficulty 10.
pub fn bench_dqn(args: &BenchDqnArgs) -> Result<()> {
    let setup = |size: &str| SlidingSetup {
        size: size.into(),
        difficulty: Some(10),
        ..SlidingSetup::default()
    };
    crate::learner::bench::<SlidingLearner>(
        "puzzlelab sliding bench-dqn: the N-puzzle DQN dissertation's network (batch 100, Adam)",
        &[("3x3", setup("3x3")), ("4x4", setup("4x4"))],
        args.steps,
        args.seed,
        args.device,
    )
}
