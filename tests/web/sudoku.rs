//! Sudoku's API: play, hints, ratings, the genetic algorithm, and bad puzzles.

use crate::{field, message};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn sudoku_plays_hints_rates_and_refuses_bad_puzzles() {
    use puzzlelab::web::sudoku::SudokuGame;
    // Bad texts and improper puzzles: readable errors.
    let e = SudokuGame::parse("123").err().unwrap();
    assert!(message(e).contains("this text has 3"));
    let e = SudokuGame::parse(&format!("11{}", ".".repeat(79)))
        .err()
        .unwrap();
    assert!(message(e).contains("share row 1"));
    let e = SudokuGame::parse(&format!("12345678.........9{}", ".".repeat(63)))
        .err()
        .unwrap();
    assert_eq!(message(e), "this puzzle has no solution");
    let e = SudokuGame::parse(&".".repeat(81)).err().unwrap();
    assert_eq!(message(e), "this puzzle has more than one solution");
    assert!(SudokuGame::generate(4, "medium", 1.0).is_err());
    assert!(SudokuGame::generate(5, "easy", 1.0).is_err());
    assert!(SudokuGame::generate(9, "easy", -1.0).is_err());

    // `puzzlelab sudoku generate --difficulty easy --seed 1`'s puzzle; `rate --steps` starts with
    // "hidden single (box): 9 can go in only one cell of box 1; place 9 at r2c2."
    let puzzle =
        "1...94.....7..........63971...4..7.6..9.1.5..4.3..6...95824..........1.....37...4";
    let mut game = SudokuGame::parse(puzzle).unwrap();
    assert_eq!(game.size(), 9);
    assert_eq!(game.puzzle_text(), puzzle);
    let rating = game.rate().unwrap();
    assert_eq!(field(&rating, "rating").as_f64(), Some(1.5));
    assert_eq!(field(&rating, "difficulty").as_string().unwrap(), "easy");
    let steps = js_sys::Array::from(&game.hint().unwrap());
    assert_eq!(steps.length(), 1);
    let step = steps.get(0);
    assert_eq!(
        field(&step, "technique").as_string().unwrap(),
        "hidden single (box)"
    );
    assert_eq!(
        field(&step, "explanation").as_string().unwrap(),
        "hidden single (box): 9 can go in only one cell of box 1; place 9 at r2c2."
    );
    let placements: Vec<(usize, u8)> =
        serde_wasm_bindgen::from_value(field(&step, "placements")).unwrap();
    assert_eq!(placements, vec![(10, 9)]);
    let unit_cells: Vec<Vec<usize>> =
        serde_wasm_bindgen::from_value(field(&step, "unitCells")).unwrap();
    assert_eq!(unit_cells, vec![vec![0, 1, 2, 9, 10, 11, 18, 19, 20]]);

    // Givens cannot change; a conflict and a mistake are reported; the hint refuses a wrong digit.
    assert!(message(game.set(0, 2).err().unwrap()).contains("holds a given"));
    assert!(game.set(1, 10).is_err());
    assert!(game.set(1, 1).unwrap());
    assert_eq!(game.conflicts(), vec![0, 1]);
    assert_eq!(game.mistakes(), vec![1]);
    assert!(message(game.hint().err().unwrap()).contains("not the solution's"));
    assert!(game.set(1, 0).unwrap());
    assert!(game.conflicts().is_empty());

    // Restore refuses changed givens and keeps the grid; the solution solves.
    let mut wrong = game.cells();
    wrong[0] = 2;
    assert!(game.restore(&wrong).is_err());
    assert_eq!(game.text(), puzzle);
    let candidates = game.candidates();
    assert_eq!(candidates[0], 0);
    assert_ne!(candidates[10] & (1 << 9), 0);
    let solution = game.solution();
    game.restore(&solution).unwrap();
    assert!(game.is_solved());

    // Generated puzzles: the same seed, the same puzzle; the rating in the level's range.
    let a = SudokuGame::generate(6, "hard", 1.0).unwrap();
    let b = SudokuGame::generate(6, "hard", 1.0).unwrap();
    assert_eq!(a.puzzle_text(), b.puzzle_text());
    let mut a = a;
    let rating = field(&a.rate().unwrap(), "rating").as_f64().unwrap();
    assert!(rating > 2.5 && rating <= 4.5, "{rating}");
    assert_eq!(a.seed(), Some(1.0));
}

#[wasm_bindgen_test]
fn sudoku_ga_runs_like_the_cli_and_refuses_what_it_cannot_use() {
    use puzzlelab::web::sudoku_ga::{sudoku_ga_grids, SudokuGa};
    let refused = |puzzle: &str, population: usize, init: &str, seed: f64| {
        message(
            SudokuGa::new(puzzle, population, init, false, seed)
                .err()
                .unwrap(),
        )
    };
    assert_eq!(
        refused(&".".repeat(16), 100, "rows", 1.0),
        "the genetic algorithm plays 9 × 9 grids, not 4 × 4"
    );
    assert!(refused(&format!("11{}", ".".repeat(79)), 100, "rows", 1.0).contains("share row 1"));
    assert!(refused("123", 100, "rows", 1.0).contains("this text has 3"));
    assert_eq!(
        refused("grid1", 3, "rows", 1.0),
        "population 3: at least 4 individuals are needed"
    );
    assert_eq!(
        refused("grid1", 100_001, "rows", 1.0),
        "population 100001: at most 100000 individuals"
    );
    assert_eq!(
        refused("grid1", 100, "columns", 1.0),
        "unknown initialisation \"columns\": use rows or boxes"
    );
    assert!(refused("grid1", 100, "rows", 1.5).starts_with("the seed must be a whole number"));

    let grids = js_sys::Array::from(&sudoku_ga_grids().unwrap());
    assert_eq!(grids.length(), 3);
    let grid1 = field(&grids.get(0), "puzzle").as_string().unwrap();
    assert_eq!(field(&grids.get(0), "name").as_string().unwrap(), "grid1");

    // `puzzlelab sudoku ga --puzzle grid1 --population 1000 --seed 1 --generations 20 --trace`:
    // best 211 at generation 0, 231 (mean 220.245) after 20, and this best grid.
    let mut ga = SudokuGa::new(&grid1, 1000, "rows", false, 1.0).unwrap();
    assert_eq!(field(&ga.stats().unwrap(), "best").as_f64(), Some(211.0));
    assert_eq!(ga.generation(), 0.0);
    let mut points = js_sys::Array::from(&ga.run(15).unwrap());
    points = points.concat(&js_sys::Array::from(&ga.run(5).unwrap()));
    assert_eq!(points.length(), 20);
    assert_eq!(field(&points.get(0), "generation").as_f64(), Some(1.0));
    assert_eq!(field(&points.get(19), "generation").as_f64(), Some(20.0));
    assert_eq!(field(&points.get(19), "best").as_f64(), Some(231.0));
    assert_eq!(field(&points.get(19), "mean").as_f64(), Some(220.245));
    assert_eq!((ga.generation(), ga.best_fitness()), (20.0, 231));
    assert_eq!(ga.mean_fitness(), 220.245);
    assert!(!ga.solved());
    let best: String = ga
        .best_grid()
        .iter()
        .map(|d| char::from(b'0' + d))
        .collect();
    assert_eq!(
        best,
        "784195263169283457235476819165482973327914568498537621971628435842357196653149782"
    );
    // Its repeats: cells whose digit another cell of a unit holds too (some, as 231 < 243).
    let conflicts = ga.best_conflicts().unwrap();
    assert!(!conflicts.is_empty() && conflicts.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(ga.givens().iter().filter(|&&d| d != 0).count(), 29);
}
