//! The configuration of deep Q-learning: every hyper-parameter, with the N-puzzle DQN
//! dissertation's (2021) value as its default where it gives one, and the learner's errors.

use super::{GridConvConfig, PairConvConfig};

/// Hyper-parameters of deep Q-learning. Defaults are the N-puzzle DQN dissertation's (2021) where
/// it gives one.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DqnConfig {
    /// Widths of the hidden layers, each followed by ReLU (dissertation: `[250, 250, 250]`).
    pub hidden: Vec<usize>,
    /// The convolutions of Mehta's RL paper for constraint-satisfaction games in front of the dense
    /// layers (2048: [`PairConvConfig::game2048`]); `None` (the dissertation): the dense layers read
    /// the observation directly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conv: Option<PairConvConfig>,
    /// Convolutions over the board in front of the dense layers, or the whole network when per
    /// cell (Minesweeper: [`GridConvConfig::conv_dense`]); `None`: none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridConvConfig>,
    /// Transitions the replay buffer keeps; the oldest leave first (dissertation: 100,000).
    pub replay_capacity: usize,
    /// Transitions per gradient step (dissertation: 100).
    pub batch_size: usize,
    /// Adam's learning rate (dissertation: 1e-4).
    pub learning_rate: f64,
    /// Discount γ (dissertation: 0.9).
    pub gamma: f32,
    /// Gradient steps between copies of the policy network into the target network (dissertation:
    /// 10).
    pub target_update_interval: usize,
    /// ε of the ε-greedy behaviour at the first episode (dissertation: 0.9).
    pub epsilon_start: f32,
    /// ε's factor per finished episode (dissertation: 0.999).
    pub epsilon_decay: f32,
    /// ε's floor (dissertation: 0.3).
    pub epsilon_min: f32,
    /// Moves per episode before it is truncated (dissertation: 50).
    pub max_episode_steps: usize,
    /// Episodes played before the first gradient step, to fill the buffer (dissertation: 100).
    pub warmup_episodes: usize,
    /// Double DQN (van Hasselt et al. 2016): the policy network picks the next action and the
    /// target network values it. The dissertation names it as future work (default: off).
    pub double_dqn: bool,
    /// Bootstrap from the *mean* of the next Q-values instead of their maximum (the dust-puzzle
    /// blog post's target: r + γ·mean Q′(s′, ·), over the legal next actions when masking;
    /// default: off, the usual max). It values the next position under a uniform policy, not a
    /// greedy one, so it learns the value of a random continuation.
    pub mean_next_q: bool,
    /// Huber loss (δ = 1, as the dust-puzzle blog post uses) instead of the dissertation's mean
    /// squared error.
    pub huber_loss: bool,
    /// Only choose legal actions, and bootstrap only over legal next actions. The dissertation lets
    /// the agent bump into walls and learn −1 from it (default: off).
    pub mask_actions: bool,
    /// Environments played at once, one step each per training step (dissertation: 1; the
    /// dust-puzzle blog post: 1000).
    pub num_envs: usize,
    /// Prioritised replay (Schaul et al. 2016, proportional; named by the dust-puzzle blog post):
    /// transitions are drawn in proportion to |TD error|^α and their loss weighted by importance
    /// sampling (N·P(i))^−β, normalised by the batch's largest weight (default: off, uniform
    /// sampling).
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
    /// With [`DqnConfig::full_backups`]: the share of each batch drawn from states where the
    /// greedy policy failed instead of from the start rule (default 0: none). Every
    /// 500 gradient steps (`failures.rs`' `FAILURE_PROBE_EVERY`) the learner plays its
    /// greedy policy from fresh starts; the states of every game it does not finish within
    /// `max_episode_steps` (a loop, most often) are kept, and backing them up against the target
    /// network breaks the loop: in a cycle the Bellman targets cannot all hold, so its values
    /// must fall until another move wins. Prioritised sweeping of a kind, on the policy's own
    /// failures; it needs no knowledge of the true values.
    pub failure_share: f32,
    /// Backups of every legal action of each visited state (γ = 0 only; default: off): the
    /// environments are played ε-greedily as usual, but each state they visit is stored with the
    /// reward of every legal action (from the environment's copy after the action, as full
    /// backups do), and a gradient step fits Q(s, ·) to all of them at once. With γ = 0 the value
    /// of an action is its expected reward, so nothing needs a target network. For puzzles
    /// where one position tells a lot about many actions (Minesweeper: each covered cell's
    /// outcome), each stored state teaches every action instead of one. The replay buffer then
    /// holds `replay_capacity` states.
    pub backup_visited: bool,
    /// With [`DqnConfig::backup_visited`] and rewards that tell a losing action by being negative
    /// (Minesweeper's win/loss reward): fit each action's chance of losing by cross-entropy instead
    /// of its expected reward by squared error (default: off). The network's output is then the
    /// log-odds that the action does not lose, so the greedy action is still its largest output,
    /// but certain outcomes are learnt sharply: a squared error barely tells a probability of 0.02
    /// from 0, cross-entropy does (a two-atom categorical DQN, Bellemare et al. 2017, with γ = 0).
    pub survival_logits: bool,
    /// Learning from demonstrations (DQfD, Hester et al. 2018; used only when the learner was given
    /// some, [`Dqn::add_demonstrations`](super::Dqn::add_demonstrations)): the large-margin loss
    /// max_a [Q(s, a) + m·(a ≠ a_E)] − Q(s, a_E) on each demonstrated transition asks the
    /// demonstrator's action a_E to lead every other by this margin m (DQfD: 0.8).
    pub demonstration_margin: f32,
    /// The large-margin loss's weight beside the TD loss (DQfD's λ₂: 1).
    pub demonstration_weight: f32,
    /// The share of each batch drawn from the demonstrations once play has started, the rest from
    /// the agent's own play (DQfD keeps them in one prioritised buffer with a bonus priority;
    /// puzzlelab draws a fixed share instead, default 0.25).
    pub demonstration_share: f32,
    /// Gradient steps on the demonstrations alone before any play (DQfD's pre-training phase;
    /// each counts as a training step; default 0). With demonstrations there is no warm-up:
    /// play and gradient steps start together.
    pub pretrain_steps: usize,
    /// Evaluate the greedy policy every this many finished episodes once training has started
    /// (dissertation: 50; 0: never).
    pub eval_interval_episodes: usize,
    /// Puzzles per in-training evaluation (dissertation: 10).
    pub eval_episodes: usize,
    /// Seed of the weights, the exploration, the replay sampling and every episode's reset.
    pub seed: u64,
}

impl Default for DqnConfig {
    fn default() -> Self {
        DqnConfig {
            hidden: vec![250, 250, 250],
            conv: None,
            grid: None,
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
            mean_next_q: false,
            huber_loss: false,
            mask_actions: false,
            num_envs: 1,
            prioritized_replay: false,
            priority_alpha: 0.6,
            priority_beta_start: 0.4,
            priority_beta_updates: 100_000,
            full_backups: false,
            failure_share: 0.0,
            backup_visited: false,
            survival_logits: false,
            demonstration_margin: 0.8,
            demonstration_weight: 1.0,
            demonstration_share: 0.25,
            pretrain_steps: 0,
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
        } else if self.backup_visited && self.gamma != 0.0 {
            "backups of every action of visited states need γ = 0 (no bootstrapping)"
        } else if self.backup_visited && (self.full_backups || self.prioritized_replay) {
            "backups of visited states go with neither full backups nor prioritised replay"
        } else if self.survival_logits && !self.backup_visited {
            "survival log-odds are fitted to backups of visited states only"
        } else if self.mean_next_q && self.double_dqn {
            "the mean of the next Q-values needs no action picked: it goes without double DQN"
        } else if !(0.0..=1.0).contains(&self.demonstration_share)
            || ![self.demonstration_margin, self.demonstration_weight]
                .iter()
                .all(|x| x.is_finite() && *x >= 0.0)
        {
            "the demonstrations' share lies in [0, 1]; their margin and weight are not negative"
        } else if !(0.0..=1.0).contains(&self.failure_share) {
            "the share of the greedy policy's failures lies in [0, 1]"
        } else if self.failure_share > 0.0 && !self.full_backups {
            "the greedy policy's failures are revisited by full backups only"
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
    /// A puzzle learner's setup (its board, network, reward, …) is not one it can train: the
    /// message says what to give instead.
    #[error("{0}")]
    InvalidSetup(String),
    /// A position the model cannot play (another size, no single solution, …): the message says
    /// why.
    #[error("{0}")]
    InvalidPosition(String),
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
    /// The training device did not answer a readback (on WebGPU: the GPU device was lost).
    #[error("the training device could not be read back (was the GPU lost?): {0}")]
    Readback(String),
}
