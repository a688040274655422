//! The exact 9×9 solver: band-wise bitsets with constraint propagation and depth-first guessing.
//!
//! The design follows the band-oriented solvers of the sudoku programmers' forum (JCZSolve,
//! fsss2; described in tdoku's `docs/sudoku.md`), written afresh here in portable integer code
//! (no SIMD, so it compiles to wasm32 unchanged):
//!
//! - **State.** For each digit `d` and band `b` (three rows), one `u32` holds the 27 cells of the
//!   band where `d` may still go (bit `9 * row_in_band + column`); a placed digit keeps only its
//!   own bit. A second mask per band holds the cells not yet placed, and a copy of the 27 masks
//!   as of their last band propagation marks the ones to redo. The whole state is 228 bytes,
//!   copied at each guess.
//! - **Band propagation (in bulk).** In one band a digit fills one cell in each of its three rows,
//!   in three different boxes. The 9 row×box "triads" where `d` is still possible index a table
//!   of 512 entries that keeps only the triads used by some row→box permutation: locked
//!   candidates (pointing and claiming) inside the band, empty rows or boxes as contradictions.
//!   A box whose cells for `d` lie in one column takes that column from the other two bands. A
//!   row left with one cell is a hidden single: the cell leaves the other digits. The 27
//!   digit-band steps are unrolled and run only when their mask changed.
//! - **Placement** (givens, naked singles, guesses) clears the digit from the cell's row, box and
//!   column in its band and the column from the other two bands; givens and guesses also clear
//!   the cell from the other digits (a naked single has no other digit).
//! - **Naked singles.** Bit-sliced counting over the nine digits gives, per band, the open cells
//!   with no candidate (a contradiction), exactly one (placed) and exactly two (guess targets).
//! - **Guessing.** At a fixed point the solver branches on a cell with two candidates: by default
//!   ([`Branching::BusiestBand`]) the first of the band that has the most such cells, else the
//!   first open cell with the fewest candidates; digits are tried in increasing order.
//!
//! # Guesses
//! [`Solved::guesses`] counts *branch points*: search nodes at which propagation has stopped with
//! open cells and no contradiction, so the solver must try the candidates of a cell one after
//! another. A node counts once however many of its candidates are tried. Only nodes visited
//! before the first solution count (all of them if there is none), so the number does not depend
//! on `limit`. It is deterministic: a puzzle solved by propagation alone has 0 guesses.
//! It is this solver's measure of difficulty; other solvers (the reference one in
//! [`search_reference`](super::search_reference) among them) branch differently and count differently.

/// What [`solve`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Solutions found, at most the `limit` asked for (0: no solution or invalid givens).
    pub count: usize,
    /// The first solution found (row-major, digits 1–9), if any.
    pub solution: Option<[u8; 81]>,
    /// Branch points visited before the first solution (see the module's doc).
    pub guesses: u64,
}

/// Which bivalue cell the search branches on (when no open cell has two candidates, both take
/// the first open cell with the fewest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Branching {
    /// The first bivalue cell (row-major) of the band with the most bivalue cells. The default:
    /// 16–21% fewer branch points than [`Branching::FirstPair`] on hard sets, and as much faster
    /// (docs/sudoku.md, "Speed").
    #[default]
    BusiestBand,
    /// The first bivalue cell, row-major (the solver's rule until 2026-11-27, JCZSolve's). The
    /// paper's difficulty bins ([`super::GuessBin`]) count its guesses, so that they do not
    /// move when the solver's speed is tuned.
    FirstPair,
}

/// Solves a 9×9 Sudoku (`cells` row-major, 0 = empty, 1–9 = a given), stopping after `limit`
/// solutions (`limit` 0 is taken as 1).
///
/// Givens that break a rule (two equal digits in a row, column or box) give `count` 0. A digit
/// above 9 is the caller's error and panics (the parsers give 0–9 only).
pub fn solve(cells: &[u8; 81], limit: usize) -> Solved {
    solve_with(cells, limit, Branching::default())
}

/// [`solve`], branching as `branching` says (which changes `guesses`, not what is found).
pub fn solve_with(cells: &[u8; 81], limit: usize, branching: Branching) -> Solved {
    let mut search = Search {
        limit: limit.max(1),
        count: 0,
        solution: None,
        guesses: 0,
        branching,
    };
    if let Some(mut grid) = Grid::from_givens(cells) {
        search.run(&mut grid);
    }
    Solved {
        count: search.count,
        solution: search.solution,
        guesses: search.guesses,
    }
}

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// For each 9-bit row of a band: which of its three boxes (bits 0–2) hold at least one bit.
static ROW_BOXES: [u32; 512] = row_boxes();

/// For each set of live triads (bit `3 * row + box`): the band cells of the triads that some
/// row→box permutation uses entirely, or 0 when no permutation fits.
static PERMUTATIONS: [u32; 512] = permutations();

/// For each set of columns (bit `c`) where a digit may go in one band: the cells the digit keeps
/// in the other two bands, which lose every column that is the only one of its box here.
static OTHER_BANDS: [u32; 512] = other_bands();

/// For each 9-bit row: all nine bits if exactly one is set, else 0.
static SINGLE_ROW: [u32; 512] = single_row();

/// For each cell of a band: the band without the cell's peers (row, box, column), cell kept.
static KEEP: [u32; 27] = keep();

const fn row_boxes() -> [u32; 512] {
    let mut table = [0; 512];
    let mut row = 0;
    while row < 512 {
        let mut boxes = 0;
        let mut b = 0;
        while b < 3 {
            if row & (7 << (3 * b)) != 0 {
                boxes |= 1 << b;
            }
            b += 1;
        }
        table[row] = boxes;
        row += 1;
    }
    table
}

const fn permutations() -> [u32; 512] {
    // The six maps row → box, as the box of rows 0, 1, 2.
    const MAPS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0; 512];
    let mut live = 0;
    while live < 512 {
        let mut mask = 0;
        let mut m = 0;
        while m < 6 {
            let mut fits = true;
            let mut cells = 0;
            let mut row = 0;
            while row < 3 {
                let b = MAPS[m][row];
                if live & (1 << (3 * row + b)) == 0 {
                    fits = false;
                }
                cells |= 7 << (9 * row + 3 * b);
                row += 1;
            }
            if fits {
                mask |= cells;
            }
            m += 1;
        }
        table[live] = mask;
        live += 1;
    }
    table
}

const fn other_bands() -> [u32; 512] {
    let mut table = [0; 512];
    let mut cols: u32 = 0;
    while cols < 512 {
        let mut keep = BAND;
        let mut b = 0;
        while b < 3 {
            let stack = (cols >> (3 * b)) & 7;
            if stack == 1 || stack == 2 || stack == 4 {
                keep &= !column(3 * b as usize + stack.trailing_zeros() as usize);
            }
            b += 1;
        }
        table[cols as usize] = keep;
        cols += 1;
    }
    table
}

const fn single_row() -> [u32; 512] {
    let mut table = [0; 512];
    let mut row: u32 = 0;
    while row < 512 {
        if row.is_power_of_two() {
            table[row as usize] = 511;
        }
        row += 1;
    }
    table
}

const fn keep() -> [u32; 27] {
    let mut table = [0; 27];
    let mut cell = 0;
    while cell < 27 {
        let (row, col) = (cell / 9, cell % 9);
        let mut peers = 0u32;
        let mut other = 0;
        while other < 27 {
            let (r, c) = (other / 9, other % 9);
            if r == row || c == col || c / 3 == col / 3 {
                peers |= 1 << other;
            }
            other += 1;
        }
        table[cell] = (BAND & !peers) | (1 << cell);
        cell += 1;
    }
    table
}

/// Column `c` in a band: its three cells.
const fn column(c: usize) -> u32 {
    (1 | 1 << 9 | 1 << 18) << c
}

/// The search state (see the module's doc).
#[derive(Clone, Copy)]
struct Grid {
    /// `cand[3 * digit + band]`: the band's cells where the digit (0-based) may still go.
    cand: [u32; 27],
    /// `cand` when its band propagation last ran: a differing entry needs it again.
    seen: [u32; 27],
    /// The cells of each band not yet placed.
    open: [u32; 3],
}

impl Grid {
    /// The grid with the givens placed, or `None` when two givens clash.
    fn from_givens(cells: &[u8; 81]) -> Option<Grid> {
        let mut grid = Grid {
            cand: [BAND; 27],
            seen: [0; 27],
            open: [BAND; 3],
        };
        for (i, &digit) in cells.iter().enumerate() {
            if digit != 0 {
                let d = usize::from(digit) - 1;
                assert!(d < 9, "Sudoku digit {digit} above 9");
                if !grid.place(i / 27, i % 27, d) {
                    return None;
                }
            }
        }
        Some(grid)
    }

    /// Places digit `d` (0-based) in cell `p` of band `b`; false if `d` is no longer possible there.
    #[inline(always)]
    fn place(&mut self, b: usize, p: usize, d: usize) -> bool {
        let bit = 1u32 << p;
        let own = 3 * d + b;
        if self.cand[own] & bit == 0 {
            return false;
        }
        for e in 0..9 {
            self.cand[3 * e + b] &= !bit;
        }
        self.cand[own] = (self.cand[own] | bit) & KEEP[p];
        let col = !column(p % 9);
        let (b1, b2) = (3 * d + (b + 1) % 3, 3 * d + (b + 2) % 3);
        self.cand[b1] &= col;
        self.cand[b2] &= col;
        self.open[b] &= !bit;
        true
    }

    /// Band propagation for every changed digit-band until none changes; false on a contradiction.
    /// The 27 digit-bands are unrolled so that each has its own constants and branches.
    #[inline(always)]
    fn propagate_bands(&mut self) -> bool {
        macro_rules! steps {
            ($changed:ident; $($i:literal)*) => {
                $( if !self.band_step::<$i>(&mut $changed) { return false; } )*
            };
        }
        loop {
            let mut changed = false;
            steps!(changed; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
            if !changed {
                return true;
            }
        }
    }

    /// Band propagation for digit-band `I` (digit `I / 3`, band `I % 3`) if it changed since its
    /// last run; false on a contradiction.
    #[inline(always)]
    fn band_step<const I: usize>(&mut self, changed: &mut bool) -> bool {
        let mut a = self.cand[I];
        if a == self.seen[I] {
            return true;
        }
        *changed = true;
        let (d, b) = (I / 3, I % 3);
        let live = ROW_BOXES[(a & 511) as usize]
            | ROW_BOXES[((a >> 9) & 511) as usize] << 3
            | ROW_BOXES[((a >> 18) & 511) as usize] << 6;
        a &= PERMUTATIONS[(live & 511) as usize];
        if a == 0 {
            return false;
        }
        self.cand[I] = a;
        self.seen[I] = a;
        // Locked candidates across bands: a box whose cells for `d` lie in one column.
        let others = OTHER_BANDS[((a | a >> 9 | a >> 18) & 511) as usize];
        self.cand[3 * d + (b + 1) % 3] &= others;
        self.cand[3 * d + (b + 2) % 3] &= others;
        // Hidden singles in rows: a row with one cell left, not yet placed. Inside the band the
        // permutation table has already cleared its box and column, and the other bands lost
        // its column above; the other digits lose the cell.
        let singles = a
            & self.open[b]
            & (SINGLE_ROW[(a & 511) as usize]
                | SINGLE_ROW[((a >> 9) & 511) as usize] << 9
                | SINGLE_ROW[((a >> 18) & 511) as usize] << 18);
        // Unconditional: cheaper than a hard-to-predict branch.
        self.open[b] &= !singles;
        for e in 0..9 {
            self.cand[3 * e + b] &= !singles;
        }
        self.cand[I] = a;
        true
    }

    /// Propagates to a fixed point; at it, the bivalue open cells of each band (`None` on a
    /// contradiction).
    fn propagate(&mut self) -> Option<[u32; 3]> {
        loop {
            if !self.propagate_bands() {
                return None;
            }
            let mut placed = false;
            let mut pairs = [0; 3];
            for (b, band_pairs) in pairs.iter_mut().enumerate() {
                let open = self.open[b];
                if open == 0 {
                    continue;
                }
                let (mut one, mut two, mut three) = (0, 0, 0);
                for d in 0..9 {
                    let x = self.cand[3 * d + b];
                    three |= two & x;
                    two |= one & x;
                    one |= x;
                }
                if open & !one != 0 {
                    return None;
                }
                *band_pairs = open & two & !three;
                let mut singles = open & !two;
                while singles != 0 {
                    let p = singles.trailing_zeros() as usize;
                    // The cell's one digit, unless an earlier single of this pass took it.
                    let mut digits = 0u32;
                    for d in 0..9 {
                        digits |= (self.cand[3 * d + b] >> p & 1) << d;
                    }
                    if digits == 0 {
                        return None;
                    }
                    let d = digits.trailing_zeros() as usize;
                    // No other digit has the cell: only `d`'s own peers change.
                    self.cand[3 * d + b] &= KEEP[p];
                    let col = !column(p % 9);
                    self.cand[3 * d + (b + 1) % 3] &= col;
                    self.cand[3 * d + (b + 2) % 3] &= col;
                    self.open[b] &= !(1 << p);
                    placed = true;
                    singles &= singles - 1;
                }
            }
            if !placed {
                return Some(pairs);
            }
        }
    }

    /// The cell to branch on, as (band, cell in band): a bivalue cell (from `pairs`,
    /// [`Grid::propagate`]'s) as `branching` says, else the first open cell with the fewest
    /// candidates. Only called with open cells left.
    fn branch_cell(&self, pairs: [u32; 3], branching: Branching) -> (usize, usize) {
        let band = match branching {
            // The first band with the most (ties: the first of them).
            Branching::BusiestBand => (0..3)
                .filter(|&b| pairs[b] != 0)
                .max_by_key(|&b| (pairs[b].count_ones(), std::cmp::Reverse(b))),
            Branching::FirstPair => (0..3).find(|&b| pairs[b] != 0),
        };
        if let Some(b) = band {
            return (b, pairs[b].trailing_zeros() as usize);
        }
        let mut best = (10, 0, 0);
        for b in 0..3 {
            let mut open = self.open[b];
            while open != 0 {
                let p = open.trailing_zeros() as usize;
                let n = (0..9)
                    .filter(|&d| self.cand[3 * d + b] >> p & 1 != 0)
                    .count();
                if n < best.0 {
                    best = (n, b, p);
                }
                open &= open - 1;
            }
        }
        (best.1, best.2)
    }

    /// The grid of a fully placed state.
    fn cells(&self) -> [u8; 81] {
        let mut cells = [0; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.cand[3 * d + b];
                while x != 0 {
                    cells[27 * b + x.trailing_zeros() as usize] = d as u8 + 1;
                    x &= x - 1;
                }
            }
        }
        cells
    }
}

/// Depth-first search over copies of the grid.
struct Search {
    limit: usize,
    count: usize,
    solution: Option<[u8; 81]>,
    guesses: u64,
    branching: Branching,
}

impl Search {
    /// Searches below `grid`, which it uses as scratch.
    fn run(&mut self, grid: &mut Grid) {
        let Some(pairs) = grid.propagate() else {
            return;
        };
        if grid.open == [0; 3] {
            if self.count == 0 {
                self.solution = Some(grid.cells());
            }
            self.count += 1;
            return;
        }
        if self.count == 0 {
            self.guesses += 1;
        }
        let (b, p) = grid.branch_cell(pairs, self.branching);
        let bit = 1 << p;
        let mut digits: u32 = (0..9)
            .filter(|&d| grid.cand[3 * d + b] & bit != 0)
            .fold(0, |m, d| m | 1 << d);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if digits == 0 {
                // The last candidate: no copy needed.
                grid.place(b, p, d);
                self.run(grid);
                return;
            }
            let mut child = *grid;
            child.place(b, p, d);
            self.run(&mut child);
            if self.count >= self.limit {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busiest_band_branches_in_the_band_with_the_most_bivalue_cells() {
        let grid = Grid::from_givens(&[0; 81]).expect("no givens, no clash");
        // Band 1 has two bivalue cells (1, 2), band 2 two (0, 8), band 0 one (3).
        let tie = [0b1000, 0b110, 0b1_0000_0001];
        assert_eq!(grid.branch_cell(tie, Branching::BusiestBand), (1, 1));
        assert_eq!(grid.branch_cell(tie, Branching::FirstPair), (0, 3));
        let busiest_last = [0b1, 0, 0b111 << 20];
        assert_eq!(
            grid.branch_cell(busiest_last, Branching::BusiestBand),
            (2, 20)
        );
        assert_eq!(grid.branch_cell(busiest_last, Branching::FirstPair), (0, 0));
        // No bivalue cell: the first open cell with the fewest candidates (all have nine here).
        for branching in [Branching::BusiestBand, Branching::FirstPair] {
            assert_eq!(grid.branch_cell([0; 3], branching), (0, 0));
        }
    }
}
