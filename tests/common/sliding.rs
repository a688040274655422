//! What the sliding-puzzle search tests share: one search run to its end, and the shipped pattern
//! databases read from `www/models/`.

use puzzlelab::env::sliding::pdb::PdbHeuristic;
use puzzlelab::env::sliding::solve::{SlidingSolver, SolveReport};
use puzzlelab::env::sliding::{Board, Heuristic, SlidingPuzzle};
use puzzlelab::search::{Algorithm, Limits};
use std::io::Read;

/// `algorithm` with `heuristic` from `start`, without a node budget, run to its end.
pub fn solve(
    puzzle: &SlidingPuzzle,
    start: Board,
    algorithm: Algorithm,
    heuristic: Heuristic,
) -> SolveReport {
    let mut solver =
        SlidingSolver::new(puzzle, start, algorithm, heuristic, Limits::default()).unwrap();
    solver.run_to_end(u64::MAX, |_| true)
}

/// The shipped pattern databases of `www/models/{file}` (a `.pdb.gz` file) towards `goal`.
pub fn shipped_pdb(file: &str, goal: &Board) -> PdbHeuristic {
    let path = format!("{}/www/models/{file}", env!("CARGO_MANIFEST_DIR"));
    let raw = std::fs::read(&path).unwrap();
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut bytes)
        .unwrap();
    PdbHeuristic::from_bytes(&bytes, goal).unwrap()
}
