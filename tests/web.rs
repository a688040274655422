//! Tests of the wasm-bindgen API (`src/web/`), compiled to wasm32 and run in Node by
//! wasm-bindgen-test-runner: `cargo test --target wasm32-unknown-unknown --features webgpu --test
//! web` with the runner set (scripts/test.sh does this; the learning bundle's tests need its
//! features). Natively this file is empty.
#![cfg(target_arch = "wasm32")]

use puzzlelab::web::local_vi::LocalViSolver;
use puzzlelab::web::{Puzzle, QLearningJob, SearchJob};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn message(error: JsValue) -> String {
    error
        .dyn_into::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_default()
}

fn field(object: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(object, &JsValue::from_str(name)).unwrap()
}

#[wasm_bindgen_test]
fn parse_errors_are_js_errors_with_readable_messages() {
    let e = Puzzle::parse(3, 3, "1,2,3,4,5,6,7,8,8", "", "")
        .err()
        .unwrap();
    assert!(message(e).contains("tile 8 appears more than once"));
    let e = Puzzle::parse(3, 3, "1,2,3", "", "").err().unwrap();
    assert!(message(e).contains("3 cells but a 3×3 board has 9"));
    let e = Puzzle::parse(3, 3, "1,2,3,4,5,6,7,8,_", "1,2,3", "")
        .err()
        .unwrap();
    assert!(message(e).starts_with("goal:"));
    let e = Puzzle::preset("nope").err().unwrap();
    assert!(message(e).contains("sun-moon"));
    let e = Puzzle::standard(7, 7).err().unwrap();
    assert!(message(e).contains("2 to 5"));
}

#[wasm_bindgen_test]
fn playing_clicks_moves_and_bad_input_leave_the_board_alone() {
    let mut p = Puzzle::standard(3, 3).unwrap();
    assert!(p.is_solved());
    assert_eq!(p.click_tile(6), vec!["left", "left"]);
    assert_eq!(p.board(), vec![1, 2, 3, 4, 5, 6, 0, 7, 8]);
    assert!(
        p.click_tile(4).is_empty(),
        "not in the blank's row or column"
    );
    assert!(!p.move_blank("left").unwrap(), "wall");
    assert!(p.move_blank("right").unwrap());
    assert!(p.move_blank("sideways").is_err());
    let before = p.board();
    assert!(p.set_board("1,2,3,4,5,6,7,8,9").is_err());
    assert_eq!(p.board(), before);
    p.set_board("1 2 3\n4 5 6\n7 _ 8").unwrap();
    assert_eq!(p.start_text(), "1,2,3,4,5,6,7,_,8");
    assert_eq!(p.symbols()[0], "");
    assert_eq!(p.symbols()[8], "8");
}

#[wasm_bindgen_test]
fn shuffles_are_exact_on_small_boards_and_walks_on_large_ones() {
    let mut p = Puzzle::standard(3, 3).unwrap();
    assert_eq!(p.shuffle(20, 1), "exact");
    assert_eq!(p.max_difficulty(), 31);
    let mut job = SearchJob::new(&p, "bfs", "manhattan", 0.0, 0.0).unwrap();
    while !job.step(1000.0) {}
    assert_eq!(field(&job.result().unwrap(), "length").as_f64(), Some(20.0));
    let mut q = Puzzle::standard(4, 4).unwrap();
    assert_eq!(q.shuffle(20, 1), "random-walk");
    assert!(q.is_solvable() && !q.is_solved());
    let mut same = Puzzle::standard(4, 4).unwrap();
    same.shuffle(20, 1);
    assert_eq!(same.board(), q.board(), "seeded");
}

#[wasm_bindgen_test]
fn search_jobs_run_in_chunks_and_report() {
    let p = Puzzle::parse(3, 3, "7,2,4,5,_,6,8,3,1", "_,1,2,3,4,5,6,7,8", "").unwrap();
    for algorithm in ["bfs", "astar", "idastar"] {
        let mut job = SearchJob::new(&p, algorithm, "linear-conflict", 0.0, 0.0).unwrap();
        let mut chunks = 0;
        while !job.step(500.0) {
            chunks += 1;
        }
        let result = job.result().unwrap();
        assert_eq!(field(&result, "status").as_string().unwrap(), "solved");
        assert_eq!(field(&result, "length").as_f64(), Some(26.0), "{algorithm}");
        assert_eq!(field(&result, "optimal").as_bool(), Some(true));
        assert_eq!(field(&result, "nodes").as_f64(), Some(job.nodes()));
        let moves: js_sys::Array = field(&result, "moves").dyn_into().unwrap();
        assert_eq!(moves.length(), 26);
        if algorithm == "bfs" {
            assert!(chunks > 10, "BFS expands many nodes, so several chunks");
        }
    }
    let unsolvable = Puzzle::parse(3, 3, "2,1,3,4,5,6,7,8,_", "", "").unwrap();
    let mut job = SearchJob::new(&unsolvable, "idastar", "manhattan", 0.0, 0.0).unwrap();
    assert!(job.step(1.0));
    assert_eq!(
        field(&job.result().unwrap(), "status").as_string().unwrap(),
        "unsolvable"
    );
    let big = Puzzle::standard(4, 4).unwrap();
    assert!(message(
        SearchJob::new(&big, "bfs", "manhattan", 0.0, 0.0)
            .err()
            .unwrap()
    )
    .contains("A* or IDA*"));
    assert!(SearchJob::new(&big, "astar", "euclid", 0.0, 0.0).is_err());
}

#[wasm_bindgen_test]
fn weighted_search_jobs_report_their_weight_and_bound() {
    let p = Puzzle::parse(3, 3, "7,2,4,5,_,6,8,3,1", "_,1,2,3,4,5,6,7,8", "").unwrap();
    // A JS caller that leaves the weight out passes undefined, which arrives as NaN: weight 2.
    for (weight, expected) in [(f64::NAN, 2.0), (0.0, 2.0), (1.5, 1.5)] {
        let mut job = SearchJob::new(&p, "wastar", "linear-conflict", 0.0, weight).unwrap();
        while !job.step(500.0) {}
        let result = job.result().unwrap();
        assert_eq!(field(&result, "status").as_string().unwrap(), "solved");
        assert_eq!(field(&result, "algorithm").as_string().unwrap(), "wastar");
        assert_eq!(field(&result, "weight").as_f64(), Some(expected));
        let length = field(&result, "length").as_f64().unwrap();
        assert!(length >= 26.0 && length <= expected * 26.0, "{length}");
        assert!(field(&result, "lower_bound").as_f64().unwrap() <= 26.0);
    }
    let e = SearchJob::new(&p, "wastar", "manhattan", 0.0, 0.5)
        .err()
        .unwrap();
    assert!(message(e).contains("from 1 to 100"));
}

#[wasm_bindgen_test]
fn local_vi_builds_its_tables_and_reports_the_stage_of_every_move() {
    let p = Puzzle::parse(3, 3, "8,6,7,2,5,4,3,_,1", "", "").unwrap();
    let solver = LocalViSolver::build(&p).unwrap();
    let stats = solver.stats().unwrap();
    assert_eq!(field(&stats, "tables").as_f64(), Some(5.0));
    assert_eq!(field(&stats, "states").as_f64(), Some(1226.0));
    assert!(field(&stats, "buildMs").as_f64().unwrap() >= 0.0);

    let result = solver.solve(&p).unwrap();
    assert_eq!(field(&result, "status").as_string().unwrap(), "solved");
    assert_eq!(field(&result, "algorithm").as_string().unwrap(), "local-vi");
    let length = field(&result, "length").as_f64().unwrap() as usize;
    let mut bfs = SearchJob::new(&p, "bfs", "manhattan", 0.0, 0.0).unwrap();
    while !bfs.step(10_000.0) {}
    let optimum = field(&bfs.result().unwrap(), "length").as_f64().unwrap() as usize;
    assert!(
        length >= optimum && field(&result, "lower_bound").as_f64().unwrap() as usize <= optimum
    );
    // Every move names its stage; stages come in order and hold as many moves as they say.
    let moves: js_sys::Array = field(&result, "moves").dyn_into().unwrap();
    let stages: js_sys::Array = field(&result, "stages").dyn_into().unwrap();
    let move_stages: Vec<usize> = js_sys::Array::from(&field(&result, "moveStages"))
        .iter()
        .map(|i| i.as_f64().unwrap() as usize)
        .collect();
    assert_eq!(
        (moves.length() as usize, move_stages.len()),
        (length, length)
    );
    assert!(move_stages.windows(2).all(|w| w[0] <= w[1]));
    for (i, stage) in stages.iter().enumerate() {
        let tiles = js_sys::Array::from(&field(&stage, "tiles"));
        assert!(tiles.length() >= 1);
        let count = move_stages.iter().filter(|&&s| s == i).count();
        assert_eq!(field(&stage, "moves").as_f64(), Some(count as f64));
    }
    assert_eq!(
        field(&field(&result, "tables"), "states").as_f64(),
        Some(1226.0)
    );
    let mut replay = Puzzle::parse(3, 3, "8,6,7,2,5,4,3,_,1", "", "").unwrap();
    for m in moves.iter() {
        assert!(replay.move_blank(&m.as_string().unwrap()).unwrap());
    }
    assert!(replay.is_solved());

    let unsolvable = Puzzle::parse(3, 3, "2,1,3,4,5,6,7,8,_", "", "").unwrap();
    let result = solver.solve(&unsolvable).unwrap();
    assert_eq!(field(&result, "status").as_string().unwrap(), "unsolvable");
    let other = Puzzle::standard(2, 3).unwrap();
    assert!(message(solver.solve(&other).err().unwrap()).contains("different goal"));
    let preset = Puzzle::preset("sun-moon").unwrap();
    assert!(
        message(LocalViSolver::build(&preset).err().unwrap()).contains("blank in the last cell")
    );
    let typed = Puzzle::parse(3, 3, "1,2,3,4,5,6,7,8,_", "_,1,2,3,4,5,6,7,8", "").unwrap();
    assert!(LocalViSolver::build(&typed).is_err());
}

#[wasm_bindgen_test]
fn q_learning_solves_the_sun_moon_preset_optimally() {
    let p = Puzzle::preset("sun-moon").unwrap();
    assert_eq!(p.preset_name(), "sun-moon");
    assert_eq!(p.symbols(), vec!["", "☼", "☾"]);
    assert_eq!(p.label_name(2), "moon");
    let mut job = QLearningJob::new(&p, JsValue::UNDEFINED).unwrap();
    while !job.train(100) {}
    assert_eq!(job.episodes_done(), 1000);
    let result = job.result().unwrap();
    assert_eq!(field(&result, "length").as_f64(), Some(13.0));
    assert_eq!(field(&result, "optimalLength").as_f64(), Some(13.0));
    assert_eq!(field(&result, "optimal").as_bool(), Some(true));
    let config = js_sys::JSON::parse(r#"{"episodes": 10, "seed": 3}"#).unwrap();
    let mut short = QLearningJob::new(&p, config).unwrap();
    assert!(short.train(1000));
    assert_eq!(short.episodes_done(), 10);
    let bad = js_sys::JSON::parse(r#"{"alpha": "fast"}"#).unwrap();
    assert!(message(QLearningJob::new(&p, bad).err().unwrap()).contains("Q-learning settings"));
}

#[wasm_bindgen_test]
fn pattern_databases_are_built_or_loaded_and_guide_idastar() {
    use puzzlelab::web::PatternDatabases;
    let goal = Puzzle::standard(4, 4).unwrap();
    let calls = std::rc::Rc::new(std::cell::Cell::new(0u32));
    let counter = calls.clone();
    let progress = wasm_bindgen::closure::Closure::<dyn FnMut(f64)>::new(move |_fraction: f64| {
        counter.set(counter.get() + 1)
    });
    let db = PatternDatabases::build(&goal, "5-5-5", progress.as_ref().unchecked_ref()).unwrap();
    assert!(calls.get() > 3, "progress was reported");
    assert_eq!(db.partition(), "5-5-5");
    assert!(db.mirrored());
    let p = Puzzle::parse(4, 4, "5,1,2,3,9,6,7,4,13,10,11,8,14,15,_,12", "", "").unwrap();
    assert!(db.fits_goal_of(&p));
    let mut job = SearchJob::with_pattern_databases(&p, &db, 0.0).unwrap();
    while !job.step(10_000.0) {}
    let result = job.result().unwrap();
    assert_eq!(
        field(&result, "heuristic").as_string().unwrap(),
        "pdb-5-5-5"
    );
    assert_eq!(field(&result, "optimal").as_bool(), Some(true));
    let mut plain = SearchJob::new(&p, "idastar", "linear-conflict", 0.0, 0.0).unwrap();
    while !plain.step(10_000.0) {}
    assert_eq!(
        field(&plain.result().unwrap(), "length").as_f64(),
        field(&result, "length").as_f64()
    );
    // Other goals, other sizes and damaged files are refused with messages.
    let other = Puzzle::parse(
        4,
        4,
        "1,2,3,4,5,6,7,8,9,10,11,12,13,14,_,15",
        "_,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15",
        "",
    )
    .unwrap();
    assert!(!db.fits_goal_of(&other));
    assert!(message(
        SearchJob::with_pattern_databases(&other, &db, 0.0)
            .err()
            .unwrap()
    )
    .contains("different goal"));
    assert!(message(
        PatternDatabases::from_bytes(&goal, b"junk junk junk junk")
            .err()
            .unwrap()
    )
    .contains("not a puzzlelab"));
    let three = Puzzle::standard(3, 3).unwrap();
    assert!(message(
        PatternDatabases::build(&three, "5-5-5", progress.as_ref().unchecked_ref())
            .err()
            .unwrap()
    )
    .contains("4×4"));
    assert!(message(
        PatternDatabases::build(&goal, "7-8", progress.as_ref().unchecked_ref())
            .err()
            .unwrap()
    )
    .contains("partition"));
}

#[wasm_bindgen_test]
fn minesweeper_plays_analyses_hints_and_refuses_bad_input() {
    use puzzlelab::web::minesweeper::{MinesGame, COVERED, FLAGGED};
    // Bad settings and board texts: readable errors.
    let e = MinesGame::new(9, 9, 81, "safe", 1.0, false).err().unwrap();
    assert!(message(e).contains("at most 80"));
    let e = MinesGame::new(9, 9, 10, "lucky", 1.0, false).err().unwrap();
    assert!(message(e).contains("safe, opening or none"));
    let e = MinesGame::from_text("..x\n...\n").err().unwrap();
    assert!(message(e).contains("unexpected character 'x' at row 1, column 3"));
    let e = MinesGame::from_text("*2.\n...\n").err().unwrap();
    assert!(message(e).contains("has 1 mines around it"));

    // A seeded game: the first click is safe; the same seed gives the same board.
    let mut game = MinesGame::new(9, 9, 10, "safe", 7.0, false).unwrap();
    let mut twin = MinesGame::new(9, 9, 10, "safe", 7.0, false).unwrap();
    assert_eq!(game.status(), "ready");
    assert!(game.mine_map().is_empty(), "no peeking before the end");
    let report = game.reveal(0).unwrap();
    twin.reveal(0).unwrap();
    assert_eq!(game.cells(), twin.cells());
    assert!(field(&report, "exploded").is_null() || field(&report, "exploded").is_undefined());
    assert_eq!(game.status(), "playing");
    assert!(game.reveal(81).is_err());

    // The overlay's probabilities: revealed cells 0, covered ones in [0, 1], the mines' sum 10.
    let analysis = game.analyse().unwrap();
    let probabilities: Vec<f64> =
        serde_wasm_bindgen::from_value(field(&analysis, "probabilities")).unwrap();
    let cells = game.cells();
    assert_eq!(probabilities.len(), 81);
    let total: f64 = probabilities.iter().sum();
    assert!((total - 10.0).abs() < 1e-9, "expected mines {total}");
    for (p, &c) in probabilities.iter().zip(&cells) {
        assert!((0.0..=1.0).contains(p));
        if c <= 8 {
            assert_eq!(*p, 0.0);
        }
    }

    // Flags cycle; the solver's hint is a covered cell; following hints ends the game.
    let covered = cells.iter().position(|&c| c == COVERED).unwrap();
    assert_eq!(game.toggle_flag(covered, false).unwrap(), FLAGGED);
    assert_eq!(game.flags(), 1);
    assert_eq!(game.toggle_flag(covered, false).unwrap(), COVERED);
    let mut moves = 0;
    while game.status() == "playing" {
        let hint = game.hint().unwrap();
        let cell = field(&hint, "cell").as_f64().unwrap() as usize;
        assert!(game.cells()[cell] >= COVERED);
        game.reveal(cell).unwrap();
        moves += 1;
        assert!(moves < 81);
    }
    assert!(["won", "lost"].contains(&game.status().as_str()));
    assert_eq!(game.mine_map().iter().filter(|&&m| m == 1).count(), 10);
    assert!(game.hint().unwrap().is_null());

    // A no-guess board: drawn at the first reveal, won by certain hints alone.
    let mut game = MinesGame::new(16, 16, 40, "opening", 3.0, true).unwrap();
    game.reveal(17).unwrap();
    assert!(game.no_guess_found() && game.no_guess_attempts() >= 1);
    while game.status() == "playing" {
        let hint = game.hint().unwrap();
        assert_eq!(field(&hint, "reason").as_string().unwrap(), "certain");
        game.reveal(field(&hint, "cell").as_f64().unwrap() as usize)
            .unwrap();
    }
    assert_eq!(game.status(), "won");
}

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

#[wasm_bindgen_test]
fn samegame_handle_clicks_closes_undoes_hints_and_solves() {
    use puzzlelab::web::samegame::SameGameHandle;
    // Bad rules, seeds and board texts: readable errors.
    let e = SameGameHandle::new("tetris", 1.0).err().unwrap();
    assert!(message(e).contains("use dust or samegame"));
    let e = SameGameHandle::new("dust", 1.5).err().unwrap();
    assert!(message(e).contains("whole number"));
    let e = SameGameHandle::from_text("dust", "12x\n123\n")
        .err()
        .unwrap();
    assert!(message(e).contains("unexpected character 'x' at row 1, column 3"));
    let e = SameGameHandle::from_text("dust", "1..\n123\n1.3\n")
        .err()
        .unwrap();
    assert!(message(e).contains("floats over an empty cell"));

    // Dust, by hand: 6 wide, the cut between columns 3 and 4 (1-based). Column 2's two piles go in
    // two clicks; the second empties it and column 1 closes in toward the middle (to the right).
    let mut game = SameGameHandle::from_text("dust", "21....\n123456\n").unwrap();
    assert_eq!(
        (game.width(), game.height(), game.rules()),
        (6, 2, "dust".into())
    );
    let group = game.group(7).unwrap();
    assert_eq!(field(&group, "size").as_f64(), Some(1.0));
    assert!(
        game.group(3).unwrap().is_null(),
        "an empty cell has no group"
    );
    assert!(game.group(12).is_err());
    game.click(7).unwrap();
    assert_eq!(game.cells(), vec![2, 0, 0, 0, 0, 0, 1, 1, 3, 4, 5, 6]);
    assert_eq!(field(&game.group(6).unwrap(), "size").as_f64(), Some(2.0));
    let report = game.click(6).unwrap();
    assert_eq!(game.cells(), vec![0, 0, 0, 0, 0, 0, 0, 2, 3, 4, 5, 6]);
    let moved: Vec<(usize, usize)> =
        serde_wasm_bindgen::from_value(field(&report, "moved")).unwrap();
    assert!(
        moved.contains(&(0, 7)),
        "the 2 fell and moved right: {moved:?}"
    );
    assert_eq!(game.clicks(), 2);
    assert!(game.click(0).is_err(), "an empty cell is refused");
    assert_eq!(game.clicks(), 2, "a refused click changes nothing");
    assert!(game.undo());
    assert_eq!(game.cells(), vec![2, 0, 0, 0, 0, 0, 1, 1, 3, 4, 5, 6]);
    game.restart();
    assert_eq!(game.to_text(), "21....\n123456\n");
    assert!(!game.undo());

    // The hint and the exact solver agree on the fewest clicks of a small board; the solver calls
    // back and plays to an empty board.
    let game = SameGameHandle::from_text("dust", "1122\n1212\n2211\n").unwrap();
    let hint = game.hint().unwrap();
    assert_eq!(field(&hint, "optimal").as_bool(), Some(true));
    assert_eq!(field(&hint, "clicksLeft").as_f64(), Some(3.0));
    let progress = js_sys::Function::new_with_args("p", "return true;");
    let solution = game.solve_fewest_clicks(&progress, 0.0).unwrap();
    let cells: Vec<usize> = serde_wasm_bindgen::from_value(field(&solution, "cells")).unwrap();
    assert_eq!(cells.len(), 3);
    assert_eq!(field(&solution, "optimal").as_bool(), Some(true));
    let mut replay = SameGameHandle::from_text("dust", &game.to_text()).unwrap();
    for cell in cells {
        replay.click(cell).unwrap();
    }
    assert!(replay.is_cleared());
    // A board too large for the exact solver: the hint is the greedy click, Solve says why not.
    let large = SameGameHandle::from_text("dust", &"1212121212\n".repeat(8)).unwrap();
    assert!(!large.exact_supported());
    let hint = large.hint().unwrap();
    assert_eq!(
        field(&hint, "method").as_string().as_deref(),
        Some("greedy")
    );
    assert!(
        message(large.solve_fewest_clicks(&progress, 0.0).err().unwrap())
            .contains("at most 64 cells")
    );
    // A callback that says stop: the best clearing found, not proved.
    let seeded = SameGameHandle::new("dust", 3.0).unwrap();
    let stop = js_sys::Function::new_with_args("p", "return false;");
    let stopped = seeded.solve_fewest_clicks(&stop, 0.0).unwrap();
    assert_eq!(field(&stopped, "optimal").as_bool(), Some(false));
    assert_eq!(field(&stopped, "stopped").as_bool(), Some(true));
    assert!(
        seeded.search_score("nrpa", 0.1, 1.0, None).is_err(),
        "dust is not played for score"
    );

    // SameGame: a group of one is refused, groups score (n − 2)², the search's moves replay.
    let mut same = SameGameHandle::new("samegame", 5.0).unwrap();
    assert_eq!((same.width(), same.height(), same.min_group()), (15, 15, 2));
    let single = (0..225)
        .find(|&c| field(&same.group(c).unwrap(), "size").as_f64() == Some(1.0))
        .unwrap();
    assert!(message(same.click(single).err().unwrap()).contains("groups of 2 or more"));
    // A 30 s search told to stop at its first report (after a quarter of a second) answers its
    // best game so far.
    let stop_at_first = js_sys::Function::new_with_args("p", "return !(p.best >= 0);");
    let found = same
        .search_score("nmcs", 30.0, 1.0, Some(stop_at_first))
        .unwrap();
    assert!(field(&found, "seconds").as_f64().unwrap() < 10.0);
    let moves: Vec<usize> = serde_wasm_bindgen::from_value(field(&found, "cells")).unwrap();
    let score = field(&found, "score").as_f64().unwrap() as u32;
    for cell in moves {
        same.click(cell).unwrap();
    }
    assert!(same.is_over());
    assert_eq!(same.score(), score);
}

/// The dust puzzle's learner in the learning bundle (on the CPU here; the suite runs this file
/// with the learning bundle's features: `cargo test --target wasm32-unknown-unknown --features
/// webgpu --test web`; the browser test `dust-dqn.test.mjs` trains the same handle in Chromium): a
/// trainer runs a few chunks and validates; its network saved and read back as a model plays a
/// board to empty, refuses a board it cannot play, and is evaluated beside the greedy rule.
#[cfg(feature = "learn")]
#[wasm_bindgen_test]
async fn the_dust_dqn_trains_validates_and_its_model_clears_boards() {
    use puzzlelab::web::learner::{LearnedModel, LearnerTrainer};
    use puzzlelab::web::samegame::SameGameHandle;
    use wasm_bindgen_futures::JsFuture;

    let options = |json: &str| js_sys::JSON::parse(json).unwrap();
    let refused = |options_json: &str| {
        let options = options(options_json);
        async move {
            let error = LearnerTrainer::create("dust".into(), options, "cpu".into())
                .await
                .err();
            message(error.expect("refused"))
        }
    };
    assert!(refused(r#"{"net": "cnn"}"#)
        .await
        .contains("backups or batched"));
    // `blog`, the batched DQN's former name, is still read and reported by the current one.
    let batched = LearnerTrainer::create(
        "dust".into(),
        options(
            r#"{"net": "blog", "hidden": [4], "numEnvs": 2, "batchSize": 2, "validationSize": 1}"#,
        ),
        "cpu".into(),
    )
    .await
    .unwrap();
    assert_eq!(
        field(&batched.setup().unwrap(), "net").as_string().unwrap(),
        "batched"
    );
    assert!(refused(r#"{"target": "median"}"#)
        .await
        .contains("max or mean"));
    assert!(refused(r#"{"validationSize": 0}"#)
        .await
        .contains("1 to 10000"));

    let trainer = LearnerTrainer::create(
        "dust".into(),
        options(r#"{"hidden": [16, 16], "batchSize": 8, "validationSize": 4, "target": "mean"}"#),
        "cpu".into(),
    )
    .await
    .unwrap();
    assert_eq!(trainer.backend(), "cpu");
    // Nine planes of 48 cells (the one-hot six and the three features), two layers of 16.
    assert_eq!(
        trainer.num_params().unwrap(),
        432 * 16 + 16 + 16 * 16 + 16 + 16 * 48 + 48
    );
    let setup = trainer.setup().unwrap();
    assert_eq!(field(&setup, "net").as_string().unwrap(), "backups");
    assert_eq!(field(&setup, "target").as_string().unwrap(), "mean");
    assert_eq!(field(&setup, "validationSize").as_f64(), Some(4.0));
    assert_eq!(field(&setup, "puzzle").as_string().unwrap(), "dust");
    for _ in 0..2 {
        let report = JsFuture::from(trainer.train_steps(5)).await.unwrap();
        assert!(field(&report, "tdLoss").as_f64().unwrap().is_finite());
    }
    let report = JsFuture::from(trainer.train_steps(1)).await.unwrap();
    assert_eq!(field(&report, "stepsDone").as_f64(), Some(11.0));
    let validation = JsFuture::from(trainer.evaluate(JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(field(&validation, "boards").as_f64(), Some(4.0));
    let mean = field(&validation, "mean_clicks").as_f64().unwrap();
    assert!((1.0..=48.0).contains(&mean), "{mean} clicks a board");

    // The network as a model file, read back: it clears a seeded board, one click a pile at most.
    let bytes = JsFuture::from(trainer.save_model()).await.unwrap();
    let bytes = js_sys::Uint8Array::new(&bytes).to_vec();
    let model = LearnedModel::from_bytes(&bytes).unwrap();
    assert_eq!(model.puzzle(), "dust");
    let info = model.info().unwrap();
    assert_eq!(field(&info, "net").as_string().unwrap(), "backups");
    assert_eq!(field(&info, "target").as_string().unwrap(), "mean");
    let mut game = SameGameHandle::new("dust", 3.0).unwrap();
    let board = |text: &str| options(&format!("{{\"board\": {text:?}}}"));
    let played = model.play(board(&game.to_text())).unwrap();
    assert_eq!(field(&played, "cleared").as_bool(), Some(true));
    assert_eq!(
        field(&played, "after").as_string().unwrap(),
        "........\n".repeat(6)
    );
    let cells: Vec<usize> = serde_wasm_bindgen::from_value(field(&played, "cells")).unwrap();
    let clicks: Vec<(usize, usize)> =
        serde_wasm_bindgen::from_value(field(&played, "clicks")).unwrap();
    assert!(!cells.is_empty() && cells.len() <= 48);
    for (&cell, &(col, row)) in cells.iter().zip(&clicks) {
        assert_eq!(cell, row * 8 + col);
        game.click(cell).unwrap();
    }
    assert!(game.is_cleared(), "the clicks clear the page's game too");

    // Boards it cannot play, and other puzzles' models, are refused in words.
    let e = model.play(board("12\n21\n")).err().unwrap();
    assert!(message(e).contains("8 × 6"));
    let e = LearnedModel::from_bytes(&bytes[..100]).err().unwrap();
    assert!(message(e).contains("corrupt"));
    let e = LearnedModel::for_puzzle("sudoku", &bytes).err().unwrap();
    assert!(message(e).contains("not Sudoku"));

    // Seeded boards, beside the greedy rule on the same boards.
    let seeded =
        |boards: usize, seed: f64| options(&format!("{{\"boards\": {boards}, \"seed\": {seed}}}"));
    let evaluation = model.evaluate(seeded(6, 1.0)).unwrap();
    assert_eq!(field(&evaluation, "boards").as_f64(), Some(6.0));
    let greedy = field(&evaluation, "greedy");
    assert_eq!(field(&greedy, "boards").as_f64(), Some(6.0));
    assert!(field(&greedy, "mean_clicks").as_f64().unwrap() >= 5.0);
    for boards in [0, 10_001] {
        let e = model.evaluate(seeded(boards, 1.0)).err().unwrap();
        assert_eq!(message(e), "Evaluate 1 to 10,000 boards.");
    }
    let e = model.evaluate(seeded(5, 0.5)).err().unwrap();
    assert_eq!(message(e), "the seed must be a whole number from 0 to 2^53");

    // A value network (`dust value-train`'s kind: one output) plays by a beam search; its values
    // are the boards' own.
    use puzzlelab::agent::dqn::cost_to_go::CostToGo;
    use puzzlelab::agent::dqn::dust_value::DustValue;
    let values = CostToGo::new(DustValue::new(), &[8], 1).policy().to_bytes();
    let model = LearnedModel::from_bytes(&values).unwrap();
    let game = SameGameHandle::new("dust", 4.0).unwrap();
    let played = model.play(board(&game.to_text())).unwrap();
    assert_eq!(field(&played, "cleared").as_bool(), Some(true));
    let values: Vec<f32> = serde_wasm_bindgen::from_value(field(&played, "values")).unwrap();
    let cells: Vec<usize> = serde_wasm_bindgen::from_value(field(&played, "cells")).unwrap();
    assert_eq!(values.len(), cells.len());
    assert!(values.iter().all(|v| v.is_finite()));
}

/// A sliding model asked to solve a board of another size or goal than its own refuses it,
/// saying what it was trained for (the page's card and the widget send the board's rows, cols and
/// goal with its cells).
#[cfg(feature = "learn")]
#[wasm_bindgen_test]
async fn a_sliding_model_refuses_a_board_of_another_size_or_goal() {
    use puzzlelab::web::learner::{LearnedModel, LearnerTrainer};
    use wasm_bindgen_futures::JsFuture;

    let options = |json: &str| js_sys::JSON::parse(json).unwrap();
    let trainer = LearnerTrainer::create(
        "sliding".into(),
        options(r#"{"size": "2x3", "hidden": [8], "batchSize": 2}"#),
        "cpu".into(),
    )
    .await
    .unwrap();
    let bytes = JsFuture::from(trainer.save_model()).await.unwrap();
    let model = LearnedModel::from_bytes(&js_sys::Uint8Array::new(&bytes).to_vec()).unwrap();
    let asked = |json: &str| model.play(options(json)).err().map(message);
    let own = r#""rows": 2, "cols": 3, "goal": [1, 2, 3, 4, 5, 0]"#;
    assert_eq!(
        asked(&format!(r#"{{"cells": [1, 2, 3, 4, 0, 5], {own}}}"#)),
        None
    );
    assert_eq!(
        asked(r#"{"cells": [1, 2, 3, 4, 0, 5]}"#),
        None,
        "no board given: none checked"
    );
    let trained = "This model was trained for the 2 × 3 puzzle with the goal 1,2,3,4,5,_";
    assert_eq!(
        asked(r#"{"cells": [1, 2, 0, 3], "rows": 2, "cols": 2, "goal": [1, 2, 3, 0]}"#).unwrap(),
        format!("{trained}; the board is 2 × 2.")
    );
    assert_eq!(
        asked(r#"{"cells": [1, 2, 3, 4, 0, 5], "rows": 2, "cols": 3, "goal": [0, 1, 2, 3, 4, 5]}"#)
            .unwrap(),
        format!("{trained}; the board is 2 × 3 with the goal _,1,2,3,4,5.")
    );
}

#[cfg(feature = "learn")]
#[wasm_bindgen_test]
async fn the_2048_dqn_learns_from_an_ntuple_networks_demonstrations_added_in_the_page() {
    use puzzlelab::agent::ntuple::{NTupleNetwork, Precision, TupleSet};
    use puzzlelab::web::learner::LearnerTrainer;
    use wasm_bindgen_futures::JsFuture;

    // A small demonstrator: an untrained 4-tuple network (it plays its first legal move), as the
    // page hands over the shipped one, unpacked.
    let demonstrator = NTupleNetwork::new(TupleSet::FiveFourTuples).to_bytes(Precision::F32);
    let options = js_sys::JSON::parse(
        r#"{"conv": {"channels": 16, "height": 4, "width": 4, "filters1": 4, "filters2": 4},
            "hidden": [16], "batchSize": 16,
            "demonstrations": {"ntuple": "2048-ntuple.ntuple.gz", "games": 2, "maxTransitions": 300,
                               "pretrainSteps": 20, "weight": 10}}"#,
    )
    .unwrap();
    let trainer = LearnerTrainer::create("2048".into(), options, "cpu".into())
        .await
        .unwrap();
    // Training before the demonstrations are there is refused in words.
    let refused = JsFuture::from(trainer.train_steps(5)).await.unwrap_err();
    assert!(message(refused).contains("addDemonstrations"));
    // A file that is no n-tuple network is refused, and says what it is.
    let wrong = trainer.add_demonstrations(b"not a network").unwrap_err();
    assert!(
        message(wrong).contains("the demonstrator"),
        "refused in words"
    );

    let report = trainer.add_demonstrations(&demonstrator).unwrap();
    assert_eq!(field(&report, "transitions").as_f64(), Some(300.0));
    assert!(field(&report, "seconds").as_f64().unwrap() >= 0.0);
    // Pre-training (20 steps on the demonstrations alone, no game played), then self-play.
    let report = JsFuture::from(trainer.train_steps(20)).await.unwrap();
    assert_eq!(field(&report, "episodesDone").as_f64(), Some(0.0));
    assert!(field(&report, "marginLoss").as_f64().unwrap().is_finite());
    let agreement = field(&report, "demonstrationAgreement").as_f64().unwrap();
    assert!((0.0..=1.0).contains(&agreement), "{agreement}");
    let report = JsFuture::from(trainer.train_steps(30)).await.unwrap();
    assert_eq!(field(&report, "stepsDone").as_f64(), Some(50.0));
    assert!(field(&report, "demonstrationAgreement").as_f64().is_some());
    let setup = trainer.setup().unwrap();
    let demonstrations = field(&setup, "demonstrations");
    assert_eq!(field(&demonstrations, "games").as_f64(), Some(2.0));
}
