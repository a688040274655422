//! The pair-convolution deep Q-network on 2048 ([`pair_conv_config`]), as Mehta's RL paper for
//! constraint-satisfaction games sets it up: the one-hot 4 × 4 × 16 board, two levels of (1, 2)
//! and (2, 1) convolutions ([`PairConvConfig::game2048`]), a dense layer, one Q-value per move,
//! trained by [`Dqn`] on the paper's shaped reward ([`Reward2048::WeightedFeatures`]). Shared by
//! `puzzlelab 2048 train` and the page's training worker, so that both train the same way;
//! evaluated by whole games like the n-tuple agent (reach rates of 2048, 4096, …).
//!
//! What the paper gives and what puzzlelab chooses where it is silent:
//! - the paper: learning rate 5·10⁻⁴ (decayed in steps of 0.9; puzzlelab keeps it constant), γ 0.9,
//!   ε from 0.9 multiplied by 0.995 every 2,500 iterations (puzzlelab: ×0.9995 per finished game,
//!   floored at 0.01, since [`Dqn`] decays ε by episode), replay 100,000, 200,000 episodes;
//! - puzzlelab: batch 64, the dense layer 256 wide (the paper names only the concatenation),
//!   illegal moves masked (the paper does not say what a move that changes nothing does; a masked
//!   agent never wastes one), games of the original rules (a 4 one time in ten).

use super::{best_allowed, Dqn, DqnConfig, DqnError, DqnStats, PairConvConfig, QPolicy};
use crate::env::game2048::{game_seed, Game2048, Game2048Config, GameStats, Reward2048};
use crate::env::Environment;
use burn::tensor::Device;

/// The pair-convolution network and its learner's settings: the hyper-parameters of Mehta's RL
/// paper for constraint-satisfaction games (see the module docs for what puzzlelab chose where it
/// is silent).
pub fn pair_conv_config() -> DqnConfig {
    DqnConfig {
        hidden: vec![256],
        conv: Some(PairConvConfig::game2048()),
        replay_capacity: 100_000,
        batch_size: 64,
        learning_rate: 5e-4,
        gamma: 0.9,
        target_update_interval: 100,
        epsilon_start: 0.9,
        epsilon_decay: 0.9995,
        epsilon_min: 0.01,
        // A game ends by itself; the cap only stops a policy that found a way to never lose.
        max_episode_steps: 100_000,
        warmup_episodes: 10,
        mask_actions: true,
        // Evaluation is by whole games ([`Game2048Trainer::evaluate`]), not by "solved".
        eval_interval_episodes: 0,
        ..DqnConfig::default()
    }
}

/// The rules the DQN trains on: the original game's spawns, rewarded by the weighted board
/// features ([`Reward2048::WeightedFeatures`]).
pub fn training_rules() -> Game2048Config {
    Game2048Config {
        reward: Reward2048::WeightedFeatures,
        ..Game2048Config::default()
    }
}

/// A deep Q-learner playing 2048.
pub struct Game2048Trainer {
    dqn: Dqn<Game2048>,
    rules: Game2048Config,
}

impl Game2048Trainer {
    /// A learner with fresh weights on `device`, playing games of `rules`.
    pub fn new(
        config: DqnConfig,
        rules: Game2048Config,
        device: &Device,
    ) -> Result<Self, DqnError> {
        let dqn = Dqn::new(|| Game2048::new(rules), config, device)?;
        Ok(Game2048Trainer { dqn, rules })
    }

    /// The learner.
    pub fn dqn(&self) -> &Dqn<Game2048> {
        &self.dqn
    }

    /// The learner, to load weights or resume.
    pub fn dqn_mut(&mut self) -> &mut Dqn<Game2048> {
        &mut self.dqn
    }

    /// The rules of the training games.
    pub fn rules(&self) -> Game2048Config {
        self.rules
    }

    /// [`Dqn::train_steps`]: `steps` moves of the training games, one gradient step each.
    pub fn train_steps(&mut self, steps: usize) -> DqnStats {
        self.dqn.train_steps(steps)
    }

    /// [`Game2048Trainer::train_steps`] without blocking (WebGPU in a browser).
    pub async fn train_steps_async(&mut self, steps: usize) -> Result<DqnStats, DqnError> {
        self.dqn.train_steps_async(steps).await
    }
}

/// Plays games `games.start..games.end` of the run seeded with `seed` (the same games as
/// [`crate::env::game2048::play_games`] plays with that seed) with `policy`'s greedy legal move,
/// all at once so that each move is one batched forward pass. Play on the CPU
/// ([`Dqn::policy`] or [`Dqn::policy_on`] with `Device::flex()`).
pub fn play_greedy_games(
    policy: &QPolicy,
    rules: Game2048Config,
    games: std::ops::Range<u64>,
    seed: u64,
) -> GameStats {
    let mut playing: Vec<Game2048> = games
        .map(|g| {
            let mut game = Game2048::new(rules);
            game.reset(game_seed(seed, g));
            game
        })
        .collect();
    let mut finished: Vec<(usize, Game2048)> = Vec::new();
    let mut order: Vec<usize> = (0..playing.len()).collect();
    let n = 256;
    let mut observations = Vec::new();
    let mut mask = [false; 4];
    while !playing.is_empty() {
        // Games already over (a start cannot be, but keep the loop honest) leave first.
        let mut i = 0;
        while i < playing.len() {
            if playing[i].board().is_game_over() {
                finished.push((order.swap_remove(i), playing.swap_remove(i)));
            } else {
                i += 1;
            }
        }
        if playing.is_empty() {
            break;
        }
        observations.resize(playing.len() * n, 0.0);
        for (game, out) in playing.iter().zip(observations.chunks_mut(n)) {
            game.write_observation(out);
        }
        let q = policy.q_values(&observations);
        for (game, values) in playing.iter_mut().zip(q.chunks(4)) {
            game.action_mask(&mut mask);
            game.step(best_allowed(values, &mask));
        }
    }
    // Record in game order, as a sequential run would.
    finished.sort_by_key(|(i, _)| *i);
    let mut stats = GameStats::default();
    for (_, game) in &finished {
        stats.record(game);
    }
    stats
}
