//! The one chunked training loop every trainer runs (`train`, `2048 ntuple train`, `2048 train`):
//! train a chunk, print its progress line, evaluate and checkpoint when a boundary is crossed,
//! and at the end evaluate once more and save the finished model.

use anyhow::Result;
use std::time::Instant;

/// A training run the driver can step through.
pub trait ChunkedTraining {
    /// Units (steps or games) done so far, over every run that made the model.
    fn done(&self) -> u64;
    /// Trains `units` more and returns the chunk's progress line (printed on stderr).
    fn train_chunk(&mut self, units: u64) -> Result<String>;
    /// Evaluates the model as it is now and records the result for the next save.
    fn evaluate(&mut self) -> Result<()>;
    /// Writes the model and its manifest; `wall_seconds` counts every run that made it.
    fn save(&mut self, finished: bool, wall_seconds: f64) -> Result<()>;
}

/// When the driver stops, evaluates and checkpoints (0: never, before the end).
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Units to reach, in all.
    pub target: u64,
    /// Units a chunk (one progress line).
    pub chunk: u64,
    /// An evaluation each time the count crosses a multiple of this.
    pub eval_every: u64,
    /// A checkpoint each time the count crosses a multiple of this.
    pub checkpoint_every: u64,
}

/// Runs `training` to `plan.target`, then evaluates and saves it as finished. `wall_before` is
/// the wall time of the runs before this one (a resumed model's); returns the total.
pub fn run(training: &mut impl ChunkedTraining, plan: Plan, wall_before: f64) -> Result<f64> {
    let clock = Instant::now();
    let wall = |clock: &Instant| wall_before + clock.elapsed().as_secs_f64();
    let chunk = plan.chunk.max(1);
    while training.done() < plan.target {
        let before = training.done();
        let line = training.train_chunk(chunk.min(plan.target - before))?;
        eprintln!("{line}");
        let after = training.done();
        let crossed = |every: u64| every > 0 && after / every > before / every;
        if crossed(plan.eval_every) && after < plan.target {
            training.evaluate()?;
        }
        if crossed(plan.checkpoint_every) && after < plan.target {
            training.save(false, wall(&clock))?;
        }
    }
    training.evaluate()?;
    let total = wall(&clock);
    training.save(true, total)?;
    Ok(total)
}

/// The last line of a finished training run: `label: wrote OUT and OUT.json (N steps, S s)`.
#[cfg_attr(not(feature = "learn"), allow(dead_code))] // only the DQN commands use it
pub fn report_written(label: &str, out: &str, steps: usize, wall_seconds: f64) {
    eprintln!("{label}: wrote {out} and {out}.json ({steps} steps, {wall_seconds:.1} s)");
}

/// A DQN chunk's progress line: steps, TD loss, ε, finished episodes (`episodes` names them),
/// their mean return, and the rate.
#[cfg(feature = "learn")]
pub fn dqn_progress(
    steps: usize,
    target: usize,
    stats: &puzzlelab::agent::dqn::DqnStats,
    episodes: (&str, usize),
) -> String {
    let demonstrations = match (stats.margin_loss, stats.demonstration_agreement) {
        (None, None) => String::new(),
        (margin, agreement) => format!(
            " | loss/margin {} | agrees with the demonstrator {}",
            show(margin),
            show(agreement)
        ),
    };
    let failures = stats.greedy_failure_rate.map_or(String::new(), |rate| {
        format!(" | greedy probes failed {rate:.4}")
    });
    // A pre-training chunk plays no move: its rate is in gradient steps.
    let rate = if stats.env_steps == 0 && stats.updates > 0 {
        format!("{:.1} updates/s (no play)", stats.updates_per_s)
    } else {
        format!("{:.0} steps/s", stats.steps_per_s)
    };
    format!(
        "step {steps}/{target} | loss/td {} | epsilon {:.3} | {} {} | return {} | {rate}{demonstrations}{failures}",
        show(stats.td_loss),
        stats.epsilon,
        episodes.0,
        episodes.1,
        show(stats.episode_return),
    )
}

/// `x` with three decimals, or `-` when there is none (progress lines).
#[cfg_attr(not(feature = "learn"), allow(dead_code))] // only the DQN commands use it
pub fn show(x: Option<f32>) -> String {
    x.map_or("-".into(), |x| format!("{x:.3}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts what the driver asks for.
    #[derive(Default)]
    struct Recorder {
        done: u64,
        chunks: Vec<u64>,
        evaluations: Vec<u64>,
        saves: Vec<(u64, bool)>,
    }

    impl ChunkedTraining for Recorder {
        fn done(&self) -> u64 {
            self.done
        }
        fn train_chunk(&mut self, units: u64) -> Result<String> {
            self.done += units;
            self.chunks.push(units);
            Ok(format!("step {}", self.done))
        }
        fn evaluate(&mut self) -> Result<()> {
            self.evaluations.push(self.done);
            Ok(())
        }
        fn save(&mut self, finished: bool, _: f64) -> Result<()> {
            self.saves.push((self.done, finished));
            Ok(())
        }
    }

    #[test]
    fn chunks_evaluations_and_checkpoints_fall_on_their_boundaries() {
        let mut recorder = Recorder::default();
        let plan = Plan {
            target: 2500,
            chunk: 1000,
            eval_every: 1000,
            checkpoint_every: 2000,
        };
        run(&mut recorder, plan, 0.0).unwrap();
        assert_eq!(recorder.chunks, [1000, 1000, 500]);
        assert_eq!(
            recorder.evaluations,
            [1000, 2000, 2500],
            "the last one is the final"
        );
        assert_eq!(recorder.saves, [(2000, false), (2500, true)]);
    }

    #[test]
    fn a_resumed_run_goes_on_from_where_it_stopped() {
        let mut recorder = Recorder {
            done: 1500,
            ..Recorder::default()
        };
        let plan = Plan {
            target: 2000,
            chunk: 1000,
            eval_every: 0,
            checkpoint_every: 0,
        };
        let wall = run(&mut recorder, plan, 100.0).unwrap();
        assert_eq!(recorder.chunks, [500]);
        assert_eq!(recorder.evaluations, [2000]);
        assert_eq!(recorder.saves, [(2000, true)]);
        assert!(wall >= 100.0);
    }
}
