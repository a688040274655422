//! The play-and-replay learner, read top to bottom as CleanRL's `dqn.py`: what a chunk reports,
//! the learner's state and its construction, then the training loop (act ε-greedily, store the
//! transition, take a gradient step on a replayed batch, follow with the target network), the
//! gradient step itself, and the in-training evaluation. The lines of the algorithm are marked
//! `// DQN:`; the rest is plumbing. The step's arithmetic (the batch on the device, the TD target
//! and loss, Adam) is in `td.rs`; the other algorithm, full backups, in `full_backup.rs`.

use super::failures::FailurePool;
use super::network::{q_values, read_floats};
use super::replay::{LabelBatch, LabelBuffer};
use super::td::{adam, elementwise_loss, next_values, q_and_target, td_loss, BatchTensors};
use super::{
    best_allowed, epsilon_at, evaluate, Batch, DqnConfig, DqnError, Evaluation, QNetwork,
    QNetworkConfig, ReplayBuffer, Transition,
};
use crate::env::{Environment, TimeLimit};
use crate::rng::Rng;
use burn::module::Module;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Tensor, TensorData};
use web_time::Instant;

/// Adds `more` to a chunk's running one-element `sum` (a loss, a count), kept on the device and
/// read once at the chunk's end.
pub(super) fn accumulate(sum: &mut Option<Tensor<1>>, more: Tensor<1>) {
    *sum = Some(match sum.take() {
        Some(total) => total + more,
        None => more,
    });
}

/// What a chunk of training did (see the module docs for the metric names).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DqnStats {
    /// Training steps in this chunk (each moves every environment once).
    pub steps: usize,
    /// Environment steps (transitions) in this chunk.
    pub env_steps: usize,
    /// Gradient steps in this chunk.
    pub updates: usize,
    /// Episodes that ended in this chunk.
    pub episodes: usize,
    /// `loss/td`: mean TD loss of the chunk's gradient steps, if any ran.
    pub td_loss: Option<f32>,
    /// `charts/epsilon`: ε after the chunk.
    pub epsilon: f32,
    /// `charts/episode_return`: mean undiscounted return of the episodes that ended.
    pub episode_return: Option<f32>,
    /// `charts/episode_length`: their mean length.
    pub episode_length: Option<f32>,
    /// `charts/solved_rate`: the fraction of them that ended solved.
    pub solved_rate: Option<f32>,
    /// Solved rates of the in-training evaluations of this chunk, in order.
    pub eval_solved_rates: Vec<f32>,
    /// `eval/final_distance`: the dissertation's average final distance of the chunk's last
    /// in-training evaluation ([`Evaluation::mean_final_distance`]), if one ran.
    pub eval_final_distance: Option<f32>,
    /// `perf/steps_per_s`: environment steps per second of wall time.
    pub steps_per_s: f32,
    /// `perf/updates_per_s`: gradient steps per second of wall time (what a pre-training chunk,
    /// which plays no move, runs at).
    pub updates_per_s: f32,
    /// `loss/margin`: with demonstrations, the chunk's mean large-margin loss (DQfD's
    /// supervised part, `demonstrations.rs`).
    pub margin_loss: Option<f32>,
    /// `demonstrations/agreement`: with demonstrations, the share of the chunk's demonstrated
    /// batch rows whose greedy action was the demonstrator's (each before its step's update).
    pub demonstration_agreement: Option<f32>,
    /// `failures/greedy_rate`: with [`DqnConfig::failure_share`], the share of the chunk's
    /// probe games (greedy, from fresh starts) that the policy did not finish.
    pub greedy_failure_rate: Option<f32>,
}

impl DqnStats {
    /// This chunk's stats followed by `next`'s, as one chunk: counts added, losses averaged
    /// over their gradient steps, the rest (ε, episodes' means, rate) from `next`.
    pub(super) fn followed_by(self, next: DqnStats) -> DqnStats {
        let mean = |a: Option<f32>, b: Option<f32>| match (a, b) {
            (Some(a), Some(b)) => {
                let total = (self.updates + next.updates).max(1) as f32;
                Some((a * self.updates as f32 + b * next.updates as f32) / total)
            }
            (a, b) => b.or(a),
        };
        let mut eval_solved_rates = self.eval_solved_rates.clone();
        eval_solved_rates.extend(&next.eval_solved_rates);
        DqnStats {
            steps: self.steps + next.steps,
            env_steps: self.env_steps + next.env_steps,
            updates: self.updates + next.updates,
            episodes: self.episodes + next.episodes,
            td_loss: mean(self.td_loss, next.td_loss),
            margin_loss: mean(self.margin_loss, next.margin_loss),
            eval_solved_rates,
            ..next
        }
    }

    /// `eval/solved_rate`: the chunk's last in-training evaluation, if one ran.
    pub fn eval_solved_rate(&self) -> Option<f32> {
        self.eval_solved_rates.last().copied()
    }

    /// The metrics under their stable names; those with no value this chunk are left out.
    pub fn metrics(&self) -> Vec<(&'static str, f32)> {
        let optional = [
            ("loss/td", self.td_loss),
            ("charts/episode_return", self.episode_return),
            ("charts/episode_length", self.episode_length),
            ("charts/solved_rate", self.solved_rate),
            ("eval/solved_rate", self.eval_solved_rate()),
            ("eval/final_distance", self.eval_final_distance),
            ("loss/margin", self.margin_loss),
            ("demonstrations/agreement", self.demonstration_agreement),
            ("failures/greedy_rate", self.greedy_failure_rate),
        ];
        let mut metrics = vec![
            ("charts/epsilon", self.epsilon),
            ("perf/steps_per_s", self.steps_per_s),
            ("perf/updates_per_s", self.updates_per_s),
        ];
        metrics.extend(optional.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))));
        metrics
    }
}

/// A deep Q-learner, the environments it plays, and its replay buffer.
pub struct Dqn<E: Environment> {
    pub(super) config: DqnConfig,
    pub(super) network_config: QNetworkConfig,
    pub(super) puzzle_id: String,
    /// The training device (with autodiff) and the same device without it (target, acting).
    pub(super) device: Device,
    pub(super) inference_device: Device,
    pub(super) policy: QNetwork,
    pub(super) target: QNetwork,
    pub(super) optimizer: ModuleOptimizer,
    pub(super) buffer: ReplayBuffer,
    pub(super) rng: Rng,
    pub(super) envs: Vec<TimeLimit<E>>,
    pub(super) eval_env: E,
    /// The current observation of each environment, `[num_envs, observation_len]`.
    pub(super) observations: Vec<f32>,
    pub(super) episode_returns: Vec<f32>,
    pub(super) episodes_started: u64,
    pub(super) episodes_done: usize,
    pub(super) steps_done: usize,
    pub(super) updates_done: usize,
    pub(super) next_eval_at: usize,
    pub(super) evaluations_done: u64,
    /// Episodes before updates start (the warm-up; moved on by [`Dqn::resume`]).
    pub(super) updates_start_at_episode: usize,
    pub(super) batch: Batch,
    /// States with every action backed up ([`DqnConfig::backup_visited`]; empty otherwise).
    pub(super) labels: LabelBuffer,
    pub(super) label_batch: LabelBatch,
    /// Whether the networks live on a device that can be lost (a GPU): then a copy of the
    /// weights is read back after every chunk ([`Dqn::fall_back_to`] goes on from it).
    pub(super) keeps_copy: bool,
    /// The policy network's weights after the last chunk, and the steps done then.
    pub(super) weights_copy: Option<(Vec<f32>, usize)>,
    /// The steps done when the learner fell back to the CPU from the copy, if it did.
    pub(super) fell_back_at: Option<usize>,
    /// An expert's transitions to learn from as well (`demonstrations.rs`), if given.
    pub(super) demonstrations: Option<ReplayBuffer>,
    /// States where the greedy policy failed ([`DqnConfig::failure_share`], `failures.rs`).
    pub(super) failures: FailurePool<E>,
}

impl<E: Environment> Dqn<E> {
    // ---- Set-up: the networks, the buffer, the environments (plumbing) ----

    /// A learner with fresh weights; `make_env` is called `num_envs + 1` times (the last one is
    /// kept for evaluation). `device` is where the networks live: `Device::flex()` on the CPU.
    pub fn new(
        mut make_env: impl FnMut() -> E,
        config: DqnConfig,
        device: &Device,
    ) -> Result<Self, DqnError> {
        config.validate()?;
        let eval_env = make_env();
        let network_config = QNetworkConfig {
            observation_len: eval_env.observation_len(),
            hidden: config.hidden.clone(),
            num_actions: eval_env.num_actions(),
            conv: config.conv.clone(),
            grid: config.grid.clone(),
        };
        network_config.check().map_err(DqnError::InvalidConfig)?;
        if (config.full_backups || config.backup_visited) && eval_env.after(0).is_none() {
            return Err(DqnError::InvalidConfig(
                "full backups need an environment that can be copied after a move".into(),
            ));
        }
        let envs: Vec<_> = (0..config.num_envs)
            .map(|_| TimeLimit::new(make_env(), config.max_episode_steps))
            .collect();
        let keeps_copy = device.clone().without_autodiff() != Device::flex();
        let device = device.clone().autodiff();
        let inference_device = device.clone().without_autodiff();
        let policy = network_config.init(&device, config.seed);
        let first_eval = if config.eval_interval_episodes == 0 {
            usize::MAX
        } else {
            config
                .warmup_episodes
                .next_multiple_of(config.eval_interval_episodes)
                .max(config.eval_interval_episodes)
        };
        let labels = LabelBuffer::new(
            if config.backup_visited {
                config.replay_capacity
            } else {
                0
            },
            network_config.observation_len,
            network_config.num_actions,
        );
        let mut dqn = Dqn {
            puzzle_id: eval_env.puzzle_id(),
            target: policy.valid(),
            policy,
            optimizer: adam(),
            buffer: if config.prioritized_replay {
                ReplayBuffer::prioritized
            } else {
                ReplayBuffer::new
            }(
                config.replay_capacity,
                network_config.observation_len,
                network_config.num_actions,
            ),
            rng: Rng::new(config.seed),
            observations: vec![0.0; config.num_envs * network_config.observation_len],
            episode_returns: vec![0.0; config.num_envs],
            envs,
            eval_env,
            device,
            inference_device,
            network_config,
            episodes_started: 0,
            episodes_done: 0,
            steps_done: 0,
            updates_done: 0,
            next_eval_at: first_eval,
            evaluations_done: 0,
            updates_start_at_episode: config.warmup_episodes,
            batch: Batch::default(),
            labels,
            label_batch: LabelBatch::default(),
            keeps_copy,
            weights_copy: None,
            fell_back_at: None,
            demonstrations: None,
            failures: FailurePool::default(),
            config,
        };
        for i in 0..dqn.envs.len() {
            dqn.start_episode(i);
        }
        Ok(dqn)
    }

    /// The configuration.
    pub fn config(&self) -> &DqnConfig {
        &self.config
    }

    /// The network's shape.
    pub fn network_config(&self) -> &QNetworkConfig {
        &self.network_config
    }

    /// Training steps so far.
    pub fn steps_done(&self) -> usize {
        self.steps_done
    }

    /// Episodes finished so far.
    pub fn episodes_done(&self) -> usize {
        self.episodes_done
    }

    /// Gradient steps so far.
    pub fn updates_done(&self) -> usize {
        self.updates_done
    }

    /// The current ε.
    pub fn epsilon(&self) -> f32 {
        let c = &self.config;
        epsilon_at(
            c.epsilon_start,
            c.epsilon_decay,
            c.epsilon_min,
            self.episodes_done,
        )
    }

    /// Calls `f` on every environment, the evaluation one included (for example to raise the
    /// difficulty of a curriculum); changes apply from each environment's next episode.
    pub fn for_each_env(&mut self, mut f: impl FnMut(&mut E)) {
        for env in &mut self.envs {
            f(&mut env.env);
        }
        f(&mut self.eval_env);
    }

    /// Resets environment `i` with the next episode seed (skipping starts that are already
    /// solved) and records its observation.
    pub(super) fn start_episode(&mut self, i: usize) {
        let env = &mut self.envs[i];
        for _ in 0..1000 {
            let seed = self
                .config
                .seed
                .wrapping_mul(1_000_003)
                .wrapping_add(self.episodes_started);
            self.episodes_started += 1;
            env.reset(seed);
            if !env.is_terminal() {
                break;
            }
        }
        let n = self.network_config.observation_len;
        env.write_observation(&mut self.observations[i * n..(i + 1) * n]);
        self.episode_returns[i] = 0.0;
    }

    // ---- The algorithm: act ε-greedily, store, replay a batch, update, sync the target ----

    /// Runs `steps` training steps: every environment takes one ε-greedy action, the transitions
    /// go to the replay buffer, and (after the warm-up episodes) the policy network takes one
    /// gradient step on a sampled batch. With demonstrations (`demonstrations.rs`) the first
    /// [`DqnConfig::pretrain_steps`] are gradient steps on them alone, and there is no warm-up.
    ///
    /// Blocks on readback, on the CPU: on WebGPU in a browser use [`Dqn::train_steps_async`].
    pub fn train_steps(&mut self, steps: usize) -> DqnStats {
        burn::tensor::read_sync(self.train_steps_async(steps)).expect("the CPU reads back")
    }

    /// [`Dqn::train_steps`] without blocking: every readback (the actions' Q-values, the chunk's
    /// loss, the weights for an evaluation) is awaited, so it also runs on WebGPU in a browser.
    /// An error when the device stops answering (the GPU lost): see [`Dqn::fall_back_to`].
    pub async fn train_steps_async(&mut self, steps: usize) -> Result<DqnStats, DqnError> {
        if self.config.full_backups {
            return self.train_full_backups(steps).await;
        }
        if self.config.backup_visited {
            return self.train_visited_backups(steps).await;
        }
        if self.pretraining() {
            // DQfD: pre-training first; a call that passes its end goes on playing.
            let left = self.config.pretrain_steps - self.steps_done;
            let pretrained = self.pretrain(steps.min(left)).await?;
            if steps <= left {
                return Ok(pretrained);
            }
            let played = self.play_and_replay(steps - left).await?;
            return Ok(pretrained.followed_by(played));
        }
        self.play_and_replay(steps).await
    }

    /// [`Dqn::train_steps_async`]'s play and replay (after any pre-training).
    async fn play_and_replay(&mut self, steps: usize) -> Result<DqnStats, DqnError> {
        self.copy_weights_if_none().await?;
        let started = Instant::now();
        let (n, num_actions) = (
            self.network_config.observation_len,
            self.network_config.num_actions,
        );
        let mut stats = DqnStats::default();
        let mut tally = EpisodeTally::default();
        let mut loss_sum: Option<Tensor<1>> = None;
        let mut demonstrated_tally = super::demonstrations::DemonstrationTally::default();
        let mut next_observation = vec![0.0; n];
        let mut mask = vec![true; num_actions];
        for _ in 0..steps {
            // DQN: ε-greedy behaviour, ε decaying per finished episode.
            let actions = self.choose_actions(self.epsilon()).await?;
            for (i, &action) in actions.iter().enumerate() {
                let env = &mut self.envs[i];
                let step = env.step(action);
                env.write_observation(&mut next_observation);
                env.action_mask(&mut mask);
                // DQN: store ⟨s, a, r, s′, done⟩.
                self.buffer.push(Transition {
                    observation: &self.observations[i * n..(i + 1) * n],
                    action,
                    reward: step.reward,
                    next_observation: &next_observation,
                    terminated: step.terminated,
                    next_mask: &mask,
                });
                if !self.after_step(i, step, &mut tally) {
                    self.observations[i * n..(i + 1) * n].copy_from_slice(&next_observation);
                }
            }
            // With demonstrations the batch is whole from the first step: no warm-up.
            let demonstrated = self.demonstrations.is_some();
            if demonstrated
                || (self.episodes_done >= self.updates_start_at_episode
                    && self.buffer.len() >= self.config.batch_size)
            {
                let loss = if demonstrated {
                    // DQfD: a share of the batch demonstrated, with the large-margin loss.
                    self.demonstration_update(&mut demonstrated_tally).await?
                } else {
                    self.update().await?
                };
                accumulate(&mut loss_sum, loss);
                stats.updates += 1;
                self.updates_done += 1;
                self.follow_target();
            }
            self.end_training_step(&mut stats).await?;
        }
        tally.report(&mut stats);
        demonstrated_tally.close(&mut stats).await?;
        self.close_chunk(stats, loss_sum, started).await
    }

    /// Books environment `i`'s `step` (already taken): its return, and when the episode ended,
    /// the tally and a new episode. Returns whether a new episode started.
    pub(super) fn after_step(
        &mut self,
        i: usize,
        step: crate::env::Step,
        tally: &mut EpisodeTally,
    ) -> bool {
        self.episode_returns[i] += step.reward;
        tally.env_steps += 1;
        if !(step.terminated || step.truncated) {
            return false;
        }
        tally.returns += self.episode_returns[i] as f64;
        tally.lengths += self.envs[i].steps();
        tally.solved += usize::from(step.terminated);
        tally.episodes += 1;
        self.episodes_done += 1;
        self.start_episode(i);
        true
    }

    /// Counts a training step and runs the in-training evaluation when it is due.
    pub(super) async fn end_training_step(&mut self, stats: &mut DqnStats) -> Result<(), DqnError> {
        self.steps_done += 1;
        stats.steps += 1;
        if self.episodes_done >= self.next_eval_at {
            while self.next_eval_at <= self.episodes_done {
                self.next_eval_at += self.config.eval_interval_episodes;
            }
            self.evaluate_into(stats).await?;
        }
        Ok(())
    }

    /// One action per environment: a random allowed one with probability ε, else the greedy one.
    pub(super) async fn choose_actions(&mut self, epsilon: f32) -> Result<Vec<usize>, DqnError> {
        let num_actions = self.network_config.num_actions;
        let explore: Vec<bool> = (0..self.envs.len())
            .map(|_| self.rng.chance(epsilon as f64))
            .collect();
        let values = if explore.iter().all(|&e| e) {
            Vec::new()
        } else {
            q_values(
                &self.policy.valid(),
                &self.observations,
                num_actions,
                &self.inference_device,
            )
            .await?
        };
        let mut allowed = vec![true; num_actions];
        let mut actions = Vec::with_capacity(self.envs.len());
        for (i, env) in self.envs.iter().enumerate() {
            if self.config.mask_actions {
                env.action_mask(&mut allowed);
            }
            let action = if explore[i] {
                let legal: Vec<usize> = (0..num_actions).filter(|&a| allowed[a]).collect();
                *self.rng.choose(&legal)
            } else {
                best_allowed(&values[i * num_actions..(i + 1) * num_actions], &allowed)
            };
            actions.push(action);
        }
        Ok(actions)
    }

    /// DQN: the target network follows the policy network every `target_update_interval`
    /// gradient steps (call after each one).
    pub(super) fn follow_target(&mut self) {
        if self
            .updates_done
            .is_multiple_of(self.config.target_update_interval)
        {
            self.target = self.policy.valid();
        }
    }

    /// One gradient step on a sampled batch; returns the TD loss (a one-element tensor, left
    /// on the device so that a chunk reads it back once).
    async fn update(&mut self) -> Result<Tensor<1>, DqnError> {
        self.sample_batch();
        let tensors = self.upload_batch();
        if self.config.prioritized_replay {
            // Prioritised replay: each transition's loss weighted by importance sampling.
            let (b, batch) = (self.config.batch_size, &self.batch);
            let errors = self.td_errors(&tensors); // [b, 1]
            let weights = Tensor::<2>::from_data(
                TensorData::new(batch.weights.clone(), [b, 1]),
                &self.device,
            );
            let losses = elementwise_loss(errors.clone(), self.config.huber_loss);
            let td_errors = read_floats(errors.without_autodiff()).await?;
            let (indices, alpha) = (batch.indices.clone(), self.config.priority_alpha);
            self.buffer.update_priorities(&indices, &td_errors, alpha);
            let loss = (losses * weights).mean();
            self.apply_gradients(loss.clone());
            return Ok(loss.without_autodiff());
        }
        let loss = self.td_loss(&tensors);
        self.apply_gradients(loss.clone());
        Ok(loss.without_autodiff())
    }

    /// Draws the next batch from the replay buffer into `self.batch` (uniformly, or by priority
    /// with β growing from its start to 1 over the configured updates).
    pub(super) fn sample_batch(&mut self) {
        let b = self.config.batch_size;
        if self.config.prioritized_replay {
            let c = &self.config;
            let progress = self.updates_done as f32 / c.priority_beta_updates.max(1) as f32;
            let beta = c.priority_beta_start + (1.0 - c.priority_beta_start) * progress.min(1.0);
            self.buffer
                .sample_prioritized(b, beta, &mut self.rng, &mut self.batch);
        } else {
            self.buffer.sample(b, &mut self.rng, &mut self.batch);
        }
    }

    /// `self.batch` on the device.
    pub(super) fn upload_batch(&self) -> BatchTensors {
        BatchTensors::upload(
            &self.batch,
            &self.network_config,
            &self.device,
            &self.inference_device,
        )
    }

    /// DQN: Q(s, a) of the actions taken (with autodiff) and the TD target; both `[b, 1]`.
    fn q_and_target(&self, batch: &BatchTensors) -> (Tensor<2>, Tensor<2>) {
        q_and_target(&self.config, &self.policy, &self.target, batch)
    }

    /// DQN: each transition's TD error Q(s, a) − target (`[b, 1]`, with autodiff).
    fn td_errors(&self, batch: &BatchTensors) -> Tensor<2> {
        let (q_taken, td_target) = self.q_and_target(batch);
        q_taken - td_target
    }

    /// DQN: the batch's mean TD loss ([`td_loss`]), with autodiff.
    pub(super) fn td_loss(&self, batch: &BatchTensors) -> Tensor<1> {
        td_loss(&self.config, &self.policy, &self.target, batch)
    }

    /// DQN: one Adam step on the policy network down the gradient of `loss`.
    pub(super) fn apply_gradients(&mut self, loss: Tensor<1>) {
        let gradients = GradientsParams::from_grads(loss.backward(), &self.policy);
        self.policy =
            self.optimizer
                .step(self.config.learning_rate, self.policy.clone(), gradients);
    }

    /// DQN: max Q′(s′, ·) of each next observation ([`next_values`]).
    pub(super) fn next_values(
        &self,
        next_observations: Tensor<2>,
        penalties: Tensor<2>,
    ) -> Tensor<2> {
        next_values(
            &self.config,
            &self.policy,
            &self.target,
            next_observations,
            penalties,
        )
    }

    // ---- Evaluation during training, and the chunk's report (plumbing) ----

    /// The dissertation's in-situ evaluation: `eval_episodes` fresh puzzles, greedy, within the
    /// episode's move limit (played by a copy of the network on the CPU, which answers one
    /// position at a time fastest, whatever device trains).
    async fn evaluate_in_training(&mut self) -> Result<Evaluation, DqnError> {
        let policy = self.policy_on(&Device::flex()).await?;
        let count = self.config.eval_episodes as u64;
        let first = self.evaluations_done * count;
        self.evaluations_done += 1;
        let seed = self.config.seed;
        let seeds = (first..first + count).map(move |k| evaluation_seed(seed, k));
        Ok(evaluate(
            &policy,
            &mut self.eval_env,
            seeds,
            self.config.max_episode_steps,
        ))
    }

    /// Runs an in-training evaluation and records it in the chunk's `stats`.
    pub(super) async fn evaluate_into(&mut self, stats: &mut DqnStats) -> Result<(), DqnError> {
        let evaluation = self.evaluate_in_training().await?;
        stats.eval_solved_rates.push(evaluation.solved_rate);
        if evaluation.mean_final_distance.is_some() {
            stats.eval_final_distance = evaluation.mean_final_distance;
        }
        Ok(())
    }

    /// Completes a chunk's `stats`: its mean TD loss (the summed losses read back once), ε after
    /// it, and environment steps per second since `started`.
    pub(super) async fn close_chunk(
        &mut self,
        mut stats: DqnStats,
        loss_sum: Option<Tensor<1>>,
        started: Instant,
    ) -> Result<DqnStats, DqnError> {
        if let Some(sum) = loss_sum {
            let sum = read_floats(sum).await?.first().copied().unwrap_or(f32::NAN);
            stats.td_loss = Some(sum / stats.updates as f32);
        }
        if self.keeps_copy {
            self.weights_copy = Some((self.policy.valid().weights_async().await?, self.steps_done));
        }
        stats.epsilon = self.epsilon();
        let seconds = started.elapsed().as_secs_f64();
        let rate = |count: usize| {
            if seconds > 0.0 {
                (count as f64 / seconds) as f32
            } else {
                0.0
            }
        };
        stats.steps_per_s = rate(stats.env_steps);
        stats.updates_per_s = rate(stats.updates);
        Ok(stats)
    }
}

/// The episodes that ended in a chunk, summed up for its [`DqnStats`].
#[derive(Default)]
pub(super) struct EpisodeTally {
    env_steps: usize,
    episodes: usize,
    returns: f64,
    lengths: usize,
    solved: usize,
}

impl EpisodeTally {
    /// Writes the environment steps, episodes, mean return, length and solved rate into `stats`.
    pub(super) fn report(&self, stats: &mut DqnStats) {
        stats.env_steps += self.env_steps;
        stats.episodes += self.episodes;
        if self.episodes > 0 {
            let episodes = self.episodes as f64;
            stats.episode_return = Some((self.returns / episodes) as f32);
            stats.episode_length = Some((self.lengths as f64 / episodes) as f32);
            stats.solved_rate = Some((self.solved as f64 / episodes) as f32);
        }
    }
}

/// The seed of the `k`-th in-training evaluation puzzle (a stream apart from training's).
fn evaluation_seed(seed: u64, k: u64) -> u64 {
    (seed ^ 0xE7A1_0A7E_5EED_0000)
        .wrapping_mul(1_000_003)
        .wrapping_add(k)
}
