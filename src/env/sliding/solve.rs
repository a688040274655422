//! Solving sliding puzzles: the puzzle as a [`SearchProblem`], exact distance tables for small
//! boards, and [`SlidingSolver`], the one entry point the CLI and the page use for every algorithm.

use super::pdb::{Partition, PdbHeuristic, PdbSearch};
use super::{
    is_solvable, Board, Direction, Heuristic, HeuristicTables, SlidingPuzzle, BLANK, MAX_CELLS,
};
use crate::rng::Rng;
use crate::search::astar::{weight_in_thousandths, MAX_WEIGHT};
use crate::search::{
    table::DistanceTable, AStar, Algorithm, Bfs, IdaStar, IdaStarInPlace, Limits, Outcome, Search,
    SearchProblem,
};
use serde::Serialize;
use std::rc::Rc;

/// Boards up to this many cells get exact distance tables (3×3: 9! ranks, 181,440 reachable).
pub const MAX_EXACT_CELLS: usize = 9;

/// The weight weighted A* uses when none is given: solutions at most twice the optimum.
pub const DEFAULT_WEIGHT: f64 = 2.0;

/// A sliding puzzle from one start to its goal, as a search problem. Actions are blank moves.
#[derive(Clone, Debug)]
pub struct SlidingSearch {
    start: Board,
    tables: HeuristicTables,
    heuristic: Heuristic,
}

impl SlidingSearch {
    /// The problem of taking `start` to `goal`, estimated with `heuristic`.
    pub fn new(start: Board, goal: &Board, heuristic: Heuristic) -> Self {
        SlidingSearch {
            start,
            tables: HeuristicTables::new(goal),
            heuristic,
        }
    }
}

impl SearchProblem for SlidingSearch {
    type State = Board;
    type Action = Direction;

    fn start(&self) -> Board {
        self.start
    }
    fn is_goal(&self, state: &Board) -> bool {
        state == self.tables.goal()
    }
    fn heuristic(&self, state: &Board) -> u32 {
        self.tables.estimate(state, self.heuristic)
    }
    fn successors(&self, state: &Board, out: &mut Vec<(Direction, Board, u32)>) {
        for d in Direction::ALL {
            if let Some(next) = state.moved(d) {
                out.push((d, next, 1));
            }
        }
    }
}

/// Exact distances to one goal for every position of a board of at most [`MAX_EXACT_CELLS`] cells.
///
/// Positions are ranked by the Lehmer code of a canonical relabelling (repeated labels are
/// numbered in reading order), so labelled puzzles like sun/moon use the same table.
#[derive(Clone, Debug)]
pub struct ExactDistances {
    table: DistanceTable,
    goal: Board,
    /// `offset[label]`: the first canonical number given to that label.
    offset: [u8; MAX_CELLS + 1],
}

/// Lehmer rank of `board` after numbering each label's tiles from `offset[label]` in reading order.
fn rank_with(offset: &[u8; MAX_CELLS + 1], board: &Board) -> usize {
    let mut seen = [0u8; MAX_CELLS + 1];
    let mut perm = [0u8; MAX_CELLS];
    let n = board.len();
    for (i, &l) in board.cells().iter().enumerate() {
        perm[i] = offset[l as usize] + seen[l as usize];
        seen[l as usize] += 1;
    }
    let mut rank = 0;
    for i in 0..n {
        let smaller_after = perm[i + 1..n].iter().filter(|&&x| x < perm[i]).count();
        rank = rank * (n - i) + smaller_after;
    }
    rank
}

fn factorial(n: usize) -> usize {
    (1..=n).product()
}

impl ExactDistances {
    /// Builds the table by breadth-first search from `goal`; `None` if the board is too large.
    pub fn build(goal: &Board) -> Option<ExactDistances> {
        if goal.len() > MAX_EXACT_CELLS {
            return None;
        }
        let counts = goal.label_counts();
        let mut offset = [0u8; MAX_CELLS + 1];
        let mut next = 0u8;
        for label in 0..=MAX_CELLS {
            offset[label] = next;
            next += counts[label];
        }
        let size = factorial(goal.len());
        let table = DistanceTable::build(
            size,
            &[*goal],
            |b| rank_with(&offset, b),
            |b, out| {
                out.extend(Direction::ALL.into_iter().filter_map(|d| b.moved(d)));
            },
        );
        let exact = ExactDistances {
            table,
            goal: *goal,
            offset,
        };
        Some(exact)
    }

    /// The perfect hash of a position (Lehmer code of its canonical relabelling).
    pub fn rank(&self, board: &Board) -> usize {
        rank_with(&self.offset, board)
    }

    /// The position with this rank (inverse of [`ExactDistances::rank`]).
    pub fn unrank(&self, mut rank: usize) -> Board {
        let n = self.goal.len();
        let mut digits = vec![0usize; n];
        for i in (0..n).rev() {
            let base = n - i;
            digits[i] = rank % base;
            rank /= base;
        }
        let mut available: Vec<u8> = (0..n as u8).collect();
        let mut labels = Vec::with_capacity(n);
        let counts = self.goal.label_counts();
        for d in digits {
            let canonical = available.remove(d);
            let label = (0..=MAX_CELLS)
                .find(|&l| {
                    counts[l] > 0
                        && self.offset[l] <= canonical
                        && canonical < self.offset[l] + counts[l]
                })
                .unwrap_or(BLANK as usize);
            labels.push(label as u8);
        }
        Board::new(self.goal.rows(), self.goal.cols(), &labels).expect("unrank of a valid rank")
    }

    /// The optimal number of moves from `board` to the goal, `None` if unsolvable.
    pub fn distance(&self, board: &Board) -> Option<u32> {
        self.table.distance(self.rank(board)).map(u32::from)
    }

    /// Positions that can reach the goal (181,440 for the 8-puzzle).
    pub fn reachable(&self) -> usize {
        self.table.reachable()
    }

    /// The largest optimal distance (31 for the standard 8-puzzle).
    pub fn max_distance(&self) -> u32 {
        self.table.max_distance() as u32
    }

    /// Positions at each optimal distance.
    pub fn histogram(&self) -> Vec<usize> {
        self.table.histogram()
    }

    /// A uniformly random position at exactly `distance` moves from the goal (clamped to the maximum).
    pub fn random_at(&self, distance: u32, rng: &mut Rng) -> Board {
        let d = distance.min(self.max_distance()) as u8;
        let count = self.histogram()[d as usize];
        let rank = self
            .table
            .nth_rank_at(d, rng.below(count))
            .expect("histogram counts this distance");
        self.unrank(rank)
    }

    /// The goal of this table.
    pub fn goal(&self) -> &Board {
        &self.goal
    }
}

/// Why a solve cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// BFS on a board whose space is too large to enumerate.
    #[error("BFS is only offered for boards of at most {max} cells; this board has {cells}: use A* or IDA*")]
    TooLargeForBfs {
        /// Cells of the board.
        cells: usize,
        /// The most cells BFS is offered for.
        max: usize,
    },
    /// Pattern databases built for a different goal.
    #[error("these pattern databases were built for a different goal")]
    DatabasesForAnotherGoal,
    /// A weight weighted A* cannot use.
    #[error("the weight of weighted A* must be a number from 1 to {MAX_WEIGHT}, not {0}")]
    InvalidWeight(String),
}

/// How a solve ended (written in JSON as `solved`, `not-solved`, `unsolvable`,
/// `budget-exhausted` or `cancelled`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SolveStatus {
    /// The moves reach the goal.
    Solved,
    /// Moves found some other way (a learner's rollout) that do not reach the goal.
    NotSolved,
    /// The start cannot reach the goal (the permutation parity differs).
    Unsolvable,
    /// The node budget ran out first.
    BudgetExhausted,
    /// Stopped from outside (the page's Cancel).
    Cancelled,
}

impl SolveStatus {
    /// The name JSON and the page use.
    pub fn name(self) -> &'static str {
        match self {
            SolveStatus::Solved => "solved",
            SolveStatus::NotSolved => "not-solved",
            SolveStatus::Unsolvable => "unsolvable",
            SolveStatus::BudgetExhausted => "budget-exhausted",
            SolveStatus::Cancelled => "cancelled",
        }
    }
}

impl std::fmt::Display for SolveStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Compares with the JSON name, so that `report.status == "solved"` reads as it prints.
impl PartialEq<&str> for SolveStatus {
    fn eq(&self, name: &&str) -> bool {
        self.name() == *name
    }
}

/// What a finished solve reports (the CLI prints it as JSON; the page shows it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveReport {
    /// How the solve ended.
    pub status: SolveStatus,
    /// The blank's moves, in order.
    pub moves: Vec<Direction>,
    /// The label of the tile slid by each move.
    pub tiles: Vec<u8>,
    /// Number of moves.
    pub length: usize,
    /// Whether the solution is proven optimal: BFS, A* or IDA* (admissible heuristics), weighted
    /// A* with weight 1, or any solution whose length equals `lower_bound`.
    pub optimal: bool,
    /// A proven lower bound on the optimal number of moves: the heuristic's estimate of the start
    /// (0 when no heuristic was computed). `length - lower_bound` bounds how far from optimal a
    /// solution can be.
    pub lower_bound: u32,
    /// Weighted A*'s weight w (as rounded to thousandths): the solution has at most w × the
    /// optimal number of moves. `None` for the other algorithms.
    pub weight: Option<f64>,
    /// Nodes expanded.
    pub nodes: u64,
    /// The algorithm used (`bfs`, `astar`, `wastar`, `idastar`, `qlearning`).
    pub algorithm: &'static str,
    /// The heuristic used (`misplaced`, `manhattan`, `linear-conflict`, `pdb-6-6-3`,
    /// `pdb-5-5-5`); BFS uses none.
    pub heuristic: Option<&'static str>,
}

impl SolveReport {
    /// A report for moves found some other way (a learner's rollout), checked by replaying them.
    pub fn from_moves(
        start: &Board,
        moves: Vec<Direction>,
        goal: &Board,
        optimal: bool,
        algorithm: &'static str,
    ) -> SolveReport {
        let tiles = tiles_slid(start, &moves);
        let mut end = *start;
        let solved = end.apply(&moves).is_ok() && &end == goal;
        SolveReport {
            status: if solved {
                SolveStatus::Solved
            } else {
                SolveStatus::NotSolved
            },
            length: moves.len(),
            moves,
            tiles,
            optimal: solved && optimal,
            lower_bound: 0,
            weight: None,
            nodes: 0,
            algorithm,
            heuristic: None,
        }
    }
}

/// The labels slid by each blank move of `moves` from `start` (stops at the first wall).
pub fn tiles_slid(start: &Board, moves: &[Direction]) -> Vec<u8> {
    let mut board = *start;
    let mut tiles = Vec::with_capacity(moves.len());
    for &d in moves {
        match board.tile_moved_by(d) {
            Some(t) => {
                tiles.push(t);
                board.move_blank(d);
            }
            None => break,
        }
    }
    tiles
}

enum Running {
    Bfs(Bfs<SlidingSearch>),
    AStar(AStar<SlidingSearch>),
    IdaStar(IdaStar<SlidingSearch>),
    PatternDatabases(IdaStarInPlace<PdbSearch>),
    Unsolvable,
}

/// A solve in progress: any algorithm, resumable in chunks (the Web Worker runs it this way).
pub struct SlidingSolver {
    start: Board,
    algorithm: Algorithm,
    /// The heuristic's name (`manhattan`, ..., `pdb-6-6-3`); `None` for BFS.
    heuristic: Option<&'static str>,
    /// Weighted A*'s weight, as rounded (`None` for the other algorithms).
    weight: Option<f64>,
    /// The heuristic's estimate of the start: a lower bound on the optimum.
    lower_bound: u32,
    running: Running,
}

impl SlidingSolver {
    /// Prepares a solve of `start` towards the puzzle's goal. Unsolvable positions are recognised
    /// here, at once, without searching. Weighted A* runs with [`DEFAULT_WEIGHT`]; choose its
    /// weight with [`SlidingSolver::weighted`].
    pub fn new(
        puzzle: &SlidingPuzzle,
        start: Board,
        algorithm: Algorithm,
        heuristic: Heuristic,
        limits: Limits,
    ) -> Result<SlidingSolver, SolveError> {
        Self::prepare(puzzle, start, algorithm, heuristic, DEFAULT_WEIGHT, limits)
    }

    /// Prepares a weighted A* solve (f = g + `weight`·h): its solution has at most `weight` ×
    /// the optimal number of moves. `weight` is a number from 1 (plain A*) to [`MAX_WEIGHT`],
    /// rounded to thousandths.
    pub fn weighted(
        puzzle: &SlidingPuzzle,
        start: Board,
        heuristic: Heuristic,
        weight: f64,
        limits: Limits,
    ) -> Result<SlidingSolver, SolveError> {
        let algorithm = Algorithm::WeightedAStar;
        Self::prepare(puzzle, start, algorithm, heuristic, weight, limits)
    }

    fn prepare(
        puzzle: &SlidingPuzzle,
        start: Board,
        algorithm: Algorithm,
        heuristic: Heuristic,
        weight: f64,
        limits: Limits,
    ) -> Result<SlidingSolver, SolveError> {
        if algorithm == Algorithm::Bfs && start.len() > MAX_EXACT_CELLS {
            return Err(SolveError::TooLargeForBfs {
                cells: start.len(),
                max: MAX_EXACT_CELLS,
            });
        }
        // Rounded as the search rounds it, so that the report states the bound actually kept.
        let weight = (algorithm == Algorithm::WeightedAStar)
            .then(|| {
                weight_in_thousandths(weight)
                    .map(|thousandths| f64::from(thousandths) / 1000.0)
                    .ok_or_else(|| SolveError::InvalidWeight(weight.to_string()))
            })
            .transpose()?;
        let problem = SlidingSearch::new(start, puzzle.goal(), heuristic);
        let lower_bound = problem.heuristic(&start);
        let running = if !is_solvable(&start, puzzle.goal()) {
            Running::Unsolvable
        } else {
            match algorithm {
                Algorithm::Bfs => Running::Bfs(Bfs::new(problem, limits)),
                Algorithm::AStar => Running::AStar(AStar::new(problem, limits)),
                Algorithm::WeightedAStar => {
                    let weight = weight.unwrap_or(1.0);
                    Running::AStar(AStar::weighted(problem, limits, weight))
                }
                Algorithm::IdaStar => Running::IdaStar(IdaStar::new(problem, limits)),
            }
        };
        Ok(SlidingSolver {
            start,
            algorithm,
            heuristic: (algorithm != Algorithm::Bfs).then_some(heuristic.name()),
            weight,
            lower_bound,
            running,
        })
    }

    /// Prepares an IDA* solve guided by additive pattern databases (4×4 boards), built or loaded
    /// for this puzzle's goal. Unsolvable positions are recognised at once.
    pub fn with_pattern_databases(
        puzzle: &SlidingPuzzle,
        start: Board,
        databases: Rc<PdbHeuristic>,
        limits: Limits,
    ) -> Result<SlidingSolver, SolveError> {
        if databases.goal() != puzzle.goal() {
            return Err(SolveError::DatabasesForAnotherGoal);
        }
        let lower_bound = databases.estimate(&start);
        let heuristic = match databases.partition() {
            Partition::SixSixThree => "pdb-6-6-3",
            Partition::FiveFiveFive => "pdb-5-5-5",
        };
        let running = if is_solvable(&start, puzzle.goal()) {
            Running::PatternDatabases(IdaStarInPlace::new(
                PdbSearch::new(databases, start),
                limits,
            ))
        } else {
            Running::Unsolvable
        };
        Ok(SlidingSolver {
            start,
            algorithm: Algorithm::IdaStar,
            heuristic: Some(heuristic),
            weight: None,
            lower_bound,
            running,
        })
    }

    /// Nodes expanded so far.
    pub fn nodes(&self) -> u64 {
        match &self.running {
            Running::Bfs(s) => s.nodes_expanded(),
            Running::AStar(s) => s.nodes_expanded(),
            Running::IdaStar(s) => s.nodes_expanded(),
            Running::PatternDatabases(s) => s.nodes_expanded(),
            Running::Unsolvable => 0,
        }
    }

    /// Expands up to `chunk` more nodes; the report once finished.
    pub fn run(&mut self, chunk: u64) -> Option<SolveReport> {
        let outcome = match &mut self.running {
            Running::Bfs(s) => s.run(chunk)?,
            Running::AStar(s) => s.run(chunk)?,
            Running::IdaStar(s) => s.run(chunk)?,
            Running::PatternDatabases(s) => s.run(chunk)?,
            Running::Unsolvable => Outcome::NoSolution,
        };
        Some(self.report(outcome))
    }

    /// Runs to the end, calling `keep_going(nodes)` every `chunk` nodes (return false to cancel).
    pub fn run_to_end(
        &mut self,
        chunk: u64,
        mut keep_going: impl FnMut(u64) -> bool,
    ) -> SolveReport {
        loop {
            if let Some(report) = self.run(chunk) {
                return report;
            }
            if !keep_going(self.nodes()) {
                return self.report(Outcome::Cancelled);
            }
        }
    }

    fn report(&self, outcome: Outcome<Direction>) -> SolveReport {
        let (status, moves) = match outcome {
            Outcome::Solved(solution) => (SolveStatus::Solved, solution.actions),
            Outcome::NoSolution => (SolveStatus::Unsolvable, Vec::new()),
            Outcome::BudgetExhausted => (SolveStatus::BudgetExhausted, Vec::new()),
            Outcome::Cancelled => (SolveStatus::Cancelled, Vec::new()),
        };
        // Weighted A* proves optimality only at weight 1, or when it meets the lower bound.
        let proven =
            self.weight.is_none_or(|w| w == 1.0) || moves.len() == self.lower_bound as usize;
        SolveReport {
            status,
            tiles: tiles_slid(&self.start, &moves),
            length: moves.len(),
            moves,
            optimal: status == SolveStatus::Solved && proven,
            lower_bound: self.lower_bound,
            weight: self.weight,
            nodes: self.nodes(),
            algorithm: self.algorithm.name(),
            heuristic: self.heuristic,
        }
    }
}

/// A position exactly `distance` optimal moves from the goal, found without the exact-distance
/// table (which a first position need not wait for: building it searches every position, 181,440
/// on the 8-puzzle): a walk of `distance` moves back from the goal, never undoing one
/// ([`SlidingPuzzle::walk`]), kept when A* with linear conflict (admissible, so its length is the
/// optimum) finds no shorter way back. The position is not drawn uniformly among those at that
/// distance, as [`ExactDistances::random_at`]'s is. `None` after `tries` walks that all came back
/// closer (a distance near the board's largest, or beyond it), or when a check outgrows
/// `max_nodes` (a large board).
pub fn checked_walk(
    puzzle: &SlidingPuzzle,
    distance: u32,
    tries: usize,
    max_nodes: u64,
    rng: &mut Rng,
) -> Option<Board> {
    (0..tries).find_map(|_| {
        let board = puzzle.walk(distance as usize, rng);
        let limits = Limits { max_nodes };
        let mut solver = SlidingSolver::new(
            puzzle,
            board,
            Algorithm::AStar,
            Heuristic::LinearConflict,
            limits,
        )
        .ok()?;
        let report = solver.run_to_end(u64::MAX, |_| true);
        (report.optimal && report.length == distance as usize).then_some(board)
    })
}

/// The most cells a board may have for tabular Q-learning (its table grows with the space).
pub const MAX_Q_LEARNING_CELLS: usize = MAX_EXACT_CELLS;

/// Why Q-learning cannot start on a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QLearningError {
    /// The board is too large for a table.
    #[error("Q-learning is offered for boards of at most {max} cells (2×2, 2×3, 3×3, sun/moon); this board has {cells}")]
    TooLarge {
        /// Cells of the board.
        cells: usize,
        /// The most cells offered.
        max: usize,
    },
    /// The start cannot reach the goal.
    #[error("this start cannot reach the goal: Q-learning would never finish an episode")]
    Unsolvable,
}

/// The sun/moon README's tabular Q-learning on one fixed start of a small sliding puzzle, with the exact
/// optimum known (so the report can say whether the learned path is optimal).
pub struct SlidingQLearning {
    learner: crate::agent::q_table::QLearning<super::SlidingEnv>,
    start: Board,
    goal: Board,
    optimal_length: u32,
}

/// What [`SlidingQLearning::report`] says: the greedy solution and how it compares with the optimum.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QLearningReport {
    /// The greedy rollout as a solve report.
    #[serde(flatten)]
    pub solve: SolveReport,
    /// The optimal number of moves (exact table).
    pub optimal_length: u32,
    /// Episodes trained.
    pub episodes: usize,
    /// States in the Q-table.
    pub states: usize,
}

impl SlidingQLearning {
    /// Prepares Q-learning from `start` with the sun/moon README's rewards and `config`.
    pub fn new(
        puzzle: &SlidingPuzzle,
        start: Board,
        config: crate::agent::q_table::QLearningConfig,
    ) -> Result<SlidingQLearning, QLearningError> {
        if start.len() > MAX_Q_LEARNING_CELLS {
            return Err(QLearningError::TooLarge {
                cells: start.len(),
                max: MAX_Q_LEARNING_CELLS,
            });
        }
        let exact = ExactDistances::build(puzzle.goal()).expect("small board");
        let optimal_length = exact.distance(&start).ok_or(QLearningError::Unsolvable)?;
        let env = super::SlidingEnv::new(
            puzzle.clone(),
            super::StartRule::Fixed(start),
            super::RewardScheme::StepCostGoalBonus,
        );
        Ok(SlidingQLearning {
            learner: crate::agent::q_table::QLearning::new(env, config),
            start,
            goal: *puzzle.goal(),
            optimal_length,
        })
    }

    /// Trains up to `episodes` more episodes; true once all configured episodes are done.
    pub fn train(&mut self, episodes: usize) -> bool {
        self.learner.train_episodes(episodes);
        self.learner.finished()
    }

    /// Episodes trained so far.
    pub fn episodes_done(&self) -> usize {
        self.learner.episodes_done()
    }

    /// The learner itself.
    pub fn learner(&self) -> &crate::agent::q_table::QLearning<super::SlidingEnv> {
        &self.learner
    }

    /// The greedy rollout of the table so far, as a report.
    pub fn report(&mut self) -> QLearningReport {
        let rollout = self.learner.greedy_rollout(0, 1000);
        let moves: Vec<Direction> = rollout.actions.iter().map(|&a| Direction::ALL[a]).collect();
        let optimal = moves.len() as u32 == self.optimal_length;
        let mut solve =
            SolveReport::from_moves(&self.start, moves, &self.goal, optimal, "qlearning");
        solve.lower_bound = self.optimal_length;
        QLearningReport {
            solve,
            optimal_length: self.optimal_length,
            episodes: self.learner.episodes_done(),
            states: self.learner.states(),
        }
    }
}
