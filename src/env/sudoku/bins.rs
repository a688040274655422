//! Puzzles binned by difficulty the way Mehta's RL paper bins them ("Reinforcement Learning For
//! Constraint Satisfaction Game Agents", section 3.2.4): by the guesses an exact solver needs, easy < 3, medium 3–5,
//! hard ≥ 6. Here the guesses are those of puzzlelab's exact solver branching on the first bivalue cell
//! ([`super::search_with`] and [`Branching::FirstPair`]: branch points before the first
//! solution; a fixed rule, so that the bins stay where the shipped models were measured when the
//! solver's default branching is tuned for speed), and the puzzles come from
//! [`generate_with_givens`], seeded, until every bin has its count.

use super::backtrack::search_with;
use super::exact::Branching;
use super::generate::generate_with_givens;
use super::grid::{Grid, Shape};
use crate::rng::Rng;

/// The validation puzzles' seed: `puzzlelab sudoku train`'s and the page's in-training
/// evaluations (reports use fresh seeds).
pub const VALIDATION_SEED: u64 = 0x5D0C_0BA1;
/// Where the training pool's seeds start (plus the learner's seed), away from validation and
/// evaluation seeds.
pub const TRAINING_SEED: u64 = 0x7EA1_0000;

/// A bin of the paper's difficulty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GuessBin {
    /// Fewer than 3 guesses.
    Easy,
    /// 3 to 5 guesses.
    Medium,
    /// 6 guesses or more.
    Hard,
}

impl GuessBin {
    /// The three bins, easiest first.
    pub const ALL: [GuessBin; 3] = [GuessBin::Easy, GuessBin::Medium, GuessBin::Hard];

    /// The bin of a puzzle the exact solver needs `guesses` guesses for.
    pub fn of_guesses(guesses: u64) -> GuessBin {
        match guesses {
            0..=2 => GuessBin::Easy,
            3..=5 => GuessBin::Medium,
            _ => GuessBin::Hard,
        }
    }

    /// The bin of `puzzle` (by the exact solver's guesses, branching on the first bivalue cell).
    pub fn of(puzzle: &Grid) -> GuessBin {
        GuessBin::of_guesses(search_with(puzzle, 2, Branching::FirstPair).guesses)
    }

    /// `easy`, `medium` or `hard`.
    pub fn name(self) -> &'static str {
        match self {
            GuessBin::Easy => "easy",
            GuessBin::Medium => "medium",
            GuessBin::Hard => "hard",
        }
    }

    /// The solved rate Mehta's RL paper for constraint-satisfaction games published for its DQN in
    /// this bin (section 3.2.4: 7%, 2.1%, 1.2%).
    pub fn published_solved_rate(self) -> f64 {
        match self {
            GuessBin::Easy => 0.07,
            GuessBin::Medium => 0.021,
            GuessBin::Hard => 0.012,
        }
    }
}

/// 9 × 9 puzzles with a unique solution, `per_bin` of each bin, drawn from `seed`: puzzle `i`
/// keeps `givens` givens, one of `givens` drawn per puzzle (fewer givens give more guesses; 23
/// gives about 83% easy, 13% medium, 4% hard). Puzzles past a full bin are dropped; at most
/// `max_puzzles` are drawn (the bins may then be short).
pub fn binned_puzzles(
    seed: u64,
    per_bin: usize,
    givens: &[usize],
    max_puzzles: usize,
) -> [Vec<Grid>; 3] {
    let mut draw = BinnedDraw::new(seed, per_bin, givens, max_puzzles);
    draw.draw(max_puzzles);
    draw.into_bins()
}

/// [`binned_puzzles`] drawn a few puzzles at a time (a page's evaluation, between whose batches
/// the worker reports progress and may stop): the same puzzles in the same bins, however the
/// draws are split.
#[derive(Clone, Debug)]
pub struct BinnedDraw {
    seed: u64,
    per_bin: usize,
    givens: Vec<usize>,
    max_puzzles: u64,
    /// Puzzles drawn so far (kept or not).
    drawn: u64,
    rng: Rng,
    bins: [Vec<Grid>; 3],
}

impl BinnedDraw {
    /// Nothing drawn yet; arguments as [`binned_puzzles`]'s.
    pub fn new(seed: u64, per_bin: usize, givens: &[usize], max_puzzles: usize) -> BinnedDraw {
        assert!(!givens.is_empty(), "at least one number of givens");
        BinnedDraw {
            seed,
            per_bin,
            givens: givens.to_vec(),
            max_puzzles: max_puzzles as u64,
            drawn: 0,
            rng: Rng::new(seed ^ 0xB1_25ED),
            bins: Default::default(),
        }
    }

    /// Whether every bin is full or every puzzle allowed has been drawn.
    pub fn is_done(&self) -> bool {
        self.drawn >= self.max_puzzles || self.bins.iter().all(|bin| bin.len() >= self.per_bin)
    }

    /// Draws up to `count` more puzzles; true once [`BinnedDraw::is_done`].
    pub fn draw(&mut self, count: usize) -> bool {
        let end = self.drawn.saturating_add(count as u64);
        while self.drawn < end && !self.is_done() {
            let i = self.drawn;
            self.drawn += 1;
            let givens = *self.rng.choose(&self.givens);
            let puzzle_seed = self
                .seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(i);
            let Some(puzzle) = generate_with_givens(Shape::CLASSIC, givens, puzzle_seed, 20) else {
                continue;
            };
            let bin = &mut self.bins[GuessBin::of(&puzzle) as usize];
            if bin.len() < self.per_bin {
                bin.push(puzzle);
            }
        }
        self.is_done()
    }

    /// The puzzles kept so far, in all bins.
    pub fn kept(&self) -> usize {
        self.bins.iter().map(Vec::len).sum()
    }

    /// The bins as drawn so far: easy, medium, hard.
    pub fn into_bins(self) -> [Vec<Grid>; 3] {
        self.bins
    }
}

/// Puzzles of every bin for training, `count` in all, in the proportions they are drawn in
/// (mostly easy), from `seed`, with `givens` as in [`binned_puzzles`].
pub fn training_puzzles(seed: u64, count: usize, givens: &[usize]) -> Vec<Grid> {
    let mut rng = Rng::new(seed ^ 0x7EA1_5EED);
    (0..count as u64)
        .filter_map(|i| {
            let count = *rng.choose(givens);
            generate_with_givens(Shape::CLASSIC, count, seed.wrapping_add(i), 20)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_follow_the_solvers_guesses_and_the_seed() {
        assert_eq!(GuessBin::of_guesses(2), GuessBin::Easy);
        assert_eq!(GuessBin::of_guesses(3), GuessBin::Medium);
        assert_eq!(GuessBin::of_guesses(5), GuessBin::Medium);
        assert_eq!(GuessBin::of_guesses(6), GuessBin::Hard);
        let bins = binned_puzzles(7, 3, &[23], 2_000);
        for (bin, puzzles) in GuessBin::ALL.iter().zip(&bins) {
            assert_eq!(puzzles.len(), 3, "{bin:?}");
            for puzzle in puzzles {
                assert_eq!(GuessBin::of(puzzle), *bin);
                assert_eq!(crate::env::sudoku::search(puzzle, 2).count, 1);
                assert_eq!(puzzle.filled(), 23);
            }
        }
        assert_eq!(binned_puzzles(7, 3, &[23], 2_000), bins);
        assert_ne!(binned_puzzles(8, 3, &[23], 2_000), bins);
        // Drawn a few at a time, the same puzzles in the same bins; a short budget stops early.
        let mut draw = BinnedDraw::new(7, 3, &[23], 2_000);
        let mut steps = 0;
        while !draw.draw(7) {
            steps += 1;
        }
        assert!(steps > 1, "several steps");
        assert_eq!(draw.kept(), 9);
        assert_eq!(draw.into_bins(), bins);
        let mut short = BinnedDraw::new(7, 3, &[23], 5);
        assert!(short.draw(100));
        assert!(short.kept() <= 5);
        assert_eq!(short.into_bins(), binned_puzzles(7, 3, &[23], 5));
    }
}
