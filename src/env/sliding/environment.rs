//! The sliding puzzle as an [`Environment`]: four actions (the blank moves up, down, left, right),
//! a start rule (fixed, or the N-puzzle DQN dissertation's random walk back from the goal) and the learners' rewards.

use super::{Board, Direction, Heuristic, HeuristicTables, SlidingPuzzle, BLANK};
use crate::env::{Environment, Step};
use crate::rng::Rng;

/// The reward schemes of the sliding puzzles' learners, named by what they pay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RewardScheme {
    /// −(Manhattan + 2 × linear conflicts) of the new state, and −1 more for a move into a wall
    /// (the state stays the same): the reward of the N-puzzle DQN dissertation (docs/sources.md).
    HeuristicPenalty,
    /// −10 per move, −1000 for a move into a wall, +100 on reaching the goal: the reward of the
    /// sun/moon Q-learning README (docs/sources.md).
    StepCostGoalBonus,
    /// −1 per move and −1 more for a move into a wall, nothing on reaching the goal (the episode
    /// ends): the dust-puzzle blog post's "penalty for each step in a solution, to prioritize
    /// shorter solutions". With γ near 1 the Q-values become minus the remaining distance, whose
    /// greedy policy is the shortest path, where [`RewardScheme::HeuristicPenalty`] (a sum of
    /// discounted heuristic values) can prefer circling among low-heuristic positions to the long
    /// way round.
    Steps,
}

impl RewardScheme {
    /// The name used by the CLI, the page and the manifests (`heuristic-penalty`, `steps`,
    /// `step-cost-goal-bonus`).
    pub fn name(self) -> &'static str {
        match self {
            RewardScheme::HeuristicPenalty => "heuristic-penalty",
            RewardScheme::StepCostGoalBonus => "step-cost-goal-bonus",
            RewardScheme::Steps => "steps",
        }
    }

    /// Parses a name as written by [`RewardScheme::name`], or one of the older names that
    /// manifests and pages written before the rename still carry (`thesis` and `seed000`,
    /// `seed003` and `sun-moon`, `seed001`).
    pub fn from_name(name: &str) -> Option<RewardScheme> {
        match name.trim().to_ascii_lowercase().as_str() {
            "heuristic-penalty" | "thesis" | "seed000" => Some(RewardScheme::HeuristicPenalty),
            "step-cost-goal-bonus" | "seed003" | "sun-moon" => {
                Some(RewardScheme::StepCostGoalBonus)
            }
            "steps" | "seed001" => Some(RewardScheme::Steps),
            _ => None,
        }
    }

    /// [`RewardScheme::from_name`], or an error naming the rewards there are.
    pub fn parse(name: &str) -> Result<RewardScheme, String> {
        RewardScheme::from_name(name).ok_or_else(|| {
            format!("\"{name}\" is not one of heuristic-penalty, steps, step-cost-goal-bonus")
        })
    }
}

/// Where each episode starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartRule {
    /// Always the same position (the sun/moon Q-learning README's game).
    Fixed(Board),
    /// The thesis's scramble: random moves back from the goal until Manhattan + 2 × linear
    /// conflicts reaches `difficulty` (at most `max_moves` moves).
    RandomWalk {
        /// The distance estimate to reach.
        difficulty: u32,
        /// A cap on the walk, for difficulties the board cannot reach.
        max_moves: usize,
    },
    /// [`StartRule::RandomWalk`] to a difficulty drawn uniformly from 1 to `max_difficulty` for
    /// each episode (as DeepCubeA scrambles: easy starts keep coming, so values learned near the
    /// goal stay right while harder starts bootstrap from them).
    MixedWalk {
        /// The largest distance estimate drawn.
        max_difficulty: u32,
        /// A cap on the walk, for difficulties the board cannot reach.
        max_moves: usize,
    },
    /// Half the episodes (drawn at random) start from a uniformly random solvable position, the
    /// others as [`StartRule::MixedWalk`]: the walks keep the positions near the goal coming,
    /// the uniform draws bring the far ones random walks seldom reach (the 8-puzzle's 31-move
    /// positions, for example).
    MixedWalkOrUniform {
        /// The largest distance estimate drawn for a walk.
        max_difficulty: u32,
        /// A cap on the walk, for difficulties the board cannot reach.
        max_moves: usize,
    },
}

/// A sliding puzzle environment.
#[derive(Clone, Debug)]
pub struct SlidingEnv {
    puzzle: SlidingPuzzle,
    tables: HeuristicTables,
    start: StartRule,
    reward: RewardScheme,
    board: Board,
}

impl SlidingEnv {
    /// An environment for `puzzle`, starting episodes by `start` and rewarding by `reward`.
    pub fn new(puzzle: SlidingPuzzle, start: StartRule, reward: RewardScheme) -> SlidingEnv {
        let tables = HeuristicTables::new(puzzle.goal());
        let board = match start {
            StartRule::Fixed(b) => b,
            StartRule::RandomWalk { .. }
            | StartRule::MixedWalk { .. }
            | StartRule::MixedWalkOrUniform { .. } => *puzzle.goal(),
        };
        SlidingEnv {
            puzzle,
            tables,
            start,
            reward,
            board,
        }
    }

    /// Changes where episodes start, from the next [`Environment::reset`] on (a curriculum raises
    /// the difficulty this way).
    pub fn set_start(&mut self, start: StartRule) {
        self.start = start;
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The puzzle being played.
    pub fn puzzle(&self) -> &SlidingPuzzle {
        &self.puzzle
    }

    /// The thesis's distance: Manhattan + 2 × linear conflicts.
    pub fn distance_estimate(&self, board: &Board) -> u32 {
        self.tables.estimate(board, Heuristic::LinearConflict)
    }
}

impl Environment for SlidingEnv {
    type State = Board;

    fn num_actions(&self) -> usize {
        Direction::ALL.len()
    }

    fn reset(&mut self, seed: u64) {
        let mut rng = Rng::new(seed);
        let (difficulty, max_moves) = match self.start {
            StartRule::Fixed(board) => {
                self.board = board;
                return;
            }
            StartRule::RandomWalk {
                difficulty,
                max_moves,
            } => (difficulty, max_moves),
            StartRule::MixedWalkOrUniform { .. } if rng.chance(0.5) => {
                self.board = self.puzzle.random_solvable(&mut rng);
                return;
            }
            StartRule::MixedWalk {
                max_difficulty,
                max_moves,
            }
            | StartRule::MixedWalkOrUniform {
                max_difficulty,
                max_moves,
            } => (
                1 + rng.below(max_difficulty.max(1) as usize) as u32,
                max_moves,
            ),
        };
        let tables = &self.tables;
        self.board = self
            .puzzle
            .random_walk(difficulty, max_moves, &mut rng, |b| {
                tables.estimate(b, Heuristic::LinearConflict)
            });
    }

    fn state(&self) -> Board {
        self.board
    }

    fn action_mask(&self, mask: &mut [bool]) {
        for (m, d) in mask.iter_mut().zip(Direction::ALL) {
            *m = self.board.target(d).is_some();
        }
    }

    fn step(&mut self, action: usize) -> Step {
        let moved = self.board.move_blank(Direction::ALL[action]);
        let solved = self.puzzle.is_solved(&self.board);
        let reward = match (self.reward, moved) {
            (RewardScheme::HeuristicPenalty, _) => {
                -(self.distance_estimate(&self.board) as f32) - if moved { 0.0 } else { 1.0 }
            }
            (RewardScheme::StepCostGoalBonus, false) => -1000.0,
            (RewardScheme::StepCostGoalBonus, true) if solved => 100.0,
            (RewardScheme::StepCostGoalBonus, true) => -10.0,
            (RewardScheme::Steps, moved) => -1.0 - if moved { 0.0 } else { 1.0 },
        };
        Step {
            reward,
            terminated: solved,
            truncated: false,
        }
    }

    fn is_terminal(&self) -> bool {
        self.puzzle.is_solved(&self.board)
    }

    fn after(&self, action: usize) -> Option<(SlidingEnv, Step)> {
        crate::env::cloned_after(self, action)
    }

    fn validate(&self) -> Result<(), String> {
        let b = &self.board;
        if b.cells()[b.blank()] != BLANK {
            return Err(format!(
                "the cached blank index {} does not hold the blank",
                b.blank()
            ));
        }
        if b.label_counts() != self.puzzle.goal().label_counts() {
            return Err("the board's tiles differ from the goal's".into());
        }
        if !self.puzzle.is_solvable(b) {
            return Err("the board cannot reach the goal".into());
        }
        Ok(())
    }

    /// One-hot: for each cell, one slot per label (blank included).
    fn observation_len(&self) -> usize {
        self.board.len() * (self.puzzle.goal().max_label() as usize + 1)
    }

    fn write_observation(&self, out: &mut [f32]) {
        let labels = self.puzzle.goal().max_label() as usize + 1;
        out.fill(0.0);
        for (cell, &label) in self.board.cells().iter().enumerate() {
            out[cell * labels + label as usize] = 1.0;
        }
    }

    /// `sliding 3x3 goal 1,2,3,4,5,6,7,8,_` (the goal as [`SlidingPuzzle::format`] writes it).
    fn puzzle_id(&self) -> String {
        format!(
            "sliding {}x{} goal {}",
            self.puzzle.rows(),
            self.puzzle.cols(),
            self.puzzle.format(self.puzzle.goal())
        )
    }

    /// Manhattan + 2 × linear conflicts of the current board (the thesis's measure).
    fn distance_to_goal(&self) -> Option<f32> {
        Some(self.distance_estimate(&self.board) as f32)
    }
}
