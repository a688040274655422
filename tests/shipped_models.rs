//! Every model shipped in `www/models/` still loads and still plays as well as its manifest says:
//! at least 95% of the recorded greedy and search solve rates, on the manifest's own positions
//! (its seed) and, for boards of at most 9 cells where positions are cheap, on fresh ones too.
//! The 2048 DQN replays its manifest's evaluation games, a Minesweeper DQN its validation games,
//! a Sudoku DQN its validation puzzles, a dust DQN its validation boards.
#![cfg(feature = "learn")]

use std::path::{Path, PathBuf};
use std::process::Command;

fn manifest_of(model: &Path) -> serde_json::Value {
    let manifest_path = format!("{}.json", model.display());
    serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap()
}

/// A sliding model's board field (`size`, `goal`): at the manifest's top level in older manifests,
/// in its `setup` in the shared trainer's.
fn board_field<'a>(manifest: &'a serde_json::Value, key: &str) -> &'a serde_json::Value {
    match &manifest[key] {
        serde_json::Value::Null => &manifest["setup"][key],
        value => value,
    }
}

/// `www/models/`, where the shipped models and the page's pretrained list live.
fn models_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/www/models"))
}

fn shipped(extension: &str) -> Vec<PathBuf> {
    std::fs::read_dir(models_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect()
}

/// The shipped models whose manifest's puzzle starts with `prefix`.
fn shipped_for(prefix: &str) -> Vec<PathBuf> {
    shipped("dqn")
        .into_iter()
        .filter(|m| {
            manifest_of(m)["puzzle"]
                .as_str()
                .is_some_and(|p| p.starts_with(prefix))
        })
        .collect()
}

/// What `puzzlelab ARGS` prints, read as JSON (it must succeed).
fn puzzlelab_json(command: &mut Command) -> serde_json::Value {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The `puzzlelab` command of this build.
fn puzzlelab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
}

#[test]
fn every_shipped_model_loads_and_reaches_95_percent_of_its_manifest() {
    let models = shipped("dqn");
    assert!(!models.is_empty(), "no .dqn model in www/models");
    for model in models {
        let manifest = manifest_of(&model);
        let puzzle = manifest["puzzle"].as_str().unwrap_or_default();
        if puzzle == "2048 4x4"
            || puzzle.starts_with("minesweeper-")
            || puzzle.starts_with("sudoku-")
            || puzzle.starts_with("dust-")
            || is_value_network(&manifest)
        {
            continue; // the next tests'
        }
        // The shared trainer's manifest: its last `validation`; older ones: `evaluation`.
        let table = match &manifest["validation"] {
            serde_json::Value::Null => &manifest["evaluation"],
            validation => validation,
        };
        let recorded = &table["overall"];
        let settings = &table["settings"];
        let per_distance = settings["perDistance"].as_u64().unwrap().to_string();
        let recorded_seed = settings["seed"].as_u64().unwrap().to_string();
        let size = board_field(&manifest, "size");
        assert!(
            size.is_string(),
            "{}: the manifest names no board size",
            model.display()
        );
        let small_board = size == "3x3" || size == "2x3";
        let seeds = if small_board {
            vec![recorded_seed, "424242".to_string()]
        } else {
            vec![recorded_seed]
        };
        for seed in seeds {
            let out = Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
                .args([
                    "sliding",
                    "eval",
                    "--model",
                    model.to_str().unwrap(),
                    "--seed",
                    &seed,
                    "--per-distance",
                    &per_distance,
                ])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                model.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            let fresh: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let now = &fresh["evaluation"]["overall"];
            for key in ["greedySolvedPercent", "searchSolvedPercent"] {
                let (before, after) = (recorded[key].as_f64().unwrap(), now[key].as_f64().unwrap());
                assert!(
                    after >= 0.95 * before,
                    "{} (seed {seed}): {key} {after} < 95% of the manifest's {before}",
                    model.display()
                );
            }
            assert_eq!(fresh["steps"], manifest["steps"]);
        }
    }
}

/// A shipped 8-puzzle Q-network's score on every one of the 181,440 positions (recorded in its
/// manifest by `sliding eval --every-position --record every_position`) is recomputed: its greedy
/// policy plays from each, checked against the exact table (about 10 s).
#[test]
fn the_shipped_8_puzzle_dqn_scores_every_position_as_its_manifest_says() {
    let models: Vec<PathBuf> = shipped("dqn")
        .into_iter()
        .filter(|m| {
            let manifest = manifest_of(m);
            board_field(&manifest, "size") == "3x3" && !is_value_network(&manifest)
        })
        .collect();
    assert!(!models.is_empty(), "no 8-puzzle Q-network in www/models");
    for model in models {
        let manifest = manifest_of(&model);
        let recorded = &manifest["evaluations"]["every_position"]["every_position"];
        assert!(
            recorded["positions"] == 181_440,
            "{}: the manifest records no score on every position (sliding eval --every-position --record every_position)",
            model.display()
        );
        let report = puzzlelab_json(puzzlelab().args([
            "sliding",
            "eval",
            "--model",
            model.to_str().unwrap(),
            "--per-distance",
            "1",
            "--every-position",
        ]));
        let now = &report["every_position"];
        assert_eq!(now["positions"], 181_440);
        // The same weights and positions: the same plays, but for a near tie that another
        // machine's floating point may break the other way (a few positions at most).
        for key in ["solved", "optimal"] {
            let (before, after) = (recorded[key].as_i64().unwrap(), now[key].as_i64().unwrap());
            assert!(
                (before - after).abs() <= 20,
                "{}: {key} {after} on every position, the manifest says {before}",
                model.display()
            );
        }
    }
}

/// Manifests shipped before rewards were named by their behaviour say `seed004` (2048) or
/// `thesis` (sliding): they still read, as the names they stand for.
#[test]
fn the_shipped_manifests_rewards_still_read() {
    use puzzlelab::env::game2048::{Game2048Config, Reward2048};
    use puzzlelab::env::sliding::RewardScheme;
    let mut read = 0;
    for model in shipped("dqn") {
        let manifest = manifest_of(&model);
        if let Some(rules) = manifest.get("training_rules") {
            let rules: Game2048Config = serde_json::from_value(rules.clone()).unwrap();
            assert_eq!(
                rules.reward,
                Reward2048::WeightedFeatures,
                "{}",
                model.display()
            );
            read += 1;
        }
        if manifest["puzzle"]
            .as_str()
            .is_some_and(|p| p.starts_with("sliding"))
        {
            if let Some(name) = manifest["reward"].as_str() {
                assert!(
                    RewardScheme::from_name(name).is_some(),
                    "{}: reward {name}",
                    model.display()
                );
                read += 1;
            }
        }
    }
    assert!(read > 0, "no shipped manifest names a reward");
}

#[test]
fn the_shipped_2048_dqn_plays_as_its_manifest_says() {
    let models: Vec<_> = shipped("dqn")
        .into_iter()
        .filter(|m| manifest_of(m)["puzzle"] == "2048 4x4")
        .collect();
    for model in models {
        let manifest = manifest_of(&model);
        // The shared trainer's manifest: `validation` and `validation_seed`; older ones:
        // `evaluation.summary` and `evaluation_seed`.
        let (recorded, seed) = match manifest.get("validation") {
            Some(validation) => (validation, &manifest["validation_seed"]),
            None => (
                &manifest["evaluation"]["summary"],
                &manifest["evaluation_seed"],
            ),
        };
        let games = recorded["games"].as_u64().unwrap().to_string();
        let seed = seed.as_u64().unwrap().to_string();
        let out = Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
            .args([
                "2048",
                "eval",
                "--agent",
                "dqn",
                "--model",
                model.to_str().unwrap(),
                "--games",
                &games,
                "--seed",
                &seed,
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let now = &report["summary"];
        assert_eq!(now["games"], recorded["games"]);
        let at_least = |key: &str, value: &serde_json::Value, was: &serde_json::Value| {
            let (value, was) = (value.as_f64().unwrap(), was.as_f64().unwrap());
            assert!(
                value >= 0.95 * was,
                "{}: {key} {value} against {was} in its manifest",
                model.display()
            );
        };
        at_least("mean score", &now["mean_score"], &recorded["mean_score"]);
        for tile in ["1024", "2048"] {
            at_least(tile, &now["reach"][tile], &recorded["reach"][tile]);
        }
    }
}

#[test]
fn every_shipped_minesweeper_dqn_wins_its_validation_games_as_its_manifest_says() {
    for model in shipped_for("minesweeper-") {
        let manifest = manifest_of(&model);
        let (rules, recorded) = (&manifest["rules"], &manifest["validation"]);
        let text = |v: &serde_json::Value| match v.as_str() {
            Some(s) => s.to_string(),
            None => v.to_string(),
        };
        let first = format!("{},{}", rules["first_cell"][0], rules["first_cell"][1]);
        let report = puzzlelab_json(
            puzzlelab()
                .args(["minesweeper", "eval", "--agent", "dqn", "--model"])
                .arg(&model)
                .args([
                    "--width",
                    &text(&rules["width"]),
                    "--height",
                    &text(&rules["height"]),
                ])
                .args(["--mines", &text(&rules["mines"]), "--first-click"])
                .args([&text(&rules["first_click"]), "--first-cell", &first])
                .args(["--games", &text(&recorded["games"])])
                .args(["--seed", &text(&manifest["validation_seed"])]),
        );
        let (now, was) = (
            report["win_rate"].as_f64().unwrap(),
            recorded["win_rate"].as_f64().unwrap(),
        );
        assert_eq!(report["games"], recorded["games"]);
        assert!(
            now >= 0.95 * was,
            "{}: won {now} of its validation games, {was} in its manifest",
            model.display()
        );
    }
}

#[test]
fn every_shipped_sudoku_dqn_solves_its_validation_puzzles_as_its_manifest_says() {
    let models = shipped_for("sudoku-");
    assert!(!models.is_empty(), "no Sudoku model in www/models");
    for model in models {
        let manifest = manifest_of(&model);
        let givens: Vec<String> = manifest["puzzles"]["givens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g.to_string())
            .collect();
        let report = puzzlelab_json(
            puzzlelab()
                .args(["sudoku", "eval", "--model"])
                .arg(&model)
                .args(["--per-bin", &manifest["validation_per_bin"].to_string()])
                .args(["--seed", &manifest["validation_seed"].to_string()])
                .args(["--givens", &givens.join(",")]),
        );
        assert_eq!(report["puzzle"], manifest["puzzle"]);
        for bin in ["easy", "medium", "hard"] {
            let (now, was) = (&report["bins"][bin], &manifest["validation"][bin]);
            assert_eq!(now["puzzles"], was["puzzles"], "{bin}");
            // Solved puzzles, and the share of empty cells filled (what a model that solves
            // few puzzles, as the paper's, still does).
            for key in ["solved_rate", "filled_fraction"] {
                let (now, was) = (now[key].as_f64().unwrap(), was[key].as_f64().unwrap());
                assert!(
                    now >= 0.95 * was,
                    "{} ({bin}): {key} {now} on its validation puzzles, {was} in its manifest",
                    model.display()
                );
            }
        }
    }
}

#[test]
fn every_shipped_dust_dqn_clears_its_validation_boards_as_its_manifest_says() {
    let models = shipped_for("dust-");
    assert!(!models.is_empty(), "no dust model in www/models");
    for model in models {
        let manifest = manifest_of(&model);
        // The model plays as its learner does (`auto`); no exact solver beside it (`--compare
        // false`: 10 s a board otherwise).
        let validation = &manifest["validation"];
        let (play, key) = ("auto", "mean_clicks");
        let report = puzzlelab_json(
            puzzlelab()
                .args(["dust", "eval", "--agent", "dqn", "--play", play, "--model"])
                .arg(&model)
                .args(["--boards", &manifest["validation_boards"].to_string()])
                .args(["--seed", &manifest["validation_seed"].to_string()])
                .args(["--compare", "false"]),
        );
        assert_eq!(report["boards"], validation["boards"]);
        // Fewer clicks are better: at most 5% more than the manifest's mean.
        let now = report["mean_clicks"].as_f64().unwrap();
        let was = validation[key].as_f64().unwrap();
        assert!(
            now <= 1.05 * was,
            "{}: {now} clicks a validation board ({play}), {was} in its manifest",
            model.display()
        );
    }
}

/// Whether a manifest is a value network's (`puzzlelab sliding cost-to-go train`).
fn is_value_network(manifest: &serde_json::Value) -> bool {
    manifest["kind"]
        .as_str()
        .is_some_and(|k| k.starts_with("value network"))
}

#[test]
fn every_shipped_value_network_solves_its_check_positions_as_its_manifest_says() {
    // The sliding puzzles' (the dust puzzle's value network is checked with the dust models).
    let models: Vec<PathBuf> = shipped("dqn")
        .into_iter()
        .filter(|m| {
            let manifest = manifest_of(m);
            is_value_network(&manifest)
                && manifest["puzzle"]
                    .as_str()
                    .is_some_and(|p| p.starts_with("sliding"))
        })
        .collect();
    assert!(!models.is_empty(), "the 15-puzzle value network is shipped");
    for model in models {
        let manifest = manifest_of(&model);
        let recorded = &manifest["evaluations"]["check"];
        let settings = &recorded["settings"];
        let fresh = puzzlelab_json(puzzlelab().args([
            "sliding",
            "cost-to-go",
            "eval",
            "--model",
            model.to_str().unwrap(),
            "--positions",
            &recorded["positions"].to_string(),
            "--seed",
            &recorded["seed"].to_string(),
            "--lambda",
            &settings["lambda"].to_string(),
            "--batch",
            &settings["batch"].to_string(),
            "--max-nodes",
            &settings["max_nodes"].to_string(),
        ]));
        let count = |v: &serde_json::Value, key: &str| v[key].as_u64().unwrap();
        assert_eq!(
            count(&fresh, "solved"),
            count(recorded, "solved"),
            "{}",
            model.display()
        );
        // The same positions and network: the same search, up to the last bits of the CPU's
        // float arithmetic.
        assert!(
            count(&fresh, "optimal") + 1 >= count(recorded, "optimal"),
            "{}: {fresh} against {recorded}",
            model.display()
        );
        let (nodes, before) = (
            fresh["mean_nodes"].as_f64().unwrap(),
            recorded["mean_nodes"].as_f64().unwrap(),
        );
        assert!(
            (nodes - before).abs() <= 0.1 * before,
            "{nodes} nodes against {before}"
        );
        // The report's own evaluations were made by the same command.
        for name in ["validation", "fresh"] {
            let e = &manifest["evaluations"][name];
            assert!(
                e["command"]
                    .as_str()
                    .is_some_and(|c| c.contains("cost-to-go eval")),
                "{}: evaluation {name}",
                model.display()
            );
            assert_eq!(count(e, "solved"), count(e, "positions"), "{name}");
        }
    }
}

#[test]
fn the_pretrained_list_names_each_shipped_model_with_its_size_and_byte_count() {
    let dir = models_dir();
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("dqn-index.json")).unwrap())
            .unwrap();
    let entries = index["models"].as_array().unwrap();
    assert!(!entries.is_empty());
    for entry in entries {
        let name = entry["file"].as_str().unwrap();
        let file = dir.join(name);
        // The page's download progress bar falls back on these bytes when no length is sent.
        let bytes = std::fs::metadata(&file).unwrap().len();
        assert_eq!(entry["bytes"].as_u64(), Some(bytes), "{}", file.display());
        let manifest = manifest_of(&file);
        assert_eq!(
            entry["manifest"].as_str(),
            Some(format!("{name}.json").as_str())
        );
        assert_eq!(
            entry["size"],
            *board_field(&manifest, "size"),
            "{}",
            file.display()
        );
        assert_eq!(
            entry["goal"],
            *board_field(&manifest, "goal"),
            "{}",
            file.display()
        );
    }
}
