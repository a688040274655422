//! Admissible distance estimates for sliding puzzles, correct with repeated labels too.
//!
//! - Misplaced tiles: tiles not on a cell of the goal that carries their label. Each must move.
//! - Manhattan: each tile's taxicab distance to its goal cell. When a label repeats, its tiles
//!   may end on any of that label's goal cells, so the sum for that label is a minimum-cost
//!   assignment (Hungarian method) of tiles to those cells: still a lower bound, and exact per label.
//! - Linear conflicts (Hansson, Mayer & Yung 1992): two tiles in their goal row (or column) in
//!   reversed order need two extra moves beyond Manhattan. Per line we count the tiles outside a
//!   longest increasing subsequence of goal positions: they must all leave the line and come
//!   back. Only tiles with a unique label take part (a repeated label has no fixed goal cell).

use super::{Board, BLANK, MAX_CELLS};
use serde::Serialize;

/// Which estimate a search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Heuristic {
    /// Number of tiles not on a goal cell of their label.
    Misplaced,
    /// Sum of taxicab distances to the goal (matched per label when labels repeat).
    Manhattan,
    /// Manhattan plus two moves per tile that must leave its goal row or column.
    LinearConflict,
}

impl Heuristic {
    /// All heuristics, weakest first.
    pub const ALL: [Heuristic; 3] = [
        Heuristic::Misplaced,
        Heuristic::Manhattan,
        Heuristic::LinearConflict,
    ];

    /// The name used by the CLI and the page.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Misplaced => "misplaced",
            Heuristic::Manhattan => "manhattan",
            Heuristic::LinearConflict => "linear-conflict",
        }
    }

    /// Parses a name as written by [`Heuristic::name`] (also `lc`, `md`, `hamming`).
    pub fn from_name(name: &str) -> Option<Heuristic> {
        match name.trim().to_ascii_lowercase().as_str() {
            "misplaced" | "hamming" | "misplaced-tiles" => Some(Heuristic::Misplaced),
            "manhattan" | "md" => Some(Heuristic::Manhattan),
            "linear-conflict" | "linear-conflicts" | "lc" | "manhattan+lc" => {
                Some(Heuristic::LinearConflict)
            }
            _ => None,
        }
    }
}

/// Tables derived once from a goal, so that estimates are a few lookups per tile.
#[derive(Clone, Debug)]
pub struct HeuristicTables {
    goal: Board,
    rows: usize,
    cols: usize,
    /// `unique_goal_cell[label]`: the goal cell of a label that occurs once, else `u8::MAX`.
    unique_goal_cell: [u8; MAX_CELLS + 1],
    /// Labels that occur more than once, with their goal cells.
    repeated: Vec<(u8, Vec<u8>)>,
}

impl HeuristicTables {
    /// Tables for reaching `goal`.
    pub fn new(goal: &Board) -> HeuristicTables {
        let counts = goal.label_counts();
        let mut unique_goal_cell = [u8::MAX; MAX_CELLS + 1];
        let mut repeated: Vec<(u8, Vec<u8>)> = Vec::new();
        for (cell, &label) in goal.cells().iter().enumerate() {
            if label == BLANK {
                continue;
            }
            if counts[label as usize] == 1 {
                unique_goal_cell[label as usize] = cell as u8;
            } else {
                match repeated.iter_mut().find(|(l, _)| *l == label) {
                    Some((_, cells)) => cells.push(cell as u8),
                    None => repeated.push((label, vec![cell as u8])),
                }
            }
        }
        HeuristicTables {
            goal: *goal,
            rows: goal.rows(),
            cols: goal.cols(),
            unique_goal_cell,
            repeated,
        }
    }

    /// The goal these tables were built for.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    fn distance(&self, a: usize, b: usize) -> u32 {
        ((a / self.cols).abs_diff(b / self.cols) + (a % self.cols).abs_diff(b % self.cols)) as u32
    }

    /// The estimate `heuristic` gives for `board` (a lower bound on its moves to the goal).
    pub fn estimate(&self, board: &Board, heuristic: Heuristic) -> u32 {
        match heuristic {
            Heuristic::Misplaced => self.misplaced(board),
            Heuristic::Manhattan => self.manhattan(board),
            Heuristic::LinearConflict => self.manhattan(board) + self.linear_conflicts(board),
        }
    }

    /// Tiles not on a goal cell of their own label.
    pub fn misplaced(&self, board: &Board) -> u32 {
        let goal = self.goal.cells();
        board
            .cells()
            .iter()
            .zip(goal)
            .filter(|(&b, &g)| b != BLANK && b != g)
            .count() as u32
    }

    /// Sum of taxicab distances (minimum-cost matching for repeated labels).
    pub fn manhattan(&self, board: &Board) -> u32 {
        let mut total = 0;
        for (cell, &label) in board.cells().iter().enumerate() {
            let goal_cell = self.unique_goal_cell[label as usize];
            if label != BLANK && goal_cell != u8::MAX {
                total += self.distance(cell, goal_cell as usize);
            }
        }
        for (label, goal_cells) in &self.repeated {
            let cells: Vec<usize> = board
                .cells()
                .iter()
                .enumerate()
                .filter(|(_, &l)| l == *label)
                .map(|(i, _)| i)
                .collect();
            let cost: Vec<Vec<u32>> = cells
                .iter()
                .map(|&c| {
                    goal_cells
                        .iter()
                        .map(|&g| self.distance(c, g as usize))
                        .collect()
                })
                .collect();
            total += min_cost_assignment(&cost);
        }
        total
    }

    /// The linear-conflict addition alone: 2 × (tiles that must leave their goal row or column).
    pub fn linear_conflicts(&self, board: &Board) -> u32 {
        let (rows, cols) = (self.rows, self.cols);
        let mut extra = 0;
        let mut line = [0u8; 5];
        for r in 0..rows {
            let mut n = 0;
            for c in 0..cols {
                let g = self.unique_goal_cell[board.cells()[r * cols + c] as usize];
                if g != u8::MAX && g as usize / cols == r {
                    line[n] = g % cols as u8;
                    n += 1;
                }
            }
            extra += n - longest_increasing(&line[..n]);
        }
        for c in 0..cols {
            let mut n = 0;
            for r in 0..rows {
                let g = self.unique_goal_cell[board.cells()[r * cols + c] as usize];
                if g != u8::MAX && g as usize % cols == c {
                    line[n] = g / cols as u8;
                    n += 1;
                }
            }
            extra += n - longest_increasing(&line[..n]);
        }
        2 * extra as u32
    }
}

/// Length of a longest strictly increasing subsequence (lines have at most 5 entries).
fn longest_increasing(values: &[u8]) -> usize {
    let mut best = [0usize; 5];
    let mut longest = 0;
    for i in 0..values.len() {
        best[i] = 1
            + (0..i)
                .filter(|&j| values[j] < values[i])
                .map(|j| best[j])
                .max()
                .unwrap_or(0);
        longest = longest.max(best[i]);
    }
    longest
}

/// Minimum total cost of assigning rows to distinct columns of a square matrix (Hungarian method,
/// O(n³)); `0` for an empty matrix.
pub fn min_cost_assignment(cost: &[Vec<u32>]) -> u32 {
    let n = cost.len();
    if n == 0 {
        return 0;
    }
    let inf = i64::MAX / 4;
    // Potentials u (rows), v (columns); p[j] = row matched to column j (1-based, 0 = none).
    let mut u = vec![0i64; n + 1];
    let mut v = vec![0i64; n + 1];
    let mut p = vec![0usize; n + 1];
    let mut way = vec![0usize; n + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        let mut min_v = vec![inf; n + 1];
        let mut used = vec![false; n + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0;
            for j in 1..=n {
                if !used[j] {
                    let current = cost[i0 - 1][j - 1] as i64 - u[i0] - v[j];
                    if current < min_v[j] {
                        min_v[j] = current;
                        way[j] = j0;
                    }
                    if min_v[j] < delta {
                        delta = min_v[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    min_v[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    (1..=n).map(|j| cost[p[j] - 1][j - 1]).sum()
}
