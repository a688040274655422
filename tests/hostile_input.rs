//! Hostile input: property tests (proptest) of every text parser and binary loader that reads
//! what a person or a download hands us. Invariants: no panic, every case bounded (proptest's
//! per-case time is the test's; the largest inputs are a few kilobytes or one model file), an
//! error that names the problem, and whatever parses writes back to a text that parses to the
//! same thing. Binary files are damaged *below* their checksums too (the checksum recomputed),
//! so that the loaders' own checks, not only the checksum, are exercised; sizes written in a
//! header must not drive an allocation before the data behind them is checked (a case that
//! tried would abort the test run).
//!
//! Case counts: see each `ProptestConfig`; `PROPTEST_CASES` in the environment overrides them
//! (for a longer hunt: `PROPTEST_CASES=100000 cargo test --release --test hostile_input`).

use proptest::prelude::*;
use puzzlelab::agent::ntuple::{NTupleNetwork, Precision, TupleSet};
use puzzlelab::checksum::fnv1a;
use puzzlelab::env::game2048::Board as Board2048;
use puzzlelab::env::minesweeper::{FirstCell, FirstClick, Layout, Level, Minefield};
use puzzlelab::env::samegame::{Board as SameGameBoard, Rules};
use puzzlelab::env::sliding::pdb::{Partition, PdbHeuristic};
use puzzlelab::env::sliding::{parse_size, SlidingPuzzle};
use puzzlelab::env::sudoku::Grid;
use std::sync::OnceLock;

mod common;

/// Cases for the cheap text properties, unless `PROPTEST_CASES` says otherwise.
fn text_cases() -> ProptestConfig {
    common::proptest_cases(2_000)
}

/// Cases for the binary loaders (each hashes and reads a whole file).
fn file_cases() -> ProptestConfig {
    common::proptest_cases(200)
}

/// Text a person might paste: any characters, weighted towards the ones the formats use.
fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[0-9 .,_|x×*\\-+=\n\t]{0,300}",
        "[0-9a-iA-I.\n ]{0,200}",
        "[0-9]{1,40}( ?[x×*] ?[0-9]{1,40})?",
    ]
}

/// Edits to a valid text: (position, what to do, a character).
fn edits() -> impl Strategy<Value = Vec<(usize, u8, char)>> {
    prop::collection::vec((any::<usize>(), 0u8..3, any::<char>()), 1..6)
}

fn damage(text: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, what, c) in edits {
        let at = at % (chars.len() + 1);
        match what {
            0 => chars.insert(at, c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = c,
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

/// The errors our parsers give are sentences, not debug dumps or empty strings.
fn clear(message: String) -> Result<(), TestCaseError> {
    prop_assert!(!message.trim().is_empty(), "an empty error message");
    prop_assert!(
        message.len() < 2_000,
        "an error message of {} bytes",
        message.len()
    );
    Ok(())
}

fn sliding(rows: usize, cols: usize) -> SlidingPuzzle {
    SlidingPuzzle::with_goal_text(rows, cols, "").expect("the standard goal")
}

/// Every text parser on one text: none panics; what parses writes back and parses the same.
fn all_text_parsers(text: &str) -> Result<(), TestCaseError> {
    for (rows, cols) in [(3, 3), (4, 4), (2, 3)] {
        let puzzle = sliding(rows, cols);
        match puzzle.parse(text) {
            Ok(board) => prop_assert_eq!(puzzle.parse(&puzzle.format(&board)).ok(), Some(board)),
            Err(e) => clear(e.to_string())?,
        }
        if let Err(e) = SlidingPuzzle::with_goal_text(rows, cols, text) {
            clear(e.to_string())?;
        }
    }
    match parse_size(text) {
        Ok((rows, cols)) => prop_assert!(rows >= 1 && cols >= 1),
        Err(e) => clear(e.to_string())?,
    }
    match Grid::parse(text) {
        Ok(grid) => prop_assert_eq!(Grid::parse(&grid.to_string()).ok(), Some(grid)),
        Err(e) => clear(e.to_string())?,
    }
    match Board2048::parse(text) {
        Ok(board) => prop_assert_eq!(Board2048::parse(&board.to_string()).ok(), Some(board)),
        Err(e) => clear(e.to_string())?,
    }
    match Minefield::parse(text) {
        Ok(game) => {
            let again = Minefield::parse(&game.to_text()).expect("a written board reads back");
            prop_assert_eq!(again.to_text(), game.to_text());
        }
        Err(e) => clear(e.to_string())?,
    }
    for rules in [Rules::dust(), Rules::samegame()] {
        match SameGameBoard::parse(rules, text) {
            Ok(board) => prop_assert_eq!(
                SameGameBoard::parse(rules, &board.to_text()).ok(),
                Some(board)
            ),
            Err(e) => clear(e.to_string())?,
        }
        match SameGameBoard::parse_any(rules, text) {
            Ok(board) => prop_assert_eq!(
                SameGameBoard::parse_any(rules, &board.to_text()).ok(),
                Some(board)
            ),
            Err(e) => clear(e.to_string())?,
        }
    }
    let _ = Level::parse(text);
    let _ = FirstClick::parse(text);
    if let Some(cell) = FirstCell::parse(text) {
        // A cell far off the board is refused, not wrapped or indexed.
        let layout = Level::Expert.layout();
        if let Err(e) = cell.cell(&layout) {
            clear(e.to_string())?;
        }
    }
    Ok(())
}

/// Valid texts of every format, to damage (made once for all cases).
fn valid_texts() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let puzzle = sliding(4, 4);
        let mut game = Minefield::new(Level::Beginner.layout(), FirstClick::Safe, 3).unwrap();
        game.reveal(0).unwrap();
        vec![
            puzzle.format(&puzzle.goal().clone()),
            "1 2 3\n4 5 6\n7 8 0".to_string(),
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .to_string(),
            "2 2 4 0\n0 8 0 0\n16 0 0 2\n0 0 0 4".to_string(),
            game.to_text(),
            SameGameBoard::random(Rules::dust(), 5).unwrap().to_text(),
            SameGameBoard::random(Rules::samegame(), 5)
                .unwrap()
                .to_text(),
            "4x4".to_string(),
        ]
    })
}

proptest! {
    #![proptest_config(text_cases())]

    #[test]
    fn no_text_parser_panics_on_any_text(text in hostile_text()) {
        all_text_parsers(&text)?;
    }

    #[test]
    fn no_text_parser_panics_on_a_damaged_valid_text(which in 0usize..8, edits in edits()) {
        let texts = valid_texts();
        let text = damage(&texts[which % texts.len()], &edits);
        all_text_parsers(&text)?;
    }

    #[test]
    fn minesweeper_layouts_that_cannot_be_played_are_refused(
        width in 0usize..200, height in 0usize..200, mines in 0usize..50_000, rule in 0usize..3,
    ) {
        let rule = [FirstClick::Safe, FirstClick::Opening, FirstClick::None][rule];
        let layout = Layout::new(width, height, mines);
        match Minefield::new(layout, rule, 1) {
            Ok(game) => {
                prop_assert!(width <= 50 && height <= 50 && mines < width * height);
                prop_assert_eq!(game.cells().len(), width * height);
            }
            Err(e) => clear(e.to_string())?,
        }
    }
}

/// A small n-tuple network file (five 4-tuples, f16), and the 5-5-5 databases of the 15-puzzle.
fn ntuple_file() -> &'static [u8] {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| NTupleNetwork::new(TupleSet::FiveFourTuples).to_bytes(Precision::F16))
}

fn pdb_file() -> &'static [u8] {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| {
        let puzzle = sliding(4, 4);
        PdbHeuristic::build(puzzle.goal(), Partition::FiveFiveFive, |_| {})
            .unwrap()
            .to_bytes()
    })
}

/// Damage to a file: bytes overwritten (some in the header, where the sizes are), a cut, and
/// whether the checksum at the end is then made right again.
#[derive(Debug, Clone)]
struct FileDamage {
    writes: Vec<(usize, u8)>,
    header_writes: Vec<(usize, u8)>,
    cut: Option<usize>,
    fix_checksum: bool,
}

fn file_damage() -> impl Strategy<Value = FileDamage> {
    (
        prop::collection::vec((any::<usize>(), any::<u8>()), 0..4),
        prop::collection::vec((0usize..48, any::<u8>()), 0..4),
        prop::option::of(any::<usize>()),
        any::<bool>(),
    )
        .prop_map(|(writes, header_writes, cut, fix_checksum)| FileDamage {
            writes,
            header_writes,
            cut,
            fix_checksum,
        })
}

fn apply(file: &[u8], d: &FileDamage) -> Vec<u8> {
    let mut body = file[..file.len() - 8].to_vec();
    for &(at, byte) in d.writes.iter().chain(&d.header_writes) {
        let len = body.len();
        body[at % len] = byte;
    }
    if let Some(cut) = d.cut {
        body.truncate(cut % (body.len() + 1));
    }
    let checksum = if d.fix_checksum {
        fnv1a(&body)
    } else {
        u64::from_le_bytes(file[file.len() - 8..].try_into().unwrap())
    };
    body.extend_from_slice(&checksum.to_le_bytes());
    body
}

proptest! {
    #![proptest_config(file_cases())]

    #[test]
    fn a_damaged_ntuple_file_loads_or_is_refused_with_a_reason(d in file_damage()) {
        let bytes = apply(ntuple_file(), &d);
        match NTupleNetwork::from_bytes(&bytes) {
            Ok(network) => prop_assert_eq!(network.to_bytes(Precision::F16).len(), bytes.len()),
            Err(e) => clear(e.to_string())?,
        }
    }

    #[test]
    fn a_damaged_pattern_database_loads_or_is_refused_with_a_reason(d in file_damage()) {
        let bytes = apply(pdb_file(), &d);
        let goal = *sliding(4, 4).goal();
        match PdbHeuristic::from_bytes(&bytes, &goal) {
            Ok(h) => prop_assert_eq!(h.to_bytes().len(), bytes.len()),
            Err(e) => clear(e.to_string())?,
        }
    }

    #[test]
    fn random_bytes_are_no_model_and_no_database(bytes in prop::collection::vec(any::<u8>(), 0..2_000)) {
        let goal = *sliding(4, 4).goal();
        prop_assert!(NTupleNetwork::from_bytes(&bytes).is_err());
        prop_assert!(PdbHeuristic::from_bytes(&bytes, &goal).is_err());
    }
}
