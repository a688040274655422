//! Full backups ([`DqnConfig::full_backups`]): DeepCubeA's approximate value iteration written for
//! Q-values. Every gradient step draws fresh positions and backs up every move of each against the
//! target network; no ε-greedy play and no replay buffer are involved.
//!
//! Backups of visited states ([`DqnConfig::backup_visited`], γ = 0): ε-greedy play as in
//! `learner.rs`, but every visited state is stored with the reward of each of its actions, and a
//! gradient step fits all of a state's Q-values at once (or, with
//! [`DqnConfig::survival_logits`], each action's log-odds of not losing by cross-entropy).
//!
//! [`DqnConfig::survival_logits`]: super::DqnConfig::survival_logits
//!
//! [`DqnConfig::full_backups`]: super::DqnConfig::full_backups
//! [`DqnConfig::backup_visited`]: super::DqnConfig::backup_visited

use super::failures::FAILURE_PROBE_STARTS;
use super::learner::{accumulate, EpisodeTally};
use super::replay::ILLEGAL_PENALTY;
use super::td::elementwise_loss;
use super::{Dqn, DqnError, DqnStats};
use crate::env::Environment;
use burn::optim::GradientsParams;
use burn::tensor::activation::softplus;
use burn::tensor::{Device, Tensor, TensorData};
use web_time::Instant;

impl<E: Environment> Dqn<E> {
    /// [`DqnConfig::full_backups`]: `steps` gradient steps, each on `batch_size` fresh positions
    /// with every move backed up.
    pub(super) async fn train_full_backups(&mut self, steps: usize) -> Result<DqnStats, DqnError> {
        self.copy_weights_if_none().await?;
        let started = Instant::now();
        let mut stats = DqnStats::default();
        let mut loss_sum: Option<Tensor<1>> = None;
        for _ in 0..steps {
            let (loss, transitions) = self.full_backup_update().await;
            accumulate(&mut loss_sum, loss);
            stats.env_steps += transitions;
            stats.updates += 1;
            self.updates_done += 1;
            self.steps_done += 1;
            stats.steps += 1;
            self.follow_target();
            if self.probes_failures_now() {
                self.probe_failures(FAILURE_PROBE_STARTS).await?;
            }
            let every = self.config.eval_interval_episodes;
            if every > 0 && self.updates_done.is_multiple_of(every) {
                self.evaluate_into(&mut stats).await?;
            }
        }
        stats.greedy_failure_rate = self.failures.take_failure_rate();
        self.close_chunk(stats, loss_sum, started).await
    }

    /// One gradient step of [`DqnConfig::full_backups`]: draws `batch_size` unsolved starts (the
    /// first [`DqnConfig::failure_share`] of them from the greedy policy's failures, once there
    /// are some), backs up each one's moves (legal ones only when masking; all four otherwise, a
    /// bump into a wall included) and returns the loss and the number of transitions backed up.
    ///
    /// [`DqnConfig::failure_share`]: super::DqnConfig::failure_share
    async fn full_backup_update(&mut self) -> (Tensor<1>, usize) {
        let (b, n, a) = (
            self.config.batch_size,
            self.network_config.observation_len,
            self.network_config.num_actions,
        );
        let mut observations = vec![0.0; b * n];
        let mut next_observations = vec![0.0; b * a * n];
        let mut rewards = vec![0.0; b * a];
        let mut not_terminated = vec![0.0; b * a];
        let mut backed_up = vec![0.0; b * a];
        let mut next_penalties = vec![0.0; b * a * a];
        let (mut allowed, mut next_allowed) = (vec![true; a], vec![true; a]);
        let mut transitions = 0;
        let from_failures = if self.failures.len() > 0 {
            (self.config.failure_share * b as f32).round() as usize
        } else {
            0
        };
        for i in 0..b {
            let env = if i < from_failures {
                let drawn = self.rng.below(self.failures.len());
                self.failures.get(drawn)
            } else {
                self.start_episode(0);
                self.episodes_done += 1;
                &self.envs[0].env
            };
            env.write_observation(&mut observations[i * n..(i + 1) * n]);
            if self.config.mask_actions {
                env.action_mask(&mut allowed);
            }
            for action in (0..a).filter(|&action| allowed[action]) {
                let k = i * a + action;
                let (next, step) = env
                    .after(action)
                    .expect("checked when the learner was built");
                next.write_observation(&mut next_observations[k * n..(k + 1) * n]);
                next.action_mask(&mut next_allowed);
                for (penalty, &ok) in next_penalties[k * a..(k + 1) * a]
                    .iter_mut()
                    .zip(&next_allowed)
                {
                    if !ok {
                        *penalty = ILLEGAL_PENALTY;
                    }
                }
                rewards[k] = step.reward;
                not_terminated[k] = if step.terminated { 0.0 } else { 1.0 };
                backed_up[k] = 1.0;
                transitions += 1;
            }
        }
        let on_infer = &self.inference_device;
        let matrix = |values: Vec<f32>, shape: [usize; 2], device: &Device| {
            Tensor::<2>::from_data(TensorData::new(values, shape), device)
        };
        let next_observations = matrix(next_observations, [b * a, n], on_infer);
        // The value of every successor by the frozen target network ([b·a, 1]).
        let penalties = matrix(next_penalties, [b * a, a], on_infer);
        let next_value = self.next_values(next_observations, penalties);
        let not_terminated = matrix(not_terminated, [b * a, 1], on_infer);
        let rewards = matrix(rewards, [b * a, 1], on_infer);
        let td_target = (rewards + next_value * not_terminated * self.config.gamma).reshape([b, a]);
        let weights = matrix(backed_up, [b, a], &self.device);
        // Q(s, ·) of every drawn position against its targets, over the moves backed up.
        let errors = (self
            .policy
            .forward(matrix(observations, [b, n], &self.device))
            - td_target)
            * weights;
        let loss =
            elementwise_loss(errors, self.config.huber_loss).sum() / (transitions.max(1) as f32);
        let gradients = GradientsParams::from_grads(loss.backward(), &self.policy);
        self.policy =
            self.optimizer
                .step(self.config.learning_rate, self.policy.clone(), gradients);
        (loss.without_autodiff(), transitions)
    }
}

impl<E: Environment> Dqn<E> {
    /// [`DqnConfig::backup_visited`]: `steps` training steps; in each, every environment's state
    /// is stored with the reward of each of its actions, every environment takes one ε-greedy
    /// action, and (after the warm-up episodes) the policy network takes one gradient step on
    /// `batch_size` stored states.
    ///
    /// [`DqnConfig::backup_visited`]: super::DqnConfig::backup_visited
    pub(super) async fn train_visited_backups(
        &mut self,
        steps: usize,
    ) -> Result<DqnStats, DqnError> {
        self.copy_weights_if_none().await?;
        let started = Instant::now();
        let (n, a) = (
            self.network_config.observation_len,
            self.network_config.num_actions,
        );
        let mut stats = DqnStats::default();
        let mut tally = EpisodeTally::default();
        let mut loss_sum: Option<Tensor<1>> = None;
        let mut allowed = vec![true; a];
        let (mut rewards, mut backed_up) = (vec![0.0; a], vec![0.0; a]);
        for _ in 0..steps {
            for i in 0..self.envs.len() {
                // Backup: the reward of every action of the state (legal ones when masking).
                let env = &self.envs[i].env;
                if self.config.mask_actions {
                    env.action_mask(&mut allowed);
                }
                for action in 0..a {
                    (rewards[action], backed_up[action]) = match allowed[action] {
                        true => {
                            let (_, step) = env
                                .after(action)
                                .expect("checked when the learner was built");
                            (step.reward, 1.0)
                        }
                        false => (0.0, 0.0),
                    };
                }
                self.labels
                    .push(&self.observations[i * n..(i + 1) * n], &rewards, &backed_up);
            }
            // DQN: ε-greedy behaviour, ε decaying per finished episode.
            let actions = self.choose_actions(self.epsilon()).await?;
            for (i, &action) in actions.iter().enumerate() {
                let step = self.envs[i].step(action);
                if !self.after_step(i, step, &mut tally) {
                    let env = &self.envs[i];
                    env.write_observation(&mut self.observations[i * n..(i + 1) * n]);
                }
            }
            if self.episodes_done >= self.updates_start_at_episode
                && self.labels.len() >= self.config.batch_size
            {
                let loss = self.visited_backup_update();
                accumulate(&mut loss_sum, loss);
                stats.updates += 1;
                self.updates_done += 1;
            }
            self.end_training_step(&mut stats).await?;
        }
        tally.report(&mut stats);
        self.close_chunk(stats, loss_sum, started).await
    }

    /// One gradient step of [`DqnConfig::backup_visited`]: Q(s, a) against r(s, a) for every
    /// backed-up action of `batch_size` stored states; returns the mean loss per action.
    ///
    /// [`DqnConfig::backup_visited`]: super::DqnConfig::backup_visited
    fn visited_backup_update(&mut self) -> Tensor<1> {
        let (b, n, a) = (
            self.config.batch_size,
            self.network_config.observation_len,
            self.network_config.num_actions,
        );
        self.labels.sample(b, &mut self.rng, &mut self.label_batch);
        let batch = &self.label_batch;
        let count: f32 = batch.backed_up.iter().sum();
        let matrix = |values: &[f32], columns: usize| {
            Tensor::<2>::from_data(TensorData::new(values.to_vec(), [b, columns]), &self.device)
        };
        let output = self.policy.forward(matrix(&batch.observations, n));
        let backed_up = matrix(&batch.backed_up, a);
        let losses = if self.config.survival_logits {
            // The output o is the log-odds of not losing: −log σ(o) = softplus(−o) where the
            // action survived, −log σ(−o) = softplus(o) where it lost.
            let lost: Vec<f32> = batch.rewards.iter().map(|&r| f32::from(r < 0.0)).collect();
            let lost = matrix(&lost, a);
            let survived = lost.clone().neg() + 1.0;
            (softplus(output.clone(), 1.0) * lost + softplus(output.neg(), 1.0) * survived)
                * backed_up
        } else {
            // DQN with γ = 0: the target of Q(s, a) is r(s, a).
            let errors = (output - matrix(&batch.rewards, a)) * backed_up;
            elementwise_loss(errors, self.config.huber_loss)
        };
        let loss = losses.sum() / count.max(1.0);
        self.apply_gradients(loss.clone());
        loss.without_autodiff()
    }
}
