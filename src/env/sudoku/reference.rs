//! The reference exact solver: plain and slow on purpose, to check [`solve`](super::solve).
//!
//! Candidates per cell as a `u16` (bit `d` for digit `d`, 1–9); propagation by naked singles
//! and hidden singles in every row, column and box; then minimum-remaining-values branching
//! (the first open cell with the fewest candidates, digits in increasing order). Its
//! [`Solved::guesses`] counts branch points before the first solution, as the fast solver's does,
//! but on its own search tree.

use super::Solved;

/// The 27 units (9 rows, 9 columns, 9 boxes) as cell indices.
const UNITS: [[u8; 9]; 27] = units();

/// The 20 peers of each cell.
const PEERS: [[u8; 20]; 81] = peers();

const fn units() -> [[u8; 9]; 27] {
    let mut units = [[0; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            units[i][j] = (9 * i + j) as u8;
            units[9 + i][j] = (9 * j + i) as u8;
            units[18 + i][j] = (27 * (i / 3) + 3 * (i % 3) + 9 * (j / 3) + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    units
}

const fn peers() -> [[u8; 20]; 81] {
    let mut peers = [[0; 20]; 81];
    let mut cell = 0;
    while cell < 81 {
        let (r, c) = (cell / 9, cell % 9);
        let mut n = 0;
        let mut other = 0;
        while other < 81 {
            let (r2, c2) = (other / 9, other % 9);
            let same_box = r / 3 == r2 / 3 && c / 3 == c2 / 3;
            if other != cell && (r == r2 || c == c2 || same_box) {
                peers[cell][n] = other as u8;
                n += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    peers
}

/// Solves like [`solve`](super::solve) (same arguments, same meaning of `count` and
/// `solution`), with the simple algorithm of this module's doc.
pub fn solve_reference(cells: &[u8; 81], limit: usize) -> Solved {
    let mut board = Board {
        digits: [0; 81],
        cand: [0b11_1111_1110; 81],
    };
    let mut search = Search {
        limit: limit.max(1),
        found: Solved {
            count: 0,
            solution: None,
            guesses: 0,
        },
    };
    let valid = cells
        .iter()
        .enumerate()
        .all(|(i, &d)| d == 0 || board.assign(i, d));
    if valid {
        search.run(board);
    }
    search.found
}

#[derive(Clone, Copy)]
struct Board {
    /// 0 for an open cell.
    digits: [u8; 81],
    /// Candidates of open cells (bit `d`); 0 for placed cells.
    cand: [u16; 81],
}

impl Board {
    fn assign(&mut self, cell: usize, digit: u8) -> bool {
        assert!((1..=9).contains(&digit), "Sudoku digit {digit} above 9");
        if self.cand[cell] & (1 << digit) == 0 {
            return false;
        }
        self.digits[cell] = digit;
        self.cand[cell] = 0;
        for &peer in &PEERS[cell] {
            self.cand[peer as usize] &= !(1 << digit);
        }
        true
    }

    fn propagate(&mut self) -> bool {
        loop {
            let mut progress = false;
            for cell in 0..81 {
                if self.digits[cell] != 0 {
                    continue;
                }
                let c = self.cand[cell];
                if c == 0 {
                    return false;
                }
                if c.count_ones() == 1 {
                    self.assign(cell, c.trailing_zeros() as u8);
                    progress = true;
                }
            }
            for unit in &UNITS {
                for digit in 1..=9u8 {
                    let mut place = None;
                    let mut n = 0;
                    let mut placed = false;
                    for &cell in unit {
                        let cell = cell as usize;
                        placed |= self.digits[cell] == digit;
                        if self.cand[cell] & (1 << digit) != 0 {
                            n += 1;
                            place = Some(cell);
                        }
                    }
                    match (placed, n, place) {
                        (false, 0, _) => return false,
                        (false, 1, Some(cell)) => {
                            if !self.assign(cell, digit) {
                                return false;
                            }
                            progress = true;
                        }
                        _ => {}
                    }
                }
            }
            if !progress {
                return true;
            }
        }
    }
}

struct Search {
    limit: usize,
    found: Solved,
}

impl Search {
    fn run(&mut self, mut board: Board) {
        if !board.propagate() {
            return;
        }
        let open = (0..81)
            .filter(|&c| board.digits[c] == 0)
            .min_by_key(|&c| board.cand[c].count_ones());
        let Some(cell) = open else {
            if self.found.count == 0 {
                self.found.solution = Some(board.digits);
            }
            self.found.count += 1;
            return;
        };
        if self.found.count == 0 {
            self.found.guesses += 1;
        }
        for digit in 1..=9u8 {
            if board.cand[cell] & (1 << digit) != 0 {
                let mut child = board;
                child.assign(cell, digit);
                self.run(child);
                if self.found.count >= self.limit {
                    return;
                }
            }
        }
    }
}
