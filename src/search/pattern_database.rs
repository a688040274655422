//! Additive disjoint pattern databases for sliding-tile puzzles (Korf & Felner 2002, "Disjoint
//! pattern database heuristics"; Felner, Korf & Hanan 2004, "Additive pattern database heuristics").
//!
//! The tiles are split into disjoint groups (for the 15-puzzle 6-6-3 or 5-5-5). For one group,
//! the database stores, for every placement of that group's tiles, the fewest moves *of those
//! tiles* needed to bring them home, whatever the other tiles do. Every real move moves one tile
//! of one group, so the sum over the groups never overestimates: an admissible heuristic, far
//! stronger than Manhattan distance because it sees the tiles of a group block one another.
//!
//! Building: breadth-first search backwards from the goal over abstract states "placement of the
//! group's tiles + where the blank is". Moving another tile costs nothing, so all blank positions
//! connected through non-group cells are one state (its *region*, found by a bitmask flood fill);
//! each step moves a group tile into its neighbouring region cell at cost 1. The database keeps,
//! per placement, the smallest depth over its regions.
//!
//! Placements are ranked as k-permutations of the n cells: n·(n−1)···(n−k+1) entries, one byte each.

/// One pattern database: a group of tiles and the moves they need, by placement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternDatabase {
    rows: usize,
    cols: usize,
    tiles: Vec<u8>,
    table: Vec<u8>,
}

/// Marks a placement the search never reached (cannot happen on a connected board).
const UNSEEN: u8 = u8::MAX;

/// The rank of the placement `positions` (distinct cells below `n`) among all k-permutations.
pub fn placement_rank(positions: &[u8], n: usize) -> usize {
    let mut rank = 0;
    let mut used: u32 = 0;
    for (i, &p) in positions.iter().enumerate() {
        let below = (used & ((1u32 << p) - 1)).count_ones() as usize;
        rank = rank * (n - i) + (p as usize - below);
        used |= 1 << p;
    }
    rank
}

/// n·(n−1)···(n−k+1): how many placements `k` tiles have on `n` cells.
pub fn placements(n: usize, k: usize) -> usize {
    (n - k + 1..=n).product()
}

/// Cell geometry as bitmasks (bit `i` = cell `i`, row-major).
#[derive(Clone, Copy)]
struct Grid {
    cols: usize,
    all: u32,
    not_first_col: u32,
    not_last_col: u32,
}

impl Grid {
    fn new(rows: usize, cols: usize) -> Grid {
        let n = rows * cols;
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let first_col: u32 = (0..rows).map(|r| 1u32 << (r * cols)).sum();
        let last_col: u32 = (0..rows).map(|r| 1u32 << (r * cols + cols - 1)).sum();
        Grid {
            cols,
            all,
            not_first_col: all & !first_col,
            not_last_col: all & !last_col,
        }
    }

    /// The cells next to any cell of `mask`.
    fn neighbours(&self, mask: u32) -> u32 {
        let right = (mask & self.not_last_col) << 1;
        let left = (mask & self.not_first_col) >> 1;
        let down = mask << self.cols;
        let up = mask >> self.cols;
        (right | left | down | up) & self.all
    }

    /// The cells reachable from `start` through `free` cells (`start` included).
    fn flood(&self, free: u32, start: u32) -> u32 {
        let mut region = start;
        loop {
            let grown = region | (self.neighbours(region) & free);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

impl PatternDatabase {
    /// Builds the database of `tiles` for a `rows × cols` goal given as row-major labels (0 = blank).
    /// `progress` is called now and then with the fraction of placements found so far.
    pub fn build(
        rows: usize,
        cols: usize,
        goal: &[u8],
        tiles: &[u8],
        mut progress: impl FnMut(f32),
    ) -> PatternDatabase {
        let n = rows * cols;
        let k = tiles.len();
        assert!(
            n <= 32 && (1..=8).contains(&k),
            "pattern databases are for boards of at most 32 cells and groups of at most 8 tiles"
        );
        let grid = Grid::new(rows, cols);
        let size = placements(n, k);
        let mut table = vec![UNSEEN; size];
        // Visited (placement, region): the region is named by its lowest cell.
        let mut visited = vec![0u64; (size * n).div_ceil(64)];
        let goal_positions: Vec<u8> = tiles
            .iter()
            .map(|t| {
                goal.iter()
                    .position(|l| l == t)
                    .expect("every pattern tile is on the goal board") as u8
            })
            .collect();
        let goal_blank = goal
            .iter()
            .position(|&l| l == 0)
            .expect("the goal has a blank") as u32;
        let occupied: u32 = goal_positions.iter().map(|&p| 1u32 << p).sum();
        let region = grid.flood(grid.all & !occupied, 1 << goal_blank);
        let encode = |positions: &[u8], representative: u32| -> u64 {
            positions
                .iter()
                .fold(representative as u64, |acc, &p| (acc << 5) | p as u64)
        };
        let decode = |code: u64, positions: &mut [u8]| -> u32 {
            let mut c = code;
            for i in (0..k).rev() {
                positions[i] = (c & 31) as u8;
                c >>= 5;
            }
            c as u32
        };
        let start_rank = placement_rank(&goal_positions, n);
        table[start_rank] = 0;
        let key = start_rank * n + region.trailing_zeros() as usize;
        visited[key / 64] |= 1 << (key % 64);
        let mut frontier = vec![encode(&goal_positions, region.trailing_zeros())];
        let mut next = Vec::new();
        let mut found = 1usize;
        let mut depth: u8 = 0;
        let mut positions = vec![0u8; k];
        let mut child = vec![0u8; k];
        while !frontier.is_empty() {
            for &code in &frontier {
                let representative = decode(code, &mut positions);
                let occupied: u32 = positions.iter().map(|&p| 1u32 << p).sum();
                let free = grid.all & !occupied;
                let region = grid.flood(free, 1 << representative);
                for i in 0..k {
                    let from = positions[i];
                    // Group tile i slides into a neighbouring cell of the blank's region.
                    let mut targets = grid.neighbours(1 << from) & region;
                    while targets != 0 {
                        let to = targets.trailing_zeros();
                        targets &= targets - 1;
                        child.copy_from_slice(&positions);
                        child[i] = to as u8;
                        let child_free = (free & !(1 << to)) | (1 << from);
                        let child_region = grid.flood(child_free, 1 << from);
                        let rank = placement_rank(&child, n);
                        let key = rank * n + child_region.trailing_zeros() as usize;
                        if visited[key / 64] & (1 << (key % 64)) != 0 {
                            continue;
                        }
                        visited[key / 64] |= 1 << (key % 64);
                        if table[rank] == UNSEEN {
                            table[rank] = depth + 1;
                            found += 1;
                        }
                        next.push(encode(&child, child_region.trailing_zeros()));
                    }
                }
            }
            depth += 1;
            progress(found as f32 / size as f32);
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        PatternDatabase {
            rows,
            cols,
            tiles: tiles.to_vec(),
            table,
        }
    }

    /// A database from a table loaded from a file (entries in [`placement_rank`] order).
    pub fn from_table(rows: usize, cols: usize, tiles: Vec<u8>, table: Vec<u8>) -> PatternDatabase {
        assert_eq!(table.len(), placements(rows * cols, tiles.len()));
        PatternDatabase {
            rows,
            cols,
            tiles,
            table,
        }
    }

    /// The tiles of this group.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// Entries (placements).
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the database has no entries (never, once built).
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Board size (rows, cols).
    pub fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// Moves the group's tiles need from the placement `positions` (in [`Self::tiles`] order).
    pub fn lookup(&self, positions: &[u8]) -> u8 {
        self.table[placement_rank(positions, self.rows * self.cols)]
    }

    /// The largest entry.
    pub fn max_value(&self) -> u8 {
        self.table
            .iter()
            .copied()
            .filter(|&v| v != UNSEEN)
            .max()
            .unwrap_or(0)
    }

    /// The raw table, for saving.
    pub fn table(&self) -> &[u8] {
        &self.table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_ranks_are_a_bijection() {
        let (n, k) = (6, 3);
        let mut seen = vec![false; placements(n, k)];
        for a in 0..n as u8 {
            for b in (0..n as u8).filter(|&b| b != a) {
                for c in (0..n as u8).filter(|&c| c != a && c != b) {
                    let r = placement_rank(&[a, b, c], n);
                    assert!(!seen[r]);
                    seen[r] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn flood_fill_follows_the_grid() {
        let grid = Grid::new(3, 3);
        // Cells 1, 4, 7 (the middle column) blocked: the left column is a region of its own.
        let free = grid.all & !((1 << 1) | (1 << 4) | (1 << 7));
        assert_eq!(grid.flood(free, 1 << 0), (1 << 0) | (1 << 3) | (1 << 6));
        assert_eq!(
            grid.neighbours(1 << 2),
            (1 << 1) | (1 << 5),
            "no wrap from the last column"
        );
        assert_eq!(
            grid.neighbours(1 << 3),
            (1 << 0) | (1 << 4) | (1 << 6),
            "no wrap into the last column"
        );
    }

    #[test]
    fn a_one_tile_database_is_that_tiles_manhattan_distance() {
        let goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
        let db = PatternDatabase::build(3, 3, &goal, &[5], |_| {});
        for cell in 0..9u8 {
            let expected = (cell as i32 / 3 - 1).abs() + (cell as i32 % 3 - 1).abs();
            assert_eq!(db.lookup(&[cell]) as i32, expected);
        }
    }
}
