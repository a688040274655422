//! A* (Hart, Nilsson & Raphael 1968): best-first on f = g + h. With an admissible heuristic the
//! first goal taken from the open list is optimal; a state reached again more cheaply is reopened,
//! so consistency is not required. Ties on f prefer the deeper node, which reaches goals sooner.
//!
//! Weighted A* (Pohl 1970, "Heuristic search viewed as path finding in a graph") orders the open
//! list on f = g + w·h with a weight w ≥ 1 instead: it trusts the estimate more, so it dives
//! towards the goal and expands far fewer nodes, and with an admissible heuristic the solution it
//! returns costs at most w × the optimum. w = 1 is plain A*, step for step. Keys are kept in
//! integers, 1000·g + (1000·w)·h with w rounded to thousandths, so ordering and ties are exact.
//!
//! With w > 1 this search does not reopen: a state expanded once is never expanded again, even
//! when a cheaper path to it turns up later (a cheaper path to a state still on the open list is
//! taken, as always). Likhachev, Gordon & Thrun (2003, ARA*) prove that the w × optimum bound
//! still holds without reopening when the heuristic is consistent (h(s) ≤ cost(s, s') + h(s') on
//! every edge); with an admissible but inconsistent heuristic, skipping reopening can exceed the
//! bound. Skipping saves re-expanding states for paths the bound does not need; measured on 50
//! random-walk 24-puzzles it is no clear win, though (w = 2 to 3: total nodes within about 20% of
//! reopening's, either way, and single positions swing by 10× in both directions). The
//! sliding-puzzle heuristics are all consistent: one move changes each of them by at most one
//! (`tests/weighted.rs` checks it).

use super::{path_from_arena, Limits, Outcome, Search, SearchProblem, Solution, Successor};
use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};

/// The largest weight [`AStar::weighted`] accepts: far beyond it, weighted A* is greedy
/// best-first search in all but name.
pub const MAX_WEIGHT: f64 = 100.0;

/// `weight` in thousandths (rounded), if weighted A* accepts it: a finite number from 1 to
/// [`MAX_WEIGHT`].
pub fn weight_in_thousandths(weight: f64) -> Option<u32> {
    (weight.is_finite() && (1.0..=MAX_WEIGHT).contains(&weight))
        .then(|| (weight * 1000.0).round() as u32)
}

/// A resumable A* (or weighted A*) search over a [`SearchProblem`].
pub struct AStar<P: SearchProblem> {
    problem: P,
    limits: Limits,
    /// The weight w in thousandths (1000 is plain A*).
    weight: u32,
    /// Per node: parent and the action that reached it.
    links: Vec<(u32, Option<P::Action>)>,
    /// Per node: its state and cost so far.
    nodes_data: Vec<(P::State, u32)>,
    /// The cheapest cost so far per state seen. Without reopening (w > 1), an expanded state's
    /// entry is set to 0 so that no later path counts as cheaper.
    best_cost: HashMap<P::State, u32>,
    /// Min-heap on (1000·f, deeper first, node index).
    open: BinaryHeap<Reverse<(u64, Reverse<u32>, u32)>>,
    buffer: Vec<Successor<P>>,
    nodes: u64,
    done: Option<Outcome<P::Action>>,
}

impl<P: SearchProblem> AStar<P> {
    /// An A* search of `problem` within `limits`.
    pub fn new(problem: P, limits: Limits) -> Self {
        Self::with_weight(problem, limits, 1000)
    }

    /// A weighted A* search of `problem` within `limits`: f = g + `weight`·h, `weight` rounded to
    /// thousandths. Its solution costs at most `weight` × the optimum (see the module notes).
    ///
    /// # Panics
    /// If `weight` is not a finite number from 1 to [`MAX_WEIGHT`] (check it with
    /// [`weight_in_thousandths`] first when it comes from outside).
    pub fn weighted(problem: P, limits: Limits, weight: f64) -> Self {
        let thousandths = weight_in_thousandths(weight).unwrap_or_else(|| {
            panic!("weighted A* needs a weight from 1 to {MAX_WEIGHT}, not {weight}")
        });
        Self::with_weight(problem, limits, thousandths)
    }

    fn with_weight(problem: P, limits: Limits, weight: u32) -> Self {
        let start = problem.start();
        let h = problem.heuristic(&start);
        AStar {
            best_cost: HashMap::from([(start.clone(), 0)]),
            nodes_data: vec![(start, 0)],
            links: vec![(0, None)],
            open: BinaryHeap::from([Reverse((u64::from(weight) * u64::from(h), Reverse(0), 0))]),
            problem,
            limits,
            weight,
            buffer: Vec::new(),
            nodes: 0,
            done: None,
        }
    }

    /// The weight w on the heuristic, as rounded (1 for plain A*).
    pub fn weight(&self) -> f64 {
        f64::from(self.weight) / 1000.0
    }

    /// The problem being searched.
    pub fn problem(&self) -> &P {
        &self.problem
    }
}

impl<P: SearchProblem> Search for AStar<P> {
    type Action = P::Action;

    fn run(&mut self, chunk: u64) -> Option<Outcome<P::Action>> {
        if let Some(done) = &self.done {
            return Some(done.clone());
        }
        let stop_at = self.nodes.saturating_add(chunk);
        let reopen = self.weight == 1000;
        let outcome = loop {
            let Some(Reverse((_, Reverse(g), index))) = self.open.pop() else {
                break Outcome::NoSolution;
            };
            let state = self.nodes_data[index as usize].0.clone();
            if self.best_cost.get(&state).is_some_and(|&best| best < g) {
                continue; // a stale entry: this state was reached more cheaply since (or closed)
            }
            if self.problem.is_goal(&state) {
                break Outcome::Solved(Solution {
                    actions: path_from_arena(&self.links, index),
                    cost: g,
                });
            }
            if self.nodes >= self.limits.max_nodes {
                break Outcome::BudgetExhausted;
            }
            self.nodes += 1;
            if !reopen {
                self.best_cost.insert(state.clone(), 0);
            }
            self.buffer.clear();
            self.problem.successors(&state, &mut self.buffer);
            for (action, next, cost) in self.buffer.drain(..) {
                let g_next = g + cost;
                match self.best_cost.entry(next.clone()) {
                    Entry::Occupied(e) if *e.get() <= g_next => continue,
                    Entry::Occupied(mut e) => {
                        e.insert(g_next);
                    }
                    Entry::Vacant(e) => {
                        e.insert(g_next);
                    }
                }
                let h = self.problem.heuristic(&next);
                let f = 1000 * u64::from(g_next) + u64::from(self.weight) * u64::from(h);
                let child = self.links.len() as u32;
                self.links.push((index, Some(action)));
                self.nodes_data.push((next, g_next));
                self.open.push(Reverse((f, Reverse(g_next), child)));
            }
            if self.nodes >= stop_at {
                return None;
            }
        };
        self.open.clear();
        self.best_cost.clear();
        self.nodes_data.clear();
        self.links.clear();
        self.done = Some(outcome.clone());
        Some(outcome)
    }

    fn nodes_expanded(&self) -> u64 {
        self.nodes
    }
}
