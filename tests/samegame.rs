//! The dust puzzle's and SameGame's commands: `dust solve` proves small optima and replays,
//! `dust eval` reports against the optimum, `samegame solve` prints games that replay to their
//! score; bad board text gets a clear error.

mod common;

use common::{json, json_lines, puzzlelab, puzzlelab_with_input, text};
use puzzlelab::env::samegame::{Board, Rules};

fn replay_clicks(board: &Board, clicks: &serde_json::Value) -> (Board, u32) {
    let mut b = board.clone();
    let mut points = 0;
    for click in clicks.as_array().unwrap() {
        let (c, r) = (
            click[0].as_u64().unwrap() as usize,
            click[1].as_u64().unwrap() as usize,
        );
        points += b.click(c, r).unwrap().points;
    }
    (b, points)
}

#[test]
fn dust_solve_proves_the_fewest_clicks_and_they_clear_the_board() {
    // Two boards on stdin, a blank line between; the second is the blog's size.
    let small = "..12\n1212\n2121\n";
    let full = Board::random(Rules::dust(), 11).unwrap().to_text();
    let out = puzzlelab_with_input(
        &["dust", "solve", "--seconds", "3"],
        &format!("{small}\n{full}"),
    );
    assert!(out.status.success(), "{}", text(&out).1);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    let board = Board::parse_any(Rules::dust(), small).unwrap();
    let (after, _) = replay_clicks(&board, &lines[0]["clicks"]);
    assert!(after.is_empty());
    assert_eq!(lines[0]["optimal"], true);
    assert_eq!(
        lines[0]["length"],
        lines[0]["clicks"].as_array().unwrap().len()
    );
    assert_eq!(lines[0]["length"], lines[0]["lower_bound"]);
    let board = Board::parse(Rules::dust(), &full).unwrap();
    let (after, _) = replay_clicks(&board, &lines[1]["clicks"]);
    assert!(after.is_empty());
    let length = lines[1]["length"].as_u64().unwrap();
    assert!(lines[1]["lower_bound"].as_u64().unwrap() <= length);
    assert!(lines[1]["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn dust_solve_refuses_bad_board_text_clearly() {
    let out = puzzlelab_with_input(&["dust", "solve"], "12x\n121\n\n11\n1.\n\n121\n12\n");
    assert!(!out.status.success());
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    let errors: Vec<&str> = lines.iter().map(|l| l["error"].as_str().unwrap()).collect();
    assert!(
        errors[0].contains("unexpected character 'x' at row 1, column 3"),
        "{errors:?}"
    );
    assert!(
        errors[1].contains("floats over an empty cell"),
        "{errors:?}"
    );
    assert!(errors[2].contains("row 2 has 2 cells"), "{errors:?}");
    let out = puzzlelab_with_input(&["dust", "solve"], "\n\n");
    assert!(!out.status.success());
    assert!(text(&out).1.contains("no board on stdin"));
}

#[test]
fn dust_eval_compares_an_agent_with_the_optimum() {
    let out = puzzlelab(&[
        "dust",
        "eval",
        "--agent",
        "greedy",
        "--boards",
        "3",
        "--seed",
        "5",
        "--seconds",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out).1);
    let report = json(&out);
    assert_eq!(report["boards"], 3);
    let mean = report["mean_clicks"].as_f64().unwrap();
    let optimum = report["optimum"]["mean_clicks"].as_f64().unwrap();
    // Whatever the optimum proved, the greedy is never shorter than a proved optimum's lower bound.
    assert!(mean >= optimum - 1e-9 || report["optimum"]["proved"].as_u64().unwrap() < 3);
    let counted: u64 = report["distribution"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(counted, 3);
}

#[test]
fn samegame_solve_prints_games_that_replay_to_their_score() {
    let board = Board::random(Rules::samegame(), 3).unwrap();
    for algo in ["nrpa", "nmcs"] {
        let out = puzzlelab_with_input(
            &[
                "samegame",
                "solve",
                "--algo",
                algo,
                "--seconds",
                "0.5",
                "--level",
                "1",
            ],
            &board.to_text(),
        );
        assert!(out.status.success(), "{}", text(&out).1);
        let lines = json_lines(&out);
        let (after, points) = replay_clicks(&board, &lines[0]["moves"]);
        assert_eq!(points as u64, lines[0]["score"].as_u64().unwrap());
        assert!(after.is_over());
        assert_eq!(after.is_empty(), lines[0]["cleared"].as_bool().unwrap());
        assert_eq!(lines[1]["total"], lines[0]["score"]);
    }
    let out = puzzlelab_with_input(&["samegame", "solve", "--seconds", "0.1"], "123\n12\n");
    assert!(!out.status.success());
    assert!(json_lines(&out)[0]["error"]
        .as_str()
        .unwrap()
        .contains("row 2 has 2 cells"));
}

#[test]
fn samegame_solve_reads_the_twenty_standard_positions_in_the_repository() {
    // Schadd et al.'s 20 standard positions (data/samegame/README.md): the benchmark of
    // docs/samegame.md, read as the command reads them.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/samegame/standard-20.txt");
    let set = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{path}: {error}"));
    let boards: Vec<Board> = set
        .split("\n\n")
        .map(|block| Board::parse(Rules::samegame(), block).unwrap())
        .collect();
    assert_eq!(boards.len(), 20);
    assert!(boards.iter().all(|b| b.colours_left() == 5));
    let out = puzzlelab_with_input(
        &[
            "samegame",
            "solve",
            "--algo",
            "nmcs",
            "--level",
            "1",
            "--seconds",
            "0.01",
        ],
        &set,
    );
    assert!(out.status.success(), "{}", text(&out).1);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 21, "a line a position and the total");
    for (board, line) in boards.iter().zip(&lines) {
        let (_, points) = replay_clicks(board, &line["moves"]);
        assert_eq!(points as u64, line["score"].as_u64().unwrap());
    }
}
