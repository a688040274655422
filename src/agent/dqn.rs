//! Deep Q-learning (Mnih et al. 2015) as the thesis (seed 000) trains it on the N-puzzle, over any
//! [`Environment`].
//!
//! Reads top to bottom: the config (the thesis's values as defaults) → the Q-network → the replay
//! buffer → the schedules (ε, curriculum) → the learner and its training step → greedy play,
//! evaluation and saved models. The lines of the algorithm itself are marked `// DQN:`; the rest
//! is plumbing.
//!
//! The observation is whatever the environment writes ([`Environment::write_observation`]; the
//! sliding puzzle writes the thesis's one-hot encoding), and the network gives one Q-value per
//! action. Training runs in chunks ([`Dqn::train_steps`]) so a caller can report, pause and stop
//! between them; each chunk returns [`DqnStats`], whose [`DqnStats::metrics`] use stable names:
//!
//! | name | meaning |
//! |---|---|
//! | `loss/td` | mean TD loss of the chunk's gradient steps |
//! | `charts/epsilon` | ε after the chunk |
//! | `charts/episode_return` | mean undiscounted return of the episodes that ended in the chunk |
//! | `charts/episode_length` | their mean length |
//! | `charts/solved_rate` | the fraction of them that ended solved (while exploring) |
//! | `eval/solved_rate` | the last in-training greedy evaluation of the chunk, if one ran |
//! | `eval/final_distance` | its mean distance to the goal where play ended (the thesis's "average final distance") |
//! | `perf/steps_per_s` | environment steps per second of wall time |
//!
//! Where this departs from the thesis, and why:
//! - The target network is copied every 10 gradient steps, as the thesis's text says; its code
//!   copies after every step (`if time_steps % 10 == 0` with `time_steps = 50`).
//! - ε stops at exactly 0.3 (its code stops one decay below, 0.2997).
//! - Weights start from U(±1/√fan-in) (PyTorch's and burn's default) rather than Keras's Glorot,
//!   drawn from the config's seed so that runs are reproducible on any device. Adam's ε is 1e-7,
//!   Keras's default.
//! - A greedy rollout stops as soon as a state repeats: a deterministic policy cannot leave a loop.

use crate::agent::q_table::Rollout;
use crate::checksum::fnv1a;
use crate::env::{Environment, TimeLimit};
use crate::rng::Rng;
use burn::module::{Module, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::loss::{HuberLossConfig, MseLoss, Reduction};
use burn::nn::Linear;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Int, Tensor, TensorData};
use std::collections::HashSet;
use web_time::Instant;

// ---------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------

/// Hyper-parameters of deep Q-learning. Defaults are the thesis's (seed 000) where it gives one.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DqnConfig {
    /// Widths of the hidden layers, each followed by ReLU (thesis: `[250, 250, 250]`).
    pub hidden: Vec<usize>,
    /// Seed 004's convolutions in front of the dense layers (2048: [`PairConvConfig::seed004`]);
    /// `None` (the thesis): the dense layers read the observation directly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conv: Option<PairConvConfig>,
    /// Transitions the replay buffer keeps; the oldest leave first (thesis: 100,000).
    pub replay_capacity: usize,
    /// Transitions per gradient step (thesis: 100).
    pub batch_size: usize,
    /// Adam's learning rate (thesis: 1e-4).
    pub learning_rate: f64,
    /// Discount γ (thesis: 0.9).
    pub gamma: f32,
    /// Gradient steps between copies of the policy network into the target network (thesis: 10).
    pub target_update_interval: usize,
    /// ε of the ε-greedy behaviour at the first episode (thesis: 0.9).
    pub epsilon_start: f32,
    /// ε's factor per finished episode (thesis: 0.999).
    pub epsilon_decay: f32,
    /// ε's floor (thesis: 0.3).
    pub epsilon_min: f32,
    /// Moves per episode before it is truncated (thesis: 50).
    pub max_episode_steps: usize,
    /// Episodes played before the first gradient step, to fill the buffer (thesis: 100).
    pub warmup_episodes: usize,
    /// Double DQN (van Hasselt et al. 2016): the policy network picks the next action and the
    /// target network values it. The thesis names it as future work (default: off).
    pub double_dqn: bool,
    /// Huber loss (δ = 1, as seed 001 uses) instead of the thesis's mean squared error.
    pub huber_loss: bool,
    /// Only choose legal actions, and bootstrap only over legal next actions. The thesis lets the
    /// agent bump into walls and learn −1 from it (default: off).
    pub mask_actions: bool,
    /// Environments played at once, one step each per training step (thesis: 1; seed 001: 1000).
    pub num_envs: usize,
    /// Prioritised replay (Schaul et al. 2016, proportional; named by seed 001): transitions are
    /// drawn in proportion to |TD error|^α and their loss weighted by importance sampling
    /// (N·P(i))^−β, normalised by the batch's largest weight (default: off, uniform sampling).
    pub prioritized_replay: bool,
    /// α of prioritised replay: 0 is uniform, 1 fully proportional (Schaul et al.: 0.6).
    pub priority_alpha: f32,
    /// β of prioritised replay at the first gradient step; it grows linearly to 1 over
    /// `priority_beta_updates` gradient steps (Schaul et al.: 0.4).
    pub priority_beta_start: f32,
    /// Gradient steps over which β reaches 1.
    pub priority_beta_updates: usize,
    /// Full backups instead of play and replay (DeepCubeA's approximate value iteration, written
    /// for Q-values; default: off). Every gradient step draws `batch_size` fresh positions from
    /// the environment's start rule and backs up every move of each: the target of (s, a) is
    /// r + γ·max Q′(s′, ·) by the target network, for all of s's legal moves at once, so no ε-greedy
    /// play and no replay buffer are involved (ε, the buffer and prioritised replay do not apply).
    /// In-training evaluations then come every `eval_interval_episodes` gradient steps.
    pub full_backups: bool,
    /// Evaluate the greedy policy every this many finished episodes once training has started
    /// (thesis: 50; 0: never).
    pub eval_interval_episodes: usize,
    /// Puzzles per in-training evaluation (thesis: 10).
    pub eval_episodes: usize,
    /// Seed of the weights, the exploration, the replay sampling and every episode's reset.
    pub seed: u64,
}

impl Default for DqnConfig {
    fn default() -> Self {
        DqnConfig {
            hidden: vec![250, 250, 250],
            conv: None,
            replay_capacity: 100_000,
            batch_size: 100,
            learning_rate: 1e-4,
            gamma: 0.9,
            target_update_interval: 10,
            epsilon_start: 0.9,
            epsilon_decay: 0.999,
            epsilon_min: 0.3,
            max_episode_steps: 50,
            warmup_episodes: 100,
            double_dqn: false,
            huber_loss: false,
            mask_actions: false,
            num_envs: 1,
            prioritized_replay: false,
            priority_alpha: 0.6,
            priority_beta_start: 0.4,
            priority_beta_updates: 100_000,
            full_backups: false,
            eval_interval_episodes: 50,
            eval_episodes: 10,
            seed: 0,
        }
    }
}

impl DqnConfig {
    /// Checks the values a learner cannot run with.
    pub fn validate(&self) -> Result<(), DqnError> {
        let problem = if self.hidden.contains(&0) {
            "hidden layers need at least one unit"
        } else if self.replay_capacity == 0 || self.batch_size == 0 {
            "the replay capacity and the batch size must be positive"
        } else if self.replay_capacity < self.batch_size {
            "the replay capacity must hold at least one batch"
        } else if self.num_envs == 0 || self.max_episode_steps == 0 {
            "at least one environment and one step per episode are needed"
        } else if self.target_update_interval == 0 {
            "the target update interval must be positive"
        } else if !(self.learning_rate > 0.0 && self.learning_rate.is_finite()) {
            "the learning rate must be positive"
        } else if !(0.0..=1.0).contains(&self.gamma) {
            "γ must lie in [0, 1]"
        } else if ![self.epsilon_start, self.epsilon_decay, self.epsilon_min]
            .iter()
            .all(|e| (0.0..=1.0).contains(e))
        {
            "ε's start, decay and floor must lie in [0, 1]"
        } else if ![self.priority_alpha, self.priority_beta_start]
            .iter()
            .all(|x| (0.0..=1.0).contains(x))
        {
            "prioritised replay's α and β must lie in [0, 1]"
        } else if self.full_backups && self.prioritized_replay {
            "full backups draw fresh positions for every step: prioritised replay does not apply"
        } else {
            return Ok(());
        };
        Err(DqnError::InvalidConfig(problem.into()))
    }
}

/// Why a learner could not be built, or a model could not be read or used.
#[derive(Debug, thiserror::Error)]
pub enum DqnError {
    /// The configuration cannot run.
    #[error("invalid DQN configuration: {0}")]
    InvalidConfig(String),
    /// Reading or writing a model file failed.
    #[error("cannot read or write the model file: {0}")]
    Io(#[from] std::io::Error),
    /// The bytes do not start like a puzzlelab DQN model.
    #[error("not a puzzlelab DQN model (it does not start with \"puzzlelab-dqn\")")]
    NotAModel,
    /// A model written by another version of the format.
    #[error(
        "DQN model format version {found} is not supported (this build reads version {supported})"
    )]
    UnsupportedVersion {
        /// The file's version.
        found: u64,
        /// The version this build reads and writes.
        supported: u64,
    },
    /// The file is damaged: truncated, a header that does not parse, weights that do not add up.
    #[error("corrupt DQN model: {0}")]
    Corrupt(String),
    /// A sound model made for something else.
    #[error("the model was made for {what} {found}, not {expected}")]
    Mismatch {
        /// What differs (`puzzle`, `observation length`, `number of actions`, `hidden layers`).
        what: &'static str,
        /// What the environment or learner needs.
        expected: String,
        /// What the model has.
        found: String,
    },
}

// ---------------------------------------------------------------------------------------------
// The Q-network
// ---------------------------------------------------------------------------------------------

/// The shape of a Q-network: the observation, hidden ReLU layers, one Q-value per action.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QNetworkConfig {
    /// Length of the observation vector (81 for the 8-puzzle's one-hot encoding).
    pub observation_len: usize,
    /// Widths of the hidden layers.
    pub hidden: Vec<usize>,
    /// Number of actions (4 for sliding puzzles).
    pub num_actions: usize,
    /// Convolutions between the observation and the first dense layer, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conv: Option<PairConvConfig>,
}

/// Seed 004's two levels of (1, 2) and (2, 1) convolutions for 2048: "the first level applies
/// filters (1, 2) and (2, 1) to detect consecutive vertical and horizontal segments in different
/// channels and increase the depth to 128. The second level has four CNN applying filters (1, 2)
/// and (2, 1). Each stage has a ReLU, and the outputs of the final CNNs are concatenated into a
/// dense network". The observation is read cell by cell (`height × width` cells of `channels`
/// values each, as 2048's one-hot exponents are written) and turned into `channels` images.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PairConvConfig {
    /// Values per cell, the images' channels (2048: 16 exponents, one-hot).
    pub channels: usize,
    /// Rows of cells.
    pub height: usize,
    /// Columns of cells.
    pub width: usize,
    /// Filters of each of the first level's two convolutions (seed 004: 128).
    pub filters1: usize,
    /// Filters of each of the second level's four convolutions (seed 004: 128).
    pub filters2: usize,
}

impl PairConvConfig {
    /// Seed 004's network for 2048: 16 one-hot channels on 4 × 4, 128 filters on both levels.
    pub fn seed004() -> Self {
        PairConvConfig {
            channels: 16,
            height: 4,
            width: 4,
            filters1: 128,
            filters2: 128,
        }
    }

    /// `(inputs, outputs, kernel)` of the six convolutions, in the weights' order: the first
    /// level's (1, 2) and (2, 1), then (1, 2) and (2, 1) on the first's output, then on the second's.
    fn convolutions(&self) -> [(usize, usize, [usize; 2]); 6] {
        let (c, f1, f2) = (self.channels, self.filters1, self.filters2);
        [
            (c, f1, [1, 2]),
            (c, f1, [2, 1]),
            (f1, f2, [1, 2]),
            (f1, f2, [2, 1]),
            (f1, f2, [1, 2]),
            (f1, f2, [2, 1]),
        ]
    }

    /// Length of the concatenated second-level outputs (4,352 for seed 004's network).
    pub fn output_len(&self) -> usize {
        let (h, w) = (self.height, self.width);
        // (1,2)∘(1,2), (2,1)∘(1,2), (1,2)∘(2,1), (2,1)∘(2,1).
        (h * (w - 2) + 2 * (h - 1) * (w - 1) + (h - 2) * w) * self.filters2
    }

    /// Weights and biases of the six convolutions.
    pub fn num_params(&self) -> usize {
        self.convolutions()
            .iter()
            .map(|(i, o, k)| i * o * k[0] * k[1] + o)
            .sum()
    }

    fn check(&self) -> Result<(), String> {
        if self.height < 2 || self.width < 2 || self.channels == 0 {
            return Err(format!(
                "convolutions need at least 2 × 2 cells and a channel, not {}×{}×{}",
                self.height, self.width, self.channels
            ));
        }
        if self.filters1 == 0 || self.filters2 == 0 {
            return Err("convolutions need at least one filter".into());
        }
        Ok(())
    }
}

/// Seed 004's convolutions ([`PairConvConfig`]).
#[derive(Module, Debug)]
pub struct PairConv {
    /// Level 1: (1, 2) and (2, 1); level 2: (1, 2) and (2, 1) on each of level 1's outputs.
    convolutions: Vec<Conv2d>,
    /// Cells as `[height, width, channels]`, from the configuration.
    shape: [usize; 3],
}

impl PairConv {
    /// The concatenated second-level features of a batch of observations.
    ///
    /// # Shapes
    /// - observations: `[batch, height · width · channels]`, cell by cell
    /// - output: `[batch, output_len]`
    fn forward(&self, observations: Tensor<2>) -> Tensor<2> {
        let [batch, _] = observations.dims();
        let [h, w, c] = self.shape;
        // [batch, h, w, c] → [batch, c, h, w]: one image per channel.
        let images = observations.reshape([batch, h, w, c]).permute([0, 3, 1, 2]);
        let level1 = [
            relu(self.convolutions[0].forward(images.clone())), // [batch, f1, h, w-1]
            relu(self.convolutions[1].forward(images)),         // [batch, f1, h-1, w]
        ];
        let mut features = Vec::with_capacity(4);
        for (i, x) in level1.into_iter().enumerate() {
            for conv in &self.convolutions[2 + 2 * i..4 + 2 * i] {
                let y = relu(conv.forward(x.clone()));
                let [_, f, hh, ww] = y.dims();
                features.push(y.reshape([batch, f * hh * ww]));
            }
        }
        Tensor::cat(features, 1)
    }
}

impl QNetworkConfig {
    /// `(inputs, outputs)` of each dense layer, first to last.
    pub fn layer_sizes(&self) -> Vec<(usize, usize)> {
        let first = self
            .conv
            .as_ref()
            .map_or(self.observation_len, PairConvConfig::output_len);
        let widths: Vec<usize> = std::iter::once(first)
            .chain(self.hidden.iter().copied())
            .chain(std::iter::once(self.num_actions))
            .collect();
        widths.windows(2).map(|w| (w[0], w[1])).collect()
    }

    /// Number of weights and biases (144,754 for the thesis's 8-puzzle network with its 72
    /// inputs; 147,004 with our 81).
    pub fn num_params(&self) -> usize {
        let conv = self.conv.as_ref().map_or(0, PairConvConfig::num_params);
        conv + self
            .layer_sizes()
            .iter()
            .map(|(i, o)| i * o + o)
            .sum::<usize>()
    }

    /// `(fan-in, outputs)` of every layer in the weights' order: the convolutions, then the dense
    /// layers.
    fn parameter_blocks(&self) -> Vec<(usize, usize)> {
        let mut blocks = Vec::new();
        if let Some(conv) = &self.conv {
            for (i, o, k) in conv.convolutions() {
                blocks.push((i * k[0] * k[1], o));
            }
        }
        blocks.extend(self.layer_sizes());
        blocks
    }

    /// A network with weights and biases drawn uniformly from ±1/√(inputs) by `seed`.
    pub fn init(&self, device: &Device, seed: u64) -> QNetwork {
        let mut rng = Rng::new(seed ^ 0x5EED_0FDE_E90A_1100);
        let mut weights = Vec::with_capacity(self.num_params());
        for (inputs, outputs) in self.parameter_blocks() {
            let bound = 1.0 / (inputs as f64).sqrt();
            for _ in 0..inputs * outputs + outputs {
                weights.push(((rng.unit() * 2.0 - 1.0) * bound) as f32);
            }
        }
        self.from_weights(&weights, device)
    }

    /// A network with the given parameters, in [`QNetwork::weights`]'s order.
    ///
    /// # Panics
    /// If `weights.len() != self.num_params()`.
    pub fn from_weights(&self, weights: &[f32], device: &Device) -> QNetwork {
        assert_eq!(
            weights.len(),
            self.num_params(),
            "weights for another shape"
        );
        let mut rest = weights;
        let conv = self.conv.as_ref().map(|config| {
            let mut convolutions = Vec::new();
            for (inputs, outputs, kernel) in config.convolutions() {
                let (w, tail) = rest.split_at(outputs * inputs * kernel[0] * kernel[1]);
                let (b, tail) = tail.split_at(outputs);
                rest = tail;
                let mut layer = Conv2dConfig::new([inputs, outputs], kernel).init(device);
                layer.weight = Param::from_data(
                    TensorData::new(w.to_vec(), [outputs, inputs, kernel[0], kernel[1]]),
                    device,
                );
                layer.bias = Some(Param::from_data(
                    TensorData::new(b.to_vec(), [outputs]),
                    device,
                ));
                convolutions.push(layer);
            }
            PairConv {
                convolutions,
                shape: [config.height, config.width, config.channels],
            }
        });
        let mut layers = Vec::new();
        for (inputs, outputs) in self.layer_sizes() {
            let (w, tail) = rest.split_at(inputs * outputs);
            let (b, tail) = tail.split_at(outputs);
            rest = tail;
            layers.push(Linear {
                weight: Param::from_data(TensorData::new(w.to_vec(), [inputs, outputs]), device),
                bias: Some(Param::from_data(
                    TensorData::new(b.to_vec(), [outputs]),
                    device,
                )),
            });
        }
        QNetwork { conv, layers }
    }

    /// Checks the shape: the convolutions' image covers the observation.
    pub fn check(&self) -> Result<(), String> {
        if let Some(conv) = &self.conv {
            conv.check()?;
            let cells = conv.height * conv.width * conv.channels;
            if cells != self.observation_len {
                return Err(format!(
                    "convolutions over {}×{}×{} values cannot read an observation of {}",
                    conv.height, conv.width, conv.channels, self.observation_len
                ));
            }
        }
        Ok(())
    }
}

/// A multi-layer perceptron mapping observations to one Q-value per action, optionally behind
/// seed 004's convolutions.
#[derive(Module, Debug)]
pub struct QNetwork {
    conv: Option<PairConv>,
    layers: Vec<Linear>,
}

impl QNetwork {
    /// Length of the observations the network reads.
    pub fn observation_len(&self) -> usize {
        match &self.conv {
            Some(conv) => conv.shape.iter().product(),
            None => self
                .layers
                .first()
                .map_or(0, |layer| layer.weight.val().dims()[0]),
        }
    }

    /// The Q-values of a batch of observations.
    ///
    /// # Shapes
    /// - observations: `[batch, observation_len]`
    /// - output: `[batch, num_actions]`
    pub fn forward(&self, observations: Tensor<2>) -> Tensor<2> {
        let last = self.layers.len() - 1;
        let mut x = match &self.conv {
            Some(conv) => conv.forward(observations), // [batch, conv output_len]
            None => observations,
        };
        for (i, layer) in self.layers.iter().enumerate() {
            x = layer.forward(x); // [batch, width of layer i]
            if i < last {
                x = relu(x);
            }
        }
        x
    }

    /// All parameters as one vector: for each convolution, its kernel `[outputs, inputs, rows,
    /// columns]` then its bias; for each dense layer, its weight matrix `[inputs, outputs]` row by
    /// row, then its bias.
    ///
    /// Reads synchronously: on WebGPU in a browser use [`QNetwork::weights_async`].
    pub fn weights(&self) -> Vec<f32> {
        burn::tensor::read_sync(self.weights_async())
    }

    /// [`QNetwork::weights`], read back without blocking (the only way on WebGPU in a browser).
    pub async fn weights_async(&self) -> Vec<f32> {
        let mut out = Vec::new();
        for conv in self.conv.iter().flat_map(|c| &c.convolutions) {
            out.extend(read_floats(conv.weight.val()).await);
            if let Some(bias) = &conv.bias {
                out.extend(read_floats(bias.val()).await);
            }
        }
        for layer in &self.layers {
            out.extend(read_floats(layer.weight.val()).await);
            if let Some(bias) = &layer.bias {
                out.extend(read_floats(bias.val()).await);
            }
        }
        out
    }
}

/// Reads a tensor back as `f32`s (row-major). Asynchronous: synchronous readback panics on WebGPU
/// in a browser; natively and on the CPU backend the future is ready at once (callers that cannot
/// wait use `burn::tensor::read_sync`).
async fn read_floats<const D: usize>(tensor: Tensor<D>) -> Vec<f32> {
    tensor
        .into_data_async()
        .await
        .expect("reading a tensor back")
        .try_into_vec_as::<f32>()
        .expect("a float tensor reads back as f32")
}

// ---------------------------------------------------------------------------------------------
// Experience replay
// ---------------------------------------------------------------------------------------------

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

/// Uniform experience replay (Lin 1992): a ring of the last `capacity` transitions, stored as
/// flat arrays, growing as it fills.
#[derive(Clone, Debug)]
pub struct ReplayBuffer {
    capacity: usize,
    observation_len: usize,
    num_actions: usize,
    len: usize,
    /// Where the next transition goes once the buffer is full.
    next: usize,
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

/// What a masked-out action's Q-value is lowered by: enough to never be the maximum, finite so
/// that multiplying by 0 (a terminal next state) stays 0.
const ILLEGAL_PENALTY: f32 = -1e9;

impl ReplayBuffer {
    /// An empty buffer for `capacity` transitions of these sizes.
    pub fn new(capacity: usize, observation_len: usize, num_actions: usize) -> Self {
        ReplayBuffer {
            capacity,
            observation_len,
            num_actions,
            len: 0,
            next: 0,
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
        self.len
    }

    /// Whether no transition is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Transitions held at most.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Stores a transition, pushing out the oldest when full.
    pub fn push(&mut self, t: Transition<'_>) {
        let (n, a) = (self.observation_len, self.num_actions);
        assert_eq!(t.observation.len(), n);
        assert_eq!(t.next_observation.len(), n);
        assert_eq!(t.next_mask.len(), a);
        let slot = if self.len < self.capacity {
            self.len
        } else {
            self.next
        };
        if let Some(tree) = &mut self.priorities {
            tree.set(slot, self.max_priority);
        }
        if self.len < self.capacity {
            self.observations.extend_from_slice(t.observation);
            self.next_observations.extend_from_slice(t.next_observation);
            self.actions.push(t.action);
            self.rewards.push(t.reward);
            self.terminated.push(t.terminated);
            self.next_masks.extend_from_slice(t.next_mask);
            self.len += 1;
        } else {
            let i = self.next;
            self.observations[i * n..(i + 1) * n].copy_from_slice(t.observation);
            self.next_observations[i * n..(i + 1) * n].copy_from_slice(t.next_observation);
            self.actions[i] = t.action;
            self.rewards[i] = t.reward;
            self.terminated[i] = t.terminated;
            self.next_masks[i * a..(i + 1) * a].copy_from_slice(t.next_mask);
        }
        self.next = (self.next + 1) % self.capacity;
    }

    /// Fills `out` with `size` transitions drawn uniformly (with replacement).
    ///
    /// # Panics
    /// If the buffer is empty.
    pub fn sample(&self, size: usize, rng: &mut Rng, out: &mut Batch) {
        assert!(!self.is_empty(), "sampling an empty replay buffer");
        let indices: Vec<usize> = (0..size).map(|_| rng.below(self.len)).collect();
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
                tree.find(mass).min(self.len - 1)
            })
            .collect();
        self.gather(&indices, out);
        let weights: Vec<f64> = indices
            .iter()
            .map(|&i| {
                let probability = (tree.get(i) / total).max(f64::MIN_POSITIVE);
                (self.len as f64 * probability).powf(-(beta as f64))
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

// ---------------------------------------------------------------------------------------------
// Schedules
// ---------------------------------------------------------------------------------------------

/// ε after `episodes` finished episodes: `start · decay^episodes`, never below `min`
/// (thesis: 0.9 · 0.999^episode, floored at 0.3).
pub fn epsilon_at(start: f32, decay: f32, min: f32, episodes: usize) -> f32 {
    let power = episodes.min(i32::MAX as usize) as i32;
    ((start as f64 * (decay as f64).powi(power)) as f32).max(min)
}

/// The thesis's curriculum: raise the difficulty once `streak_needed` evaluations in a row solve
/// more than `threshold` of their puzzles (thesis: 3 above 80%). The caller changes the
/// environments (for example through [`Dqn::for_each_env`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curriculum {
    /// The solved rate an evaluation must exceed.
    pub threshold: f32,
    /// Evaluations in a row above the threshold before the difficulty goes up.
    pub streak_needed: usize,
    streak: usize,
}

impl Curriculum {
    /// The thesis's rule: three evaluations in a row above 80%.
    pub fn thesis() -> Self {
        Curriculum::new(0.8, 3)
    }

    /// A curriculum with this threshold and streak.
    pub fn new(threshold: f32, streak_needed: usize) -> Self {
        Curriculum {
            threshold,
            streak_needed,
            streak: 0,
        }
    }

    /// Records one evaluation's solved rate; `true` when the difficulty should go up now (the
    /// streak then starts again).
    pub fn record(&mut self, solved_rate: f32) -> bool {
        if solved_rate > self.threshold {
            self.streak += 1;
        } else {
            self.streak = 0;
        }
        if self.streak >= self.streak_needed {
            self.streak = 0;
            return true;
        }
        false
    }
}

// ---------------------------------------------------------------------------------------------
// The learner
// ---------------------------------------------------------------------------------------------

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
    /// `eval/final_distance`: the thesis's average final distance of the chunk's last in-training
    /// evaluation ([`Evaluation::mean_final_distance`]), if one ran.
    pub eval_final_distance: Option<f32>,
    /// `perf/steps_per_s`: environment steps per second of wall time.
    pub steps_per_s: f32,
}

impl DqnStats {
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
        ];
        let mut metrics = vec![
            ("charts/epsilon", self.epsilon),
            ("perf/steps_per_s", self.steps_per_s),
        ];
        metrics.extend(optional.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))));
        metrics
    }
}

/// A deep Q-learner, the environments it plays, and its replay buffer.
pub struct Dqn<E: Environment> {
    config: DqnConfig,
    network_config: QNetworkConfig,
    puzzle_id: String,
    /// The training device (with autodiff) and the same device without it (target, acting).
    device: Device,
    inference_device: Device,
    policy: QNetwork,
    target: QNetwork,
    optimizer: ModuleOptimizer,
    buffer: ReplayBuffer,
    rng: Rng,
    envs: Vec<TimeLimit<E>>,
    eval_env: E,
    /// The current observation of each environment, `[num_envs, observation_len]`.
    observations: Vec<f32>,
    episode_returns: Vec<f32>,
    episodes_started: u64,
    episodes_done: usize,
    steps_done: usize,
    updates_done: usize,
    next_eval_at: usize,
    evaluations_done: u64,
    /// Episodes before updates start (the warm-up; moved on by [`Dqn::resume`]).
    updates_start_at_episode: usize,
    batch: Batch,
}

impl<E: Environment> Dqn<E> {
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
        };
        network_config.check().map_err(DqnError::InvalidConfig)?;
        if config.full_backups && eval_env.after(0).is_none() {
            return Err(DqnError::InvalidConfig(
                "full backups need an environment that can be copied after a move".into(),
            ));
        }
        let envs: Vec<_> = (0..config.num_envs)
            .map(|_| TimeLimit::new(make_env(), config.max_episode_steps))
            .collect();
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
    fn start_episode(&mut self, i: usize) {
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

    /// Runs `steps` training steps: every environment takes one ε-greedy action, the transitions
    /// go to the replay buffer, and (after the warm-up episodes) the policy network takes one
    /// gradient step on a sampled batch.
    ///
    /// Blocks on readback: on WebGPU in a browser use [`Dqn::train_steps_async`].
    pub fn train_steps(&mut self, steps: usize) -> DqnStats {
        burn::tensor::read_sync(self.train_steps_async(steps))
    }

    /// [`Dqn::train_steps`] without blocking: every readback (the actions' Q-values, the chunk's
    /// loss, the weights for an evaluation) is awaited, so it also runs on WebGPU in a browser.
    pub async fn train_steps_async(&mut self, steps: usize) -> DqnStats {
        if self.config.full_backups {
            return self.train_full_backups(steps).await;
        }
        let started = Instant::now();
        let (n, num_actions) = (
            self.network_config.observation_len,
            self.network_config.num_actions,
        );
        let mut stats = DqnStats::default();
        let (mut returns, mut lengths, mut solved) = (0.0f64, 0usize, 0usize);
        let mut loss_sum: Option<Tensor<1>> = None;
        let mut next_observation = vec![0.0; n];
        let mut mask = vec![true; num_actions];
        for _ in 0..steps {
            // DQN: ε-greedy behaviour, ε decaying per finished episode.
            let actions = self.choose_actions(self.epsilon()).await;
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
                self.episode_returns[i] += step.reward;
                stats.env_steps += 1;
                if step.terminated || step.truncated {
                    returns += self.episode_returns[i] as f64;
                    lengths += env.steps();
                    solved += usize::from(step.terminated);
                    stats.episodes += 1;
                    self.episodes_done += 1;
                    self.start_episode(i);
                } else {
                    self.observations[i * n..(i + 1) * n].copy_from_slice(&next_observation);
                }
            }
            if self.episodes_done >= self.updates_start_at_episode
                && self.buffer.len() >= self.config.batch_size
            {
                let loss = self.update().await;
                loss_sum = Some(match loss_sum {
                    Some(sum) => sum + loss,
                    None => loss,
                });
                stats.updates += 1;
                self.updates_done += 1;
                // DQN: the target network follows the policy network every few gradient steps.
                if self
                    .updates_done
                    .is_multiple_of(self.config.target_update_interval)
                {
                    self.target = self.policy.valid();
                }
            }
            self.steps_done += 1;
            stats.steps += 1;
            if self.episodes_done >= self.next_eval_at {
                while self.next_eval_at <= self.episodes_done {
                    self.next_eval_at += self.config.eval_interval_episodes;
                }
                self.evaluate_into(&mut stats).await;
            }
        }
        if stats.episodes > 0 {
            let episodes = stats.episodes as f64;
            stats.episode_return = Some((returns / episodes) as f32);
            stats.episode_length = Some((lengths as f64 / episodes) as f32);
            stats.solved_rate = Some((solved as f64 / episodes) as f32);
        }
        self.close_chunk(stats, loss_sum, started).await
    }

    /// Runs an in-training evaluation and records it in the chunk's `stats`.
    async fn evaluate_into(&mut self, stats: &mut DqnStats) {
        let evaluation = self.evaluate_in_training().await;
        stats.eval_solved_rates.push(evaluation.solved_rate);
        if evaluation.mean_final_distance.is_some() {
            stats.eval_final_distance = evaluation.mean_final_distance;
        }
    }

    /// Completes a chunk's `stats`: its mean TD loss (the summed losses read back once), ε after
    /// it, and environment steps per second since `started`.
    async fn close_chunk(
        &self,
        mut stats: DqnStats,
        loss_sum: Option<Tensor<1>>,
        started: Instant,
    ) -> DqnStats {
        if let Some(sum) = loss_sum {
            let sum = read_floats(sum).await.first().copied().unwrap_or(f32::NAN);
            stats.td_loss = Some(sum / stats.updates as f32);
        }
        stats.epsilon = self.epsilon();
        let seconds = started.elapsed().as_secs_f64();
        stats.steps_per_s = if seconds > 0.0 {
            (stats.env_steps as f64 / seconds) as f32
        } else {
            0.0
        };
        stats
    }

    /// [`DqnConfig::full_backups`]: `steps` gradient steps, each on `batch_size` fresh positions
    /// with every move backed up.
    async fn train_full_backups(&mut self, steps: usize) -> DqnStats {
        let started = Instant::now();
        let mut stats = DqnStats::default();
        let mut loss_sum: Option<Tensor<1>> = None;
        for _ in 0..steps {
            let (loss, transitions) = self.full_backup_update().await;
            loss_sum = Some(match loss_sum {
                Some(sum) => sum + loss,
                None => loss,
            });
            stats.env_steps += transitions;
            stats.updates += 1;
            self.updates_done += 1;
            self.steps_done += 1;
            stats.steps += 1;
            if self
                .updates_done
                .is_multiple_of(self.config.target_update_interval)
            {
                self.target = self.policy.valid();
            }
            let every = self.config.eval_interval_episodes;
            if every > 0 && self.updates_done.is_multiple_of(every) {
                self.evaluate_into(&mut stats).await;
            }
        }
        self.close_chunk(stats, loss_sum, started).await
    }

    /// One gradient step of [`DqnConfig::full_backups`]: draws `batch_size` unsolved starts, backs
    /// up each one's moves (legal ones only when masking; all four otherwise, a bump into a wall
    /// included) and returns the loss and the number of transitions backed up.
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
        for i in 0..b {
            self.start_episode(0);
            self.episodes_done += 1;
            let env = &self.envs[0].env;
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

    /// DQN: max Q′(s′, ·) of each next observation (`[rows, 1]`) by the frozen target network,
    /// over the legal actions when masking (`penalties`: 0 or [`ILLEGAL_PENALTY`] per action).
    /// Double DQN: the policy network picks the action, the target network values it.
    fn next_values(&self, next_observations: Tensor<2>, penalties: Tensor<2>) -> Tensor<2> {
        let mask = |q: Tensor<2>| {
            if self.config.mask_actions {
                q + penalties.clone()
            } else {
                q
            }
        };
        let next_target = mask(self.target.forward(next_observations.clone()));
        if self.config.double_dqn {
            let next_policy = mask(self.policy.valid().forward(next_observations));
            next_target.gather(1, next_policy.argmax(1))
        } else {
            next_target.max_dim(1)
        }
    }

    /// One action per environment: a random allowed one with probability ε, else the greedy one.
    async fn choose_actions(&mut self, epsilon: f32) -> Vec<usize> {
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
            .await
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
        actions
    }

    /// One gradient step on a sampled batch; returns the TD loss (a one-element tensor, left
    /// on the device so that a chunk reads it back once).
    async fn update(&mut self) -> Tensor<1> {
        let (b, n, a) = (
            self.config.batch_size,
            self.network_config.observation_len,
            self.network_config.num_actions,
        );
        if self.config.prioritized_replay {
            // Prioritised replay: β grows from its start to 1 over the configured updates.
            let c = &self.config;
            let progress = self.updates_done as f32 / c.priority_beta_updates.max(1) as f32;
            let beta = c.priority_beta_start + (1.0 - c.priority_beta_start) * progress.min(1.0);
            self.buffer
                .sample_prioritized(b, beta, &mut self.rng, &mut self.batch);
        } else {
            self.buffer.sample(b, &mut self.rng, &mut self.batch);
        }
        let batch = &self.batch;
        let on_infer = &self.inference_device;
        let column = |values: &[f32]| {
            Tensor::<2>::from_data(TensorData::new(values.to_vec(), [b, 1]), on_infer)
        };
        let observations = Tensor::<2>::from_data(
            TensorData::new(batch.observations.clone(), [b, n]),
            &self.device,
        );
        let actions = Tensor::<2, Int>::from_data(
            TensorData::new(batch.actions.clone(), [b, 1]),
            &self.device,
        );
        let next_observations = Tensor::<2>::from_data(
            TensorData::new(batch.next_observations.clone(), [b, n]),
            on_infer,
        );
        let rewards = column(&batch.rewards); // [b, 1]
        let not_terminated = column(&batch.not_terminated); // [b, 1]
        let penalties = TensorData::new(batch.next_penalties.clone(), [b, a]);
        let next_value =
            self.next_values(next_observations, Tensor::from_data(penalties, on_infer));
        // DQN: the TD target r + γ·max Q′(s′, ·) ([b, 1]), not bootstrapped past a solved puzzle.
        let td_target = rewards + next_value * not_terminated * self.config.gamma;

        // DQN: Q(s, a) of the actions taken, and the loss between the two.
        let q_taken = self.policy.forward(observations).gather(1, actions); // [b, 1]
        let loss = if self.config.prioritized_replay {
            // Prioritised replay: each transition's loss weighted by importance sampling.
            let errors = q_taken - td_target; // [b, 1]
            let weights = Tensor::<2>::from_data(
                TensorData::new(batch.weights.clone(), [b, 1]),
                &self.device,
            );
            let losses = elementwise_loss(errors.clone(), self.config.huber_loss);
            let td_errors = read_floats(errors.without_autodiff()).await;
            let (indices, alpha) = (batch.indices.clone(), self.config.priority_alpha);
            self.buffer.update_priorities(&indices, &td_errors, alpha);
            (losses * weights).mean()
        } else if self.config.huber_loss {
            HuberLossConfig::new(1.0)
                .init()
                .forward(q_taken, td_target, Reduction::Mean)
        } else {
            MseLoss::new().forward(q_taken, td_target, Reduction::Mean)
        };
        // DQN: one Adam step on the policy network.
        let gradients = GradientsParams::from_grads(loss.backward(), &self.policy);
        self.policy =
            self.optimizer
                .step(self.config.learning_rate, self.policy.clone(), gradients);
        loss.without_autodiff()
    }

    /// The thesis's in-situ evaluation: `eval_episodes` fresh puzzles, greedy, within the
    /// episode's move limit (played by a copy of the network on the CPU, which answers one
    /// position at a time fastest, whatever device trains).
    async fn evaluate_in_training(&mut self) -> Evaluation {
        let policy = self.policy_on(&Device::flex()).await;
        let count = self.config.eval_episodes as u64;
        let first = self.evaluations_done * count;
        self.evaluations_done += 1;
        let seed = self.config.seed;
        let seeds = (first..first + count).map(move |k| evaluation_seed(seed, k));
        evaluate(
            &policy,
            &mut self.eval_env,
            seeds,
            self.config.max_episode_steps,
        )
    }

    /// The policy network's Q-values of a batch of observations on the training device
    /// (`[batch, observation_len]` row-major in, `[batch, num_actions]` out), read back without
    /// blocking.
    pub async fn q_values_async(&self, observations: &[f32]) -> Vec<f32> {
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
    pub async fn policy_on(&self, device: &Device) -> QPolicy {
        let weights = self.policy.valid().weights_async().await;
        let network = self.network_config.from_weights(&weights, device);
        self.policy_with(network, device.clone())
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
        }
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

/// Each element's loss for TD errors `errors`: squared, or Huber with δ = 1 (½e² within ±1,
/// |e| − ½ beyond).
fn elementwise_loss(errors: Tensor<2>, huber: bool) -> Tensor<2> {
    if huber {
        let size = errors.abs();
        let quadratic = size.clone().clamp_max(1.0);
        quadratic.clone() * quadratic.clone() * 0.5 + (size - quadratic)
    } else {
        errors.clone() * errors
    }
}

/// Adam as Keras sets it up (the thesis trained with TensorFlow): β = (0.9, 0.999), ε = 1e-7.
fn adam() -> ModuleOptimizer {
    AdamConfig::new().with_epsilon(1e-7).init()
}

/// The seed of the `k`-th in-training evaluation puzzle (a stream apart from training's).
fn evaluation_seed(seed: u64, k: u64) -> u64 {
    (seed ^ 0xE7A1_0A7E_5EED_0000)
        .wrapping_mul(1_000_003)
        .wrapping_add(k)
}

/// The Q-values of a batch of observations (`[batch, observation_len]`, row-major), row-major.
async fn q_values(
    network: &QNetwork,
    observations: &[f32],
    num_actions: usize,
    device: &Device,
) -> Vec<f32> {
    let n = network.observation_len();
    let batch = observations.len() / n.max(1);
    let input = Tensor::<2>::from_data(TensorData::new(observations.to_vec(), [batch, n]), device);
    let values = read_floats(network.forward(input)).await;
    debug_assert_eq!(values.len(), batch * num_actions);
    values
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

// ---------------------------------------------------------------------------------------------
// Playing, evaluating, saving
// ---------------------------------------------------------------------------------------------

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
    network: QNetwork,
    network_config: QNetworkConfig,
    puzzle_id: String,
    /// Whether greedy play only considers legal actions (as the network was trained).
    pub mask_actions: bool,
    device: Device,
    training: Option<TrainingRecord>,
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

    /// Q-values of a batch of observations (`[batch, observation_len]` row-major in,
    /// `[batch, num_actions]` row-major out).
    ///
    /// Blocks on readback: play on the CPU (`Device::flex()`), as [`Dqn::policy_on`] gives.
    pub fn q_values(&self, observations: &[f32]) -> Vec<f32> {
        burn::tensor::read_sync(q_values(
            &self.network,
            observations,
            self.network_config.num_actions,
            &self.device,
        ))
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

    /// Checks that this model plays `env`'s puzzle with its observation and actions.
    pub fn check_fits<E: Environment>(&self, env: &E) -> Result<(), DqnError> {
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
            if expected != found {
                return Err(DqnError::Mismatch {
                    what,
                    expected,
                    found,
                });
            }
        }
        Ok(())
    }

    /// The model as bytes: `puzzlelab-dqn\n`, the JSON header's length (u32, little-endian), the
    /// header ([`ModelHeader`]), then every parameter as a little-endian `f32` in
    /// [`QNetwork::weights`]'s order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let weights = self.network.weights();
        let mut weight_bytes = Vec::with_capacity(weights.len() * 4);
        for w in &weights {
            weight_bytes.extend_from_slice(&w.to_le_bytes());
        }
        let header = ModelHeader {
            format_version: MODEL_FORMAT_VERSION,
            puzzle_id: self.puzzle_id.clone(),
            network: self.network_config.clone(),
            mask_actions: self.mask_actions,
            parameter_count: weights.len(),
            weights_checksum: format!("{:016x}", fnv1a(&weight_bytes)),
            training: self.training.clone(),
        };
        let header = serde_json::to_vec(&header).expect("the header serializes");
        let mut out = Vec::with_capacity(MAGIC.len() + 4 + header.len() + weight_bytes.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(&weight_bytes);
        out
    }

    /// Reads a model written by [`QPolicy::to_bytes`]; damaged bytes or another format version
    /// are an error. Use [`QPolicy::check_fits`] before playing an environment.
    pub fn from_bytes(bytes: &[u8], device: &Device) -> Result<QPolicy, DqnError> {
        let corrupt = |why: &str| DqnError::Corrupt(why.to_string());
        let rest = bytes.strip_prefix(MAGIC).ok_or(DqnError::NotAModel)?;
        if rest.len() < 4 {
            return Err(corrupt("it ends before its header"));
        }
        let (length, rest) = rest.split_at(4);
        let length = u32::from_le_bytes(length.try_into().expect("four bytes")) as usize;
        if rest.len() < length {
            return Err(corrupt("it ends inside its header"));
        }
        let (header, weight_bytes) = rest.split_at(length);
        // The version first, so that a future header reads as "unsupported", not "corrupt".
        let json: serde_json::Value = serde_json::from_slice(header)
            .map_err(|e| DqnError::Corrupt(format!("the header is not JSON: {e}")))?;
        let version = json.get("formatVersion").and_then(|v| v.as_u64());
        match version {
            Some(v) if v == MODEL_FORMAT_VERSION as u64 => {}
            Some(found) => {
                return Err(DqnError::UnsupportedVersion {
                    found,
                    supported: MODEL_FORMAT_VERSION as u64,
                })
            }
            None => return Err(corrupt("the header has no format version")),
        }
        let header: ModelHeader = serde_json::from_value(json)
            .map_err(|e| DqnError::Corrupt(format!("the header does not parse: {e}")))?;
        let expected = header.network.num_params();
        if header.parameter_count != expected {
            return Err(DqnError::Corrupt(format!(
                "the header announces {} parameters for a network that has {expected}",
                header.parameter_count
            )));
        }
        if weight_bytes.len() != expected * 4 {
            return Err(DqnError::Corrupt(format!(
                "{} bytes of weights where {expected} parameters need {}",
                weight_bytes.len(),
                expected * 4
            )));
        }
        if format!("{:016x}", fnv1a(weight_bytes)) != header.weights_checksum {
            return Err(corrupt("the weights do not match their checksum"));
        }
        let weights: Vec<f32> = weight_bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("four bytes")))
            .collect();
        if weights.iter().any(|w| !w.is_finite()) {
            return Err(corrupt("a weight is not a finite number"));
        }
        let device = device.clone().without_autodiff();
        Ok(QPolicy {
            network: header.network.from_weights(&weights, &device),
            network_config: header.network,
            puzzle_id: header.puzzle_id,
            mask_actions: header.mask_actions,
            device,
            training: header.training,
        })
    }

    /// Writes [`QPolicy::to_bytes`] to a file.
    pub fn save(&self, path: impl AsRef<std::path::Path>) -> Result<(), DqnError> {
        std::fs::write(path, self.to_bytes())?;
        Ok(())
    }

    /// Reads a file written by [`QPolicy::save`] and checks that it fits `env`.
    pub fn load_for<E: Environment>(
        path: impl AsRef<std::path::Path>,
        env: &E,
        device: &Device,
    ) -> Result<QPolicy, DqnError> {
        let policy = QPolicy::from_bytes(&std::fs::read(path)?, device)?;
        policy.check_fits(env)?;
        Ok(policy)
    }
}

/// The version of the model format [`QPolicy::to_bytes`] writes.
pub const MODEL_FORMAT_VERSION: u32 = 1;

/// The first bytes of every model file.
const MAGIC: &[u8] = b"puzzlelab-dqn\n";

/// The JSON header of a saved model.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelHeader {
    /// [`MODEL_FORMAT_VERSION`] when written.
    pub format_version: u32,
    /// The puzzle it plays ([`Environment::puzzle_id`]).
    pub puzzle_id: String,
    /// The network's shape.
    pub network: QNetworkConfig,
    /// Whether it was trained (and plays) with illegal actions masked.
    pub mask_actions: bool,
    /// Parameters that follow the header.
    pub parameter_count: usize,
    /// FNV-1a (64-bit) of the weight bytes, in hexadecimal (a JSON number would lose bits).
    pub weights_checksum: String,
    /// How it was trained, when known.
    #[serde(default)]
    pub training: Option<TrainingRecord>,
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
    /// The thesis's "average final distance": the mean of
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

// ---------------------------------------------------------------------------------------------
// Checking a device
// ---------------------------------------------------------------------------------------------

/// What one device computed for [`device_probe`]: a small Q-network's outputs and gradients on a
/// fixed batch, and the losses of Adam steps from there.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceProbe {
    /// The network's outputs on the batch, row-major `[batch, actions]`.
    pub outputs: Vec<f32>,
    /// The gradient of the loss for every parameter, in [`QNetwork::weights`]'s order.
    pub gradients: Vec<f32>,
    /// The loss before each Adam step, then after the last one.
    pub losses: Vec<f32>,
}

impl DeviceProbe {
    /// The largest absolute difference between two probes' outputs and gradients (infinite if
    /// their lengths differ).
    pub fn max_difference(&self, other: &DeviceProbe) -> f32 {
        let diff = |a: &[f32], b: &[f32]| {
            if a.len() != b.len() {
                return f32::INFINITY;
            }
            a.iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f32::max)
        };
        diff(&self.outputs, &other.outputs).max(diff(&self.gradients, &other.gradients))
    }
}

/// Runs the same small network (36 inputs, two hidden layers of 32, 4 outputs; weights from a
/// fixed seed) forward and backward on `device`, with a mean squared error against fixed targets,
/// then takes `adam_steps` Adam steps (learning rate 1e-2). Every readback is awaited, so this runs
/// on WebGPU in a browser: comparing its result with the CPU's tells whether a device computes
/// correctly (the page checks WebGPU this way before training on it).
pub async fn device_probe(device: &Device, adam_steps: usize) -> DeviceProbe {
    let config = QNetworkConfig {
        observation_len: 36,
        hidden: vec![32, 32],
        num_actions: 4,
        conv: None,
    };
    let batch = 16;
    let mut rng = Rng::new(0x9B0B_E000);
    let inputs: Vec<f32> = (0..batch * config.observation_len)
        .map(|_| f32::from(u8::from(rng.chance(0.3))))
        .collect();
    let targets: Vec<f32> = (0..batch * config.num_actions)
        .map(|_| (rng.unit() * 4.0 - 2.0) as f32)
        .collect();
    let device = device.clone().autodiff();
    let mut network = config.init(&device, 7);
    let tensor = |values: &[f32], width: usize| {
        Tensor::<2>::from_data(TensorData::new(values.to_vec(), [batch, width]), &device)
    };
    let loss_of = |network: &QNetwork| {
        let outputs = network.forward(tensor(&inputs, config.observation_len));
        let loss = MseLoss::new().forward(
            outputs.clone(),
            tensor(&targets, config.num_actions),
            Reduction::Mean,
        );
        (outputs, loss)
    };
    let (outputs, loss) = loss_of(&network);
    let mut probe = DeviceProbe {
        outputs: read_floats(outputs.without_autodiff()).await,
        ..DeviceProbe::default()
    };
    let grads = loss.backward();
    for layer in &network.layers {
        let weight = layer.weight.val().grad(&grads);
        let bias = layer.bias.as_ref().and_then(|b| b.val().grad(&grads));
        probe
            .gradients
            .extend(read_floats(weight.expect("weights have gradients")).await);
        if let Some(bias) = bias {
            probe.gradients.extend(read_floats(bias).await);
        }
    }
    let mut optimizer = AdamConfig::new().init();
    for _ in 0..adam_steps {
        let (_, loss) = loss_of(&network);
        probe
            .losses
            .extend(read_floats(loss.clone().without_autodiff()).await);
        let gradients = GradientsParams::from_grads(loss.backward(), &network);
        network = optimizer.step(1e-2, network, gradients);
    }
    let (_, loss) = loss_of(&network);
    probe
        .losses
        .extend(read_floats(loss.without_autodiff()).await);
    probe
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epsilon_follows_the_thesis_schedule() {
        assert_eq!(epsilon_at(0.9, 0.999, 0.3, 0), 0.9);
        assert!((epsilon_at(0.9, 0.999, 0.3, 100) - 0.9 * 0.999f32.powi(100)).abs() < 1e-6);
        // 0.9 · 0.999^n reaches 0.3 after ln(3)/−ln(0.999) ≈ 1098 episodes.
        assert!(epsilon_at(0.9, 0.999, 0.3, 1097) > 0.3);
        assert_eq!(epsilon_at(0.9, 0.999, 0.3, 1099), 0.3);
        assert_eq!(epsilon_at(0.9, 0.999, 0.3, usize::MAX), 0.3);
    }

    #[test]
    fn curriculum_needs_three_evaluations_in_a_row_above_80_percent() {
        let mut c = Curriculum::thesis();
        let raises: Vec<bool> = [0.9, 0.9, 0.8, 0.9, 0.9, 1.0, 0.9]
            .into_iter()
            .map(|r| c.record(r))
            .collect();
        assert_eq!(
            raises,
            [false, false, false, false, false, true, false],
            "0.8 is not above 80% and breaks the streak"
        );
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

    #[test]
    fn network_sizes_match_the_thesis() {
        let thesis = QNetworkConfig {
            observation_len: 72,
            hidden: vec![250, 250, 250],
            num_actions: 4,
            conv: None,
        };
        assert_eq!(thesis.num_params(), 144_754, "the thesis's figure 3");
        assert_eq!(
            thesis.layer_sizes(),
            [(72, 250), (250, 250), (250, 250), (250, 4)]
        );
    }

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
