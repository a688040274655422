//! Playing a network's agents — greedy, expectimax over its values, or random moves — over
//! numbered, seeded games in chunks ([`Evaluation`]): `puzzlelab 2048 eval` and the page's
//! worker both use it, so they report the same games in the same [`EvaluationReport`].

use super::NTupleNetwork;
use crate::env::game2048::expectimax::Expectimax;
use crate::env::game2048::{
    clock_seconds, play_game_range, random_move, Game2048Config, GameStats, GameSummary,
};
use crate::rng::Rng;

/// Plays `games` games greedily with `network` (no learning), game `g` seeded with
/// `game_seed(seed, g)`.
pub fn evaluate_greedy(
    network: &NTupleNetwork,
    config: Game2048Config,
    games: u64,
    seed: u64,
) -> GameSummary {
    let mut evaluation = Evaluation::new(Agent2048::Greedy, config, games, seed);
    evaluation
        .play(Some(network), games)
        .expect("the greedy agent has its network");
    evaluation.summary()
}

/// The agents an evaluation can play (`puzzlelab 2048 eval --agent`, the page's Evaluate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent2048 {
    /// The network's greedy 1-ply policy: the move maximising reward + V(afterstate). Named
    /// `ntuple` in reports, as the CLI's `--agent ntuple`.
    Greedy,
    /// Expectimax ([`crate::env::game2048::expectimax`]) `depth` moves deep over the network's values.
    Expectimax {
        /// Moves searched ahead (at least 1; 1 is the greedy policy).
        depth: u32,
    },
    /// Uniformly random legal moves: the baseline, which needs no network.
    Random,
}

impl Agent2048 {
    /// `ntuple` (or `greedy`), `expectimax` (searching `depth` moves deep, at least 1) or `random`.
    pub fn from_name(name: &str, depth: u32) -> Option<Agent2048> {
        match name.trim() {
            "ntuple" | "greedy" => Some(Agent2048::Greedy),
            "expectimax" => Some(Agent2048::Expectimax {
                depth: depth.max(1),
            }),
            "random" => Some(Agent2048::Random),
            _ => None,
        }
    }

    /// The name reports use: `ntuple`, `expectimax` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            Agent2048::Greedy => "ntuple",
            Agent2048::Expectimax { .. } => "expectimax",
            Agent2048::Random => "random",
        }
    }

    /// The search depth (expectimax only).
    pub fn depth(self) -> Option<u32> {
        match self {
            Agent2048::Expectimax { depth } => Some(depth),
            _ => None,
        }
    }

    /// Whether the agent plays with a network's values.
    pub fn needs_network(self) -> bool {
        self != Agent2048::Random
    }
}

/// Why an evaluation cannot play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvaluationError {
    /// A greedy or expectimax evaluation was given no network.
    #[error("the {0} agent plays with a network, and none was given")]
    NeedsNetwork(&'static str),
}

/// What an evaluation reports: the JSON of `puzzlelab 2048 eval` (which adds `machine`) and the
/// result of the page's Evaluate, so that the two can be compared field by field.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EvaluationReport {
    /// `ntuple` (greedy), `expectimax` or `random`.
    pub agent: String,
    /// Expectimax's depth (`None` for the other agents).
    pub depth: Option<u32>,
    /// Where the network came from (a path or URL; `None` when not said).
    pub model: Option<String>,
    /// The network's training games (`None` without a network).
    pub games_trained: Option<u64>,
    /// The network's tuple set (`None` without a network).
    pub tuple_set: Option<String>,
    /// The run's seed: game `g` is seeded with `game_seed(seed, g)`.
    pub seed: u64,
    /// Chance nodes expectimax evaluated (expectimax only).
    pub chance_nodes: Option<u64>,
    /// The games in numbers: reach rates, mean and median score, moves/s.
    pub summary: GameSummary,
}

/// An evaluation of an agent over a fixed number of games, played in chunks so that a worker
/// can report progress and stop between them. Game `g` is seeded with `game_seed(seed, g)`
/// whatever the chunks, so a chunked run plays exactly the games of one long call (and the same
/// games natively and in the browser). The wall time counts only the time spent playing.
#[derive(Clone, Debug)]
pub struct Evaluation {
    agent: Agent2048,
    config: Game2048Config,
    seed: u64,
    games: u64,
    stats: GameStats,
    seconds: f64,
    chance_nodes: u64,
    /// The random agent's moves (the CLI's seed for them since its first version).
    random: Rng,
}

impl Evaluation {
    /// An evaluation of `agent` over `games` games of `config`'s rules seeded from `seed`.
    pub fn new(agent: Agent2048, config: Game2048Config, games: u64, seed: u64) -> Self {
        Evaluation {
            agent,
            config,
            seed,
            games,
            stats: GameStats::default(),
            seconds: 0.0,
            chance_nodes: 0,
            random: Rng::new(seed ^ 0x5EED),
        }
    }

    /// The agent evaluated.
    pub fn agent(&self) -> Agent2048 {
        self.agent
    }

    /// Games to play in all.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Games played so far.
    pub fn games_done(&self) -> u64 {
        self.stats.games
    }

    /// Whether every game has been played.
    pub fn is_finished(&self) -> bool {
        self.stats.games >= self.games
    }

    /// The games played so far, game by game.
    pub fn stats(&self) -> &GameStats {
        &self.stats
    }

    /// Plays up to `max_games` more games with `network` (the same network every call; the
    /// random agent needs none). Returns whether the evaluation is finished.
    pub fn play(
        &mut self,
        network: Option<&NTupleNetwork>,
        max_games: u64,
    ) -> Result<bool, EvaluationError> {
        let first = self.stats.games;
        let range = first..first + max_games.min(self.games - first);
        let (config, seed) = (self.config, self.seed);
        let started = clock_seconds();
        let stats = match (self.agent, network) {
            (Agent2048::Random, _) => {
                let rng = &mut self.random;
                play_game_range(config, range, seed, |board| {
                    random_move(board, rng).expect("a legal move")
                })
            }
            (agent, None) => return Err(EvaluationError::NeedsNetwork(agent.name())),
            (Agent2048::Greedy, Some(network)) => play_game_range(config, range, seed, |board| {
                network.best_move(board).expect("a legal move").0
            }),
            (Agent2048::Expectimax { depth }, Some(network)) => {
                // Its cache is cleared before every decision: a new search per chunk plays the
                // same moves as one for the whole run.
                let mut search =
                    Expectimax::new(|b| network.value(b), depth, config.four_probability);
                let stats = play_game_range(config, range, seed, |board| {
                    search.best_move(board).expect("a legal move").0
                });
                self.chance_nodes += search.nodes();
                stats
            }
        };
        self.seconds += clock_seconds() - started;
        self.stats.merge(&stats);
        Ok(self.is_finished())
    }

    /// The games played so far in a few numbers.
    pub fn summary(&self) -> GameSummary {
        self.stats.summary(self.seconds)
    }

    /// The report of the games played so far; `network` and `model` (its path or URL) say what
    /// played.
    pub fn report(
        &self,
        network: Option<&NTupleNetwork>,
        model: Option<String>,
    ) -> EvaluationReport {
        EvaluationReport {
            agent: self.agent.name().to_string(),
            depth: self.agent.depth(),
            model,
            games_trained: network.map(|n| n.games_trained()),
            tuple_set: network.map(|n| n.tuple_set().name().to_string()),
            seed: self.seed,
            chance_nodes: matches!(self.agent, Agent2048::Expectimax { .. })
                .then_some(self.chance_nodes),
            summary: self.summary(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::ntuple::td::trained;
    use crate::agent::ntuple::TupleSet;
    use crate::env::game2048::play_games;

    /// Plays `evaluation` to its end in chunks of `chunk` games.
    fn play_in_chunks(
        mut evaluation: Evaluation,
        network: Option<&NTupleNetwork>,
        chunk: u64,
    ) -> Evaluation {
        let mut calls = 0;
        while !evaluation.play(network, chunk).unwrap() {
            calls += 1;
            assert!(calls < 100, "an evaluation always ends");
        }
        evaluation
    }

    #[test]
    fn an_evaluation_in_chunks_plays_the_games_of_one_call() {
        let network = trained(TupleSet::FiveFourTuples, 40);
        let config = Game2048Config::default();
        let greedy = play_games(config, 7, 5, |b| network.best_move(b).unwrap().0);
        let chunked = play_in_chunks(
            Evaluation::new(Agent2048::Greedy, config, 7, 5),
            Some(&network),
            3,
        );
        assert_eq!(chunked.stats(), &greedy);
        assert_eq!(chunked.games_done(), 7);
        assert!(chunked.is_finished());
        let summary = evaluate_greedy(&network, config, 7, 5);
        assert_eq!(summary.mean_score, greedy.mean_score());
        assert_eq!(summary.reach, chunked.summary().reach);

        // Expectimax: one search for the whole run, as the CLI had it, against chunks of 2.
        let mut search = Expectimax::new(|b| network.value(b), 2, config.four_probability);
        let whole = play_games(config, 5, 6, |b| search.best_move(b).unwrap().0);
        let agent = Agent2048::from_name("expectimax", 2).unwrap();
        let chunked = play_in_chunks(Evaluation::new(agent, config, 5, 6), Some(&network), 2);
        assert_eq!(chunked.stats(), &whole);
        let report = chunked.report(Some(&network), Some("net.ntuple".into()));
        assert_eq!(report.chance_nodes, Some(search.nodes()));
        assert_eq!(report.agent, "expectimax");
        assert_eq!(report.depth, Some(2));
        assert_eq!(report.games_trained, Some(40));
        assert_eq!(report.tuple_set.as_deref(), Some("5x4"));
        assert_eq!(report.seed, 6);
        assert_eq!(report.summary.games, 5);

        // Random moves: the CLI's generator, carried over the chunks.
        let mut rng = Rng::new(8 ^ 0x5EED);
        let whole = play_games(config, 6, 8, |b| {
            crate::env::game2048::random_move(b, &mut rng).unwrap()
        });
        let chunked = play_in_chunks(Evaluation::new(Agent2048::Random, config, 6, 8), None, 4);
        assert_eq!(chunked.stats(), &whole);
        let report = chunked.report(None, None);
        assert_eq!(
            (report.agent.as_str(), report.depth, report.chance_nodes),
            ("random", None, None)
        );
    }

    #[test]
    fn evaluation_agents_are_named_and_need_their_network() {
        assert_eq!(Agent2048::from_name("greedy", 3), Some(Agent2048::Greedy));
        assert_eq!(Agent2048::from_name("ntuple", 3), Some(Agent2048::Greedy));
        assert_eq!(
            Agent2048::from_name("expectimax", 0),
            Some(Agent2048::Expectimax { depth: 1 })
        );
        assert_eq!(Agent2048::from_name("minimax", 2), None);
        assert_eq!(Agent2048::Greedy.name(), "ntuple");
        let mut evaluation = Evaluation::new(
            Agent2048::Expectimax { depth: 2 },
            Game2048Config::default(),
            3,
            1,
        );
        let error = evaluation.play(None, 3).unwrap_err();
        assert_eq!(error, EvaluationError::NeedsNetwork("expectimax"));
        assert!(error.to_string().contains("network"));
        assert_eq!(evaluation.games_done(), 0);
        // An evaluation of no games is finished at once.
        let mut empty = Evaluation::new(Agent2048::Random, Game2048Config::default(), 0, 1);
        assert!(empty.play(None, 10).unwrap());
        assert_eq!(empty.summary().games, 0);
    }
}
