//! Taking the policy out of a learner (to play or save) and putting a saved one back in (to go on
//! training, or to resume a run where it stopped).

use super::network::q_values;
use super::td::adam;
use super::{Dqn, DqnConfig, DqnError, QNetwork, QPolicy, TrainingRecord};
use crate::env::Environment;
use crate::rng::Rng;
use burn::module::Module;
use burn::tensor::Device;

impl<E: Environment> Dqn<E> {
    /// The policy network's Q-values of a batch of observations on the training device
    /// (`[batch, observation_len]` row-major in, `[batch, num_actions]` out), read back without
    /// blocking.
    pub async fn q_values_async(&self, observations: &[f32]) -> Result<Vec<f32>, DqnError> {
        q_values(
            &self.policy.valid(),
            observations,
            self.network_config.num_actions,
            &self.inference_device,
        )
        .await
    }

    /// The current policy network, ready to play and to save (on the training device; blocks on
    /// readback when saved: on WebGPU in a browser use [`Dqn::policy_on`]).
    pub fn policy(&self) -> QPolicy {
        self.policy_with(self.policy.valid(), self.inference_device.clone())
    }

    /// A copy of the current policy network on `device` (the CPU for play), read back without
    /// blocking.
    pub async fn policy_on(&self, device: &Device) -> Result<QPolicy, DqnError> {
        let weights = self.policy.valid().weights_async().await?;
        let network = self.network_config.from_weights(&weights, device);
        Ok(self.policy_with(network, device.clone()))
    }

    fn policy_with(&self, network: QNetwork, device: Device) -> QPolicy {
        QPolicy {
            network,
            network_config: self.network_config.clone(),
            puzzle_id: self.puzzle_id.clone(),
            mask_actions: self.config.mask_actions,
            device,
            training: Some(TrainingRecord {
                config: self.config.clone(),
                steps: self.steps_done,
                episodes: self.episodes_done,
            }),
            sparse_input: Default::default(),
        }
    }

    /// On a device that can be lost (a GPU), reads the weights back as the copy to fall back to
    /// when there is none yet (before the first chunk; later chunks refresh it as they close).
    pub(super) async fn copy_weights_if_none(&mut self) -> Result<(), DqnError> {
        if self.keeps_copy && self.weights_copy.is_none() {
            self.weights_copy = Some((self.policy.valid().weights_async().await?, self.steps_done));
        }
        Ok(())
    }

    /// After the training device stopped answering (the GPU lost: a chunk failed with
    /// [`DqnError::Readback`]), moves the learner to `device` (the CPU), its networks rebuilt
    /// from the copy of the weights taken after the last chunk. The replay buffer, the games in
    /// play, ε and the counters go on as they are; Adam's moments start again (they were on the
    /// lost device). Returns the steps done when the copy was taken.
    ///
    /// # Errors
    /// When no copy was kept (a learner on the CPU, which cannot be lost, keeps none).
    pub fn fall_back_to(&mut self, device: &Device) -> Result<usize, DqnError> {
        let (weights, steps) = self.weights_copy.take().ok_or_else(|| {
            DqnError::InvalidConfig("no copy of the weights was kept to fall back to".into())
        })?;
        let device = device.clone().autodiff();
        self.inference_device = device.clone().without_autodiff();
        self.policy = self.network_config.from_weights(&weights, &device);
        self.target = self.policy.valid();
        self.device = device;
        self.optimizer = adam();
        self.keeps_copy = self.inference_device != Device::flex();
        self.fell_back_at = Some(steps);
        Ok(steps)
    }

    /// The steps done when the learner fell back to the CPU ([`Dqn::fall_back_to`]), if it did.
    pub fn fell_back_at(&self) -> Option<usize> {
        self.fell_back_at
    }

    /// Replaces the policy and target networks with a saved model's weights (for example to go
    /// on training a shipped model). Adam's moments start again; the replay buffer is kept.
    pub fn load_weights(&mut self, bytes: &[u8]) -> Result<(), DqnError> {
        let model = QPolicy::from_bytes(bytes, &self.inference_device)?;
        model.check_fits(&self.eval_env)?;
        if model.network_config != self.network_config {
            return Err(DqnError::Mismatch {
                what: "network",
                expected: format!("{:?}", self.network_config),
                found: format!("{:?}", model.network_config),
            });
        }
        self.policy = self
            .network_config
            .from_weights(&model.network.weights(), &self.device);
        self.target = self.policy.valid();
        self.optimizer = adam();
        // The copy to fall back to is taken again before the next chunk.
        self.weights_copy = None;
        Ok(())
    }

    /// Goes on from a model this learner's kind saved ([`Dqn::policy`]), built with the same
    /// configuration (the model's [`TrainingRecord`] has it): its weights, and the steps and
    /// episodes its training record counts, so that ε, the episode seeds and the evaluation
    /// schedule continue where they were. Not saved, so starting again: Adam's moments,
    /// the replay buffer (refilled by the warm-up episodes' worth of steps before updates resume)
    /// and the random stream of exploration and sampling (reseeded from the seed and the steps).
    /// Only the learning rate may differ from the recorded one (a schedule: go on at a lower rate).
    pub fn resume(&mut self, bytes: &[u8]) -> Result<(), DqnError> {
        self.load_weights(bytes)?;
        let record = QPolicy::from_bytes(bytes, &self.inference_device)?
            .training
            .ok_or_else(|| {
                DqnError::Corrupt("the model has no training record to resume".into())
            })?;
        let recorded = DqnConfig {
            learning_rate: self.config.learning_rate,
            ..record.config.clone()
        };
        if recorded != self.config {
            return Err(DqnError::Mismatch {
                what: "training configuration",
                expected: format!("{:?}", self.config),
                found: format!("{:?}", record.config),
            });
        }
        self.steps_done = record.steps;
        self.episodes_done = record.episodes;
        self.rng =
            Rng::new(self.config.seed ^ (record.steps as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.episodes_started = record.episodes as u64 + self.envs.len() as u64;
        let interval = self.config.eval_interval_episodes;
        if let Some(evaluations) = record.episodes.checked_div(interval) {
            self.evaluations_done = evaluations as u64;
            while self.next_eval_at <= record.episodes {
                self.next_eval_at += interval;
            }
        }
        // The warm-up counts episodes since the start: refill the buffer before updating again.
        self.updates_start_at_episode = record.episodes + self.config.warmup_episodes;
        for i in 0..self.envs.len() {
            self.start_episode(i);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small learner of the 2 × 3 puzzle on the CPU.
    fn small_learner() -> Dqn<crate::env::sliding::SlidingEnv> {
        use crate::env::sliding::{RewardScheme, SlidingEnv, SlidingPuzzle, StartRule};
        let puzzle = SlidingPuzzle::standard(2, 3).unwrap();
        let make = || {
            let start = StartRule::RandomWalk {
                difficulty: 4,
                max_moves: 20,
            };
            SlidingEnv::new(puzzle.clone(), start, RewardScheme::HeuristicPenalty)
        };
        let config = DqnConfig {
            hidden: vec![16],
            batch_size: 16,
            warmup_episodes: 1,
            max_episode_steps: 10,
            eval_interval_episodes: 0,
            learning_rate: 1e-2,
            seed: 3,
            ..DqnConfig::default()
        };
        Dqn::new(make, config, &Device::flex()).unwrap()
    }

    #[test]
    fn a_learner_that_lost_its_device_goes_on_from_the_copy_of_its_last_chunk() {
        let mut dqn = small_learner();
        assert!(!dqn.keeps_copy, "the CPU cannot be lost: no copy");
        assert!(
            dqn.fall_back_to(&Device::flex()).is_err(),
            "nothing to fall back to"
        );
        // As on a GPU: a copy after every chunk.
        dqn.keeps_copy = true;
        dqn.train_steps(200);
        let copy = dqn.policy.valid().weights();
        assert_eq!(dqn.weights_copy.as_ref().unwrap(), &(copy.clone(), 200));
        // The next chunk moves the network on, then the device is "lost" before its copy.
        dqn.keeps_copy = false;
        dqn.train_steps(50);
        assert!(dqn.updates_done > 0);
        assert_ne!(
            dqn.policy.valid().weights(),
            copy,
            "training changed the weights"
        );
        let (episodes, buffered) = (dqn.episodes_done, dqn.buffer.len());
        assert_eq!(dqn.fall_back_to(&Device::flex()).unwrap(), 200);
        assert_eq!(dqn.fell_back_at(), Some(200));
        assert_eq!(
            dqn.policy.valid().weights(),
            copy,
            "the last chunk's network"
        );
        assert_eq!(dqn.target.weights(), copy);
        assert_eq!((dqn.steps_done, dqn.episodes_done), (250, episodes));
        assert_eq!(dqn.buffer.len(), buffered, "the replay buffer is kept");
        // And it trains on.
        let stats = dqn.train_steps(50);
        assert_eq!((stats.steps, dqn.steps_done), (50, 300));
        assert!(stats.td_loss.is_some_and(f32::is_finite));
    }
}
