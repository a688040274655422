//! Puzzles with a unique solution at a chosen difficulty: a random full grid, then givens removed
//! in a random order (in symmetric pairs on 9 × 9, as published puzzles are) as long as
//! the solution stays unique and the logical rating stays at or below the level's ceiling; the
//! puzzle is kept when its rating reaches the level's floor, otherwise another grid is drawn.

use super::backtrack::count_solutions;
use super::grid::{Grid, Shape};
use super::logic::{rate, Rating};
use crate::rng::Rng;

/// Difficulty levels, by the logical rating (Sudoku Explainer's scale, [`super::rate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Difficulty {
    /// Hidden singles only (rating ≤ 1.5).
    Easy,
    /// Up to naked singles and the direct techniques (1.5 < rating ≤ 2.5).
    Medium,
    /// Pointing, claiming, pairs, X-wings, triples, swordfish, wings (2.5 < rating ≤ 4.5).
    Hard,
    /// Quads, jellyfish, the bivalue grave and short forcing chains (4.5 < rating ≤ 7.5).
    Expert,
}

impl Difficulty {
    /// Every level, easiest first.
    pub const ALL: [Difficulty; 4] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
    ];

    /// The level's rating range: (floor, exclusive; ceiling, inclusive).
    pub fn range(self) -> (f32, f32) {
        match self {
            Difficulty::Easy => (0.0, 1.5),
            Difficulty::Medium => (1.5, 2.5),
            Difficulty::Hard => (2.5, 4.5),
            Difficulty::Expert => (4.5, 7.5),
        }
    }

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
        }
    }

    /// The level named `name`.
    pub fn from_name(name: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The level a rating falls in (`None` above expert's ceiling).
    pub fn of_rating(rating: f32) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| {
            let (low, high) = d.range();
            rating > low && rating <= high
        })
    }
}

/// A random full grid of `shape`.
pub fn random_solution(shape: Shape, rng: &mut Rng) -> Grid {
    fn fill(grid: &mut Grid, cell: usize, rng: &mut Rng) -> bool {
        if cell == grid.shape().cells() {
            return true;
        }
        let candidates = grid.candidates()[cell];
        let mut digits: Vec<u8> = (1..=grid.shape().size as u8)
            .filter(|d| candidates & (1 << d) != 0)
            .collect();
        rng.shuffle(&mut digits);
        for d in digits {
            grid.set(cell, d);
            if fill(grid, cell + 1, rng) {
                return true;
            }
        }
        grid.set(cell, 0);
        false
    }
    let mut grid = Grid::empty(shape);
    assert!(fill(&mut grid, 0, rng), "every shape has a solution");
    grid
}

/// A generated puzzle.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Grid,
    /// Its only solution.
    pub solution: Grid,
    /// Its logical rating.
    pub rating: Rating,
    /// Full grids drawn until one gave a puzzle of the level.
    pub attempts: usize,
}

/// Generates a puzzle of `shape` at `difficulty` from `seed` (deterministic), drawing at most
/// `max_attempts` full grids; `None` if none gave the level.
pub fn generate(
    shape: Shape,
    difficulty: Difficulty,
    seed: u64,
    max_attempts: usize,
) -> Option<Generated> {
    let mut rng = Rng::new(seed);
    let (floor, ceiling) = difficulty.range();
    for attempt in 1..=max_attempts {
        let solution = random_solution(shape, &mut rng);
        let mut puzzle = solution.clone();
        let cells = shape.cells();
        // On 9 × 9, symmetric pairs (cell i and its image through the centre); the small grids
        // are too small for symmetric puzzles past the easiest level, so single cells there.
        let symmetric = shape.size == 9;
        let mut pairs: Vec<usize> =
            (0..if symmetric { cells.div_ceil(2) } else { cells }).collect();
        rng.shuffle(&mut pairs);
        for &cell in &pairs {
            let mirror = if symmetric { cells - 1 - cell } else { cell };
            let kept = (puzzle.get(cell), puzzle.get(mirror));
            puzzle.set(cell, 0);
            puzzle.set(mirror, 0);
            let fine = count_solutions(&puzzle, 2) == 1 && rate(&puzzle).rating <= ceiling;
            if !fine {
                puzzle.set(cell, kept.0);
                puzzle.set(mirror, kept.1);
            }
        }
        let rating = rate(&puzzle);
        if rating.solved && rating.rating > floor && rating.rating <= ceiling {
            return Some(Generated {
                puzzle,
                solution,
                rating,
                attempts: attempt,
            });
        }
    }
    None
}

/// A puzzle with exactly `givens` givens and a unique solution, whatever its difficulty (for
/// experiments that fix the number of givens, as the coursework's genetic algorithm does): givens
/// are removed one at a time in a random order while the solution stays unique, until `givens`
/// remain; a grid that cannot get that low is replaced by another, at most `max_attempts` times.
pub fn generate_with_givens(
    shape: Shape,
    givens: usize,
    seed: u64,
    max_attempts: usize,
) -> Option<Grid> {
    let mut rng = Rng::new(seed);
    for _ in 0..max_attempts {
        let mut puzzle = random_solution(shape, &mut rng);
        let mut order: Vec<usize> = (0..shape.cells()).collect();
        rng.shuffle(&mut order);
        for &cell in &order {
            if puzzle.filled() == givens {
                return Some(puzzle);
            }
            let kept = puzzle.get(cell);
            puzzle.set(cell, 0);
            if count_solutions(&puzzle, 2) != 1 {
                puzzle.set(cell, kept);
            }
        }
        if puzzle.filled() == givens {
            return Some(puzzle);
        }
    }
    None
}
