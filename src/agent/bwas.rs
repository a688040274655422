//! Batch-weighted A* (BWAS), DeepCubeA's search (Agostinelli, McAleer, Shmakov & Baldi 2019,
//! "Solving the Rubik's cube with deep reinforcement learning and search"), for sliding puzzles,
//! over any heuristic that values a batch of boards in one call (a network's forward pass).
//!
//! Each iteration takes the `batch` open nodes of lowest f = λ·g + h from the open list, expands
//! them, and values all their new children with one call of the heuristic. λ = 1 with a batch of
//! one is A*; λ < 1 trusts the heuristic more (fewer nodes, longer solutions); a larger batch
//! expands a few nodes A* would not, for far fewer heuristic calls. The search stops when a goal
//! heads the open list at the start of an iteration (a goal met within a batch goes back until the
//! batch is expanded): every node that may still lead to the goal then has f ≥ λ·g(goal), so with
//! λ = 1 and an admissible heuristic the solution is optimal, whatever the batch. A learned heuristic is not admissible; the
//! evaluations measure how often its solutions are optimal all the same. A state reached again by
//! a shorter path is reopened.

use crate::env::sliding::{Board, Direction};
use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};

/// How a search runs.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct BwasSettings {
    /// λ, the weight of the path cost g in f = λ·g + h (DeepCubeA: 0.6 on the 15-puzzle, for
    /// speed; 1 for solutions closest to optimal).
    pub lambda: f32,
    /// Nodes expanded per iteration (one heuristic call for all their children).
    pub batch: usize,
    /// Nodes expanded at most before giving up.
    pub max_nodes: usize,
    /// When set, each estimate plus this offset is rounded down to a whole number of moves of
    /// the position's parity ([`parity_rounded`]): the moves to the goal are even exactly when
    /// the blank is an even number of steps from its goal cell, so an estimate within a move of
    /// the truth becomes the truth itself with an offset of 1.
    pub parity_offset: Option<f32>,
}

impl BwasSettings {
    /// The settings, or what is wrong with them in words: λ above 0 and at most 10, a batch and
    /// a node budget of at least 1, a parity offset from −10 to 10.
    pub fn checked(self) -> Result<BwasSettings, String> {
        if !(self.lambda.is_finite() && self.lambda > 0.0 && self.lambda <= 10.0) {
            return Err("λ must be a number above 0 and at most 10".into());
        }
        if (self.parity_offset).is_some_and(|o| !(o.is_finite() && (-10.0..=10.0).contains(&o))) {
            return Err("the parity offset must be a number from −10 to 10".into());
        }
        if self.batch == 0 || self.max_nodes == 0 {
            return Err("the batch and the node budget must be at least 1".into());
        }
        Ok(self)
    }
}

/// `estimate + offset` rounded down to the nearest whole number (at least 0) with the parity of
/// every path from `board` to `goal`: that of the blank's row and column steps to its goal cell.
pub fn parity_rounded(board: &Board, goal: &Board, estimate: f32, offset: f32) -> f32 {
    let cols = board.cols();
    let (b, g) = (board.blank(), goal.blank());
    let parity = ((b / cols).abs_diff(g / cols) + (b % cols).abs_diff(g % cols)) % 2;
    let floor = (estimate + offset).floor().max(0.0) as i64;
    let rounded = if (floor as usize) % 2 == parity {
        floor
    } else {
        floor - 1
    };
    rounded.max(parity as i64) as f32
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Bwas {
    /// The blank's moves to the goal; `None` when the search gave up.
    pub moves: Option<Vec<Direction>>,
    /// Nodes expanded.
    pub nodes: usize,
    /// Calls of the heuristic (one a batch).
    pub batches: usize,
}

/// The open list's key for f: fixed point, so that ties are exact and deeper nodes go first.
fn key(lambda: f32, g: u32, h: f32) -> i64 {
    ((lambda * g as f32 + h) * 4096.0).round() as i64
}

/// Searches from `start` to `goal` (see the module docs). `heuristic` gets every batch of new
/// boards (never the goal, whose estimate is 0) and returns one estimate per board.
pub fn bwas(
    start: Board,
    goal: &Board,
    settings: &BwasSettings,
    mut heuristic: impl FnMut(&[Board]) -> Vec<f32>,
) -> Bwas {
    let batch = settings.batch.max(1);
    // Every node generated: board, parent, the move from the parent, path cost.
    let mut arena: Vec<(Board, u32, Option<Direction>, u32)> = vec![(start, 0, None, 0)];
    let mut best_g: HashMap<Board, u32> = HashMap::from([(start, 0)]);
    let mut open = BinaryHeap::new();
    let mut batches = 0;
    let h0 = if start == *goal {
        0.0
    } else {
        batches += 1;
        let h = heuristic(&[start])[0];
        match settings.parity_offset {
            Some(offset) => parity_rounded(&start, goal, h, offset),
            None => h,
        }
    };
    open.push(Reverse((key(settings.lambda, 0, h0), Reverse(0u32), 0u32)));
    let path_to = |arena: &[(Board, u32, Option<Direction>, u32)], mut i: usize| {
        let mut moves = Vec::new();
        while let Some(d) = arena[i].2 {
            moves.push(d);
            i = arena[i].1 as usize;
        }
        moves.reverse();
        moves
    };
    let (mut nodes, mut popped, mut children, mut boards) = (0, vec![], vec![], vec![]);
    loop {
        popped.clear();
        while popped.len() < batch {
            let Some(Reverse(entry)) = open.pop() else {
                break;
            };
            let i = entry.2;
            let (board, _, _, g) = arena[i as usize];
            if best_g[&board] < g {
                continue; // reached again more cheaply since it was pushed
            }
            if board == *goal {
                if !popped.is_empty() {
                    // Nodes of this batch may lead to the goal more cheaply: expand them first,
                    // and take the goal only when it heads the whole open list.
                    open.push(Reverse(entry));
                    break;
                }
                return Bwas {
                    moves: Some(path_to(&arena, i as usize)),
                    nodes,
                    batches,
                };
            }
            popped.push(i);
        }
        if popped.is_empty() || nodes + popped.len() > settings.max_nodes {
            return Bwas {
                moves: None,
                nodes,
                batches,
            };
        }
        children.clear();
        boards.clear();
        for &i in &popped {
            nodes += 1;
            let (board, _, _, g) = arena[i as usize];
            for d in Direction::ALL {
                let Some(child) = board.moved(d) else {
                    continue;
                };
                match best_g.entry(child) {
                    Entry::Occupied(e) if *e.get() <= g + 1 => continue,
                    Entry::Occupied(mut e) => *e.get_mut() = g + 1,
                    Entry::Vacant(e) => {
                        e.insert(g + 1);
                    }
                }
                arena.push((child, i, Some(d), g + 1));
                children.push(arena.len() as u32 - 1);
                if child != *goal {
                    boards.push(child);
                }
            }
        }
        let estimates = if boards.is_empty() {
            Vec::new()
        } else {
            batches += 1;
            heuristic(&boards)
        };
        let mut next = estimates.iter();
        for &j in &children {
            let (child, _, _, g) = arena[j as usize];
            let h = if child == *goal {
                0.0
            } else {
                let h = *next.next().expect("one estimate a board");
                match settings.parity_offset {
                    Some(offset) => parity_rounded(&child, goal, h, offset),
                    None => h,
                }
            };
            open.push(Reverse((key(settings.lambda, g, h), Reverse(g), j)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::sliding::heuristic::HeuristicTables;
    use crate::env::sliding::solve::ExactDistances;
    use crate::env::sliding::SlidingPuzzle;
    use crate::rng::Rng;

    fn replay(start: &Board, moves: &[Direction]) -> Board {
        moves
            .iter()
            .fold(*start, |b, &d| b.moved(d).expect("a legal move"))
    }

    /// With λ = 1 and an admissible heuristic (Manhattan), every solution is optimal, whatever the
    /// batch; the batch cuts the heuristic calls.
    #[test]
    fn with_an_admissible_heuristic_and_lambda_one_every_solution_is_optimal() {
        let puzzle = SlidingPuzzle::standard(3, 3).unwrap();
        let goal = *puzzle.goal();
        let exact = ExactDistances::build(&goal).unwrap();
        let tables = HeuristicTables::new(&goal);
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let start = puzzle.random_solvable(&mut rng);
            let optimum = exact.distance(&start).unwrap() as usize;
            let mut calls = Vec::new();
            for batch in [1, 16] {
                let settings = BwasSettings {
                    lambda: 1.0,
                    batch,
                    max_nodes: 1_000_000,
                    parity_offset: None,
                };
                let found = bwas(start, &goal, &settings, |boards| {
                    boards.iter().map(|b| tables.manhattan(b) as f32).collect()
                });
                let moves = found.moves.expect("solved");
                assert_eq!(replay(&start, &moves), goal);
                assert_eq!(moves.len(), optimum, "batch {batch}");
                calls.push(found.batches);
            }
            assert!(calls[1] <= calls[0]);
        }
    }

    /// Exact distances rounded to their parity stay exact (offset 0 to just under 2), and so do
    /// estimates within a move of them with an offset of 1; with exact distances so rounded every
    /// solution is optimal.
    #[test]
    fn parity_rounding_keeps_and_recovers_exact_distances() {
        let puzzle = SlidingPuzzle::standard(3, 3).unwrap();
        let goal = *puzzle.goal();
        let exact = ExactDistances::build(&goal).unwrap();
        let mut rng = Rng::new(11);
        for _ in 0..300 {
            let board = puzzle.random_solvable(&mut rng);
            let d = exact.distance(&board).unwrap() as f32;
            for offset in [0.0, 0.5, 1.9] {
                assert_eq!(parity_rounded(&board, &goal, d, offset), d);
            }
            for error in [-0.99, -0.3, 0.0, 0.4, 0.99] {
                assert_eq!(
                    parity_rounded(&board, &goal, d + error, 1.0),
                    d,
                    "{d} {error}"
                );
            }
            assert_eq!(
                parity_rounded(&board, &goal, d - 1.5, 1.0),
                (d - 2.0).max(0.0).max(d % 2.0)
            );
        }
        assert_eq!(parity_rounded(&goal, &goal, -3.0, 0.0), 0.0);
        let start = puzzle.random_solvable(&mut rng);
        let settings = BwasSettings {
            lambda: 1.0,
            batch: 8,
            max_nodes: 1_000_000,
            parity_offset: Some(1.0),
        };
        // Exact distances blurred by up to ±0.9 of a move: parity rounding gives them back.
        let mut noise = Rng::new(2);
        let found = bwas(start, &goal, &settings, |boards| {
            boards
                .iter()
                .map(|b| exact.distance(b).unwrap() as f32 + (noise.unit() as f32 * 1.8 - 0.9))
                .collect()
        });
        assert_eq!(
            found.moves.unwrap().len(),
            exact.distance(&start).unwrap() as usize
        );
    }

    #[test]
    fn a_small_lambda_dives_and_a_node_budget_gives_up() {
        let puzzle = SlidingPuzzle::standard(4, 4).unwrap();
        let goal = *puzzle.goal();
        let tables = HeuristicTables::new(&goal);
        let mut rng = Rng::new(8);
        let start = puzzle.random_solvable(&mut rng);
        let manhattan = |boards: &[Board]| -> Vec<f32> {
            boards.iter().map(|b| tables.manhattan(b) as f32).collect()
        };
        let greedy = BwasSettings {
            lambda: 0.2,
            batch: 10,
            max_nodes: 2_000_000,
            parity_offset: None,
        };
        let found = bwas(start, &goal, &greedy, manhattan);
        let moves = found.moves.expect("a 15-puzzle solved greedily");
        assert_eq!(replay(&start, &moves), goal);
        let starved = BwasSettings {
            max_nodes: 50,
            lambda: 1.0,
            ..greedy
        };
        let gave_up = bwas(start, &goal, &starved, manhattan);
        assert_eq!(gave_up.moves, None);
        assert!(gave_up.nodes <= 50);
        let at_goal = bwas(goal, &goal, &greedy, |_| unreachable!());
        assert_eq!((at_goal.moves, at_goal.nodes), (Some(vec![]), 0));
    }
}
