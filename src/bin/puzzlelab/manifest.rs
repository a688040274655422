//! The manifests written beside models (`MODEL.json`): what every DQN manifest holds, and what
//! `--resume` reads back from any of them. Each trainer's own fields are a struct next to it
//! that flattens [`DqnRun`] in.

use serde::Deserialize;
use serde_json::Value;

/// What resuming reads back from a manifest; fields an older manifest lacks take defaults.
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct ResumeRecord {
    /// Every command that made the model, in order.
    pub commands: Vec<String>,
    /// Wall time of all those runs.
    pub wall_seconds: f64,
    /// The run's seed (n-tuple networks; DQN models record theirs in the model file).
    pub seed: Option<u64>,
    /// Sliding DQN: whether the curriculum raises the difficulty.
    pub curriculum: bool,
    /// Sliding DQN: the walks' difficulty when the model was written.
    pub difficulty: Option<u32>,
    /// Sliding DQN: the reward's name.
    pub reward: Option<String>,
    /// Sliding DQN: episodes draw their difficulty up to the current one.
    pub mixed_difficulty: bool,
    /// Sliding DQN: every other episode starts uniformly at random.
    pub uniform_starts: bool,
    /// The evaluations made during training (2048 trainers).
    pub training_curve: Vec<Value>,
    /// n-tuple networks: the TD step size of the run resumed.
    pub alpha: Option<f64>,
}

impl ResumeRecord {
    /// The record in the manifest beside `path`: every manifest a training run writes lists the
    /// commands that made the model, so one without them (`{}`, or another JSON file) is refused
    /// rather than resumed with defaults.
    pub fn read(path: &str) -> anyhow::Result<Self> {
        let record: ResumeRecord = crate::files::read_manifest(path)?;
        if record.commands.is_empty() {
            anyhow::bail!("{path}.json: not the manifest of a training run (it lists no commands)");
        }
        Ok(record)
    }
}

#[cfg(feature = "learn")]
pub use dqn::{open_to_resume, refuse_changes_on_resume, DqnRun};

#[cfg(feature = "learn")]
mod dqn {
    use super::ResumeRecord;
    use crate::files::{self, machine, round};
    use anyhow::{bail, Context, Result};
    use burn::tensor::Device;
    use puzzlelab::agent::dqn::{Dqn, DqnConfig, QPolicy};
    use puzzlelab::env::Environment;
    use serde::Serialize;

    /// The part of a DQN model's manifest every trainer writes: the learner's hyper-parameters,
    /// seed, progress, wall time and steps/s over all runs, machine, build, date and commands.
    #[derive(Serialize, Debug)]
    pub struct DqnRun<'a> {
        pub model: &'a str,
        pub hyperparameters: &'a DqnConfig,
        pub seed: u64,
        pub steps: usize,
        pub episodes: usize,
        pub finished: bool,
        pub wall_seconds: f64,
        /// Over all the runs that made the model, evaluations and checkpoints included.
        pub steps_per_s: f64,
        pub machine: String,
        pub build: &'static str,
        pub date: String,
        pub command: Option<&'a String>,
        pub commands: &'a [String],
        pub puzzlelab_version: &'static str,
    }

    impl<'a> DqnRun<'a> {
        /// The record of `dqn`, written to `out` after `wall_seconds` in all.
        pub fn new<E: Environment>(
            out: &'a str,
            dqn: &'a Dqn<E>,
            wall_seconds: f64,
            commands: &'a [String],
            finished: bool,
        ) -> Self {
            let config = dqn.config();
            let moves = dqn.steps_done() as f64 * config.num_envs as f64;
            DqnRun {
                model: out,
                hyperparameters: config,
                seed: config.seed,
                steps: dqn.steps_done(),
                episodes: dqn.episodes_done(),
                finished,
                wall_seconds: round(wall_seconds, 1),
                steps_per_s: if wall_seconds > 0.0 {
                    (moves / wall_seconds).round()
                } else {
                    0.0
                },
                machine: machine(),
                build: files::build(),
                date: files::utc_now(),
                command: commands.last(),
                commands,
                puzzlelab_version: env!("CARGO_PKG_VERSION"),
            }
        }
    }

    /// A DQN model to resume: its bytes, the model, and its manifest's record.
    pub fn open_to_resume(path: &str) -> Result<(Vec<u8>, QPolicy, ResumeRecord)> {
        let bytes = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
        let policy =
            QPolicy::from_bytes(&bytes, &Device::flex()).with_context(|| path.to_string())?;
        if policy.training().is_none() {
            bail!("{path}: the model has no training record to resume");
        }
        Ok((bytes, policy, ResumeRecord::read(path)?))
    }

    /// `--resume` goes on with what the model records: refuses the first of the `given` flags
    /// (typed beside it) that is not one it `may_change`.
    pub fn refuse_changes_on_resume(given: &[String], may_change: &[&str]) -> Result<()> {
        match given
            .iter()
            .find(|flag| !may_change.contains(&flag.as_str()))
        {
            Some(flag) => bail!(
                "--resume goes on with the model's recorded puzzle and configuration: {flag} \
                 cannot change them"
            ),
            None => Ok(()),
        }
    }
}
