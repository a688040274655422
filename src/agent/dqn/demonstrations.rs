//! Learning from demonstrations (DQfD: Hester et al., "Deep Q-learning from Demonstrations",
//! AAAI 2018), on the same learner: an expert's transitions are recorded once
//! ([`record_demonstrations`]) and handed to the learner ([`Dqn::add_demonstrations`]). Then
//!
//! - the first [`DqnConfig::pretrain_steps`] training steps are gradient steps on the
//!   demonstrations alone (no play);
//! - every later step plays as usual and draws [`DqnConfig::demonstration_share`] of its batch
//!   from the demonstrations, the rest from the agent's own play;
//! - every demonstrated transition adds the large-margin loss
//!   max_a [Q(s, a) + m·(a ≠ a_E)] − Q(s, a_E) (weight [`DqnConfig::demonstration_weight`], margin
//!   [`DqnConfig::demonstration_margin`]) to the TD loss that all transitions have.
//!
//! Where this departs from the paper, and why: the paper keeps the demonstrations in its
//! prioritised buffer with a bonus priority, where puzzlelab draws a fixed share of each batch
//! (simpler, and the same on every device); it adds an n-step TD loss and L2 regularisation,
//! which puzzlelab leaves out (one-step TD only, Adam without weight decay). The lines of the
//! algorithm are marked `// DQfD:`.

use super::learner::accumulate;
use super::network::{q_values, read_floats};
use super::td::{
    elementwise_loss, large_margin_losses, margin_rows, q_values_and_target, BatchTensors,
};
use super::{Batch, Dqn, DqnError, DqnStats, ReplayBuffer, Transition};
use crate::env::Environment;
use burn::module::Module;
use burn::tensor::{Tensor, TensorData};
use web_time::Instant;

/// Plays one episode of `env` for each seed of `seeds` with `expert`'s actions (`None` ends the
/// episode), at most `max_moves` moves each, and keeps every transition, up to `capacity` in all.
pub fn record_demonstrations<E: Environment>(
    env: &mut E,
    expert: impl FnMut(&E) -> Option<usize>,
    seeds: impl IntoIterator<Item = u64>,
    max_moves: usize,
    capacity: usize,
) -> ReplayBuffer {
    let mut demonstrations =
        ReplayBuffer::new(capacity.max(1), env.observation_len(), env.num_actions());
    record_demonstrations_into(&mut demonstrations, env, expert, seeds, max_moves, capacity);
    demonstrations
}

/// [`record_demonstrations`] into `demonstrations` (of `env`'s shape), until it holds `limit`
/// transitions (at most its capacity).
pub fn record_demonstrations_into<E: Environment>(
    demonstrations: &mut ReplayBuffer,
    env: &mut E,
    mut expert: impl FnMut(&E) -> Option<usize>,
    seeds: impl IntoIterator<Item = u64>,
    max_moves: usize,
    limit: usize,
) {
    let (n, a) = (env.observation_len(), env.num_actions());
    let limit = limit.min(demonstrations.capacity());
    let (mut observation, mut next_observation, mut mask) =
        (vec![0.0; n], vec![0.0; n], vec![true; a]);
    for seed in seeds {
        if demonstrations.len() >= limit {
            break;
        }
        env.reset(seed);
        env.write_observation(&mut observation);
        for _ in 0..max_moves {
            if env.is_terminal() || demonstrations.len() >= limit {
                break;
            }
            let Some(action) = expert(env) else { break };
            let step = env.step(action);
            env.write_observation(&mut next_observation);
            env.action_mask(&mut mask);
            demonstrations.push(Transition {
                observation: &observation,
                action,
                reward: step.reward,
                next_observation: &next_observation,
                terminated: step.terminated,
                next_mask: &mask,
            });
            std::mem::swap(&mut observation, &mut next_observation);
        }
    }
}

impl<E: Environment> Dqn<E> {
    /// Learns from `demonstrations` from now on (see the module docs): recorded on this learner's
    /// environment, so of its observation length and actions. Replaces any given before.
    pub fn add_demonstrations(&mut self, demonstrations: ReplayBuffer) -> Result<(), DqnError> {
        let network = &self.network_config;
        if demonstrations.observation_len() != network.observation_len
            || demonstrations.num_actions() != network.num_actions
        {
            return Err(DqnError::InvalidSetup(format!(
                "demonstrations of {} values and {} actions do not fit a network of {} and {}",
                demonstrations.observation_len(),
                demonstrations.num_actions(),
                network.observation_len,
                network.num_actions
            )));
        }
        if demonstrations.is_empty() {
            return Err(DqnError::InvalidSetup("no demonstrated transition".into()));
        }
        if self.config.prioritized_replay || self.config.full_backups || self.config.backup_visited
        {
            return Err(DqnError::InvalidSetup(
                "demonstrations go with plain play-and-replay (not prioritised replay, full backups or backups of visited states)".into(),
            ));
        }
        self.demonstrations = Some(demonstrations);
        Ok(())
    }

    /// Whether the next training step is one of pre-training (demonstrations alone).
    pub(super) fn pretraining(&self) -> bool {
        self.demonstrations.is_some() && self.steps_done < self.config.pretrain_steps
    }

    /// DQfD's pre-training: `steps` gradient steps on batches of demonstrations alone, each
    /// counted as a training step (no environment moves).
    pub(super) async fn pretrain(&mut self, steps: usize) -> Result<DqnStats, DqnError> {
        self.copy_weights_if_none().await?;
        let started = Instant::now();
        let mut stats = DqnStats::default();
        let mut loss_sum: Option<Tensor<1>> = None;
        let mut tally = DemonstrationTally::default();
        for _ in 0..steps {
            let loss = self.demonstration_update(&mut tally).await?;
            accumulate(&mut loss_sum, loss);
            stats.updates += 1;
            self.updates_done += 1;
            self.follow_target();
            self.steps_done += 1;
            stats.steps += 1;
        }
        tally.close(&mut stats).await?;
        self.close_chunk(stats, loss_sum, started).await
    }

    /// DQfD: one gradient step on a batch of which the demonstrations give every row while
    /// pre-training and [`DqnConfig::demonstration_share`] of them after (the rest replayed from
    /// play); returns the total loss (a one-element tensor, left on the device) and adds the
    /// large-margin part and the agreement with the demonstrator to `tally`.
    pub(super) async fn demonstration_update(
        &mut self,
        tally: &mut DemonstrationTally,
    ) -> Result<Tensor<1>, DqnError> {
        let b = self.config.batch_size;
        // While the agent's own play holds less than a batch (play has just started, or a resumed
        // run refills its buffer), every row is demonstrated.
        let demonstrated = if self.pretraining() || self.buffer.len() < b {
            b
        } else {
            ((b as f32 * self.config.demonstration_share).round() as usize).min(b)
        };
        let demonstrations = self
            .demonstrations
            .as_ref()
            .expect("called with demonstrations");
        let mut batch = Batch::default();
        if demonstrated < b {
            self.buffer
                .sample(b - demonstrated, &mut self.rng, &mut batch);
        }
        let mut from_expert = Batch::default();
        if demonstrated > 0 {
            demonstrations.sample(demonstrated, &mut self.rng, &mut from_expert);
        }
        batch.append(&from_expert);
        let a = self.network_config.num_actions;
        let first = b - demonstrated;
        // DQfD: the margin m on every action but the demonstrator's, on demonstrated rows only.
        let margins = margin_rows(
            &batch.actions,
            |row| row >= first,
            a,
            self.config.demonstration_margin,
        );
        let expert: Vec<f32> = (0..b)
            .map(|row| f32::from(u8::from(row >= first)))
            .collect();
        let tensors = BatchTensors::upload(
            &batch,
            &self.network_config,
            &self.device,
            &self.inference_device,
        );
        let margins = Tensor::<2>::from_data(TensorData::new(margins, [b, a]), &self.device);
        let expert = Tensor::<2>::from_data(TensorData::new(expert, [b, 1]), &self.device);
        let (q_all, q_taken, td_target) =
            q_values_and_target(&self.config, &self.policy, &self.target, &tensors);
        // The demonstrated rows whose largest Q-value is the demonstrator's move (ties agree),
        // before this step's update.
        let agreeing = (q_taken
            .clone()
            .greater_equal(q_all.clone().max_dim(1))
            .float()
            * expert.clone())
        .sum();
        // DQfD: the TD loss on every row, and the large-margin loss on the demonstrated ones.
        let td = elementwise_loss(q_taken.clone() - td_target, self.config.huber_loss).mean();
        let margin = (large_margin_losses(q_all, q_taken, margins) * expert).sum()
            / demonstrated.max(1) as f32;
        let loss = td + margin.clone() * self.config.demonstration_weight;
        self.apply_gradients(loss.clone());
        tally.add(
            margin.without_autodiff(),
            agreeing.without_autodiff(),
            demonstrated,
        );
        Ok(loss.without_autodiff())
    }

    /// The share of `rows` demonstrated transitions (spread over all of them) whose largest
    /// Q-value is the demonstrator's action (over every action, legal or not); `None` without demonstrations.
    pub async fn demonstration_agreement(&self, rows: usize) -> Result<Option<f32>, DqnError> {
        let Some(demonstrations) = &self.demonstrations else {
            return Ok(None);
        };
        let rows = rows.min(demonstrations.len());
        let mut batch = Batch::default();
        demonstrations.gather_spread(rows, &mut batch);
        let a = self.network_config.num_actions;
        let values = q_values(
            &self.policy.valid(),
            &batch.observations,
            a,
            &self.inference_device,
        )
        .await?;
        let agreeing = values
            .chunks(a)
            .zip(&batch.actions)
            .filter(|(q, &taken)| {
                let best = (0..a).fold(0, |best, i| if q[i] > q[best] { i } else { best });
                best == taken as usize
            })
            .count();
        Ok(Some(agreeing as f32 / rows.max(1) as f32))
    }
}

/// A chunk's demonstration steps, summed on the device and read once at its end: their
/// large-margin losses, and how many of their demonstrated rows the network agreed with (its
/// largest Q-value the demonstrator's move, before the step's update) out of how many.
#[derive(Default)]
pub(super) struct DemonstrationTally {
    margin: Option<Tensor<1>>,
    agreeing: Option<Tensor<1>>,
    updates: usize,
    rows: usize,
}

impl DemonstrationTally {
    fn add(&mut self, margin: Tensor<1>, agreeing: Tensor<1>, rows: usize) {
        accumulate(&mut self.margin, margin);
        accumulate(&mut self.agreeing, agreeing);
        self.updates += 1;
        self.rows += rows;
    }

    /// The chunk's mean large-margin loss (`loss/margin`) and agreement with the demonstrator
    /// (`demonstrations/agreement`) into `stats`; nothing when no demonstration step ran.
    pub(super) async fn close(self, stats: &mut DqnStats) -> Result<(), DqnError> {
        let (Some(margin), Some(agreeing)) = (self.margin, self.agreeing) else {
            return Ok(());
        };
        let first = |values: Vec<f32>| values.first().copied().unwrap_or(f32::NAN);
        stats.margin_loss = Some(first(read_floats(margin).await?) / self.updates.max(1) as f32);
        stats.demonstration_agreement =
            Some(first(read_floats(agreeing).await?) / self.rows.max(1) as f32);
        Ok(())
    }
}

/// Demonstrated transitions the tests measure the agreement on.
#[cfg(test)]
const AGREEMENT_ROWS: usize = 2000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::dqn::DqnConfig;
    use crate::env::sliding::{RewardScheme, SlidingEnv, SlidingPuzzle, StartRule};
    use burn::tensor::Device;

    fn env() -> SlidingEnv {
        let puzzle = SlidingPuzzle::standard(2, 3).unwrap();
        let start = StartRule::RandomWalk {
            difficulty: 6,
            max_moves: 20,
        };
        SlidingEnv::new(puzzle, start, RewardScheme::HeuristicPenalty)
    }

    /// The expert: the legal action numbered lowest, an arbitrary but fixed rule the network can
    /// only know from the demonstrations.
    fn expert(env: &SlidingEnv) -> Option<usize> {
        let mut mask = [false; 4];
        env.action_mask(&mut mask);
        (0..4).find(|&a| mask[a])
    }

    #[test]
    fn recording_keeps_every_move_up_to_the_capacity() {
        let mut e = env();
        let demonstrations = record_demonstrations(&mut e, expert, 0..50, 5, 120);
        assert_eq!(
            demonstrations.len(),
            120,
            "50 episodes of up to 5 moves pass 120"
        );
        let mut few = env();
        let short = record_demonstrations(&mut few, expert, 0..3, 4, 1000);
        assert!(short.len() <= 12 && !short.is_empty());
    }

    /// Agreement with the demonstrator before and after `steps` of pre-training with the
    /// large-margin loss at `weight`, and the last chunk's stats.
    fn pretrained(weight: f32, steps: usize) -> (f32, f32, Dqn<SlidingEnv>, DqnStats) {
        let mut e = env();
        let demonstrations = record_demonstrations(&mut e, expert, 0..200, 20, 4000);
        let config = DqnConfig {
            hidden: vec![32],
            batch_size: 32,
            learning_rate: 3e-3,
            pretrain_steps: steps,
            demonstration_weight: weight,
            warmup_episodes: 1,
            eval_interval_episodes: 0,
            seed: 5,
            ..DqnConfig::default()
        };
        let mut dqn = Dqn::new(env, config, &Device::flex()).unwrap();
        dqn.add_demonstrations(demonstrations).unwrap();
        let agreement = |dqn: &Dqn<SlidingEnv>| {
            burn::tensor::read_sync(dqn.demonstration_agreement(AGREEMENT_ROWS))
                .unwrap()
                .unwrap()
        };
        let before = agreement(&dqn);
        let stats = dqn.train_steps(steps);
        (before, agreement(&dqn), dqn, stats)
    }

    #[test]
    fn the_large_margin_loss_lowers_the_disagreement_with_the_demonstrator() {
        let (before, with_margin, mut dqn, stats) = pretrained(1.0, 400);
        let (_, td_only, _, _) = pretrained(0.0, 400);
        eprintln!(
            "agreement: start {before:.3}, TD alone {td_only:.3}, with the margin {with_margin:.3}"
        );
        assert_eq!(stats.env_steps, 0, "pre-training plays no move");
        assert_eq!(dqn.steps_done(), 400);
        // The chunk's own figure: the agreement on its batches' demonstrated rows, before each update.
        let during = stats.demonstration_agreement.expect("measured");
        assert!(
            during > before && during <= 1.0,
            "{during} (start {before})"
        );
        assert!(
            with_margin > td_only + 0.1 && with_margin > before + 0.3,
            "agreement: start {before:.3}, TD alone {td_only:.3}, with the margin {with_margin:.3}"
        );
        // Then play starts, with a share of each batch still demonstrated.
        let stats = dqn.train_steps(200);
        assert!(stats.env_steps > 0 && stats.updates > 0, "{stats:?}");
        assert!(stats.margin_loss.is_some());
    }

    #[test]
    fn a_run_from_demonstrations_beats_the_same_run_without_them_at_equal_steps() {
        use crate::agent::dqn::evaluate;
        use crate::env::sliding::solve::ExactDistances;
        let exact = ExactDistances::build(env().puzzle().goal()).unwrap();
        // The demonstrator: a move to a position nearest the goal (an optimal one).
        let optimal = |env: &SlidingEnv| {
            let mut mask = [false; 4];
            env.action_mask(&mut mask);
            (0..4)
                .filter(|&a| mask[a])
                .min_by_key(|&a| exact.distance(env.after(a).unwrap().0.board()))
        };
        let mut e = env();
        let demonstrations = record_demonstrations(&mut e, optimal, 0..300, 20, 3000);
        let solved = |demonstrated: bool| {
            let config = DqnConfig {
                hidden: vec![32],
                batch_size: 32,
                learning_rate: 3e-3,
                warmup_episodes: 1,
                pretrain_steps: if demonstrated { 1000 } else { 0 },
                eval_interval_episodes: 0,
                seed: 9,
                ..DqnConfig::default()
            };
            let mut dqn = Dqn::new(env, config, &Device::flex()).unwrap();
            if demonstrated {
                dqn.add_demonstrations(demonstrations.clone()).unwrap();
            }
            dqn.train_steps(1200);
            let mut board = env();
            evaluate(&dqn.policy(), &mut board, 1000..1200, 30).solved_rate
        };
        let (with, without) = (solved(true), solved(false));
        eprintln!("solved greedily after 1,200 steps: {with:.3} with demonstrations, {without:.3} without");
        assert!(with > without + 0.3, "{with} with, {without} without");
    }

    #[test]
    fn demonstrations_of_another_shape_are_refused() {
        let mut other = SlidingEnv::new(
            SlidingPuzzle::standard(3, 3).unwrap(),
            StartRule::RandomWalk {
                difficulty: 3,
                max_moves: 10,
            },
            RewardScheme::HeuristicPenalty,
        );
        let demonstrations = record_demonstrations(&mut other, |_| Some(0), 0..2, 3, 10);
        let mut dqn = Dqn::new(env, DqnConfig::default(), &Device::flex()).unwrap();
        let error = dqn.add_demonstrations(demonstrations).unwrap_err();
        assert!(error.to_string().contains("do not fit"), "{error}");
    }
}
