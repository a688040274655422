//! `puzzlelab minesweeper`: the solver's evaluation as JSON (the same games whatever the thread
//! count), the random baseline, no-guess boards, and bad flags refused with a reason.

mod common;
use common::{args, fails_with, json, succeeds};

#[test]
fn eval_plays_seeded_games_and_reports_json_the_same_on_any_number_of_threads() {
    let eval = args(
        "minesweeper eval --level beginner --games 200 --seed 5",
        &[],
    );
    let one = json(&succeeds(&eval));
    let two = json(&succeeds(&[&eval[..], &["--threads", "2"]].concat()));
    assert_eq!(one["games"], 200);
    assert_eq!(one["wins"], two["wins"], "the same games");
    assert_eq!(one["guesses_per_game"], two["guesses_per_game"]);
    let rate = one["win_rate"].as_f64().unwrap();
    assert!(rate > 0.8, "the solver wins most beginner games: {one}");
    let [low, high] = [&one["win_rate_95"][0], &one["win_rate_95"][1]].map(|v| v.as_f64().unwrap());
    assert!(low < rate && rate < high);
    assert_eq!(one["board"]["width"], 9);
    assert_eq!(one["board"]["first_click"], "safe");
    assert_eq!(one["board"]["first_cell"], serde_json::json!([0, 0]));
    assert!(one["ms_per_game"].as_f64().unwrap() > 0.0);
    assert_eq!(one["agent"], "solver");

    let random = json(&succeeds(&args(
        "minesweeper eval --level beginner --agent random --games 100",
        &[],
    )));
    assert!(random["win_rate"].as_f64().unwrap() < 0.1, "{random}");

    // A custom board and the opening rule at (3, 3).
    let custom = json(&succeeds(&args(
        "minesweeper eval --width 12 --height 7 --mines 12 --first-click opening --first-cell 3,3 \
         --games 50",
        &[],
    )));
    assert_eq!(custom["board"]["height"], 7);
    assert_eq!(custom["board"]["first_cell"], serde_json::json!([3, 3]));
}

#[test]
fn no_guess_boards_are_found_and_timed() {
    let report = json(&succeeds(&args(
        "minesweeper no-guess --level intermediate --boards 10 --seed 2",
        &[],
    )));
    assert_eq!(report["found"], 10);
    assert!(report["draws_mean"].as_f64().unwrap() >= 1.0);
    assert!(report["ms_max"].as_f64().unwrap() >= report["ms_median"].as_f64().unwrap());
}

#[test]
fn bad_boards_and_flags_are_refused_with_a_reason() {
    // `minesweeper eval` with these flags, and what it says.
    for (flags, message) in [
        (
            "--width 5 --height 5 --mines 25",
            "25 mines do not fit on 5 × 5",
        ),
        ("--width 60 --games 1", "1 to 50 cells wide and high"),
        ("--level huge", "unknown level"),
        ("--first-click lucky", "unknown first-click rule"),
        ("--first-cell 99,0", "not on the board"),
        ("--games 0", "--games must be at least 1"),
    ] {
        fails_with(&args(&format!("minesweeper eval {flags}"), &[]), message);
    }
}
