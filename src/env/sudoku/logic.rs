//! The logical solver: named techniques applied in order of difficulty, the way a person (and
//! Sudoku Explainer) solves, and the puzzle's rating: the difficulty of the hardest step it
//! needed, on Sudoku Explainer's scale.
//!
//! Each step is the easiest technique that applies anywhere on the grid (as in Sudoku
//! Explainer, "SE" below): hidden single in a box (SE 1.2) or a line (1.5); pointing or
//! claiming, a hidden pair, or a hidden triple that at once leaves a digit one place in a unit
//! ("direct", 1.7 / 1.9 / 2.0 / 2.5); naked single (2.3); pointing (2.6), claiming (2.8); naked
//! pair (3.0); X-wing (3.2); hidden pair (3.4); naked triple (3.6); swordfish (3.8); hidden triple
//! (4.0); XY-wing (4.2); XYZ-wing (4.4); unique rectangle type 1 (4.5); naked quad (5.0); jellyfish
//! (5.2); hidden quad (5.4); the bivalue universal grave + 1 (5.6). Past those the solver tries
//! each candidate in turn and follows the singles it forces (a contradiction removes it): a
//! forcing chain, rated 6.6 to 8.0 by the number of forced placements (SE rates its forcing chains
//! and Nishio 6.5–8.5 by length); then the same with this whole solver as the propagation
//! ("nested", 9.0 and up). A puzzle none of that finishes is rated 11 ("needs guessing").

use super::grid::{Grid, Shape, UnitKind};
use std::fmt;
use std::sync::Arc;

/// A named technique, with Sudoku Explainer's difficulty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The only cell of a box that can hold a digit.
    HiddenSingleBox,
    /// The only cell of a row or column that can hold a digit.
    HiddenSingleLine,
    /// Pointing whose eliminations leave a digit one place in a unit.
    DirectPointing,
    /// Claiming whose eliminations leave a digit one place in a unit.
    DirectClaiming,
    /// A hidden pair whose eliminations leave a digit one place in a unit.
    DirectHiddenPair,
    /// A cell with one candidate left.
    NakedSingle,
    /// A hidden triple whose eliminations leave a digit one place in a unit.
    DirectHiddenTriple,
    /// A digit confined to one line inside a box: it leaves the rest of that line.
    Pointing,
    /// A digit confined to one box inside a line: it leaves the rest of that box.
    Claiming,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// A digit in two rows confined to two columns (or the transpose).
    XWing,
    /// Two digits of a unit confined to the same two cells.
    HiddenPair,
    /// Three cells of a unit with three candidates between them.
    NakedTriple,
    /// The X-wing on three lines.
    Swordfish,
    /// Three digits of a unit confined to the same three cells.
    HiddenTriple,
    /// A bivalue pivot xy with pincers xz and yz: z leaves every cell that sees both pincers.
    XyWing,
    /// A pivot xyz with pincers xz and yz: z leaves every cell that sees all three.
    XyzWing,
    /// Three corners of a rectangle over two boxes hold only {a, b}: the fourth cannot be a or b.
    UniqueRectangle,
    /// Four cells of a unit with four candidates between them.
    NakedQuad,
    /// The X-wing on four lines.
    Jellyfish,
    /// Four digits of a unit confined to the same four cells.
    HiddenQuad,
    /// Every unsolved cell bivalue but one: that one's thrice-seen digit is its digit.
    BivalueUniversalGrave,
    /// A candidate whose forced singles reach a contradiction, so it is removed.
    ForcingChain,
    /// A candidate whose consequences under this whole solver reach a contradiction.
    NestedForcingChain,
}

impl Technique {
    /// Every technique, easiest first (the order steps are looked for).
    pub const ORDER: [Technique; 24] = [
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::DirectPointing,
        Technique::DirectClaiming,
        Technique::DirectHiddenPair,
        Technique::NakedSingle,
        Technique::DirectHiddenTriple,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::UniqueRectangle,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::BivalueUniversalGrave,
        Technique::ForcingChain,
        Technique::NestedForcingChain,
    ];

    /// Sudoku Explainer's difficulty of the technique (for the chains, their least).
    pub fn rating(self) -> f32 {
        match self {
            Technique::HiddenSingleBox => 1.2,
            Technique::HiddenSingleLine => 1.5,
            Technique::DirectPointing => 1.7,
            Technique::DirectClaiming => 1.9,
            Technique::DirectHiddenPair => 2.0,
            Technique::NakedSingle => 2.3,
            Technique::DirectHiddenTriple => 2.5,
            Technique::Pointing => 2.6,
            Technique::Claiming => 2.8,
            Technique::NakedPair => 3.0,
            Technique::XWing => 3.2,
            Technique::HiddenPair => 3.4,
            Technique::NakedTriple => 3.6,
            Technique::Swordfish => 3.8,
            Technique::HiddenTriple => 4.0,
            Technique::XyWing => 4.2,
            Technique::XyzWing => 4.4,
            Technique::UniqueRectangle => 4.5,
            Technique::NakedQuad => 5.0,
            Technique::Jellyfish => 5.2,
            Technique::HiddenQuad => 5.4,
            Technique::BivalueUniversalGrave => 5.6,
            Technique::ForcingChain => 6.6,
            Technique::NestedForcingChain => 9.0,
        }
    }

    /// The technique's usual name.
    pub fn name(self) -> &'static str {
        match self {
            Technique::HiddenSingleBox => "hidden single (box)",
            Technique::HiddenSingleLine => "hidden single (line)",
            Technique::DirectPointing => "direct pointing",
            Technique::DirectClaiming => "direct claiming",
            Technique::DirectHiddenPair => "direct hidden pair",
            Technique::NakedSingle => "naked single",
            Technique::DirectHiddenTriple => "direct hidden triple",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "X-wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden triple",
            Technique::XyWing => "XY-wing",
            Technique::XyzWing => "XYZ-wing",
            Technique::UniqueRectangle => "unique rectangle",
            Technique::NakedQuad => "naked quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden quad",
            Technique::BivalueUniversalGrave => "bivalue universal grave",
            Technique::ForcingChain => "forcing chain",
            Technique::NestedForcingChain => "nested forcing chain",
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step of the logical solver: what it places or removes, and what it reasons from.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// This step's difficulty (the technique's, or more for a long chain).
    pub rating: f32,
    /// Digits placed: (cell, digit).
    pub placements: Vec<(usize, u8)>,
    /// Candidates removed: (cell, digit).
    pub eliminations: Vec<(usize, u8)>,
    /// The cells the reasoning uses (a hint highlights them).
    pub cells: Vec<usize>,
    /// The units it reasons about (indices into [`Shape::units`]).
    pub units: Vec<usize>,
    /// The digits it is about.
    pub digits: Vec<u8>,
}

fn cell_name(shape: Shape, cell: usize) -> String {
    format!("r{}c{}", cell / shape.size + 1, cell % shape.size + 1)
}

fn unit_name(shape: Shape, unit: usize) -> String {
    let (kind, index) = UnitKind::of(shape, unit);
    format!("{kind} {}", index + 1)
}

impl Step {
    /// One sentence saying what the step does and why, cells written r<row>c<col> from 1.
    pub fn explain(&self, shape: Shape) -> String {
        let cells: Vec<String> = self.cells.iter().map(|&c| cell_name(shape, c)).collect();
        let units: Vec<String> = self.units.iter().map(|&u| unit_name(shape, u)).collect();
        let digits: Vec<String> = self.digits.iter().map(|d| d.to_string()).collect();
        let placed: Vec<String> = self
            .placements
            .iter()
            .map(|&(c, d)| format!("{d} at {}", cell_name(shape, c)))
            .collect();
        let removed: Vec<String> = self
            .eliminations
            .iter()
            .map(|&(c, d)| format!("{d} from {}", cell_name(shape, c)))
            .collect();
        let reason = match self.technique {
            Technique::HiddenSingleBox | Technique::HiddenSingleLine => format!(
                "{} can go in only one cell of {}",
                digits.join(""),
                units.join(", ")
            ),
            Technique::NakedSingle => format!("{} has no other candidate", cells.join(", ")),
            Technique::Pointing
            | Technique::Claiming
            | Technique::DirectPointing
            | Technique::DirectClaiming => format!(
                "in {}, {} lies only in {} (cells {}), so it leaves the rest of {}",
                units[0],
                digits.join(""),
                units[1],
                cells.join(" "),
                units[1]
            ),
            Technique::NakedPair | Technique::NakedTriple | Technique::NakedQuad => format!(
                "cells {} of {} hold only {} between them",
                cells.join(" "),
                units.join(", "),
                digits.join("")
            ),
            Technique::HiddenPair
            | Technique::HiddenTriple
            | Technique::HiddenQuad
            | Technique::DirectHiddenPair
            | Technique::DirectHiddenTriple => format!(
                "in {}, digits {} fit only cells {}",
                units.join(", "),
                digits.join(""),
                cells.join(" ")
            ),
            Technique::XWing | Technique::Swordfish | Technique::Jellyfish => format!(
                "{} in {} lies only in {} lines (cells {})",
                digits.join(""),
                units.join(", "),
                self.units.len(),
                cells.join(" ")
            ),
            Technique::XyWing | Technique::XyzWing => format!(
                "pivot {} and pincers {}: one of them is {}",
                cells[0],
                cells[1..].join(" "),
                digits.last().cloned().unwrap_or_default()
            ),
            Technique::UniqueRectangle => format!(
                "{} would otherwise allow two solutions swapping {}",
                cells.join(" "),
                digits.join(" and ")
            ),
            Technique::BivalueUniversalGrave => format!(
                "every other cell has two candidates, so {} is the one that breaks the pattern",
                cells.join(" ")
            ),
            Technique::ForcingChain | Technique::NestedForcingChain => format!(
                "{} at {} leads to a contradiction",
                digits.join(""),
                cells.join(" ")
            ),
        };
        let mut what = Vec::new();
        if !placed.is_empty() {
            what.push(format!("place {}", placed.join(", ")));
        }
        if !removed.is_empty() {
            what.push(format!("remove {}", removed.join(", ")));
        }
        format!("{}: {}; {}.", self.technique, reason, what.join("; "))
    }
}

/// A grid with candidates, as the logical solver sees it.
#[derive(Clone, Debug)]
pub struct Board {
    shape: Shape,
    cells: Vec<u8>,
    candidates: Vec<u16>,
    // Shared by the copies the chains and the "direct" checks make.
    units: Arc<Vec<Vec<usize>>>,
    peers: Arc<Vec<Vec<usize>>>,
}

fn digits_of(mask: u16) -> impl Iterator<Item = u8> {
    (1..16u8).filter(move |d| mask & (1 << d) != 0)
}

/// Every subset of `k` items of `items` (in order), passed to `visit` until it returns `Some`.
fn subsets<T: Copy, R>(
    items: &[T],
    k: usize,
    visit: &mut impl FnMut(&[T]) -> Option<R>,
) -> Option<R> {
    fn go<T: Copy, R>(
        items: &[T],
        k: usize,
        start: usize,
        chosen: &mut Vec<T>,
        visit: &mut impl FnMut(&[T]) -> Option<R>,
    ) -> Option<R> {
        if chosen.len() == k {
            return visit(chosen);
        }
        for i in start..items.len() {
            if items.len() - i < k - chosen.len() {
                break;
            }
            chosen.push(items[i]);
            let found = go(items, k, i + 1, chosen, visit);
            chosen.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
    go(items, k, 0, &mut Vec::with_capacity(k), visit)
}

impl Board {
    /// The board of `grid`, candidates computed from its digits.
    pub fn new(grid: &Grid) -> Board {
        let shape = grid.shape();
        Board {
            shape,
            cells: grid.cells().to_vec(),
            candidates: grid.candidates(),
            units: Arc::new(shape.units()),
            peers: Arc::new((0..shape.cells()).map(|c| shape.peers(c)).collect()),
        }
    }

    /// The board of `grid` with the given candidates (one mask per cell, bit `d` for digit `d`;
    /// 0 for a filled cell): a position as a person's pencil marks left it.
    pub fn with_candidates(grid: &Grid, candidates: Vec<u16>) -> Board {
        assert_eq!(candidates.len(), grid.shape().cells(), "one mask per cell");
        let mut board = Board::new(grid);
        board.candidates = candidates;
        board
    }

    /// The digits placed so far, as a grid.
    pub fn grid(&self) -> Grid {
        Grid::from_cells(&self.cells).expect("the board keeps the shape's digits")
    }

    /// The candidates of every cell (0 for a filled cell).
    pub fn candidates(&self) -> &[u16] {
        &self.candidates
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&d| d != 0)
    }

    /// Whether the board is plainly broken: an empty cell without candidates, or a digit with no
    /// place left in a unit.
    pub fn is_broken(&self) -> bool {
        if (0..self.cells.len()).any(|c| self.cells[c] == 0 && self.candidates[c] == 0) {
            return true;
        }
        self.units.iter().any(|unit| {
            let mut seen = 0u16;
            for &c in unit {
                seen |= self.candidates[c];
                if self.cells[c] != 0 {
                    seen |= 1 << self.cells[c];
                }
            }
            seen != self.shape.all_digits()
        })
    }

    /// Applies a step: places its digits (removing them from peers) and removes its candidates.
    pub fn apply(&mut self, step: &Step) {
        for &(cell, digit) in &step.placements {
            self.place(cell, digit);
        }
        for &(cell, digit) in &step.eliminations {
            self.candidates[cell] &= !(1 << digit);
        }
    }

    fn place(&mut self, cell: usize, digit: u8) {
        self.cells[cell] = digit;
        self.candidates[cell] = 0;
        for &p in &self.peers[cell] {
            self.candidates[p] &= !(1 << digit);
        }
    }

    fn sees(&self, a: usize, b: usize) -> bool {
        a != b && self.peers[a].binary_search(&b).is_ok()
    }

    /// `digit` removed from every cell that has it and sees all of `cells` (a wing's conclusion).
    fn seen_by_all(&self, digit: u8, cells: &[usize]) -> Vec<(usize, u8)> {
        (0..self.cells.len())
            .filter(|&c| {
                self.candidates[c] & (1 << digit) != 0 && cells.iter().all(|&x| self.sees(c, x))
            })
            .map(|c| (c, digit))
            .collect()
    }

    /// The cells of `unit` where `digit` is a candidate.
    fn places(&self, unit: usize, digit: u8) -> Vec<usize> {
        self.units[unit]
            .iter()
            .copied()
            .filter(|&c| self.candidates[c] & (1 << digit) != 0)
            .collect()
    }

    fn step(technique: Technique) -> Step {
        Step {
            technique,
            rating: technique.rating(),
            placements: vec![],
            eliminations: vec![],
            cells: vec![],
            units: vec![],
            digits: vec![],
        }
    }

    /// The easiest step that applies (techniques tried in [`Technique::ORDER`]), up to and
    /// including `hardest`; `None` when none does (or the board is full).
    pub fn next_step(&self, hardest: Technique) -> Option<Step> {
        if self.is_full() {
            return None;
        }
        Technique::ORDER
            .into_iter()
            .take_while(|&t| t <= hardest)
            .find_map(|t| self.find(t))
    }

    /// The first instance of `technique` on the board, if any.
    pub fn find(&self, technique: Technique) -> Option<Step> {
        match technique {
            Technique::HiddenSingleBox => self.hidden_single(true),
            Technique::HiddenSingleLine => self.hidden_single(false),
            Technique::NakedSingle => self.naked_single(),
            Technique::Pointing => self.locked(true, false),
            Technique::Claiming => self.locked(false, false),
            Technique::DirectPointing => self.locked(true, true),
            Technique::DirectClaiming => self.locked(false, true),
            Technique::NakedPair => self.naked_subset(2),
            Technique::NakedTriple => self.naked_subset(3),
            Technique::NakedQuad => self.naked_subset(4),
            Technique::HiddenPair => self.hidden_subset(2, false),
            Technique::HiddenTriple => self.hidden_subset(3, false),
            Technique::HiddenQuad => self.hidden_subset(4, false),
            Technique::DirectHiddenPair => self.hidden_subset(2, true),
            Technique::DirectHiddenTriple => self.hidden_subset(3, true),
            Technique::XWing => self.fish(2),
            Technique::Swordfish => self.fish(3),
            Technique::Jellyfish => self.fish(4),
            Technique::XyWing => self.xy_wing(),
            Technique::XyzWing => self.xyz_wing(),
            Technique::UniqueRectangle => self.unique_rectangle(),
            Technique::BivalueUniversalGrave => self.bug(),
            Technique::ForcingChain => self.forcing_chain(false),
            Technique::NestedForcingChain => self.forcing_chain(true),
        }
    }

    fn hidden_single(&self, in_box: bool) -> Option<Step> {
        let n = self.shape.size;
        let range = if in_box { 2 * n..3 * n } else { 0..2 * n };
        for unit in range {
            for digit in 1..=n as u8 {
                let places = self.places(unit, digit);
                if places.len() == 1 {
                    let mut step = Board::step(if in_box {
                        Technique::HiddenSingleBox
                    } else {
                        Technique::HiddenSingleLine
                    });
                    step.placements.push((places[0], digit));
                    step.cells = places;
                    step.units.push(unit);
                    step.digits.push(digit);
                    return Some(step);
                }
            }
        }
        None
    }

    fn naked_single(&self) -> Option<Step> {
        let cell = (0..self.cells.len())
            .find(|&c| self.cells[c] == 0 && self.candidates[c].count_ones() == 1)?;
        let digit = self.candidates[cell].trailing_zeros() as u8;
        let mut step = Board::step(Technique::NakedSingle);
        step.placements.push((cell, digit));
        step.cells.push(cell);
        step.digits.push(digit);
        Some(step)
    }

    /// A hidden single the eliminations leave (for the "direct" techniques): the placement.
    fn single_after(&self, eliminations: &[(usize, u8)]) -> Option<(usize, u8, usize)> {
        let mut after = self.clone();
        for &(c, d) in eliminations {
            after.candidates[c] &= !(1 << d);
        }
        let mut digits: Vec<u8> = eliminations.iter().map(|&(_, d)| d).collect();
        digits.sort_unstable();
        digits.dedup();
        for unit in 0..self.units.len() {
            for &d in &digits {
                let places = after.places(unit, d);
                if places.len() == 1 && self.places(unit, d).len() > 1 {
                    return Some((places[0], d, unit));
                }
            }
        }
        // The eliminations may also leave a cell one candidate (then a naked single follows,
        // which is not "direct" in SE's sense): not counted.
        None
    }

    /// Pointing (`from_box`: a box's digit on one line) and claiming (a line's digit in one box).
    fn locked(&self, from_box: bool, direct: bool) -> Option<Step> {
        let n = self.shape.size;
        let (bases, targets) = if from_box {
            (2 * n..3 * n, 0..2 * n)
        } else {
            (0..2 * n, 2 * n..3 * n)
        };
        for base in bases {
            for digit in 1..=n as u8 {
                let places = self.places(base, digit);
                if places.len() < 2 {
                    continue;
                }
                for target in targets.clone() {
                    if !places.iter().all(|c| self.units[target].contains(c)) {
                        continue;
                    }
                    let eliminations: Vec<(usize, u8)> = self
                        .places(target, digit)
                        .into_iter()
                        .filter(|c| !places.contains(c))
                        .map(|c| (c, digit))
                        .collect();
                    if eliminations.is_empty() {
                        continue;
                    }
                    let technique = match (from_box, direct) {
                        (true, false) => Technique::Pointing,
                        (false, false) => Technique::Claiming,
                        (true, true) => Technique::DirectPointing,
                        (false, true) => Technique::DirectClaiming,
                    };
                    let mut step = Board::step(technique);
                    if direct {
                        let Some(single) = self.single_after(&eliminations) else {
                            continue;
                        };
                        step.placements.push((single.0, single.1));
                    }
                    step.eliminations = eliminations;
                    step.cells = places.clone();
                    step.units = vec![base, target];
                    step.digits.push(digit);
                    return Some(step);
                }
            }
        }
        None
    }

    fn naked_subset(&self, k: usize) -> Option<Step> {
        for (u, unit) in self.units.iter().enumerate() {
            let open: Vec<usize> = unit
                .iter()
                .copied()
                .filter(|&c| self.cells[c] == 0 && self.candidates[c].count_ones() as usize <= k)
                .collect();
            let empties = unit.iter().filter(|&&c| self.cells[c] == 0).count();
            if empties <= k {
                continue;
            }
            let found = subsets(&open, k, &mut |chosen: &[usize]| {
                let union = chosen.iter().fold(0u16, |m, &c| m | self.candidates[c]);
                if union.count_ones() as usize != k {
                    return None;
                }
                let eliminations: Vec<(usize, u8)> = unit
                    .iter()
                    .copied()
                    .filter(|c| !chosen.contains(c))
                    .flat_map(|c| digits_of(self.candidates[c] & union).map(move |d| (c, d)))
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                let mut step = Board::step(match k {
                    2 => Technique::NakedPair,
                    3 => Technique::NakedTriple,
                    _ => Technique::NakedQuad,
                });
                step.eliminations = eliminations;
                step.cells = chosen.to_vec();
                step.units.push(u);
                step.digits = digits_of(union).collect();
                Some(step)
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    fn hidden_subset(&self, k: usize, direct: bool) -> Option<Step> {
        let n = self.shape.size;
        for (u, unit) in self.units.iter().enumerate() {
            let open: Vec<u8> = (1..=n as u8)
                .filter(|&d| {
                    let p = self.places(u, d).len();
                    p >= 1 && p <= k
                })
                .collect();
            let empties = unit.iter().filter(|&&c| self.cells[c] == 0).count();
            if empties <= k {
                continue;
            }
            let found = subsets(&open, k, &mut |chosen: &[u8]| {
                let mut cells: Vec<usize> =
                    chosen.iter().flat_map(|&d| self.places(u, d)).collect();
                cells.sort_unstable();
                cells.dedup();
                if cells.len() != k {
                    return None;
                }
                let keep = chosen.iter().fold(0u16, |m, &d| m | 1 << d);
                let eliminations: Vec<(usize, u8)> = cells
                    .iter()
                    .flat_map(|&c| digits_of(self.candidates[c] & !keep).map(move |d| (c, d)))
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                let mut step = Board::step(match (k, direct) {
                    (2, false) => Technique::HiddenPair,
                    (3, false) => Technique::HiddenTriple,
                    (2, true) => Technique::DirectHiddenPair,
                    (3, true) => Technique::DirectHiddenTriple,
                    _ => Technique::HiddenQuad,
                });
                if direct {
                    let single = self.single_after(&eliminations)?;
                    step.placements.push((single.0, single.1));
                }
                step.eliminations = eliminations;
                step.cells = cells;
                step.units.push(u);
                step.digits = chosen.to_vec();
                Some(step)
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// X-wing (k = 2), swordfish (3), jellyfish (4): rows as bases, then columns.
    fn fish(&self, k: usize) -> Option<Step> {
        let n = self.shape.size;
        for digit in 1..=n as u8 {
            for rows_are_bases in [true, false] {
                let (base_range, cover_offset) = if rows_are_bases {
                    (0..n, n)
                } else {
                    (n..2 * n, 0)
                };
                // For each base line, the set of cover lines (as a bit mask) the digit lies in.
                let lines: Vec<(usize, u32)> = base_range
                    .filter_map(|b| {
                        let places = self.places(b, digit);
                        if places.len() < 2 || places.len() > k {
                            return None;
                        }
                        let mask = places.iter().fold(0u32, |m, &c| {
                            m | 1 << if rows_are_bases { c % n } else { c / n }
                        });
                        Some((b, mask))
                    })
                    .collect();
                let found = subsets(&lines, k, &mut |chosen: &[(usize, u32)]| {
                    let covers = chosen.iter().fold(0u32, |m, &(_, mask)| m | mask);
                    if covers.count_ones() as usize != k {
                        return None;
                    }
                    let bases: Vec<usize> = chosen.iter().map(|&(b, _)| b).collect();
                    let mut eliminations = Vec::new();
                    for line in 0..n {
                        if covers & (1 << line) == 0 {
                            continue;
                        }
                        for c in self.places(cover_offset + line, digit) {
                            let base = if rows_are_bases { c / n } else { n + c % n };
                            if !bases.contains(&base) {
                                eliminations.push((c, digit));
                            }
                        }
                    }
                    if eliminations.is_empty() {
                        return None;
                    }
                    let mut step = Board::step(match k {
                        2 => Technique::XWing,
                        3 => Technique::Swordfish,
                        _ => Technique::Jellyfish,
                    });
                    step.eliminations = eliminations;
                    step.cells = bases.iter().flat_map(|&b| self.places(b, digit)).collect();
                    step.units = bases;
                    step.digits.push(digit);
                    Some(step)
                });
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    }

    fn xy_wing(&self) -> Option<Step> {
        let bivalue: Vec<usize> = (0..self.cells.len())
            .filter(|&c| self.candidates[c].count_ones() == 2)
            .collect();
        for &pivot in &bivalue {
            let pm = self.candidates[pivot];
            let wings: Vec<usize> = bivalue
                .iter()
                .copied()
                .filter(|&w| self.sees(pivot, w) && (self.candidates[w] & pm).count_ones() == 1)
                .collect();
            for (i, &a) in wings.iter().enumerate() {
                for &b in &wings[i + 1..] {
                    let (ma, mb) = (self.candidates[a], self.candidates[b]);
                    let z = (ma & mb) & !pm;
                    // a = xz, b = yz with x ≠ y: they share z only, and cover the pivot's two.
                    if z.count_ones() != 1 || (ma | mb) & pm != pm || ma == mb {
                        continue;
                    }
                    let digit = z.trailing_zeros() as u8;
                    // The pivot holds no z: only cells that see both pincers lose it.
                    let eliminations = self.seen_by_all(digit, &[a, b]);
                    if eliminations.is_empty() {
                        continue;
                    }
                    let mut step = Board::step(Technique::XyWing);
                    step.eliminations = eliminations;
                    step.cells = vec![pivot, a, b];
                    step.digits = digits_of(pm).chain([digit]).collect();
                    return Some(step);
                }
            }
        }
        None
    }

    fn xyz_wing(&self) -> Option<Step> {
        for pivot in 0..self.cells.len() {
            let pm = self.candidates[pivot];
            if pm.count_ones() != 3 {
                continue;
            }
            let wings: Vec<usize> = (0..self.cells.len())
                .filter(|&w| {
                    let m = self.candidates[w];
                    m.count_ones() == 2 && m & pm == m && self.sees(pivot, w)
                })
                .collect();
            for (i, &a) in wings.iter().enumerate() {
                for &b in &wings[i + 1..] {
                    let (ma, mb) = (self.candidates[a], self.candidates[b]);
                    let z = ma & mb;
                    if z.count_ones() != 1 || ma | mb != pm {
                        continue;
                    }
                    let digit = z.trailing_zeros() as u8;
                    let eliminations = self.seen_by_all(digit, &[pivot, a, b]);
                    if eliminations.is_empty() {
                        continue;
                    }
                    let mut step = Board::step(Technique::XyzWing);
                    step.eliminations = eliminations;
                    step.cells = vec![pivot, a, b];
                    step.digits = digits_of(pm & !z).chain([digit]).collect();
                    return Some(step);
                }
            }
        }
        None
    }

    /// Unique rectangle type 1 (assumes the puzzle has one solution, as rated puzzles do).
    fn unique_rectangle(&self) -> Option<Step> {
        let n = self.shape.size;
        let s = self.shape;
        for r1 in 0..n {
            for r2 in r1 + 1..n {
                for c1 in 0..n {
                    for c2 in c1 + 1..n {
                        let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                        let boxes = {
                            let mut b: Vec<usize> = [(r1, c1), (r1, c2), (r2, c1), (r2, c2)]
                                .iter()
                                .map(|&(r, c)| s.box_of(r, c))
                                .collect();
                            b.sort_unstable();
                            b.dedup();
                            b.len()
                        };
                        if boxes != 2 || corners.iter().any(|&c| self.cells[c] != 0) {
                            continue;
                        }
                        let pairs: Vec<usize> = corners
                            .iter()
                            .copied()
                            .filter(|&c| self.candidates[c].count_ones() == 2)
                            .collect();
                        if pairs.len() != 3 {
                            continue;
                        }
                        let ab = self.candidates[pairs[0]];
                        if pairs.iter().any(|&c| self.candidates[c] != ab) {
                            continue;
                        }
                        let fourth = *corners.iter().find(|c| !pairs.contains(c))?;
                        if self.candidates[fourth] & ab != ab {
                            continue;
                        }
                        let mut step = Board::step(Technique::UniqueRectangle);
                        step.eliminations = digits_of(ab).map(|d| (fourth, d)).collect();
                        step.cells = corners.to_vec();
                        step.digits = digits_of(ab).collect();
                        return Some(step);
                    }
                }
            }
        }
        None
    }

    fn bug(&self) -> Option<Step> {
        let open: Vec<usize> = (0..self.cells.len())
            .filter(|&c| self.cells[c] == 0)
            .collect();
        let triple: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&c| self.candidates[c].count_ones() != 2)
            .collect();
        if triple.len() != 1 || self.candidates[triple[0]].count_ones() != 3 {
            return None;
        }
        let cell = triple[0];
        let row = self.shape.units_of(cell)[0];
        let digit = digits_of(self.candidates[cell]).find(|&d| self.places(row, d).len() == 3)?;
        let mut step = Board::step(Technique::BivalueUniversalGrave);
        step.placements.push((cell, digit));
        step.cells.push(cell);
        step.digits.push(digit);
        Some(step)
    }

    /// Assumes each candidate in turn (cells with fewest candidates first) and propagates: with
    /// singles only (`nested` false), or with every technique up to the bivalue grave. A
    /// contradiction removes the candidate; the step's rating grows with the chain's length.
    fn forcing_chain(&self, nested: bool) -> Option<Step> {
        let mut order: Vec<usize> = (0..self.cells.len())
            .filter(|&c| self.cells[c] == 0)
            .collect();
        order.sort_by_key(|&c| (self.candidates[c].count_ones(), c));
        let mut best: Option<(usize, Step)> = None;
        for &cell in &order {
            for digit in digits_of(self.candidates[cell]) {
                let mut trial = self.clone();
                trial.place(cell, digit);
                let mut length = 1;
                let contradiction = loop {
                    if trial.is_broken() {
                        break true;
                    }
                    let hardest = if nested {
                        Technique::BivalueUniversalGrave
                    } else {
                        Technique::NakedSingle
                    };
                    let step = if nested {
                        trial.next_step(hardest)
                    } else {
                        trial
                            .find(Technique::HiddenSingleBox)
                            .or_else(|| trial.find(Technique::HiddenSingleLine))
                            .or_else(|| trial.find(Technique::NakedSingle))
                    };
                    match step {
                        Some(step) => {
                            trial.apply(&step);
                            length += 1;
                        }
                        None => break false,
                    }
                };
                if contradiction && best.as_ref().is_none_or(|(l, _)| length < *l) {
                    let technique = if nested {
                        Technique::NestedForcingChain
                    } else {
                        Technique::ForcingChain
                    };
                    let mut step = Board::step(technique);
                    step.rating = if nested {
                        (9.0 + 0.1 * (length as f32 / 4.0).floor()).min(10.5)
                    } else {
                        (6.6 + 0.1 * (length as f32 / 3.0).floor()).min(8.0)
                    };
                    step.eliminations.push((cell, digit));
                    step.cells.push(cell);
                    step.digits.push(digit);
                    best = Some((length, step));
                }
            }
        }
        best.map(|(_, step)| step)
    }
}

/// The rating of a puzzle ([`rate`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// Whether the techniques finished the grid.
    pub solved: bool,
    /// The hardest step's difficulty on Sudoku Explainer's scale; 11 when the techniques got stuck.
    pub rating: f32,
    /// The hardest technique used (`None` for a grid already full).
    pub hardest: Option<Technique>,
    /// The steps taken, in order.
    pub steps: Vec<Step>,
}

/// Rating given to a puzzle the techniques cannot finish.
pub const STUCK_RATING: f32 = 11.0;

/// Solves `grid` with the techniques (up to and including `hardest`) and rates it by the hardest
/// step: Sudoku Explainer's way.
pub fn rate_with(grid: &Grid, hardest: Technique) -> Rating {
    let mut board = Board::new(grid);
    let mut steps: Vec<Step> = Vec::new();
    while let Some(step) = board.next_step(hardest) {
        board.apply(&step);
        steps.push(step);
        if board.is_broken() {
            break;
        }
    }
    let solved = board.is_full() && board.grid().is_solved();
    let top = steps.iter().max_by(|a, b| a.rating.total_cmp(&b.rating));
    Rating {
        solved,
        rating: if solved {
            top.map_or(0.0, |s| s.rating)
        } else {
            STUCK_RATING
        },
        hardest: top.map(|s| s.technique),
        steps,
    }
}

/// Rates `grid` with every technique ([`rate_with`] up to nested forcing chains).
pub fn rate(grid: &Grid) -> Rating {
    rate_with(grid, Technique::NestedForcingChain)
}

/// The next move a person could make on `grid` (candidates recomputed from its digits): the
/// steps, easiest technique first, up to and including the first that places a digit. Empty when
/// the grid is full or the techniques are stuck.
pub fn hint(grid: &Grid) -> Vec<Step> {
    let mut board = Board::new(grid);
    let mut steps = Vec::new();
    while let Some(step) = board.next_step(Technique::NestedForcingChain) {
        board.apply(&step);
        let places = !step.placements.is_empty();
        steps.push(step);
        if places || board.is_broken() {
            break;
        }
    }
    steps
}
