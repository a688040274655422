//! Minesweeper's API: play, analysis, hints and bad input.

use crate::{field, message};
use wasm_bindgen_test::wasm_bindgen_test;

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
