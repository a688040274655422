//! TD(0) learning of an n-tuple network on afterstates (Szubert & Jaśkowski 2014), updated
//! backward over each finished game (Yeh et al. 2016), in chunks of games.

use super::NTupleNetwork;
use crate::env::game2048::{
    clock_seconds, game_seed, Board, Game2048, Game2048Config, GameStats, GameSummary,
};
use crate::env::Environment;

#[cfg(test)]
use super::TupleSet;

/// Hyper-parameters of TD(0) learning of an n-tuple network.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TdConfig {
    /// Learning rate for the whole value, split over the weights touched (module docs): 0.1.
    pub alpha: f32,
    /// Seed of the training games (game g of the run uses `game_seed(seed, g)`).
    pub seed: u64,
    /// The rules (the original game's by default: 4s with probability 0.1).
    pub game: Game2048Config,
}

impl Default for TdConfig {
    fn default() -> Self {
        TdConfig {
            alpha: 0.1,
            seed: 0,
            game: Game2048Config::default(),
        }
    }
}

/// What a chunk of training did.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TrainStats {
    /// The chunk's games in numbers (mean score, reach rates, games/s, moves/s).
    pub summary: GameSummary,
    /// Training games played so far, over all chunks and resumed runs.
    pub games_trained: u64,
}

/// TD(0) learning of an n-tuple network, in chunks of games.
#[derive(Clone, Debug)]
pub struct TdLearner {
    /// The network being learned.
    pub network: NTupleNetwork,
    /// The hyper-parameters.
    pub config: TdConfig,
    game: Game2048,
    path: Vec<(Board, f32)>,
}

impl TdLearner {
    /// A learner for `network` (new or loaded: game seeds continue from its games trained).
    pub fn new(network: NTupleNetwork, config: TdConfig) -> Self {
        TdLearner {
            game: Game2048::new(config.game),
            network,
            config,
            path: Vec::new(),
        }
    }

    /// Plays and learns from one game; returns it (finished).
    pub fn train_game(&mut self) -> &Game2048 {
        let seed = game_seed(self.config.seed, self.network.games_trained);
        self.game.reset(seed);
        self.path.clear();
        // Play greedily, remembering each afterstate and the reward of the move that made it.
        while let Some((m, _, slide)) = self.network.best_move(self.game.board()) {
            self.path.push((slide.board, slide.score as f32));
            self.game.play(m);
        }
        // TD(0) backward over the game: the last afterstate led nowhere (target 0); each earlier
        // one's target is the next move's reward plus the next afterstate's (updated) value.
        let step = self.config.alpha / self.network.weights_per_value() as f32;
        let mut target = 0.0f32;
        for &(afterstate, reward) in self.path.iter().rev() {
            let error = target - self.network.value(afterstate);
            self.network.adjust(afterstate, step * error);
            target = reward + self.network.value(afterstate);
        }
        self.network.games_trained += 1;
        &self.game
    }

    /// Plays and learns from `games` games: the chunk a worker reports between.
    pub fn train_games(&mut self, games: u64) -> TrainStats {
        let started = clock_seconds();
        let mut stats = GameStats::default();
        for _ in 0..games {
            let game = self.train_game();
            stats.record(game);
        }
        TrainStats {
            summary: stats.summary(clock_seconds() - started),
            games_trained: self.network.games_trained,
        }
    }
}

/// A network of `set` trained for `games` games from seed 11 (the tests' trained network).
#[cfg(test)]
pub(super) fn trained(set: TupleSet, games: u64) -> NTupleNetwork {
    let mut learner = TdLearner::new(
        NTupleNetwork::new(set),
        TdConfig {
            seed: 11,
            ..TdConfig::default()
        },
    );
    learner.train_games(games);
    learner.network
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::ntuple::{evaluate_greedy, TupleSet};
    use crate::env::game2048::play_games;
    use crate::rng::Rng;

    #[test]
    fn a_short_td_run_beats_random_and_untrained_play() {
        let config = Game2048Config::default();
        let mut rng = Rng::new(5);
        let random = play_games(config, 50, 99, |b| {
            crate::env::game2048::random_move(b, &mut rng).unwrap()
        });
        let untrained = evaluate_greedy(
            &NTupleNetwork::new(TupleSet::FiveFourTuples),
            config,
            50,
            99,
        );
        let network = trained(TupleSet::FiveFourTuples, 400);
        let learned = evaluate_greedy(&network, config, 50, 99);
        assert!(
            learned.mean_score > 2.0 * random.mean_score()
                && learned.mean_score > 1.5 * untrained.mean_score,
            "random {}, untrained {}, after 400 games {}",
            random.mean_score(),
            untrained.mean_score,
            learned.mean_score
        );
    }
}
