//! Search, written once and generic over problems.
//!
//! A problem implements [`SearchProblem`]: a start, successors with costs, an admissible
//! heuristic and a goal predicate. Each algorithm is a resumable object: `run(chunk)` expands up
//! to `chunk` more nodes and returns `None` while it is still searching, so a Web Worker can
//! report progress and notice a cancel between chunks. "No solution" and "budget exhausted" are
//! values of [`Outcome`], never a hang: every search has a node budget ([`Limits`]), and
//! [`run_to_end`] adds cancellation.
//!
//! - [`bfs`]: breadth-first search (unit costs; small spaces), and whole-space distance maps.
//! - [`astar`]: A* (Hart, Nilsson & Raphael 1968), and weighted A* (Pohl 1970).
//! - [`idastar`]: IDA* (Korf 1985), memory linear in the solution length.
//! - [`pattern_database`]: additive disjoint pattern databases for sliding-tile puzzles.
//! - [`table`]: exact distance tables over a perfectly hashed space, built by breadth-first search.

pub mod astar;
pub mod bfs;
pub mod idastar;
pub mod pattern_database;
pub mod table;

use serde::Serialize;
use std::hash::Hash;

pub use astar::AStar;
pub use bfs::Bfs;
pub use idastar::{IdaStar, IdaStarInPlace, InPlaceProblem};
pub use table::DistanceTable;

/// A search problem: states, actions with costs, a goal predicate and an admissible heuristic.
pub trait SearchProblem {
    /// A state of the problem.
    type State: Clone + Eq + Hash;
    /// An action leading from one state to another.
    type Action: Copy;

    /// The state the search starts from.
    fn start(&self) -> Self::State;

    /// Whether `state` is a goal (goals need not be a single state).
    fn is_goal(&self, state: &Self::State) -> bool;

    /// A lower bound on the cost from `state` to a goal (0 is always admissible).
    fn heuristic(&self, state: &Self::State) -> u32;

    /// Appends `(action, next state, cost)` for every successor of `state` to `out`.
    fn successors(&self, state: &Self::State, out: &mut Vec<(Self::Action, Self::State, u32)>);
}

/// One successor as [`SearchProblem::successors`] lists it: (action, next state, cost).
pub type Successor<P> = (
    <P as SearchProblem>::Action,
    <P as SearchProblem>::State,
    u32,
);

/// A path found by a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<A> {
    /// The actions from the start to the goal, in order.
    pub actions: Vec<A>,
    /// The sum of their costs.
    pub cost: u32,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<A> {
    /// A path to a goal.
    Solved(Solution<A>),
    /// The whole reachable space was searched: no goal can be reached.
    NoSolution,
    /// The node budget ran out first.
    BudgetExhausted,
    /// The caller cancelled it.
    Cancelled,
}

/// Resource limits every search takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Nodes the search may expand in all before it gives up with [`Outcome::BudgetExhausted`].
    pub max_nodes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nodes: 50_000_000,
        }
    }
}

/// A resumable search.
pub trait Search {
    /// The problem's action type.
    type Action;

    /// Expands up to `chunk` more nodes. `None` while still searching; the outcome once done
    /// (calling again after that returns the same outcome).
    fn run(&mut self, chunk: u64) -> Option<Outcome<Self::Action>>;

    /// Nodes expanded so far.
    fn nodes_expanded(&self) -> u64;
}

/// The algorithms, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Breadth-first search.
    Bfs,
    /// A*.
    AStar,
    /// Weighted A*: f = g + w·h, solutions within w × the optimum.
    #[serde(rename = "wastar")]
    WeightedAStar,
    /// IDA*.
    IdaStar,
}

impl Algorithm {
    /// The name used by the CLI and the page.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Bfs => "bfs",
            Algorithm::AStar => "astar",
            Algorithm::WeightedAStar => "wastar",
            Algorithm::IdaStar => "idastar",
        }
    }

    /// Parses `bfs`, `astar` (`a*`), `wastar` (`weighted-astar`, `wa*`), `idastar` (`ida*`).
    pub fn from_name(name: &str) -> Option<Algorithm> {
        match name.trim().to_ascii_lowercase().as_str() {
            "bfs" => Some(Algorithm::Bfs),
            "astar" | "a*" | "a-star" => Some(Algorithm::AStar),
            "wastar" | "weighted-astar" | "wa*" => Some(Algorithm::WeightedAStar),
            "idastar" | "ida*" | "ida-star" => Some(Algorithm::IdaStar),
            _ => None,
        }
    }
}

/// Runs a search to its end in chunks of `chunk` nodes, calling `keep_going(nodes)` between
/// chunks: progress reporting and cancellation (return `false` to cancel).
pub fn run_to_end<S: Search>(
    search: &mut S,
    chunk: u64,
    mut keep_going: impl FnMut(u64) -> bool,
) -> Outcome<S::Action> {
    loop {
        if let Some(outcome) = search.run(chunk) {
            return outcome;
        }
        if !keep_going(search.nodes_expanded()) {
            return Outcome::Cancelled;
        }
    }
}

/// Follows parent links from `index` back to the root of an arena of `(parent, action)` pairs.
fn path_from_arena<A: Copy>(links: &[(u32, Option<A>)], mut index: u32) -> Vec<A> {
    let mut actions = Vec::new();
    while let (parent, Some(action)) = links[index as usize] {
        actions.push(action);
        index = parent;
    }
    actions.reverse();
    actions
}
