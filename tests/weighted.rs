//! Weighted A*: within w × the optimum against exact tables (3×3) and IDA* (4×4), identical to A*
//! at weight 1, honest about its guarantee in the report, and fast enough on 5×5 boards.

mod common;

use common::sliding::solve;
use puzzlelab::env::sliding::solve::{
    ExactDistances, SlidingSearch, SlidingSolver, SolveError, SolveReport, DEFAULT_WEIGHT,
};
use puzzlelab::env::sliding::{Board, Direction, Heuristic, HeuristicTables, SlidingPuzzle};
use puzzlelab::rng::Rng;
use puzzlelab::search::astar::weight_in_thousandths;
use puzzlelab::search::{run_to_end, AStar, Algorithm, Limits, Search};

const WEIGHTS: [f64; 4] = [1.0, 1.5, 2.0, 3.0];

fn weighted(
    puzzle: &SlidingPuzzle,
    start: Board,
    heuristic: Heuristic,
    weight: f64,
    max_nodes: u64,
) -> SolveReport {
    let limits = Limits { max_nodes };
    let mut solver = SlidingSolver::weighted(puzzle, start, heuristic, weight, limits).unwrap();
    solver.run_to_end(u64::MAX, |_| true)
}

fn replays_to_goal(puzzle: &SlidingPuzzle, start: Board, report: &SolveReport) -> bool {
    let mut b = start;
    b.apply(&report.moves).is_ok() && puzzle.is_solved(&b)
}

/// What every weighted report must say, given the true optimum.
fn check_within_bound(
    puzzle: &SlidingPuzzle,
    start: Board,
    heuristic: Heuristic,
    weight: f64,
    optimum: u32,
    report: &SolveReport,
) {
    let tables = HeuristicTables::new(puzzle.goal());
    let at = format!(
        "w = {weight}, {heuristic:?}, from {}",
        puzzle.format(&start)
    );
    assert_eq!(report.status, "solved", "{at}");
    assert!(replays_to_goal(puzzle, start, report), "{at}");
    assert_eq!(report.tiles.len(), report.length, "{at}");
    assert_eq!(report.algorithm, "wastar");
    assert_eq!(report.weight, Some(weight));
    assert_eq!(report.lower_bound, tables.estimate(&start, heuristic));
    assert!(report.lower_bound <= optimum, "{at}");
    let length = report.length as u32;
    assert!(length >= optimum, "{at}");
    assert!(
        f64::from(length) <= weight * f64::from(optimum),
        "{length} moves > {weight} × {optimum}: {at}"
    );
    if weight == 1.0 {
        assert_eq!(length, optimum, "weight 1 is A*: {at}");
    }
    assert_eq!(
        report.optimal,
        weight == 1.0 || length == report.lower_bound,
        "optimal only when proven: {at}"
    );
}

#[test]
fn weighted_astar_stays_within_w_times_the_optimum_on_8_puzzles() {
    let mut rng = Rng::new(1970);
    for goal_text in ["1,2,3,4,5,6,7,8,_", "1,2,3,8,_,4,7,6,5"] {
        let puzzle = SlidingPuzzle::with_goal_text(3, 3, goal_text).unwrap();
        let exact = ExactDistances::build(puzzle.goal()).unwrap();
        for i in 0..60 {
            let start = exact.random_at(rng.below(32) as u32, &mut rng);
            let optimum = exact.distance(&start).unwrap();
            let heuristic = Heuristic::ALL[i % 3];
            for weight in WEIGHTS {
                let report = weighted(&puzzle, start, heuristic, weight, 1_000_000);
                check_within_bound(&puzzle, start, heuristic, weight, optimum, &report);
            }
        }
    }
}

#[test]
fn weighted_astar_stays_within_w_times_the_optimum_on_15_puzzles() {
    let puzzle = SlidingPuzzle::standard(4, 4).unwrap();
    let tables = HeuristicTables::new(puzzle.goal());
    let mut rng = Rng::new(1968);
    let linear = Heuristic::LinearConflict;
    for difficulty in [16, 20, 24, 28, 30, 32] {
        let start =
            puzzle.random_walk(difficulty, 10_000, &mut rng, |b| tables.estimate(b, linear));
        let optimum = solve(&puzzle, start, Algorithm::IdaStar, linear).length as u32;
        for heuristic in [Heuristic::Manhattan, Heuristic::LinearConflict] {
            for weight in WEIGHTS {
                let report = weighted(&puzzle, start, heuristic, weight, 3_000_000);
                check_within_bound(&puzzle, start, heuristic, weight, optimum, &report);
            }
        }
    }
}

#[test]
fn weight_one_is_plain_astar_node_for_node() {
    let puzzle = SlidingPuzzle::standard(4, 4).unwrap();
    let tables = HeuristicTables::new(puzzle.goal());
    let mut rng = Rng::new(3);
    for _ in 0..4 {
        let start = puzzle.random_walk(26, 10_000, &mut rng, |b| {
            tables.estimate(b, Heuristic::LinearConflict)
        });
        let problem = SlidingSearch::new(start, puzzle.goal(), Heuristic::Manhattan);
        let mut plain = AStar::new(problem.clone(), Limits::default());
        let mut one = AStar::weighted(problem, Limits::default(), 1.0);
        assert_eq!(one.weight(), 1.0);
        assert_eq!(
            run_to_end(&mut plain, 1_000, |_| true),
            run_to_end(&mut one, 1_000, |_| true)
        );
        assert_eq!(plain.nodes_expanded(), one.nodes_expanded());
    }
}

#[test]
fn weighted_astar_solves_24_puzzles_within_two_million_nodes() {
    let puzzle = SlidingPuzzle::standard(5, 5).unwrap();
    let tables = HeuristicTables::new(puzzle.goal());
    let mut rng = Rng::new(24);
    for difficulty in [60, 70, 80] {
        let start = puzzle.random_walk(difficulty, 100_000, &mut rng, |b| {
            tables.estimate(b, Heuristic::LinearConflict)
        });
        let report = weighted(&puzzle, start, Heuristic::LinearConflict, 2.0, 2_000_000);
        let at = format!("difficulty {difficulty}: {}", puzzle.format(&start));
        assert_eq!(report.status, "solved", "{at}");
        assert!(replays_to_goal(&puzzle, start, &report), "{at}");
        assert_eq!(
            report.lower_bound,
            tables.estimate(&start, Heuristic::LinearConflict)
        );
        assert!(report.lower_bound >= difficulty);
        assert!(report.length as u32 >= report.lower_bound);
        assert_eq!(report.weight, Some(2.0));
        assert_eq!(report.optimal, report.length as u32 == report.lower_bound);
    }
}

/// Weighted A* skips reopening, and keeps its w × optimum bound only because these estimates are
/// consistent: one move changes each of them by at most one.
#[test]
fn the_sliding_heuristics_are_consistent() {
    let mut rng = Rng::new(2003);
    let mut puzzles: Vec<SlidingPuzzle> = [(3, 3), (4, 4), (5, 5), (2, 5), (4, 3)]
        .into_iter()
        .map(|(rows, cols)| SlidingPuzzle::standard(rows, cols).unwrap())
        .collect();
    puzzles.push(SlidingPuzzle::preset("sun-moon").unwrap());
    for puzzle in &puzzles {
        let tables = HeuristicTables::new(puzzle.goal());
        for _ in 0..200 {
            let steps = rng.below(200) as u32;
            let board = puzzle.random_walk(u32::MAX, steps as usize, &mut rng, |_| 0);
            for heuristic in Heuristic::ALL {
                let h = tables.estimate(&board, heuristic);
                for d in Direction::ALL {
                    if let Some(next) = board.moved(d) {
                        let h_next = tables.estimate(&next, heuristic);
                        assert!(
                            h.abs_diff(h_next) <= 1,
                            "{heuristic:?}: {h} → {h_next} from {}",
                            puzzle.format(&board)
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn weights_are_checked_and_named() {
    let puzzle = SlidingPuzzle::standard(3, 3).unwrap();
    let start = puzzle.parse("1,2,3,4,5,6,_,7,8").unwrap();
    for bad in [0.5, 0.0, -2.0, f64::NAN, f64::INFINITY, 101.0] {
        let error =
            SlidingSolver::weighted(&puzzle, start, Heuristic::Manhattan, bad, Limits::default())
                .err()
                .unwrap();
        assert!(matches!(error, SolveError::InvalidWeight(_)));
        assert!(error.to_string().contains("from 1 to 100"), "{error}");
    }
    assert_eq!(weight_in_thousandths(1.25), Some(1250));
    assert_eq!(weight_in_thousandths(100.0), Some(100_000));
    // The report gives the weight as rounded to thousandths: the one the bound is about.
    let report = weighted(&puzzle, start, Heuristic::Manhattan, 1.23456, 1000);
    assert_eq!(report.weight, Some(1.235));
    // Asked for by name alone, weighted A* runs with the default weight.
    let report = solve(
        &puzzle,
        start,
        Algorithm::WeightedAStar,
        Heuristic::Manhattan,
    );
    assert_eq!(report.weight, Some(DEFAULT_WEIGHT));
    assert_eq!((report.length, report.lower_bound), (2, 2));
    assert!(report.optimal, "proven by meeting the lower bound");
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(
        (json["lower_bound"].clone(), json["weight"].clone()),
        (2.into(), 2.0.into())
    );
    assert_eq!(json["algorithm"], "wastar");
    // The optimal algorithms report no weight.
    for algorithm in [Algorithm::Bfs, Algorithm::AStar, Algorithm::IdaStar] {
        let report = solve(&puzzle, start, algorithm, Heuristic::Manhattan);
        assert_eq!((report.weight, report.lower_bound), (None, 2));
        assert!(report.optimal);
        assert!(serde_json::to_value(&report).unwrap()["weight"].is_null());
    }
    for name in ["wastar", "weighted-astar", "WA*", " wa* "] {
        assert_eq!(Algorithm::from_name(name), Some(Algorithm::WeightedAStar));
    }
    assert_eq!(Algorithm::WeightedAStar.name(), "wastar");
    assert_eq!(
        serde_json::to_value(Algorithm::WeightedAStar).unwrap(),
        "wastar"
    );
}
