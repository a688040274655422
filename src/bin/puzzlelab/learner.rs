//! Every learnable puzzle's `train` and `eval --agent dqn` (`--features learn`), built once over
//! its learner's description ([`PuzzleLearner`]): a puzzle's own file only turns its flags into
//! the description's setup. One progress line per chunk, validations and checkpoints on their
//! boundaries (the driver of `training.rs`), the model and its manifest (`MODEL.json`: the run,
//! the setup, the reward, the curve, the validation), and `--resume` from any of them.

#![cfg_attr(not(feature = "learn"), allow(dead_code))]

#[cfg(feature = "learn")]
pub use learn::{average, bench, eval_model, full_path, read_policy, train, TrainRequest};

/// The long flags typed on the command line ([`note_given_flags`]).
static GIVEN_FLAGS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// Notes the long flags typed on the command line for the command that runs (main.rs, once):
/// `--resume` refuses those that would change what the model records.
pub fn note_given_flags(flags: Vec<String>) {
    GIVEN_FLAGS.set(flags).expect("noted once");
}

/// What `--resume` lets change besides a puzzle's own ([`TrainRequest`]'s `may_change`): the
/// run's length, chunks, checkpoints, file and device, and Adam's learning rate (a schedule:
/// go on at a lower rate). Every other flag typed beside it is refused.
const RESUME_MAY_CHANGE: [&str; 8] = [
    "--steps",
    "--chunk",
    "--eval-every",
    "--checkpoint-every",
    "--out",
    "--resume",
    "--device",
    "--lr",
];

#[cfg(feature = "learn")]
mod learn {
    use super::RESUME_MAY_CHANGE;
    use crate::dqn::{DeviceArg, DqnArgs, RunArgs};
    use crate::files::{read_manifest, write_model_and_manifest};
    use crate::manifest::{open_to_resume, refuse_changes_on_resume, DqnRun, ResumeRecord};
    use crate::training::{self, ChunkedTraining};
    use anyhow::{anyhow, Context, Result};
    use burn::tensor::Device;
    use puzzlelab::agent::dqn::{model_description, Dqn, DqnConfig, PuzzleLearner, QPolicy};

    impl DqnArgs {
        /// `defaults` with the flags given over them (the switches only turn options on).
        pub fn config(&self, defaults: DqnConfig) -> Result<DqnConfig> {
            let d = defaults;
            let config = DqnConfig {
                hidden: self.hidden.clone().unwrap_or(d.hidden.clone()),
                learning_rate: self.lr.unwrap_or(d.learning_rate),
                gamma: self.gamma.unwrap_or(d.gamma),
                batch_size: self.batch.unwrap_or(d.batch_size),
                replay_capacity: self.replay.unwrap_or(d.replay_capacity),
                num_envs: self.envs.unwrap_or(d.num_envs),
                warmup_episodes: self.warmup.unwrap_or(d.warmup_episodes),
                epsilon_decay: self.epsilon_decay.unwrap_or(d.epsilon_decay),
                epsilon_min: self.epsilon_min.unwrap_or(d.epsilon_min),
                target_update_interval: self.target_every.unwrap_or(d.target_update_interval),
                double_dqn: d.double_dqn || self.double,
                huber_loss: d.huber_loss || self.huber,
                mask_actions: d.mask_actions || self.mask,
                prioritized_replay: d.prioritized_replay || self.prioritized,
                full_backups: d.full_backups || self.full_backups,
                failure_share: self.failure_share.unwrap_or(d.failure_share),
                seed: self.seed.unwrap_or(0),
                ..d
            };
            config.validate()?;
            Ok(config)
        }
    }

    /// A change to a recorded setup.
    pub type SetupChange<'a, L> = Box<dyn FnOnce(&mut <L as PuzzleLearner>::Setup) + 'a>;

    /// What a puzzle's `train` hands the shared trainer besides its setup.
    pub struct TrainRequest<'a, L: PuzzleLearner> {
        pub dqn: &'a DqnArgs,
        pub run: &'a RunArgs,
        /// The puzzle's own flags that `--resume` lets change (its validation's size, the
        /// sliding walks' difficulty); every other flag but the run's is refused beside it.
        pub may_change: &'a [&'a str],
        /// Games (boards, puzzles a bin) of each validation.
        pub validation_size: usize,
        /// The validation set, when the puzzle's command makes its own (the sliding 4 × 4's
        /// optimal lengths come from pattern databases, a file); else the learner's.
        pub validation: Option<L::Validation>,
        /// What `--resume` may change of the recorded setup (the sliding walks' difficulty).
        pub on_resume: Option<SetupChange<'a, L>>,
        /// The command line, recorded in the manifest.
        pub command: &'a str,
    }

    impl<'a, L: PuzzleLearner> TrainRequest<'a, L> {
        /// A request with the run's and the learner's flags, `size` games a validation.
        pub fn new(
            dqn: &'a DqnArgs,
            run: &'a RunArgs,
            validation_size: usize,
            command: &'a str,
        ) -> Self {
            TrainRequest {
                dqn,
                run,
                may_change: &[],
                validation_size,
                validation: None,
                on_resume: None,
                command,
            }
        }
    }
    use serde::Serialize;
    use serde_json::{json, Map, Value};

    /// A run of learner `L`, as the driver steps it.
    struct LearnerRun<L: PuzzleLearner> {
        dqn: Dqn<L::Env>,
        setup: L::Setup,
        validation: L::Validation,
        out: String,
        target: usize,
        commands: Vec<String>,
        curve: Vec<Value>,
        evaluation: Option<L::Evaluation>,
        /// Where it trains (`cpu` or `gpu`).
        device: &'static str,
    }

    /// A model's manifest.
    #[derive(Serialize)]
    #[serde(bound = "")]
    struct Manifest<'a, L: PuzzleLearner> {
        #[serde(flatten)]
        run: DqnRun<'a>,
        what: String,
        puzzle: String,
        setup: &'a L::Setup,
        reward: String,
        parameters: usize,
        training_curve: &'a [Value],
        validation_seed: u64,
        validation_size: usize,
        validation: Option<&'a L::Evaluation>,
        resume: &'static str,
        /// Where the last command trained it (`cpu` or `gpu`); the file is the same either way.
        device: &'static str,
    }

    impl<L: PuzzleLearner> ChunkedTraining for LearnerRun<L> {
        fn done(&self) -> u64 {
            self.dqn.steps_done() as u64
        }

        fn train_chunk(&mut self, units: u64) -> Result<String> {
            let stats = self.dqn.train_steps(units as usize);
            let mut line = training::dqn_progress(
                self.dqn.steps_done(),
                self.target,
                &stats,
                (L::EPISODES, self.dqn.episodes_done()),
            );
            if let Some(note) = L::after_chunk(&mut self.setup, &mut self.dqn, &stats) {
                line = format!("{line} | {note}");
            }
            Ok(line)
        }

        fn evaluate(&mut self) -> Result<()> {
            let evaluation = L::evaluate(&self.dqn.policy(), &self.validation)?;
            eprintln!("validation: {}", L::summary(&evaluation));
            let mut point = Map::new();
            point.insert("step".into(), json!(self.dqn.steps_done()));
            point.insert("episodes".into(), json!(self.dqn.episodes_done()));
            if let Value::Object(fields) = serde_json::to_value(&evaluation)? {
                point.extend(fields);
            }
            self.curve.push(Value::Object(point));
            self.evaluation = Some(evaluation);
            Ok(())
        }

        fn save(&mut self, finished: bool, wall_seconds: f64) -> Result<()> {
            let policy = self.dqn.policy();
            let manifest = Manifest::<L> {
                run: DqnRun::new(&self.out, &self.dqn, wall_seconds, &self.commands, finished),
                what: model_description::<L>(&self.setup)?,
                puzzle: policy.puzzle_id().to_string(),
                setup: &self.setup,
                reward: L::reward(&self.setup, self.dqn.config()),
                parameters: self.dqn.network_config().num_params(),
                training_curve: &self.curve,
                validation_seed: L::VALIDATION_SEED,
                validation_size: L::validation_len(&self.validation),
                validation: self.evaluation.as_ref(),
                resume:
                    "weights, steps, episodes (ε); Adam's moments and the replay buffer start again",
                device: self.device,
            };
            write_model_and_manifest(&self.out, &policy.to_bytes(), &manifest)
        }
    }

    /// The setup a manifest records (under `setup`, or the learner's older key).
    fn recorded_setup<L: PuzzleLearner>(path: &str) -> Result<L::Setup> {
        let manifest: Value = read_manifest(path)?;
        let value = [Some("setup"), L::OLDER_SETUP_KEY]
            .into_iter()
            .flatten()
            .find_map(|key| match key {
                "" => Some(manifest.clone()),
                key => manifest.get(key).cloned(),
            })
            .unwrap_or(json!({}));
        serde_json::from_value(value).with_context(|| format!("{path}.json: the setup"))
    }

    /// The device `--device` asks for, and its name in words (`CPU`, `GPU`).
    pub fn training_device(arg: DeviceArg) -> Result<(Device, &'static str)> {
        match arg {
            DeviceArg::Cpu => Ok((Device::flex(), "CPU")),
            DeviceArg::Gpu => Ok((gpu()?, "GPU")),
            DeviceArg::Auto => match gpu() {
                Ok(device) => Ok((device, "GPU")),
                Err(error) => {
                    eprintln!("--device auto: training on the CPU ({error:#})");
                    Ok((Device::flex(), "CPU"))
                }
            },
        }
    }

    /// burn's wgpu backend on this machine's GPU (Vulkan, Metal or DX12). (The CLI is native;
    /// it is only compiled for wasm32 beside the wasm API's tests, where it has no GPU.)
    #[cfg(all(feature = "webgpu", not(target_arch = "wasm32")))]
    fn gpu() -> Result<Device> {
        Device::wgpu_options()
            .init()
            .map_err(|e| anyhow!("no GPU answered burn's wgpu backend: {e}"))
    }

    #[cfg(not(all(feature = "webgpu", not(target_arch = "wasm32"))))]
    fn gpu() -> Result<Device> {
        anyhow::bail!("--device gpu needs the GPU build: cargo build --release --features gpu")
    }

    /// `file`'s full path (the value of `flag`), so that a resume from another folder finds it.
    pub fn full_path(flag: &str, file: &str) -> Result<String> {
        let path = std::fs::canonicalize(file).with_context(|| format!("{flag} {file}"))?;
        Ok(path.to_string_lossy().to_string())
    }

    /// A model file on the CPU.
    pub fn read_policy(path: &str) -> Result<QPolicy> {
        let bytes = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
        QPolicy::from_bytes(&bytes, &Device::flex()).with_context(|| path.to_string())
    }

    /// `puzzlelab <puzzle> train`: `setup` from the puzzle's flags (or, with `--resume`, from the
    /// manifest), the learner's settings under the flags, then the chunked run.
    pub fn train<L: PuzzleLearner>(setup: L::Setup, request: TrainRequest<L>) -> Result<()> {
        let label = format!("{} train", L::PUZZLE);
        let resume = request.run.resume.clone();
        if resume.is_some() {
            let given = super::GIVEN_FLAGS.get().map_or(&[][..], Vec::as_slice);
            refuse_changes_on_resume(
                given,
                &[&RESUME_MAY_CHANGE[..], request.may_change].concat(),
            )?;
        }
        let (mut setup, mut config, record, bytes) = match &resume {
            Some(path) => {
                let (bytes, policy, record) = open_to_resume(path)?;
                let training = policy.training().expect("checked by open_to_resume");
                let mut config = training.config.clone();
                if let Some(lr) = request.dqn.lr {
                    config.learning_rate = lr;
                }
                let mut setup = recorded_setup::<L>(path)?;
                if let Some(change) = request.on_resume {
                    change(&mut setup);
                }
                (setup, config, record, Some(bytes))
            }
            None => {
                let defaults = L::config(&setup)?;
                // A run from another model's weights (--init) goes on from its history: the
                // commands that made that model come first in this one's manifest, and its wall
                // time counts (a model without a training manifest starts the list afresh, and
                // says so).
                let history = match request.run.init.as_deref() {
                    Some(path) => match ResumeRecord::read(path) {
                        Ok(record) => ResumeRecord {
                            commands: record.commands,
                            wall_seconds: record.wall_seconds,
                            ..ResumeRecord::default()
                        },
                        Err(why) => {
                            eprintln!(
                                "{label}: --init {path}: its history is not carried over ({why:#}); \
                                 this model's manifest starts with this run"
                            );
                            ResumeRecord::default()
                        }
                    },
                    None => ResumeRecord::default(),
                };
                (setup, request.dqn.config(defaults)?, history, None)
            }
        };
        L::settle(&mut setup, &mut config)?;
        let target = request
            .run
            .steps
            .ok_or_else(|| anyhow!("{label} needs --steps N (in all)"))?;
        let init = match request.run.init.as_deref() {
            Some(path) => {
                let fitted =
                    L::fit(&read_policy(path)?, &setup).with_context(|| path.to_string())?;
                let network = fitted.network_config();
                config = DqnConfig {
                    hidden: network.hidden.clone(),
                    conv: network.conv.clone(),
                    grid: network.grid.clone(),
                    ..config
                };
                Some(fitted.to_bytes())
            }
            None => None,
        };
        config.validate()?;
        let started = std::time::Instant::now();
        let validation = match request.validation {
            Some(validation) => validation,
            None => L::validation(&setup, request.validation_size, L::VALIDATION_SEED)?,
        };
        let (device, device_name) = training_device(request.run.device)?;
        let mut dqn = Dqn::new(L::environments(&setup)?, config, &device)?;
        if let Some(weights) = &init {
            dqn.load_weights(weights)?;
        }
        if let Some(bytes) = &bytes {
            dqn.resume(bytes)?;
            eprintln!("{label}: resuming at step {}", dqn.steps_done());
        }
        L::start(&setup, &mut dqn)?;
        if let Some(file) = L::demonstrator(&setup).map(str::to_owned) {
            // DQfD: the setup's demonstrations, recorded again on a resumed run (the same games).
            let clock = std::time::Instant::now();
            let demonstrator = crate::files::read_maybe_gzip(&file)?;
            let player = match L::labelled_player(&setup) {
                Some(model) => Some(crate::files::read_maybe_gzip(model)?),
                None => None,
            };
            let demonstrations = L::demonstrations(&mut setup, &demonstrator, player.as_deref())
                .with_context(|| file.clone())?;
            eprintln!(
                "{label}: {} demonstrated transitions from {file}, recorded in {:.1} s",
                demonstrations.len(),
                clock.elapsed().as_secs_f64()
            );
            dqn.add_demonstrations(demonstrations)?;
        }
        let out = match (request.run.out.clone(), resume) {
            (Some(out), _) | (None, Some(out)) => out,
            (None, None) => L::default_file(&setup)?,
        };
        eprintln!(
            "{label}: {} network, {} parameters, {} validation games, set up in {:.1} s; to step {target} on the {device_name}, writing {out}",
            L::network(&setup)?.name,
            dqn.network_config().num_params(),
            L::validation_len(&validation),
            started.elapsed().as_secs_f64()
        );
        let mut commands = record.commands;
        commands.push(request.command.to_string());
        let mut run = LearnerRun::<L> {
            dqn,
            setup,
            validation,
            out,
            target,
            commands,
            curve: record.training_curve,
            evaluation: None,
            device: match device_name {
                "GPU" => "gpu",
                _ => "cpu",
            },
        };
        let wall_seconds = training::run(&mut run, request.run.plan(target), record.wall_seconds)?;
        training::report_written(&label, &run.out, run.dqn.steps_done(), wall_seconds);
        Ok(())
    }

    /// `puzzlelab <puzzle> average`: the weighted mean of the weights of `models` (each
    /// `(path, share)`, all of one puzzle, network and reward; [`QPolicy::average`]), validated as
    /// its learner validates (on the set `validation` makes for the first model's setup, else the
    /// learner's own with its default size and seed), written to `out` with a
    /// manifest: the first model's setup and hyper-parameters, every input (file, share,
    /// checksum, steps, wall time, commands), the commands of all of them once each in order and
    /// then this one, and their wall times summed (inputs with the same commands, checkpoints of
    /// one run, count once, at the latest; an earlier run that two different histories share
    /// counts in each).
    pub fn average<L: PuzzleLearner>(
        models: &[(String, f64)],
        validation: impl FnOnce(&L::Setup) -> Result<Option<L::Validation>>,
        out: &str,
        command: &str,
    ) -> Result<()> {
        let clock = std::time::Instant::now();
        let (first, _) = models
            .first()
            .ok_or_else(|| anyhow!("average needs --models A,B,..."))?;
        let setup = recorded_setup::<L>(first)?;
        // Every input is read and checked against the first before anything slow runs.
        let (mut policies, mut records) = (Vec::new(), Vec::new());
        let mut what: Option<(String, String)> = None;
        for (path, share) in models {
            let policy = L::fit(&read_policy(path)?, &setup).with_context(|| path.clone())?;
            let config = &policy
                .training()
                .ok_or_else(|| anyhow!("{path}: the model records no training"))?
                .config;
            let reward = format!(
                "reward {}, discount {}",
                L::reward(&recorded_setup::<L>(path)?, config),
                config.gamma
            );
            let network = format!(
                "{} with {:?}, action masking {}",
                policy.puzzle_id(),
                policy.network_config(),
                policy.mask_actions
            );
            match &what {
                None => what = Some((reward, network)),
                Some((first_reward, first_network)) => {
                    for (kind, mine, theirs) in [
                        ("network", &network, first_network),
                        ("reward", &reward, first_reward),
                    ] {
                        anyhow::ensure!(
                            mine == theirs,
                            "only models of one puzzle, network and reward average: {path} has \
                             another {kind} than {first} ({mine}, against {theirs})"
                        );
                    }
                }
            }
            let manifest: Value = read_manifest(path)?;
            records.push((path, *share, manifest, ResumeRecord::read(path)?));
            policies.push((policy, *share));
        }
        let averaged = QPolicy::average(&policies)?;
        let validation = match validation(&setup)? {
            Some(validation) => validation,
            None => L::validation(&setup, L::VALIDATION_SIZE, L::VALIDATION_SEED)?,
        };
        let evaluation = L::evaluate(&averaged, &validation)?;
        eprintln!("validation: {}", L::summary(&evaluation));
        // Checkpoints of one run list the same commands: that run's time counts once (its latest).
        let mut runs = std::collections::BTreeMap::<Vec<String>, f64>::new();
        let (mut commands, mut inputs) = (Vec::<String>::new(), Vec::new());
        let first_manifest = records[0].2.clone();
        for (path, share, manifest, record) in records {
            for line in &record.commands {
                if !commands.contains(line) {
                    commands.push(line.clone());
                }
            }
            let run = runs.entry(record.commands.clone()).or_default();
            *run = run.max(record.wall_seconds);
            inputs.push(json!({
                "model": path,
                "share": share,
                "model_fnv1a": manifest.get(crate::files::MODEL_CHECKSUM),
                "steps": manifest.get("steps"),
                "wall_seconds": record.wall_seconds,
                "commands": record.commands,
            }));
        }
        commands.push(command.to_string());
        let wall_seconds: f64 = runs.values().sum();
        let mut manifest = first_manifest;
        if let Some(fields) = manifest.as_object_mut() {
            for stale in [
                "training_curve",
                "evaluations",
                "command",
                "steps_per_s",
                "device",
            ] {
                fields.remove(stale);
            }
        }
        let seconds = clock.elapsed().as_secs_f64();
        for (key, value) in [
            (
                "what",
                json!(format!(
                    "{}; the weighted mean of {} trained models' weights",
                    model_description::<L>(&setup)?,
                    models.len()
                )),
            ),
            ("model", json!(out)),
            ("inputs", json!(inputs)),
            ("commands", json!(commands)),
            (
                "wall_seconds",
                json!(crate::files::round(wall_seconds + seconds, 1)),
            ),
            ("average_seconds", json!(crate::files::round(seconds, 1))),
            ("machine", json!(crate::files::machine())),
            ("build", json!(crate::files::build())),
            ("puzzlelab_version", json!(env!("CARGO_PKG_VERSION"))),
            ("date", json!(crate::files::utc_now())),
            ("finished", json!(true)),
            ("validation_seed", json!(L::VALIDATION_SEED)),
            ("validation_size", json!(L::validation_len(&validation))),
            ("validation", serde_json::to_value(&evaluation)?),
        ] {
            manifest[key] = value;
        }
        write_model_and_manifest(out, &averaged.to_bytes(), &manifest)?;
        eprintln!("{} average: wrote {out} and {out}.json", L::PUZZLE);
        Ok(())
    }

    /// `puzzlelab <puzzle> bench-dqn`: for each of `setups` (named), `L`'s learner with its
    /// default settings on `device`: training steps per second, timed over `steps` once the
    /// replay holds a batch and 10 gradient steps are done, and the latency of one greedy move on
    /// 200 fresh episodes' starts. As JSON on stdout, `what` saying what is timed.
    pub fn bench<L: PuzzleLearner>(
        what: &str,
        setups: &[(&str, L::Setup)],
        steps: usize,
        seed: u64,
        device: DeviceArg,
    ) -> Result<()> {
        use puzzlelab::env::Environment;
        let (device, device_name) = training_device(device)?;
        let mut cases = Vec::new();
        for (name, setup) in setups {
            let mut setup = setup.clone();
            let mut config = DqnConfig {
                warmup_episodes: 2,
                eval_interval_episodes: 0,
                seed,
                ..L::config(&setup)?
            };
            L::settle(&mut setup, &mut config)?;
            // One factory: its first environment times the greedy moves, the rest train.
            let mut environments = L::environments(&setup)?;
            let mut env = environments();
            let mut dqn = Dqn::new(environments, config, &device)?;
            L::start(&setup, &mut dqn)?;
            while dqn.updates_done() < 10 {
                dqn.train_steps(50);
            }
            let clock = std::time::Instant::now();
            let stats = dqn.train_steps(steps);
            let train_seconds = clock.elapsed().as_secs_f64();
            let policy = dqn.policy();
            let mut observation = vec![0.0; policy.network_config().observation_len];
            let mut latencies = Vec::new();
            for episode in 0..200 {
                env.reset(episode);
                env.write_observation(&mut observation);
                let clock = std::time::Instant::now();
                std::hint::black_box(policy.greedy_action(&observation, None));
                latencies.push(clock.elapsed().as_secs_f64() * 1e6);
            }
            latencies.sort_by(f64::total_cmp);
            cases.push(json!({
                "puzzle": name,
                "network": policy.network_config(),
                "parameters": policy.network_config().num_params(),
                "train_steps": steps,
                "gradient_steps": stats.updates,
                "train_seconds": train_seconds,
                "train_steps_per_s": steps as f64 / train_seconds,
                "greedy_move_us_median": latencies[latencies.len() / 2],
                "greedy_move_us_p90": latencies[latencies.len() * 9 / 10],
            }));
        }
        crate::files::print_json(&json!({
            "what": what,
            "backend": match device_name {
                "GPU" => "gpu (burn's wgpu backend)",
                _ => "cpu (flex)",
            },
            "machine": crate::files::machine(),
            "build": crate::files::build(),
            "date": crate::files::utc_now(),
            "cases": cases,
        }));
        Ok(())
    }

    /// `puzzlelab <puzzle> eval --agent dqn`: the model at `path` (fitted to `setup`'s board)
    /// plays `size` validation games drawn from `seed`.
    pub fn eval_model<L: PuzzleLearner>(
        path: &str,
        setup: &L::Setup,
        size: usize,
        seed: u64,
    ) -> Result<L::Evaluation> {
        let policy = L::fit(&read_policy(path)?, setup).with_context(|| path.to_string())?;
        let validation = L::validation(setup, size, seed)?;
        L::evaluate(&policy, &validation).with_context(|| path.to_string())
    }
}

#[cfg(all(test, feature = "learn"))]
mod tests {
    use clap::ValueEnum;
    use puzzlelab::agent::dqn::{dust, minesweeper, sudoku, PuzzleLearner};

    /// Every value `--net` takes, aliases included, sorted.
    fn flag_values<T: ValueEnum>() -> Vec<String> {
        let mut names: Vec<String> = T::value_variants()
            .iter()
            .flat_map(|v| {
                let value = v.to_possible_value().expect("named");
                value
                    .get_name_and_aliases()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect();
        names.sort();
        names
    }

    /// Every network name the learner reads, aliases included, sorted.
    fn network_names<L: PuzzleLearner>() -> Vec<String> {
        let mut names: Vec<String> = L::NETWORKS
            .iter()
            .flat_map(|n| std::iter::once(n.name).chain(n.aliases.iter().copied()))
            .map(str::to_string)
            .collect();
        names.sort();
        names
    }

    /// `sliding train --reward R` records R as the reward's name, which the trainer reads back.
    #[test]
    fn each_reward_flag_is_the_name_of_its_reward() {
        use puzzlelab::env::sliding::RewardScheme;
        for value in crate::dqn::RewardArg::value_variants() {
            let name = crate::dqn::flag_value(value);
            let scheme = RewardScheme::from_name(&name);
            assert_eq!(scheme.map(RewardScheme::name), Some(name.as_str()));
        }
    }

    #[test]
    fn each_net_flag_offers_exactly_its_learners_networks() {
        assert_eq!(
            flag_values::<crate::dqn_minesweeper::NetArg>(),
            network_names::<minesweeper::MinesweeperLearner>()
        );
        assert_eq!(
            flag_values::<crate::dqn_sudoku::NetArg>(),
            network_names::<sudoku::SudokuLearner>()
        );
        assert_eq!(
            flag_values::<crate::dqn_dust::NetArg>(),
            network_names::<dust::DustLearner>()
        );
    }
}
