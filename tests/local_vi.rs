//! Local value iteration on the 15-puzzle: never shorter than the optimum (IDA* with the shipped
//! pattern databases), every position solved; `solve --algo local-vi` and `local-vi eval`.

mod common;

use common::sliding::shipped_pdb;
use common::{fails_with, json, json_lines, succeeds};
use puzzlelab::agent::local_vi::{LocalValueIteration, LocalViConfig};
use puzzlelab::env::sliding::solve::SlidingSolver;
use puzzlelab::env::sliding::SlidingPuzzle;
use puzzlelab::rng::Rng;
use puzzlelab::search::Limits;
use std::rc::Rc;

#[test]
fn fifteen_puzzle_solutions_reach_the_goal_and_are_never_shorter_than_the_optimum() {
    let puzzle = SlidingPuzzle::standard(4, 4).unwrap();
    let learner = LocalValueIteration::build(&puzzle, LocalViConfig::default()).unwrap();
    let databases = Rc::new(shipped_pdb("pdb-4x4-6-6-3-standard.pdb.gz", puzzle.goal()));
    let mut rng = Rng::new(2026);
    let mut longer = 0;
    for walk in (4..=60).step_by(2) {
        let start = puzzle.random_walk(1, walk, &mut rng, |_| 0);
        let solution = learner.solve(&start).unwrap();
        let mut end = start;
        end.apply(&solution.moves).unwrap();
        assert_eq!(end, *puzzle.goal());
        let optimum = SlidingSolver::with_pattern_databases(
            &puzzle,
            start,
            databases.clone(),
            Limits::default(),
        )
        .unwrap()
        .run_to_end(u64::MAX, |_| true)
        .length;
        assert!(solution.moves.len() >= optimum, "{start:?}");
        longer += usize::from(solution.moves.len() > optimum);
    }
    // Tile by tile is far from optimal on most of them.
    assert!(longer >= 15, "{longer}");
}

#[test]
fn solve_with_local_vi_prints_the_moves_and_the_sub_problems() {
    let out = succeeds(&[
        "sliding",
        "solve",
        "--algo",
        "local-vi",
        "--size",
        "4",
        "1 2 3 5 4 6 7 8 9 10 11 12 13 15 14 0",
    ]);
    let line = &json_lines(&out)[0];
    assert_eq!(line["status"], "solved");
    assert_eq!(line["algorithm"], "local-vi");
    assert_eq!(
        line["length"].as_u64().unwrap() as usize,
        line["moves"].as_array().unwrap().len()
    );
    // Manhattan 4 + 4 + 1 + 1 and one linear conflict (15, 14): at least 12 moves.
    assert_eq!(line["lower_bound"], 12);
    assert_eq!(line["optimal"], false);
    let stages = line["stages"].as_array().unwrap();
    let enlarged: Vec<_> = stages.iter().filter(|s| s["enlarged"] == true).collect();
    assert_eq!(enlarged[0]["tiles"], serde_json::json!([3, 4]));
    assert_eq!(line["tables"]["states"], 50_610);
    fails_with(
        &[
            "sliding",
            "solve",
            "--algo",
            "local-vi",
            "--weight",
            "2",
            "123456780",
        ],
        "takes no --weight",
    );
}

#[test]
fn local_vi_eval_prints_the_bands() {
    let out = succeeds(&[
        "sliding",
        "local-vi",
        "eval",
        "--size",
        "3",
        "--per-band",
        "40",
        "--seed",
        "3",
        "--sampled",
        "--episodes",
        "500",
    ]);
    let report = json(&out);
    let bands = report["bands"].as_array().unwrap();
    let names: Vec<_> = bands.iter().map(|b| b["band"].as_str().unwrap()).collect();
    assert_eq!(names, ["easy", "medium", "hard", "uniform"]);
    for band in bands.iter().filter(|b| b["positions"] != 0) {
        assert_eq!(band["solved_pct"], 100.0);
        assert!(band["ratio"]["mean_ratio"].as_f64().unwrap() >= 1.0);
        assert!(band["sampled"]["won_pct"].as_f64().unwrap() <= 100.0);
    }
    assert_eq!(report["tables"]["states"], 1226);
    assert_eq!(report["sampled"]["stats"]["episodes"], 500);
}
