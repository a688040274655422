//! Deep Q-learning on Sudoku: one dense layer over the one-hot grid, the DQN of Mehta's RL paper
//! for constraint-satisfaction games ([`dense_config`] on [`dense_env`]), puzzlelab's stronger
//! learner ([`cells_config`] on [`cells_env`]), and greedy play on puzzles binned the paper's way
//! ([`evaluate_policy`], [`evaluate_bins`]).
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
    Grid, GuessBin, Shape, SudokuEnv, SudokuObservation, SudokuReward, FEATURES, MOVE_LIMIT,
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
    let started = clock::seconds();
    let Some(first) = puzzles.first() else {
        return Ok(SudokuEvaluation {
            puzzles: 0,
            solved: 0,
            solved_rate: 0.0,
            solved_rate_95: wilson_95(0, 0),
            filled_fraction: 0.0,
            ms_per_puzzle: 0.0,
        });
    };
    let template = env_for(policy, vec![first.clone()])?;
    let (n, a) = (template.observation_len(), template.num_actions());
    let (mut solved, mut filled) = (0usize, 0.0f64);
    let mut allowed = vec![false; a];
    let mut observations = Vec::new();
    for chunk in puzzles.chunks(batch.max(1)) {
        let mut live: Vec<(SudokuEnv, usize, &Grid)> = chunk
            .iter()
            .map(|puzzle| {
                let mut env = template.clone();
                env.reset_to(puzzle);
                (env, 0, puzzle)
            })
            .collect();
        while !live.is_empty() {
            observations.resize(live.len() * n, 0.0);
            for ((env, _, _), out) in live.iter().zip(observations.chunks_mut(n)) {
                env.write_observation(out);
            }
            let values = policy.q_values(&observations);
            let mut over = vec![false; live.len()];
            for (i, ((env, moves, _), values)) in live.iter_mut().zip(values.chunks(a)).enumerate()
            {
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
            live.retain(|(env, _, puzzle)| {
                let done = over[i];
                i += 1;
                if done {
                    let won = env.grid().is_solved();
                    solved += usize::from(won);
                    filled += right_fraction(env.grid(), puzzle, won);
                }
                !done
            });
        }
    }
    let count = puzzles.len();
    Ok(SudokuEvaluation {
        puzzles: count,
        solved,
        solved_rate: solved as f64 / count as f64,
        solved_rate_95: wilson_95(solved, count),
        filled_fraction: filled / count as f64,
        ms_per_puzzle: (clock::seconds() - started) * 1000.0 / count as f64,
    })
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
