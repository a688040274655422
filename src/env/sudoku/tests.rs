//! Unit tests of the grid, the reference solver and the techniques on hand-checked positions.

use super::*;

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const EASY_SOLUTION: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

#[test]
fn parses_lines_grids_and_refuses_bad_text() {
    let grid = Grid::parse(EASY).unwrap();
    assert_eq!(grid.shape(), Shape::CLASSIC);
    assert_eq!(grid.to_line(), EASY);
    assert_eq!(Grid::parse(&grid.to_string()).unwrap(), grid);
    let zeros = EASY.replace('.', "0");
    assert_eq!(Grid::parse(&zeros).unwrap(), grid);
    let boxed = "1 . | . .\n. . | 1 .\n----+----\n. 1 | . .\n. . | . 1\n";
    let small = Grid::parse(boxed).unwrap();
    assert_eq!(small.shape(), Shape::FOUR);
    assert_eq!(small.filled(), 4);
    assert_eq!(Grid::parse(&EASY[1..]), Err(SudokuError::WrongLength(80)));
    assert_eq!(
        Grid::parse("..x").unwrap_err(),
        SudokuError::BadCharacter {
            character: 'x',
            line: 1,
            column: 3
        }
    );
    let six = format!("7{}", ".".repeat(35));
    assert!(matches!(
        Grid::parse(&six),
        Err(SudokuError::DigitTooLarge {
            digit: 7,
            row: 1,
            col: 1,
            size: 6
        })
    ));
    let clash = format!("5.......5{}", ".".repeat(72));
    let error = Grid::parse(&clash).unwrap_err();
    assert_eq!(
        error,
        SudokuError::Conflict {
            digit: 5,
            kind: UnitKind::Row,
            unit: 0,
            first: (0, 0),
            second: (0, 8)
        }
    );
    assert_eq!(
        error.to_string(),
        "the 5 at row 1, column 1 and the 5 at row 1, column 9 share row 1"
    );
}

#[test]
fn shapes_have_the_right_units() {
    for shape in Shape::ALL {
        let units = shape.units();
        assert_eq!(units.len(), 3 * shape.size);
        for unit in &units {
            assert_eq!(unit.len(), shape.size);
        }
        for cell in 0..shape.cells() {
            let [r, c, b] = shape.units_of(cell);
            assert!(
                units[r].contains(&cell) && units[c].contains(&cell) && units[b].contains(&cell)
            );
            let peers = shape.peers(cell);
            // Peers: the row and column (2·(n−1)) plus the box cells outside both.
            let expected = 2 * (shape.size - 1) + (shape.box_rows - 1) * (shape.box_cols - 1);
            assert_eq!(peers.len(), expected, "{shape:?} cell {cell}");
        }
    }
}

#[test]
fn candidates_are_the_digits_no_peer_holds() {
    let grid = Grid::parse(EASY).unwrap();
    let candidates = grid.candidates();
    // r1c1 (row ..3.2.6.., column .9..7..8., box ..3/9../..1): 4 5 8? digits used 3 2 6 9 7 8 1 → {4, 5}.
    assert_eq!(candidates[0], (1 << 4) | (1 << 5));
    assert_eq!(candidates[2], 0);
}

#[test]
fn the_reference_solver_counts_solutions() {
    let grid = Grid::parse(EASY).unwrap();
    let found = search(&grid, 2);
    assert_eq!(found.count, 1);
    assert_eq!(found.solution.unwrap().to_line(), EASY_SOLUTION);
    assert_eq!(count_solutions(&Grid::empty(Shape::FOUR), 1000), 288);
    assert_eq!(count_solutions(&Grid::empty(Shape::CLASSIC), 5), 5);
    let solved = Grid::parse(EASY_SOLUTION).unwrap();
    assert_eq!(search(&solved, 2).count, 1);
    assert_eq!(search(&solved, 2).guesses, 0);
    // Remove two digits forming a deadly pattern → two solutions.
    let mut two = Grid::parse("1234341221434321").unwrap();
    for cell in [0, 1, 4, 5] {
        two.set(cell, 0);
    }
    // Rows 1–2, columns 1–2 form one box: swapping 1/2 and 3/4 … count them exactly.
    assert_eq!(count_solutions(&two, 10), 1);
    let mut deadly = Grid::parse("1234341221434321").unwrap();
    for cell in [0, 1, 8, 9] {
        deadly.set(cell, 0);
    }
    assert_eq!(count_solutions(&deadly, 10), 2);
    // No solution though no given breaks a rule: r1c1 needs a 1 but the row already holds 2,3,4
    // and its column holds a 1.
    let stuck = Grid::parse(".234....1.......").unwrap();
    assert_eq!(count_solutions(&stuck, 2), 0);
}

#[test]
fn techniques_on_hand_checked_positions() {
    // Hidden single in a box: with every other candidate, 1 has one place in box 1.
    let grid = Grid::parse(EASY).unwrap();
    let steps = hint(&grid);
    let last = steps.last().unwrap();
    assert_eq!(last.placements.len(), 1);
    assert!(last.technique <= Technique::NakedSingle);
    let rating = rate(&grid);
    assert!(rating.solved);
    assert_eq!(
        rating
            .steps
            .iter()
            .flat_map(|s| s.placements.clone())
            .count(),
        81 - grid.filled()
    );
    assert_eq!(rating.hardest.unwrap().rating(), rating.rating);
    assert!(
        rating.rating <= 2.3,
        "an easy newspaper puzzle rated {}",
        rating.rating
    );
}

/// A 9 × 9 board with no digits, every candidate everywhere, then `edit` applied to the masks.
fn open_board(edit: impl FnOnce(&mut [u16])) -> Board {
    let grid = Grid::empty(Shape::CLASSIC);
    let mut masks = vec![Shape::CLASSIC.all_digits(); 81];
    edit(&mut masks);
    Board::with_candidates(&grid, masks)
}

fn cell(r: usize, c: usize) -> usize {
    r * 9 + c
}

fn mask(digits: &[u8]) -> u16 {
    digits.iter().fold(0, |m, &d| m | 1 << d)
}

fn sorted(mut v: Vec<(usize, u8)>) -> Vec<(usize, u8)> {
    v.sort_unstable();
    v
}

/// Every (cell, digit) for the cells and digits given.
fn all(cells: impl IntoIterator<Item = usize>, digits: &[u8]) -> Vec<(usize, u8)> {
    let mut v: Vec<(usize, u8)> = cells
        .into_iter()
        .flat_map(|c| digits.iter().map(move |&d| (c, d)))
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn singles() {
    // 4 fits only r2c2 in box 1: hidden single in a box.
    let board = open_board(|m| {
        for c in [0, 1, 2, 9, 11, 18, 19, 20] {
            m[c] &= !mask(&[4]);
        }
    });
    let step = board.find(Technique::HiddenSingleBox).unwrap();
    assert_eq!(step.placements, vec![(cell(1, 1), 4)]);
    assert_eq!(board.find(Technique::NakedSingle), None);
    // 7 fits only r6c9 in row 6 (its box and column have other places): hidden single in a line.
    let board = open_board(|m| {
        for c in 0..8 {
            m[cell(5, c)] &= !mask(&[7]);
        }
    });
    assert_eq!(board.find(Technique::HiddenSingleBox), None);
    assert_eq!(
        board.find(Technique::HiddenSingleLine).unwrap().placements,
        vec![(cell(5, 8), 7)]
    );
    // r5c5 has only 9 left: naked single.
    let board = open_board(|m| m[cell(4, 4)] = mask(&[9]));
    assert_eq!(
        board.find(Technique::NakedSingle).unwrap().placements,
        vec![(cell(4, 4), 9)]
    );
}

#[test]
fn pointing_and_claiming() {
    // In box 1, 5 lies only in row 1 (r1c1, r1c2): it leaves r1c4..r1c9.
    let board = open_board(|m| {
        for c in [2, 9, 10, 11, 18, 19, 20] {
            m[c] &= !mask(&[5]);
        }
    });
    let step = board.find(Technique::Pointing).unwrap();
    assert_eq!(sorted(step.eliminations), all(3..9, &[5]));
    assert_eq!(step.units, vec![18, 0]);
    // In row 5, 7 lies only in box 5 (r5c4, r5c5): it leaves the rest of box 5.
    let board = open_board(|m| {
        for c in (0..9).filter(|&c| c != 3 && c != 4) {
            m[cell(4, c)] &= !mask(&[7]);
        }
    });
    let step = board.find(Technique::Claiming).unwrap();
    assert_eq!(
        sorted(step.eliminations),
        all(
            [
                cell(3, 3),
                cell(3, 4),
                cell(3, 5),
                cell(5, 3),
                cell(5, 4),
                cell(5, 5)
            ],
            &[7]
        )
    );
}

#[test]
fn naked_and_hidden_subsets() {
    let board = open_board(|m| {
        m[0] = mask(&[1, 2]);
        m[1] = mask(&[1, 2]);
    });
    let step = board.find(Technique::NakedPair).unwrap();
    assert_eq!(sorted(step.eliminations), all(2..9, &[1, 2]));
    let board = open_board(|m| {
        m[0] = mask(&[1, 2]);
        m[1] = mask(&[2, 3]);
        m[2] = mask(&[1, 3]);
    });
    assert_eq!(board.find(Technique::NakedPair), None);
    let step = board.find(Technique::NakedTriple).unwrap();
    assert_eq!(sorted(step.eliminations), all(3..9, &[1, 2, 3]));
    let board = open_board(|m| {
        m[0] = mask(&[1, 2]);
        m[1] = mask(&[2, 3]);
        m[2] = mask(&[3, 4]);
        m[3] = mask(&[1, 4]);
    });
    let step = board.find(Technique::NakedQuad).unwrap();
    assert_eq!(sorted(step.eliminations), all(4..9, &[1, 2, 3, 4]));

    // Digits 3 and 4 of row 1 fit only r1c1 and r1c2: the cells keep only them.
    let board = open_board(|m| {
        for m in &mut m[2..9] {
            *m &= !mask(&[3, 4]);
        }
    });
    let step = board.find(Technique::HiddenPair).unwrap();
    assert_eq!(sorted(step.eliminations), all(0..2, &[1, 2, 5, 6, 7, 8, 9]));
    let board = open_board(|m| {
        for m in &mut m[3..9] {
            *m &= !mask(&[4, 5, 6]);
        }
        m[0] &= !mask(&[6]);
    });
    let step = board.find(Technique::HiddenTriple).unwrap();
    assert_eq!(step.digits, vec![4, 5, 6]);
    assert_eq!(sorted(step.eliminations), all(0..3, &[1, 2, 3, 7, 8, 9]));
    let board = open_board(|m| {
        for m in &mut m[4..9] {
            *m &= !mask(&[5, 6, 7, 8]);
        }
    });
    let step = board.find(Technique::HiddenQuad).unwrap();
    assert_eq!(sorted(step.eliminations), all(0..4, &[1, 2, 3, 4, 9]));
}

#[test]
fn fish() {
    // 6 in rows 2 and 6 only in columns 3 and 8: X-wing.
    let board = open_board(|m| {
        for r in [1, 5] {
            for c in (0..9).filter(|&c| c != 2 && c != 7) {
                m[cell(r, c)] &= !mask(&[6]);
            }
        }
    });
    let step = board.find(Technique::XWing).unwrap();
    let others = (0..9).filter(|&r| r != 1 && r != 5);
    assert_eq!(
        sorted(step.eliminations),
        all(others.flat_map(|r| [cell(r, 2), cell(r, 7)]), &[6])
    );
    // 8 in rows 1, 5, 9 within columns 2, 5, 8 (two places each): swordfish.
    let places = [(0, [1, 4]), (4, [4, 7]), (8, [1, 7])];
    let board = open_board(|m| {
        for (r, keep) in places {
            for c in (0..9).filter(|c| !keep.contains(c)) {
                m[cell(r, c)] &= !mask(&[8]);
            }
        }
    });
    assert_eq!(board.find(Technique::XWing), None);
    let step = board.find(Technique::Swordfish).unwrap();
    let others = (0..9).filter(|r| ![0, 4, 8].contains(r));
    assert_eq!(
        sorted(step.eliminations),
        all(
            others.flat_map(|r| [cell(r, 1), cell(r, 4), cell(r, 7)]),
            &[8]
        )
    );
    // 9 in rows 1, 3, 5, 7 within columns 1, 3, 5, 7: jellyfish.
    let places = [(0, [0, 2]), (2, [2, 4]), (4, [4, 6]), (6, [6, 0])];
    let board = open_board(|m| {
        for (r, keep) in places {
            for c in (0..9).filter(|c| !keep.contains(c)) {
                m[cell(r, c)] &= !mask(&[9]);
            }
        }
    });
    assert_eq!(board.find(Technique::Swordfish), None);
    let step = board.find(Technique::Jellyfish).unwrap();
    let others = (0..9).filter(|r| ![0, 2, 4, 6].contains(r));
    assert_eq!(
        sorted(step.eliminations),
        all(others.flat_map(|r| [0, 2, 4, 6].map(|c| cell(r, c))), &[9])
    );
}

#[test]
fn wings_and_unique_rectangle() {
    // Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r5c1 {2,3}: 3 leaves r5c5, which sees both.
    let board = open_board(|m| {
        m[cell(0, 0)] = mask(&[1, 2]);
        m[cell(0, 4)] = mask(&[1, 3]);
        m[cell(4, 0)] = mask(&[2, 3]);
    });
    let step = board.find(Technique::XyWing).unwrap();
    assert_eq!(step.eliminations, vec![(cell(4, 4), 3)]);
    assert_eq!(step.cells, vec![cell(0, 0), cell(0, 4), cell(4, 0)]);
    // Pivot r1c1 {1,2,3}, pincers r2c2 {1,3} (box) and r1c6 {2,3} (row): 3 leaves r1c2 and r1c3.
    let board = open_board(|m| {
        m[cell(0, 0)] = mask(&[1, 2, 3]);
        m[cell(1, 1)] = mask(&[1, 3]);
        m[cell(0, 5)] = mask(&[2, 3]);
    });
    let step = board.find(Technique::XyzWing).unwrap();
    assert_eq!(
        sorted(step.eliminations),
        vec![(cell(0, 1), 3), (cell(0, 2), 3)]
    );
    // r1c1, r1c4, r2c1 hold only {1,2} (two boxes): r2c4 cannot be 1 or 2.
    let board = open_board(|m| {
        for c in [cell(0, 0), cell(0, 3), cell(1, 0)] {
            m[c] = mask(&[1, 2]);
        }
        m[cell(1, 3)] = mask(&[1, 2, 5, 6]);
    });
    let step = board.find(Technique::UniqueRectangle).unwrap();
    assert_eq!(step.eliminations, vec![(cell(1, 3), 1), (cell(1, 3), 2)]);
}

fn pool(shape: Shape, count: u64) -> Vec<Grid> {
    (0..count)
        .map(|seed| generate(shape, Difficulty::Easy, seed, 50).unwrap().puzzle)
        .collect()
}

#[test]
fn the_environment_obeys_the_contract() {
    use crate::env::check_env;
    for shape in Shape::ALL {
        let puzzles = pool(shape, 3);
        for reward in [
            SudokuReward::Progress,
            SudokuReward::Outcome,
            SudokuReward::Mistakes,
        ] {
            for observation in [SudokuObservation::OneHot, SudokuObservation::Features] {
                check_env(
                    || SudokuEnv::new(puzzles.clone(), reward).with_observation(observation),
                    6,
                    3 * shape.cells(),
                )
                .unwrap();
            }
        }
    }
}

#[test]
fn the_environment_pays_the_progress_rewards() {
    use crate::env::Environment;
    let puzzle = Grid::parse(EASY).unwrap();
    let solution = Grid::parse(EASY_SOLUTION).unwrap();
    let mut env = SudokuEnv::new(vec![puzzle.clone()], SudokuReward::Progress);
    assert_eq!(env.num_actions(), 810);
    assert_eq!(env.observation_len(), 810);
    let mut observation = vec![0.0; 810];
    env.write_observation(&mut observation);
    // r1c3 holds 3 (plane 3), r1c1 is empty (plane 0).
    assert_eq!(observation[3 * 81 + 2], 1.0);
    assert_eq!(observation[0], 1.0);
    assert_eq!(observation.iter().sum::<f32>(), 81.0);
    // A given: no progress. A digit its row already holds: partial loss, not written.
    assert_eq!(env.step(env.action(2, 4)).reward, -1.0);
    assert_eq!(env.step(env.action(0, 3)).reward, -2.0);
    assert_eq!(env.grid().get(0), 0);
    // Right digit: progress; then an erase of it: no progress, the cell is empty again.
    assert_eq!(env.step(env.action(0, 4)).reward, 1.0);
    assert_eq!(env.step(env.action(0, 4)).reward, -1.0);
    assert_eq!(env.step(env.action(0, 0)).reward, -1.0);
    assert_eq!(env.grid().get(0), 0);
    // Erasing a given changes nothing.
    env.step(env.action(2, 0));
    assert_eq!(env.grid().get(2), 3);
    // Fill the solution: every step progresses, the last one terminates.
    let empty: Vec<usize> = (0..81).filter(|&c| puzzle.get(c) == 0).collect();
    for (i, &cell) in empty.iter().enumerate() {
        let step = env.step(env.action(cell, solution.get(cell)));
        assert_eq!(step.reward, 1.0);
        assert_eq!(step.terminated, i + 1 == empty.len());
    }
    assert!(env.grid().is_solved());
}

#[test]
fn a_mistake_ends_the_episode_and_right_digits_pay() {
    use crate::env::Environment;
    let puzzle = Grid::parse(EASY).unwrap();
    let solution = Grid::parse(EASY_SOLUTION).unwrap();
    let mut env = SudokuEnv::new(vec![puzzle.clone()], SudokuReward::Mistakes);
    let mut mask = vec![false; 810];
    // r1c1 is 4: 4 and 5 both fit it (no peer holds them), only 4 is right.
    env.action_mask(&mut mask);
    assert!(mask[env.action(0, 4)] && mask[env.action(0, 5)]);
    let (lost, step) = env.after(env.action(0, 5)).unwrap();
    assert_eq!(lost.grid().get(0), 5);
    assert_eq!((step.reward, step.terminated), (-1.0, true));
    assert!(lost.is_lost() && lost.is_terminal());
    lost.action_mask(&mut mask);
    assert!(mask.iter().all(|&m| !m), "nothing is legal once lost");
    // A digit its row holds is no action: nothing changes.
    assert_eq!(env.after(env.action(0, 3)).unwrap().1.reward, 0.0);
    let step = env.step(env.action(0, 4));
    assert_eq!((step.reward, step.terminated), (1.0, false));
    // Erasing is not an action: the agent's digits are right.
    env.action_mask(&mut mask);
    assert!(!mask[env.action(0, 0)]);
    let empty: Vec<usize> = (0..81).filter(|&c| env.grid().get(c) == 0).collect();
    for cell in empty {
        let step = env.step(env.action(cell, solution.get(cell)));
        assert_eq!(step.reward, 1.0);
    }
    assert!(env.is_terminal() && !env.is_lost() && env.grid().is_solved());
    // reset starts the same puzzle afresh.
    env.reset(3);
    assert_eq!(env.grid(), &puzzle);
    assert!(!env.is_lost());
}

#[test]
fn features_read_candidates_and_singles_off_the_grid() {
    use crate::env::Environment;
    let puzzle = Grid::parse(EASY).unwrap();
    let env = SudokuEnv::new(vec![puzzle.clone()], SudokuReward::Progress)
        .with_observation(SudokuObservation::Features);
    assert_eq!(env.puzzle_id(), "sudoku-9x9-features");
    assert_eq!(env.observation_len(), FEATURES * 810);
    let mut out = vec![f32::NAN; FEATURES * 810];
    env.write_observation(&mut out);
    let at = |feature: usize, cell: usize, value: usize| out[feature * 810 + cell * 10 + value];
    let candidates = puzzle.candidates();
    for cell in 0..81 {
        let count = candidates[cell].count_ones();
        assert_eq!(at(10, cell, 0), f32::from(puzzle.get(cell) != 0));
        for d in 1..=9 {
            let candidate = candidates[cell] & (1 << d) != 0;
            assert_eq!(
                at(0, cell, d),
                f32::from(candidate),
                "cell {cell} digit {d}"
            );
            assert_eq!(at(1, cell, d), f32::from(candidate && count == 1));
            assert_eq!(at(9, cell, d), f32::from(puzzle.get(cell) as usize == d));
            for (k, unit) in Shape::CLASSIC.units_of(cell).into_iter().enumerate() {
                let places = Shape::CLASSIC.units()[unit]
                    .iter()
                    .filter(|&&c| candidates[c] & (1 << d) != 0)
                    .count();
                let expected = if puzzle.get(cell) == 0 { places } else { 0 };
                assert_eq!(at(6 + k, cell, d), expected as f32 / 9.0);
                assert_eq!(at(2 + k, cell, d), f32::from(candidate && places == 1));
            }
        }
    }
    // Every hidden or naked single flagged is the solution's digit.
    let solution = Grid::parse(EASY_SOLUTION).unwrap();
    let mut singles = 0;
    for cell in 0..81 {
        for d in 1..=9 {
            if (1..=4).any(|f| at(f, cell, d) == 1.0) {
                singles += 1;
                assert_eq!(solution.get(cell) as usize, d);
            }
        }
    }
    assert!(singles > 0);
}

#[test]
fn generated_puzzles_are_unique_and_of_the_asked_difficulty() {
    let cases = [
        (Shape::FOUR, Difficulty::Easy),
        (Shape::SIX, Difficulty::Easy),
        (Shape::SIX, Difficulty::Medium),
        (Shape::SIX, Difficulty::Hard),
        (Shape::CLASSIC, Difficulty::Easy),
        (Shape::CLASSIC, Difficulty::Medium),
        (Shape::CLASSIC, Difficulty::Hard),
        (Shape::CLASSIC, Difficulty::Expert),
    ];
    for (shape, difficulty) in cases {
        for seed in 0..2 {
            let made = generate(shape, difficulty, seed, 200).unwrap();
            assert_eq!(made.puzzle.shape(), shape);
            assert_eq!(
                count_solutions(&made.puzzle, 2),
                1,
                "{shape:?} {difficulty:?} seed {seed}"
            );
            assert_eq!(search(&made.puzzle, 2).solution.unwrap(), made.solution);
            assert!(made.solution.is_solved());
            let rating = rate(&made.puzzle);
            assert!(rating.solved);
            assert_eq!(Difficulty::of_rating(rating.rating), Some(difficulty));
            // The same seed makes the same puzzle.
            let again = generate(shape, difficulty, seed, 200).unwrap();
            assert_eq!(again.puzzle, made.puzzle);
        }
    }
}

#[test]
fn puzzles_with_a_fixed_number_of_givens() {
    for givens in [23, 29, 33] {
        let puzzle = generate_with_givens(Shape::CLASSIC, givens, 1, 100).unwrap();
        assert_eq!(puzzle.filled(), givens);
        assert_eq!(count_solutions(&puzzle, 2), 1);
        assert_eq!(
            generate_with_givens(Shape::CLASSIC, givens, 1, 100).unwrap(),
            puzzle
        );
    }
}
