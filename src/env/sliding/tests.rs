use super::solve::ExactDistances;
use super::*;
use crate::env::{check_env, Environment};
use crate::search::bfs::distance_map;

fn board(rows: usize, cols: usize, labels: &[u8]) -> Board {
    Board::new(rows, cols, labels).unwrap()
}

fn neighbours(b: &Board, out: &mut Vec<Board>) {
    out.extend(Direction::ALL.into_iter().filter_map(|d| b.moved(d)));
}

/// All arrangements of `labels` (with repeats) on a board.
fn all_arrangements(rows: usize, cols: usize, labels: &[u8]) -> Vec<Board> {
    fn go(rest: &mut Vec<u8>, current: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if rest.is_empty() {
            out.push(current.clone());
            return;
        }
        let mut tried = Vec::new();
        for i in 0..rest.len() {
            if tried.contains(&rest[i]) {
                continue;
            }
            tried.push(rest[i]);
            let l = rest.remove(i);
            current.push(l);
            go(rest, current, out);
            current.pop();
            rest.insert(i, l);
        }
    }
    let mut out = Vec::new();
    go(&mut labels.to_vec(), &mut Vec::new(), &mut out);
    out.into_iter().map(|l| board(rows, cols, &l)).collect()
}

#[test]
fn every_accepted_spelling_reads_the_same_board() {
    let p = SlidingPuzzle::standard(3, 3).unwrap();
    let expected = board(3, 3, &[1, 2, 3, 8, 0, 4, 7, 6, 5]);
    for text in [
        "123804765",
        "1 2 3 8 0 4 7 6 5",
        "1,2,3,8,_,4,7,6,5",
        "1,2,3\n8,_,4\n7,6,5",
        "123\n8_4\n765\n",
        " 1;2;3|8 . 4 7 6 5 ",
    ] {
        assert_eq!(p.parse(text).unwrap(), expected, "{text:?}");
    }
    let p4 = SlidingPuzzle::standard(4, 4).unwrap();
    let b = p4
        .parse("1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0")
        .unwrap();
    assert_eq!(b, *p4.goal());
    let sun = SlidingPuzzle::preset("sun-moon").unwrap();
    assert_eq!(
        sun.parse("☼☼☼ ☾☼☾ ☾_☾").unwrap(),
        sun.parse("s,s,s,m,s,m,m,0,m").unwrap()
    );
    assert_eq!(
        sun.parse("sss\nmsm\nm_m").unwrap(),
        sun.preset_start().unwrap()
    );
}

#[test]
fn malformed_input_gives_typed_errors_people_can_read() {
    let p = SlidingPuzzle::standard(3, 3).unwrap();
    type Check = fn(&PuzzleError) -> bool;
    let cases: Vec<(&str, Check)> = vec![
        ("", |e| matches!(e, PuzzleError::Empty { .. })),
        ("1,2,3,4,5,6,7,8", |e| {
            matches!(
                e,
                PuzzleError::WrongCount {
                    expected: 9,
                    found: 8,
                    ..
                }
            )
        }),
        ("1,2,3,4,5,6,7,8,0,0", |e| {
            matches!(e, PuzzleError::WrongCount { found: 10, .. })
        }),
        ("1,2,3,4,5,6,7,9,0", |e| {
            matches!(e, PuzzleError::UnknownSymbol { position: 8, .. })
        }),
        ("1,2,3,4,x,6,7,8,0", |e| {
            matches!(e, PuzzleError::UnknownSymbol { .. })
        }),
        ("1,2,3,4,5,6,7,8,8", |e| {
            matches!(e, PuzzleError::DuplicateTile { .. })
        }),
        ("1,2,3,4,5,6,7,8,1", |e| {
            matches!(e, PuzzleError::DuplicateTile { .. })
        }),
        ("1,2\n3,4\n5,6,7,8,0", |e| {
            matches!(e, PuzzleError::GridShape { .. })
        }),
    ];
    for (text, check) in cases {
        let e = p.parse(text).unwrap_err();
        assert!(check(&e), "{text:?} gave {e:?}");
        assert!(!e.to_string().is_empty());
    }
    let sun = SlidingPuzzle::preset("sun-moon").unwrap();
    assert!(matches!(
        sun.parse("☼☼☼ ☾☼☾ ☾☾☾"),
        Err(PuzzleError::NoBlank { .. })
    ));
    assert!(matches!(
        sun.parse("☼☼☼ ☾_☾ ☾_☾"),
        Err(PuzzleError::ManyBlanks { count: 2, .. })
    ));
    // Right count, wrong mix of suns and moons: the labels don't match the goal's.
    let e = sun.parse("☼☼☼ ☼☼☾ ☾_☾").unwrap_err();
    assert!(matches!(e, PuzzleError::LabelsMismatch { .. }), "{e:?}");
    assert!(e.to_string().contains("5 sun"), "{e}");
    assert!(matches!(
        sun.parse("☼☼☼ ☾★☾ ☾_☾"),
        Err(PuzzleError::UnknownSymbol { .. })
    ));
    assert!(matches!(
        SlidingPuzzle::preset("nope"),
        Err(PuzzleError::UnknownPreset(..))
    ));
    assert!(matches!(
        SlidingPuzzle::standard(1, 3),
        Err(PuzzleError::BadSize { .. })
    ));
    assert!(matches!(
        SlidingPuzzle::standard(6, 6),
        Err(PuzzleError::BadSize { .. })
    ));
    assert!(matches!(
        parse_size("4y4"),
        Err(PuzzleError::BadSizeText(_))
    ));
    assert_eq!(parse_size("2x3").unwrap(), (2, 3));
    assert_eq!(parse_size("4").unwrap(), (4, 4));
    assert_eq!(parse_size("3×5").unwrap(), (3, 5));
}

#[test]
fn format_round_trips_through_parse() {
    for (rows, cols) in [(2, 2), (3, 3), (4, 4), (5, 5), (2, 5), (3, 4)] {
        let p = SlidingPuzzle::standard(rows, cols).unwrap();
        let mut rng = crate::rng::Rng::new(5);
        let b = p.random_walk(30, 1000, &mut rng, |_| 0);
        assert_eq!(p.parse(&p.format(&b)).unwrap(), b);
        assert_eq!(p.parse(&p.format_grid(&b)).unwrap(), b);
    }
    let sun = SlidingPuzzle::preset("sun-moon").unwrap();
    let start = sun.preset_start().unwrap();
    assert_eq!(sun.parse(&sun.format(&start)).unwrap(), start);
}

#[test]
fn solvability_matches_reachability_on_every_small_board() {
    // Exhaustive on 2×2, 2×3 and 3×2 with distinct tiles, for every goal position of the blank.
    for (rows, cols) in [(2, 2), (2, 3), (3, 2)] {
        let n = rows * cols;
        let labels: Vec<u8> = (0..n as u8).collect();
        let all = all_arrangements(rows, cols, &labels);
        for goal in all.iter().step_by(7) {
            let reachable = distance_map(*goal, neighbours);
            assert_eq!(reachable.len(), all.len() / 2);
            for b in &all {
                assert_eq!(
                    is_solvable(b, goal),
                    reachable.contains_key(b),
                    "{b:?} -> {goal:?}"
                );
            }
        }
    }
}

#[test]
fn solvability_matches_the_exact_table_on_3x3_and_4x4_samples() {
    let mut rng = crate::rng::Rng::new(11);
    let labels: Vec<u8> = (0..9).collect();
    for _ in 0..5 {
        let mut goal_labels = labels.clone();
        rng.shuffle(&mut goal_labels);
        let goal = board(3, 3, &goal_labels);
        let exact = ExactDistances::build(&goal).unwrap();
        assert_eq!(exact.reachable(), 181_440);
        for _ in 0..300 {
            let mut l = labels.clone();
            rng.shuffle(&mut l);
            let b = board(3, 3, &l);
            assert_eq!(is_solvable(&b, &goal), exact.distance(&b).is_some());
        }
    }
    // Even width: swapping two tiles of a solvable 4×4 makes it unsolvable; moving the blank doesn't.
    let p = SlidingPuzzle::standard(4, 4).unwrap();
    let mut b = p.random_walk(40, 200, &mut rng, |_| 0);
    assert!(p.is_solvable(&b));
    let mut cells = b.cells().to_vec();
    let (i, j) = if b.blank() > 1 { (0, 1) } else { (2, 3) };
    cells.swap(i, j);
    assert!(!p.is_solvable(&board(4, 4, &cells)));
    assert!(b.move_blank(Direction::Up) || b.move_blank(Direction::Down));
    assert!(p.is_solvable(&b));
}

#[test]
fn repeated_labels_are_all_reachable_and_decided_correctly() {
    // Sun/moon: every arrangement of 4 suns, 4 moons and a blank is reachable (9!/(4!4!) = 630).
    let sun = SlidingPuzzle::preset("sun-moon").unwrap();
    let all = all_arrangements(3, 3, &[0, 1, 1, 1, 1, 2, 2, 2, 2]);
    assert_eq!(all.len(), 630);
    let reachable = distance_map(*sun.goal(), neighbours);
    assert_eq!(reachable.len(), 630);
    assert!(all.iter().all(|b| sun.is_solvable(b)));
    // 2×3 with one repeated pair: every arrangement is reachable; with mismatched labels none.
    let all = all_arrangements(2, 3, &[0, 1, 1, 2, 3, 4]);
    let goal = board(2, 3, &[1, 2, 3, 4, 1, 0]);
    let reachable = distance_map(goal, neighbours);
    assert_eq!(reachable.len(), all.len());
    for b in &all {
        assert!(is_solvable(b, &goal));
    }
    assert!(!is_solvable(&board(2, 3, &[1, 1, 1, 4, 2, 0]), &goal));
    // 2×2 with a repeated label: the 3 tiles turn as one cycle, so all 12 arrangements are reachable.
    let goal = board(2, 2, &[1, 1, 2, 0]);
    assert_eq!(
        distance_map(goal, neighbours).len(),
        all_arrangements(2, 2, &[0, 1, 1, 2]).len()
    );
}

#[test]
fn heuristics_are_admissible_and_consistent_against_exact_distances() {
    let goals = [
        Board::standard_goal(3, 3).unwrap(),
        board(3, 3, &[1, 2, 3, 8, 0, 4, 7, 6, 5]),
        board(3, 3, &[0, 1, 2, 3, 4, 5, 6, 7, 8]),
        *SlidingPuzzle::preset("sun-moon").unwrap().goal(),
        board(2, 4, &[1, 1, 2, 2, 3, 3, 0, 4]),
    ];
    for goal in goals {
        let exact = ExactDistances::build(&goal).unwrap();
        let tables = HeuristicTables::new(&goal);
        let mut checked = 0;
        let mut gap_lc = 0u64;
        let mut gap_md = 0u64;
        for b in distance_map(goal, neighbours).keys() {
            let d = exact.distance(b).unwrap();
            let h: Vec<u32> = Heuristic::ALL
                .iter()
                .map(|&h| tables.estimate(b, h))
                .collect();
            assert!(h[0] <= d && h[1] <= d && h[2] <= d, "{b:?}: {h:?} > {d}");
            assert!(h[1] <= h[2], "linear conflicts only add");
            assert_eq!(h.iter().all(|&x| x == 0), d == 0);
            for n in Direction::ALL.into_iter().filter_map(|dir| b.moved(dir)) {
                for &heuristic in &Heuristic::ALL {
                    let (a, c) = (
                        tables.estimate(b, heuristic),
                        tables.estimate(&n, heuristic),
                    );
                    assert!(
                        a <= c + 1,
                        "{heuristic:?} inconsistent: {b:?} {a} -> {n:?} {c}"
                    );
                }
            }
            gap_md += (d - h[1]) as u64;
            gap_lc += (d - h[2]) as u64;
            checked += 1;
        }
        assert!(checked >= 630);
        assert!(gap_lc <= gap_md);
    }
}

#[test]
fn manhattan_matches_labels_optimally_when_they_repeat() {
    let goal = board(2, 3, &[1, 1, 0, 2, 2, 3]);
    let tables = HeuristicTables::new(&goal);
    // The two 1s sit on the two 2s' goal cells and vice versa: each tile is 1 away.
    assert_eq!(tables.manhattan(&board(2, 3, &[2, 2, 0, 1, 1, 3])), 4);
    assert_eq!(tables.misplaced(&board(2, 3, &[2, 2, 0, 1, 1, 3])), 4);
    // Swapping the two 1s changes nothing.
    assert_eq!(tables.manhattan(&goal), 0);
    assert_eq!(
        heuristic::min_cost_assignment(&[vec![4, 1, 3], vec![2, 0, 5], vec![3, 2, 2]]),
        5
    );
}

#[test]
fn linear_conflicts_count_reversed_pairs() {
    let goal = Board::standard_goal(3, 3).unwrap();
    let tables = HeuristicTables::new(&goal);
    // 2 and 1 reversed in their goal row: +2.
    let b = board(3, 3, &[2, 1, 3, 4, 5, 6, 7, 8, 0]);
    assert_eq!(tables.manhattan(&b), 2);
    assert_eq!(tables.linear_conflicts(&b), 2);
    // 3 2 1 in row 0: two must leave: +4.
    let b = board(3, 3, &[3, 2, 1, 4, 5, 6, 7, 8, 0]);
    assert_eq!(tables.linear_conflicts(&b), 4);
}

#[test]
fn clicking_slides_the_tiles_between_tile_and_blank() {
    let mut b = Board::standard_goal(3, 3).unwrap(); // blank at 8
    assert_eq!(b.moves_to_slide(6), vec![Direction::Left, Direction::Left]);
    assert_eq!(b.moves_to_slide(2), vec![Direction::Up, Direction::Up]);
    assert!(b.moves_to_slide(4).is_empty());
    assert!(b.moves_to_slide(8).is_empty());
    b.apply(&b.moves_to_slide(6)).unwrap();
    assert_eq!(b.cells(), &[1, 2, 3, 4, 5, 6, 0, 7, 8]);
    assert_eq!(b.tile_moved_by(Direction::Right), Some(7));
    assert!(!b.move_blank(Direction::Left));
    assert_eq!(b.apply(&[Direction::Up, Direction::Left]), Err(1));
}

#[test]
fn reward_schemes_pay_what_they_say() {
    let p = SlidingPuzzle::standard(3, 3).unwrap();
    let one_away = board(3, 3, &[1, 2, 3, 4, 5, 6, 7, 0, 8]);
    let mut env = SlidingEnv::new(
        p.clone(),
        StartRule::Fixed(one_away),
        RewardScheme::StepCostGoalBonus,
    );
    env.reset(0);
    assert_eq!(env.step(Direction::Down.index()).reward, -1000.0); // wall
    assert_eq!(env.step(Direction::Left.index()).reward, -10.0);
    assert_eq!(env.step(Direction::Right.index()).reward, -10.0);
    let last = env.step(Direction::Right.index());
    assert_eq!(
        (last.reward, last.terminated, last.truncated),
        (100.0, true, false)
    );

    let far = board(3, 3, &[2, 1, 3, 4, 5, 6, 7, 0, 8]);
    let mut env = SlidingEnv::new(p, StartRule::Fixed(far), RewardScheme::HeuristicPenalty);
    env.reset(0);
    // Into the wall: state stays (Manhattan 3 + 2·1 conflict = 5) and −1 more.
    assert_eq!(env.step(Direction::Down.index()).reward, -6.0);
    assert_eq!(env.step(Direction::Right.index()).reward, -4.0);

    // The step penalty: −1 a move, −2 into a wall, and the goal ends the episode.
    let p = SlidingPuzzle::standard(3, 3).unwrap();
    let mut env = SlidingEnv::new(p, StartRule::Fixed(one_away), RewardScheme::Steps);
    env.reset(0);
    assert_eq!(env.step(Direction::Down.index()).reward, -2.0);
    assert_eq!(env.step(Direction::Left.index()).reward, -1.0);
    assert_eq!(env.step(Direction::Right.index()).reward, -1.0);
    let last = env.step(Direction::Right.index());
    assert_eq!((last.reward, last.terminated), (-1.0, true));
    assert_eq!(
        RewardScheme::parse("sparse"),
        Err("\"sparse\" is not one of heuristic-penalty, steps, step-cost-goal-bonus".to_string())
    );
}

#[test]
fn reward_names_read_back_and_the_names_before_the_rename_still_read() {
    for reward in [
        RewardScheme::HeuristicPenalty,
        RewardScheme::Steps,
        RewardScheme::StepCostGoalBonus,
    ] {
        assert_eq!(RewardScheme::from_name(reward.name()), Some(reward));
    }
    assert_eq!(RewardScheme::HeuristicPenalty.name(), "heuristic-penalty");
    assert_eq!(
        RewardScheme::StepCostGoalBonus.name(),
        "step-cost-goal-bonus"
    );
    assert_eq!(RewardScheme::Steps.name(), "steps");
    // Manifests and pages written before the rename (and the CLI's aliases).
    for (old, reward) in [
        ("thesis", RewardScheme::HeuristicPenalty),
        ("seed000", RewardScheme::HeuristicPenalty),
        ("seed003", RewardScheme::StepCostGoalBonus),
        ("sun-moon", RewardScheme::StepCostGoalBonus),
        ("seed001", RewardScheme::Steps),
    ] {
        assert_eq!(RewardScheme::parse(old), Ok(reward), "{old}");
    }
}

#[test]
fn mixed_walks_draw_every_difficulty_up_to_the_largest() {
    let p = SlidingPuzzle::standard(3, 3).unwrap();
    let tables = HeuristicTables::new(p.goal());
    let start = StartRule::MixedWalk {
        max_difficulty: 12,
        max_moves: 500,
    };
    let mut env = SlidingEnv::new(p.clone(), start, RewardScheme::Steps);
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..400 {
        env.reset(seed);
        let estimate = tables.estimate(env.board(), Heuristic::LinearConflict);
        // A walk stops at the first position at or above its drawn difficulty: one move
        // changes the estimate by at most 3 (Manhattan ±1, a conflict ±2).
        assert!((1..=14).contains(&estimate), "estimate {estimate}");
        assert!(p.is_solvable(env.board()));
        seen.insert(estimate);
        let mut again = SlidingEnv::new(p.clone(), start, RewardScheme::Steps);
        again.reset(seed);
        assert_eq!(again.board(), env.board(), "seeded");
    }
    assert!(
        (1..=12).all(|d| seen.contains(&d)),
        "every difficulty from 1 to 12 drawn: {seen:?}"
    );
}

#[test]
fn mixed_walks_or_uniform_draw_half_their_starts_uniformly() {
    let p = SlidingPuzzle::standard(3, 3).unwrap();
    let exact = ExactDistances::build(p.goal()).unwrap();
    let start = StartRule::MixedWalkOrUniform {
        max_difficulty: 2,
        max_moves: 500,
    };
    let mut env = SlidingEnv::new(p.clone(), start, RewardScheme::Steps);
    let (mut near, mut far) = (0, 0);
    for seed in 0..400 {
        env.reset(seed);
        assert!(p.is_solvable(env.board()));
        // A walk that never undoes a move takes a tile out of place with each of its first two
        // moves, so walks to an estimate of 1 or 2 stop within 2 moves of the goal; uniform
        // positions lie 22 moves away on average (fewer than 0.1% within 8).
        match exact.distance(env.board()).unwrap() {
            0..=4 => near += 1,
            8.. => far += 1,
            d => panic!("distance {d}: neither a short walk nor (very likely) a uniform draw"),
        }
    }
    assert!(
        (150..=250).contains(&far),
        "{far} uniform of 400 ({near} walks)"
    );
}

#[test]
fn after_leaves_the_environment_as_it_was() {
    let p = SlidingPuzzle::standard(3, 3).unwrap();
    let board = p.parse("1 2 3 4 5 6 7 0 8").unwrap();
    let env = SlidingEnv::new(p.clone(), StartRule::Fixed(board), RewardScheme::Steps);
    for action in 0..4 {
        let (next, step) = env.after(action).expect("sliding environments copy");
        let mut stepped = env.clone();
        assert_eq!(stepped.step(action), step);
        assert_eq!(next.board(), stepped.board());
        assert_eq!(env.board(), &board);
    }
    let (next, step) = env.after(Direction::Right.index()).unwrap();
    assert!(step.terminated && p.is_solved(next.board()));
}

#[test]
fn the_environment_contract_holds_for_every_sliding_setup() {
    let sun = SlidingPuzzle::preset("sun-moon").unwrap();
    let sun_start = sun.preset_start().unwrap();
    check_env(
        || {
            SlidingEnv::new(
                sun.clone(),
                StartRule::Fixed(sun_start),
                RewardScheme::StepCostGoalBonus,
            )
        },
        20,
        200,
    )
    .unwrap();
    for (rows, cols) in [(2, 2), (3, 3), (4, 4), (5, 5), (2, 5), (4, 3)] {
        let p = SlidingPuzzle::standard(rows, cols).unwrap();
        check_env(
            || {
                SlidingEnv::new(
                    p.clone(),
                    StartRule::RandomWalk {
                        difficulty: 8,
                        max_moves: 500,
                    },
                    RewardScheme::HeuristicPenalty,
                )
            },
            20,
            100,
        )
        .unwrap();
    }
    // The observation is one-hot: one 1 per cell.
    let p = SlidingPuzzle::standard(3, 3).unwrap();
    let mut env = SlidingEnv::new(
        p,
        StartRule::RandomWalk {
            difficulty: 10,
            max_moves: 500,
        },
        RewardScheme::HeuristicPenalty,
    );
    env.reset(3);
    let mut obs = vec![0.0; env.observation_len()];
    env.write_observation(&mut obs);
    assert_eq!(obs.len(), 81);
    assert_eq!(obs.iter().sum::<f32>(), 9.0);
}

#[test]
fn random_walk_scrambles_reach_their_difficulty_and_are_seeded() {
    let p = SlidingPuzzle::standard(4, 4).unwrap();
    let tables = HeuristicTables::new(p.goal());
    let estimate = |b: &Board| tables.estimate(b, Heuristic::LinearConflict);
    for seed in 0..20 {
        let a = p.random_walk(30, 10_000, &mut crate::rng::Rng::new(seed), estimate);
        let b = p.random_walk(30, 10_000, &mut crate::rng::Rng::new(seed), estimate);
        assert_eq!(a, b);
        assert!(estimate(&a) >= 30);
        assert!(p.is_solvable(&a));
    }
}

#[test]
fn exact_scrambles_sit_at_exactly_their_distance() {
    let goal = Board::standard_goal(3, 3).unwrap();
    let exact = ExactDistances::build(&goal).unwrap();
    assert_eq!(exact.max_distance(), 31);
    let mut rng = crate::rng::Rng::new(2);
    for d in [0, 1, 5, 20, 31, 40] {
        let b = exact.random_at(d, &mut rng);
        assert_eq!(exact.distance(&b), Some(d.min(31)));
    }
    // Ranks are a bijection on the reachable space.
    for b in distance_map(goal, neighbours).keys().take(2000) {
        assert_eq!(exact.unrank(exact.rank(b)), *b);
    }
}

#[test]
fn random_solvable_positions_are_solvable_seeded_and_spread() {
    let p = SlidingPuzzle::standard(4, 4).unwrap();
    let mut rng = crate::rng::Rng::new(1);
    let boards: Vec<Board> = (0..500).map(|_| p.random_solvable(&mut rng)).collect();
    assert!(boards.iter().all(|b| p.is_solvable(b)));
    let distinct: std::collections::HashSet<_> = boards.iter().collect();
    assert_eq!(distinct.len(), 500);
    // The blank is anywhere: every cell holds it sometimes (16 cells, 500 draws).
    let mut blank_cells = [0; 16];
    boards.iter().for_each(|b| blank_cells[b.blank()] += 1);
    assert!(blank_cells.iter().all(|&c| c > 10), "{blank_cells:?}");
    let again: Vec<Board> = {
        let mut rng = crate::rng::Rng::new(1);
        (0..500).map(|_| p.random_solvable(&mut rng)).collect()
    };
    assert_eq!(boards, again);
}
