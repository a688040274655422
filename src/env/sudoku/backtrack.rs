//! The reference exact solver for every shape: candidates as bit masks, naked and hidden singles
//! propagated to a fixed point, then a guess on a cell with the fewest candidates (depth-first).
//! Simple and obviously right rather than fast: the 9 × 9 fast solver ([`super::solve`]) is
//! checked against it, and [`search`] uses it for the small grids (4 × 4, 6 × 6).

use super::exact::{solve_with, Branching};
use super::grid::{Grid, Shape};

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// Solutions found, at most the limit asked for.
    pub count: usize,
    /// The first solution found.
    pub solution: Option<Grid>,
    /// Branch points visited before the first solution (all of them when there is none): cells
    /// with two or more candidates left after propagation, where the search had to try digits in
    /// turn. Each solver counts on its own search tree.
    pub guesses: u64,
}

struct State {
    shape: Shape,
    cells: Vec<u8>,
    candidates: Vec<u16>,
}

impl State {
    fn place(&mut self, cell: usize, digit: u8, peers: &[Vec<usize>]) {
        self.cells[cell] = digit;
        self.candidates[cell] = 0;
        for &p in &peers[cell] {
            self.candidates[p] &= !(1 << digit);
        }
    }

    /// Naked and hidden singles until nothing changes; false on a contradiction.
    fn propagate(&mut self, units: &[Vec<usize>], peers: &[Vec<usize>]) -> bool {
        loop {
            let mut changed = false;
            for cell in 0..self.cells.len() {
                if self.cells[cell] != 0 {
                    continue;
                }
                let c = self.candidates[cell];
                if c == 0 {
                    return false;
                }
                if c.is_power_of_two() {
                    self.place(cell, c.trailing_zeros() as u8, peers);
                    changed = true;
                }
            }
            for unit in units {
                let mut once = 0u16;
                let mut twice = 0u16;
                let mut placed = 0u16;
                for &cell in unit {
                    let d = self.cells[cell];
                    if d != 0 {
                        if placed & (1 << d) != 0 {
                            return false;
                        }
                        placed |= 1 << d;
                    }
                    let c = self.candidates[cell];
                    twice |= once & c;
                    once |= c;
                }
                if (once | placed) != self.shape.all_digits() {
                    return false;
                }
                let mut hidden = once & !twice & !placed;
                while hidden != 0 {
                    let d = hidden.trailing_zeros() as u8;
                    hidden &= hidden - 1;
                    if let Some(&cell) = unit.iter().find(|&&c| self.candidates[c] & (1 << d) != 0)
                    {
                        if self.cells[cell] != 0 || self.candidates[cell] & (1 << d) == 0 {
                            return false;
                        }
                        self.place(cell, d, peers);
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }
}

/// Searches `grid` for up to `limit` solutions: the fast solver on 9 × 9, the reference one on
/// the small grids. Givens that break a rule give none.
pub fn search(grid: &Grid, limit: usize) -> Search {
    search_with(grid, limit, Branching::default())
}

/// [`search`], the fast solver branching as `branching` says (the reference one, on the small
/// grids, has one rule).
pub fn search_with(grid: &Grid, limit: usize, branching: Branching) -> Search {
    let Ok(cells) = <&[u8; 81]>::try_from(grid.cells()) else {
        return search_reference(grid, limit);
    };
    if limit == 0 {
        return Search {
            count: 0,
            solution: None,
            guesses: 0,
        };
    }
    let found = solve_with(cells, limit, branching);
    Search {
        count: found.count,
        solution: found
            .solution
            .map(|cells| Grid::from_cells(&cells).expect("a solution of 9 × 9 digits")),
        guesses: found.guesses,
    }
}

/// Searches `grid` for up to `limit` solutions with the reference solver (any shape). Givens that
/// break a rule give none.
pub fn search_reference(grid: &Grid, limit: usize) -> Search {
    let shape = grid.shape();
    let units = shape.units();
    let peers: Vec<Vec<usize>> = (0..shape.cells()).map(|c| shape.peers(c)).collect();
    let mut result = Search {
        count: 0,
        solution: None,
        guesses: 0,
    };
    if !grid.conflicts().is_empty() || limit == 0 {
        return result;
    }
    let state = State {
        shape,
        cells: grid.cells().to_vec(),
        candidates: grid.candidates(),
    };
    descend(state, &units, &peers, limit, &mut result);
    result
}

fn descend(
    mut state: State,
    units: &[Vec<usize>],
    peers: &[Vec<usize>],
    limit: usize,
    result: &mut Search,
) {
    if !state.propagate(units, peers) {
        return;
    }
    let branch = (0..state.cells.len())
        .filter(|&c| state.cells[c] == 0)
        .min_by_key(|&c| state.candidates[c].count_ones());
    let Some(cell) = branch else {
        result.count += 1;
        if result.solution.is_none() {
            result.solution =
                Some(Grid::from_cells(&state.cells).expect("a solved grid has the shape's digits"));
        }
        return;
    };
    if result.count == 0 {
        result.guesses += 1;
    }
    let mut options = state.candidates[cell];
    while options != 0 && result.count < limit {
        let d = options.trailing_zeros() as u8;
        options &= options - 1;
        let mut next = State {
            shape: state.shape,
            cells: state.cells.clone(),
            candidates: state.candidates.clone(),
        };
        next.place(cell, d, peers);
        descend(next, units, peers, limit, result);
    }
}

/// The number of solutions, counted up to `limit` (2 tells unique from not).
pub fn count_solutions(grid: &Grid, limit: usize) -> usize {
    search(grid, limit).count
}
