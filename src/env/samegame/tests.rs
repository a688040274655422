//! The rules against hand-checked boards, the environment contract, the exact solver against
//! brute force, and the Monte Carlo searches' games replayed.

use super::*;
use crate::env::{check_env, Environment};

fn dust(text: &str) -> Board {
    Board::parse_any(Rules::dust(), text).unwrap()
}

fn samegame(text: &str) -> Board {
    Board::parse_any(Rules::samegame(), text).unwrap()
}

#[test]
fn a_click_removes_the_group_and_piles_fall() {
    let mut b = samegame(
        "1..\n\
         21.\n\
         221\n",
    );
    let r = b.click(0, 1).unwrap();
    assert_eq!(r.cells.len(), 3);
    assert_eq!(r.points, 1);
    assert_eq!(b.to_text(), "...\n...\n111\n");
    // The last group: (3 - 2)² + the bonus.
    let r = b.click(2, 2).unwrap();
    assert_eq!(r.points, 1 + CLEAR_BONUS);
    assert!(b.is_empty() && b.is_over());
}

#[test]
fn samegame_closes_empty_columns_to_the_left() {
    let mut b = samegame(
        "....\n\
         2.3.\n\
         2133\n",
    );
    b.click(1, 2).unwrap_err(); // a single pile is not a group in SameGame
    b.click(0, 1).unwrap();
    assert_eq!(b.to_text(), "....\n.3..\n133.\n");
}

#[test]
fn dust_closes_each_half_toward_the_centre() {
    // 8 wide: columns 0-3 close to the right, 4-7 to the left.
    let mut b = dust(
        "........\n\
         ........\n\
         ........\n\
         ........\n\
         .1....2.\n\
         12345123\n",
    );
    b.click(1, 5).unwrap(); // the 2 in column 1: the 1 above it falls
    assert_eq!(
        b.to_text(),
        "........\n........\n........\n........\n......2.\n11345123\n"
    );
    b.click(0, 5).unwrap(); // the two 1s: columns 0 and 1 empty, 2 and 3 stay at the cut
    assert_eq!(
        b.to_text(),
        "........\n........\n........\n........\n......2.\n..345123\n"
    );
    b.click(4, 5).unwrap(); // right half: column 4 empties, 5-7 close in to the left
    assert_eq!(
        b.to_text(),
        "........\n........\n........\n........\n.....2..\n..34123.\n"
    );
    // A single pile is a legal click in dust.
    b.click(2, 5).unwrap();
    assert_eq!(
        b.to_text(),
        "........\n........\n........\n........\n.....2..\n...4123.\n"
    );
}

#[test]
fn samegame_ends_when_no_group_is_left_and_dust_when_empty() {
    let b = samegame("12\n21\n");
    assert!(b.is_over() && !b.is_empty());
    let d = dust("12\n21\n");
    assert!(!d.is_over());
}

#[test]
fn group_scores() {
    assert_eq!(group_score(2), 0);
    assert_eq!(group_score(3), 1);
    assert_eq!(group_score(10), 64);
}

#[test]
fn board_text_errors() {
    let r = Rules::dust();
    assert_eq!(Board::parse(r, "\n \n"), Err(BoardError::Empty));
    assert!(matches!(
        Board::parse_any(r, "12\n123\n"),
        Err(BoardError::RowLength {
            row: 2,
            expected: 2,
            found: 3
        })
    ));
    assert!(matches!(
        Board::parse_any(r, "1x\n12\n"),
        Err(BoardError::Character {
            character: 'x',
            row: 1,
            col: 2
        })
    ));
    assert!(matches!(
        Board::parse_any(r, "1.\n.2\n"),
        Err(BoardError::Floating { row: 1, col: 1 })
    ));
    assert!(matches!(
        Board::parse(r, "12\n21\n"),
        Err(BoardError::WrongSize { .. })
    ));
    // Left closing: an empty column left of a full one.
    assert!(matches!(
        Board::parse_any(Rules::samegame(), ".1\n.1\n"),
        Err(BoardError::OpenColumn { col: 1, .. })
    ));
    // Centre closing: on 4 columns, column 2 (the right half's first) may not be empty.
    assert!(matches!(
        Board::parse_any(r, "1..1\n"),
        Err(BoardError::OpenColumn { .. })
    ));
    assert!(Board::parse_any(r, ".11.\n").is_ok());
    let colours = Rules {
        colours: 3,
        ..Rules::dust()
    }
    .with_size(2, 1);
    assert!(matches!(
        Board::parse(colours, "14\n"),
        Err(BoardError::Colour { colour: 4, .. })
    ));
    // Letters are colours too, and the text round-trips.
    let b = Board::parse_any(r, "ab\nBA\n").unwrap();
    assert_eq!(b.to_text(), "12\n21\n");
    assert_eq!(Board::parse(*b.rules(), &b.to_text()).unwrap(), b);
}

#[test]
fn refused_clicks_change_nothing() {
    let mut b = samegame("1.\n12\n");
    let before = b.clone();
    assert!(matches!(b.click(5, 0), Err(BoardError::OffBoard { .. })));
    assert!(matches!(b.click(1, 0), Err(BoardError::EmptyCell { .. })));
    assert!(matches!(
        b.click(1, 1),
        Err(BoardError::SmallGroup { size: 1, .. })
    ));
    assert_eq!(b, before);
}

#[test]
fn random_boards_are_seeded() {
    let a = Board::random(Rules::dust(), 7).unwrap();
    assert_eq!(a, Board::random(Rules::dust(), 7).unwrap());
    assert_ne!(a, Board::random(Rules::dust(), 8).unwrap());
    assert_eq!(a.piles(), 48);
    assert!(a.cells().iter().all(|&c| (1..=5).contains(&c)));
}

#[test]
fn both_rule_sets_keep_the_environment_contract() {
    check_env(|| SameGameEnv::new(Rules::dust()).unwrap(), 30, 200).unwrap();
    check_env(
        || SameGameEnv::new(Rules::samegame().with_size(8, 8)).unwrap(),
        30,
        200,
    )
    .unwrap();
}

#[test]
fn starts_after_clicks_are_seeded_boards_of_every_stage() {
    check_env(
        || {
            SameGameEnv::new(Rules::dust())
                .unwrap()
                .with_start_clicks(48)
        },
        30,
        200,
    )
    .unwrap();
    let mut env = SameGameEnv::new(Rules::dust())
        .unwrap()
        .with_start_clicks(48);
    let mut piles = std::collections::BTreeSet::new();
    let mut last_groups = 0;
    for seed in 0..200 {
        env.reset(seed);
        let board = env.board().clone();
        assert!(!board.is_over(), "a start always has a group left");
        if board.groups().len() == 1 {
            last_groups += 1;
        }
        piles.insert(board.piles());
        env.reset(seed);
        assert_eq!(env.board(), &board, "the same seed, the same start");
    }
    assert!(piles.contains(&48), "some starts are full boards");
    assert!(last_groups > 0, "some are one click from the end");
    assert!(
        piles.iter().any(|&p| p < 24),
        "some are late in a game: {piles:?}"
    );
    // Without start clicks a reset is the seed's random board.
    let mut plain = SameGameEnv::new(Rules::dust()).unwrap();
    plain.reset(3);
    assert_eq!(plain.board(), &Board::random(Rules::dust(), 3).unwrap());
}

#[test]
fn the_features_add_group_sizes_and_the_groups_and_colours_left() {
    let rules = Rules::dust().with_size(2, 2);
    let mut env = SameGameEnv::new(rules)
        .unwrap()
        .with_observation(SameGameObservation::Features);
    env.set_board(Board::parse(rules, ".1\n21\n").unwrap());
    assert_eq!(env.channels(), 9);
    assert_eq!(env.puzzle_id(), "dust-2x2-c5-features");
    let mut out = vec![-1.0; env.observation_len()];
    env.write_observation(&mut out);
    let plane = |k: usize| &out[k * 4..(k + 1) * 4];
    assert_eq!(plane(0), [1.0, 0.0, 0.0, 0.0], "empty cells");
    assert_eq!(plane(1), [0.0, 1.0, 0.0, 1.0], "colour 1");
    assert_eq!(
        plane(6),
        [0.0, 2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0],
        "group sizes"
    );
    assert_eq!(plane(7), [2.0 / 16.0; 4], "groups left");
    assert_eq!(plane(8), [2.0 / 5.0; 4], "colours left");
    check_env(
        || {
            SameGameEnv::new(Rules::dust())
                .unwrap()
                .with_observation(SameGameObservation::Features)
        },
        20,
        100,
    )
    .unwrap();
}

#[test]
fn the_click_cost_reward_charges_a_click_and_pays_the_clearing_one() {
    let mut env = SameGameEnv::new(Rules::dust().with_size(2, 1)).unwrap();
    env.set_board(Board::parse(Rules::dust().with_size(2, 1), "12\n").unwrap());
    let s = env.step(0);
    assert_eq!((s.reward, s.terminated), (-1.0, false));
    // The 2 has moved next to the cut (column 1): column 0 is empty now.
    assert_eq!(env.board().to_text(), ".2\n");
    assert_eq!(env.step(0).reward, -10.0);
    let s = env.step(1);
    assert_eq!((s.reward, s.terminated), (10.0, true));
}

/// The fewest clicks by breadth-first search over every click (small boards only).
fn brute_force_fewest(board: &Board) -> usize {
    use std::collections::{HashSet, VecDeque};
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([(board.clone(), 0usize)]);
    seen.insert(board.cells().to_vec());
    while let Some((b, d)) = queue.pop_front() {
        if b.is_empty() {
            return d;
        }
        for g in b.moves() {
            let mut next = b.clone();
            next.click_cell(g[0]).unwrap();
            if seen.insert(next.cells().to_vec()) {
                queue.push_back((next, d + 1));
            }
        }
    }
    unreachable!("a dust board can always be cleared")
}

#[test]
fn exact_solver_equals_brute_force_on_small_boards() {
    for (w, h, colours, closing) in [
        (4, 3, 3, Closing::Centre),
        (5, 3, 4, Closing::Centre),
        (4, 4, 3, Closing::Left),
        (3, 4, 4, Closing::Centre),
    ] {
        let rules = Rules {
            width: w,
            height: h,
            colours,
            closing,
            ..Rules::dust()
        };
        for seed in 0..60 {
            let board = Board::random(rules, seed).unwrap();
            let want = brute_force_fewest(&board);
            let got = solve_fewest_clicks(&board, ExactLimits::default(), &mut |_| true).unwrap();
            assert!(got.optimal);
            assert_eq!(got.clicks.len(), want, "{w}x{h} seed {seed}\n{board}");
            let mut replay = board.clone();
            for &(c, r) in &got.clicks {
                replay.click(c, r).unwrap();
            }
            assert!(replay.is_empty());
        }
    }
}

#[test]
fn exact_solver_stops_on_its_budget_with_a_valid_clearing() {
    let board = Board::random(Rules::dust(), 3).unwrap();
    let limits = ExactLimits {
        max_nodes: 10,
        ..ExactLimits::default()
    };
    let got = solve_fewest_clicks(&board, limits, &mut |_| true).unwrap();
    assert!(!got.optimal);
    assert!(got.lower_bound <= got.clicks.len());
    let mut replay = board.clone();
    for &(c, r) in &got.clicks {
        replay.click(c, r).unwrap();
    }
    assert!(replay.is_empty());
    assert_eq!(
        solve_fewest_clicks(
            &Board::random(Rules::samegame(), 1).unwrap(),
            ExactLimits::default(),
            &mut |_| true
        ),
        Err(ExactError::NotClicks)
    );
    let no_singles = Rules {
        min_group: 2,
        ..Rules::dust()
    };
    assert_eq!(
        solve_fewest_clicks(
            &Board::random(no_singles, 1).unwrap(),
            ExactLimits::default(),
            &mut |_| true
        ),
        Err(ExactError::MinGroup)
    );
}

#[test]
fn monte_carlo_games_replay_to_their_score() {
    let board = Board::random(Rules::samegame().with_size(8, 8), 5).unwrap();
    for result in [
        nested_search(&board, McLimits::new(0.2, 1), &mut |_| true),
        nrpa(
            &board,
            McLimits {
                iterations: 20,
                ..McLimits::new(0.2, 2)
            },
            &mut |_| true,
        ),
    ] {
        let mut b = board.clone();
        let mut score = 0;
        for &(c, r) in &result.moves {
            score += b.click(c, r).unwrap().points;
        }
        assert_eq!(score, result.score);
        assert!(b.is_over());
        assert_eq!(b.is_empty(), result.cleared);
        assert!(result.playouts > 0);
    }
}

#[test]
fn monte_carlo_searches_report_their_best_and_stop_when_told() {
    let board = Board::random(Rules::samegame(), 9).unwrap();
    for algo in ["nrpa", "nmcs"] {
        let mut reports: Vec<McProgress> = Vec::new();
        let mut progress = |p: McProgress| {
            reports.push(p);
            reports.len() < 3
        };
        let limits = McLimits::new(30.0, 2);
        let started = crate::clock::seconds();
        let result = if algo == "nrpa" {
            nrpa(&board, limits, &mut progress)
        } else {
            nested_search(&board, limits, &mut progress)
        };
        // Told to stop at the third report (about 0.75 s), far before the 30 s budget.
        assert!(
            crate::clock::seconds() - started < 10.0,
            "{algo} did not stop"
        );
        assert_eq!(reports.len(), 3, "{algo}");
        assert!(reports
            .windows(2)
            .all(|w| w[0].best <= w[1].best && w[0].playouts <= w[1].playouts));
        assert!(
            reports[2].best > 0 && result.score >= reports[2].best,
            "{algo}"
        );
    }
}

/// `board` with its colours renamed by `names` (colour c becomes `names[c - 1]`) and, if
/// `mirror`, reflected left to right.
fn renamed(board: &Board, names: &[u8], mirror: bool) -> Board {
    let (w, h) = (board.width(), board.height());
    let mut cells = vec![0u8; w * h];
    for row in 0..h {
        for col in 0..w {
            let from = if mirror { w - 1 - col } else { col };
            let c = board.get(from, row);
            cells[row * w + col] = if c == 0 { 0 } else { names[c as usize - 1] };
        }
    }
    Board::from_cells(*board.rules(), cells).unwrap()
}

#[test]
fn canonical_boards_ignore_colour_names_and_the_mirror_image_and_keep_the_fewest_clicks() {
    let mut rng = crate::rng::Rng::new(5);
    let small = Rules {
        width: 4,
        height: 3,
        colours: 3,
        ..Rules::dust()
    };
    for seed in 0..80 {
        // Full dust boards and boards a few clicks in.
        let mut board = Board::random(Rules::dust(), seed).unwrap();
        for _ in 0..seed % 6 {
            let moves = board.moves();
            board.click_cell(rng.choose(&moves)[0]).unwrap();
        }
        let canonical = board.canonical();
        assert_eq!(
            canonical.canonical(),
            canonical,
            "the canonical board is its own"
        );
        assert_eq!(canonical.piles(), board.piles());
        assert_eq!(canonical.groups().len(), board.groups().len());
        let mut names = vec![1u8, 2, 3, 4, 5];
        rng.shuffle(&mut names);
        for mirror in [false, true] {
            let other = renamed(&board, &names, mirror);
            assert_eq!(
                other.canonical(),
                canonical,
                "seed {seed}, mirror {mirror}\n{board}"
            );
        }
        // On boards small enough for breadth-first search, the fewest clicks are the same.
        let tiny = Board::random(small, seed).unwrap();
        let want = brute_force_fewest(&tiny);
        assert_eq!(brute_force_fewest(&tiny.canonical()), want, "{tiny}");
        assert_eq!(brute_force_fewest(&renamed(&tiny, &[3, 1, 2], true)), want);
    }
    // Under the left closing the mirror image is another puzzle: only the colours are renamed,
    // in the order they first appear (rows from the bottom, each left to right).
    let mut left = Board::random(Rules::samegame(), 3).unwrap();
    for _ in 0..4 {
        let moves = left.moves();
        left.click_cell(rng.choose(&moves)[0]).unwrap();
    }
    let (w, h) = (left.width(), left.height());
    let mut names = [0u8; 10];
    let mut next = 1;
    for row in (0..h).rev() {
        for col in 0..w {
            let c = left.get(col, row) as usize;
            if c != 0 && names[c] == 0 {
                names[c] = next;
                next += 1;
            }
        }
    }
    let expected: Vec<u8> = left.cells().iter().map(|&c| names[c as usize]).collect();
    assert_eq!(left.canonical().cells(), &expected[..]);
    assert_eq!(
        renamed(&left, &[2, 3, 4, 5, 1], false).canonical(),
        left.canonical()
    );
}

#[test]
fn the_counts_observation_is_all_zeros_and_ones_and_the_same_for_equivalent_boards() {
    let env = SameGameEnv::new(Rules::dust())
        .unwrap()
        .with_observation(SameGameObservation::Counts);
    // 10 planes of 48 cells, groups and piles left (0–48), colours left (0–5), 5 × 16 groups.
    assert_eq!(env.observation_len(), 480 + 49 + 49 + 6 + 80);
    assert_eq!(env.puzzle_id(), "dust-8x6-c5-counts");
    let observe = |board: &Board| {
        let mut e = env.clone();
        e.set_board(board.clone());
        let mut out = vec![9.0; e.observation_len()];
        e.write_observation(&mut out);
        out
    };
    let mut rng = crate::rng::Rng::new(8);
    for seed in 0..30 {
        let mut board = Board::random(Rules::dust(), 100 + seed).unwrap();
        for _ in 0..seed % 9 {
            let moves = board.moves();
            board.click_cell(rng.choose(&moves)[0]).unwrap();
        }
        let seen = observe(&board);
        assert!(seen.iter().all(|&x| x == 0.0 || x == 1.0));
        let ones = seen.iter().filter(|&&x| x == 1.0).count();
        // A one-hot cell each, a size bucket a pile, then four counts and one per colour.
        assert_eq!(ones, 48 + board.piles() + 3 + 5, "seed {seed}");
        let groups = board.groups().len();
        assert_eq!(seen[480 + groups], 1.0, "the groups left");
        assert_eq!(seen[480 + 49 + board.piles()], 1.0, "the piles left");
        assert_eq!(
            seen[480 + 98 + board.colours_left()],
            1.0,
            "the colours left"
        );
        assert_eq!(observe(&renamed(&board, &[4, 2, 5, 1, 3], true)), seen);
    }
    // A single pile by the cut: the group-size plane "1" holds it, at its place or its mirror
    // image's (whichever the canonical board keeps), as colour 1.
    let lone = Board::parse_any(
        Rules::dust(),
        "........\n........\n........\n........\n........\n...3....",
    )
    .unwrap();
    let seen = observe(&lone);
    let (here, mirrored) = (5 * 8 + 3, 5 * 8 + 4);
    assert_eq!(seen[6 * 48 + here] + seen[6 * 48 + mirrored], 1.0);
    assert_eq!(seen[48 + here] + seen[48 + mirrored], 1.0, "colour 1");
    assert_eq!(seen[480 + 1], 1.0, "one group");
}
