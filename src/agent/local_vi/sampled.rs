//! The paper's sampled version of local value iteration: tabular Q-learning over the same
//! sub-problems, from ε-greedy episodes instead of exact sweeps (Mehta 2020, §3.2.1: α 0.5,
//! γ 0.7, ε 0.1, 1,000,000 episodes, ±1 for progress, ±15 for a win or a loss, the sub-episode
//! that ends with tile i limited to i² moves, the game to 256 on 4×4).
//!
//! It shares the sub-problems, their states and the rule for the hard cases with
//! [`LocalValueIteration`] (the rule asks the sweep whether a sub-problem can be solved); only
//! the values are learned by sampling. It loses games for three reasons the numbers show: states
//! never visited keep Q = 0 (their greedy move is arbitrary), γ = 0.7 lets ±1 for Manhattan
//! progress outweigh the +15 a few moves away (so it plays greedy Manhattan, which gets stuck),
//! and the i² limit is tight for the first tiles (tile 1 gets one move, tile 2 four).

use super::{LocalValueIteration, SubProblem, SubTable};
use crate::env::sliding::{Board, Direction, SlidingPuzzle};
use crate::rng::Rng;
use serde::Serialize;
use std::collections::BTreeMap;

/// Hyper-parameters; defaults are the paper's (episodes aside: it trained 1,000,000).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SampledConfig {
    /// Learning rate α (paper: 0.5).
    pub alpha: f32,
    /// Discount γ (paper: 0.7).
    pub gamma: f32,
    /// Exploration ε of the ε-greedy behaviour (paper: 0.1).
    pub epsilon: f64,
    /// Training episodes (games); the paper trained 1,000,000.
    pub episodes: usize,
    /// Reward for a move that lowers the Manhattan distance of G's tiles (paper: +1); the
    /// opposite for one that does not.
    pub progress: f32,
    /// Reward for placing G (paper: +15); the opposite when the moves run out.
    pub win: f32,
    /// Limit the sub-episode ending with tile i to i² moves (the paper); without it only the
    /// game's cells² limit (256 on 4×4) holds.
    pub sub_episode_limits: bool,
    /// Training games start this many random moves from the goal at most (uniform from 1; walks
    /// that end on the goal are drawn again).
    pub max_walk: usize,
    /// Seed of the training positions and the exploration.
    pub seed: u64,
}

impl Default for SampledConfig {
    fn default() -> Self {
        SampledConfig {
            alpha: 0.5,
            gamma: 0.7,
            epsilon: 0.1,
            episodes: 1_000_000,
            progress: 1.0,
            win: 15.0,
            sub_episode_limits: true,
            max_walk: 160,
            seed: 0,
        }
    }
}

/// One sub-problem's learned action values and which states were ever visited.
#[derive(Clone, Debug)]
struct QTable {
    values: Vec<[f32; 4]>,
    visited: Vec<bool>,
}

/// How a game went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SampledGame {
    /// All tiles placed within the limits.
    pub won: bool,
    /// Moves played.
    pub moves: Vec<Direction>,
    /// The tiles of the sub-problem that ran out of moves, if one did.
    pub lost_in: Option<Vec<u8>>,
}

/// What training did.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SampledStats {
    /// Episodes trained so far.
    pub episodes: usize,
    /// Fraction of training games won (ε-greedy).
    pub training_win_rate: f64,
    /// States visited at least once, over all sub-problems.
    pub visited_states: usize,
    /// States in the sub-problems' tables.
    pub states: usize,
}

/// The sampled learner: one Q-table per sub-problem.
#[derive(Clone, Debug)]
pub struct SampledLocalQ {
    config: SampledConfig,
    tables: BTreeMap<SubProblem, QTable>,
    rng: Rng,
    episodes: usize,
    wins: usize,
}

impl SampledLocalQ {
    /// A learner with all values 0.
    pub fn new(config: SampledConfig) -> Self {
        SampledLocalQ {
            rng: Rng::new(config.seed),
            config,
            tables: BTreeMap::new(),
            episodes: 0,
            wins: 0,
        }
    }

    /// Trains up to `episodes` more games (stops at the configured total).
    pub fn train(&mut self, exact: &LocalValueIteration, episodes: usize) -> SampledStats {
        let puzzle = SlidingPuzzle::standard(exact.goal().rows(), exact.goal().cols())
            .expect("the learner's goal is a standard one");
        let target = self
            .episodes
            .saturating_add(episodes)
            .min(self.config.episodes);
        while self.episodes < target {
            let walk = 1 + self.rng.below(self.config.max_walk.max(1));
            let start = puzzle.random_walk(1, walk, &mut self.rng, |_| 0);
            if start == *exact.goal() {
                continue;
            }
            let game = self.play(exact, start, true);
            self.episodes += 1;
            self.wins += usize::from(game.won);
        }
        self.stats(exact)
    }

    /// Plays `board` greedily on the learned values, within the paper's limits.
    pub fn solve(&mut self, exact: &LocalValueIteration, board: &Board) -> SampledGame {
        self.play(exact, *board, false)
    }

    /// Where training stands.
    pub fn stats(&self, exact: &LocalValueIteration) -> SampledStats {
        SampledStats {
            episodes: self.episodes,
            training_win_rate: self.wins as f64 / self.episodes.max(1) as f64,
            visited_states: self
                .tables
                .values()
                .map(|q| q.visited.iter().filter(|&&v| v).count())
                .sum(),
            states: exact.tables().map(|(_, t)| t.states()).sum(),
        }
    }

    /// One game: sub-problem after sub-problem (chosen by the rule), ε-greedy and learning when
    /// `learn`, greedy otherwise; lost when a sub-problem's i² moves or the game's cells² run out.
    fn play(&mut self, exact: &LocalValueIteration, mut board: Board, learn: bool) -> SampledGame {
        let cells = board.len();
        let game_limit = cells * cells;
        let mut moves = Vec::new();
        let mut placed = 0;
        while placed < exact.order().len() {
            let Some((sub, table)) = exact.sub_problem_for(&board, placed) else {
                break; // an unsolvable start: counted as lost below
            };
            let limit = match self.config.sub_episode_limits {
                true => sub.through * sub.through,
                false => game_limit,
            };
            let q = self.tables.entry(sub).or_insert_with(|| QTable {
                values: vec![[0.0; 4]; table.states()],
                visited: vec![false; table.states()],
            });
            let mut used = 0;
            while !table.solved(&board) {
                if used >= limit || moves.len() >= game_limit {
                    return SampledGame {
                        won: false,
                        moves,
                        lost_in: Some(table.tiles().to_vec()),
                    };
                }
                let slots = table.state_of(&board);
                let state = table.rank(&slots);
                q.visited[state] = true;
                let legal: Vec<usize> = (0..4)
                    .filter(|&d| table.step(&slots, d).is_some())
                    .collect();
                // ---- the algorithm: ε-greedy choice, reward, Q-learning update ----
                let action = if learn && self.rng.chance(self.config.epsilon) {
                    *self.rng.choose(&legal)
                } else {
                    greedy(&q.values[state], &legal)
                };
                let after = table.step(&slots, action).expect("a legal action");
                board.move_blank(Direction::ALL[action]);
                moves.push(Direction::ALL[action]);
                used += 1;
                let next = table.rank(&after);
                let won = table.solved(&board);
                let lost = !won && (used >= limit || moves.len() >= game_limit);
                let reward = if won {
                    self.config.win
                } else if lost {
                    -self.config.win
                } else if manhattan(table, &after) < manhattan(table, &slots) {
                    self.config.progress
                } else {
                    -self.config.progress
                };
                if learn {
                    let future = if won || lost {
                        0.0
                    } else {
                        let legal_next = (0..4).filter(|&d| table.step(&after, d).is_some());
                        legal_next
                            .map(|d| q.values[next][d])
                            .fold(f32::NEG_INFINITY, f32::max)
                    };
                    let target = reward + self.config.gamma * future;
                    let value = &mut q.values[state][action];
                    *value += self.config.alpha * (target - *value);
                }
                // ---- end of the algorithm ----
            }
            placed = sub.through;
        }
        SampledGame {
            won: board == *exact.goal(),
            moves,
            lost_in: None,
        }
    }
}

/// The legal action with the highest value (the first on ties).
fn greedy(values: &[f32; 4], legal: &[usize]) -> usize {
    let mut best = legal[0];
    for &a in &legal[1..] {
        if values[a] > values[best] {
            best = a;
        }
    }
    best
}

/// The sum of G's tiles' Manhattan distances to their goal cells.
fn manhattan(table: &SubTable, slots: &super::Slots) -> usize {
    let cols = table.cols;
    table
        .targets
        .iter()
        .zip(slots)
        .map(|(&target, &at)| {
            let (a, b) = (
                table.cells[at as usize] as usize,
                table.cells[target as usize] as usize,
            );
            (a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols)
        })
        .sum()
}
