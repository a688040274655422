//! The sliding puzzle's API: parsing, playing, shuffles, search jobs, local value iteration,
//! Q-learning, pattern databases, and a model of the wrong board.

use crate::{field, message};
use puzzlelab::web::local_vi::LocalViSolver;
use puzzlelab::web::{Puzzle, QLearningJob, SearchJob};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

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
