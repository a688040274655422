//! Deep Q-learning on Sudoku: one dense layer over the one-hot grid, the DQN of Mehta's RL paper
//! for constraint-satisfaction games ([`dense_config`] on [`dense_env`]), puzzlelab's stronger
//! learner ([`cells_config`] on [`cells_env`]), and greedy play on puzzles binned the paper's way
//! ([`evaluate_policy`], [`evaluate_bins`]; a batch at a time, [`BinsEvaluation`]).
//!
//! What the paper gives ("Reinforcement Learning For Constraint Satisfaction Game Agents", section 3.2.4): the grid one-hot (9 × 9 × 10),
//! 810 actions (cell, entry value), progress +1, no progress −1, a broken rule −2, −20 past 162
//! moves; "a fully connected 810 state value that connects an 810 action output with a matmul
//! followed by a ReLU"; learning rate 0.001 (lowered by 1/10 and 1/50 later), γ = 0, ε annealed
//! from 1 to 0.1 over 300,000 iterations, 300,000 episodes, replay 100,000; solved 7%, 2.1% and
//! 1.2% of easy, medium and hard puzzles (guesses < 3, 3–5, ≥ 6). Where puzzlelab departs:
//! - The one layer is linear (no ReLU on the output: a ReLU cannot give the −1 and −2 it learns).
//! - ε decays per episode (×0.999: 0.1 after ~2,300 episodes of up to 162 moves, about the
//!   paper's 300,000 iterations); batch 64; the target network (unused at γ = 0) every 100 steps.
//! - The −20 past the move limit is not paid: with γ = 0 it would only punish whichever move
//!   happened to be the 162nd; the episode is truncated there.
//!
//! puzzlelab's learner keeps the paper's Q-learning with γ = 0 but changes what the agent sees,
//! what it may do and what it is paid:
//! - **Features** ([`SudokuObservation::Features`]): per action (cell, digit), whether the digit is
//!   a candidate, the cell's candidate count, the digit's places in the cell's row, column and box,
//!   and so on; read by **one small network shared by all 810 actions** (1 × 1 convolutions over
//!   the 81 × 10 board of actions), so that what it learns about one cell holds for every cell.
//! - **Legal digits only** (digits that fit empty cells).
//! - **Mistakes** ([`SudokuReward::Mistakes`]): a digit that is not the solution's loses (−1), a
//!   right one pays +1; the network fits each action's log-odds of not being a mistake
//!   ([`DqnConfig::survival_logits`]) for **every legal action of each visited position**
//!   ([`DqnConfig::backup_visited`]), so that one position teaches hundreds of actions.
//!
//! Greedy play then places the digit the network is surest of; it never erases, so on the
//! paper's rules it solves a puzzle exactly when it makes no mistake (the evaluation stops at the
//! first one, which changes no result).

use super::{best_allowed, DqnConfig, DqnError, GridConvConfig, QPolicy};
use crate::clock;
use crate::env::minesweeper::wilson_95;
use crate::env::sudoku::{
    search, BinnedDraw, Grid, GuessBin, Shape, SudokuEnv, SudokuObservation, SudokuReward,
    FEATURES, MOVE_LIMIT,
};
use crate::env::Environment;

/// One dense layer from the one-hot grid (810 values) to the 810 actions' Q-values, every action
/// choosable, with the settings of Mehta's RL paper (see the module docs).
pub fn dense_config() -> DqnConfig {
    DqnConfig {
        hidden: vec![],
        replay_capacity: 100_000,
        batch_size: 64,
        learning_rate: 1e-3,
        gamma: 0.0,
        target_update_interval: 100,
        epsilon_start: 1.0,
        epsilon_decay: 0.999,
        epsilon_min: 0.1,
        max_episode_steps: MOVE_LIMIT,
        warmup_episodes: 10,
        mask_actions: false,
        eval_interval_episodes: 0,
        ..DqnConfig::default()
    }
}

/// [`dense_config`]'s environment over `puzzles`: the one-hot grid, the progress rewards
/// ([`SudokuReward::Progress`]), as Mehta's RL paper sets it up.
pub fn dense_env(puzzles: Vec<Grid>) -> SudokuEnv {
    SudokuEnv::new(puzzles, SudokuReward::Progress)
}

/// puzzlelab's learner (see the module docs): `layers` hidden 1 × 1 layers of `filters` each,
/// shared by all actions; legal digits only; every legal action of each visited position backed
/// up as the log-odds of not being a mistake.
pub fn cells_config(layers: usize, filters: usize) -> DqnConfig {
    let shape = Shape::CLASSIC;
    DqnConfig {
        hidden: vec![],
        grid: Some(GridConvConfig {
            channels: FEATURES,
            height: shape.cells(),
            width: shape.size + 1,
            layers: vec![[filters, 1]; layers],
            board_plane: false,
            per_cell: true,
        }),
        // A stored position is 8,910 features and 1,620 labels (42 KB).
        replay_capacity: 4_000,
        batch_size: 32,
        learning_rate: 1e-3,
        gamma: 0.0,
        target_update_interval: 100,
        // Every legal action of a visited state is backed up: exploring only widens the states.
        epsilon_start: 0.3,
        epsilon_decay: 0.995,
        epsilon_min: 0.05,
        max_episode_steps: MOVE_LIMIT,
        warmup_episodes: 4,
        mask_actions: true,
        backup_visited: true,
        survival_logits: true,
        eval_interval_episodes: 0,
        ..DqnConfig::default()
    }
}

/// puzzlelab's environment over `puzzles` (each with one solution): features, mistakes lose.
pub fn cells_env(puzzles: Vec<Grid>) -> SudokuEnv {
    SudokuEnv::new(puzzles, SudokuReward::Mistakes).with_observation(SudokuObservation::Features)
}

/// The environment a model plays in, from its puzzle id: `sudoku-9x9` [`dense_env`]'s,
/// `sudoku-9x9-features` [`cells_env`]'s.
pub fn env_for(policy: &QPolicy, puzzles: Vec<Grid>) -> Result<SudokuEnv, DqnError> {
    let env = match policy.puzzle_id() {
        "sudoku-9x9" => dense_env(puzzles),
        "sudoku-9x9-features" => cells_env(puzzles),
        other => {
            return Err(DqnError::Mismatch {
                what: "puzzle",
                expected: "sudoku-9x9 or sudoku-9x9-features".into(),
                found: other.into(),
            })
        }
    };
    policy.check_fits(&env)?;
    Ok(env)
}

/// One move of a model's greedy play from a grid ([`play_from`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SudokuMove {
    /// The cell, 0–80 in reading order.
    pub cell: usize,
    /// The digit written; 0 erases (only the dense network erases).
    pub digit: u8,
    /// Whether it is the solution's digit (an erase: whether the cell held a wrong one).
    pub right: bool,
    /// The network's value of the move (the cells network: the log-odds that it is right).
    pub value: f32,
}

/// How a model's greedy play from a grid went ([`play_from`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SudokuPlay {
    /// `solved`, `mistake` (the cells network: a wrong digit ends the game), `stuck` (no digit
    /// fits an empty cell) or `limit` ([`MOVE_LIMIT`] moves).
    pub outcome: &'static str,
    /// The moves, in order.
    pub moves: Vec<SudokuMove>,
    /// The index in `moves` of the first wrong digit, if any.
    pub first_mistake: Option<usize>,
    /// The grid's solution, 81 digits as text, to say what the right digit was.
    pub solution: String,
}

/// Plays `grid` (givens and digits placed) greedily with the model until the grid is solved, a
/// wrong digit ends it (the cells network), no digit fits an empty cell, or [`MOVE_LIMIT`]
/// moves, judging each move against the grid's solution. Refused when the grid is not 9 × 9 or
/// has no single solution (a digit on it is wrong, or too few givens).
pub fn play_from(policy: &QPolicy, grid: &Grid) -> Result<SudokuPlay, DqnError> {
    if grid.shape() != Shape::CLASSIC {
        let size = grid.shape().size;
        return Err(DqnError::InvalidPosition(format!(
            "the model plays 9 × 9 Sudoku, not {size} × {size}"
        )));
    }
    let found = search(grid, 2);
    let solution = match (found.count, found.solution) {
        (1, Some(solution)) => solution,
        (0, _) | (_, None) => {
            return Err(DqnError::InvalidPosition(
                "this position has no solution: a digit on the board is wrong".into(),
            ))
        }
        _ => {
            return Err(DqnError::InvalidPosition(
                "this position has more than one solution".into(),
            ))
        }
    };
    let mut env = env_for(policy, vec![grid.clone()])?;
    let values_per_cell = Shape::CLASSIC.size + 1;
    let mut observation = vec![0.0; env.observation_len()];
    let mut allowed = vec![false; env.num_actions()];
    let (mut moves, mut first_mistake) = (Vec::new(), None);
    let outcome = loop {
        if env.grid().is_solved() {
            break "solved";
        }
        if env.is_lost() {
            break "mistake";
        }
        if moves.len() >= MOVE_LIMIT {
            break "limit";
        }
        env.action_mask(&mut allowed);
        if !allowed.contains(&true) {
            break "stuck";
        }
        env.write_observation(&mut observation);
        let values = policy.q_values(&observation);
        let action = best_allowed(&values, &allowed);
        let (cell, digit) = (action / values_per_cell, (action % values_per_cell) as u8);
        let right = match digit {
            0 => env.grid().get(cell) != solution.get(cell),
            _ => digit == solution.get(cell),
        };
        if digit != 0 && !right && first_mistake.is_none() {
            first_mistake = Some(moves.len());
        }
        env.step(action);
        moves.push(SudokuMove {
            cell,
            digit,
            right,
            value: values[action],
        });
    };
    Ok(SudokuPlay {
        outcome,
        moves,
        first_mistake,
        solution: solution.to_line(),
    })
}

/// What greedy play on a set of puzzles found.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SudokuEvaluation {
    /// Puzzles played.
    pub puzzles: usize,
    /// Puzzles solved within the paper's 162 moves.
    pub solved: usize,
    /// `solved / puzzles`.
    pub solved_rate: f64,
    /// Its Wilson 95% interval.
    pub solved_rate_95: [f64; 2],
    /// Mean cells the agent filled rightly before it stopped, over all puzzles (of the empty
    /// cells: 1 when solved).
    pub filled_fraction: f64,
    /// Mean wall time a puzzle, in milliseconds (puzzles share forward passes).
    pub ms_per_puzzle: f64,
}

/// Plays `policy` greedily on every puzzle of `puzzles` in its environment ([`env_for`]), at most
/// 162 moves each, `batch` puzzles at a time (one forward pass a move for all). The agent chooses
/// among the actions that change the grid (the environment's mask; for the paper's network too,
/// which was trained without it: unmasked greedy play would repeat a move that changes nothing
/// for ever). A puzzle is solved when its grid is full (no placement ever breaks a rule, so it
/// is the solution).
pub fn evaluate_policy(
    policy: &QPolicy,
    puzzles: &[Grid],
    batch: usize,
) -> Result<SudokuEvaluation, DqnError> {
    let mut played = PlayedPuzzles::default();
    for chunk in puzzles.chunks(batch.max(1)) {
        played.play(policy, chunk)?;
    }
    Ok(played.evaluation())
}

/// Puzzles played greedily so far, a batch at a time, and what they came to ([`evaluate_policy`]'s
/// sums). A batch is played side by side (one forward pass a move for all), all at once
/// ([`PlayedPuzzles::play`]) or a few moves at a time ([`PlayedPuzzles::start`],
/// [`PlayedPuzzles::advance`]): the same moves either way.
#[derive(Default)]
pub struct PlayedPuzzles {
    /// Puzzles whose play has started (the finished ones and those in play).
    started: usize,
    /// Puzzles finished.
    puzzles: usize,
    solved: usize,
    /// The sum of each finished puzzle's fraction of empty cells filled rightly.
    filled: f64,
    seconds: f64,
    /// The batch in play: each puzzle's environment, its moves so far and the puzzle.
    live: Vec<(SudokuEnv, usize, Grid)>,
}

impl PlayedPuzzles {
    /// Plays `puzzles` side by side to the end and adds them.
    pub fn play(&mut self, policy: &QPolicy, puzzles: &[Grid]) -> Result<(), DqnError> {
        self.start(policy, puzzles)?;
        self.advance(policy, usize::MAX);
        Ok(())
    }

    /// Starts playing `puzzles` side by side, beside any batch still in play.
    pub fn start(&mut self, policy: &QPolicy, puzzles: &[Grid]) -> Result<(), DqnError> {
        let Some(first) = puzzles.first() else {
            return Ok(());
        };
        let template = env_for(policy, vec![first.clone()])?;
        self.live.extend(puzzles.iter().map(|puzzle| {
            let mut env = template.clone();
            env.reset_to(puzzle);
            (env, 0, puzzle.clone())
        }));
        self.started += puzzles.len();
        Ok(())
    }

    /// Makes up to `moves` moves of the batch in play (each a move of every puzzle still in play);
    /// true once none is left in play.
    pub fn advance(&mut self, policy: &QPolicy, moves: usize) -> bool {
        let started = clock::seconds();
        let Some((template, _, _)) = self.live.first() else {
            return true;
        };
        let (n, a) = (template.observation_len(), template.num_actions());
        let mut allowed = vec![false; a];
        let mut observations = Vec::new();
        for _ in 0..moves {
            if self.live.is_empty() {
                break;
            }
            observations.resize(self.live.len() * n, 0.0);
            for ((env, _, _), out) in self.live.iter().zip(observations.chunks_mut(n)) {
                env.write_observation(out);
            }
            let values = policy.q_values(&observations);
            let mut over = vec![false; self.live.len()];
            let playing = self.live.iter_mut().zip(values.chunks(a)).enumerate();
            for (i, ((env, moves, _), values)) in playing {
                env.action_mask(&mut allowed);
                if !allowed.contains(&true) {
                    over[i] = true; // a dead end, or lost
                    continue;
                }
                env.step(best_allowed(values, &allowed));
                *moves += 1;
                over[i] = env.is_terminal() || *moves >= MOVE_LIMIT;
            }
            let mut i = 0;
            let (solved, filled, finished) =
                (&mut self.solved, &mut self.filled, &mut self.puzzles);
            self.live.retain(|(env, _, puzzle)| {
                let done = over[i];
                i += 1;
                if done {
                    let won = env.grid().is_solved();
                    *solved += usize::from(won);
                    *filled += right_fraction(env.grid(), puzzle, won);
                    *finished += 1;
                }
                !done
            });
        }
        self.seconds += clock::seconds() - started;
        self.live.is_empty()
    }

    /// Puzzles whose play has started (finished or in play).
    pub fn started(&self) -> usize {
        self.started
    }

    /// Puzzles finished.
    pub fn count(&self) -> usize {
        self.puzzles
    }

    /// What the finished puzzles came to.
    pub fn evaluation(&self) -> SudokuEvaluation {
        let count = self.puzzles;
        let per = |sum: f64| if count == 0 { 0.0 } else { sum / count as f64 };
        SudokuEvaluation {
            puzzles: count,
            solved: self.solved,
            solved_rate: per(self.solved as f64),
            solved_rate_95: wilson_95(self.solved, count),
            filled_fraction: per(self.filled),
            ms_per_puzzle: per(self.seconds * 1000.0),
        }
    }
}

/// The fraction of `puzzle`'s empty cells that `grid` fills with the solution's digit.
fn right_fraction(grid: &Grid, puzzle: &Grid, solved: bool) -> f64 {
    let empty: Vec<usize> = (0..puzzle.cells().len())
        .filter(|&c| puzzle.get(c) == 0)
        .collect();
    if solved || empty.is_empty() {
        return 1.0;
    }
    let Some(solution) = crate::env::sudoku::search(puzzle, 1).solution else {
        return 0.0;
    };
    let right = empty
        .iter()
        .filter(|&&c| grid.get(c) == solution.get(c))
        .count();
    right as f64 / empty.len() as f64
}

/// [`evaluate_policy`] on each bin (easy, medium, hard).
pub fn evaluate_bins(
    policy: &QPolicy,
    bins: &[Vec<Grid>; 3],
    batch: usize,
) -> Result<Vec<(GuessBin, SudokuEvaluation)>, DqnError> {
    GuessBin::ALL
        .iter()
        .zip(bins)
        .map(|(&bin, puzzles)| Ok((bin, evaluate_policy(policy, puzzles, batch)?)))
        .collect()
}

/// Puzzles played side by side in an evaluation (one forward pass a move for all).
const EVAL_BATCH: usize = 50;
/// Puzzles drawn at most for each one a validation bin wants (hard ones are about one in
/// thirty): a bin may come out short rather than the run waiting.
const DRAWS_PER_BIN_PUZZLE: usize = 200;
/// Puzzles drawn at most for validation bins of `per_bin` puzzles each (the validation set and
/// [`BinsEvaluation`]'s, which must be the same puzzles).
fn draw_budget(per_bin: usize) -> usize {
    per_bin.saturating_mul(DRAWS_PER_BIN_PUZZLE)
}

/// The numbers of givens puzzles are drawn with unless told otherwise.
pub const DEFAULT_GIVENS: [usize; 5] = [22, 23, 24, 26, 28];

/// What a Sudoku run is set up with (the manifest's `setup`; older ones said `puzzles`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SudokuSetup {
    /// `cells` (puzzlelab's network shared by all actions) or `dense` (Mehta's).
    pub net: String,
    /// Training puzzles in the pool.
    #[serde(alias = "puzzles")]
    pub count: usize,
    /// Numbers of givens to draw each puzzle with (one of them a puzzle).
    pub givens: Vec<usize>,
    /// The pool's seed (`TRAINING_SEED` + the run's seed unless given).
    #[serde(alias = "poolSeed")]
    pub seed: Option<u64>,
    /// `cells`: hidden 1 × 1 layers (default 2) and units per layer (default 32).
    pub layers: Option<usize>,
    /// Units per layer.
    pub filters: Option<usize>,
}

impl Default for SudokuSetup {
    fn default() -> Self {
        SudokuSetup {
            net: "cells".into(),
            count: 200,
            givens: DEFAULT_GIVENS.to_vec(),
            seed: None,
            layers: None,
            filters: None,
        }
    }
}

/// One bin's evaluation beside the rate Mehta's RL paper published for it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BinEvaluation {
    /// The network's play.
    #[serde(flatten)]
    pub evaluation: SudokuEvaluation,
    /// The paper's solved rate for the bin.
    pub published_solved_rate: f64,
}

/// An evaluation on the three bins of puzzles (easy, medium, hard by the exact solver's guesses).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SudokuBins {
    /// Fewer than 3 guesses.
    pub easy: BinEvaluation,
    /// 3 to 5.
    pub medium: BinEvaluation,
    /// 6 or more.
    pub hard: BinEvaluation,
}

impl SudokuBins {
    /// `policy`'s greedy play on `bins` (easy, medium, hard).
    pub fn of(policy: &QPolicy, bins: &[Vec<Grid>; 3]) -> Result<SudokuBins, DqnError> {
        let evaluations = evaluate_bins(policy, bins, EVAL_BATCH)?;
        Ok(SudokuBins::from_evaluations(
            evaluations.into_iter().map(|(_, evaluation)| evaluation),
        ))
    }

    /// The three bins' evaluations, easy first, beside the paper's rates.
    fn from_evaluations(evaluations: impl IntoIterator<Item = SudokuEvaluation>) -> SudokuBins {
        let mut results = GuessBin::ALL
            .iter()
            .zip(evaluations)
            .map(|(bin, evaluation)| BinEvaluation {
                evaluation,
                published_solved_rate: bin.published_solved_rate(),
            });
        let mut next = || results.next().expect("three bins");
        SudokuBins {
            easy: next(),
            medium: next(),
            hard: next(),
        }
    }
}

/// `puzzlelab sudoku eval` a batch at a time (a page's evaluation, between whose batches the worker
/// reports progress and may stop): the validation puzzles of a seed are drawn into their bins
/// ([`BinnedDraw`], as [`SudokuLearner`]'s validation draws them), then played a batch of
/// [`EVAL_BATCH`] at a time, as [`SudokuBins::of`] plays them: the same result, however the
/// steps are split.
pub struct BinsEvaluation {
    policy: QPolicy,
    per_bin: usize,
    /// Until every bin is drawn.
    draw: Option<BinnedDraw>,
    bins: [Vec<Grid>; 3],
    played: [PlayedPuzzles; 3],
}

impl BinsEvaluation {
    /// `per_bin` puzzles of each bin drawn from `seed` with `setup`'s givens, to be played by
    /// `policy`; nothing drawn yet.
    pub fn new(
        policy: QPolicy,
        setup: &SudokuSetup,
        per_bin: usize,
        seed: u64,
    ) -> Result<BinsEvaluation, DqnError> {
        check_givens(&setup.givens)?;
        let draws = draw_budget(per_bin);
        Ok(BinsEvaluation {
            policy,
            per_bin,
            draw: Some(BinnedDraw::new(seed, per_bin, &setup.givens, draws)),
            bins: Default::default(),
            played: Default::default(),
        })
    }

    /// Draws up to `count` more puzzles, or once all are drawn makes up to `count` moves of the
    /// batch in play (starting the next batch of [`EVAL_BATCH`] of its bin when none is); true
    /// once every puzzle drawn is played.
    pub fn step(&mut self, count: usize) -> Result<bool, DqnError> {
        if let Some(draw) = &mut self.draw {
            if draw.draw(count) {
                self.bins = self.draw.take().expect("drawing").into_bins();
            }
            return Ok(self.is_done());
        }
        let next = self
            .bins
            .iter()
            .zip(&mut self.played)
            .find(|(bin, played)| played.count() < bin.len());
        if let Some((bin, played)) = next {
            if played.started() == played.count() {
                let start = played.started();
                played.start(
                    &self.policy,
                    &bin[start..(start + EVAL_BATCH).min(bin.len())],
                )?;
            }
            played.advance(&self.policy, count.max(1));
        }
        Ok(self.is_done())
    }

    fn is_done(&self) -> bool {
        self.draw.is_none() && self.done() == self.total()
    }

    /// Puzzles drawn into the bins, plus those played.
    pub fn done(&self) -> usize {
        let drawn = self.draw.as_ref().map_or(self.kept(), BinnedDraw::kept);
        drawn + self.played.iter().map(PlayedPuzzles::count).sum::<usize>()
    }

    /// Puzzles to draw into the bins and to play: twice the bins' size while they are being drawn,
    /// twice the puzzles kept once they are (a bin may come out short).
    pub fn total(&self) -> usize {
        match self.draw {
            Some(_) => 2 * 3 * self.per_bin,
            None => 2 * self.kept(),
        }
    }

    fn kept(&self) -> usize {
        self.bins.iter().map(Vec::len).sum()
    }

    /// What the puzzles played so far came to, bin by bin.
    pub fn result(&self) -> SudokuBins {
        SudokuBins::from_evaluations(self.played.iter().map(PlayedPuzzles::evaluation))
    }
}

/// Numbers of givens a 9 × 9 puzzle with one solution can have here (17 to 80), or an error.
fn check_givens(givens: &[usize]) -> Result<(), DqnError> {
    if givens.is_empty() {
        return Err(DqnError::InvalidSetup(
            "give at least one number of givens".into(),
        ));
    }
    match givens.iter().find(|&&g| !(17..=80).contains(&g)) {
        Some(g) => Err(DqnError::InvalidSetup(format!(
            "{g} givens: a 9 × 9 puzzle here has 17 to 80"
        ))),
        None => Ok(()),
    }
}

/// Sudoku's deep Q-learner ([`super::PuzzleLearner`]).
pub struct SudokuLearner;

impl super::PuzzleLearner for SudokuLearner {
    type Env = SudokuEnv;
    type Setup = SudokuSetup;
    /// Easy, medium and hard puzzles.
    type Validation = [Vec<Grid>; 3];
    type Evaluation = SudokuBins;

    const PUZZLE: &'static str = "sudoku";
    const NAME: &'static str = "Sudoku";
    const NETWORKS: &'static [super::NetworkChoice] = &[
        super::NetworkChoice::new(
            "cells",
            "puzzlelab's network shared by all 810 actions over per-action features",
        ),
        super::NetworkChoice::new(
            "dense",
            "one dense layer 810 -> 810 on the one-hot grid (the network of Mehta's RL paper)",
        )
        .formerly(&["paper"]),
    ];
    const VALIDATION_SEED: u64 = crate::env::sudoku::VALIDATION_SEED;
    const VALIDATION_SIZE: usize = 10;
    const OLDER_SETUP_KEY: Option<&'static str> = Some("puzzles");

    fn network(setup: &SudokuSetup) -> Result<&'static super::NetworkChoice, DqnError> {
        super::network_named(Self::NETWORKS, &setup.net)
    }

    fn config(setup: &SudokuSetup) -> Result<DqnConfig, DqnError> {
        Ok(match Self::network(setup)?.name {
            "dense" => dense_config(),
            _ => cells_config(setup.layers.unwrap_or(2), setup.filters.unwrap_or(32)),
        })
    }

    fn settle(setup: &mut SudokuSetup, config: &mut DqnConfig) -> Result<(), DqnError> {
        setup.net = Self::network(setup)?.name.into();
        check_givens(&setup.givens)?;
        if !(1..=100_000).contains(&setup.count) {
            return Err(DqnError::InvalidSetup(
                "training puzzles: 1 to 100,000".into(),
            ));
        }
        setup.seed = Some(
            setup
                .seed
                .unwrap_or(crate::env::sudoku::TRAINING_SEED + config.seed),
        );
        // Backing up every legal digit as log-odds is the cells learner itself.
        let cells = setup.net == "cells";
        config.backup_visited = cells;
        config.survival_logits = cells;
        Ok(())
    }

    fn environments(setup: &SudokuSetup) -> Result<Box<dyn FnMut() -> SudokuEnv>, DqnError> {
        let seed = setup.seed.unwrap_or(crate::env::sudoku::TRAINING_SEED);
        let pool = crate::env::sudoku::training_puzzles(seed, setup.count, &setup.givens);
        if pool.is_empty() {
            return Err(DqnError::InvalidSetup(
                "no training puzzle could be generated".into(),
            ));
        }
        let dense = Self::network(setup)?.name == "dense";
        Ok(Box::new(move || match dense {
            true => dense_env(pool.clone()),
            false => cells_env(pool.clone()),
        }))
    }

    fn validation(setup: &SudokuSetup, size: usize, seed: u64) -> Result<[Vec<Grid>; 3], DqnError> {
        check_givens(&setup.givens)?;
        Ok(crate::env::sudoku::binned_puzzles(
            seed,
            size,
            &setup.givens,
            draw_budget(size),
        ))
    }

    fn validation_len(validation: &[Vec<Grid>; 3]) -> usize {
        validation.iter().map(Vec::len).sum()
    }

    fn evaluate(policy: &QPolicy, validation: &[Vec<Grid>; 3]) -> Result<SudokuBins, DqnError> {
        SudokuBins::of(policy, validation)
    }

    fn summary(e: &SudokuBins) -> String {
        [("easy", &e.easy), ("medium", &e.medium), ("hard", &e.hard)]
            .iter()
            .map(|(name, bin)| {
                format!(
                    "{name} {:.1}% of {} ({:.2} filled)",
                    100.0 * bin.evaluation.solved_rate,
                    bin.evaluation.puzzles,
                    bin.evaluation.filled_fraction
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn reward(setup: &SudokuSetup, _: &DqnConfig) -> String {
        match setup.net.as_str() {
            "dense" | "paper" => {
                "progress (Mehta's): progress +1, no progress -1, a broken rule -2 (162 moves at most)"
            }
            _ => "a right digit +1, a wrong one -1 and the episode ends (fitted as log-odds)",
        }
        .into()
    }

    fn fit(policy: &QPolicy, _: &SudokuSetup) -> Result<QPolicy, DqnError> {
        let empty = Grid::parse(&".".repeat(81)).expect("an empty 9 × 9 grid");
        env_for(policy, vec![empty])?;
        Ok(policy.clone())
    }
}
