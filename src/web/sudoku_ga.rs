//! The coursework's genetic algorithm for Sudoku in the page: a handle ([`SudokuGa`]) that the
//! page's GA worker (`www/sudoku/ga-worker.js`) runs a few generations at a time, checking its
//! clock between calls (the library has none), and the experiment's three grids
//! ([`sudoku_ga_grids`]).

use super::{js_error, seed_of, to_js};
use crate::env::sudoku::{
    ga_puzzle, GaConfig, GenerationStats, GeneticAlgorithm, Grid, Initialisation, GA_GRIDS,
};
use wasm_bindgen::prelude::*;

/// The largest population the page may ask for: ten times the coursework's largest (10,000), a
/// few megabytes of wasm memory; more would only make a tab run out of memory.
const MAX_POPULATION: usize = 100_000;

/// One of the experiment's grids, as JS reads it.
#[derive(serde::Serialize)]
struct GaGrid {
    name: &'static str,
    description: &'static str,
    /// 81 digits, 0 empty.
    puzzle: &'static str,
}

/// A running genetic algorithm on one 9 × 9 puzzle.
#[wasm_bindgen]
pub struct SudokuGa {
    ga: GeneticAlgorithm,
    givens: [u8; 81],
}

#[wasm_bindgen]
impl SudokuGa {
    /// The first generation on `puzzle` (any text `SudokuGame.parse` reads, 9 × 9 only, or
    /// `grid1`/`grid2`/`grid3`), with `population` individuals (4 to 100,000), initialisation
    /// `init` ("rows", the coursework's, or "boxes"), the repair step on or off, from `seed` (a
    /// whole number up to 2^53). Refused with the reason when any of them cannot be used.
    #[wasm_bindgen(constructor)]
    pub fn new(
        puzzle: &str,
        population: usize,
        init: &str,
        repair: bool,
        seed: f64,
    ) -> Result<SudokuGa, JsValue> {
        let givens = ga_puzzle(puzzle).map_err(js_error)?;
        let initialisation = match init {
            "rows" => Initialisation::Rows,
            "boxes" => Initialisation::Boxes,
            _ => {
                return Err(js_error(format!(
                    "unknown initialisation \"{init}\": use rows or boxes"
                )))
            }
        };
        if population > MAX_POPULATION {
            return Err(js_error(format!(
                "population {population}: at most {MAX_POPULATION} individuals"
            )));
        }
        let seed = seed_of(seed)?;
        let config = GaConfig {
            population,
            initialisation,
            repair,
            ..GaConfig::default()
        };
        let ga = GeneticAlgorithm::new(&givens, config, seed).map_err(js_error)?;
        Ok(SudokuGa { ga, givens })
    }

    /// Makes up to `generations` generations (fewer once solved) and returns each new one's
    /// `{ generation, best, mean }` (generation 1 is the first made; empty once solved).
    pub fn run(&mut self, generations: u32) -> Result<JsValue, JsValue> {
        let stats: Vec<GenerationStats> = self.ga.run_generations(generations as u64);
        to_js(&stats)
    }

    /// The current generation's `{ generation, best, mean }` (generation 0: the first, random one).
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        to_js(&self.ga.stats())
    }

    /// Generations made so far.
    #[wasm_bindgen(getter)]
    pub fn generation(&self) -> f64 {
        self.ga.generation() as f64
    }

    /// Whether an individual reached fitness 243 (the grid is solved; `run` makes no more).
    #[wasm_bindgen(getter)]
    pub fn solved(&self) -> bool {
        self.ga.solved()
    }

    /// The best fitness in the current generation (243: solved).
    #[wasm_bindgen(getter, js_name = bestFitness)]
    pub fn best_fitness(&self) -> u32 {
        self.ga.best_fitness()
    }

    /// The current generation's mean fitness.
    #[wasm_bindgen(getter, js_name = meanFitness)]
    pub fn mean_fitness(&self) -> f64 {
        self.ga.stats().mean
    }

    /// The best individual, 81 digits row-major.
    #[wasm_bindgen(js_name = bestGrid)]
    pub fn best_grid(&self) -> Vec<u8> {
        self.ga.best().to_vec()
    }

    /// The cells of the best individual whose digit repeats in its row, column or box, sorted.
    #[wasm_bindgen(js_name = bestConflicts)]
    pub fn best_conflicts(&self) -> Result<Vec<u32>, JsValue> {
        let grid = Grid::from_cells(&self.ga.best()).map_err(js_error)?;
        Ok(grid
            .conflicting_cells()
            .into_iter()
            .map(|cell| cell as u32)
            .collect())
    }

    /// The puzzle's givens, 81 digits row-major (0 empty).
    pub fn givens(&self) -> Vec<u8> {
        self.givens.to_vec()
    }
}

/// The experiment's grids (docs/sudoku.md): `[{ name, description, puzzle }]`, `puzzle` 81 digits
/// with 0 for an empty cell.
#[wasm_bindgen(js_name = sudokuGaGrids)]
pub fn sudoku_ga_grids() -> Result<JsValue, JsValue> {
    let grids: Vec<GaGrid> = GA_GRIDS
        .iter()
        .map(|&(name, description, puzzle)| GaGrid {
            name,
            description,
            puzzle,
        })
        .collect();
    to_js(&grids)
}
