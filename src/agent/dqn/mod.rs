//! Deep Q-learning (Mnih et al. 2015) as the N-puzzle DQN dissertation (2021) trains it on the
//! N-puzzle, over any [`Environment`](crate::env::Environment).
//!
//! One file per seam, read in this order (as CleanRL's `dqn.py` reads top to bottom):
//!
//! | file | what it holds |
//! |---|---|
//! | `config.rs` | [`DqnConfig`] (the dissertation's values as defaults) and [`DqnError`] |
//! | `network.rs` | the Q-network: [`QNetworkConfig`], [`QNetwork`], the pair convolutions of Mehta's RL paper for constraint-satisfaction games ([`PairConvConfig`], [`PairConv`]) |
//! | `grid_conv.rs` | convolutions over a board, Mehta's Minesweeper network or a fully convolutional one with a Q-value per cell ([`GridConvConfig`], [`GridConv`]) |
//! | `replay.rs` | experience replay: [`ReplayBuffer`] (uniform or prioritised), [`Transition`], [`Batch`] |
//! | `schedule.rs` | [`epsilon_at`] and the [`Curriculum`] |
//! | `learner.rs` | the play-and-replay learner [`Dqn`]: its training loop and gradient step ([`Dqn::train_steps`]), in-training evaluation, [`DqnStats`] |
//! | `td.rs` | the gradient step's arithmetic: a replayed batch on the device, the TD target (max, Double DQN, the blog's mean), the loss, Adam |
//! | `demonstrations.rs` | learning from an expert's transitions (DQfD): [`record_demonstrations`], pre-training on them, the large-margin loss, a share of every later batch |
//! | `failures.rs` | with full backups, a share of every batch from the states where the greedy policy failed ([`DqnConfig::failure_share`]): probes of the policy, the pool they fill |
//! | `full_backup.rs` | the other algorithms of the same learner: full backups ([`DqnConfig::full_backups`]) and backups of every action of visited states ([`DqnConfig::backup_visited`]) |
//! | `checkpoint.rs` | the policy out of a learner ([`Dqn::policy`]) and a saved one back in ([`Dqn::load_weights`], [`Dqn::resume`]) |
//! | `policy.rs` | a trained network at play: [`QPolicy`], [`best_allowed`], greedy rollouts, [`evaluate`] |
//! | `model_file.rs` | the model file: [`ModelHeader`], [`MODEL_FORMAT_VERSION`], [`QPolicy::to_bytes`] / [`QPolicy::from_bytes`] |
//! | `puzzle_learner.rs` | a puzzle's learner described once ([`PuzzleLearner`]): its environments, networks, settings, validation and manifest, for the CLI's and the page's one trainer |
//! | `probe.rs` | checking a device: [`device_probe`], [`DeviceProbe`] |
//! | `matmul.rs` | the dense layers' matrix product on WebGPU: burn's, or cubek's tiled kernel through a backend extension ([`TiledMatmul`]) when [`race_products`] finds it faster |
//! | `bench.rs` | timing the gradient step and single operations on a device: [`Dqn::benchmark_steps`], [`op_benchmark`], and *Auto*'s [`Dqn::timing_probe`] |
//! | [`cost_to_go`] | a 15-puzzle value network learned from optimal solutions (supervised, one output), for batch-weighted A* |
//! | [`sliding`] | the learner set up for sliding puzzles (the dissertation's start rule, reward, curriculum) |
//! | [`game2048`] | the learner set up for 2048 (Mehta's network and reward) |
//! | [`minesweeper`] | the learner set up for Minesweeper (Mehta's network; a fully convolutional one with every covered cell backed up), greedy play on the solver's boards |
//! | [`dust`] | the learner set up for the dust puzzle (the blog's batched DQN with its mean-of-next-Q target as an option; full backups of every click of boards from every stage of a game), greedy play on seeded boards |
//! | [`sudoku`] | the learner set up for Sudoku (Mehta's network; a network shared by all actions over features, every legal digit backed up), greedy play on puzzles binned by guesses |
//!
//! The lines of the algorithm itself are marked `// DQN:`; the rest is plumbing.
//!
//! The observation is whatever the environment writes
//! ([`Environment::write_observation`](crate::env::Environment::write_observation); the sliding
//! puzzle writes the dissertation's one-hot encoding), and the network gives one Q-value per
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
//! | `eval/final_distance` | its mean distance to the goal where play ended (the dissertation's "average final distance") |
//! | `perf/steps_per_s` | environment steps per second of wall time |
//! | `perf/updates_per_s` | gradient steps per second of wall time (a pre-training chunk plays no move) |
//! | `loss/margin` | with demonstrations: the mean large-margin loss of the chunk's gradient steps |
//! | `demonstrations/agreement` | with demonstrations: the share of the chunk's demonstrated batch rows whose greedy action was the demonstrator's (before each update) |
//! | `failures/greedy_rate` | with [`DqnConfig::failure_share`]: the share of the chunk's probe games (greedy, fresh starts) the policy did not finish |
//!
//! Where this departs from the dissertation, and why:
//! - The target network is copied every 10 gradient steps, as the dissertation's text says; its
//!   code copies after every step (`if time_steps % 10 == 0` with `time_steps = 50`).
//! - ε stops at exactly 0.3 (its code stops one decay below, 0.2997).
//! - Weights start from U(±1/√fan-in) (PyTorch's and burn's default) rather than Keras's Glorot,
//!   drawn from the config's seed so that runs are reproducible on any device. Adam's ε is 1e-7,
//!   Keras's default.
//! - A greedy rollout stops as soon as a state repeats: a deterministic policy cannot leave a loop.

mod config;
mod grid_conv;
mod network;
mod replay;
mod schedule;

mod demonstrations;
mod failures;
mod full_backup;
mod learner;
mod td;

mod checkpoint;
mod model_file;
mod policy;
mod probe;
mod puzzle_learner;

mod bench;
mod matmul;

pub mod cost_to_go;
pub mod dust;
pub mod dust_value;
pub mod game2048;
pub mod minesweeper;
pub mod sliding;
pub mod sudoku;

pub use bench::{
    op_benchmark, OpTimes, PhaseTimes, StepBenchmark, StepBenchmarkOptions, TimingProbe,
};
pub use config::{DqnConfig, DqnError};
pub use demonstrations::{record_demonstrations, record_demonstrations_into};
pub use grid_conv::{GridConv, GridConvConfig};
pub use learner::{Dqn, DqnStats};
pub use matmul::{
    race_products, tiled_product, use_tiled_products, uses_tiled_products, ProductRace, TiledMatmul,
};
pub use model_file::{ModelHeader, MODEL_FORMAT_VERSION};
pub use network::{PairConv, PairConvConfig, QNetwork, QNetworkConfig};
pub use policy::{best_allowed, evaluate, Evaluation, QPolicy, TrainingRecord};
pub use probe::{device_probe, DeviceProbe};
pub use puzzle_learner::{model_description, network_named, NetworkChoice, PuzzleLearner};
pub use replay::{Batch, ReplayBuffer, Transition};
pub use schedule::{epsilon_at, Curriculum};
