//! The puzzle registry: every puzzle puzzlelab offers, listed once on the Rust side.
//!
//! Each entry names the puzzle's parts on every layer: its command-line noun (`puzzlelab <noun>
//! <verb>`), its page, its widget mode, its documentation page, and, for a puzzle that learns,
//! the prefix of the `puzzleId` its model files carry and the models shipped for it. The CLI's
//! nouns are checked against it (`src/bin/puzzlelab/main.rs`'s test), and `tests/registry.rs`
//! checks that every part it names exists and agrees with the page side's registry
//! (`www/common/puzzles.js`), so adding a puzzle is its own folders plus one line here and one
//! there (docs/layout.md, "Adding a puzzle").

/// One puzzle and where its parts are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuzzleEntry {
    /// The puzzle's id: its command-line noun, its widget mode and its key in the page registry.
    pub id: &'static str,
    /// Its name for a person.
    pub title: &'static str,
    /// Its page, relative to the repository root.
    pub page: &'static str,
    /// Its documentation page, relative to the repository root.
    pub docs: &'static str,
    /// What it learns with, if it learns.
    pub learner: Option<LearnerEntry>,
}

/// A learnable puzzle's models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnerEntry {
    /// The first word of the `puzzleId` in its model files' headers (`sliding 3x3 goal …`,
    /// `2048 4x4`, `minesweeper-16x16-40-condensed`, …): what a model file says it plays.
    pub model_prefix: &'static str,
    /// Its shipped models, in `www/models/`.
    pub shipped_models: &'static [&'static str],
}

/// Every puzzle, in the order pages and help list them.
pub const PUZZLES: &[PuzzleEntry] = &[
    PuzzleEntry {
        id: "sliding",
        title: "Sliding puzzles",
        page: "www/sliding.html",
        docs: "docs/sliding.md",
        learner: Some(LearnerEntry {
            model_prefix: "sliding",
            shipped_models: &["8puzzle.dqn", "15puzzle.dqn", "15puzzle-values.dqn"],
        }),
    },
    PuzzleEntry {
        id: "2048",
        title: "2048",
        page: "www/2048.html",
        docs: "docs/2048.md",
        learner: Some(LearnerEntry {
            model_prefix: "2048",
            shipped_models: &["2048-dqn.dqn"],
        }),
    },
    PuzzleEntry {
        id: "minesweeper",
        title: "Minesweeper",
        page: "www/minesweeper.html",
        docs: "docs/minesweeper.md",
        learner: Some(LearnerEntry {
            model_prefix: "minesweeper",
            shipped_models: &["minesweeper-dqn.dqn"],
        }),
    },
    PuzzleEntry {
        id: "sudoku",
        title: "Sudoku",
        page: "www/sudoku.html",
        docs: "docs/sudoku.md",
        learner: Some(LearnerEntry {
            model_prefix: "sudoku",
            shipped_models: &["sudoku-cells.dqn", "sudoku-paper.dqn"],
        }),
    },
    PuzzleEntry {
        id: "dust",
        title: "Dust",
        page: "www/samegame.html",
        docs: "docs/samegame.md",
        learner: Some(LearnerEntry {
            model_prefix: "dust",
            shipped_models: &["dust-backups.dqn"],
        }),
    },
    PuzzleEntry {
        id: "samegame",
        title: "SameGame",
        page: "www/samegame.html",
        docs: "docs/samegame.md",
        learner: None,
    },
];

/// The puzzle with this id.
pub fn by_id(id: &str) -> Option<&'static PuzzleEntry> {
    PUZZLES.iter().find(|p| p.id == id)
}

/// The puzzle a model file plays, from the `puzzleId` in its header: the entry whose
/// [`LearnerEntry::model_prefix`] is the id's first word (words end at a space or a `-`).
pub fn for_model(puzzle_id: &str) -> Option<&'static PuzzleEntry> {
    let first = puzzle_id.split([' ', '-']).next().unwrap_or("");
    PUZZLES
        .iter()
        .find(|p| p.learner.is_some_and(|l| l.model_prefix == first))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_every_model_prefix_finds_its_puzzle() {
        for (i, p) in PUZZLES.iter().enumerate() {
            assert!(PUZZLES[..i].iter().all(|q| q.id != p.id), "{} twice", p.id);
            assert_eq!(by_id(p.id), Some(p));
        }
        assert_eq!(
            for_model("sliding 3x3 goal 1,2,3,4,5,6,7,8,_").unwrap().id,
            "sliding"
        );
        assert_eq!(for_model("2048 4x4").unwrap().id, "2048");
        assert_eq!(
            for_model("minesweeper-16x16-40-condensed").unwrap().id,
            "minesweeper"
        );
        assert_eq!(for_model("sudoku-9x9").unwrap().id, "sudoku");
        assert_eq!(for_model("dust-8x6-c5-features").unwrap().id, "dust");
        assert_eq!(for_model("samegame-15x15"), None, "SameGame does not learn");
        assert_eq!(for_model("chess"), None);
    }
}
