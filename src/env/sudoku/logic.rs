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

// The finders of the techniques (`impl Board`, one function each).
mod techniques;

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
    /// One sentence saying what the step does and why, cells written `r<row>c<col>` from 1.
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

/// A rating as printed: one decimal, as Sudoku Explainer prints it (without the f32's noise).
pub fn one_decimal(rating: f32) -> f64 {
    (f64::from(rating) * 10.0).round() / 10.0
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
