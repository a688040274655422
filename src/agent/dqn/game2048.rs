//! The pair-convolution deep Q-network on 2048 ([`pair_conv_config`]), as Mehta's RL paper for
//! constraint-satisfaction games sets it up: the one-hot 4 × 4 × 16 board, two levels of (1, 2)
//! and (2, 1) convolutions ([`PairConvConfig::game2048`]), a dense layer, one Q-value per move,
//! trained by [`Dqn`](super::Dqn) on the paper's shaped reward ([`Reward2048::WeightedFeatures`]). Shared by
//! `puzzlelab 2048 train` and the page's training worker, so that both train the same way;
//! evaluated by whole games like the n-tuple agent (reach rates of 2048, 4096, …).
//!
//! What the paper gives and what puzzlelab chooses where it is silent:
//! - the paper: learning rate 5·10⁻⁴ (decayed in steps of 0.9; puzzlelab keeps it constant), γ 0.9,
//!   ε from 0.9 multiplied by 0.995 every 2,500 iterations (puzzlelab: ×0.9995 per finished game,
//!   floored at 0.01, since [`Dqn`](super::Dqn) decays ε by episode), replay 100,000, 200,000 episodes;
//! - puzzlelab: batch 64, the dense layer 256 wide (the paper names only the concatenation),
//!   illegal moves masked (the paper does not say what a move that changes nothing does; a masked
//!   agent never wastes one), games of the original rules (a 4 one time in ten).

use super::{
    best_allowed, record_demonstrations_into, DqnConfig, DqnError, PairConvConfig, QPolicy,
    ReplayBuffer, Transition,
};
use crate::agent::ntuple::NTupleNetwork;
use crate::env::game2048::{
    game_seed, Board, Game2048, Game2048Config, GameStats, GameSummary, Reward2048,
};
use crate::env::Environment;

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
        // Evaluation is by whole games ([`Game2048Learner`]'s), not by "solved".
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

/// Plays games `games.start..games.end` of the run seeded with `seed` (the same games as
/// [`crate::env::game2048::play_games`] plays with that seed) with `policy`'s greedy legal move,
/// all at once so that each move is one batched forward pass. Play on the CPU
/// ([`Dqn::policy`](super::Dqn::policy) or [`Dqn::policy_on`](super::Dqn::policy_on) with `Device::flex()`).
pub fn play_greedy_games(
    policy: &QPolicy,
    rules: Game2048Config,
    games: std::ops::Range<u64>,
    seed: u64,
) -> GameStats {
    let mut stats = GameStats::default();
    for game in &play_batched(policy, rules, games, seed, |_, _| true) {
        stats.record(game);
    }
    stats
}

/// `policy`'s greedy legal move on `board` (0 up, 1 right, 2 down, 3 left; `None` when the game
/// is over), with every move's Q-value.
pub fn greedy_move(policy: &QPolicy, board: Board) -> (Option<usize>, Vec<f32>) {
    let game = Game2048::from_board(Game2048Config::default(), board, 0);
    let mut observation = vec![0.0; game.observation_len()];
    game.write_observation(&mut observation);
    let values = policy.q_values(&observation);
    let mut mask = [false; 4];
    game.action_mask(&mut mask);
    let best = mask.contains(&true).then(|| best_allowed(&values, &mask));
    (best, values)
}

/// The greedy games of a run (original rules) played a range at a time ([`play_greedy_games`]),
/// their statistics merged, with the time spent playing (the summary's moves/s, without the time
/// between ranges): the page's evaluation with progress, and [`Game2048Learner`]'s at once.
pub struct GreedyGames {
    policy: QPolicy,
    seed: u64,
    /// The games played so far.
    pub stats: GameStats,
    seconds: f64,
}

impl GreedyGames {
    /// The run seeded with `seed`, no game played yet.
    pub fn new(policy: QPolicy, seed: u64) -> GreedyGames {
        let (stats, seconds) = (GameStats::default(), 0.0);
        GreedyGames {
            policy,
            seed,
            stats,
            seconds,
        }
    }

    /// Plays games `games` (the next ones: ranges come in order).
    pub fn play(&mut self, games: std::ops::Range<usize>) {
        let started = crate::clock::seconds();
        let games = games.start as u64..games.end as u64;
        let played = play_greedy_games(&self.policy, Game2048Config::default(), games, self.seed);
        self.stats.merge(&played);
        self.seconds += crate::clock::seconds() - started;
    }

    /// The games played so far, summed up.
    pub fn summary(&self) -> GameSummary {
        self.stats.summary(self.seconds)
    }
}

/// [`play_greedy_games`]'s games, finished, in game order; `before_move(game, observation)` sees
/// each game before each of its moves, and play stops (unfinished games left out) when it says
/// false.
fn play_batched(
    policy: &QPolicy,
    rules: Game2048Config,
    games: std::ops::Range<u64>,
    seed: u64,
    mut before_move: impl FnMut(&Game2048, &[f32]) -> bool,
) -> Vec<Game2048> {
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
    'play: while !playing.is_empty() {
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
        for ((game, values), observation) in playing
            .iter_mut()
            .zip(q.chunks(4))
            .zip(observations.chunks(n))
        {
            if !before_move(game, observation) {
                break 'play;
            }
            game.action_mask(&mut mask);
            game.step(best_allowed(values, &mask));
        }
    }
    // In game order, as a sequential run would record them.
    finished.sort_by_key(|(i, _)| *i);
    finished.into_iter().map(|(_, game)| game).collect()
}

/// The evaluation games' seed (training runs' validations, and `2048 eval --agent dqn` unless
/// told another).
pub const EVALUATION_SEED: u64 = 0x2048_D090;

/// Learning from an n-tuple network's demonstrations (DQfD, `demonstrations.rs`): what a run
/// records of them, so that a resumed run records the same transitions again.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DemonstrationSetup {
    /// The n-tuple network file whose greedy (1-ply) moves are demonstrated.
    pub ntuple: String,
    /// Its checksum ([`crate::checksum::fnv1a_hex`] of its uncompressed bytes) when the run
    /// started, if recorded: a resumed run refuses a file that has changed since.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ntuple_fnv1a: Option<String>,
    /// Demonstrated games, seeded from `seed` as every game of puzzlelab (`game_seed`).
    pub games: u64,
    /// The demonstrated games' seed (apart from the evaluation games').
    pub seed: u64,
    /// Demonstrated transitions kept at most (the first games' moves).
    pub max_transitions: usize,
    /// Gradient steps on the demonstrations alone before play ([`DqnConfig::pretrain_steps`]).
    pub pretrain_steps: usize,
    /// The share of each later batch demonstrated ([`DqnConfig::demonstration_share`]).
    pub share: f32,
    /// The large-margin loss's margin ([`DqnConfig::demonstration_margin`]).
    pub margin: f32,
    /// The large-margin loss's weight ([`DqnConfig::demonstration_weight`]).
    pub weight: f32,
    /// Also the states another model's own games reach, labelled with the n-tuple network's
    /// move (DAgger), if any.
    pub labelled: Option<LabelledPlay>,
}

/// DAgger (Ross, Gordon and Bagnell, "A Reduction of Imitation Learning and Structured Prediction
/// to No-Regret Online Learning", AISTATS 2011): the demonstrator labels the states that a
/// learner's own greedy play reaches, where it strays from the demonstrator's games.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelledPlay {
    /// The DQN model file whose greedy games visit the states.
    pub model: String,
    /// Its games, seeded from `seed` as every game of puzzlelab (`game_seed`).
    pub games: u64,
    /// The games' seed (apart from the demonstrated and the evaluation games').
    pub seed: u64,
    /// Labelled transitions kept at most, beside the demonstrated games' `max_transitions`.
    pub max_transitions: usize,
    /// The model file's checksum ([`crate::checksum::fnv1a_hex`]) when the run started: a
    /// resumed run refuses a file that has changed since, whose games would not be the ones
    /// labelled before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_fnv1a: Option<String>,
}

/// Records the checksum of `bytes` of the file `what` `name` in `recorded` when it holds none (a
/// new run), and refuses them when it holds another (the checksum when the run started): a
/// resumed run would learn from other games than before.
fn unchanged_since_start(
    what: &str,
    name: &str,
    recorded: &mut Option<String>,
    bytes: &[u8],
) -> Result<(), DqnError> {
    let now = crate::checksum::fnv1a_hex(bytes);
    match recorded.get_or_insert_with(|| now.clone()) {
        recorded if *recorded != now => Err(DqnError::InvalidSetup(format!(
            "{what} {name} has changed since the run started (checksum {recorded}, now {now}): its games would not be the ones learned from before; put that file back or start a new run"
        ))),
        _ => Ok(()),
    }
}

/// The labelled games' default seed.
pub const LABELLED_SEED: u64 = 0xDA66_2048;

impl Default for DemonstrationSetup {
    fn default() -> Self {
        let defaults = DqnConfig::default();
        DemonstrationSetup {
            ntuple: String::new(),
            ntuple_fnv1a: None,
            games: 100,
            seed: DEMONSTRATION_SEED,
            max_transitions: 400_000,
            pretrain_steps: 20_000,
            share: defaults.demonstration_share,
            margin: defaults.demonstration_margin,
            weight: defaults.demonstration_weight,
            labelled: None,
        }
    }
}

/// The demonstrated games' default seed.
pub const DEMONSTRATION_SEED: u64 = 0xDE30_2048;

/// The transitions of `games` games of the training rules `rules` played by `network`'s greedy
/// move (reward + value of the afterstate), game `g` seeded with `game_seed(seed, g)`, at most
/// `max_transitions`.
pub fn ntuple_demonstrations(
    network: &NTupleNetwork,
    rules: Game2048Config,
    games: u64,
    seed: u64,
    max_transitions: usize,
) -> ReplayBuffer {
    let mut game = Game2048::new(rules);
    let mut buffer = ReplayBuffer::new(max_transitions.max(1), game.observation_len(), 4);
    record_ntuple_games(
        &mut buffer,
        &mut game,
        network,
        games,
        seed,
        max_transitions,
    );
    buffer
}

fn record_ntuple_games(
    buffer: &mut ReplayBuffer,
    game: &mut Game2048,
    network: &NTupleNetwork,
    games: u64,
    seed: u64,
    limit: usize,
) {
    record_demonstrations_into(
        buffer,
        game,
        |game: &Game2048| network.best_move(game.board()).map(|(m, _, _)| m.index()),
        (0..games).map(|g| game_seed(seed, g)),
        usize::MAX,
        limit,
    );
}

/// DAgger's data ([`LabelledPlay`]): plays games `games` of the run seeded with `seed` by
/// `player`'s greedy legal move (batched as [`play_greedy_games`]), and at every state pushes
/// into `buffer` the transition of `network`'s greedy move from it (played on a copy of the
/// game), until `buffer` holds `limit` transitions. The games go on by `player`'s move.
pub fn label_greedy_play(
    network: &NTupleNetwork,
    player: &QPolicy,
    rules: Game2048Config,
    games: std::ops::Range<u64>,
    seed: u64,
    buffer: &mut ReplayBuffer,
    limit: usize,
) {
    let limit = limit.min(buffer.capacity());
    let mut next = vec![0.0; Game2048::new(rules).observation_len()];
    let mut next_mask = [false; 4];
    play_batched(player, rules, games, seed, |game, observation| {
        if buffer.len() >= limit {
            return false;
        }
        if let Some((m, _, _)) = network.best_move(game.board()) {
            let mut labelled = game.clone();
            let step = labelled.step(m.index());
            labelled.write_observation(&mut next);
            labelled.action_mask(&mut next_mask);
            buffer.push(Transition {
                observation,
                action: m.index(),
                reward: step.reward,
                next_observation: &next,
                terminated: step.terminated,
                next_mask: &next_mask,
            });
        }
        true
    });
}

/// What a 2048 run is set up with (the manifest's `setup`; older ones recorded the rules as
/// `training_rules`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Game2048Setup {
    /// The two convolution levels' filters (default 128, 128).
    pub filters: Option<Vec<usize>>,
    /// The training games' chance of a 4 (the original game's 0.1).
    #[serde(alias = "fourProbability")]
    pub four_probability: f64,
    /// What a training step rewards (Mehta's weighted board features).
    pub reward: Reward2048,
    /// The n-tuple network's demonstrations it also learns from, if any (DQfD).
    pub demonstrations: Option<DemonstrationSetup>,
}

impl Default for Game2048Setup {
    fn default() -> Self {
        let rules = training_rules();
        Game2048Setup {
            filters: None,
            four_probability: rules.four_probability,
            reward: rules.reward,
            demonstrations: None,
        }
    }
}

impl Game2048Setup {
    /// The training games' rules.
    pub fn rules(&self) -> Game2048Config {
        Game2048Config {
            four_probability: self.four_probability,
            reward: self.reward,
        }
    }
}

/// 2048's deep Q-learner ([`super::PuzzleLearner`]): Mehta's network and reward; evaluated by
/// whole games of the original rules.
pub struct Game2048Learner;

impl super::PuzzleLearner for Game2048Learner {
    type Env = Game2048;
    type Setup = Game2048Setup;
    /// The games and their seed.
    type Validation = (u64, u64);
    type Evaluation = GameSummary;

    const PUZZLE: &'static str = "2048";
    const NAME: &'static str = "2048";
    const NETWORKS: &'static [super::NetworkChoice] = &[super::NetworkChoice::new("pair-conv", "the 2048 network of Mehta's RL paper (one-hot 4x4x16, (1,2)/(2,1) convolutions on two levels, a dense layer)")];
    const VALIDATION_SEED: u64 = EVALUATION_SEED;
    const VALIDATION_SIZE: usize = 100;
    const EPISODES: &'static str = "games";
    const OLDER_SETUP_KEY: Option<&'static str> = Some("training_rules");

    fn network(_: &Game2048Setup) -> Result<&'static super::NetworkChoice, DqnError> {
        Ok(&Self::NETWORKS[0])
    }

    fn config(setup: &Game2048Setup) -> Result<DqnConfig, DqnError> {
        let defaults = pair_conv_config();
        let conv = match setup.filters.as_deref() {
            None => defaults.conv.clone(),
            Some(&[filters1, filters2]) => Some(PairConvConfig {
                filters1,
                filters2,
                ..PairConvConfig::game2048()
            }),
            Some(_) => {
                return Err(DqnError::InvalidSetup(
                    "the filters are two numbers, F1,F2".into(),
                ))
            }
        };
        let config = DqnConfig { conv, ..defaults };
        Ok(match &setup.demonstrations {
            None => config,
            // DQfD: after pre-training the network already plays; explore as the paper does (ε 0.01).
            // Huber's TD loss, whose gradient stays of the margin loss's size with Q-values in the
            // hundreds (the weighted-features reward is about 50 a move).
            Some(d) => DqnConfig {
                huber_loss: true,
                pretrain_steps: d.pretrain_steps,
                demonstration_share: d.share,
                demonstration_margin: d.margin,
                demonstration_weight: d.weight,
                epsilon_start: config.epsilon_min,
                ..config
            },
        })
    }

    fn environments(setup: &Game2048Setup) -> Result<Box<dyn FnMut() -> Game2048>, DqnError> {
        let rules = setup.rules();
        Ok(Box::new(move || Game2048::new(rules)))
    }

    fn validation(_: &Game2048Setup, size: usize, seed: u64) -> Result<(u64, u64), DqnError> {
        Ok((size as u64, seed))
    }

    fn validation_len(validation: &(u64, u64)) -> usize {
        validation.0 as usize
    }

    fn evaluate(
        policy: &QPolicy,
        &(games, seed): &(u64, u64),
    ) -> Result<Self::Evaluation, DqnError> {
        policy.check_fits(&Game2048::new(Game2048Config::default()))?;
        let mut games_played = GreedyGames::new(policy.clone(), seed);
        games_played.play(0..games as usize);
        Ok(games_played.summary())
    }

    fn summary(summary: &Self::Evaluation) -> String {
        let reach: Vec<String> = ["1024", "2048", "4096"]
            .iter()
            .map(|t| {
                format!(
                    "{t} {:.1}%",
                    100.0 * summary.reach.get(*t).copied().unwrap_or(0.0)
                )
            })
            .collect();
        format!(
            "{} games (greedy, original rules): mean score {:.0}, {}",
            summary.games,
            summary.mean_score,
            reach.join(", ")
        )
    }

    fn reward(setup: &Game2048Setup, _: &DqnConfig) -> String {
        let demonstrated = match &setup.demonstrations {
            Some(d) => format!(
                "; also learns from {} games of demonstrations by the n-tuple network {}{} (DQfD: pre-trained on them for {} steps, then a share {} of every batch, margin {})",
                d.games,
                d.ntuple,
                d.labelled.as_ref().map_or(String::new(), |l| format!(
                    " and from its moves in the states of {} games of the model {} (DAgger)",
                    l.games, l.model
                )),
                d.pretrain_steps,
                d.share,
                d.margin
            ),
            None => String::new(),
        };
        format!(
            "{} (a 4 with probability {}){demonstrated}",
            setup.reward.name(),
            setup.four_probability
        )
    }

    fn demonstrator(setup: &Game2048Setup) -> Option<&str> {
        setup.demonstrations.as_ref().map(|d| d.ntuple.as_str())
    }

    fn labelled_player(setup: &Game2048Setup) -> Option<&str> {
        let labelled = setup.demonstrations.as_ref()?.labelled.as_ref()?;
        Some(labelled.model.as_str())
    }

    /// The n-tuple network's greedy games ([`ntuple_demonstrations`]) as the setup asks, then
    /// the states of the labelled player's games with the n-tuple network's moves
    /// ([`label_greedy_play`]).
    fn demonstrations(
        setup: &mut Game2048Setup,
        ntuple: &[u8],
        player: Option<&[u8]>,
    ) -> Result<ReplayBuffer, DqnError> {
        let rules = setup.rules();
        let d = setup.demonstrations.get_or_insert_with(Default::default);
        unchanged_since_start("the demonstrator", &d.ntuple, &mut d.ntuple_fnv1a, ntuple)?;
        let network = NTupleNetwork::from_bytes(ntuple)
            .map_err(|e| DqnError::InvalidSetup(format!("the demonstrator: {e}")))?;
        let mut game = Game2048::new(rules);
        let labelled = match (&mut d.labelled, player) {
            (Some(labelled), Some(bytes)) => {
                unchanged_since_start(
                    "the labelled games' player",
                    &labelled.model,
                    &mut labelled.model_fnv1a,
                    bytes,
                )?;
                let refused = |e: DqnError| {
                    DqnError::InvalidSetup(format!(
                        "the labelled games' player {}: {e}",
                        labelled.model
                    ))
                };
                let player =
                    QPolicy::from_bytes(bytes, &burn::tensor::Device::flex()).map_err(refused)?;
                player.check_fits(&game).map_err(refused)?;
                Some((labelled, player))
            }
            (None, _) => None,
            (Some(labelled), None) => {
                return Err(DqnError::InvalidSetup(format!(
                    "the labelled games' player {} was not read",
                    labelled.model
                )))
            }
        };
        let extra = labelled.as_ref().map_or(0, |(l, _)| l.max_transitions);
        let mut buffer = ReplayBuffer::new(
            (d.max_transitions + extra).max(1),
            game.observation_len(),
            4,
        );
        record_ntuple_games(
            &mut buffer,
            &mut game,
            &network,
            d.games,
            d.seed,
            d.max_transitions,
        );
        if let Some((labelled, player)) = labelled {
            let limit = buffer.len() + labelled.max_transitions;
            label_greedy_play(
                &network,
                &player,
                rules,
                0..labelled.games,
                labelled.seed,
                &mut buffer,
                limit,
            );
        }
        Ok(buffer)
    }

    fn default_file(_: &Game2048Setup) -> Result<String, DqnError> {
        Ok("2048-dqn.dqn".into())
    }
}
