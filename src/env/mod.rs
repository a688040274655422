//! The environment contract every puzzle obeys, and the puzzles themselves (one module each).
//!
//! The contract follows Gymnasium's:
//! - [`Environment::reset`] with a seed is the only source of randomness: same seed, same episode.
//! - [`Environment::step`] returns the reward and, separately, whether the puzzle itself ended
//!   (`terminated`: solved, won, lost) or an outside limit cut it (`truncated`). Puzzles never
//!   truncate; step limits live in [`TimeLimit`] or in the training loop. Learners bootstrap
//!   unless `terminated`.
//! - [`Environment::action_mask`] tells which actions are legal. A masked-out action may still be
//!   stepped (a learner that ignores the mask is then told so by the reward scheme), but it never
//!   changes the state; every legal action leads to a valid state.
//! - Environments never touch tensors: [`Environment::write_observation`] fills a plain `&mut [f32]`.
//!
//! [`check_env`] checks all of this for any environment; every puzzle's tests call it.

pub mod game2048;
pub mod minesweeper;
pub mod samegame;
pub mod sliding;
pub mod sudoku;

use crate::rng::Rng;
use std::hash::Hash;

/// What one step of an environment reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The reward for the action just taken.
    pub reward: f32,
    /// The puzzle itself ended (solved, won or lost): do not bootstrap past this step.
    pub terminated: bool,
    /// An outside limit (a step budget) ended the episode; the puzzle itself did not end.
    pub truncated: bool,
}

/// A puzzle as a reinforcement-learning environment (the contract described in the module docs).
pub trait Environment {
    /// A complete, hashable snapshot of the puzzle's state (used by tabular learners and tests).
    type State: Clone + Eq + Hash + std::fmt::Debug;

    /// The number of discrete actions; actions are `0..num_actions()`.
    fn num_actions(&self) -> usize;

    /// Starts a new episode; all randomness of the episode comes from `seed`.
    fn reset(&mut self, seed: u64);

    /// The current state.
    fn state(&self) -> Self::State;

    /// Writes `true` for each legal action into `mask` (`mask.len() == num_actions()`).
    fn action_mask(&self, mask: &mut [bool]);

    /// Takes `action` and reports its reward and whether the episode ended.
    fn step(&mut self, action: usize) -> Step;

    /// Whether the current state ends the episode by the puzzle's own rules.
    fn is_terminal(&self) -> bool;

    /// Checks the current state's invariants; `Err` describes the first one broken.
    fn validate(&self) -> Result<(), String>;

    /// The length of the observation vector written by [`Environment::write_observation`].
    fn observation_len(&self) -> usize;

    /// Writes the current state's features (for example a one-hot encoding) into `out`.
    fn write_observation(&self, out: &mut [f32]);

    /// Names the puzzle being played (kind, size, goal): two environments with the same id give
    /// observations and actions the same meaning, so a learned model may move between them.
    /// Rewards and start rules are not part of it. Saved models record it and refuse another.
    fn puzzle_id(&self) -> String;

    /// How far the current state looks from the end, when the puzzle has such a measure (the
    /// thesis's "final distance" for the sliding puzzle: Manhattan + 2 × linear conflicts).
    /// Learners report its mean at the end of evaluation episodes, a sign of progress before
    /// puzzles get solved.
    fn distance_to_goal(&self) -> Option<f32> {
        None
    }

    /// A copy of this environment after `action`, with that step's report, leaving `self` as it
    /// is; `None` where the environment does not offer copies. Learners that back up every move
    /// of a position (DQN's `full_backups`) need it.
    fn after(&self, action: usize) -> Option<(Self, Step)>
    where
        Self: Sized,
    {
        let _ = action;
        None
    }
}

/// [`Environment::after`] of an environment that is cheap to clone: a clone, stepped.
pub fn cloned_after<E: Environment + Clone>(env: &E, action: usize) -> Option<(E, Step)> {
    let mut next = env.clone();
    let step = next.step(action);
    Some((next, step))
}

/// Tests that a serde name (a reward's, an encoding's) is written by behaviour and that the
/// older names still read: `value` writes as `name` and reads back from it and from `older`.
#[cfg(test)]
pub(crate) fn assert_named<T>(value: T, name: &str, older: &[&str])
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    assert_eq!(serde_json::to_value(&value).unwrap(), name);
    for spelling in std::iter::once(&name).chain(older) {
        let read: T = serde_json::from_value(serde_json::json!(spelling)).unwrap();
        assert_eq!(read, value, "{spelling}");
    }
}

/// Wraps an environment with a step limit: the step that reaches the limit reports `truncated`.
#[derive(Clone, Debug)]
pub struct TimeLimit<E> {
    /// The wrapped environment.
    pub env: E,
    /// Steps allowed per episode.
    pub max_steps: usize,
    steps: usize,
}

impl<E: Environment> TimeLimit<E> {
    /// Wraps `env`, allowing `max_steps` steps per episode.
    pub fn new(env: E, max_steps: usize) -> Self {
        TimeLimit {
            env,
            max_steps,
            steps: 0,
        }
    }

    /// Steps taken in the current episode.
    pub fn steps(&self) -> usize {
        self.steps
    }
}

impl<E: Environment> Environment for TimeLimit<E> {
    type State = E::State;
    fn num_actions(&self) -> usize {
        self.env.num_actions()
    }
    fn reset(&mut self, seed: u64) {
        self.steps = 0;
        self.env.reset(seed)
    }
    fn state(&self) -> Self::State {
        self.env.state()
    }
    fn action_mask(&self, mask: &mut [bool]) {
        self.env.action_mask(mask)
    }
    fn step(&mut self, action: usize) -> Step {
        let mut step = self.env.step(action);
        self.steps += 1;
        if !step.terminated && self.steps >= self.max_steps {
            step.truncated = true;
        }
        step
    }
    fn is_terminal(&self) -> bool {
        self.env.is_terminal()
    }
    fn validate(&self) -> Result<(), String> {
        self.env.validate()
    }
    fn observation_len(&self) -> usize {
        self.env.observation_len()
    }
    fn write_observation(&self, out: &mut [f32]) {
        self.env.write_observation(out)
    }
    fn puzzle_id(&self) -> String {
        self.env.puzzle_id()
    }
    fn distance_to_goal(&self) -> Option<f32> {
        self.env.distance_to_goal()
    }
}

/// Checks the environment contract on `episodes` seeded episodes of at most `max_steps` random
/// actions each: determinism under a seed, masks that agree with what steps do, valid states
/// after every legal action, `terminated` exactly when the state is terminal, observations of the
/// announced length, and episodes that end (by the puzzle or by a [`TimeLimit`]).
pub fn check_env<E: Environment>(
    mut make: impl FnMut() -> E,
    episodes: u64,
    max_steps: usize,
) -> Result<(), String> {
    let mut a = TimeLimit::new(make(), max_steps);
    let mut b = TimeLimit::new(make(), max_steps);
    let n = a.num_actions();
    let mut mask = vec![false; n];
    let mut observation = vec![f32::NAN; a.observation_len()];
    for seed in 0..episodes {
        a.reset(seed);
        b.reset(seed);
        if a.state() != b.state() {
            return Err(format!("seed {seed}: two resets with the same seed differ"));
        }
        a.validate()
            .map_err(|e| format!("seed {seed}: invalid state after reset: {e}"))?;
        let mut rng = Rng::new(seed ^ 0xC0FFEE);
        let mut ended = a.is_terminal();
        while !ended {
            a.action_mask(&mut mask);
            // Every masked-out action leaves the state unchanged (probe on a copy driven alike).
            for (action, &legal) in mask.iter().enumerate() {
                if !legal {
                    let before = b.env.state();
                    let step = b.env.step(action);
                    if b.env.state() != before || step.terminated {
                        return Err(format!(
                            "seed {seed}: masked action {action} changed the state"
                        ));
                    }
                }
            }
            let legal: Vec<usize> = (0..n).filter(|&i| mask[i]).collect();
            if legal.is_empty() {
                return Err(format!(
                    "seed {seed}: no legal action in a non-terminal state"
                ));
            }
            let action = *rng.choose(&legal);
            let before = a.state();
            let sa = a.step(action);
            let sb = b.step(action);
            if sa != sb || a.state() != b.state() {
                return Err(format!(
                    "seed {seed}: same seed and actions gave different results"
                ));
            }
            if a.state() == before {
                return Err(format!(
                    "seed {seed}: legal action {action} did not change the state"
                ));
            }
            a.validate()
                .map_err(|e| format!("seed {seed}: invalid state after action {action}: {e}"))?;
            if sa.terminated != a.is_terminal() {
                return Err(format!(
                    "seed {seed}: `terminated` disagrees with is_terminal()"
                ));
            }
            if !sa.reward.is_finite() {
                return Err(format!("seed {seed}: reward {} is not finite", sa.reward));
            }
            a.write_observation(&mut observation);
            if observation.iter().any(|x| !x.is_finite()) {
                return Err(format!(
                    "seed {seed}: observation has non-finite or unwritten values"
                ));
            }
            ended = sa.terminated || sa.truncated;
        }
        if !(a.is_terminal() || a.steps() >= max_steps) {
            return Err(format!(
                "seed {seed}: episode ended without termination or truncation"
            ));
        }
    }
    Ok(())
}
