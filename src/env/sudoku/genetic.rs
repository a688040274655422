//! The coursework's genetic algorithm for Sudoku ("Evolutionary
//! Algorithm to Solve Sudoku"), as described there, plus the two variants it suggests or invites:
//! box-wise initialisation (its proposal) and a repair step (ours; off by default).
//!
//! - An individual is the 81 cells, row-major, digits 1–9.
//! - Initialisation: each row's empty cells get a random permutation of the row's missing digits,
//!   so every row holds 1–9 and the givens stay ([`Initialisation::Rows`]).
//! - Fitness: the number of distinct digits in each of the 27 units (rows, columns, boxes), summed;
//!   [`MAX_FITNESS`] = 243 exactly when the grid is solved.
//! - Selection: sort by fitness; bands of the best 10%, next 20%, next 30% and worst 40%; 40% of
//!   the population survives: the whole top band, then members drawn from the other bands with
//!   chances 50%/30%/20% (see [`GaConfig`] for the reading of that sentence).
//! - Crossover: two distinct survivors, one of three row operators chosen with equal chance (swap
//!   one row; swap a row and every row below it; swap each row with chance ½), two children.
//! - Mutation: each child, with chance 70%, swaps two non-given cells of one row.
//! - The next generation is the survivors and the children; the run ends at 243 or when the caller
//!   stops calling [`GeneticAlgorithm::run_generations`] (time limits live outside: no clock here).
//!
//! Everything random goes through one [`Rng`]: the same puzzle, configuration and seed give the
//! same run, generation by generation.

use super::grid::{Grid, SudokuError};
use crate::rng::Rng;

/// The fitness of a solved grid: 27 units × 9 distinct digits.
pub const MAX_FITNESS: u32 = 243;

/// The cells of each of the 27 units: rows 0–8, columns 9–17, boxes 18–26 (boxes row-major).
const UNITS: [[u8; 9]; 27] = build_units();

const fn build_units() -> [[u8; 9]; 27] {
    let mut units = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            units[i][j] = (i * 9 + j) as u8;
            units[9 + i][j] = (j * 9 + i) as u8;
            let (box_row, box_column) = (i / 3 * 3, i % 3 * 3);
            units[18 + i][j] = ((box_row + j / 3) * 9 + box_column + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    units
}

/// The row, column and box unit (indices into the 27 units) of each cell.
const CELL_UNITS: [[u8; 3]; 81] = build_cell_units();

const fn build_cell_units() -> [[u8; 3]; 81] {
    let mut cell_units = [[0u8; 3]; 81];
    let mut cell = 0;
    while cell < 81 {
        let (row, column) = (cell / 9, cell % 9);
        cell_units[cell] = [
            row as u8,
            (9 + column) as u8,
            (18 + row / 3 * 3 + column / 3) as u8,
        ];
        cell += 1;
    }
    cell_units
}

/// The coursework's fitness: distinct digits (1–9) in each row, column and box, summed (0–243;
/// 243 exactly when every unit holds 1–9). Empty cells (0) count for nothing.
pub fn fitness(grid: &[u8; 81]) -> u32 {
    let mut total = 0;
    for unit in &UNITS {
        let mut seen = 0u16;
        for &cell in unit {
            seen |= 1 << grid[cell as usize];
        }
        total += (seen >> 1).count_ones();
    }
    total
}

/// How the first generation is filled: which kind of unit starts as a permutation of 1–9. The
/// crossover and mutation operators work on the same kind of unit, so it stays a permutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Initialisation {
    /// The coursework's: each row's empty cells get a random permutation of its missing digits;
    /// crossovers exchange rows and mutations swap within a row.
    Rows,
    /// The coursework's proposal (question 2.2, point 5): fill each box instead; crossovers then
    /// exchange boxes (in row-major box order) and mutations swap within a box.
    Boxes,
}

impl Initialisation {
    /// The first of the 9 units (in [`UNITS`]) the operators work on.
    fn first_unit(self) -> usize {
        match self {
            Initialisation::Rows => 0,
            Initialisation::Boxes => 18,
        }
    }
}

/// The genetic algorithm's settings; the defaults are the coursework's.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GaConfig {
    /// Individuals per generation (the coursework tried 10, 100, 1,000 and 10,000). At least 4.
    pub population: usize,
    /// The chance that a child is mutated (one swap of two non-given cells in a unit): 0.7.
    pub mutation_rate: f64,
    /// The four fitness bands' shares of the sorted population, best first: 10%, 20%, 30%, 40%.
    pub band_shares: [f64; 4],
    /// The share of a generation that survives into the next: 40%.
    pub survivor_share: f64,
    /// After the whole best band, each further survivor comes from band 2, 3 or 4 with these
    /// chances (50%, 30%, 20%), uniformly among that band's members not yet chosen.
    ///
    /// Our reading of "nodes in the second category having a 50% chance of being selected, …
    /// third 30% … fourth 20%" (the text leaves open whether the chance is per node or per draw):
    /// per draw, repeated until 40% of the population has survived; a draw that lands on a band
    /// already used up is drawn again. Read per node (each node kept with its band's chance, the
    /// bands swept until 40% is reached), one sweep would keep only 27% more on average, so the
    /// text's "40% survive" would need a second, unspecified sweep; per draw needs nothing extra.
    pub band_chances: [f64; 3],
    /// Which unit starts as a permutation: [`Initialisation::Rows`] (the coursework's).
    pub initialisation: Initialisation,
    /// Our addition, off in the coursework: after mutation, each child gets, in each of its 9
    /// units of the operators' kind, the swap of two non-given cells that raises fitness most
    /// (none where no swap raises it).
    pub repair: bool,
}

impl Default for GaConfig {
    fn default() -> Self {
        GaConfig {
            population: 1000,
            mutation_rate: 0.7,
            band_shares: [0.1, 0.2, 0.3, 0.4],
            survivor_share: 0.4,
            band_chances: [0.5, 0.3, 0.2],
            initialisation: Initialisation::Rows,
            repair: false,
        }
    }
}

/// Why a genetic algorithm cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GaError {
    /// A cell holds something other than 0 (empty) to 9.
    #[error("cell {0} holds {1}: cells hold 0 (empty) to 9")]
    Digit(usize, u8),
    /// Two givens repeat a digit in one unit.
    #[error("the givens repeat digit {digit} in {unit}")]
    Conflict {
        /// The repeated digit.
        digit: u8,
        /// The unit, as "row 3", "column 5" or "box 2" (1-based).
        unit: String,
    },
    /// The population is too small for the bands to make sense.
    #[error("population {0}: at least 4 individuals are needed")]
    Population(usize),
    /// The puzzle's text could not be read.
    #[error(transparent)]
    Text(#[from] SudokuError),
    /// The puzzle is not 9 × 9 (its size).
    #[error("the genetic algorithm plays 9 × 9 grids, not {0} × {0}")]
    NotNineByNine(usize),
}

/// The 81 cells of the puzzle named by `text`: one of [`GA_GRIDS`] by name (`grid1`, `grid2`,
/// `grid3`), or a 9 × 9 puzzle in any format [`Grid::parse`] reads (the CLI and the page both
/// take their puzzle this way).
pub fn ga_puzzle(text: &str) -> Result<[u8; 81], GaError> {
    let name = text.trim();
    let text = GA_GRIDS
        .iter()
        .find(|(grid, _, _)| *grid == name)
        .map_or(text, |(_, _, puzzle)| puzzle);
    let grid = Grid::parse(text)?;
    let cells: &[u8; 81] = grid
        .cells()
        .try_into()
        .map_err(|_| GaError::NotNineByNine(grid.shape().size))?;
    Ok(*cells)
}

fn unit_name(unit: usize) -> String {
    let kind = ["row", "column", "box"][unit / 9];
    format!("{kind} {}", unit % 9 + 1)
}

/// One generation's summary: what the page charts and the CLI traces.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GenerationStats {
    /// 0 for the initial population.
    pub generation: u64,
    /// The best fitness in the population.
    pub best: u32,
    /// The population's mean fitness.
    pub mean: f64,
}

/// A running genetic algorithm: the population, its fitness, and the random generator.
#[derive(Clone, Debug)]
pub struct GeneticAlgorithm {
    config: GaConfig,
    givens: [u8; 81],
    /// For each of the 9 operator units (rows or boxes), its non-given cells.
    free_cells: Vec<Vec<u8>>,
    /// The operator units with at least two non-given cells (where a mutation can swap).
    mutable_units: Vec<u8>,
    rng: Rng,
    /// `population × 81` cells, individual after individual.
    population: Vec<u8>,
    fitness: Vec<u32>,
    /// The next generation's buffers, reused.
    next_population: Vec<u8>,
    next_fitness: Vec<u32>,
    /// Individuals by fitness, best first (reused).
    order: Vec<u32>,
    survivors: Vec<u32>,
    generation: u64,
}

impl GeneticAlgorithm {
    /// Checks the puzzle (row-major, 0 = empty) and fills the first generation from `seed`.
    pub fn new(puzzle: &[u8; 81], config: GaConfig, seed: u64) -> Result<Self, GaError> {
        check_givens(puzzle)?;
        if config.population < 4 {
            return Err(GaError::Population(config.population));
        }
        let first = config.initialisation.first_unit();
        let free_cells: Vec<Vec<u8>> = UNITS[first..first + 9]
            .iter()
            .map(|unit| {
                unit.iter()
                    .copied()
                    .filter(|&cell| puzzle[cell as usize] == 0)
                    .collect()
            })
            .collect();
        let mutable_units = (0..9u8)
            .filter(|&unit| free_cells[unit as usize].len() >= 2)
            .collect();
        let size = config.population;
        let mut ga = GeneticAlgorithm {
            givens: *puzzle,
            free_cells,
            mutable_units,
            rng: Rng::new(seed),
            population: vec![0; size * 81],
            fitness: vec![0; size],
            next_population: vec![0; size * 81],
            next_fitness: vec![0; size],
            order: (0..size as u32).collect(),
            survivors: Vec::with_capacity(size),
            generation: 0,
            config,
        };
        for individual in 0..size {
            let cells = &mut ga.population[individual * 81..(individual + 1) * 81];
            let grid: &mut [u8; 81] = cells.try_into().expect("81 cells");
            initialise(grid, &ga.givens, ga.config.initialisation, &mut ga.rng);
            ga.fitness[individual] = fitness(grid);
        }
        Ok(ga)
    }

    /// The settings.
    pub fn config(&self) -> &GaConfig {
        &self.config
    }

    /// Generations made so far (0 before the first call to [`run_generations`](Self::run_generations)).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether some individual has fitness 243 (the run is over).
    pub fn solved(&self) -> bool {
        self.best_fitness() == MAX_FITNESS
    }

    /// The best fitness in the current population.
    pub fn best_fitness(&self) -> u32 {
        self.fitness.iter().copied().max().unwrap_or(0)
    }

    /// The current population's best and mean fitness.
    pub fn stats(&self) -> GenerationStats {
        let total: u64 = self.fitness.iter().map(|&f| f as u64).sum();
        GenerationStats {
            generation: self.generation,
            best: self.best_fitness(),
            mean: total as f64 / self.fitness.len() as f64,
        }
    }

    /// The best individual (the first of the best, in population order).
    pub fn best(&self) -> [u8; 81] {
        let best = self.best_fitness();
        let index = self.fitness.iter().position(|&f| f == best).unwrap_or(0);
        self.individual(index)
    }

    /// Individual `index` of the current population.
    pub fn individual(&self, index: usize) -> [u8; 81] {
        self.population[index * 81..(index + 1) * 81]
            .try_into()
            .expect("81 cells")
    }

    /// The current population's fitness values, in population order.
    pub fn fitness_values(&self) -> &[u32] {
        &self.fitness
    }

    /// Makes up to `generations` generations, stopping early once solved; returns each new
    /// generation's stats (empty when already solved). The caller checks its clock between calls.
    pub fn run_generations(&mut self, generations: u64) -> Vec<GenerationStats> {
        let mut stats = Vec::new();
        for _ in 0..generations {
            if self.solved() {
                break;
            }
            self.next_generation();
            stats.push(self.stats());
        }
        stats
    }

    /// Selection, crossover and mutation: one generation.
    fn next_generation(&mut self) {
        let size = self.config.population;
        self.select_survivors();
        // The survivors go through unchanged, in the order they were chosen.
        for (slot, &individual) in self.survivors.iter().enumerate() {
            let from = individual as usize * 81;
            self.next_population[slot * 81..slot * 81 + 81]
                .copy_from_slice(&self.population[from..from + 81]);
            self.next_fitness[slot] = self.fitness[individual as usize];
        }
        // Children until the population is full again.
        let mut filled = self.survivors.len();
        while filled < size {
            let first = self.survivors[self.rng.below(self.survivors.len())] as usize;
            let mut second = first;
            while second == first {
                second = self.survivors[self.rng.below(self.survivors.len())] as usize;
            }
            let mut children = [self.individual(first), self.individual(second)];
            let [left, right] = &mut children;
            crossover(left, right, &self.config, &mut self.rng);
            for child in children.iter_mut().take(size - filled) {
                if self.rng.chance(self.config.mutation_rate) {
                    self.mutate(child);
                }
                if self.config.repair {
                    repair(child, &self.free_cells);
                }
                self.next_population[filled * 81..filled * 81 + 81].copy_from_slice(child);
                self.next_fitness[filled] = fitness(child);
                filled += 1;
            }
        }
        std::mem::swap(&mut self.population, &mut self.next_population);
        std::mem::swap(&mut self.fitness, &mut self.next_fitness);
        self.generation += 1;
    }

    /// Fills `survivors`: the whole best band, then draws by band chance (see [`GaConfig`]).
    fn select_survivors(&mut self) {
        let size = self.config.population;
        let fitness = &self.fitness;
        for (index, slot) in self.order.iter_mut().enumerate() {
            *slot = index as u32;
        }
        // Stable: equal fitness keeps population order, so a run is reproducible.
        self.order
            .sort_by_key(|&individual| std::cmp::Reverse(fitness[individual as usize]));
        let bands = band_bounds(size, &self.config.band_shares);
        let keep = survivor_count(size, self.config.survivor_share);
        self.survivors.clear();
        for &individual in &self.order[..bands[1].min(keep)] {
            self.survivors.push(individual);
        }
        // Members of bands 2–4 not yet chosen, kept as the tail of each band's slice of `order`.
        let mut left = [
            bands[2] - bands[1],
            bands[3] - bands[2],
            bands[4] - bands[3],
        ];
        while self.survivors.len() < keep {
            let band = draw_band(&self.config.band_chances, &mut self.rng);
            if left[band] == 0 {
                continue;
            }
            // Pick uniformly among the band's unchosen members, then move the pick out of the way.
            let start = bands[band + 1];
            let pick = start + self.rng.below(left[band]);
            let last = start + left[band] - 1;
            self.order.swap(pick, last);
            left[band] -= 1;
            let individual = self.order[last];
            self.survivors.push(individual);
        }
    }

    /// The mutation: swaps two non-given cells of one unit (a row, or a box with
    /// [`Initialisation::Boxes`]) chosen among those with two or more, using the run's generator.
    pub fn mutate(&mut self, grid: &mut [u8; 81]) {
        if self.mutable_units.is_empty() {
            return;
        }
        let unit = *self.rng.choose(&self.mutable_units) as usize;
        let cells = &self.free_cells[unit];
        let a = self.rng.below(cells.len());
        let mut b = self.rng.below(cells.len() - 1);
        if b >= a {
            b += 1;
        }
        grid.swap(cells[a] as usize, cells[b] as usize);
    }
}

/// Band boundaries in the sorted order: `[0, end of band 1, …, end of band 4 = size]`, each band
/// its share rounded to the nearest individual (band 4 takes what is left), band 1 at least one.
pub fn band_bounds(size: usize, shares: &[f64; 4]) -> [usize; 5] {
    let mut bounds = [0; 5];
    let mut cumulative = 0.0;
    for band in 0..3 {
        cumulative += shares[band];
        bounds[band + 1] = ((cumulative * size as f64).round() as usize).clamp(bounds[band], size);
    }
    bounds[1] = bounds[1].max(1).min(size);
    bounds[2] = bounds[2].max(bounds[1]);
    bounds[3] = bounds[3].max(bounds[2]);
    bounds[4] = size;
    bounds
}

/// How many individuals survive: the share rounded, at least 2 (two parents), at most `size`.
pub fn survivor_count(size: usize, share: f64) -> usize {
    ((share * size as f64).round() as usize).clamp(2, size)
}

fn draw_band(chances: &[f64; 3], rng: &mut Rng) -> usize {
    let total: f64 = chances.iter().sum();
    let mut x = rng.unit() * total;
    for (band, &chance) in chances.iter().enumerate() {
        if x < chance {
            return band;
        }
        x -= chance;
    }
    2
}

fn check_givens(puzzle: &[u8; 81]) -> Result<(), GaError> {
    if let Some(cell) = puzzle.iter().position(|&digit| digit > 9) {
        return Err(GaError::Digit(cell, puzzle[cell]));
    }
    for (unit, cells) in UNITS.iter().enumerate() {
        let mut seen = 0u16;
        for &cell in cells {
            let digit = puzzle[cell as usize];
            if digit != 0 {
                if seen & (1 << digit) != 0 {
                    return Err(GaError::Conflict {
                        digit,
                        unit: unit_name(unit),
                    });
                }
                seen |= 1 << digit;
            }
        }
    }
    Ok(())
}

/// Fills `grid` from the givens: each unit of the chosen kind gets a random permutation of its
/// missing digits in its empty cells (in cell order).
pub fn initialise(grid: &mut [u8; 81], givens: &[u8; 81], how: Initialisation, rng: &mut Rng) {
    *grid = *givens;
    let first = how.first_unit();
    for unit in &UNITS[first..first + 9] {
        let mut present = 0u16;
        for &cell in unit {
            present |= 1 << givens[cell as usize];
        }
        let mut missing: Vec<u8> = (1..=9u8).filter(|&d| present & (1 << d) == 0).collect();
        rng.shuffle(&mut missing);
        let mut digits = missing.into_iter();
        for &cell in unit {
            if givens[cell as usize] == 0 {
                grid[cell as usize] = digits.next().expect("one missing digit per empty cell");
            }
        }
    }
}

/// One of the three crossovers, equally likely, on whole units of the operators' kind; `left`
/// and `right` come in as the parents and leave as the two children.
pub fn crossover(left: &mut [u8; 81], right: &mut [u8; 81], config: &GaConfig, rng: &mut Rng) {
    let first = config.initialisation.first_unit();
    let swap_unit = |unit: usize, left: &mut [u8; 81], right: &mut [u8; 81]| {
        for &cell in &UNITS[first + unit] {
            std::mem::swap(&mut left[cell as usize], &mut right[cell as usize]);
        }
    };
    match rng.below(3) {
        // One random unit.
        0 => swap_unit(rng.below(9), left, right),
        // A random unit and all after it ("this row and all rows below it").
        1 => {
            for unit in rng.below(9)..9 {
                swap_unit(unit, left, right);
            }
        }
        // Each unit with chance ½.
        _ => {
            for unit in 0..9 {
                if rng.chance(0.5) {
                    swap_unit(unit, left, right);
                }
            }
        }
    }
}

/// The repair step: in each operator unit, the swap of two non-given cells that raises fitness
/// most, if any raises it. `free_cells` lists each operator unit's non-given cells.
fn repair(grid: &mut [u8; 81], free_cells: &[Vec<u8>]) {
    // Digit counts per unit (27 × 10), kept up to date across the swaps.
    let mut counts = [[0u8; 10]; 27];
    for (cell, &digit) in grid.iter().enumerate() {
        for &unit in &CELL_UNITS[cell] {
            counts[unit as usize][digit as usize] += 1;
        }
    }
    for cells in free_cells {
        let mut best = (0i32, 0usize, 0usize);
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                let gain = swap_gain(grid, &counts, a as usize, b as usize);
                if gain > best.0 {
                    best = (gain, a as usize, b as usize);
                }
            }
        }
        let (gain, a, b) = best;
        if gain > 0 {
            for (cell, old, new) in [(a, grid[a], grid[b]), (b, grid[b], grid[a])] {
                for &unit in &CELL_UNITS[cell] {
                    counts[unit as usize][old as usize] -= 1;
                    counts[unit as usize][new as usize] += 1;
                }
            }
            grid.swap(a, b);
        }
    }
}

/// The fitness change of swapping cells `a` and `b` (units they share are unchanged).
fn swap_gain(grid: &[u8; 81], counts: &[[u8; 10]; 27], a: usize, b: usize) -> i32 {
    let (x, y) = (grid[a] as usize, grid[b] as usize);
    if x == y {
        return 0;
    }
    let mut gain = 0;
    for (cell, other, old, new) in [(a, b, x, y), (b, a, y, x)] {
        for &unit in &CELL_UNITS[cell] {
            if CELL_UNITS[other].contains(&unit) {
                continue;
            }
            let unit = unit as usize;
            gain += (counts[unit][new] == 0) as i32 - (counts[unit][old] == 1) as i32;
        }
    }
    gain
}

/// The three grids of the project's GA experiment, with the coursework's given counts (29, 33,
/// 23; it does not print its grids): `(name, source, puzzle)`, row-major, `0` = empty.
pub const GA_GRIDS: [(&str, &str, &str); 3] = [
    (
        "grid1",
        "Project Euler problem 96, grid 18 (29 givens)",
        "080005000000003457000070809060400903007010500408007020901020000842300000000100080",
    ),
    (
        "grid2",
        "Project Euler problem 96, grid 01 (32 givens) with its first empty cell given from the \
         solution (33 givens)",
        "403020600900305001001806400008102900700000008006708200002609500800203009005010300",
    ),
    (
        "grid3",
        "Project Euler problem 96, grid 47 (23 givens)",
        "000700800006000031040002000024070000010030080000060290000800070860000500002006000",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_cover_every_cell_three_times() {
        let mut seen = [0; 81];
        for unit in &UNITS {
            for &cell in unit {
                seen[cell as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 3));
        for (cell, units) in CELL_UNITS.iter().enumerate() {
            for &unit in units {
                assert!(UNITS[unit as usize].contains(&(cell as u8)));
            }
        }
    }

    #[test]
    fn bands_and_survivors_for_the_coursework_sizes() {
        let shares = GaConfig::default().band_shares;
        assert_eq!(band_bounds(10, &shares), [0, 1, 3, 6, 10]);
        assert_eq!(band_bounds(10_000, &shares), [0, 1000, 3000, 6000, 10_000]);
        assert_eq!(survivor_count(10, 0.4), 4);
        assert_eq!(survivor_count(10_000, 0.4), 4000);
        assert_eq!(survivor_count(4, 0.4), 2);
    }

    #[test]
    fn swap_gain_matches_the_fitness_difference() {
        let mut rng = Rng::new(3);
        let givens = [0u8; 81];
        for _ in 0..50 {
            let mut grid = [0u8; 81];
            initialise(&mut grid, &givens, Initialisation::Rows, &mut rng);
            let mut counts = [[0u8; 10]; 27];
            for (cell, &digit) in grid.iter().enumerate() {
                for &unit in &CELL_UNITS[cell] {
                    counts[unit as usize][digit as usize] += 1;
                }
            }
            let (a, b) = (rng.below(81), rng.below(81));
            let before = fitness(&grid) as i32;
            let gain = swap_gain(&grid, &counts, a, b);
            grid.swap(a, b);
            assert_eq!(fitness(&grid) as i32 - before, gain, "cells {a} and {b}");
        }
    }
}
