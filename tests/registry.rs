//! The puzzle registry holds: every puzzle of `src/puzzles.rs` has all its parts — its page, its
//! docs page, its command-line noun, its entry in the page side's registry
//! (`www/common/puzzles.js`) with the same page and docs, its widget panel, and, where it learns,
//! its worker jobs and its shipped models with their manifests (that they load and play is
//! `tests/shipped_models.rs`'s). This is the "add a puzzle" checklist of docs/layout.md, enforced.

mod common;

use common::puzzlelab;
use puzzlelab::puzzles::{PuzzleEntry, PUZZLES};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The page registry's entry for `id`: the text from its `id: "…"` to the next entry's.
fn page_entry<'a>(registry: &'a str, id: &str) -> &'a str {
    let start = registry
        .find(&format!("id: \"{id}\""))
        .unwrap_or_else(|| panic!("www/common/puzzles.js has no puzzle {id:?}"));
    let rest = &registry[start + 1..];
    let end = rest.find("\n    id: \"").map_or(rest.len(), |i| i + 1);
    &registry[start..start + end]
}

/// The value of `key: "…"` in a registry entry.
fn field<'a>(entry: &'a str, key: &str) -> Option<&'a str> {
    let at = entry.find(&format!("{key}: \""))? + key.len() + 3;
    entry[at..].split('"').next()
}

fn check(puzzle: &PuzzleEntry, registry: &str) {
    let id = puzzle.id;
    assert!(
        root().join(puzzle.page).is_file(),
        "{id}: page {}",
        puzzle.page
    );
    assert!(
        root().join(puzzle.docs).is_file(),
        "{id}: docs {}",
        puzzle.docs
    );

    let out = puzzlelab(&[id, "--help"]);
    assert!(out.status.success(), "{id}: `puzzlelab {id} --help`");

    let entry = page_entry(registry, id);
    assert_eq!(
        field(entry, "page").map(|p| format!("www/{p}")),
        Some(puzzle.page.to_string()),
        "{id}: the two registries name the same page"
    );
    assert_eq!(field(entry, "docs"), Some(puzzle.docs), "{id}: docs");
    let widget = field(entry, "module").unwrap_or_else(|| panic!("{id}: no widget module"));
    assert!(
        root().join("www").join(widget).is_file(),
        "{id}: widget panel {widget}"
    );
    assert_eq!(
        field(entry, "mode"),
        Some(id),
        "{id}: its widget mode is its id"
    );

    match puzzle.learner {
        Some(learner) => {
            let jobs = field(entry, "jobs").unwrap_or_else(|| panic!("{id}: no worker jobs"));
            assert!(
                root().join("www").join(jobs).is_file(),
                "{id}: worker jobs {jobs}"
            );
            assert!(
                entry.contains(&format!("\"{} ", learner.model_prefix))
                    || entry.contains(&format!("\"{}-", learner.model_prefix)),
                "{id}: the page registry knows its model files by {:?}",
                learner.model_prefix
            );
            assert!(!learner.shipped_models.is_empty(), "{id}: a shipped model");
            for model in learner.shipped_models {
                let path = root().join("www/models").join(model);
                assert!(path.is_file(), "{id}: shipped model {model}");
                let manifest = root().join("www/models").join(format!("{model}.json"));
                assert!(manifest.is_file(), "{id}: manifest of {model}");
                let bytes = std::fs::read(&path).unwrap();
                let header = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
                let puzzle_id = header
                    .split("\"puzzleId\":\"")
                    .nth(1)
                    .and_then(|rest| rest.split('"').next())
                    .unwrap_or_else(|| panic!("{model}: no puzzleId in its header"));
                assert_eq!(
                    puzzlelab::puzzles::for_model(puzzle_id).map(|p| p.id),
                    Some(id),
                    "{model} says it plays {puzzle_id:?}"
                );
            }
        }
        None => assert!(
            entry.contains("learner: null"),
            "{id}: the page registry says it does not learn"
        ),
    }
}

#[test]
fn every_puzzle_has_its_page_docs_noun_widget_jobs_and_models() {
    let registry = read("www/common/puzzles.js");
    for puzzle in PUZZLES {
        check(puzzle, &registry);
    }
}

#[test]
fn the_two_registries_list_the_same_puzzles_in_the_same_order() {
    let registry = read("www/common/puzzles.js");
    let ids: Vec<&str> = registry
        .match_indices("\n    id: \"")
        .map(|(i, m)| registry[i + m.len()..].split('"').next().unwrap())
        .collect();
    let rust: Vec<&str> = PUZZLES.iter().map(|p| p.id).collect();
    assert_eq!(ids, rust);
}

#[test]
fn every_learnable_puzzle_has_a_learn_test_file_the_suite_finds() {
    // scripts/test.sh runs every `#![cfg(feature = "learn")]` file; each learnable puzzle's
    // learner is tested in one that names it.
    // A test target is a file tests/NAME.rs or a folder tests/NAME/ with a main.rs (its text here:
    // every file of the folder, main.rs first).
    let target_text = |path: std::path::PathBuf| -> Option<String> {
        if path.extension().is_some_and(|x| x == "rs") {
            return Some(std::fs::read_to_string(path).unwrap());
        }
        let main = std::fs::read_to_string(path.join("main.rs")).ok()?;
        let modules = std::fs::read_dir(&path)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path());
        let rest =
            modules.filter(|p| p.extension().is_some_and(|x| x == "rs") && !p.ends_with("main.rs"));
        Some(rest.fold(main, |text, p| text + &std::fs::read_to_string(p).unwrap()))
    };
    let learn_files: Vec<String> = std::fs::read_dir(root().join("tests"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| target_text(e.path()))
        .filter(|text| text.contains("#![cfg(feature = \"learn\")]"))
        .collect();
    let suite = read("scripts/test.sh");
    assert!(suite.contains("cfg(feature = \"learn\")"));
    assert!(
        suite.contains("tests/*.rs tests/*/main.rs"),
        "scripts/test.sh must find folder test targets (tests/NAME/main.rs) too"
    );
    for puzzle in PUZZLES.iter().filter(|p| p.learner.is_some()) {
        assert!(
            learn_files.iter().any(|t| t.contains(puzzle.id)),
            "no learn test names {}",
            puzzle.id
        );
    }
}
