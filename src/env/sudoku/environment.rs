//! Sudoku as an [`Environment`] for learners, as Mehta's RL paper sets it up ("Reinforcement Learning
//! For Constraint Satisfaction Game Agents", section 3.2.4): the observation is the grid one-hot (`size + 1` planes: empty, then
//! each digit), an action writes an entry value into a cell, and the rewards are his.
//!
//! **Actions**: `cell · (size + 1) + value`, `value` in `0..=size` (810 on 9 × 9, the paper's
//! "location (9 × 9) and entry value" with ten values). A digit 1..=size goes into an empty cell
//! when no peer holds it; value 0 erases a digit the agent placed (the paper allows "corrections
//! in multiple guesses"). Anything else changes nothing.
//!
//! **Rewards** ([`SudokuReward::Progress`], Mehta's): +1 `progress` (a digit placed that breaks no
//! rule), −2 `partial_loss` (a digit that would break a rule: it is not written), −1
//! `no_progress` (the cell is filled — a given or the agent's own — or an erase). His −20 `loss`
//! after 81 × 2 moves is a step limit, so by the contract it is the training loop's (a
//! [`TimeLimit`](crate::env::TimeLimit) of [`MOVE_LIMIT`] and [`MOVE_LIMIT_LOSS`] there).
//! [`SudokuReward::Outcome`] gives +1 for the solved grid and 0 otherwise.
//! [`SudokuReward::Mistakes`] is puzzlelab's, for its stronger learner: the game as the usual
//! Sudoku apps check it, where a digit that is not the puzzle's (unique) solution is a mistake
//! and, here, ends the episode lost (−1); a right digit gives +1. The agent never sees the
//! solution, only the reward, as Minesweeper's agent never sees the mines.
//!
//! **Observations** ([`SudokuObservation`]): Mehta's one-hot planes, or puzzlelab's
//! [`SudokuObservation::Features`]: for every action (cell, value) a few facts a player reads off
//! the grid — is the digit a candidate, the cell's candidate count, how many places the digit has
//! in the cell's row, column and box — so that a network shared by all 810 actions (1 × 1
//! convolutions over an 81 × 10 board of actions) can weigh them.
//!
//! The episode terminates when every cell is filled (then the grid is solved: no placement ever
//! breaks a rule). A dead end (an empty cell no digit fits) can only be undone by erasing.
//! The mask marks the actions that change the grid: digits that fit empty cells, and erasing
//! the agent's digits.

use super::backtrack::search;
use super::grid::{Grid, Shape};
use crate::env::{Environment, Step};
use crate::rng::Rng;
use std::sync::Arc;

/// The move limit on 9 × 9: two moves a cell (81 × 2), as Mehta's RL paper for
/// constraint-satisfaction games sets it (section 3.2.4).
pub const MOVE_LIMIT: usize = 162;
/// The reward Mehta's RL paper pays when the move limit is reached (section 3.2.4).
pub const MOVE_LIMIT_LOSS: f32 = -20.0;

/// The reward scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SudokuReward {
    /// +1 progress (a digit placed that breaks no rule), −1 no progress (a filled cell, or an
    /// erase), −2 a digit that breaks a rule (not written): the rewards of Mehta's RL paper for
    /// constraint-satisfaction games (section 3.2.4).
    Progress,
    /// +1 when the grid is solved, 0 otherwise.
    Outcome,
    /// puzzlelab's: +1 for a digit of the solution, −1 for any other digit that fits (it is
    /// written and ends the episode, lost); erasing is not an action (a right digit never needs
    /// it), and a digit that breaks a rule changes nothing (0).
    Mistakes,
}

/// What the agent observes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SudokuObservation {
    /// Mehta's: `size + 1` planes of `size × size` (empty, then each digit), one-hot.
    OneHot,
    /// puzzlelab's: [`FEATURES`] planes over the board of actions (`cells × (size + 1)`, action
    /// order), each a fact about the action's cell and value (see [`FEATURES`]).
    Features,
}

/// Planes of [`SudokuObservation::Features`], each over the actions (cell, value), value 0 (erase)
/// included: 0 the digit is a candidate of the empty cell; 1 it is the cell's only candidate; 2,
/// 3, 4 it is a candidate with no other place in the cell's row, column, box; 5 the cell's
/// candidates ÷ size; 6, 7, 8 the digit's places in the row, column, box ÷ size; 9 the cell holds
/// the digit; 10 the cell is filled.
pub const FEATURES: usize = 11;

/// Sudoku as an environment: each episode plays one puzzle of a pool, chosen by the seed.
#[derive(Clone, Debug)]
pub struct SudokuEnv {
    puzzles: Arc<Vec<Grid>>,
    reward: SudokuReward,
    observation: SudokuObservation,
    shape: Shape,
    givens: Vec<bool>,
    grid: Grid,
    used: Vec<u16>,
    /// The puzzle's solution (with [`SudokuReward::Mistakes`] only).
    solution: Option<Arc<Grid>>,
    /// A mistake ended the episode ([`SudokuReward::Mistakes`]).
    lost: bool,
}

impl SudokuEnv {
    /// An environment over `puzzles` (at least one, all of one shape; with
    /// [`SudokuReward::Mistakes`], each with exactly one solution), observed one-hot.
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
            observation: SudokuObservation::OneHot,
            shape,
            givens: vec![],
            grid: first.clone(),
            used: vec![],
            solution: None,
            lost: false,
        };
        env.start(first);
        env
    }

    /// The same environment observed as `observation`.
    pub fn with_observation(mut self, observation: SudokuObservation) -> SudokuEnv {
        self.observation = observation;
        self
    }

    /// The reward scheme.
    pub fn reward(&self) -> SudokuReward {
        self.reward
    }

    /// The observation.
    pub fn observation(&self) -> SudokuObservation {
        self.observation
    }

    /// Whether a mistake ended the episode ([`SudokuReward::Mistakes`]).
    pub fn is_lost(&self) -> bool {
        self.lost
    }

    fn start(&mut self, puzzle: Grid) {
        self.lost = false;
        self.solution = (self.reward == SudokuReward::Mistakes).then(|| {
            let found = search(&puzzle, 2);
            assert_eq!(found.count, 1, "a puzzle with one solution for Mistakes");
            Arc::new(found.solution.expect("one solution"))
        });
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

    /// A step under [`SudokuReward::Mistakes`].
    fn step_mistakes(&mut self, cell: usize, value: u8) -> Step {
        let solution = self.solution.as_ref().expect("set at the start");
        let reward =
            if self.lost || value == 0 || self.grid.get(cell) != 0 || !self.fits(cell, value) {
                // Not an action here: nothing changes.
                0.0
            } else if solution.get(cell) == value {
                self.write(cell, value);
                1.0
            } else {
                // The mistake stays on the grid, as the apps show it in red.
                self.write(cell, value);
                self.lost = true;
                -1.0
            };
        Step {
            reward,
            terminated: self.is_terminal(),
            truncated: false,
        }
    }

    /// [`SudokuObservation::Features`] into `out` (zeroed).
    // Cells and digits index several arrays at once: plain index loops read best.
    #[allow(clippy::needless_range_loop)]
    fn write_features(&self, out: &mut [f32]) {
        let (shape, size) = (self.shape, self.shape.size);
        let (cells, values) = (shape.cells(), size + 1);
        let plane = cells * values;
        let candidates = self.grid.candidates();
        // places[unit][d]: the cells of the unit where d is a candidate.
        let mut places = vec![[0u8; 17]; 3 * size];
        for (cell, &mask) in candidates.iter().enumerate() {
            for d in 1..=size {
                if mask & (1 << d) != 0 {
                    for u in shape.units_of(cell) {
                        places[u][d] += 1;
                    }
                }
            }
        }
        let scale = 1.0 / size as f32;
        for cell in 0..cells {
            let held = self.grid.get(cell) as usize;
            let count = candidates[cell].count_ones() as f32;
            let units = shape.units_of(cell);
            for value in 0..values {
                let at = |feature: usize| feature * plane + cell * values + value;
                out[at(10)] = f32::from(held != 0);
                if value == 0 {
                    continue;
                }
                out[at(9)] = f32::from(held == value);
                if held != 0 {
                    continue;
                }
                out[at(5)] = count * scale;
                for (k, &u) in units.iter().enumerate() {
                    out[at(6 + k)] = f32::from(places[u][value]) * scale;
                }
                if candidates[cell] & (1 << value) != 0 {
                    out[at(0)] = 1.0;
                    out[at(1)] = f32::from(count == 1.0);
                    for (k, &u) in units.iter().enumerate() {
                        out[at(2 + k)] = f32::from(places[u][value] == 1);
                    }
                }
            }
        }
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
                mask[cell * values + value] = if self.lost {
                    false
                } else if d == 0 {
                    value != 0 && self.fits(cell, value as u8)
                } else {
                    value == 0 && !self.givens[cell] && self.reward != SudokuReward::Mistakes
                };
            }
        }
    }

    fn step(&mut self, action: usize) -> Step {
        let values = self.shape.size + 1;
        let (cell, value) = (action / values, (action % values) as u8);
        let current = self.grid.get(cell);
        if self.reward == SudokuReward::Mistakes {
            return self.step_mistakes(cell, value);
        }
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
                SudokuReward::Progress => reward,
                SudokuReward::Outcome => {
                    if solved {
                        1.0
                    } else {
                        0.0
                    }
                }
                SudokuReward::Mistakes => unreachable!("stepped above"),
            },
            terminated: solved,
            truncated: false,
        }
    }

    fn is_terminal(&self) -> bool {
        self.lost || self.grid.filled() == self.shape.cells()
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
        let actions = self.shape.cells() * (self.shape.size + 1);
        match self.observation {
            SudokuObservation::OneHot => actions,
            SudokuObservation::Features => FEATURES * actions,
        }
    }

    /// One-hot: planes channel-major, `[size + 1, size, size]`: plane 0 marks empty cells, plane
    /// d the cells holding d. Features: `[FEATURES, cells, size + 1]` (see [`FEATURES`]).
    fn write_observation(&self, out: &mut [f32]) {
        out.fill(0.0);
        let cells = self.shape.cells();
        match self.observation {
            SudokuObservation::OneHot => {
                for cell in 0..cells {
                    out[self.grid.get(cell) as usize * cells + cell] = 1.0;
                }
            }
            SudokuObservation::Features => self.write_features(out),
        }
    }

    /// `sudoku-9x9` observed one-hot, `sudoku-9x9-features` with [`SudokuObservation::Features`].
    fn puzzle_id(&self) -> String {
        match self.observation {
            SudokuObservation::OneHot => format!("sudoku-{0}x{0}", self.shape.size),
            SudokuObservation::Features => format!("sudoku-{0}x{0}-features", self.shape.size),
        }
    }

    fn after(&self, action: usize) -> Option<(Self, Step)> {
        crate::env::cloned_after(self, action)
    }
}
