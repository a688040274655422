//! Revisiting the greedy policy's failures ([`DqnConfig::failure_share`]): with full backups, the
//! learner now and then plays its own greedy policy from fresh starts, keeps the states of every
//! game it does not finish, and draws a share of each later batch from them.
//!
//! A greedy policy that never finishes from a state is caught in a cycle (or wanders past the move
//! limit). Along a cycle the Bellman targets r + γ·max Q′(s′, ·) cannot all be met by the values
//! that make the policy go round it, so backing those states up lowers them until another move
//! wins: the same backups as everywhere else, only aimed where the policy is wrong. Nothing of the
//! true values is used: a failure is a game the policy did not finish. (In the spirit of
//! prioritised sweeping, Moore and Atkeson 1993, with the policy's failures as the priority.)
//!
//! [`DqnConfig::failure_share`]: super::DqnConfig::failure_share

use super::network::q_values;
use super::{best_allowed, Dqn, DqnError};
use crate::env::Environment;
use burn::module::Module;

/// Gradient steps between two probes of the greedy policy.
pub const FAILURE_PROBE_EVERY: usize = 500;
/// Fresh starts each probe plays greedily.
pub const FAILURE_PROBE_STARTS: usize = 1024;
/// States kept at most; the oldest leave first.
const FAILURE_POOL_CAPACITY: usize = 100_000;

/// States where the greedy policy failed: a ring of at most [`FAILURE_POOL_CAPACITY`].
pub(super) struct FailurePool<E> {
    states: Vec<E>,
    /// Where the next state goes once the ring is full.
    next: usize,
    /// Games played by the probes since the last chunk's report, and how many failed.
    pub(super) probed: usize,
    pub(super) failed: usize,
}

impl<E> Default for FailurePool<E> {
    fn default() -> Self {
        FailurePool {
            states: Vec::new(),
            next: 0,
            probed: 0,
            failed: 0,
        }
    }
}

impl<E> FailurePool<E> {
    /// How many states are kept.
    pub(super) fn len(&self) -> usize {
        self.states.len()
    }

    /// The kept state at `index` (below [`FailurePool::len`]).
    pub(super) fn get(&self, index: usize) -> &E {
        &self.states[index]
    }

    fn push(&mut self, state: E) {
        if self.states.len() < FAILURE_POOL_CAPACITY {
            self.states.push(state);
        } else {
            self.states[self.next] = state;
            self.next = (self.next + 1) % FAILURE_POOL_CAPACITY;
        }
    }

    /// The share of the games probed since the last call that failed (`None`: none probed),
    /// and the count starts again.
    pub(super) fn take_failure_rate(&mut self) -> Option<f32> {
        let rate = (self.probed > 0).then(|| self.failed as f32 / self.probed as f32);
        (self.probed, self.failed) = (0, 0);
        rate
    }
}

impl<E: Environment> Dqn<E> {
    /// Whether this gradient step is one after which the greedy policy is probed.
    pub(super) fn probes_failures_now(&self) -> bool {
        self.config.failure_share > 0.0 && self.updates_done.is_multiple_of(FAILURE_PROBE_EVERY)
    }

    /// Plays the greedy policy (masked as the learner masks) from `starts` fresh starts of the
    /// start rule, all at once, for at most `max_episode_steps` moves each; keeps every state
    /// after the first move of each game it did not finish. Returns how many games failed.
    pub(super) async fn probe_failures(&mut self, starts: usize) -> Result<usize, DqnError> {
        let (n, a) = (
            self.network_config.observation_len,
            self.network_config.num_actions,
        );
        let network = self.policy.valid();
        // Each game: its environment while it is played, and the states it went through.
        let mut games: Vec<(Option<E>, Vec<E>)> = Vec::with_capacity(starts);
        let mut observations = vec![0.0; starts * n];
        let mut allowed = vec![true; a];
        // Each start's position after each of its allowed moves (an environment is copied only
        // by a move): the greedy one goes on.
        let mut successors: Vec<Vec<Option<(E, bool)>>> = Vec::with_capacity(starts);
        for i in 0..starts {
            self.start_episode(0);
            let env = &self.envs[0].env;
            env.write_observation(&mut observations[i * n..(i + 1) * n]);
            if self.config.mask_actions {
                env.action_mask(&mut allowed);
            }
            successors.push(
                (0..a)
                    .map(|action| {
                        allowed[action].then(|| {
                            let (next, step) = env
                                .after(action)
                                .expect("checked when the learner was built");
                            (next, step.terminated)
                        })
                    })
                    .collect(),
            );
        }
        let values = q_values(&network, &observations, a, &self.inference_device).await?;
        for (i, mut moves) in successors.into_iter().enumerate() {
            let legal: Vec<bool> = moves.iter().map(Option::is_some).collect();
            let action = best_allowed(&values[i * a..(i + 1) * a], &legal);
            let (next, terminated) = moves[action].take().expect("an allowed move");
            games.push(((!terminated).then_some(next), Vec::new()));
        }
        let mut failed = 0;
        for moves in 1..=self.config.max_episode_steps {
            let playing: Vec<usize> = (0..games.len()).filter(|&i| games[i].0.is_some()).collect();
            if playing.is_empty() {
                break;
            }
            if moves == self.config.max_episode_steps {
                for &i in &playing {
                    let (env, mut visited) = (games[i].0.take(), std::mem::take(&mut games[i].1));
                    visited.extend(env);
                    failed += 1;
                    for state in visited {
                        self.failures.push(state);
                    }
                }
                break;
            }
            let mut observations = vec![0.0; playing.len() * n];
            for (row, &i) in playing.iter().enumerate() {
                let env = games[i].0.as_ref().expect("still playing");
                env.write_observation(&mut observations[row * n..(row + 1) * n]);
            }
            let values = q_values(&network, &observations, a, &self.inference_device).await?;
            for (row, &i) in playing.iter().enumerate() {
                let env = games[i].0.take().expect("still playing");
                if self.config.mask_actions {
                    env.action_mask(&mut allowed);
                }
                let action = best_allowed(&values[row * a..(row + 1) * a], &allowed);
                let (next, step) = env
                    .after(action)
                    .expect("checked when the learner was built");
                games[i].1.push(env);
                if !step.terminated {
                    games[i].0 = Some(next);
                }
            }
        }
        self.failures.probed += starts;
        self.failures.failed += failed;
        Ok(failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::dqn::DqnConfig;
    use crate::env::sliding::{RewardScheme, SlidingEnv, SlidingPuzzle, StartRule};
    use burn::tensor::Device;

    fn env() -> SlidingEnv {
        let start = StartRule::MixedWalkOrUniform {
            max_difficulty: 10,
            max_moves: 20,
        };
        SlidingEnv::new(
            SlidingPuzzle::standard(2, 3).unwrap(),
            start,
            RewardScheme::Steps,
        )
    }

    fn config(failure_share: f32) -> DqnConfig {
        DqnConfig {
            hidden: vec![64, 64],
            batch_size: 32,
            learning_rate: 1e-3,
            full_backups: true,
            failure_share,
            gamma: 1.0,
            mask_actions: true,
            huber_loss: true,
            target_update_interval: 100,
            max_episode_steps: 20,
            eval_interval_episodes: 0,
            seed: 3,
            ..DqnConfig::default()
        }
    }

    #[test]
    fn a_share_of_failures_needs_full_backups_and_lies_in_0_1() {
        for (config, words) in [
            (
                DqnConfig {
                    full_backups: false,
                    ..config(0.5)
                },
                "full backups only",
            ),
            (config(1.5), "lies in [0, 1]"),
        ] {
            let err = Dqn::new(env, config, &Device::flex())
                .err()
                .expect("refused");
            assert!(err.to_string().contains(words), "{err}");
        }
        assert_eq!(DqnConfig::default().failure_share, 0.0);
    }

    /// An untrained policy fails most games: the probe keeps their unsolved states (at most the
    /// move limit a game); once the pool has states, half of every batch comes from it (half as
    /// many fresh starts), and after training the probes fail less.
    #[test]
    fn probes_keep_the_states_of_failed_greedy_games_and_batches_draw_from_them() {
        let mut dqn = Dqn::new(env, config(0.5), &Device::flex()).unwrap();
        let failed = burn::tensor::read_sync(dqn.probe_failures(200)).unwrap();
        assert!(failed > 100, "an untrained policy failed {failed} of 200");
        let kept = dqn.failures.len();
        assert!(
            kept >= failed && kept <= failed * 20,
            "{kept} states of {failed} failures"
        );
        assert!((0..kept).all(|i| !dqn.failures.get(i).is_terminal()));
        assert_eq!(
            dqn.failures.take_failure_rate(),
            Some(failed as f32 / 200.0)
        );
        assert_eq!(dqn.failures.take_failure_rate(), None, "counted once");

        let before = dqn.episodes_done();
        let stats = dqn.train_steps(10);
        assert_eq!(
            dqn.episodes_done() - before,
            10 * 16,
            "16 of 32 starts fresh a step"
        );
        assert_eq!(stats.greedy_failure_rate, None, "no probe in 10 steps");

        dqn.train_steps(FAILURE_PROBE_EVERY * 12 - 10);
        let stats = dqn.train_steps(FAILURE_PROBE_EVERY * 2);
        let rate = stats.greedy_failure_rate.expect("two probes in the chunk");
        assert!(
            rate < 0.5 * failed as f32 / 200.0,
            "{rate} after training, {failed}/200 before"
        );
    }
}
