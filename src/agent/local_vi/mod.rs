//! Local value iteration for sliding puzzles: tile by tile, as Mehta's RL paper (2020, §3.2.1)
//! solves the 15-puzzle after Bischoff, Nguyen-Tuong, Markert & Knoll, "Solving the 15-Puzzle Game
//! Using Local Value-Iteration" (2013), and as people do (Pizlo & Li 2005).
//!
//! A *sub-problem* (G, R) brings the tiles G to their goal cells without ever moving the tiles R,
//! which already sit on theirs. Its state is only where the tiles of G and the blank are among the
//! cells R leaves free; every other tile is anonymous. That space is small (one tile and the blank
//! on 4×4: at most 16·15 = 240 states), so instead of sampling it as the paper does, this learner
//! *sweeps* it: value iteration with unit costs run to convergence, which is breadth-first search
//! back from the sub-problem's goal states. The solver then walks down the distances.
//!
//! Tiles are placed in the goal's reading order (1, 2, … on the standard goal). The sub-problem of
//! the k-th tile is G = {k-th}, R = the tiles before it. **The rule for the hard cases** (the
//! paper's): when the position cannot be solved within a sub-problem (the last tile of a row is
//! boxed into its corner, a tile is caught in a dead end), the highest tile of R moves into G, and
//! again, until the sub-problem can be solved. When at most [`LocalViConfig::exact_remainder`]
//! cells are left, the last sub-problem takes every remaining tile at once (the 2×3 of the
//! 8-puzzle, the last six cells of the 15-puzzle), so that it is solved exactly.
//!
//! [`LocalValueIteration::build`] builds every table a solvable position can need (the base
//! sub-problems and, for every state one of them cannot solve, the enlarged one), so that every
//! solvable position is solved. [`sampled`] learns the same sub-problems by the paper's sampled
//! tabular Q-learning instead.

pub mod sampled;

use crate::env::sliding::solve::{SolveReport, SolveStatus};
use crate::env::sliding::{
    is_solvable, Board, Direction, Heuristic, HeuristicTables, SlidingPuzzle, BLANK, MAX_CELLS,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// A distance a sub-problem's goal cannot be reached from.
const UNREACHABLE: u8 = u8::MAX;
/// A cell that is not free in a sub-problem (a placed tile of R sits there).
const NOT_FREE: u8 = u8::MAX;

/// Choices of the local value iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocalViConfig {
    /// When at most this many cells are left to fill, the last sub-problem takes all remaining
    /// tiles at once (6: the 8-puzzle's last two rows, the 15-puzzle's last six cells).
    pub exact_remainder: usize,
    /// The most states one sub-problem's table may have (a guard; the 5×5 needs about 3.6 M).
    pub max_table_states: usize,
}

impl Default for LocalViConfig {
    fn default() -> Self {
        LocalViConfig {
            exact_remainder: 6,
            max_table_states: 20_000_000,
        }
    }
}

/// Why the learner cannot be built or cannot solve a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LocalViError {
    /// Local value iteration places numbered tiles towards a goal with the blank last.
    #[error(
        "local value iteration needs a numbered puzzle whose goal has the blank in the last cell"
    )]
    UnsupportedGoal,
    /// A sub-problem would need a larger table than allowed.
    #[error("sub-problem {tiles:?} would need {states} states (more than {max})")]
    TooLarge {
        /// The tiles of G.
        tiles: Vec<u8>,
        /// States its table would have.
        states: usize,
        /// The configured maximum.
        max: usize,
    },
    /// The position cannot reach the goal.
    #[error("this position cannot reach the goal")]
    Unsolvable,
}

/// A sub-problem: R = the first `placed` tiles of the order, G = the tiles `placed..through`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct SubProblem {
    /// How many tiles (in placement order) stay fixed: R.
    pub placed: usize,
    /// How many tiles are placed once it is solved: G is `placed..through`.
    pub through: usize,
}

/// One sub-problem's exact distances over its states.
///
/// A state is where each tile of G and the blank sit among the free cells ("slots"); it is ranked
/// as a partial permutation of the slots, so the table has m!/(m−k−1)! entries for m free cells
/// and k tiles.
#[derive(Clone, Debug)]
pub struct SubTable {
    /// Columns of the board.
    cols: usize,
    /// The board cell of each slot.
    cells: Vec<u8>,
    /// The slot of each board cell, or [`NOT_FREE`].
    slot_of: [u8; MAX_CELLS],
    /// For each slot, its neighbouring slot in each [`Direction`] (or [`NOT_FREE`]).
    neighbours: Vec<[u8; 4]>,
    /// The labels of G.
    tiles: Vec<u8>,
    /// The goal slot of each tile of G.
    targets: Vec<u8>,
    /// The distance of every state to the sub-problem's goal, [`UNREACHABLE`] where it has none.
    distance: Vec<u8>,
}

/// Slots of G's tiles, then the blank's.
type Slots = [u8; MAX_CELLS];

impl SubTable {
    /// The sweep: breadth-first search back from every goal state (G in place, the blank on any
    /// other free cell) over the moves that never touch R. Moves are reversible, so this is the
    /// fixed point of value iteration with a cost of 1 a move.
    fn build(goal: &Board, fixed: &[u8], tiles: &[u8], max: usize) -> Result<Self, LocalViError> {
        let (rows, cols) = (goal.rows(), goal.cols());
        let fixed_cells: Vec<usize> = fixed.iter().map(|&t| goal_cell(goal, t)).collect();
        let cells: Vec<u8> = (0..goal.len())
            .filter(|c| !fixed_cells.contains(c))
            .map(|c| c as u8)
            .collect();
        let mut slot_of = [NOT_FREE; MAX_CELLS];
        for (s, &c) in cells.iter().enumerate() {
            slot_of[c as usize] = s as u8;
        }
        let neighbours = cells
            .iter()
            .map(|&c| {
                let (r, col) = (c as usize / cols, c as usize % cols);
                let step = |ok: bool, to: usize| if ok { slot_of[to] } else { NOT_FREE };
                let c = c as usize;
                [
                    step(r > 0, c.wrapping_sub(cols)),
                    step(r + 1 < rows, c + cols),
                    step(col > 0, c.wrapping_sub(1)),
                    step(col + 1 < cols, c + 1),
                ]
            })
            .collect();
        let targets = tiles.iter().map(|&t| slot_of[goal_cell(goal, t)]).collect();
        let states = partial_permutations(cells.len(), tiles.len() + 1);
        if states > max {
            return Err(LocalViError::TooLarge {
                tiles: tiles.to_vec(),
                states,
                max,
            });
        }
        let mut table = SubTable {
            cols,
            cells,
            slot_of,
            neighbours,
            tiles: tiles.to_vec(),
            targets,
            distance: vec![UNREACHABLE; states],
        };
        table.sweep();
        Ok(table)
    }

    fn sweep(&mut self) {
        let k = self.tiles.len();
        let mut frontier = Vec::new();
        let mut slots: Slots = [0; MAX_CELLS];
        slots[..k].copy_from_slice(&self.targets);
        for blank in 0..self.cells.len() as u8 {
            if !self.targets.contains(&blank) {
                slots[k] = blank;
                let rank = self.rank(&slots);
                self.distance[rank] = 0;
                frontier.push(rank as u32);
            }
        }
        let mut depth = 0u8;
        let mut next = Vec::new();
        while !frontier.is_empty() {
            depth += 1;
            assert!(depth < UNREACHABLE, "sub-problem distances fit in a byte");
            for &rank in &frontier {
                self.unrank(rank as usize, &mut slots);
                for d in 0..4 {
                    if let Some(after) = self.step(&slots, d) {
                        let r = self.rank(&after);
                        if self.distance[r] == UNREACHABLE {
                            self.distance[r] = depth;
                            next.push(r as u32);
                        }
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
    }

    /// The state after the blank moves in direction `d` (an index of [`Direction::ALL`]), or
    /// `None` at a wall or a tile of R.
    fn step(&self, slots: &Slots, d: usize) -> Option<Slots> {
        let k = self.tiles.len();
        let to = self.neighbours[slots[k] as usize][d];
        if to == NOT_FREE {
            return None;
        }
        let mut after = *slots;
        if let Some(t) = after[..k].iter().position(|&s| s == to) {
            after[t] = slots[k];
        }
        after[k] = to;
        Some(after)
    }

    /// Rank of a partial permutation: slot of tile 0, of tile 1, …, of the blank.
    fn rank(&self, slots: &Slots) -> usize {
        let m = self.cells.len();
        let objects = self.tiles.len() + 1;
        let mut rank = 0;
        for i in 0..objects {
            let below = slots[..i].iter().filter(|&&s| s < slots[i]).count();
            rank = rank * (m - i) + slots[i] as usize - below;
        }
        rank
    }

    fn unrank(&self, mut rank: usize, slots: &mut Slots) {
        let m = self.cells.len();
        let objects = self.tiles.len() + 1;
        let mut digits = [0usize; MAX_CELLS];
        for i in (0..objects).rev() {
            digits[i] = rank % (m - i);
            rank /= m - i;
        }
        let mut used = [false; MAX_CELLS];
        for i in 0..objects {
            let slot = (0..m)
                .filter(|&s| !used[s])
                .nth(digits[i])
                .expect("a digit below the slots left");
            used[slot] = true;
            slots[i] = slot as u8;
        }
    }

    /// The state of `board` in this sub-problem (its tiles of R are assumed in place).
    fn state_of(&self, board: &Board) -> Slots {
        let mut slots: Slots = [0; MAX_CELLS];
        for (i, &label) in board.cells().iter().enumerate() {
            if label == BLANK {
                slots[self.tiles.len()] = self.slot_of[i];
            } else if let Some(t) = self.tiles.iter().position(|&x| x == label) {
                slots[t] = self.slot_of[i];
            }
        }
        slots
    }

    /// The distance of `board` to this sub-problem's goal, `None` when it cannot get there.
    pub fn distance(&self, board: &Board) -> Option<u32> {
        let d = self.distance[self.rank(&self.state_of(board))];
        (d != UNREACHABLE).then_some(u32::from(d))
    }

    /// The first move (in [`Direction::ALL`] order) one step closer to the goal.
    fn best_move(&self, board: &Board) -> Option<Direction> {
        let slots = self.state_of(board);
        let here = self.distance[self.rank(&slots)];
        (0..4)
            .find(|&d| {
                self.step(&slots, d)
                    .is_some_and(|after| self.distance[self.rank(&after)] < here)
            })
            .map(|d| Direction::ALL[d])
    }

    /// States in the table.
    pub fn states(&self) -> usize {
        self.distance.len()
    }

    /// States from which the goal can be reached.
    pub fn solvable_states(&self) -> usize {
        self.distance.iter().filter(|&&d| d != UNREACHABLE).count()
    }

    /// The labels of G.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// Whether the tiles of G stand on their goal cells in `board`.
    fn solved(&self, board: &Board) -> bool {
        self.tiles
            .iter()
            .zip(&self.targets)
            .all(|(&t, &s)| board.cells()[self.cells[s as usize] as usize] == t)
    }

    /// Whether an unreachable state can arise from a solvable position (R in place, the anonymous
    /// tiles anywhere): with two anonymous tiles or more their order fixes the parity.
    fn can_arise(&self, goal: &Board, fixed: &[u8], slots: &Slots) -> bool {
        let k = self.tiles.len();
        let anonymous: Vec<u8> = (1..goal.len() as u8)
            .filter(|t| !fixed.contains(t) && !self.tiles.contains(t))
            .collect();
        if anonymous.len() >= 2 {
            return true;
        }
        let mut labels = goal.cells().to_vec();
        let mut spare = anonymous.iter();
        for s in 0..self.cells.len() as u8 {
            let cell = self.cells[s as usize] as usize;
            labels[cell] = match slots[..=k].iter().position(|&x| x == s) {
                Some(t) if t < k => self.tiles[t],
                Some(_) => BLANK,
                None => *spare.next().expect("one spare tile per empty slot"),
            };
        }
        let board = Board::new(goal.rows(), goal.cols(), &labels).expect("a permutation");
        is_solvable(&board, goal)
    }
}

/// m!/(m−k)!: ways to put k distinct objects on m cells.
fn partial_permutations(m: usize, k: usize) -> usize {
    (m + 1 - k..=m).product()
}

fn goal_cell(goal: &Board, tile: u8) -> usize {
    goal.cells()
        .iter()
        .position(|&l| l == tile)
        .expect("every tile has a goal cell")
}

/// How big the tables are and how long they took.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableStats {
    /// Sub-problem tables built.
    pub tables: usize,
    /// States over all tables (one byte each).
    pub states: usize,
    /// The largest table's states.
    pub largest: usize,
    /// The tiles of G of the largest table.
    pub largest_tiles: Vec<u8>,
    /// Tables whose G was enlarged by the rule.
    pub enlarged: usize,
    /// Milliseconds to build them all.
    pub build_ms: f64,
}

/// One sub-problem as a solve went through it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stage {
    /// The tiles placed in it (G).
    pub tiles: Vec<u8>,
    /// Tiles in place once it is done (its last tile's place in the order; on the standard goal
    /// its highest label).
    pub through: usize,
    /// Moves it took.
    pub moves: usize,
    /// Whether G was enlarged by the rule (the base sub-problem could not be solved).
    pub enlarged: bool,
}

/// A solution: the moves and the sub-problems they went through.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LocalViSolution {
    /// The blank's moves.
    pub moves: Vec<Direction>,
    /// The sub-problems, in order.
    pub stages: Vec<Stage>,
}

impl LocalViSolution {
    /// Whether every stage kept to the sub-episode limits: the sub-episode ending with the i-th
    /// tile within i² moves, the game within `rows·cols`² (256 on 4×4), the limits of Mehta's RL
    /// paper's sampled version (section 3.2.1).
    pub fn within_sub_episode_limits(&self, cells: usize) -> bool {
        self.moves.len() <= cells * cells
            && self.stages.iter().all(|s| s.moves <= s.through * s.through)
    }
}

/// What a solve by local value iteration reports (`puzzlelab sliding solve --algo local-vi` prints it, the
/// page's worker sends it): the solve report, the sub-problems it went through and the tables.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LocalViReport {
    /// Moves, tiles slid, length, and Manhattan + linear conflicts of the start as `lower_bound`
    /// (`optimal` when the length meets it); status `unsolvable` when the start cannot reach
    /// the goal.
    #[serde(flatten)]
    pub solve: SolveReport,
    /// The sub-problems, in order (none for an unsolvable start).
    pub stages: Vec<Stage>,
    /// The tables' sizes and build time.
    pub tables: TableStats,
}

/// The learner: every sub-problem table of a puzzle, swept exactly.
#[derive(Clone, Debug)]
pub struct LocalValueIteration {
    goal: Board,
    /// The tiles in placement order (the goal's reading order).
    order: Vec<u8>,
    config: LocalViConfig,
    tables: BTreeMap<SubProblem, SubTable>,
    stats: TableStats,
}

impl LocalValueIteration {
    /// Builds every table a solvable position of `puzzle` can need.
    pub fn build(
        puzzle: &SlidingPuzzle,
        config: LocalViConfig,
    ) -> Result<LocalValueIteration, LocalViError> {
        let goal = *puzzle.goal();
        let n = goal.len();
        let numbered = (1..n as u8).all(|t| goal.cells()[t as usize - 1] == t);
        if !numbered || goal.blank() != n - 1 {
            return Err(LocalViError::UnsupportedGoal);
        }
        let started = crate::clock::seconds();
        let mut learner = LocalValueIteration {
            goal,
            order: goal.cells()[..n - 1].to_vec(),
            config,
            tables: BTreeMap::new(),
            stats: TableStats {
                tables: 0,
                states: 0,
                largest: 0,
                largest_tiles: Vec::new(),
                enlarged: 0,
                build_ms: 0.0,
            },
        };
        let mut placed = 0;
        while placed < learner.order.len() {
            let base = learner.base(placed);
            learner.close(base)?;
            placed = base.through;
        }
        let enlarged = learner
            .tables
            .keys()
            .filter(|k| *k != &learner.base(k.placed))
            .count();
        let stats = &mut learner.stats;
        stats.tables = learner.tables.len();
        stats.states = learner.tables.values().map(SubTable::states).sum();
        if let Some((key, largest)) = learner.tables.iter().max_by_key(|(_, t)| t.states()) {
            stats.largest = largest.states();
            stats.largest_tiles = learner.order[key.placed..key.through].to_vec();
        }
        stats.enlarged = enlarged;
        stats.build_ms = ((crate::clock::seconds() - started) * 1e6).round() / 1000.0;
        Ok(learner)
    }

    /// The sub-problem that starts once `placed` tiles are in place: the next tile, or all the
    /// rest when few cells remain.
    pub fn base(&self, placed: usize) -> SubProblem {
        let left = self.goal.len() - placed;
        let through = if left <= self.config.exact_remainder {
            self.order.len()
        } else {
            placed + 1
        };
        SubProblem { placed, through }
    }

    /// Builds `sub` and, while it has states that a solvable position can reach but it cannot
    /// solve, the sub-problem with the highest tile of R moved into G.
    fn close(&mut self, mut sub: SubProblem) -> Result<(), LocalViError> {
        loop {
            if !self.tables.contains_key(&sub) {
                let table = SubTable::build(
                    &self.goal,
                    &self.order[..sub.placed],
                    &self.order[sub.placed..sub.through],
                    self.config.max_table_states,
                )?;
                self.tables.insert(sub, table);
            }
            if sub.placed == 0 || !self.needs_enlarging(sub) {
                return Ok(());
            }
            sub.placed -= 1;
        }
    }

    fn needs_enlarging(&self, sub: SubProblem) -> bool {
        let table = &self.tables[&sub];
        let fixed = &self.order[..sub.placed];
        let mut slots: Slots = [0; MAX_CELLS];
        (0..table.states()).any(|rank| {
            table.distance[rank] == UNREACHABLE && {
                table.unrank(rank, &mut slots);
                table.can_arise(&self.goal, fixed, &slots)
            }
        })
    }

    /// The sub-problem `board` is solved in once `placed` tiles are in place: the base one, or
    /// by the rule, enlarged until `board` can be solved in it.
    pub fn sub_problem_for(&self, board: &Board, placed: usize) -> Option<(SubProblem, &SubTable)> {
        let mut sub = self.base(placed);
        loop {
            let table = self.tables.get(&sub)?;
            if table.distance(board).is_some() {
                return Some((sub, table));
            }
            sub.placed = sub.placed.checked_sub(1)?;
        }
    }

    /// Solves `board`: sub-problem after sub-problem, each along its exact distances.
    pub fn solve(&self, board: &Board) -> Result<LocalViSolution, LocalViError> {
        if !is_solvable(board, &self.goal) {
            return Err(LocalViError::Unsolvable);
        }
        let mut board = *board;
        let mut solution = LocalViSolution {
            moves: Vec::new(),
            stages: Vec::new(),
        };
        let mut placed = 0;
        while placed < self.order.len() {
            let (sub, table) = self
                .sub_problem_for(&board, placed)
                .ok_or(LocalViError::Unsolvable)?;
            let before = solution.moves.len();
            while !table.solved(&board) {
                let d = table
                    .best_move(&board)
                    .expect("a reachable state has a way down");
                board.move_blank(d);
                solution.moves.push(d);
            }
            solution.stages.push(Stage {
                tiles: table.tiles().to_vec(),
                through: sub.through,
                moves: solution.moves.len() - before,
                enlarged: sub != self.base(placed),
            });
            placed = sub.through;
        }
        debug_assert_eq!(board, self.goal);
        Ok(solution)
    }

    /// Solves `start` and reports it with its stages and the tables (see [`LocalViReport`]).
    pub fn report(&self, start: &Board) -> LocalViReport {
        let mut report = LocalViReport {
            solve: SolveReport::from_moves(start, Vec::new(), &self.goal, false, "local-vi"),
            stages: Vec::new(),
            tables: self.stats.clone(),
        };
        let Ok(solution) = self.solve(start) else {
            report.solve.status = SolveStatus::Unsolvable;
            return report;
        };
        // Manhattan + 2 per linear conflict bounds the optimum: a solution that meets it is optimal.
        let lower_bound =
            HeuristicTables::new(&self.goal).estimate(start, Heuristic::LinearConflict);
        let optimal = solution.moves.len() == lower_bound as usize;
        report.solve =
            SolveReport::from_moves(start, solution.moves, &self.goal, optimal, "local-vi");
        report.solve.lower_bound = lower_bound;
        report.stages = solution.stages;
        report
    }

    /// The table of a sub-problem, if built.
    pub fn table(&self, sub: SubProblem) -> Option<&SubTable> {
        self.tables.get(&sub)
    }

    /// Every table, by sub-problem.
    pub fn tables(&self) -> impl Iterator<Item = (&SubProblem, &SubTable)> {
        self.tables.iter()
    }

    /// The tiles in placement order.
    pub fn order(&self) -> &[u8] {
        &self.order
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// Sizes and build time of the tables.
    pub fn stats(&self) -> &TableStats {
        &self.stats
    }
}

#[cfg(test)]
mod tests;
