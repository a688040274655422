//! Breadth-first search (Moore 1959): optimal when every action costs the same. Meant for small
//! spaces (the 8-puzzle's 181,440 states); its memory grows with the space it visits.

use super::{path_from_arena, Limits, Outcome, Search, SearchProblem, Solution, Successor};
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::Hash;

/// A resumable breadth-first search over a [`SearchProblem`] (costs are ignored: each action is one step).
pub struct Bfs<P: SearchProblem> {
    problem: P,
    limits: Limits,
    links: Vec<(u32, Option<P::Action>)>,
    queue: VecDeque<(u32, P::State)>,
    seen: HashSet<P::State>,
    buffer: Vec<Successor<P>>,
    nodes: u64,
    done: Option<Outcome<P::Action>>,
}

impl<P: SearchProblem> Bfs<P> {
    /// A search of `problem` within `limits`.
    pub fn new(problem: P, limits: Limits) -> Self {
        let start = problem.start();
        let mut seen = HashSet::new();
        seen.insert(start.clone());
        Bfs {
            problem,
            limits,
            links: vec![(0, None)],
            queue: VecDeque::from([(0, start)]),
            seen,
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

impl<P: SearchProblem> Search for Bfs<P> {
    type Action = P::Action;

    fn run(&mut self, chunk: u64) -> Option<Outcome<P::Action>> {
        if let Some(done) = &self.done {
            return Some(done.clone());
        }
        let stop_at = self.nodes.saturating_add(chunk);
        let outcome = loop {
            let Some((index, state)) = self.queue.pop_front() else {
                break Outcome::NoSolution;
            };
            if self.problem.is_goal(&state) {
                let actions = path_from_arena(&self.links, index);
                let cost = actions.len() as u32;
                break Outcome::Solved(Solution { actions, cost });
            }
            if self.nodes >= self.limits.max_nodes {
                break Outcome::BudgetExhausted;
            }
            self.nodes += 1;
            self.buffer.clear();
            self.problem.successors(&state, &mut self.buffer);
            for (action, next, _) in self.buffer.drain(..) {
                if !self.seen.contains(&next) {
                    self.seen.insert(next.clone());
                    self.links.push((index, Some(action)));
                    self.queue.push_back(((self.links.len() - 1) as u32, next));
                }
            }
            if self.nodes >= stop_at {
                return None;
            }
        };
        self.queue.clear();
        self.seen.clear();
        self.done = Some(outcome.clone());
        Some(outcome)
    }

    fn nodes_expanded(&self) -> u64 {
        self.nodes
    }
}

/// The number of steps from `origin` to every state reachable from it (unit costs). Used to find
/// exact distances of small spaces whose moves are reversible.
pub fn distance_map<S: Clone + Eq + Hash>(
    origin: S,
    mut neighbours: impl FnMut(&S, &mut Vec<S>),
) -> HashMap<S, u32> {
    let mut distances = HashMap::from([(origin.clone(), 0)]);
    let mut queue = VecDeque::from([origin]);
    let mut buffer = Vec::new();
    while let Some(state) = queue.pop_front() {
        let d = distances[&state];
        buffer.clear();
        neighbours(&state, &mut buffer);
        for next in buffer.drain(..) {
            if !distances.contains_key(&next) {
                distances.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    distances
}
