use super::sampled::{SampledConfig, SampledLocalQ};
use super::*;
use crate::env::sliding::solve::ExactDistances;
use crate::rng::Rng;

fn learner(rows: usize, cols: usize) -> (SlidingPuzzle, LocalValueIteration) {
    let puzzle = SlidingPuzzle::standard(rows, cols).unwrap();
    let lvi = LocalValueIteration::build(&puzzle, LocalViConfig::default()).unwrap();
    (puzzle, lvi)
}

fn board(puzzle: &SlidingPuzzle, text: &str) -> Board {
    puzzle.parse(text).unwrap()
}

fn replay(start: &Board, moves: &[Direction]) -> Board {
    let mut b = *start;
    b.apply(moves).unwrap();
    b
}

#[test]
fn one_tile_and_the_blank_on_4x4_is_240_states_and_all_solvable() {
    let (_, lvi) = learner(4, 4);
    let table = lvi
        .table(SubProblem {
            placed: 0,
            through: 1,
        })
        .unwrap();
    assert_eq!(table.states(), 16 * 15);
    assert_eq!(table.solvable_states(), 240);
    // Tile 2 with tile 1 fixed: 15 free cells.
    let table = lvi
        .table(SubProblem {
            placed: 1,
            through: 2,
        })
        .unwrap();
    assert_eq!(table.states(), 15 * 14);
}

#[test]
fn ranks_and_unranks_agree() {
    let (_, lvi) = learner(4, 4);
    for (_, table) in lvi.tables() {
        let mut slots = [0u8; MAX_CELLS];
        for rank in (0..table.states()).step_by(97) {
            table.unrank(rank, &mut slots);
            assert_eq!(table.rank(&slots), rank);
        }
    }
}

#[test]
fn distances_of_hand_checked_boards() {
    let (puzzle, lvi) = learner(4, 4);
    let tile1 = lvi
        .table(SubProblem {
            placed: 0,
            through: 1,
        })
        .unwrap();
    // Tile 1 one cell right of home, blank at home: one move.
    let b = board(&puzzle, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
    assert_eq!(tile1.distance(&b), Some(1));
    // Tile 1 right of home, blank below home: the blank moves up, then right (2 moves).
    let b = board(&puzzle, "5 1 2 3 0 4 6 7 8 9 10 11 12 13 14 15");
    assert_eq!(tile1.distance(&b), Some(2));
    // Tile 1 home: 0.
    assert_eq!(tile1.distance(puzzle.goal()), Some(0));
}

#[test]
fn the_corner_of_a_row_moves_the_highest_placed_tile_into_g() {
    let (puzzle, lvi) = learner(4, 4);
    // Tiles 1, 2, 3 placed; tile 4 below its corner, the corner taken by tile 5: with 1-3 fixed
    // the corner can never change, so sub-problem {4} cannot be solved.
    let b = board(&puzzle, "1 2 3 5 4 6 7 8 9 10 11 12 13 15 14 0");
    assert!(puzzle.is_solvable(&b));
    let base = lvi.base(3);
    assert_eq!(
        base,
        SubProblem {
            placed: 3,
            through: 4
        }
    );
    assert_eq!(lvi.table(base).unwrap().distance(&b), None);
    let (sub, table) = lvi.sub_problem_for(&b, 3).unwrap();
    assert_eq!(
        sub,
        SubProblem {
            placed: 2,
            through: 4
        }
    );
    assert_eq!(table.tiles(), &[3, 4]);
    // The same with the blank in the corner and tile 4 below it: one move, no enlarging.
    let b = board(&puzzle, "1 2 3 0 5 6 7 4 9 10 11 8 13 14 15 12");
    let (sub, _) = lvi.sub_problem_for(&b, 3).unwrap();
    assert_eq!(sub, base);
    let solution = lvi.solve(&b).unwrap();
    assert_eq!(
        solution.stages[3],
        Stage {
            tiles: vec![4],
            through: 4,
            moves: 1,
            enlarged: false
        }
    );
    // And the whole solve says the enlarged stage placed 3 and 4 together.
    let b = board(&puzzle, "1 2 3 5 4 6 7 8 9 10 11 12 13 15 14 0");
    let solution = lvi.solve(&b).unwrap();
    let stage = solution.stages.iter().find(|s| s.tiles == [3, 4]).unwrap();
    assert!(stage.enlarged);
    assert_eq!(stage.through, 4);
    assert_eq!(replay(&b, &solution.moves), *puzzle.goal());
}

#[test]
fn a_tile_caught_in_a_dead_end_enlarges_g() {
    let (puzzle, lvi) = learner(4, 4);
    // 1..9 placed; tile 10 in the bottom-left cell, which with 9 fixed is a dead end.
    let b = board(&puzzle, "1 2 3 4 5 6 7 8 9 11 12 13 10 15 14 0");
    assert!(puzzle.is_solvable(&b));
    let (sub, table) = lvi.sub_problem_for(&b, 9).unwrap();
    assert_eq!(
        sub,
        SubProblem {
            placed: 8,
            through: 10
        }
    );
    assert_eq!(table.tiles(), &[9, 10]);
    assert_eq!(replay(&b, &lvi.solve(&b).unwrap().moves), *puzzle.goal());
}

#[test]
fn the_remainder_is_one_sub_problem() {
    let (_, lvi3) = learner(3, 3);
    // 8-puzzle: 1, 2, 3 one by one, then 4..8 on the 2×3 at once.
    assert_eq!(
        lvi3.base(3),
        SubProblem {
            placed: 3,
            through: 8
        }
    );
    let (_, lvi4) = learner(4, 4);
    assert_eq!(
        lvi4.base(9),
        SubProblem {
            placed: 9,
            through: 10
        }
    );
    assert_eq!(
        lvi4.base(10),
        SubProblem {
            placed: 10,
            through: 15
        }
    );
}

#[test]
fn unsolvable_positions_are_refused() {
    let (puzzle, lvi) = learner(3, 3);
    let b = board(&puzzle, "2 1 3 4 5 6 7 8 0");
    assert_eq!(lvi.solve(&b), Err(LocalViError::Unsolvable));
    let goal = SlidingPuzzle::with_goal_text(3, 3, "0 1 2 3 4 5 6 7 8").unwrap();
    assert!(matches!(
        LocalValueIteration::build(&goal, LocalViConfig::default()),
        Err(LocalViError::UnsupportedGoal)
    ));
}

/// Every solvable 8-puzzle position (181,440).
#[test]
fn solves_every_8_puzzle_and_never_beats_the_optimum() {
    let (puzzle, lvi) = learner(3, 3);
    let exact = ExactDistances::build(puzzle.goal()).unwrap();
    let mut solved = 0;
    for rank in 0..362_880 {
        let b = exact.unrank(rank);
        let Some(optimum) = exact.distance(&b) else {
            continue;
        };
        let solution = lvi.solve(&b).unwrap();
        assert_eq!(replay(&b, &solution.moves), *puzzle.goal(), "{b:?}");
        assert!(solution.moves.len() as u32 >= optimum);
        solved += 1;
    }
    assert_eq!(solved, 181_440);
}

#[test]
fn solves_random_15_puzzles() {
    let (puzzle, lvi) = learner(4, 4);
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        let b = puzzle.random_solvable(&mut rng);
        let solution = lvi.solve(&b).unwrap();
        assert_eq!(replay(&b, &solution.moves), *puzzle.goal());
    }
}

#[test]
fn solves_other_rectangles() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 5), (5, 2), (3, 4)] {
        let (puzzle, lvi) = learner(rows, cols);
        let mut rng = Rng::new(rows as u64 * 10 + cols as u64);
        for _ in 0..50 {
            let b = puzzle.random_solvable(&mut rng);
            assert_eq!(replay(&b, &lvi.solve(&b).unwrap().moves), *puzzle.goal());
        }
    }
}

#[test]
fn sampled_learning_is_deterministic_under_a_seed() {
    let (puzzle, lvi) = learner(3, 3);
    let config = SampledConfig {
        episodes: 300,
        max_walk: 30,
        seed: 5,
        ..SampledConfig::default()
    };
    let run = || {
        let mut learner = SampledLocalQ::new(config);
        let stats = learner.train(&lvi, usize::MAX);
        let mut rng = Rng::new(1);
        let games: Vec<_> = (0..30)
            .map(|_| {
                let b = puzzle.random_walk(1, 12, &mut rng, |_| 0);
                learner.solve(&lvi, &b)
            })
            .collect();
        (stats, games)
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b);
    assert_eq!(a.0.episodes, 300);
    assert!(a.0.visited_states > 0);
    // What it wins it wins for real.
    for game in a.1.iter().filter(|g| g.won) {
        assert!(game.lost_in.is_none());
    }
}

#[test]
fn reports_carry_the_stages_the_tables_and_a_lower_bound() {
    let (puzzle, lvi) = learner(3, 3);
    let start = board(&puzzle, "8,6,7,2,5,4,3,_,1");
    let report = lvi.report(&start);
    assert_eq!(report.solve.status, "solved");
    assert_eq!(report.solve.algorithm, "local-vi");
    assert_eq!(replay(&start, &report.solve.moves), *puzzle.goal());
    assert_eq!(
        report.stages.iter().map(|s| s.moves).sum::<usize>(),
        report.solve.length
    );
    assert!(report.solve.lower_bound as usize <= report.solve.length);
    assert_eq!(report.tables, *lvi.stats());
    let unsolvable = board(&puzzle, "2,1,3,4,5,6,7,8,_");
    let report = lvi.report(&unsolvable);
    assert_eq!(report.solve.status, "unsolvable");
    assert!(report.solve.moves.is_empty() && report.stages.is_empty());
}
