//! `puzzlelab 2048 ntuple train` and `2048 eval`: checkpoints with manifests, resuming, evaluation JSON,
//! and damaged files refused with a clear error.

mod common;

fn puzzlelab(args: &[&str]) -> (bool, String, String) {
    let out = common::puzzlelab(args);
    let (stdout, stderr) = common::text(&out);
    (out.status.success(), stdout, stderr)
}

#[test]
fn train_resume_and_evaluate_a_2048_network() {
    let dir = std::env::temp_dir().join(format!("puzzlelab-2048-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("net.ntuple.gz");
    let model = model.to_str().unwrap();
    // What both runs share: chunks of 100 games, the file, a 5-game evaluation, f16 weights.
    let shared = [
        "--chunk",
        "100",
        "--out",
        model,
        "--eval-games",
        "5",
        "--precision",
        "f16",
    ];
    let first = [
        "2048", "ntuple", "train", "--games", "200", "--tuples", "5x4", "--seed", "3", "--alpha",
        "0.05",
    ];
    let (ok, stdout, stderr) = puzzlelab(&[&first[..], &shared[..]].concat());
    assert!(ok, "{stderr}");
    assert_eq!(
        stderr.matches("games/s").count(),
        2,
        "one line per chunk:\n{stderr}"
    );
    let manifest: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(manifest["games"], 200);
    assert_eq!(manifest["seed"], 3);
    assert_eq!(manifest["finished"], true);
    assert_eq!(manifest["training_curve"].as_array().unwrap().len(), 2);
    assert_eq!(manifest["evaluation"]["summary"]["games"], 5);

    // Resume to 300 games: the commands, the curve, the seed and the learning rate carry over.
    let resumed = [
        "2048", "ntuple", "train", "--games", "300", "--resume", model,
    ];
    let (ok, stdout, stderr) = puzzlelab(&[&resumed[..], &shared[..]].concat());
    assert!(ok, "{stderr}");
    let manifest: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(manifest["games"], 300);
    assert_eq!(manifest["seed"], 3);
    assert_eq!(manifest["alpha"], 0.05);
    assert_eq!(manifest["commands"].as_array().unwrap().len(), 2);
    assert_eq!(manifest["training_curve"].as_array().unwrap().len(), 3);

    for agent in ["ntuple", "expectimax", "random"] {
        let (ok, stdout, stderr) = puzzlelab(&[
            "2048", "eval", "--model", model, "--games", "3", "--agent", agent, "--depth", "1",
        ]);
        assert!(ok, "{agent}: {stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(report["summary"]["games"], 3, "{report}");
        assert!(report["summary"]["reach"]["2048"].is_number());
        assert!(report["summary"]["median_score"].as_u64().unwrap() > 0);
    }

    // A damaged file is refused, and says so.
    let bytes = std::fs::read(model).unwrap();
    let raw = dir.join("damaged.ntuple");
    let mut decoder = flate2::read::GzDecoder::new(&bytes[..]);
    let mut unpacked = Vec::new();
    std::io::Read::read_to_end(&mut decoder, &mut unpacked).unwrap();
    let middle = unpacked.len() / 2;
    unpacked[middle] ^= 1;
    std::fs::write(&raw, &unpacked).unwrap();
    let (ok, _, stderr) = puzzlelab(&["2048", "eval", "--model", raw.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("damaged"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_shipped_2048_network_loads_and_plays_as_its_manifest_says() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/www/models");
    let models: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("2048-") && (name.ends_with(".ntuple") || name.ends_with(".ntuple.gz"))
        })
        .collect();
    for model in models {
        let path = model.to_str().unwrap();
        assert!(
            std::fs::metadata(path).unwrap().len() <= 10 << 20,
            "{path} is over 10 MiB"
        );
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{path}.json")).unwrap())
                .unwrap();
        let recorded = &manifest["evaluation"]["summary"];
        // Fresh games (another seed), as many as the manifest's evaluation, at most 300.
        let games = recorded["games"].as_u64().unwrap().min(300).to_string();
        let (ok, stdout, stderr) = puzzlelab(&[
            "2048", "eval", "--model", path, "--games", &games, "--seed", "424242",
        ]);
        assert!(ok, "{path}: {stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let now = &report["summary"];
        assert_eq!(report["games_trained"], manifest["games"], "{path}");
        assert!(
            now["mean_score"].as_f64().unwrap() >= 0.85 * recorded["mean_score"].as_f64().unwrap(),
            "{path}: mean score {} against the manifest's {}",
            now["mean_score"],
            recorded["mean_score"]
        );
        let rate = |s: &serde_json::Value| s["reach"]["2048"].as_f64().unwrap();
        assert!(
            rate(now) >= rate(recorded) - 0.05,
            "{path}: 2048 reached in {} of games against the manifest's {}",
            rate(now),
            rate(recorded)
        );
    }
}

/// The games the browser test (tests/browser/train2048.test.mjs) expects the page's worker to
/// play: the native evaluator must still play exactly these, so a change to the rules, the
/// seeding or the agents shows here first. If such a change is meant, regenerate the fixture with
/// the commands it lists (release build), leaving out the summaries' timings.
#[test]
fn the_native_games_the_browser_test_expects_are_still_played() {
    let root = env!("CARGO_MANIFEST_DIR");
    let fixture: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{root}/tests/browser/fixtures/2048-native-eval.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let evaluations = fixture["evaluations"].as_array().unwrap();
    assert_eq!(evaluations.len(), 2, "greedy and expectimax");
    for expected in evaluations {
        let command = expected["command"].as_str().unwrap();
        let args: Vec<String> = command
            .split_whitespace()
            .skip(1)
            .map(|arg| arg.replace("www/", &format!("{root}/www/")))
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, stdout, stderr) = puzzlelab(&args);
        assert!(ok, "{command}: {stderr}");
        let mut report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let summary = report["summary"].as_object_mut().unwrap();
        for timing in ["seconds", "games_per_s", "moves_per_s"] {
            assert!(summary.remove(timing).is_some(), "{timing}");
        }
        for key in [
            "agent",
            "depth",
            "seed",
            "games_trained",
            "tuple_set",
            "chance_nodes",
            "summary",
        ] {
            assert_eq!(report[key], expected[key], "{command}: {key}");
        }
    }
}
