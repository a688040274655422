//! Exact distance tables: breadth-first search over a whole, perfectly hashed state space,
//! storing one byte per state. For reversible moves, searching from the goal gives every state's
//! distance to the goal (the 8-puzzle's 181,440 reachable states in a few milliseconds natively).

use std::hash::Hash;

/// Distances from a set of origin states to every state of a space of `size` ranks.
#[derive(Clone, Debug)]
pub struct DistanceTable {
    distances: Vec<u8>,
    reachable: usize,
    max_distance: u8,
}

/// Marks states that the origins cannot reach.
pub const UNREACHABLE: u8 = u8::MAX;

impl DistanceTable {
    /// Breadth-first search from `origins`, with `rank` a perfect hash of states into `0..size`
    /// and `neighbours` the states one move away. Distances above 254 are not supported.
    pub fn build<S: Clone + Eq + Hash>(
        size: usize,
        origins: &[S],
        rank: impl Fn(&S) -> usize,
        mut neighbours: impl FnMut(&S, &mut Vec<S>),
    ) -> DistanceTable {
        let mut distances = vec![UNREACHABLE; size];
        let mut frontier: Vec<S> = Vec::new();
        for s in origins {
            let r = rank(s);
            if distances[r] == UNREACHABLE {
                distances[r] = 0;
                frontier.push(s.clone());
            }
        }
        let mut reachable = frontier.len();
        let mut depth = 0u8;
        let mut next = Vec::new();
        let mut buffer = Vec::new();
        while !frontier.is_empty() {
            assert!(depth < UNREACHABLE - 1, "distance table deeper than 254");
            for s in &frontier {
                buffer.clear();
                neighbours(s, &mut buffer);
                for n in buffer.drain(..) {
                    let r = rank(&n);
                    if distances[r] == UNREACHABLE {
                        distances[r] = depth + 1;
                        next.push(n);
                    }
                }
            }
            reachable += next.len();
            if !next.is_empty() {
                depth += 1;
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        DistanceTable {
            distances,
            reachable,
            max_distance: depth,
        }
    }

    /// The distance of the state with this rank, or `None` if unreachable.
    pub fn distance(&self, rank: usize) -> Option<u8> {
        self.distances
            .get(rank)
            .copied()
            .filter(|&d| d != UNREACHABLE)
    }

    /// States reachable from the origins.
    pub fn reachable(&self) -> usize {
        self.reachable
    }

    /// The greatest distance in the table.
    pub fn max_distance(&self) -> u8 {
        self.max_distance
    }

    /// How many states lie at each distance (index = distance).
    pub fn histogram(&self) -> Vec<usize> {
        let mut counts = vec![0usize; self.max_distance as usize + 1];
        for &d in &self.distances {
            if d != UNREACHABLE {
                counts[d as usize] += 1;
            }
        }
        counts
    }

    /// The `k`-th rank (in rank order) whose distance is `d`, if there are more than `k`.
    pub fn nth_rank_at(&self, d: u8, k: usize) -> Option<usize> {
        self.distances
            .iter()
            .enumerate()
            .filter(|(_, &x)| x == d)
            .nth(k)
            .map(|(r, _)| r)
    }
}
