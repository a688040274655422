//! Sudoku as an [`Environment`] for learners, as Mehta's RL paper sets it up (`../shared/seeds/
//! 004_…`, section 3.2.4): the observation is the grid one-hot (`size + 1` planes: empty, then
//! each digit), an action writes an entry value into a cell, and the rewards are his.
//!
//! **Actions**: `cell · (size + 1) + value`, `value` in `0..=size` (810 on 9 × 9, the paper's
//! "location (9 × 9) and entry value" with ten values). A digit 1..=size goes into an empty cell
//! when no peer holds it; value 0 erases a digit the agent placed (the paper allows "corrections
//! in multiple guesses"). Anything else changes nothing.
//!
//! **Rewards** ([`SudokuReward::Seed004`], Mehta's): +1 `progress` (a digit placed that breaks no
//! rule), −2 `partial_loss` (a digit that would break a rule: it is not written), −1
//! `no_progress` (the cell is filled — a given or the agent's own — or an erase). His −20 `loss`
//! after 81 × 2 moves is a step limit, so by the contract it is the training loop's (a
//! [`TimeLimit`](crate::env::TimeLimit) of [`SEED004_MOVE_LIMIT`] and [`SEED004_LOSS`] there).
//! [`SudokuReward::Outcome`] gives +1 for the solved grid and 0 otherwise.
//!
//! The episode terminates when every cell is filled (then the grid is solved: no placement ever
//! breaks a rule). A dead end (an empty cell no digit fits) can only be undone by erasing.
//! The mask marks the actions that change the grid: digits that fit empty cells, and erasing
//! the agent's digits.

use super::grid::{Grid, Shape};
use crate::env::{Environment, Step};
use crate::rng::Rng;
use std::sync::Arc;

/// Mehta's move limit (81 × 2) on 9 × 9.
pub const SEED004_MOVE_LIMIT: usize = 162;
/// Mehta's reward when the move limit is reached.
pub const SEED004_LOSS: f32 = -20.0;

/// The reward scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SudokuReward {
    /// Mehta's: +1 progress, −1 no progress, −2 a digit that breaks a rule.
    Seed004,
    /// +1 when the grid is solved, 0 otherwise.
    Outcome,
}

/// Sudoku as an environment: each episode plays one puzzle of a pool, chosen by the seed.
#[derive(Clone, Debug)]
pub struct SudokuEnv {
    puzzles: Arc<Vec<Grid>>,
    reward: SudokuReward,
    shape: Shape,
    givens: Vec<bool>,
    grid: Grid,
    used: Vec<u16>,
}

impl SudokuEnv {
    /// An environment over `puzzles` (at least one, all of one shape).
    pub fn new(puzzles: Vec<Grid>, reward: SudokuReward) -> SudokuEnv {
        assert!(!puzzles.is_empty(), "a pool of at least one puzzle");
        let shape = puzzles[0].shape();
        assert!(
            puzzles.iter().all(|p| p.shape() == shape),
            "puzzles of one shape"
        );
        let first = puzzles[0].clone();
        let mut env = SudokuEnv {
            puzzles: Arc::new(puzzles),
            reward,
            shape,
            givens: vec![],
            grid: first.clone(),
            used: vec![],
        };
        env.start(first);
        env
    }

    fn start(&mut self, puzzle: Grid) {
        self.givens = puzzle.cells().iter().map(|&d| d != 0).collect();
        self.grid = puzzle;
        self.used = vec![0; 3 * self.shape.size];
        for cell in 0..self.shape.cells() {
            let d = self.grid.get(cell);
            if d != 0 {
                for u in self.shape.units_of(cell) {
                    self.used[u] |= 1 << d;
                }
            }
        }
    }

    /// Starts on `puzzle` (which need not be in the pool; same shape).
    pub fn reset_to(&mut self, puzzle: &Grid) {
        assert_eq!(
            puzzle.shape(),
            self.shape,
            "a puzzle of the environment's shape"
        );
        self.start(puzzle.clone());
    }

    /// The grid now.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The action writing `value` (0 erases) into `cell`.
    pub fn action(&self, cell: usize, value: u8) -> usize {
        cell * (self.shape.size + 1) + value as usize
    }

    fn fits(&self, cell: usize, digit: u8) -> bool {
        self.shape
            .units_of(cell)
            .iter()
            .all(|&u| self.used[u] & (1 << digit) == 0)
    }

    fn write(&mut self, cell: usize, digit: u8) {
        let old = self.grid.get(cell);
        for u in self.shape.units_of(cell) {
            if old != 0 {
                self.used[u] &= !(1 << old);
            }
            if digit != 0 {
                self.used[u] |= 1 << digit;
            }
        }
        self.grid.set(cell, digit);
    }
}

impl Environment for SudokuEnv {
    type State = Vec<u8>;

    fn num_actions(&self) -> usize {
        self.shape.cells() * (self.shape.size + 1)
    }

    fn reset(&mut self, seed: u64) {
        let mut rng = Rng::new(seed);
        let puzzle = self.puzzles[rng.below(self.puzzles.len())].clone();
        self.start(puzzle);
    }

    fn state(&self) -> Vec<u8> {
        self.grid.cells().to_vec()
    }

    fn action_mask(&self, mask: &mut [bool]) {
        let values = self.shape.size + 1;
        for cell in 0..self.shape.cells() {
            let d = self.grid.get(cell);
            for value in 0..values {
                mask[cell * values + value] = if d == 0 {
                    value != 0 && self.fits(cell, value as u8)
                } else {
                    value == 0 && !self.givens[cell]
                };
            }
        }
    }

    fn step(&mut self, action: usize) -> Step {
        let values = self.shape.size + 1;
        let (cell, value) = (action / values, (action % values) as u8);
        let current = self.grid.get(cell);
        let reward = if value == 0 {
            if current != 0 && !self.givens[cell] {
                self.write(cell, 0);
            }
            -1.0
        } else if current != 0 {
            -1.0
        } else if self.fits(cell, value) {
            self.write(cell, value);
            1.0
        } else {
            -2.0
        };
        let solved = self.is_terminal();
        Step {
            reward: match self.reward {
                SudokuReward::Seed004 => reward,
                SudokuReward::Outcome => {
                    if solved {
                        1.0
                    } else {
                        0.0
                    }
                }
            },
            terminated: solved,
            truncated: false,
        }
    }

    fn is_terminal(&self) -> bool {
        self.grid.filled() == self.shape.cells()
    }

    fn validate(&self) -> Result<(), String> {
        if let Some(conflict) = self.grid.conflicts().into_iter().next() {
            return Err(conflict.to_string());
        }
        for cell in 0..self.shape.cells() {
            if self.givens[cell] && self.grid.get(cell) == 0 {
                return Err(format!("the given at cell {cell} was erased"));
            }
        }
        Ok(())
    }

    fn observation_len(&self) -> usize {
        self.shape.cells() * (self.shape.size + 1)
    }

    /// Planes channel-major, `[size + 1, size, size]`: plane 0 marks empty cells, plane d the
    /// cells holding d.
    fn write_observation(&self, out: &mut [f32]) {
        out.fill(0.0);
        let cells = self.shape.cells();
        for cell in 0..cells {
            out[self.grid.get(cell) as usize * cells + cell] = 1.0;
        }
    }

    fn puzzle_id(&self) -> String {
        format!("sudoku-{0}x{0}", self.shape.size)
    }

    fn after(&self, action: usize) -> Option<(Self, Step)> {
        let mut next = self.clone();
        let step = next.step(action);
        Some((next, step))
    }
}
