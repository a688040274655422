//! A trained Q-network at play: greedy actions among the allowed ones, greedy rollouts that stop
//! at a repeated state, and greedy evaluation over seeded puzzles.

use super::network::{q_values, read_floats, SparseInput};
use super::{DqnConfig, DqnError, QNetwork, QNetworkConfig};
use crate::agent::q_table::Rollout;
use crate::env::Environment;
use burn::tensor::{Device, Tensor, TensorData};
use std::collections::HashSet;
use std::sync::OnceLock;

/// How a saved model was trained (informative; not checked on load).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainingRecord {
    /// The learner's configuration.
    pub config: DqnConfig,
    /// Training steps done.
    pub steps: usize,
    /// Episodes finished.
    pub episodes: usize,
}

/// A trained Q-network ready to play, with what is needed to check that it fits an environment.
#[derive(Clone, Debug)]
pub struct QPolicy {
    pub(super) network: QNetwork,
    pub(super) network_config: QNetworkConfig,
    pub(super) puzzle_id: String,
    /// Whether greedy play only considers legal actions (as the network was trained).
    pub mask_actions: bool,
    pub(super) device: Device,
    pub(super) training: Option<TrainingRecord>,
    /// The first dense layer as plain numbers, read at the first [`QPolicy::q_values`] (`None`
    /// inside when the network begins with a convolution).
    pub(super) sparse_input: OnceLock<Option<SparseInput>>,
}

/// A policy is its own policy, for what takes a model or anything that holds one.
impl AsRef<QPolicy> for QPolicy {
    fn as_ref(&self) -> &QPolicy {
        self
    }
}

impl QPolicy {
    /// The network's shape.
    pub fn network_config(&self) -> &QNetworkConfig {
        &self.network_config
    }

    /// The puzzle it was trained on ([`Environment::puzzle_id`]).
    pub fn puzzle_id(&self) -> &str {
        &self.puzzle_id
    }

    /// How it was trained, when the file says.
    pub fn training(&self) -> Option<&TrainingRecord> {
        self.training.as_ref()
    }

    /// The same weights on a board of `height × width` for `puzzle_id`, when the network is
    /// fully convolutional (its weights do not depend on the board's size); `None` otherwise.
    pub fn resized(&self, height: usize, width: usize, puzzle_id: &str) -> Option<QPolicy> {
        let grid = self.network_config.grid.as_ref()?.resized(height, width)?;
        let network_config = QNetworkConfig {
            observation_len: grid.channels * height * width,
            num_actions: height * width,
            grid: Some(grid),
            ..self.network_config.clone()
        };
        let network = network_config.from_weights(&self.network.weights(), &self.device);
        Some(QPolicy {
            network,
            network_config,
            puzzle_id: puzzle_id.to_string(),
            sparse_input: OnceLock::new(),
            ..self.clone()
        })
    }

    /// Q-values of a batch of observations (`[batch, observation_len]` row-major in,
    /// `[batch, num_actions]` row-major out).
    ///
    /// Blocks on readback: play on the CPU (`Device::flex()`), as
    /// [`Dqn::policy_on`](super::Dqn::policy_on) gives.
    ///
    /// Boards given one-hot (inputs 0 or 1, at most a quarter of them 1) skip the first layer's
    /// product: it is the sum of the weight rows of the ones ([`SparseInput`]), the same numbers
    /// up to rounding.
    pub fn q_values(&self, observations: &[f32]) -> Vec<f32> {
        let first = self
            .sparse_input
            .get_or_init(|| self.network.first_dense_layer());
        if let Some((first, hidden)) = first
            .as_ref()
            .and_then(|f| Some((f, f.apply(observations)?)))
        {
            if self.network.layers.len() == 1 {
                return hidden;
            }
            let batch = hidden.len() / first.outputs().max(1);
            let x = Tensor::<2>::from_data(
                TensorData::new(hidden, [batch, first.outputs()]),
                &self.device,
            );
            return burn::tensor::read_sync(read_floats(self.network.forward_dense_from(x, 1)))
                .expect("the CPU reads back");
        }
        burn::tensor::read_sync(q_values(
            &self.network,
            observations,
            self.network_config.num_actions,
            &self.device,
        ))
        .expect("the CPU reads back")
    }

    /// The greedy action for one observation, among `allowed` actions when given.
    pub fn greedy_action(&self, observation: &[f32], allowed: Option<&[bool]>) -> usize {
        let values = self.q_values(observation);
        let all = vec![true; values.len()];
        best_allowed(&values, allowed.unwrap_or(&all))
    }

    /// Plays greedily from the environment's current state for at most `max_steps` moves
    /// (masking illegal actions if [`QPolicy::mask_actions`]), stopping when the puzzle ends or a
    /// state repeats: a deterministic policy never leaves a loop (and without a mask, a move into
    /// a wall repeats the state at once).
    pub fn greedy_rollout<E: Environment>(&self, env: &mut E, max_steps: usize) -> Rollout {
        let mut visited = HashSet::from([env.state()]);
        let mut observation = vec![0.0; env.observation_len()];
        let mut mask = vec![true; env.num_actions()];
        let mut actions = Vec::new();
        while !env.is_terminal() && actions.len() < max_steps {
            env.write_observation(&mut observation);
            if self.mask_actions {
                env.action_mask(&mut mask);
            }
            let action = self.greedy_action(&observation, Some(&mask));
            env.step(action);
            actions.push(action);
            if !visited.insert(env.state()) {
                break;
            }
        }
        Rollout {
            actions,
            terminated: env.is_terminal(),
        }
    }

    /// Whether the network gives one value per observation (minus the moves left, as
    /// [`cost_to_go`](super::cost_to_go) trains it) rather than one per action.
    pub fn is_value_network(&self) -> bool {
        self.network_config.num_actions == 1
    }

    /// [`QPolicy::check_fits`], accepting a value network too ([`QPolicy::is_value_network`]):
    /// for the sliding puzzles' searches, which read either kind.
    pub fn check_fits_or_values<E: Environment>(&self, env: &E) -> Result<(), DqnError> {
        self.check(env, !self.is_value_network())
    }

    /// Checks that this model plays `env`'s puzzle with its observation and actions.
    pub fn check_fits<E: Environment>(&self, env: &E) -> Result<(), DqnError> {
        self.check(env, true)
    }

    fn check<E: Environment>(&self, env: &E, actions: bool) -> Result<(), DqnError> {
        let found = &self.network_config;
        let checks = [
            ("puzzle", env.puzzle_id(), self.puzzle_id.clone()),
            (
                "observation length",
                env.observation_len().to_string(),
                found.observation_len.to_string(),
            ),
            (
                "number of actions",
                env.num_actions().to_string(),
                found.num_actions.to_string(),
            ),
        ];
        for (what, expected, found) in checks {
            if expected != found && (actions || what != "number of actions") {
                return Err(DqnError::Mismatch {
                    what,
                    expected,
                    found,
                });
            }
        }
        Ok(())
    }
}

/// The allowed action with the highest value (the first one on ties); action 0 if none is
/// allowed.
pub fn best_allowed(values: &[f32], allowed: &[bool]) -> usize {
    (0..values.len())
        .filter(|&a| allowed[a])
        .fold(None, |best: Option<usize>, a| match best {
            Some(b) if values[b] >= values[a] => Some(b),
            _ => Some(a),
        })
        .unwrap_or(0)
}

/// What a greedy evaluation found.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluation {
    /// Puzzles played.
    pub episodes: usize,
    /// Puzzles solved within the move limit.
    pub solved: usize,
    /// `solved / episodes` (`eval/solved_rate`).
    pub solved_rate: f32,
    /// Mean moves of the solved ones.
    pub mean_solved_length: Option<f32>,
    /// The dissertation's "average final distance": the mean of
    /// [`Environment::distance_to_goal`] where each puzzle's play ended, if the puzzle has one.
    pub mean_final_distance: Option<f32>,
}

/// Plays `policy` greedily from `env.reset(seed)` for each seed, at most `max_steps` moves each.
pub fn evaluate<E: Environment>(
    policy: &QPolicy,
    env: &mut E,
    seeds: impl IntoIterator<Item = u64>,
    max_steps: usize,
) -> Evaluation {
    let mut result = Evaluation::default();
    let mut solved_moves = 0usize;
    let mut final_distances: Option<f64> = None;
    for seed in seeds {
        env.reset(seed);
        let rollout = policy.greedy_rollout(env, max_steps);
        if let Some(d) = env.distance_to_goal() {
            *final_distances.get_or_insert(0.0) += d as f64;
        }
        result.episodes += 1;
        if rollout.terminated {
            result.solved += 1;
            solved_moves += rollout.actions.len();
        }
    }
    if result.episodes > 0 {
        result.solved_rate = result.solved as f32 / result.episodes as f32;
    }
    if result.solved > 0 {
        result.mean_solved_length = Some(solved_moves as f32 / result.solved as f32);
    }
    result.mean_final_distance =
        final_distances.map(|sum| (sum / result.episodes.max(1) as f64) as f32);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_allowed_skips_masked_actions_and_keeps_the_first_of_ties() {
        assert_eq!(best_allowed(&[1.0, 3.0, 3.0, 2.0], &[true; 4]), 1);
        assert_eq!(
            best_allowed(&[1.0, 3.0, 3.0, 2.0], &[true, false, false, true]),
            3
        );
        assert_eq!(best_allowed(&[1.0, 2.0], &[false, false]), 0);
    }
}
