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
