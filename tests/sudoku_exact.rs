//! The exact Sudoku solvers: known puzzles, solution counts, and the fast solver against the
//! reference one on random positions.

mod common;

use puzzlelab::env::sudoku::{search_reference, solve, solve_with, Branching, Grid, Solved};

/// The reference solver (any shape, `backtrack.rs`) on the fast solver's terms.
fn solve_reference(cells: &[u8; 81], limit: usize) -> Solved {
    let found = search_reference(&Grid::from_cells(cells).expect("digits 0-9"), limit);
    Solved {
        count: found.count,
        solution: found
            .solution
            .map(|grid| grid.cells().try_into().expect("81 cells")),
        guesses: found.guesses,
    }
}

fn count_solutions(cells: &[u8; 81], limit: usize) -> usize {
    solve(cells, limit).count
}
use puzzlelab::rng::Rng;

fn parse(line: &str) -> [u8; 81] {
    let mut cells = [0; 81];
    let digits: Vec<u8> = line
        .bytes()
        .map(|b| match b {
            b'1'..=b'9' => b - b'0',
            _ => 0,
        })
        .collect();
    cells.copy_from_slice(&digits);
    cells
}

/// Every row, column and box holds 1–9 once, and every given is kept.
fn assert_solves(puzzle: &[u8; 81], solution: &[u8; 81]) {
    for i in 0..9 {
        let mut row = 0u16;
        let mut col = 0u16;
        let mut bx = 0u16;
        for j in 0..9 {
            row |= 1 << solution[9 * i + j];
            col |= 1 << solution[9 * j + i];
            bx |= 1 << solution[27 * (i / 3) + 3 * (i % 3) + 9 * (j / 3) + j % 3];
        }
        assert_eq!((row, col, bx), (0x3FE, 0x3FE, 0x3FE), "unit {i} broken");
    }
    for (p, s) in puzzle.iter().zip(solution) {
        assert!(*p == 0 || p == s, "a given was changed");
    }
}

const WIKIPEDIA: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const WIKIPEDIA_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// A 17-clue puzzle (Royle's collection) and a hard one (Arto Inkala's "world's hardest", 2012).
const SEVENTEEN: &str =
    "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

#[test]
fn known_puzzles_have_their_solutions() {
    let puzzle = parse(WIKIPEDIA);
    let found = solve(&puzzle, 2);
    assert_eq!(found.count, 1);
    assert_eq!(found.solution, Some(parse(WIKIPEDIA_SOLUTION)));
    assert_eq!(found.guesses, 0, "the Wikipedia puzzle needs singles only");
    for line in [SEVENTEEN, INKALA] {
        let puzzle = parse(line);
        let fast = solve(&puzzle, 2);
        let reference = solve_reference(&puzzle, 2);
        assert_eq!(fast.count, 1, "{line}");
        assert_eq!(fast.solution, reference.solution, "{line}");
        assert_solves(&puzzle, &fast.solution.unwrap());
    }
    assert!(
        solve(&parse(INKALA), 1).guesses > 0,
        "Inkala's puzzle needs guesses"
    );
}

#[test]
fn counts_up_to_the_limit() {
    let empty = [0; 81];
    assert_eq!(count_solutions(&empty, 2), 2);
    assert_eq!(count_solutions(&empty, 17), 17);
    assert_eq!(solve_reference(&empty, 17).count, 17);
    assert_solves(&empty, &solve(&empty, 1).solution.unwrap());
    // Any 16 givens leave at least two solutions (McGuire et al. 2012).
    let mut sixteen = parse(WIKIPEDIA);
    let mut kept = 0;
    for cell in sixteen.iter_mut() {
        if *cell != 0 {
            kept += 1;
            if kept > 16 {
                *cell = 0;
            }
        }
    }
    assert_eq!(count_solutions(&sixteen, 2), 2);
    assert_eq!(solve_reference(&sixteen, 2).count, 2);
    // A solved grid has itself as its one solution, with no guess.
    let solved = parse(WIKIPEDIA_SOLUTION);
    assert_eq!(
        solve(&solved, 2),
        Solved {
            count: 1,
            solution: Some(solved),
            guesses: 0
        }
    );
}

#[test]
fn contradictions_have_no_solution() {
    // Two 5s in the first row, column and box respectively.
    for (a, b) in [(0, 8), (0, 72), (0, 20)] {
        let mut cells = [0; 81];
        cells[a] = 5;
        cells[b] = 5;
        assert_eq!(
            solve(&cells, 2),
            Solved {
                count: 0,
                solution: None,
                guesses: 0
            }
        );
        assert_eq!(solve_reference(&cells, 2).count, 0);
    }
    // Valid givens but no solution: cell 0 sees 1–8 in its row and 9 in its column.
    let mut cells = [0; 81];
    cells[1..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    cells[9 * 5] = 9;
    assert_eq!(count_solutions(&cells, 2), 0);
    // The Wikipedia puzzle with one given changed to a digit its solution puts elsewhere.
    let mut wrong = parse(WIKIPEDIA);
    wrong[2] = 1; // the solution has 4 there; 1 is legal for the givens but leads nowhere
    assert_eq!(count_solutions(&wrong, 2), solve_reference(&wrong, 2).count);
}

/// A random solved grid: the Wikipedia solution with its digits relabelled, rows permuted within
/// bands, bands permuted, the same for columns, and maybe transposed.
fn random_solution(rng: &mut Rng) -> [u8; 81] {
    let base = parse(WIKIPEDIA_SOLUTION);
    let mut digits: Vec<u8> = (1..=9).collect();
    rng.shuffle(&mut digits);
    let lines = |rng: &mut Rng| {
        let mut bands = [0usize, 1, 2];
        rng.shuffle(&mut bands);
        let mut order = Vec::new();
        for band in bands {
            let mut rows = [0usize, 1, 2];
            rng.shuffle(&mut rows);
            order.extend(rows.iter().map(|r| 3 * band + r));
        }
        order
    };
    let rows = lines(rng);
    let cols = lines(rng);
    let transpose = rng.chance(0.5);
    let mut grid = [0; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (r2, c2) = if transpose { (c, r) } else { (r, c) };
            grid[9 * r + c] = digits[usize::from(base[9 * rows[r2] + cols[c2]]) - 1];
        }
    }
    grid
}

#[test]
fn fast_agrees_with_reference_on_random_positions() {
    let mut rng = Rng::new(17);
    let (mut unique, mut several, mut none) = (0, 0, 0);
    let mut guesses = [0u64; 2];
    for n in 0..3000 {
        let solution = random_solution(&mut rng);
        assert_solves(&[0; 81], &solution);
        let mut puzzle = solution;
        let holes = 30 + rng.below(35);
        let mut cells: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut cells);
        for &cell in &cells[..holes] {
            puzzle[cell] = 0;
        }
        // One in five positions gets a random digit in a hole: often no solution at all.
        if n % 5 == 0 {
            puzzle[cells[0]] = 1 + rng.below(9) as u8;
        }
        let limit = 1 + rng.below(4);
        let fast = solve(&puzzle, limit);
        let reference = solve_reference(&puzzle, limit);
        assert_eq!(fast.count, reference.count, "position {n}: {puzzle:?}");
        assert_eq!(fast, solve(&puzzle, limit), "deterministic");
        if let Some(found) = fast.solution {
            assert_solves(&puzzle, &found);
        }
        if count_solutions(&puzzle, 2) == 1 {
            assert_eq!(fast.solution, reference.solution);
            if n % 5 != 0 {
                assert_eq!(fast.solution, Some(solution));
            }
        }
        match fast.count {
            0 => none += 1,
            1 => unique += 1,
            _ => several += 1,
        }
        assert_eq!(
            solve(&puzzle, 1).guesses,
            fast.guesses,
            "guesses do not depend on the limit"
        );
        // The other branching rule finds as many solutions, and the same unique one.
        let first_pair = solve_with(&puzzle, limit, Branching::FirstPair);
        assert_eq!(first_pair.count, fast.count, "position {n}: {puzzle:?}");
        if count_solutions(&puzzle, 2) == 1 {
            assert_eq!(first_pair.solution, fast.solution);
        }
        guesses[0] += fast.guesses;
        guesses[1] += first_pair.guesses;
    }
    // Both rules branch on these easy positions; the totals differ (a check that the two rules
    // are two: their speed is compared on the benchmark sets, docs/sudoku.md).
    assert!(
        guesses[0] > 0 && guesses[1] > 0 && guesses[0] != guesses[1],
        "{guesses:?}"
    );
    assert!(
        unique > 500 && several > 100 && none > 100,
        "{unique} {several} {none}"
    );
}

#[test]
fn bench_command_times_the_solver_on_puzzle_files() {
    use std::io::Write;
    let dir = common::scratch("sudoku-bench");
    let plain = dir.join("three.txt");
    let text = format!("# three puzzles\n{WIKIPEDIA}\n\n{SEVENTEEN}\n{INKALA}\n");
    std::fs::write(&plain, &text).unwrap();
    let gz = dir.join("three.txt.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(text.as_bytes()).unwrap();
    std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
    let (plain, gz) = (plain.to_str().unwrap(), gz.to_str().unwrap());
    let out = common::succeeds(&[
        "sudoku", "bench", "--file", plain, "--file", gz, "--repeat", "2", "--limit", "2",
    ]);
    let report = common::json(&out);
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    for file in files {
        assert_eq!(file["puzzles"], 2, "--limit 2");
        assert_eq!(file["agree"], true);
        assert_eq!(file["unique"], 2);
        assert_eq!(file["ours_runs"].as_array().unwrap().len(), 2);
        assert!(file["ours_per_s"].as_f64().unwrap() > 0.0);
        // The crate (AGPL-3.0) is only in builds with --features sudoku-crate.
        if cfg!(feature = "sudoku-crate") {
            assert!(file["crate_per_s"].as_f64().unwrap() > 0.0);
        } else {
            assert!(file["crate_per_s"].is_null());
        }
    }
    assert!(report["machine"].as_str().unwrap().contains("cores"));
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "12345\n").unwrap();
    common::fails_with(
        &["sudoku", "bench", "--file", bad.to_str().unwrap()],
        "bad.txt:1: not a puzzle",
    );
}
