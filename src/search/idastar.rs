//! IDA* (Korf 1985, "Depth-first iterative-deepening: an optimal admissible tree search"):
//! depth-first searches bounded by f = g + h, the bound raised each round to the smallest f that
//! exceeded it. Memory is linear in the path length. The depth-first search keeps an explicit
//! stack so that it can stop after any node and resume (chunks, progress, cancellation).
//!
//! One implementation, [`IdaStarInPlace`], searches an [`InPlaceProblem`]: a single state changed
//! by apply/undo, so that a problem can keep incremental data (the 15-puzzle's pattern-database
//! values). [`IdaStar`] runs any [`SearchProblem`] through it by keeping the path of states
//! ([`StatePath`]), and never steps straight back to the state it came from.

use super::{Limits, Outcome, Search, SearchProblem, Solution, Successor};

/// Any [`SearchProblem`] as an [`InPlaceProblem`]: the path of states from the start, and each
/// path state's successors. Its actions are indices into the current state's successor list.
pub struct StatePath<P: SearchProblem> {
    problem: P,
    path: Vec<P::State>,
    /// `children[d]`: the successors of `path[d]`, listed when it was last expanded.
    children: Vec<Vec<Successor<P>>>,
}

impl<P: SearchProblem> StatePath<P> {
    /// The path holding only the problem's start.
    pub fn new(problem: P) -> Self {
        let start = problem.start();
        StatePath {
            problem,
            path: vec![start],
            children: Vec::new(),
        }
    }

    /// The problem's actions for a path of successor indices taken from the start (valid while
    /// those states' successor lists are still the ones listed along that path).
    fn actions_of(&self, indices: &[usize]) -> Vec<P::Action> {
        indices
            .iter()
            .enumerate()
            .map(|(depth, &i)| self.children[depth][i].0)
            .collect()
    }
}

impl<P: SearchProblem> InPlaceProblem for StatePath<P> {
    type Action = usize;

    fn heuristic(&mut self, _limit: u32) -> u32 {
        self.problem
            .heuristic(self.path.last().expect("the path holds the start"))
    }

    fn is_goal(&self) -> bool {
        self.problem
            .is_goal(self.path.last().expect("the path holds the start"))
    }

    fn actions(&mut self, _previous: Option<usize>, out: &mut Vec<usize>) {
        let depth = self.path.len() - 1;
        if self.children.len() <= depth {
            self.children.push(Vec::new());
        }
        let children = &mut self.children[depth];
        children.clear();
        self.problem.successors(&self.path[depth], children);
        let parent = depth.checked_sub(1).map(|d| &self.path[d]);
        // Skip the child that would step straight back to this state's parent.
        out.extend((0..children.len()).filter(|&i| parent != Some(&children[i].1)));
    }

    fn apply(&mut self, action: usize) -> u32 {
        let (_, state, cost) = self.children[self.path.len() - 1][action].clone();
        self.path.push(state);
        cost
    }

    fn undo(&mut self, _action: usize) {
        self.path.pop();
    }
}

/// A resumable IDA* search over a [`SearchProblem`] (an [`IdaStarInPlace`] over its [`StatePath`]).
pub struct IdaStar<P: SearchProblem> {
    search: IdaStarInPlace<StatePath<P>>,
}

impl<P: SearchProblem> IdaStar<P> {
    /// A search of `problem` within `limits`.
    pub fn new(problem: P, limits: Limits) -> Self {
        IdaStar {
            search: IdaStarInPlace::new(StatePath::new(problem), limits),
        }
    }

    /// The current f bound.
    pub fn bound(&self) -> u32 {
        self.search.bound()
    }

    /// Depth-first rounds started so far.
    pub fn iterations(&self) -> u32 {
        self.search.iterations()
    }
}

impl<P: SearchProblem> Search for IdaStar<P> {
    type Action = P::Action;

    fn run(&mut self, chunk: u64) -> Option<Outcome<P::Action>> {
        Some(match self.search.run(chunk)? {
            Outcome::Solved(Solution { actions, cost }) => Outcome::Solved(Solution {
                actions: self.search.problem().actions_of(&actions),
                cost,
            }),
            Outcome::NoSolution => Outcome::NoSolution,
            Outcome::BudgetExhausted => Outcome::BudgetExhausted,
            Outcome::Cancelled => Outcome::Cancelled,
        })
    }

    fn nodes_expanded(&self) -> u64 {
        self.search.nodes_expanded()
    }
}

/// A problem searched by changing one current state in place: apply an action, look at the
/// state, undo it. Lets a problem keep incremental data (tile positions, per-pattern heuristic
/// values) instead of copying states, which is what makes IDA* on the 15-puzzle fast.
pub trait InPlaceProblem {
    /// An action on the current state.
    type Action: Copy;

    /// An admissible estimate of the cost from the current state to a goal. Once the estimate is
    /// known to exceed `limit` (the search's bound minus the cost so far) the node will be pruned
    /// whatever the exact value, so a problem may stop refining it there (lazy evaluation).
    fn heuristic(&mut self, limit: u32) -> u32;

    /// Whether the current state is a goal.
    fn is_goal(&self) -> bool;

    /// Writes the actions worth trying in the current state into `out`; `previous` is the action
    /// that led here (`None` at the start), so that a problem can prune moves that undo it.
    fn actions(&mut self, previous: Option<Self::Action>, out: &mut Vec<Self::Action>);

    /// Applies `action` to the current state and returns its cost.
    fn apply(&mut self, action: Self::Action) -> u32;

    /// Undoes `action`, the last one applied.
    fn undo(&mut self, action: Self::Action);
}

struct InPlaceFrame<A> {
    action: Option<A>,
    g: u32,
    expanded: bool,
    next_action: usize,
}

/// A resumable IDA* over an [`InPlaceProblem`]: the same iterative deepening as [`IdaStar`],
/// on one state changed in place.
pub struct IdaStarInPlace<P: InPlaceProblem> {
    problem: P,
    limits: Limits,
    stack: Vec<InPlaceFrame<P::Action>>,
    /// Action lists by depth, reused so that the search does not allocate.
    actions: Vec<Vec<P::Action>>,
    bound: u32,
    next_bound: u32,
    iterations: u32,
    nodes: u64,
    done: Option<Outcome<P::Action>>,
}

impl<P: InPlaceProblem> IdaStarInPlace<P> {
    /// A search from the problem's current state, within `limits`.
    pub fn new(problem: P, limits: Limits) -> Self {
        let mut problem = problem;
        let bound = problem.heuristic(u32::MAX);
        IdaStarInPlace {
            problem,
            limits,
            stack: Vec::new(),
            actions: Vec::new(),
            bound,
            next_bound: bound,
            iterations: 0,
            nodes: 0,
            done: None,
        }
    }

    /// The current f bound.
    pub fn bound(&self) -> u32 {
        self.bound
    }

    /// Depth-first rounds started so far.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// The problem (its current state is wherever the search stands).
    pub fn problem(&self) -> &P {
        &self.problem
    }

    fn finish(&mut self, outcome: Outcome<P::Action>) -> Option<Outcome<P::Action>> {
        while let Some(frame) = self.stack.pop() {
            if let Some(action) = frame.action {
                self.problem.undo(action);
            }
        }
        self.done = Some(outcome.clone());
        Some(outcome)
    }

    fn pop(&mut self) {
        if let Some(InPlaceFrame {
            action: Some(action),
            ..
        }) = self.stack.pop()
        {
            self.problem.undo(action);
        }
    }
}

impl<P: InPlaceProblem> Search for IdaStarInPlace<P> {
    type Action = P::Action;

    fn run(&mut self, chunk: u64) -> Option<Outcome<P::Action>> {
        if let Some(done) = &self.done {
            return Some(done.clone());
        }
        let stop_at = self.nodes.saturating_add(chunk);
        loop {
            if self.stack.is_empty() {
                if self.iterations > 0 && self.next_bound == u32::MAX {
                    return self.finish(Outcome::NoSolution);
                }
                self.bound = self.next_bound;
                self.next_bound = u32::MAX;
                self.iterations += 1;
                self.stack.push(InPlaceFrame {
                    action: None,
                    g: 0,
                    expanded: false,
                    next_action: 0,
                });
            }
            let depth = self.stack.len() - 1;
            if !self.stack[depth].expanded {
                let g = self.stack[depth].g;
                let f = g + self.problem.heuristic(self.bound - g);
                if f > self.bound {
                    self.next_bound = self.next_bound.min(f);
                    self.pop();
                    continue;
                }
                if self.problem.is_goal() {
                    let actions: Vec<P::Action> =
                        self.stack.iter().filter_map(|f| f.action).collect();
                    let cost = self.stack[depth].g;
                    return self.finish(Outcome::Solved(Solution { actions, cost }));
                }
                if self.nodes >= self.limits.max_nodes {
                    return self.finish(Outcome::BudgetExhausted);
                }
                self.nodes += 1;
                self.stack[depth].expanded = true;
                if self.actions.len() <= depth {
                    self.actions.push(Vec::new());
                }
                let list = &mut self.actions[depth];
                list.clear();
                self.problem.actions(self.stack[depth].action, list);
                if self.nodes >= stop_at {
                    return None;
                }
            }
            let frame = &mut self.stack[depth];
            match self.actions[depth].get(frame.next_action).copied() {
                Some(action) => {
                    frame.next_action += 1;
                    let g = frame.g + self.problem.apply(action);
                    self.stack.push(InPlaceFrame {
                        action: Some(action),
                        g,
                        expanded: false,
                        next_action: 0,
                    });
                }
                None => self.pop(),
            }
        }
    }

    fn nodes_expanded(&self) -> u64 {
        self.nodes
    }
}
