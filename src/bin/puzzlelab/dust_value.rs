//! `puzzlelab dust value-data|value-train`: the dust puzzle's value network, learned from the
//! exact solver's optimal clearings of part-played boards (`agent::dqn::dust_value`); it plays
//! through `dust eval --agent dqn --play beam`. See docs/samegame.md.

use crate::files::{continue_lines, machine, round, utc_now};
use anyhow::{ensure, Context, Result};
use clap::Args;
use puzzlelab::env::samegame::{data_line, draw_example, read_data, ExampleSettings};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// `puzzlelab dust value-data`.
#[derive(Args, Debug)]
pub struct ValueDataArgs {
    /// Examples to draw (in all, counting those already in --out).
    #[arg(long)]
    pub examples: usize,
    /// The seed of the examples (example i starts from `Board::random(dust, game_seed(seed, i))`).
    #[arg(long)]
    pub seed: u64,
    /// Clicks played before solving: at least this many …
    #[arg(long, default_value_t = ExampleSettings::default().fewest)]
    pub fewest: usize,
    /// … and at most this many (drawn uniformly).
    #[arg(long, default_value_t = ExampleSettings::default().most)]
    pub most: usize,
    /// The chance that a click played is the greedy one (else a random pile).
    #[arg(long, default_value_t = ExampleSettings::default().greedy_share)]
    pub greedy_share: f64,
    /// Positions the exact solver may expand on one example (unproved examples are recorded as
    /// such and add nothing).
    #[arg(long, default_value_t = ExampleSettings::default().max_nodes)]
    pub max_nodes: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The file to write (text; lines starting with # are comments). One that exists is
    /// continued: the indices it holds are skipped.
    #[arg(long)]
    pub out: String,
}

/// `puzzlelab dust value-data`.
pub fn data(args: &ValueDataArgs, command: &str) -> Result<()> {
    ensure!(args.examples >= 1, "--examples must be at least 1");
    ensure!(
        args.fewest <= args.most && args.most <= 48,
        "--fewest must be at most --most, and --most at most 48"
    );
    ensure!(
        (0.0..=1.0).contains(&args.greedy_share),
        "--greedy-share is a chance from 0 to 1"
    );
    ensure!(args.max_nodes >= 1, "--max-nodes must be at least 1");
    let settings = ExampleSettings {
        fewest: args.fewest,
        most: args.most,
        greedy_share: args.greedy_share,
        max_nodes: args.max_nodes,
    };
    let mark = format!(
        "seed {}, settings {}",
        args.seed,
        serde_json::to_string(&settings)?
    );
    const HEADER: &str = "# puzzlelab dust value-data:";
    let mut entries = Vec::new();
    let header = format!(
        "{HEADER} {mark}; each line an index, the position after the clicks played, its optimal \
         clearing (cells) or ? when not proved; {command} on {}, {}",
        machine(),
        utc_now()
    );
    let (_, file) = continue_lines(&args.out, "dust value-data", &header, |complete, cut| {
        let first = complete.lines().next().unwrap_or(cut);
        ensure!(
            first.trim().is_empty() || first.starts_with(HEADER),
            "{} is not a file of `dust value-data` (its first line is not its header)",
            args.out
        );
        if !complete.trim().is_empty() {
            ensure!(
                first.contains(&mark),
                "{} was written with another --seed or other settings (its first line: {first})",
                args.out
            );
        }
        entries = read_data(complete).map_err(|e| anyhow::anyhow!("{}: {e}", args.out))?;
        Ok(())
    })?;
    let mut done = vec![false; args.examples];
    for &(_, i, _) in &entries {
        if i < args.examples {
            done[i] = true;
        }
    }
    let todo: Vec<usize> = (0..args.examples).filter(|&i| !done[i]).collect();
    let file = Mutex::new(file);
    let next = AtomicUsize::new(0);
    let solved = AtomicUsize::new(0);
    let clock = Instant::now();
    let failed: Mutex<Option<std::io::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= todo.len() || failed.lock().unwrap().is_some() {
                    break;
                }
                let i = todo[k];
                let line = match draw_example(args.seed, i, &settings) {
                    Ok(example) => {
                        solved.fetch_add(1, Ordering::Relaxed);
                        data_line(i, Some(&example), None)
                    }
                    Err(drawn) => data_line(i, None, drawn.as_ref()),
                };
                // One write a line, so that a stop leaves whole lines or an unfinished last one;
                // nothing more after a failed write.
                let mut f = file.lock().unwrap();
                if failed.lock().unwrap().is_some() {
                    break;
                }
                if let Err(e) = f.write_all(format!("{line}\n").as_bytes()) {
                    *failed.lock().unwrap() = Some(e);
                    break;
                }
                if (k + 1).is_multiple_of(200) {
                    let s = clock.elapsed().as_secs_f64();
                    eprintln!(
                        "dust value-data: {}/{} drawn now, {} solved, {:.0} s",
                        k + 1,
                        todo.len(),
                        solved.load(Ordering::Relaxed),
                        s
                    );
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap() {
        return Err(e).with_context(|| args.out.clone());
    }
    let s = clock.elapsed().as_secs_f64();
    crate::files::print_json(&serde_json::json!({
        "out": args.out,
        "examples": args.examples,
        "already_there": args.examples - todo.len(),
        "drawn_now": todo.len(),
        "solved_now": solved.load(Ordering::Relaxed),
        "seconds": round(s, 1),
        "threads": args.threads.max(1),
        "machine": machine(),
    }));
    Ok(())
}

/// `puzzlelab dust value-train`.
#[derive(Args, Debug)]
pub struct DustValueTrainArgs {
    #[command(flatten)]
    pub value: crate::cost_to_go::ValueTrainArgs,
    /// After the last epoch, clears this many validation boards (those of `dust train`'s
    /// validation seed) as the model plays (`dust eval --play auto`) and records the result in
    /// the manifest as "validation" (the held-out positions' errors move to
    /// "validation_positions"); 0: none.
    #[arg(long, default_value_t = 100)]
    pub eval_boards: usize,
}

needs_learn! {
    "dust value-train": fn train(&DustValueTrainArgs, &str) -> ();
}

#[cfg(feature = "learn")]
/// Reads `value-data` files; returns the examples and, per file, what it holds and its checksum.
fn read_files(
    files: &[String],
) -> Result<(
    puzzlelab::agent::dqn::cost_to_go::CostToGoSamples<puzzlelab::env::samegame::Board>,
    Vec<serde_json::Value>,
)> {
    use puzzlelab::agent::dqn::dust_value::push_data;
    let mut samples = Default::default();
    let mut described = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).with_context(|| file.clone())?;
        let (summary, _) =
            push_data(&mut samples, &text).map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
        described.push(serde_json::json!({
            "file": file,
            "drawn": summary.drawn,
            "solved": summary.solved,
            "examples": summary.positions,
            "fnv1a": puzzlelab::checksum::fnv1a_hex(text.as_bytes()),
        }));
    }
    Ok((samples, described))
}

/// `puzzlelab dust value-train`.
#[cfg(feature = "learn")]
pub fn train(args: &DustValueTrainArgs, command: &str) -> Result<()> {
    use puzzlelab::agent::dqn::cost_to_go::ValueEncoding;
    use puzzlelab::agent::dqn::dust::{AgainstGreedy, AgainstGreedySummary, VALIDATION_SEED};
    use puzzlelab::agent::dqn::dust_value::DustValue;
    use serde_json::json;
    let (samples, data) = read_files(&args.value.data)?;
    let (validation, validation_data) = read_files(std::slice::from_ref(&args.value.validation))?;
    let encoding = DustValue::new();
    let run = crate::cost_to_go::ValueRun {
        about: serde_json::json!({
            "kind": "value network (clicks left) learned from the exact solver's optimal clearings of part-played boards",
            "puzzle": encoding.puzzle_id(),
            "rules": "dust-8x6-c5",
            "plays": "dust eval --agent dqn --play beam --beam-width W",
        }),
        encoding,
        samples,
        data,
        validation,
        validation_data,
        extra_hyperparameters: serde_json::json!({}),
    };
    crate::cost_to_go::train_value(&args.value, run, command)?;
    if args.eval_boards == 0 {
        // No boards played: nothing of an earlier run's may stand beside this run's errors.
        let mut manifest: serde_json::Value = crate::files::read_manifest(&args.value.out)?;
        if let Some(m) = manifest.as_object_mut() {
            m.remove("validation_boards");
            m.remove("validation_seed");
            m.remove("validation_positions");
        }
        return crate::files::write_json(&format!("{}.json", args.value.out), &manifest);
    }
    // The finished model on the validation boards, as `dust eval --play auto` plays it.
    let policy = crate::learner::read_policy(&args.value.out)?;
    let clock = Instant::now();
    let mut played = AgainstGreedy::new(policy, VALIDATION_SEED, args.eval_boards);
    played.play(0..args.eval_boards)?;
    let AgainstGreedySummary {
        model: summary,
        greedy,
        ..
    } = played.summary();
    let mut manifest: serde_json::Value = crate::files::read_manifest(&args.value.out)?;
    manifest["validation_seed"] = json!(VALIDATION_SEED);
    manifest["validation_boards"] = json!(args.eval_boards);
    manifest["validation_positions"] = manifest["validation"].clone();
    manifest["validation"] = json!({
        "boards": summary.boards,
        "mean_clicks": summary.mean_clicks,
        "distribution": summary.distribution,
        "play": "auto (a beam search over the network's values)",
        "mean_clicks_greedy_rule": greedy.mean_clicks,
        "seconds": round(clock.elapsed().as_secs_f64(), 1),
    });
    crate::files::write_json(&format!("{}.json", args.value.out), &manifest)?;
    eprintln!(
        "dust value-train: {} validation boards in {:.2} clicks a board (the greedy rule: {:.2})",
        summary.boards, summary.mean_clicks, greedy.mean_clicks
    );
    Ok(())
}
