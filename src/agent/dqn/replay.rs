//! Experience replay: a ring of the newest transitions, drawn uniformly (Lin 1992) or in
//! proportion to their TD errors (prioritised replay, Schaul et al. 2016).

use crate::rng::Rng;

/// One step of experience ⟨s, a, r, s′, done⟩, plus the legal actions in s′.
#[derive(Clone, Copy, Debug)]
pub struct Transition<'a> {
    /// The observation before the action.
    pub observation: &'a [f32],
    /// The action taken.
    pub action: usize,
    /// The reward received.
    pub reward: f32,
    /// The observation after the action.
    pub next_observation: &'a [f32],
    /// The puzzle ended (do not bootstrap); a truncation is not an end.
    pub terminated: bool,
    /// Legal actions after the action (used only when masking).
    pub next_mask: &'a [bool],
}

/// Where the rows of a ring of `capacity` rows go: appended while it fills, then over the
/// oldest.
#[derive(Clone, Copy, Debug, Default)]
struct Ring {
    capacity: usize,
    /// Rows held.
    len: usize,
    /// The slot of the next row (`len` while the ring fills).
    next: usize,
}

impl Ring {
    fn new(capacity: usize) -> Ring {
        Ring {
            capacity,
            ..Ring::default()
        }
    }

    /// The slot the next row takes (the oldest row's once full), counted as written.
    fn take(&mut self) -> usize {
        let slot = self.next;
        self.len = (self.len + 1).min(self.capacity);
        self.next = (slot + 1) % self.capacity.max(1);
        slot
    }
}

/// Writes `row` as row `slot` of `rows` (rows of `row.len()` values), appending it when `slot`
/// is the first row past the end.
fn put<T: Copy>(rows: &mut Vec<T>, slot: usize, row: &[T]) {
    let at = slot * row.len();
    if at == rows.len() {
        rows.extend_from_slice(row);
    } else {
        rows[at..at + row.len()].copy_from_slice(row);
    }
}

/// Uniform experience replay (Lin 1992): a ring of the last `capacity` transitions, stored as
/// flat arrays, growing as it fills.
#[derive(Clone, Debug)]
pub struct ReplayBuffer {
    ring: Ring,
    observation_len: usize,
    num_actions: usize,
    observations: Vec<f32>,
    next_observations: Vec<f32>,
    actions: Vec<usize>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    next_masks: Vec<bool>,
    /// Prioritised replay's priorities (`None`: uniform sampling).
    priorities: Option<SumTree>,
    /// The largest priority so far: new transitions get it, so each is replayed at least once soon.
    max_priority: f64,
}

/// A binary tree whose leaves hold the transitions' priorities and whose inner nodes hold sums,
/// so that drawing in proportion to priority and changing one priority take O(log n).
#[derive(Clone, Debug)]
struct SumTree {
    /// Leaves start at `leaves` (a power of two); node `k`'s children are `2k` and `2k + 1`.
    leaves: usize,
    nodes: Vec<f64>,
}

impl SumTree {
    fn new(capacity: usize) -> Self {
        let leaves = capacity.next_power_of_two();
        SumTree {
            leaves,
            nodes: vec![0.0; 2 * leaves],
        }
    }

    fn total(&self) -> f64 {
        self.nodes[1]
    }

    fn get(&self, i: usize) -> f64 {
        self.nodes[self.leaves + i]
    }

    fn set(&mut self, i: usize, priority: f64) {
        let mut k = self.leaves + i;
        self.nodes[k] = priority;
        while k > 1 {
            k /= 2;
            self.nodes[k] = self.nodes[2 * k] + self.nodes[2 * k + 1];
        }
    }

    /// The leaf where the running sum of priorities passes `mass` (`0 ≤ mass < total`).
    fn find(&self, mut mass: f64) -> usize {
        let mut k = 1;
        while k < self.leaves {
            let left = self.nodes[2 * k];
            if mass < left || self.nodes[2 * k + 1] <= 0.0 {
                k *= 2;
            } else {
                mass -= left;
                k = 2 * k + 1;
            }
        }
        k - self.leaves
    }
}

/// A sampled batch, column by column, ready to become tensors.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// `[batch, observation_len]`, row-major.
    pub observations: Vec<f32>,
    /// `[batch]`.
    pub actions: Vec<i64>,
    /// `[batch]`.
    pub rewards: Vec<f32>,
    /// `[batch]`: 0 where the transition ended the puzzle, else 1.
    pub not_terminated: Vec<f32>,
    /// `[batch, observation_len]`, row-major.
    pub next_observations: Vec<f32>,
    /// `[batch, num_actions]`: 0 for a legal next action, −10⁹ for an illegal one.
    pub next_penalties: Vec<f32>,
    /// `[batch]`: where each transition sits in the buffer (to update its priority).
    pub indices: Vec<usize>,
    /// `[batch]`: importance-sampling weights (all 1 with uniform sampling).
    pub weights: Vec<f32>,
}

impl Batch {
    /// Adds `other`'s rows after this batch's.
    pub fn append(&mut self, other: &Batch) {
        self.observations.extend_from_slice(&other.observations);
        self.actions.extend_from_slice(&other.actions);
        self.rewards.extend_from_slice(&other.rewards);
        self.not_terminated.extend_from_slice(&other.not_terminated);
        self.next_observations
            .extend_from_slice(&other.next_observations);
        self.next_penalties.extend_from_slice(&other.next_penalties);
        self.indices.extend_from_slice(&other.indices);
        self.weights.extend_from_slice(&other.weights);
    }
}

/// What a masked-out action's Q-value is lowered by: enough to never be the maximum, finite so
/// that multiplying by 0 (a terminal next state) stays 0.
pub(super) const ILLEGAL_PENALTY: f32 = -1e9;

impl ReplayBuffer {
    /// An empty buffer for `capacity` transitions of these sizes.
    pub fn new(capacity: usize, observation_len: usize, num_actions: usize) -> Self {
        ReplayBuffer {
            ring: Ring::new(capacity),
            observation_len,
            num_actions,
            observations: Vec::new(),
            next_observations: Vec::new(),
            actions: Vec::new(),
            rewards: Vec::new(),
            terminated: Vec::new(),
            next_masks: Vec::new(),
            priorities: None,
            max_priority: 1.0,
        }
    }

    /// An empty buffer that samples in proportion to priorities ([`ReplayBuffer::sample_prioritized`]).
    pub fn prioritized(capacity: usize, observation_len: usize, num_actions: usize) -> Self {
        ReplayBuffer {
            priorities: Some(SumTree::new(capacity)),
            ..ReplayBuffer::new(capacity, observation_len, num_actions)
        }
    }

    /// Transitions held.
    pub fn len(&self) -> usize {
        self.ring.len
    }

    /// Whether no transition is held.
    pub fn is_empty(&self) -> bool {
        self.ring.len == 0
    }

    /// Transitions held at most.
    pub fn capacity(&self) -> usize {
        self.ring.capacity
    }

    /// The length of each observation.
    pub fn observation_len(&self) -> usize {
        self.observation_len
    }

    /// The number of actions.
    pub fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// Fills `out` with `rows` transitions spread evenly over those held (all of them when
    /// fewer), weights 1.
    pub fn gather_spread(&self, rows: usize, out: &mut Batch) {
        let (len, rows) = (self.ring.len, rows.min(self.ring.len));
        let indices: Vec<usize> = (0..rows).map(|k| k * len / rows.max(1)).collect();
        self.gather(&indices, out);
        out.weights.clear();
        out.weights.resize(indices.len(), 1.0);
    }

    /// Stores a transition, pushing out the oldest when full.
    pub fn push(&mut self, t: Transition<'_>) {
        let (n, a) = (self.observation_len, self.num_actions);
        assert_eq!(t.observation.len(), n);
        assert_eq!(t.next_observation.len(), n);
        assert_eq!(t.next_mask.len(), a);
        let slot = self.ring.take();
        if let Some(tree) = &mut self.priorities {
            tree.set(slot, self.max_priority);
        }
        put(&mut self.observations, slot, t.observation);
        put(&mut self.next_observations, slot, t.next_observation);
        put(&mut self.actions, slot, &[t.action]);
        put(&mut self.rewards, slot, &[t.reward]);
        put(&mut self.terminated, slot, &[t.terminated]);
        put(&mut self.next_masks, slot, t.next_mask);
    }

    /// Fills `out` with `size` transitions drawn uniformly (with replacement).
    ///
    /// # Panics
    /// If the buffer is empty.
    pub fn sample(&self, size: usize, rng: &mut Rng, out: &mut Batch) {
        assert!(!self.is_empty(), "sampling an empty replay buffer");
        let indices: Vec<usize> = (0..size).map(|_| rng.below(self.ring.len)).collect();
        self.gather(&indices, out);
        out.weights.clear();
        out.weights.resize(size, 1.0);
    }

    /// Fills `out` with `size` transitions drawn in proportion to their priorities (one from each
    /// of `size` equal slices of the total, as Schaul et al. do), with importance-sampling weights
    /// (N·P(i))^−β divided by the batch's largest. Falls back on [`ReplayBuffer::sample`] for a
    /// buffer made without priorities.
    ///
    /// # Panics
    /// If the buffer is empty.
    pub fn sample_prioritized(&self, size: usize, beta: f32, rng: &mut Rng, out: &mut Batch) {
        let Some(tree) = &self.priorities else {
            return self.sample(size, rng, out);
        };
        assert!(!self.is_empty(), "sampling an empty replay buffer");
        let total = tree.total();
        let slice = total / size as f64;
        let indices: Vec<usize> = (0..size)
            .map(|k| {
                let mass = ((k as f64 + rng.unit()) * slice).min(total * (1.0 - 1e-12));
                tree.find(mass).min(self.ring.len - 1)
            })
            .collect();
        self.gather(&indices, out);
        let weights: Vec<f64> = indices
            .iter()
            .map(|&i| {
                let probability = (tree.get(i) / total).max(f64::MIN_POSITIVE);
                (self.ring.len as f64 * probability).powf(-(beta as f64))
            })
            .collect();
        let largest = weights.iter().copied().fold(f64::MIN_POSITIVE, f64::max);
        out.weights.clear();
        out.weights
            .extend(weights.iter().map(|w| (w / largest) as f32));
    }

    /// Sets the priorities of the transitions at `indices` from their TD errors:
    /// (|δ| + 10⁻⁶)^α. Does nothing for a buffer without priorities.
    pub fn update_priorities(&mut self, indices: &[usize], td_errors: &[f32], alpha: f32) {
        let Some(tree) = &mut self.priorities else {
            return;
        };
        for (&i, &error) in indices.iter().zip(td_errors) {
            let priority = (error.abs() as f64 + 1e-6).powf(alpha as f64);
            tree.set(i, priority);
            self.max_priority = self.max_priority.max(priority);
        }
    }

    /// Copies the transitions at `indices` into `out` (weights left to the caller).
    fn gather(&self, indices: &[usize], out: &mut Batch) {
        let (n, a) = (self.observation_len, self.num_actions);
        out.observations.clear();
        out.actions.clear();
        out.rewards.clear();
        out.not_terminated.clear();
        out.next_observations.clear();
        out.next_penalties.clear();
        out.indices.clear();
        out.indices.extend_from_slice(indices);
        for &i in indices {
            out.observations
                .extend_from_slice(&self.observations[i * n..(i + 1) * n]);
            out.actions.push(self.actions[i] as i64);
            out.rewards.push(self.rewards[i]);
            out.not_terminated
                .push(if self.terminated[i] { 0.0 } else { 1.0 });
            out.next_observations
                .extend_from_slice(&self.next_observations[i * n..(i + 1) * n]);
            out.next_penalties
                .extend(self.next_masks[i * a..(i + 1) * a].iter().map(|&legal| {
                    if legal {
                        0.0
                    } else {
                        ILLEGAL_PENALTY
                    }
                }));
        }
    }
}

/// States stored with the reward of every action backed up ([`DqnConfig::backup_visited`]): a
/// ring of `capacity` states, drawn uniformly.
///
/// [`DqnConfig::backup_visited`]: super::DqnConfig::backup_visited
#[derive(Clone, Debug, Default)]
pub(super) struct LabelBuffer {
    ring: Ring,
    observation_len: usize,
    num_actions: usize,
    /// `[len, observation_len]`.
    observations: Vec<f32>,
    /// `[len, num_actions]`: the reward of each action (0 where not backed up).
    rewards: Vec<f32>,
    /// `[len, num_actions]`: 1 where the action was backed up, else 0.
    backed_up: Vec<f32>,
}

/// A batch drawn from a [`LabelBuffer`], row-major.
#[derive(Clone, Debug, Default)]
pub(super) struct LabelBatch {
    pub(super) observations: Vec<f32>,
    pub(super) rewards: Vec<f32>,
    pub(super) backed_up: Vec<f32>,
}

impl LabelBuffer {
    /// An empty buffer for `capacity` states of these sizes (allocated as it fills).
    pub(super) fn new(capacity: usize, observation_len: usize, num_actions: usize) -> Self {
        LabelBuffer {
            ring: Ring::new(capacity),
            observation_len,
            num_actions,
            ..LabelBuffer::default()
        }
    }

    /// States held.
    pub(super) fn len(&self) -> usize {
        self.ring.len
    }

    /// Stores a state with its actions' rewards and which were backed up, pushing out the oldest
    /// when full.
    pub(super) fn push(&mut self, observation: &[f32], rewards: &[f32], backed_up: &[f32]) {
        let (n, a) = (self.observation_len, self.num_actions);
        assert!(observation.len() == n && rewards.len() == a && backed_up.len() == a);
        let slot = self.ring.take();
        put(&mut self.observations, slot, observation);
        put(&mut self.rewards, slot, rewards);
        put(&mut self.backed_up, slot, backed_up);
    }

    /// Fills `out` with `size` states drawn uniformly (with replacement).
    ///
    /// # Panics
    /// If the buffer is empty.
    pub(super) fn sample(&self, size: usize, rng: &mut Rng, out: &mut LabelBatch) {
        assert!(self.ring.len > 0, "sampling an empty buffer");
        let (n, a) = (self.observation_len, self.num_actions);
        out.observations.clear();
        out.rewards.clear();
        out.backed_up.clear();
        for _ in 0..size {
            let i = rng.below(self.ring.len);
            out.observations
                .extend_from_slice(&self.observations[i * n..(i + 1) * n]);
            out.rewards
                .extend_from_slice(&self.rewards[i * a..(i + 1) * a]);
            out.backed_up
                .extend_from_slice(&self.backed_up[i * a..(i + 1) * a]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_buffer_keeps_the_newest_states_with_their_labels() {
        let mut buffer = LabelBuffer::new(2, 1, 2);
        for k in 0..3 {
            let x = k as f32;
            buffer.push(&[x], &[-x, x], &[1.0, (k % 2) as f32]);
        }
        assert_eq!(buffer.len(), 2);
        let mut batch = LabelBatch::default();
        buffer.sample(50, &mut Rng::new(1), &mut batch);
        assert_eq!(batch.observations.len(), 50);
        let mut seen = [false; 3];
        for (i, &x) in batch.observations.iter().enumerate() {
            seen[x as usize] = true;
            assert_eq!(batch.rewards[2 * i..2 * i + 2], [-x, x]);
            assert_eq!(
                batch.backed_up[2 * i + 1],
                x % 2.0,
                "state {x}'s second action"
            );
        }
        assert_eq!(seen, [false, true, true], "state 0 was pushed out");
    }

    #[test]
    fn replay_buffer_keeps_the_newest_transitions() {
        let mut buffer = ReplayBuffer::new(3, 2, 2);
        for k in 0..5 {
            let x = k as f32;
            buffer.push(Transition {
                observation: &[x, x],
                action: k % 2,
                reward: -x,
                next_observation: &[x + 1.0, x + 1.0],
                terminated: k == 4,
                next_mask: &[true, k != 3],
            });
        }
        assert_eq!(buffer.len(), 3);
        let mut batch = Batch::default();
        let mut rng = Rng::new(7);
        buffer.sample(200, &mut rng, &mut batch);
        assert_eq!(batch.observations.len(), 400);
        let mut seen: Vec<f32> = batch.rewards.clone();
        seen.sort_by(f32::total_cmp);
        seen.dedup();
        assert_eq!(
            seen,
            [-4.0, -3.0, -2.0],
            "transitions 0 and 1 were pushed out"
        );
        for (j, &r) in batch.rewards.iter().enumerate() {
            let k = -r;
            assert_eq!(batch.observations[2 * j], k);
            assert_eq!(batch.next_observations[2 * j], k + 1.0);
            assert_eq!(batch.actions[j], (k as i64) % 2);
            assert_eq!(batch.not_terminated[j], if k == 4.0 { 0.0 } else { 1.0 });
            let penalty = if k == 3.0 { ILLEGAL_PENALTY } else { 0.0 };
            assert_eq!(batch.next_penalties[2 * j..2 * j + 2], [0.0, penalty]);
        }
    }

    /// Prioritised replay draws in proportion to (|δ| + 10⁻⁶)^α and weights by (N·P)^−β over the
    /// batch's largest; new transitions get the largest priority seen.
    #[test]
    fn prioritized_replay_draws_in_proportion_to_priority() {
        let mut buffer = ReplayBuffer::prioritized(5, 1, 1);
        for k in 0..3 {
            buffer.push(Transition {
                observation: &[k as f32],
                action: 0,
                reward: k as f32,
                next_observation: &[0.0],
                terminated: false,
                next_mask: &[true],
            });
        }
        // TD errors 1, 2 and 5 with α = 1: probabilities 1/8, 2/8 and 5/8.
        buffer.update_priorities(&[0, 1, 2], &[1.0, -2.0, 5.0], 1.0);
        let (mut batch, mut rng) = (Batch::default(), Rng::new(3));
        let mut counts = [0usize; 3];
        for _ in 0..200 {
            buffer.sample_prioritized(40, 1.0, &mut rng, &mut batch);
            for &i in &batch.indices {
                counts[i] += 1;
            }
            for (j, &i) in batch.indices.iter().enumerate() {
                assert_eq!(batch.rewards[j], i as f32, "rows follow the indices");
            }
        }
        let total = counts.iter().sum::<usize>() as f64;
        for (count, expected) in counts.iter().zip([1.0 / 8.0, 2.0 / 8.0, 5.0 / 8.0]) {
            let share = *count as f64 / total;
            assert!((share - expected).abs() < 0.01, "{counts:?}");
        }
        // β = 1: weights ∝ 1/P, divided by the largest (the rarest transition's).
        buffer.sample_prioritized(40, 1.0, &mut rng, &mut batch);
        for (&i, &w) in batch.indices.iter().zip(&batch.weights) {
            let expected = [1.0, 0.5, 0.2][i];
            assert!((w - expected).abs() < 1e-5, "index {i}: weight {w}");
        }
        // β = 0: no correction.
        buffer.sample_prioritized(10, 0.0, &mut rng, &mut batch);
        assert!(batch.weights.iter().all(|&w| (w - 1.0).abs() < 1e-6));
        // A new transition starts at the largest priority so far (5).
        buffer.push(Transition {
            observation: &[3.0],
            action: 0,
            reward: 3.0,
            next_observation: &[0.0],
            terminated: false,
            next_mask: &[true],
        });
        let tree = buffer.priorities.as_ref().unwrap();
        assert!((tree.get(3) - 5.0).abs() < 1e-5);
        assert!((tree.total() - 13.0).abs() < 1e-5);
    }
}
