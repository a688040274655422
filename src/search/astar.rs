//! A* (Hart, Nilsson & Raphael 1968): best-first on f = g + h. With an admissible heuristic the
//! first goal taken from the open list is optimal; a state reached again more cheaply is reopened,
//! so consistency is not required. Ties on f prefer the deeper node, which reaches goals sooner.

use super::{path_from_arena, Limits, Outcome, Search, SearchProblem, Solution, Successor};
use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};

/// A resumable A* search over a [`SearchProblem`].
pub struct AStar<P: SearchProblem> {
    problem: P,
    limits: Limits,
    /// Per node: parent and the action that reached it.
    links: Vec<(u32, Option<P::Action>)>,
    /// Per node: its state and cost so far.
    nodes_data: Vec<(P::State, u32)>,
    best_cost: HashMap<P::State, u32>,
    /// Min-heap on (f, deeper first, node index).
    open: BinaryHeap<Reverse<(u32, Reverse<u32>, u32)>>,
    buffer: Vec<Successor<P>>,
    nodes: u64,
    done: Option<Outcome<P::Action>>,
}

impl<P: SearchProblem> AStar<P> {
    /// A search of `problem` within `limits`.
    pub fn new(problem: P, limits: Limits) -> Self {
        let start = problem.start();
        let h = problem.heuristic(&start);
        AStar {
            best_cost: HashMap::from([(start.clone(), 0)]),
            nodes_data: vec![(start, 0)],
            links: vec![(0, None)],
            open: BinaryHeap::from([Reverse((h, Reverse(0), 0))]),
            problem,
            limits,
            buffer: Vec::new(),
            nodes: 0,
            done: None,
        }
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
        let outcome = loop {
            let Some(Reverse((_, Reverse(g), index))) = self.open.pop() else {
                break Outcome::NoSolution;
            };
            let state = self.nodes_data[index as usize].0.clone();
            if self.best_cost.get(&state).is_some_and(|&best| best < g) {
                continue; // a stale entry: this state was reached more cheaply since
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
                let child = self.links.len() as u32;
                self.links.push((index, Some(action)));
                self.nodes_data.push((next, g_next));
                self.open
                    .push(Reverse((g_next + h, Reverse(g_next), child)));
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
