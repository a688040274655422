//! SameGame and dust: clicks, undo, hints, the solver, and the dust DQN in the page.

use crate::{field, message};
#[cfg(feature = "learn")]
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

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
