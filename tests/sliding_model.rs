//! A trained sliding-puzzle model with its puzzle (`agent::evaluation::SlidingModel`), as the CLI's
//! `sliding solve --algo dqn` and the page's learning card use it, on the shipped 8-puzzle model:
//! boards of another size or goal and positions that cannot reach the goal are refused saying why,
//! its solves are reported against the exact optimum, its Q-values read any board of its size,
//! and its evaluation by optimal distance plays a few positions at a time.
#![cfg(feature = "learn")]

use burn::tensor::Device;
use puzzlelab::agent::bwas::BwasSettings;
use puzzlelab::agent::dqn::QPolicy;
use puzzlelab::agent::evaluation::{EvaluationSettings, SlidingModel, DEFAULT_LAMBDA_Q};
use puzzlelab::env::sliding::solve::SolveStatus;
use puzzlelab::env::sliding::SlidingPuzzle;

fn shipped_8_puzzle() -> QPolicy {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/www/models/8puzzle.dqn");
    let bytes = std::fs::read(path).expect("the shipped 8-puzzle model");
    QPolicy::from_bytes(&bytes, &Device::flex()).expect("it reads")
}

/// 1,2,3,4,5,6,7,8,_ with its blank moved 12 times: 12 moves from the goal at most.
const START: &str = "4,1,3,7,2,6,5,8,_";

#[test]
fn a_model_opens_on_its_own_puzzle_and_refuses_one_it_does_not_fit() {
    let model = SlidingModel::open(shipped_8_puzzle(), None).unwrap();
    assert_eq!((model.puzzle().rows(), model.puzzle().cols()), (3, 3));
    let four = SlidingPuzzle::standard(4, 4).unwrap();
    assert!(SlidingModel::open(shipped_8_puzzle(), Some(four)).is_err());
}

#[test]
fn a_board_of_another_size_or_goal_is_refused_saying_what_the_model_plays() {
    let model = SlidingModel::open(shipped_8_puzzle(), None).unwrap();
    let goal: Vec<u8> = model.puzzle().goal().cells().to_vec();
    assert_eq!(model.check_fits(3, 3, &goal), Ok(()));
    let bigger = model.check_fits(4, 4, &(1..=15).chain([0]).collect::<Vec<u8>>());
    let said = bigger.unwrap_err();
    assert!(
        said.contains("3 × 3 puzzle") && said.contains("the board is 4 × 4"),
        "{said}"
    );
    let other_goal = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    let said = model.check_fits(3, 3, &other_goal).unwrap_err();
    assert!(said.contains("with the goal _,1,2,3,4,5,6,7,8"), "{said}");
}

#[test]
fn a_position_that_cannot_reach_the_goal_is_refused() {
    let model = SlidingModel::open(shipped_8_puzzle(), None).unwrap();
    let swapped = [2, 1, 3, 4, 5, 6, 7, 8, 0];
    let said = model.board(&swapped).unwrap_err();
    assert!(said.contains("cannot reach the goal"), "{said}");
    assert!(model.board(&[1, 2, 3]).is_err());
}

#[test]
fn its_solves_reach_the_goal_and_are_reported_against_the_exact_optimum() {
    let mut model = SlidingModel::open(shipped_8_puzzle(), None).unwrap();
    let start = model.puzzle().parse(START).unwrap();
    let solved = model.solve(start, &EvaluationSettings::default());
    let report = &solved.report;
    assert_eq!(report.report.status, SolveStatus::Solved);
    let optimal = report
        .optimal_length
        .expect("the 8-puzzle's optimum is known");
    assert_eq!(
        report.extra_moves,
        Some(report.report.length as i64 - optimal as i64)
    );
    assert!(report.extra_moves.unwrap() >= 0);
    assert!(solved.ms >= 0.0);

    assert_eq!(model.default_lambda(), DEFAULT_LAMBDA_Q);
    let bwas = BwasSettings {
        lambda: model.default_lambda(),
        batch: 100,
        max_nodes: 100_000,
        parity_offset: None,
    };
    let by_bwas = model.solve_bwas(start, &bwas.checked().unwrap());
    assert_eq!(by_bwas.report.method, "bwas");
    assert_eq!(by_bwas.report.report.status, SolveStatus::Solved);
    assert_eq!(by_bwas.report.optimal_length, Some(optimal));
}

#[test]
fn its_q_values_read_any_board_of_its_size() {
    let mut model = SlidingModel::open(shipped_8_puzzle(), None).unwrap();
    let values = model.q_values(&[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    assert_eq!(values.len(), 4);
    assert!(values.iter().all(|v| v.is_finite()));
    assert!(model.q_values(&[1, 2, 3, 0]).is_err());
}

#[test]
fn its_evaluation_by_optimal_distance_plays_a_few_positions_at_a_time() {
    let mut model = SlidingModel::open(shipped_8_puzzle(), None).unwrap();
    let settings = EvaluationSettings {
        per_distance: 1,
        ..EvaluationSettings::default()
    };
    let mut evaluation = model.start_evaluation(&settings).unwrap();
    // One position at every optimal distance from 1 to 31 (the 8-puzzle's diameter).
    assert_eq!(evaluation.total(), 31);
    assert!(!evaluation.step(10));
    assert_eq!(evaluation.done(), 10);
    while !evaluation.step(10) {}
    let table = evaluation.table();
    assert_eq!(table.rows.len(), 31);
    assert_eq!(table.overall.positions, 31);
}
