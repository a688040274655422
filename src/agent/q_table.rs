//! Tabular Q-learning (Watkins 1989), as the sun/moon README plays its sun/moon game, over any environment.
//!
//! Reads top to bottom: the config (the sun/moon README's values as defaults) → the table → one training
//! episode → the greedy rollout that turns the table into a solution.

use crate::env::{Environment, Step};
use crate::rng::Rng;
use std::collections::{HashMap, HashSet};

/// Hyper-parameters of tabular Q-learning. Defaults are the sun/moon README's.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct QLearningConfig {
    /// Learning rate α (the sun/moon README: 0.7).
    pub alpha: f32,
    /// Discount γ (the sun/moon README: 0.9).
    pub gamma: f32,
    /// Exploration rate ε of the ε-greedy behaviour (the sun/moon README: 0.1).
    pub epsilon: f32,
    /// Training episodes (the sun/moon README: 1000).
    pub episodes: usize,
    /// Steps per episode at most (the sun/moon README: 1000); the episode is truncated there.
    pub max_steps: usize,
    /// Only choose legal actions (the sun/moon README lets the agent bump into walls and learn −1000 from it).
    pub mask_illegal: bool,
    /// Seed of the exploration and of every episode's reset.
    pub seed: u64,
}

impl Default for QLearningConfig {
    fn default() -> Self {
        QLearningConfig {
            alpha: 0.7,
            gamma: 0.9,
            epsilon: 0.1,
            episodes: 1000,
            max_steps: 1000,
            mask_illegal: false,
            seed: 0,
        }
    }
}

/// What a batch of training episodes did.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QLearningStats {
    /// Episodes run in this batch.
    pub episodes: usize,
    /// Mean undiscounted return per episode (`charts/episode_return`).
    pub mean_return: f32,
    /// Mean steps per episode.
    pub mean_length: f32,
    /// Fraction of episodes that reached a terminal state.
    pub terminated_rate: f32,
    /// States in the table after the batch.
    pub states: usize,
}

/// A greedy run of the learned policy.
#[derive(Clone, Debug, PartialEq)]
pub struct Rollout {
    /// Actions taken.
    pub actions: Vec<usize>,
    /// Whether it ended in a terminal state.
    pub terminated: bool,
}

/// A Q-learner and the environment it learns on.
pub struct QLearning<E: Environment> {
    env: E,
    config: QLearningConfig,
    table: HashMap<E::State, Vec<f32>>,
    rng: Rng,
    episodes_done: usize,
    mask: Vec<bool>,
}

impl<E: Environment> QLearning<E> {
    /// A learner with an empty table (all values 0).
    pub fn new(env: E, config: QLearningConfig) -> Self {
        let n = env.num_actions();
        QLearning {
            env,
            rng: Rng::new(config.seed),
            config,
            table: HashMap::new(),
            episodes_done: 0,
            mask: vec![true; n],
        }
    }

    /// The configuration.
    pub fn config(&self) -> &QLearningConfig {
        &self.config
    }

    /// Episodes trained so far.
    pub fn episodes_done(&self) -> usize {
        self.episodes_done
    }

    /// Whether all configured episodes have run.
    pub fn finished(&self) -> bool {
        self.episodes_done >= self.config.episodes
    }

    /// States with an entry in the table.
    pub fn states(&self) -> usize {
        self.table.len()
    }

    /// The action values of a state, if it was visited.
    pub fn q_values(&self, state: &E::State) -> Option<&[f32]> {
        self.table.get(state).map(Vec::as_slice)
    }

    /// The environment (for example to read its state after a rollout).
    pub fn env(&self) -> &E {
        &self.env
    }

    fn values(&mut self, state: &E::State) -> &mut Vec<f32> {
        let n = self.env.num_actions();
        self.table
            .entry(state.clone())
            .or_insert_with(|| vec![0.0; n])
    }

    /// The best allowed action of `values`, ties broken at random (as the sun/moon README does).
    fn argmax(values: &[f32], allowed: &[bool], rng: &mut Rng) -> usize {
        let best = values
            .iter()
            .zip(allowed)
            .filter(|(_, &a)| a)
            .map(|(&v, _)| v)
            .fold(f32::NEG_INFINITY, f32::max);
        let ties: Vec<usize> = (0..values.len())
            .filter(|&i| allowed[i] && values[i] == best)
            .collect();
        *rng.choose(&ties)
    }

    fn allowed_actions(&mut self) {
        if self.config.mask_illegal {
            self.env.action_mask(&mut self.mask);
        } else {
            self.mask.fill(true);
        }
    }

    /// Runs up to `episodes` more training episodes (never beyond the configured number).
    pub fn train_episodes(&mut self, episodes: usize) -> QLearningStats {
        let mut stats = QLearningStats::default();
        let (mut total_return, mut total_steps, mut terminated) = (0.0f32, 0usize, 0usize);
        while stats.episodes < episodes && !self.finished() {
            let episode_seed = self
                .config
                .seed
                .wrapping_mul(1_000_003)
                .wrapping_add(self.episodes_done as u64);
            self.env.reset(episode_seed);
            let mut state = self.env.state();
            for _ in 0..self.config.max_steps {
                // ε-greedy behaviour.
                self.allowed_actions();
                let explore = self.rng.chance(self.config.epsilon as f64);
                let action = if explore {
                    let legal: Vec<usize> =
                        (0..self.mask.len()).filter(|&i| self.mask[i]).collect();
                    *self.rng.choose(&legal)
                } else {
                    let values = self.values(&state).clone();
                    Self::argmax(&values, &self.mask, &mut self.rng)
                };
                let Step {
                    reward,
                    terminated: done,
                    ..
                } = self.env.step(action);
                let next = self.env.state();
                // The Q-learning update: Q(s,a) ← (1−α)Q(s,a) + α(r + γ·max Q(s′,·)), no bootstrap at a terminal state.
                let next_best = if done {
                    0.0
                } else {
                    self.values(&next)
                        .iter()
                        .copied()
                        .fold(f32::NEG_INFINITY, f32::max)
                };
                let (alpha, gamma) = (self.config.alpha, self.config.gamma);
                let q = &mut self.values(&state)[action];
                *q = (1.0 - alpha) * *q + alpha * (reward + gamma * next_best);
                total_return += reward;
                total_steps += 1;
                state = next;
                if done {
                    terminated += 1;
                    break;
                }
            }
            self.episodes_done += 1;
            stats.episodes += 1;
        }
        if stats.episodes > 0 {
            stats.mean_return = total_return / stats.episodes as f32;
            stats.mean_length = total_steps as f32 / stats.episodes as f32;
            stats.terminated_rate = terminated as f32 / stats.episodes as f32;
        }
        stats.states = self.table.len();
        stats
    }

    /// Plays the greedy policy from `reset(seed)` for at most `max_steps`, never choosing an action
    /// that leaves the state unchanged and stopping when a state repeats (a loop).
    pub fn greedy_rollout(&mut self, seed: u64, max_steps: usize) -> Rollout {
        self.env.reset(seed);
        let mut visited = HashSet::from([self.env.state()]);
        let mut actions = Vec::new();
        let mut rng = Rng::new(seed);
        let mut mask = vec![false; self.env.num_actions()];
        while !self.env.is_terminal() && actions.len() < max_steps {
            self.env.action_mask(&mut mask);
            let values = self
                .table
                .get(&self.env.state())
                .cloned()
                .unwrap_or_else(|| vec![0.0; mask.len()]);
            let action = Self::argmax(&values, &mask, &mut rng);
            self.env.step(action);
            actions.push(action);
            if !visited.insert(self.env.state()) {
                break;
            }
        }
        Rollout {
            actions,
            terminated: self.env.is_terminal(),
        }
    }
}
