//! The exact solver of the fewest clicks (the dust puzzle, or any rules played for clicks):
//! iterative deepening over bitboards with a transposition table of proven lower bounds, an
//! admissible bound (one click per colour left), and a beam search's first clearing as the upper bound.
//!
//! Boards of at most 64 cells, 8 rows and 7 colours. A cell (column `c`, row `r`, row 0 at the
//! top) is bit `c · height + (height − 1 − r)`: each column is `height` consecutive bits, its
//! bottom first, so the piles of a column are always its lowest bits.

use super::board::{closed_positions, Board, Objective};
use crate::hash::FastMap;
use std::sync::OnceLock;

/// The most cells the exact solver takes.
pub const EXACT_MAX_CELLS: usize = 64;
/// The most rows the exact solver takes.
pub const EXACT_MAX_HEIGHT: usize = 8;
/// The most colours the exact solver takes.
pub const EXACT_MAX_COLOURS: u8 = 7;

/// Why the exact solver refused a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    /// Too large for the bitboards.
    #[error("the exact solver takes boards of at most {EXACT_MAX_CELLS} cells, {EXACT_MAX_HEIGHT} rows and {EXACT_MAX_COLOURS} colours (this one: {width} × {height}, {colours} colours)")]
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// Colours.
        colours: u8,
    },
    /// Rules played for the score, not the clicks.
    #[error("the exact solver finds the fewest clicks; these rules are played for the score")]
    NotClicks,
    /// Rules where a single pile may not be clicked (a board may then not clear).
    #[error("the exact solver takes rules where any pile may be clicked (smallest group 1)")]
    MinGroup,
}

/// The solver's limits and what it reports to.
#[derive(Clone, Copy, Debug)]
pub struct ExactLimits {
    /// Nodes (positions expanded) after which the solver stops with what it has.
    pub max_nodes: u64,
    /// Positions the transposition table keeps at most (about 40 bytes each); beyond it new
    /// positions are not stored (the search stays exact, only slower).
    pub max_table: usize,
    /// Positions a layer of the beam search that finds the first clearing keeps (1, or 0: the
    /// greedy clearing, the click that leaves the fewest groups each time).
    pub beam_width: usize,
}

impl Default for ExactLimits {
    fn default() -> Self {
        ExactLimits {
            max_nodes: u64::MAX,
            max_table: 8_000_000,
            beam_width: 1000,
        }
    }
}

/// What the exact solver found.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ExactSolution {
    /// The clicks, as `(column, row)` with row 0 at the top of the board as it stands before
    /// each click.
    pub clicks: Vec<(usize, usize)>,
    /// Whether `clicks` is proved to be the fewest.
    pub optimal: bool,
    /// The proved lower bound on the number of clicks (equal to the length when optimal).
    pub lower_bound: usize,
    /// Positions expanded.
    pub nodes: u64,
    /// Positions in the transposition table at the end.
    pub table: usize,
}

/// Why the search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node budget ran out.
    Budget,
    /// The caller asked to stop.
    Cancelled,
}

/// What the solver tells the caller between iterations and every so many nodes.
#[derive(Clone, Copy, Debug)]
pub struct ExactProgress {
    /// The depth being searched (clicks).
    pub depth: usize,
    /// The best length known (the greedy's, or better).
    pub best: usize,
    /// Nodes so far.
    pub nodes: u64,
}

/// The bitboard geometry of one board size.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    width: usize,
    height: usize,
    /// Every cell.
    all: u64,
    /// The bottom cell of every column.
    bottom: u64,
    /// The top cell of every column.
    top: u64,
    /// One column's bits.
    column: u64,
}

impl Geometry {
    fn new(width: usize, height: usize) -> Geometry {
        let cells = width * height;
        let all = if cells == 64 {
            u64::MAX
        } else {
            (1u64 << cells) - 1
        };
        let column = (1u64 << height) - 1;
        let mut bottom = 0;
        let mut top = 0;
        for c in 0..width {
            bottom |= 1u64 << (c * height);
            top |= 1u64 << (c * height + height - 1);
        }
        Geometry {
            width,
            height,
            all,
            bottom,
            top,
            column,
        }
    }

    fn bit(&self, col: usize, row: usize) -> u64 {
        1u64 << (col * self.height + (self.height - 1 - row))
    }

    fn col_row(&self, bit: u32) -> (usize, usize) {
        let b = bit as usize;
        (b / self.height, self.height - 1 - b % self.height)
    }

    fn neighbours(&self, g: u64) -> u64 {
        let up = (g << 1) & !self.bottom;
        let down = (g >> 1) & !self.top;
        let right = g << self.height;
        let left = g >> self.height;
        (g | up | down | left | right) & self.all
    }

    fn flood(&self, seed: u64, colour: u64) -> u64 {
        let mut g = seed;
        loop {
            let n = self.neighbours(g) & colour;
            if n == g {
                return g;
            }
            g = n;
        }
    }
}

/// `pext` of 8-bit values: `PEXT[mask << 8 | value]` keeps `value`'s bits where `mask` is set,
/// packed to the bottom (how a column's piles fall).
fn pext_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![0u8; 256 * 256];
        for mask in 0..256usize {
            for value in 0..256usize {
                let mut out = 0u8;
                let mut k = 0;
                for bit in 0..8 {
                    if mask >> bit & 1 == 1 {
                        out |= ((value >> bit & 1) as u8) << k;
                        k += 1;
                    }
                }
                t[mask << 8 | value] = out;
            }
        }
        t
    })
}

/// A position: one bitboard per colour (index 0 unused).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Position {
    colours: [u64; 8],
}

impl Position {
    fn filled(&self) -> u64 {
        self.colours.iter().fold(0, |a, &c| a | c)
    }

    fn colours_left(&self) -> usize {
        self.colours[1..].iter().filter(|&&c| c != 0).count()
    }

    /// The exact key: three bit planes of the colour index.
    fn key(&self) -> [u64; 3] {
        let mut key = [0u64; 3];
        for (c, &mask) in self.colours.iter().enumerate().skip(1) {
            for (k, plane) in key.iter_mut().enumerate() {
                if c >> k & 1 == 1 {
                    *plane |= mask;
                }
            }
        }
        key
    }
}

type Table = FastMap<[u64; 3], u8>;

struct Solver<'a> {
    geo: Geometry,
    centre: bool,
    pext: &'static [u8],
    table: Table,
    limits: ExactLimits,
    nodes: u64,
    path: Vec<u64>,
    progress: &'a mut dyn FnMut(ExactProgress) -> bool,
    best: usize,
    depth: usize,
}

impl Solver<'_> {
    /// The groups of a position, one seed bit each: (colour, group bits).
    fn groups(&self, p: &Position, out: &mut Vec<(usize, u64)>) {
        out.clear();
        for c in 1..8 {
            let mut left = p.colours[c];
            while left != 0 {
                let seed = left & left.wrapping_neg();
                let g = self.geo.flood(seed, p.colours[c]);
                out.push((c, g));
                left &= !g;
            }
        }
    }

    /// The position after removing `group` of `colour`.
    fn remove(&self, p: &Position, colour: usize, group: u64) -> Position {
        let mut next = *p;
        next.colours[colour] &= !group;
        let geo = &self.geo;
        let h = geo.height;
        let filled = next.filled();
        let mut emptied = false;
        for col in 0..geo.width {
            let shift = col * h;
            if (group >> shift) & geo.column == 0 {
                continue;
            }
            let occ = ((filled >> shift) & geo.column) as usize;
            if occ == 0 {
                emptied = true;
            }
            for mask in next.colours.iter_mut().skip(1) {
                let v = ((*mask >> shift) & geo.column) as usize;
                if v != 0 {
                    let packed = self.pext[occ << 8 | v] as u64;
                    *mask = (*mask & !(geo.column << shift)) | (packed << shift);
                }
            }
        }
        if emptied {
            let filled = next.filled();
            let has: Vec<bool> = (0..geo.width)
                .map(|c| (filled >> (c * h)) & geo.column != 0)
                .collect();
            let closing = if self.centre {
                super::board::Closing::Centre
            } else {
                super::board::Closing::Left
            };
            let target = closed_positions(closing, &has);
            for mask in next.colours.iter_mut().skip(1) {
                if *mask == 0 {
                    continue;
                }
                let mut moved = 0u64;
                for (col, to) in target.iter().enumerate() {
                    if let Some(to) = to {
                        moved |= ((*mask >> (col * h)) & geo.column) << (to * h);
                    }
                }
                *mask = moved;
            }
        }
        next
    }

    fn bound(&self, p: &Position) -> usize {
        let h = p.colours_left();
        match self.table.get(&p.key()) {
            Some(&t) => h.max(t as usize),
            None => h,
        }
    }

    fn remember(&mut self, p: &Position, lower: usize) {
        let key = p.key();
        if self.table.len() >= self.limits.max_table && !self.table.contains_key(&key) {
            return;
        }
        let slot = self.table.entry(key).or_insert(0);
        *slot = (*slot).max(lower.min(255) as u8);
    }

    /// Whether `p` can be cleared in `budget` clicks; on success `path` holds the groups clicked
    /// (seed bits of the position they were clicked in).
    fn search(&mut self, p: &Position, budget: usize) -> Result<bool, Stop> {
        if p.colours_left() == 0 {
            return Ok(true);
        }
        if self.bound(p) > budget {
            return Ok(false);
        }
        self.nodes += 1;
        if self.nodes >= self.limits.max_nodes {
            return Err(Stop::Budget);
        }
        if self.nodes & 0xFFFF == 0
            && !(self.progress)(ExactProgress {
                depth: self.depth,
                best: self.best,
                nodes: self.nodes,
            })
        {
            return Err(Stop::Cancelled);
        }
        let mut groups = Vec::with_capacity(32);
        self.groups(p, &mut groups);
        // Every colour needs a click, and the click that removes a colour's last piles takes a
        // whole colour: if no colour is one group now, the next click cannot be such a click,
        // so one more than the colours left is needed.
        let k = p.colours_left();
        let single = (1..8).any(|c| groups.iter().filter(|&&(gc, _)| gc == c).count() == 1);
        if !single && k + 1 > budget {
            self.remember(p, k + 1);
            return Ok(false);
        }
        let mut children: Vec<(usize, u64, Position)> = groups
            .iter()
            .map(|&(c, g)| {
                let child = self.remove(p, c, g);
                (self.bound(&child), g, child)
            })
            .collect();
        children.sort_by_key(|&(b, g, _)| (b, std::cmp::Reverse(g.count_ones())));
        let mut lower = usize::MAX;
        for (b, g, child) in children {
            if 1 + b > budget {
                lower = lower.min(1 + b);
                continue;
            }
            self.path.push(g & g.wrapping_neg());
            if self.search(&child, budget - 1)? {
                return Ok(true);
            }
            self.path.pop();
            lower = lower.min(1 + self.bound(&child));
        }
        self.remember(p, lower.max(budget + 1));
        Ok(false)
    }

    /// A beam search for a short clearing: layer by layer, every click of every kept position,
    /// duplicates dropped, the `width` children with the fewest groups kept (ties: fewer piles).
    fn beam(&self, start: &Position, width: usize) -> Option<Vec<u64>> {
        let mut layer: Vec<(Position, Vec<u64>)> = vec![(*start, Vec::new())];
        let mut groups = Vec::new();
        let mut after = Vec::new();
        while !layer.is_empty() {
            let mut seen = std::collections::HashSet::with_capacity(layer.len() * 16);
            let mut next: Vec<(usize, u32, Position, Vec<u64>)> = Vec::new();
            for (p, path) in &layer {
                self.groups(p, &mut groups);
                for &(c, g) in &groups {
                    let child = self.remove(p, c, g);
                    let mut line = path.clone();
                    line.push(g & g.wrapping_neg());
                    if child.colours_left() == 0 {
                        return Some(line);
                    }
                    if !seen.insert(child.key()) {
                        continue;
                    }
                    self.groups(&child, &mut after);
                    next.push((after.len(), child.filled().count_ones(), child, line));
                }
            }
            next.sort_unstable_by_key(|&(g, piles, _, _)| (g, piles));
            next.truncate(width);
            layer = next.into_iter().map(|(_, _, p, line)| (p, line)).collect();
        }
        None
    }
}

/// Checks that the exact solver takes `board`.
pub fn exact_supports(board: &Board) -> Result<(), ExactError> {
    let r = board.rules();
    if r.objective != Objective::Clicks {
        return Err(ExactError::NotClicks);
    }
    if r.min_group != 1 {
        return Err(ExactError::MinGroup);
    }
    if r.width * r.height > EXACT_MAX_CELLS
        || r.height > EXACT_MAX_HEIGHT
        || r.colours > EXACT_MAX_COLOURS
    {
        return Err(ExactError::TooLarge {
            width: r.width,
            height: r.height,
            colours: r.colours,
        });
    }
    Ok(())
}

/// Finds the fewest clicks that clear `board` (rules played for clicks, any closing, smallest
/// group 1) by iterative deepening from the bound. `progress` is called between depths and every
/// 65,536 nodes; returning `false` stops the search, as does the node budget: the answer is then
/// the best clearing found (the greedy's at least) with `optimal: false` and the lower bound
/// proved so far.
pub fn solve_fewest_clicks(
    board: &Board,
    limits: ExactLimits,
    progress: &mut dyn FnMut(ExactProgress) -> bool,
) -> Result<ExactSolution, ExactError> {
    exact_supports(board)?;
    let r = board.rules();
    let geo = Geometry::new(r.width, r.height);
    let mut start = Position { colours: [0; 8] };
    for row in 0..r.height {
        for col in 0..r.width {
            let c = board.get(col, row) as usize;
            if c != 0 {
                start.colours[c] |= geo.bit(col, row);
            }
        }
    }
    let mut solver = Solver {
        geo,
        centre: r.closing == super::board::Closing::Centre,
        pext: pext_table(),
        table: Table::default(),
        limits,
        nodes: 0,
        path: Vec::new(),
        progress,
        best: 0,
        depth: 0,
    };
    // Width 1 is the greedy clearing; with any pile clickable every board clears.
    let greedy = solver
        .beam(&start, limits.beam_width.max(1))
        .expect("a board where any pile may be clicked clears");
    solver.best = greedy.len();
    let mut depth = start.colours_left();
    let (seeds, optimal, lower) = loop {
        if depth >= greedy.len() {
            break (greedy.clone(), true, greedy.len());
        }
        solver.depth = depth;
        if !(solver.progress)(ExactProgress {
            depth,
            best: solver.best,
            nodes: solver.nodes,
        }) {
            break (greedy.clone(), false, depth);
        }
        solver.path.clear();
        match solver.search(&start, depth) {
            Ok(true) => break (solver.path.clone(), true, depth),
            Ok(false) => depth += 1,
            Err(_) => break (greedy.clone(), false, depth),
        }
    };
    // Replay the seeds to name the clicks as (column, row) of the board before each.
    let mut clicks = Vec::with_capacity(seeds.len());
    let mut replay = board.clone();
    let mut p = start;
    for seed in seeds {
        let bit = seed.trailing_zeros();
        let (col, row) = solver.geo.col_row(bit);
        clicks.push((col, row));
        let colour = (1..8).find(|&c| p.colours[c] & seed != 0).expect("a pile");
        let g = solver.geo.flood(seed, p.colours[colour]);
        p = solver.remove(&p, colour, g);
        replay.click(col, row).expect("the solver's click is legal");
    }
    debug_assert!(replay.is_empty());
    Ok(ExactSolution {
        clicks,
        optimal,
        lower_bound: lower,
        nodes: solver.nodes,
        table: solver.table.len(),
    })
}
