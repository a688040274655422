//! Deep Q-learning on Minesweeper: convolutions flattened into a dense layer, the network and
//! settings of Mehta's RL paper for constraint-satisfaction games ([`conv_dense_config`]),
//! puzzlelab's stronger learner
//! ([`cells_config`]: a fully convolutional network, legal moves only, every covered cell of each
//! visited position backed up), and greedy play on the same seeded boards as the solver
//! ([`PolicyGames`]).
//!
//! What the paper gives (16 × 16 boards): the condensed two planes; convolutions 4×4×16, 3×3×32,
//! 2×2×64, flattened (16,384) and dense to one Q-value per cell; win +256, loss −256, progress +1,
//! a known cell picked −0.5, a guess with no revealed neighbour −0.5; learning rate 0.001, γ = 0,
//! ε annealed from 1 to 0.1 over 250,000 iterations, replay 100,000, 1,000,000 episodes; ~45% won.
//! Where it is silent puzzlelab chooses: batch 64, ε × 0.9995 per game (the learner decays ε by
//! episode), revealed cells left choosable (the paper's no-progress reward exists for them).
//!
//! With γ = 0 a Q-value is the expected reward of revealing the cell, so the stronger learner asks
//! the environment for the reward of every covered cell of each position it visits
//! ([`DqnConfig::backup_visited`]): one position teaches a hundred cells instead of one.

use super::{best_allowed, DqnConfig, DqnError, GridConvConfig, QPolicy};
use crate::clock;
use crate::env::minesweeper::{
    analyse, certain_safe, Cell, Evaluation, FirstCell, FirstClick, Layout, MinesConfig,
    MinesReward, Minesweeper, Observation, Status,
};
use crate::env::Environment;
use std::cell::RefCell;

/// Convolutions flattened into a dense layer ([`GridConvConfig::conv_dense`]) for a board of
/// `layout`'s size, every cell choosable, with the settings of Mehta's RL paper (see the module
/// docs).
pub fn conv_dense_config(layout: &Layout) -> DqnConfig {
    DqnConfig {
        hidden: vec![],
        grid: Some(GridConvConfig::conv_dense(layout.height, layout.width)),
        replay_capacity: 100_000,
        batch_size: 64,
        learning_rate: 1e-3,
        gamma: 0.0,
        target_update_interval: 100,
        epsilon_start: 1.0,
        epsilon_decay: 0.9995,
        epsilon_min: 0.1,
        max_episode_steps: layout.cells(),
        warmup_episodes: 10,
        mask_actions: false,
        eval_interval_episodes: 0,
        ..DqnConfig::default()
    }
}

/// [`conv_dense_config`]'s rules: the condensed planes and the progress rewards
/// ([`MinesReward::Progress`]), as Mehta's RL paper sets them.
pub fn conv_dense_rules(layout: Layout, first_click: FirstClick) -> MinesConfig {
    MinesConfig {
        layout,
        first_click,
        observation: Observation::Condensed,
        reward: MinesReward::Progress,
    }
}

/// puzzlelab's stronger learner: a fully convolutional network (`layers` of 3 × 3 convolutions
/// with `filters` each, a board plane, a 1 × 1 head: one Q-value per cell from its
/// neighbourhood, so that the weights play any board size), legal moves only, every covered
/// cell of each visited position backed up (γ = 0), the win/loss reward.
pub fn cells_config(layout: &Layout, layers: usize, filters: usize) -> DqnConfig {
    DqnConfig {
        hidden: vec![],
        grid: Some(GridConvConfig {
            channels: 2,
            height: layout.height,
            width: layout.width,
            layers: vec![[filters, 3]; layers],
            board_plane: true,
            per_cell: true,
        }),
        replay_capacity: 20_000,
        batch_size: 32,
        learning_rate: 1e-3,
        gamma: 0.0,
        target_update_interval: 100,
        // Every action of a visited state is backed up: exploring only widens the states seen.
        epsilon_start: 0.3,
        epsilon_decay: 0.995,
        epsilon_min: 0.02,
        max_episode_steps: layout.cells(),
        warmup_episodes: 10,
        mask_actions: true,
        backup_visited: true,
        eval_interval_episodes: 0,
        ..DqnConfig::default()
    }
}

/// The stronger learner's rules: condensed planes, +1 for a win, −1 for a loss, 0 otherwise.
pub fn cells_rules(layout: Layout, first_click: FirstClick) -> MinesConfig {
    MinesConfig {
        layout,
        first_click,
        observation: Observation::Condensed,
        reward: MinesReward::Outcome,
    }
}

/// `policy` for `env`'s board: itself when it was made for that board, a resized copy of a
/// fully convolutional one made for the same encoding otherwise; an error when it cannot play it.
pub fn fit_policy(policy: &QPolicy, env: &Minesweeper) -> Result<QPolicy, DqnError> {
    let mismatch = policy.check_fits(env);
    if mismatch.is_ok() {
        return Ok(policy.clone());
    }
    // "minesweeper-{w}x{h}-{mines}-{encoding}": the same game and encoding, another board.
    let family = |id: &str| {
        (
            id.split('-').next().map(str::to_owned),
            id.rsplit('-').next().map(str::to_owned),
        )
    };
    let layout = env.config().layout;
    match family(policy.puzzle_id()) == family(&env.puzzle_id()) {
        true => policy
            .resized(layout.height, layout.width, &env.puzzle_id())
            .ok_or(mismatch.unwrap_err()),
        false => mismatch.map(|_| policy.clone()),
    }
}

/// A policy's evaluation: `games` games seeded from `seed` (the solver's boards:
/// [`crate::env::minesweeper::game_seed`]) with the policy's greedy choice among covered cells,
/// first clicking `first`, `batch` games at a time so that each move is one forward pass.
/// `guesses_per_game` counts the reveals of cells that the exact solver does not prove safe. Play
/// is always among covered cells (a network trained without the mask could otherwise pick a
/// revealed cell for ever); `ms_longest_game` is not measured (games share forward passes) and
/// reads `NaN`. Played all at once ([`PolicyGames::played_out`]) or a range of games at a time
/// (the page's worker reports progress and honours Cancel between ranges): game `i` is the same
/// either way.
pub struct PolicyGames {
    policy: QPolicy,
    template: Minesweeper,
    first: usize,
    seed: u64,
    batch: usize,
    games: usize,
    played: usize,
    wins: usize,
    guesses: usize,
    seconds: f64,
}

impl PolicyGames {
    /// `games` games of `config` seeded from `seed` for `policy` (fitted to the board), none
    /// played yet.
    pub fn new(
        policy: &QPolicy,
        config: MinesConfig,
        first: FirstCell,
        games: usize,
        seed: u64,
        batch: usize,
    ) -> Result<PolicyGames, DqnError> {
        let invalid =
            |e: crate::env::minesweeper::MinesError| DqnError::InvalidConfig(e.to_string());
        let first = first.cell(&config.layout).map_err(invalid)?;
        let template = Minesweeper::new(config).map_err(invalid)?;
        let policy = fit_policy(policy, &template)?;
        Ok(PolicyGames {
            policy,
            template,
            first,
            seed,
            batch: batch.max(1),
            games,
            played: 0,
            wins: 0,
            guesses: 0,
            seconds: 0.0,
        })
    }

    /// Plays every game and sums up.
    pub fn played_out(mut self) -> Evaluation {
        self.play(self.games);
        self.evaluation()
    }

    /// Plays up to `count` more games; true once all are played.
    pub fn play(&mut self, count: usize) -> bool {
        let end = self.played.saturating_add(count).min(self.games);
        let (n, a) = (self.template.observation_len(), self.template.num_actions());
        let started = clock::seconds();
        let mut next = self.played;
        let mut live: Vec<Minesweeper> = Vec::new();
        let mut observations = Vec::new();
        let mut allowed = vec![true; a];
        while next < end || !live.is_empty() {
            while live.len() < self.batch && next < end {
                let mut env = self.template.clone();
                env.reset(crate::env::minesweeper::game_seed(self.seed, next));
                env.step(self.first);
                next += 1;
                live.push(env);
            }
            observations.resize(live.len() * n, 0.0);
            for (env, out) in live.iter().zip(observations.chunks_mut(n)) {
                env.write_observation(out);
            }
            let values = self.policy.q_values(&observations);
            for (env, values) in live.iter_mut().zip(values.chunks(a)) {
                if env.is_terminal() {
                    continue;
                }
                env.action_mask(&mut allowed);
                let cell = best_allowed(values, &allowed);
                if is_guess(env, cell) {
                    self.guesses += 1;
                }
                env.step(cell);
            }
            let wins = &mut self.wins;
            live.retain(|env| {
                let over = env.is_terminal();
                *wins += usize::from(over && env.game().status() == Status::Won);
                !over
            });
        }
        self.seconds += clock::seconds() - started;
        self.played = end;
        end == self.games
    }

    /// Games played so far.
    pub fn played(&self) -> usize {
        self.played
    }

    /// Games in all.
    pub fn games(&self) -> usize {
        self.games
    }

    /// The evaluation of the games played so far.
    pub fn evaluation(&self) -> Evaluation {
        Evaluation::from_totals(self.played, self.wins, self.guesses, self.seconds, f64::NAN)
    }
}

/// Whether revealing `cell` is a guess: the numbers do not prove it safe.
fn is_guess(env: &Minesweeper, cell: usize) -> bool {
    let layout = env.config().layout;
    let cells = env.game().cells();
    if certain_safe(&layout, cells).contains(&cell) {
        return false;
    }
    analyse(&layout, cells).map_or(true, |analysis| analysis.probabilities[cell] > 0.0)
}

/// A saved Minesweeper model, opened: the board its puzzle id names
/// (`minesweeper-{w}x{h}-{mines}-{encoding}`), and the policy fitted to the last board size it
/// was asked about (a fully convolutional model plays any size).
pub struct MinesweeperModel {
    policy: QPolicy,
    layout: Layout,
    observation: Observation,
    /// `(width, height, policy)`.
    fitted: RefCell<Option<(usize, usize, QPolicy)>>,
}

impl AsRef<QPolicy> for MinesweeperModel {
    fn as_ref(&self) -> &QPolicy {
        &self.policy
    }
}

impl MinesweeperModel {
    /// Opens `policy`; refused when its puzzle id is not a Minesweeper board's or its network
    /// does not fit its own board (it would fail at the first move).
    pub fn open(policy: QPolicy) -> Result<MinesweeperModel, DqnError> {
        let (layout, observation) = Self::board_of(policy.puzzle_id()).ok_or_else(|| {
            DqnError::InvalidSetup(format!(
                "the model plays \"{}\", not Minesweeper",
                policy.puzzle_id()
            ))
        })?;
        let model = MinesweeperModel {
            policy,
            layout,
            observation,
            fitted: RefCell::new(None),
        };
        let env = Minesweeper::new(model.rules(layout, FirstClick::None))
            .map_err(|e| DqnError::InvalidSetup(e.to_string()))?;
        model.policy.check_fits(&env)?;
        Ok(model)
    }

    /// The board and encoding of a puzzle id `minesweeper-{w}x{h}-{mines}-{encoding}`.
    fn board_of(puzzle_id: &str) -> Option<(Layout, Observation)> {
        let mut parts = puzzle_id.strip_prefix("minesweeper-")?.split('-');
        let (width, height) = parts.next()?.split_once('x')?;
        let mines = parts.next()?.parse().ok()?;
        let observation = match parts.next()? {
            "condensed" => Observation::Condensed,
            "onehot" => Observation::OneHot,
            _ => return None,
        };
        let layout = Layout::new(width.parse().ok()?, height.parse().ok()?, mines);
        Some((layout, observation))
    }

    /// The network.
    pub fn policy(&self) -> &QPolicy {
        &self.policy
    }

    /// The board it was made for.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Whether it plays any board size (one Q-value per cell from its neighbourhood).
    pub fn any_size(&self) -> bool {
        (self.policy.network_config().grid.as_ref()).is_some_and(|g| g.per_cell)
    }

    /// The rules of a game of `layout` under `rule` as the model sees it (its encoding).
    pub fn rules(&self, layout: Layout, rule: FirstClick) -> MinesConfig {
        MinesConfig {
            layout,
            first_click: rule,
            observation: self.observation,
            reward: MinesReward::Outcome,
        }
    }

    /// The model for a board of `layout`: itself, or resized when it is fully convolutional.
    fn fitted(&self, layout: Layout) -> Result<QPolicy, DqnError> {
        if let Some((w, h, policy)) = self.fitted.borrow().as_ref() {
            if (*w, *h) == (layout.width, layout.height) {
                return Ok(policy.clone());
            }
        }
        let env = Minesweeper::new(self.rules(layout, FirstClick::None))
            .map_err(|e| DqnError::InvalidSetup(e.to_string()))?;
        let policy = fit_policy(&self.policy, &env)?;
        *self.fitted.borrow_mut() = Some((layout.width, layout.height, policy.clone()));
        Ok(policy)
    }

    /// The Q-value of every cell of a position of `layout` (the expected reward of revealing
    /// it: near +1 a winning reveal, near −1 a mine) and the greedy cell among the covered and
    /// "?" ones (never a flag; `None` when none is left).
    pub fn choose(
        &self,
        layout: Layout,
        cells: &[Cell],
    ) -> Result<(Vec<f32>, Option<usize>), DqnError> {
        layout
            .check(FirstClick::None)
            .map_err(|e| DqnError::InvalidPosition(e.to_string()))?;
        if cells.len() != layout.cells() {
            return Err(DqnError::InvalidPosition(format!(
                "a {} × {} board has {} cells, not {}",
                layout.width,
                layout.height,
                layout.cells(),
                cells.len()
            )));
        }
        let policy = self.fitted(layout)?;
        let mut observation = vec![0.0; self.observation.channels() * cells.len()];
        self.observation.write(cells, &mut observation);
        let values = policy.q_values(&observation);
        let allowed: Vec<bool> = (cells.iter())
            .map(|c| matches!(c, Cell::Covered | Cell::Marked))
            .collect();
        let cell = allowed
            .contains(&true)
            .then(|| best_allowed(&values, &allowed));
        Ok((values, cell))
    }

    /// [`PolicyGames`] of the model on seeded games of `layout` under `rule`, to be played all at
    /// once or a range of games at a time.
    pub fn start_evaluation(
        &self,
        layout: Layout,
        rule: FirstClick,
        first: FirstCell,
        games: usize,
        seed: u64,
    ) -> Result<PolicyGames, DqnError> {
        layout
            .check(rule)
            .map_err(|e| DqnError::InvalidSetup(e.to_string()))?;
        let rules = self.rules(layout, rule);
        PolicyGames::new(&self.policy, rules, first, games, seed, EVAL_BATCH)
    }
}

/// Games played side by side in an evaluation (one forward pass a move for all).
const EVAL_BATCH: usize = 100;

/// What a Minesweeper run is set up with (the manifest's `setup`; older ones said `rules`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct MinesSetup {
    /// The board's columns, rows and mines (default: beginner).
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Mines.
    pub mines: usize,
    /// What the first click is promised.
    #[serde(alias = "firstClick")]
    pub first_click: FirstClick,
    /// Where validation games click first: `[column, row]`.
    #[serde(alias = "firstCell")]
    pub first_cell: [usize; 2],
    /// `cells` (puzzlelab's fully convolutional network) or `conv-dense` (Mehta's).
    pub net: String,
    /// `cells`: 3 × 3 convolution layers (default 5) and filters per layer (default 32).
    pub layers: Option<usize>,
    /// Filters per layer.
    pub filters: Option<usize>,
    /// `cells`: fit each cell's log-odds of not losing by cross-entropy
    /// ([`DqnConfig::survival_logits`]).
    pub survival: bool,
}

impl Default for MinesSetup {
    fn default() -> Self {
        let layout = crate::env::minesweeper::Level::Beginner.layout();
        MinesSetup {
            width: layout.width,
            height: layout.height,
            mines: layout.mines,
            first_click: FirstClick::Safe,
            first_cell: [0, 0],
            net: "cells".into(),
            layers: None,
            filters: None,
            survival: false,
        }
    }
}

impl MinesSetup {
    /// The board's size and mines.
    pub fn layout(&self) -> Layout {
        Layout::new(self.width, self.height, self.mines)
    }

    /// The game's rules as the network sees them.
    pub fn rules(&self) -> Result<MinesConfig, DqnError> {
        let layout = self.layout();
        layout
            .check(self.first_click)
            .map_err(|e| DqnError::InvalidSetup(e.to_string()))?;
        Ok(
            match <MinesweeperLearner as super::PuzzleLearner>::network(self)?.name {
                "conv-dense" => conv_dense_rules(layout, self.first_click),
                _ => cells_rules(layout, self.first_click),
            },
        )
    }

    /// The validation games' first click.
    pub fn first(&self) -> Result<FirstCell, DqnError> {
        let [column, row] = self.first_cell;
        if column >= self.width || row >= self.height {
            return Err(DqnError::InvalidSetup(format!(
                "the first cell ({column}, {row}) is not on the {} × {} board",
                self.width, self.height
            )));
        }
        Ok(FirstCell::At(column, row))
    }
}

/// Minesweeper's deep Q-learner ([`super::PuzzleLearner`]).
pub struct MinesweeperLearner;

impl super::PuzzleLearner for MinesweeperLearner {
    type Env = Minesweeper;
    type Setup = MinesSetup;
    /// The rules, the first click, the games and their seed.
    type Validation = (MinesConfig, FirstCell, usize, u64);
    type Evaluation = Evaluation;

    const PUZZLE: &'static str = "minesweeper";
    const NAME: &'static str = "Minesweeper";
    const NETWORKS: &'static [super::NetworkChoice] = &[
        super::NetworkChoice::new(
            "cells",
            "puzzlelab's fully convolutional network (any board size)",
        ),
        super::NetworkChoice::new(
            "conv-dense",
            "convolutions flattened into a dense layer (the network of Mehta's RL paper)",
        )
        .formerly(&["paper"]),
    ];
    const VALIDATION_SEED: u64 = 0x4D1E_5EED;
    const VALIDATION_SIZE: usize = 500;
    const EPISODES: &'static str = "games";
    const OLDER_SETUP_KEY: Option<&'static str> = Some("rules");

    fn network(setup: &MinesSetup) -> Result<&'static super::NetworkChoice, DqnError> {
        super::network_named(Self::NETWORKS, &setup.net)
    }

    fn config(setup: &MinesSetup) -> Result<DqnConfig, DqnError> {
        let layout = setup.layout();
        Ok(match Self::network(setup)?.name {
            "conv-dense" => conv_dense_config(&layout),
            _ => DqnConfig {
                survival_logits: setup.survival,
                ..cells_config(
                    &layout,
                    setup.layers.unwrap_or(5),
                    setup.filters.unwrap_or(32),
                )
            },
        })
    }

    fn settle(setup: &mut MinesSetup, config: &mut DqnConfig) -> Result<(), DqnError> {
        setup.net = Self::network(setup)?.name.into();
        // Backing up every covered cell is the cells learner itself, not an option laid over it.
        config.backup_visited = setup.net == "cells";
        setup.first()?;
        setup.rules()?;
        Ok(())
    }

    fn environments(setup: &MinesSetup) -> Result<Box<dyn FnMut() -> Minesweeper>, DqnError> {
        let template =
            Minesweeper::new(setup.rules()?).map_err(|e| DqnError::InvalidSetup(e.to_string()))?;
        Ok(Box::new(move || template.clone()))
    }

    fn validation(
        setup: &MinesSetup,
        size: usize,
        seed: u64,
    ) -> Result<Self::Validation, DqnError> {
        Ok((setup.rules()?, setup.first()?, size, seed))
    }

    fn validation_len(validation: &Self::Validation) -> usize {
        validation.2
    }

    fn evaluate(policy: &QPolicy, v: &Self::Validation) -> Result<Evaluation, DqnError> {
        Ok(PolicyGames::new(policy, v.0, v.1, v.2, v.3, EVAL_BATCH)?.played_out())
    }

    fn summary(e: &Evaluation) -> String {
        format!(
            "{} games: won {:.1}% [{:.1}, {:.1}], {:.1} guesses a game",
            e.games,
            100.0 * e.win_rate,
            100.0 * e.win_rate_95[0],
            100.0 * e.win_rate_95[1],
            e.guesses_per_game
        )
    }

    fn reward(setup: &MinesSetup, _: &DqnConfig) -> String {
        match setup.rules().map(|r| r.reward) {
            Ok(MinesReward::Progress) => "progress (Mehta's): win +cells, loss -cells, progress +1, known cell -0.5, blind guess -0.5",
            _ => "win +1, loss -1, else 0",
        }
        .into()
    }

    fn fit(policy: &QPolicy, setup: &MinesSetup) -> Result<QPolicy, DqnError> {
        let env =
            Minesweeper::new(setup.rules()?).map_err(|e| DqnError::InvalidSetup(e.to_string()))?;
        fit_policy(policy, &env)
    }
}
