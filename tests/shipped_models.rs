//! Every model shipped in `www/models/` still loads and still plays as well as its manifest says:
//! at least 95% of the recorded greedy and search solve rates, on the manifest's own positions
//! (its seed) and, for boards of at most 9 cells where positions are cheap, on fresh ones too.
#![cfg(feature = "learn")]

use std::process::Command;

#[test]
fn every_shipped_model_loads_and_reaches_95_percent_of_its_manifest() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/www/models");
    let models: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dqn"))
        .collect();
    assert!(!models.is_empty(), "no .dqn model in www/models");
    for model in models {
        let manifest_path = format!("{}.json", model.display());
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
        let recorded = &manifest["evaluation"]["overall"];
        let settings = &manifest["evaluation"]["settings"];
        let per_distance = settings["perDistance"].as_u64().unwrap().to_string();
        let recorded_seed = settings["seed"].as_u64().unwrap().to_string();
        let small_board = manifest["size"] == "3x3" || manifest["size"] == "2x3";
        let seeds = if small_board {
            vec![recorded_seed, "424242".to_string()]
        } else {
            vec![recorded_seed]
        };
        for seed in seeds {
            let out = Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
                .args([
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
