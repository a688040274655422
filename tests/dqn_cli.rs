//! `puzzlelab sliding train`, `eval` and `solve --algo dqn` end to end on a tiny 2×3 model: the model and
//! its manifest, re-evaluation, resuming, solving, and clear errors for damaged or foreign files.
#![cfg(feature = "learn")]

mod common;

use common::{args, fails_with, manifest, puzzlelab, scratch, succeeds};
use serde_json::Value;

/// Writes `model` with its last byte flipped to `to`; returns the bytes written.
fn write_damaged_copy(model: &str, to: &str) -> Vec<u8> {
    let mut bytes = std::fs::read(model).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(to, &bytes).unwrap();
    bytes
}

#[test]
fn trains_evaluates_resumes_and_solves_a_tiny_2x3_model() {
    let dir = scratch("dqn_cli_train");
    let model = dir.join("tiny.dqn").to_string_lossy().to_string();
    let out = succeeds(&args(
        "sliding train --size 2x3 --steps 1500 --seed 1 --hidden 32,32 --lr 1e-3 --batch 32 \
         --replay 5000 --warmup 5 --difficulty 3 --chunk 500 --checkpoint-every 1000 \
         --eval-every 1000 --per-distance 2 --prioritized --out {}",
        &[&model],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("step ")).count(),
        3,
        "one progress line per chunk:\n{stderr}"
    );
    assert!(stderr.contains("loss/td") && stderr.contains("steps/s"));
    assert_eq!(
        stderr.matches("greedy solved").count(),
        2,
        "--eval-every 1000 and the final evaluation:\n{stderr}"
    );

    let m = manifest(&model);
    assert_eq!(m["puzzle"], "sliding 2x3 goal 1,2,3,4,5,_");
    assert_eq!(
        (m["setup"]["size"].as_str(), m["setup"]["goal"].as_str()),
        (Some("2x3"), Some("1,2,3,4,5,_"))
    );
    assert_eq!(m["hyperparameters"]["hidden"], serde_json::json!([32, 32]));
    // One-hot 2×3 (36 inputs), two layers of 32, four moves.
    assert_eq!(
        m["parameters"],
        (36 * 32 + 32) + (32 * 32 + 32) + (32 * 4 + 4)
    );
    assert_eq!(m["hyperparameters"]["learningRate"], 1e-3);
    assert_eq!(m["hyperparameters"]["batchSize"], 32);
    assert_eq!(m["hyperparameters"]["prioritizedReplay"], true);
    assert_eq!(m["hyperparameters"]["doubleDqn"], false);
    assert_eq!(
        m["hyperparameters"]["gamma"]
            .as_f64()
            .map(|g| (g * 10.0).round()),
        Some(9.0)
    );
    assert_eq!(
        (m["seed"].as_u64(), m["steps"].as_u64()),
        (Some(1), Some(1500))
    );
    assert_eq!(m["setup"]["difficulty"], 3);
    let curve = m["training_curve"].as_array().unwrap();
    assert_eq!(
        (
            curve.last().unwrap()["step"].as_u64(),
            m["finished"].as_bool()
        ),
        (Some(1500), Some(true))
    );
    assert!(m["wall_seconds"].as_f64().unwrap() > 0.0);
    assert!(m["machine"].as_str().unwrap().contains("cores"));
    assert!(m["command"].as_str().unwrap().contains("--steps 1500"));
    let rows = m["validation"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 21, "the 2x3 puzzle's distances 1..=21");
    assert_eq!(m["validation"]["overall"]["positions"], 42);
    assert_eq!(m["validation_size"], 42);
    for row in rows {
        assert!(
            row["greedySolvedPercent"].as_f64().unwrap()
                <= row["searchSolvedPercent"].as_f64().unwrap() + 1e-3
        );
    }
    assert!(
        rows[0]["searchSolvedPercent"].as_f64().unwrap() == 100.0,
        "one move away is always found: {}",
        rows[0]
    );

    // eval re-evaluates the file.
    let out = succeeds(&args(
        "sliding eval --model {} --per-distance 1 --seed 5 --uniform-positions 7",
        &[&model],
    ));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["steps"], 1500);
    assert_eq!(report["evaluation"]["overall"]["positions"], 21);
    // Uniformly random positions, grouped by their exact optimal distances (at most 21 on 2×3).
    let uniform = &report["uniform_evaluation"];
    assert_eq!(uniform["overall"]["positions"], 7);
    let rows = uniform["rows"].as_array().unwrap();
    let counted: u64 = rows.iter().map(|r| r["positions"].as_u64().unwrap()).sum();
    assert_eq!(counted, 7);
    assert!(rows
        .iter()
        .all(|r| (1..=21).contains(&r["optimal"].as_u64().unwrap())));
    assert!(String::from_utf8_lossy(&out.stderr).contains("greedy solved"));
    assert!(report["every_position"].is_null(), "only when asked");

    // --every-position: the greedy policy on all 360 positions of the 2×3 board.
    let out = succeeds(&args(
        "sliding eval --model {} --per-distance 1 --every-position",
        &[&model],
    ));
    let every = &common::json(&out)["every_position"];
    assert_eq!(every["positions"], 360);
    let by_distance = every["by_distance"].as_array().unwrap();
    assert_eq!(by_distance.len(), 22, "distances 0 to 21");
    let column = |i: usize| -> u64 { by_distance.iter().map(|r| r[i].as_u64().unwrap()).sum() };
    assert_eq!(
        (column(0), column(1)),
        (360, every["solved"].as_u64().unwrap())
    );
    let histogram: u64 = (every["extra_moves"].as_array().unwrap().iter())
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(histogram, every["solved"].as_u64().unwrap());
    assert_eq!(every["extra_moves"][0], every["optimal"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("every position: "));
    // --record adds the report, with its command, to the model's manifest.
    succeeds(&args(
        "sliding eval --model {} --per-distance 1 --every-position --record every_position",
        &[&model],
    ));
    let written = manifest(&model);
    let recorded = &written["evaluations"]["every_position"];
    for key in [
        "positions",
        "solved",
        "optimal",
        "extra_moves",
        "by_distance",
    ] {
        assert_eq!(recorded["every_position"][key], every[key], "{key}");
    }
    assert!(recorded["command"].as_str().is_some_and(
        |c| c.starts_with("puzzlelab sliding eval") && c.ends_with("--record every_position")
    ));
    assert_eq!(written["steps"], 1500, "the rest of the manifest as it was");

    // --resume goes on from the recorded steps, with the recorded configuration; only the
    // learning rate may change (a schedule).
    fails_with(
        &args(
            "sliding train --resume {} --steps 2000 --gamma 0.5",
            &[&model],
        ),
        "--gamma cannot change them",
    );
    let out = succeeds(&args(
        "sliding train --resume {} --steps 2000 --chunk 500 --per-distance 1 --lr 5e-4",
        &[&model],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("resuming at step 1500"), "{stderr}");
    assert!(stderr.contains("step 2000/2000"), "{stderr}");
    let m = manifest(&model);
    assert_eq!(m["steps"], 2000);
    assert_eq!(m["hyperparameters"]["hidden"], serde_json::json!([32, 32]));
    assert_eq!(m["commands"].as_array().unwrap().len(), 2);
    let lr = m["hyperparameters"]["learningRate"].as_f64().unwrap();
    assert!((lr - 5e-4).abs() < 1e-9, "{lr}");

    // solve --algo dqn: one move from the goal.
    let solved = common::json(&succeeds(&args(
        "sliding solve --algo dqn --model {} {}",
        &[&model, "1 2 3 4 0 5"],
    )));
    assert_eq!(solved["status"], "solved", "{solved}");
    assert_eq!(solved["optimal_length"], 1);
    assert_eq!(
        solved["extra_moves"],
        solved["length"].as_i64().unwrap() - 1
    );

    // A model for another puzzle, and a damaged copy, are refused with a clear message.
    fails_with(
        &args(
            "sliding solve --algo dqn --model {} --size 3 {}",
            &[&model, "1 2 3 4 5 6 7 0 8"],
        ),
        "the model was made for puzzle",
    );
    let damaged = dir.join("damaged.dqn").to_string_lossy().to_string();
    let mut bytes = write_damaged_copy(&model, &damaged);
    fails_with(
        &["sliding", "eval", "--model", &damaged],
        "the weights do not match their checksum",
    );
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&damaged, &bytes).unwrap();
    fails_with(
        &["sliding", "eval", "--model", &damaged],
        "corrupt DQN model",
    );
}

#[test]
fn files_that_are_not_models_are_refused() {
    let dir = scratch("dqn_cli_not_models");
    let path = dir.join("notes.dqn");
    std::fs::write(&path, "hello").unwrap();
    let path = path.to_string_lossy().to_string();
    for refused in [
        args("sliding eval --model {}", &[&path]),
        args(
            "sliding solve --algo dqn --model {} {}",
            &[&path, "1 2 3 4 0 5"],
        ),
        args("sliding train --resume {} --steps 10", &[&path]),
    ] {
        fails_with(&refused, "not a puzzlelab DQN model");
    }
    let nowhere = "/nonexistent/model.dqn";
    fails_with(&args("sliding eval --model {}", &[nowhere]), nowhere);
    fails_with(
        &args("sliding train --size 2x3", &[]),
        "train needs --steps N",
    );
}

/// A 2×3 model of 50 steps with an 8-unit layer, written to `path` (and its manifest beside it).
fn train_tiny_sliding_model(path: &str) {
    succeeds(&args(
        "sliding train --size 2x3 --steps 50 --hidden 8 --warmup 1 --batch 8 --per-distance 1 \
         --out {}",
        &[path],
    ));
}

#[test]
fn damaged_manifests_are_refused_with_a_message_when_resuming() {
    let dir = scratch("dqn_cli_damaged_manifests");
    let model = dir.join("m.dqn").to_string_lossy().to_string();
    train_tiny_sliding_model(&model);
    let valid = std::fs::read_to_string(format!("{model}.json")).unwrap();
    let cut = &valid[..valid.len() / 2];
    let wrong_types = valid.replacen(
        "\"wall_seconds\": ",
        "\"wall_seconds\": \"slow\", \"was\": ",
        1,
    );
    assert_ne!(wrong_types, valid, "the manifest records its wall time");
    let hostile: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("cut halfway", cut.as_bytes().to_vec()),
        (
            "an HTML page",
            b"<!doctype html><title>Not found</title>".to_vec(),
        ),
        ("a number", b"1e400".to_vec()),
        ("wrong types", wrong_types.into_bytes()),
        ("an empty object", b"{}".to_vec()),
        (
            "another JSON file",
            b"{\"version\": 1, \"models\": []}".to_vec(),
        ),
        ("not UTF-8", vec![0xff, 0xfe, 0x00, 0x7b]),
    ];
    let resume = args("sliding train --resume {} --steps 60", &[&model]);
    for (what, body) in hostile {
        std::fs::write(format!("{model}.json"), body).unwrap();
        let out = fails_with(&resume, "m.dqn.json");
        assert_ne!(
            out.status.code(),
            Some(101),
            "{what}: a message, not a panic"
        );
    }
    // A new run from its weights goes on without its history, and says why.
    let tuned = dir.join("tuned.dqn").to_string_lossy().to_string();
    let init = args(
        "sliding train --init {} --size 2x3 --steps 20 --hidden 8 --warmup 1 --batch 8 \
         --per-distance 1 --out {}",
        &[&model, &tuned],
    );
    std::fs::write(format!("{model}.json"), cut).unwrap();
    let out = succeeds(&init);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("its history is not carried over"),
        "{stderr}"
    );
    assert_eq!(manifest(&tuned)["commands"].as_array().unwrap().len(), 1);

    std::fs::remove_file(format!("{model}.json")).unwrap();
    fails_with(&resume, "cannot read (needed to resume)");
    let out = succeeds(&init);
    assert!(String::from_utf8_lossy(&out.stderr).contains("its history is not carried over"));
}

#[test]
fn the_step_reward_mixed_difficulties_and_target_interval_are_recorded_and_kept_on_resume() {
    let dir = scratch("steps-mixed");
    let model = dir.join("steps.dqn").to_string_lossy().to_string();
    let common = ["--chunk", "200", "--per-distance", "1"];
    let mut train = args(
        "sliding train --size 2x3 --steps 400 --hidden 16 --batch 16 --warmup 2 --difficulty 6 \
         --mixed --reward steps --gamma 0.99 --mask --target-every 250 --out {}",
        &[&model],
    );
    train.extend(common);
    succeeds(&train);
    let m = manifest(&model);
    assert_eq!(m["reward"], "steps");
    assert_eq!(m["setup"]["mixed"], true);
    assert_eq!(m["hyperparameters"]["targetUpdateInterval"], 250);
    fails_with(
        &args(
            "sliding train --resume {} --steps 600 --target-every 10",
            &[&model],
        ),
        "--target-every cannot change them",
    );
    fails_with(
        &args(
            "sliding train --resume {} --steps 600 --reward thesis",
            &[&model],
        ),
        "--reward cannot change them",
    );
    let mut resume = args(
        "sliding train --resume {} --steps 600 --difficulty 8",
        &[&model],
    );
    resume.extend(common);
    succeeds(&resume);
    let m = manifest(&model);
    assert_eq!(
        (m["reward"].as_str(), m["steps"].as_u64()),
        (Some("steps"), Some(600))
    );
    assert_eq!(
        (
            m["setup"]["mixed"].as_bool(),
            m["setup"]["difficulty"].as_u64()
        ),
        (Some(true), Some(8))
    );
    assert_eq!(m["hyperparameters"]["targetUpdateInterval"], 250);
    fails_with(
        &args("sliding train --size 2x3 --steps 10 --reward sparse", &[]),
        "[possible values: heuristic-penalty, steps, step-cost-goal-bonus]",
    );

    // A manifest written before the rewards were renamed names them `thesis` or `seed003`:
    // resuming reads the old name and records the current one.
    let text = std::fs::read_to_string(format!("{model}.json")).unwrap();
    let old = text.replace("\"reward\": \"steps\"", "\"reward\": \"thesis\"");
    assert_ne!(old, text, "the manifest names its reward");
    std::fs::write(format!("{model}.json"), old).unwrap();
    let mut resume = args("sliding train --resume {} --steps 700", &[&model]);
    resume.extend(common);
    succeeds(&resume);
    assert_eq!(manifest(&model)["reward"], "heuristic-penalty");

    // A manifest of the format before the shared trainer (the shipped ones) records the setup at
    // its top level (`size`, `goal`, `difficulty`, `mixed_difficulty`, …): it resumes too.
    let mut m = manifest(&model);
    let setup = m["setup"].clone();
    let old = m.as_object_mut().unwrap();
    old.remove("setup");
    old.insert("mixed_difficulty".into(), setup["mixed"].clone());
    for key in ["size", "goal", "difficulty", "curriculum", "uniform_starts"] {
        old.insert(key.into(), setup[key].clone());
    }
    std::fs::write(format!("{model}.json"), serde_json::to_string(&m).unwrap()).unwrap();
    let mut resume = args("sliding train --resume {} --steps 800", &[&model]);
    resume.extend(common);
    succeeds(&resume);
    let m = manifest(&model);
    assert_eq!(
        (
            m["setup"]["mixed"].as_bool(),
            m["setup"]["difficulty"].as_u64(),
            m["steps"].as_u64()
        ),
        (Some(true), Some(8), Some(800))
    );
}

#[test]
fn full_backups_and_uniform_starts_are_recorded_and_kept_on_resume() {
    let dir = scratch("full-backups");
    let model = dir.join("full.dqn").to_string_lossy().to_string();
    let common = ["--chunk", "100", "--per-distance", "1"];
    let mut train = args(
        "sliding train --size 2x3 --steps 200 --hidden 16 --batch 16 --reward steps --gamma 1 \
         --mask --full-backups --mixed --uniform-starts --difficulty 6 --out {}",
        &[&model],
    );
    train.extend(common);
    let out = succeeds(&train);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("step 200/200"), "{stderr}");
    let m = manifest(&model);
    assert_eq!(m["hyperparameters"]["fullBackups"], true);
    assert_eq!(m["setup"]["uniform_starts"], true);
    assert_eq!(m["setup"]["mixed"], true);
    assert_eq!(m["steps"], 200);
    fails_with(
        &args(
            "sliding train --resume {} --steps 300 --prioritized",
            &[&model],
        ),
        "--prioritized cannot change them",
    );
    let mut resume = args("sliding train --resume {} --steps 300", &[&model]);
    resume.extend(common);
    succeeds(&resume);
    let m = manifest(&model);
    assert_eq!(m["hyperparameters"]["fullBackups"], true);
    assert_eq!(m["setup"]["uniform_starts"], true);
    assert_eq!(m["steps"], 300);

    // A new run from its weights that revisits the greedy policy's failures: its manifest lists
    // the commands that made the model it started from, then its own, and counts their time.
    let tuned = dir.join("tuned.dqn").to_string_lossy().to_string();
    let mut init = args(
        "sliding train --init {} --size 2x3 --steps 600 --batch 16 --reward steps --gamma 1          --mask --full-backups --mixed --uniform-starts --difficulty 6 --failure-share 0.5 --out {}",
        &[&model, &tuned],
    );
    init.extend(common);
    let out = succeeds(&init);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("greedy probes failed"), "{stderr}");
    let t = manifest(&tuned);
    assert_eq!(t["hyperparameters"]["failureShare"], 0.5);
    let commands: Vec<&str> = (t["commands"].as_array().unwrap().iter())
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(commands.len(), 3, "{commands:?}");
    assert!(commands[1].contains("--resume") && commands[2].contains("--init"));
    assert!(t["wall_seconds"].as_f64().unwrap() >= m["wall_seconds"].as_f64().unwrap());
    fails_with(
        &args(
            "sliding train --size 2x3 --steps 10 --failure-share 0.5",
            &[],
        ),
        "revisited by full backups only",
    );

    fails_with(
        &args("sliding train --size 2x3 --steps 10 --uniform-starts", &[]),
        "uniform starts go with mixed difficulties",
    );
    fails_with(
        &args(
            "sliding train --size 2x3 --steps 10 --full-backups --prioritized",
            &[],
        ),
        "prioritised replay does not apply",
    );
    fails_with(
        &args(
            "sliding train --resume {} --steps 400 --full-backups",
            &[&model],
        ),
        "--full-backups cannot change them",
    );
}

#[test]
fn the_2048_dqn_trains_resumes_and_evaluates_from_the_command_line() {
    let dir = scratch("dqn-2048");
    let model = dir.join("tiny.dqn").to_string_lossy().to_string();
    let out = succeeds(&args(
        "2048 train --steps 300 --chunk 150 --filters 4,4 --hidden 16 --batch 16 --warmup 1 \
         --eval-games 2 --seed 4 --out {}",
        &[&model],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("step ")).count(),
        2,
        "{stderr}"
    );
    assert!(stderr.contains("validation: 2 games"), "{stderr}");
    let last = stderr
        .lines()
        .find(|l| l.starts_with("step 300/300"))
        .unwrap();
    assert!(
        !last.contains("loss/td -"),
        "gradient steps were taken: {last}"
    );
    let m = manifest(&model);
    assert_eq!(m["puzzle"], "2048 4x4");
    assert_eq!(m["hyperparameters"]["conv"]["filters1"], 4);
    assert_eq!(m["hyperparameters"]["hidden"], serde_json::json!([16]));
    assert_eq!(
        m["hyperparameters"]["gamma"]
            .as_f64()
            .map(|g| (g * 10.0).round()),
        Some(9.0)
    );
    assert_eq!(m["setup"]["reward"], "weighted-features");
    assert_eq!(m["validation"]["games"], 2);
    assert_eq!(m["steps"], 300);
    assert_eq!(m["training_curve"].as_array().unwrap().len(), 1);

    let out = succeeds(&args(
        "2048 train --resume {} --steps 450 --chunk 150 --eval-games 2",
        &[&model],
    ));
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming at step 300"));
    fails_with(
        &args(
            "2048 train --resume {} --steps 600 --filters 8,8",
            &[&model],
        ),
        "--filters cannot change them",
    );
    let m = manifest(&model);
    assert_eq!(
        (m["steps"].as_u64(), m["commands"].as_array().unwrap().len()),
        (Some(450), 2)
    );
    assert_eq!(m["training_curve"].as_array().unwrap().len(), 2);

    let eval = |seed: &str| -> Value {
        let line = "2048 eval --agent dqn --model {} --games 3 --seed {}";
        common::json(&succeeds(&args(line, &[&model, seed])))
    };
    let (a, b) = (eval("5"), eval("5"));
    assert_eq!(a["summary"]["games"], 3);
    assert_eq!(
        a["summary"]["mean_score"], b["summary"]["mean_score"],
        "seeded"
    );
    assert!(a["summary"]["mean_score"].as_f64().unwrap() > 0.0);
    // A sliding-puzzle model is not a 2048 model.
    let sliding = dir.join("sliding.dqn").to_string_lossy().to_string();
    train_tiny_sliding_model(&sliding);
    fails_with(
        &args("2048 eval --agent dqn --model {}", &[&sliding]),
        "2048",
    );

    // Averaged (here with itself), validated on the trainer's games.
    let mean = dir.join("mean.dqn").to_string_lossy().to_string();
    let twice = format!("{model},{model}");
    let out = succeeds(&args("2048 average --models {} --out {}", &[&twice, &mean]));
    assert!(String::from_utf8_lossy(&out.stderr).contains("validation: 100 games"));
    let m = manifest(&mean);
    assert_eq!(m["puzzle"], "2048 4x4");
    assert_eq!(m["inputs"].as_array().unwrap().len(), 2);
    assert!(m["validation"]["mean_score"].as_f64().unwrap() > 0.0);
}

#[test]
fn the_2048_dqn_learns_from_the_shipped_ntuple_networks_demonstrations() {
    let dir = scratch("dqn-2048-demonstrations");
    let model = dir.join("demo.dqn").to_string_lossy().to_string();
    let ntuple = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/www/models/2048-ntuple.ntuple.gz"
    );
    let out = succeeds(&args(
        "2048 train --steps 200 --chunk 100 --filters 4,4 --hidden 16 --batch 16 --warmup 1 \
         --eval-games 2 --seed 4 --demonstrations {} --demo-games 2 --demo-transitions 3000 \
         --pretrain-steps 100 --out {}",
        &[ntuple, &model],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("3000 demonstrated transitions from"),
        "two games of the n-tuple network pass 3,000 moves:\n{stderr}"
    );
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("step ")).collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0].contains("games 0") && lines[0].contains("agrees with the demonstrator"),
        "pre-training plays no game: {}",
        lines[0]
    );
    assert!(
        lines[0].contains("updates/s (no play)") && lines[1].contains(" steps/s"),
        "pre-training's rate is in gradient steps, then it plays: {}",
        lines[1]
    );
    assert!(
        !lines[1].contains("loss/td -") && !lines[1].contains("loss/margin -"),
        "still learning from the demonstrations, with no warm-up: {}",
        lines[1]
    );
    let m = manifest(&model);
    let recorded = &m["setup"]["demonstrations"];
    let full_path = std::fs::canonicalize(ntuple).unwrap();
    assert_eq!(recorded["ntuple"], full_path.to_string_lossy().as_ref());
    assert_eq!(
        (
            recorded["games"].as_u64(),
            recorded["pretrainSteps"].as_u64()
        ),
        (Some(2), Some(100))
    );
    assert_eq!(m["hyperparameters"]["pretrainSteps"], 100);
    assert!(m["reward"]
        .as_str()
        .unwrap()
        .contains("demonstrations by the n-tuple network"));
    // A resumed run records the same demonstrations again, from the file the manifest names.
    let out = succeeds(&args(
        "2048 train --resume {} --steps 300 --chunk 100 --eval-games 2",
        &[&model],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("resuming at step 200") && stderr.contains("3000 demonstrated transitions"),
        "{stderr}"
    );
    fails_with(
        &args(
            "2048 train --resume {} --steps 400 --demonstrations {}",
            &[&model, ntuple],
        ),
        "--demonstrations cannot change them",
    );
    // Demonstrations are the 2048 learner's: another file is refused in words.
    fails_with(
        &args(
            "2048 train --steps 10 --demonstrations {} --out {}",
            &[&model, &dir.join("x.dqn").to_string_lossy()],
        ),
        "the demonstrator",
    );
    // DAgger: the n-tuple network also labels the states of the trained model's own games.
    let labelled = dir.join("labelled.dqn").to_string_lossy().to_string();
    let player = dir.join("player.dqn").to_string_lossy().to_string();
    std::fs::copy(&model, &player).unwrap();
    let out = succeeds(&args(
        "2048 train --init {} --steps 100 --chunk 100 --filters 4,4 --hidden 16 --batch 16 \
         --eval-games 2 --seed 4 --demonstrations {} --demo-games 2 --demo-transitions 3000 \
         --label-games-of {} --labelled-games 3 --labelled-transitions 500 --pretrain-steps 100 \
         --out {}",
        &[&model, ntuple, &player, &labelled],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("3500 demonstrated transitions from"),
        "3,000 demonstrated and 500 labelled moves:\n{stderr}"
    );
    let m = manifest(&labelled);
    let recorded = &m["setup"]["demonstrations"]["labelled"];
    let player_path = std::fs::canonicalize(&player).unwrap();
    assert_eq!(recorded["model"], player_path.to_string_lossy().as_ref());
    assert_eq!(
        (
            recorded["games"].as_u64(),
            recorded["maxTransitions"].as_u64()
        ),
        (Some(3), Some(500))
    );
    assert!(m["reward"].as_str().unwrap().contains("(DAgger)"));
    // A resume labels the same games again; a player file changed since is refused.
    let out = succeeds(&args(
        "2048 train --resume {} --steps 200 --chunk 100 --eval-games 2",
        &[&labelled],
    ));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("3500 demonstrated transitions"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::copy(&labelled, &player).unwrap();
    fails_with(
        &args(
            "2048 train --resume {} --steps 300 --chunk 100 --eval-games 2",
            &[&labelled],
        ),
        "has changed since the run started",
    );
    // So is a demonstrator file changed since.
    let demonstrator = dir
        .join("demonstrator.ntuple.gz")
        .to_string_lossy()
        .to_string();
    std::fs::copy(ntuple, &demonstrator).unwrap();
    let short = dir.join("short.dqn").to_string_lossy().to_string();
    succeeds(&args(
        "2048 train --steps 20 --chunk 10 --filters 4,4 --hidden 16 --batch 16 --eval-games 1 \
         --demonstrations {} --demo-games 1 --demo-transitions 100 --pretrain-steps 10 --out {}",
        &[&demonstrator, &short],
    ));
    std::fs::write(&demonstrator, b"another file").unwrap();
    let out = fails_with(
        &args(
            "2048 train --resume {} --steps 30 --chunk 10 --eval-games 1",
            &[&short],
        ),
        "has changed since the run started",
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("the demonstrator"));
    // The player must be a model of the same puzzle.
    fails_with(
        &args(
            "2048 train --steps 10 --demonstrations {} --label-games-of {} --out {}",
            &[ntuple, ntuple, &dir.join("y.dqn").to_string_lossy()],
        ),
        "the labelled games' player",
    );
}

#[test]
fn the_minesweeper_dqn_trains_resumes_and_plays_any_board_from_the_command_line() {
    let dir = scratch("dqn-minesweeper");
    let model = dir.join("cells.dqn").to_string_lossy().to_string();
    let out = succeeds(&args(
        "minesweeper train --level beginner --layers 2 --filters 8 --envs 2 --steps 200 \
         --chunk 100 --eval-games 20 --seed 3 --out {}",
        &[&model],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("validation: 20 games: won"), "{stderr}");
    assert!(
        !stderr.contains("loss -"),
        "gradient steps were taken: {stderr}"
    );
    let m = manifest(&model);
    assert_eq!(m["puzzle"], "minesweeper-9x9-10-condensed");
    assert_eq!(m["setup"]["first_click"], "safe");
    assert_eq!(m["setup"]["net"], "cells");
    assert_eq!(m["hyperparameters"]["backupVisited"], true);
    assert_eq!(
        m["hyperparameters"]["grid"]["layers"],
        serde_json::json!([[8, 3], [8, 3]])
    );
    assert_eq!(m["validation"]["games"], 20);
    assert_eq!(m["steps"], 200);

    let out = succeeds(&args(
        "minesweeper train --resume {} --steps 300 --chunk 100 --eval-games 10",
        &[&model],
    ));
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming at step 200"));
    fails_with(
        &args(
            "minesweeper train --resume {} --steps 400 --layers 3",
            &[&model],
        ),
        "--layers cannot change",
    );
    // Flags with defaults too: the board and the network are the model's (they were ignored).
    for flag in ["--net conv-dense", "--level expert", "--first-click safe"] {
        fails_with(
            &args(
                &format!("minesweeper train --resume {{}} --steps 400 {flag}"),
                &[&model],
            ),
            &format!("{} cannot change", flag.split(' ').next().unwrap()),
        );
    }
    assert_eq!(manifest(&model)["steps"], 300);

    // The same model plays expert boards (fully convolutional), on the solver's seeded games.
    let eval = |level: &str| {
        let line = "minesweeper eval --agent dqn --model {} --level {} --games 30 --seed 8";
        common::json(&succeeds(&args(line, &[&model, level])))
    };
    let expert = eval("expert");
    assert_eq!(expert["agent"], "dqn");
    assert_eq!(expert["games"], 30);
    assert_eq!(expert["board"]["width"], 30);
    assert_eq!(eval("expert")["wins"], expert["wins"], "seeded games");

    // The conv-dense network (Mehta's) is tied to its board; `--net paper` is its former name.
    let conv_dense = dir.join("conv-dense.dqn").to_string_lossy().to_string();
    succeeds(&args(
        "minesweeper train --net paper --level beginner --steps 30 --chunk 30 --replay 500 \
         --eval-games 5 --out {}",
        &[&conv_dense],
    ));
    let m = manifest(&conv_dense);
    assert_eq!(
        m["hyperparameters"]["grid"]["layers"],
        serde_json::json!([[16, 4], [32, 3], [64, 2]])
    );
    assert_eq!(m["setup"]["net"], "conv-dense");
    // A manifest written before the renames records the setup as `rules` and names the network
    // `paper`: resuming reads it and records the current names.
    let text = std::fs::read_to_string(format!("{conv_dense}.json")).unwrap();
    let old = text
        .replace("\"net\": \"conv-dense\"", "\"net\": \"paper\"")
        .replace("\"setup\":", "\"rules\":");
    assert_ne!(old, text, "the manifest names its network");
    std::fs::write(format!("{conv_dense}.json"), old).unwrap();
    let out = succeeds(&args(
        "minesweeper train --resume {} --steps 40 --chunk 10 --eval-games 5",
        &[&conv_dense],
    ));
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming at step 30"));
    assert_eq!(manifest(&conv_dense)["setup"]["net"], "conv-dense");
    fails_with(
        &args(
            "minesweeper eval --agent dqn --model {} --level expert --games 2",
            &[&conv_dense],
        ),
        "the model was made for",
    );
    fails_with(
        &args("minesweeper eval --agent dqn --level beginner", &[]),
        "--agent dqn needs --model FILE",
    );
    let corrupt = dir.join("corrupt.dqn").to_string_lossy().to_string();
    write_damaged_copy(&model, &corrupt);
    fails_with(
        &args(
            "minesweeper eval --agent dqn --model {} --level beginner",
            &[&corrupt],
        ),
        "checksum",
    );
}

#[test]
fn the_sudoku_dqn_trains_resumes_and_evaluates_by_bin_from_the_command_line() {
    let dir = scratch("dqn-sudoku");
    let model = dir.join("cells.dqn").to_string_lossy().to_string();
    let out = succeeds(&args(
        "sudoku train --net cells --filters 8 --puzzles 30 --givens 26,28 --steps 60 --chunk 30 \
         --batch 8 --eval-per-bin 3 --seed 5 --out {}",
        &[&model],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("validation: easy"), "{stderr}");
    let m = manifest(&model);
    assert_eq!(m["puzzle"], "sudoku-9x9-features");
    assert_eq!(m["setup"]["net"], "cells");
    assert_eq!(m["setup"]["givens"], serde_json::json!([26, 28]));
    assert_eq!(m["validation_size"], 9, "3 puzzles of each bin");
    assert_eq!(m["parameters"], (11 * 8 + 8) + (8 * 8 + 8) + (8 + 1));
    for bin in ["easy", "medium", "hard"] {
        assert_eq!(m["validation"][bin]["puzzles"], 3, "{bin}");
        assert!(
            m["validation"][bin]["published_solved_rate"]
                .as_f64()
                .unwrap()
                > 0.0
        );
    }
    assert_eq!(m["steps"], 60);

    let out = succeeds(&args(
        "sudoku train --resume {} --steps 90 --chunk 30 --eval-per-bin 2",
        &[&model],
    ));
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming at step 60"));
    assert_eq!(manifest(&model)["steps"], 90);
    fails_with(
        &args(
            "sudoku train --resume {} --steps 120 --filters 16",
            &[&model],
        ),
        "--filters cannot change",
    );
    for flag in ["--net dense", "--puzzles 50", "--givens 30"] {
        fails_with(
            &args(
                &format!("sudoku train --resume {{}} --steps 120 {flag}"),
                &[&model],
            ),
            &format!("{} cannot change", flag.split(' ').next().unwrap()),
        );
    }
    fails_with(&["sudoku", "train", "--net", "cells"], "--steps");
    // `dense` (Mehta's one dense layer) and its former name `paper` are both networks.
    fails_with(&["sudoku", "train", "--net", "dense"], "--steps");
    fails_with(&["sudoku", "train", "--net", "paper"], "--steps");

    let eval = || {
        let line = "sudoku eval --model {} --per-bin 4 --seed 9 --givens 26";
        common::json(&succeeds(&args(line, &[&model])))
    };
    let report = eval();
    assert_eq!(report["puzzle"], "sudoku-9x9-features");
    assert_eq!(report["bins"]["easy"]["puzzles"], 4);
    let again = eval();
    for bin in ["easy", "medium", "hard"] {
        for key in ["solved", "filled_fraction"] {
            let (a, b) = (&again["bins"][bin][key], &report["bins"][bin][key]);
            assert_eq!(a, b, "seeded puzzles, greedy play: {bin} {key}");
        }
    }

    // Puzzles from a file, binned by the solver's guesses; a bad line names itself.
    let file = dir.join("puzzles.txt").to_string_lossy().to_string();
    std::fs::write(
        &file,
        "# two puzzles\n..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n\n",
    )
    .unwrap();
    let from_file = args("sudoku eval --model {} --file {}", &[&model, &file]);
    assert_eq!(
        common::json(&succeeds(&from_file))["bins"]["easy"]["puzzles"],
        1
    );
    std::fs::write(&file, "12345\n").unwrap();
    fails_with(&from_file, "puzzles.txt:1");

    // A model of another puzzle, and a damaged one, are refused.
    let other = dir.join("other.dqn").to_string_lossy().to_string();
    succeeds(&args(
        "minesweeper train --level beginner --layers 1 --filters 4 --steps 10 --chunk 10 \
         --eval-games 2 --out {}",
        &[&other],
    ));
    fails_with(
        &args("sudoku eval --model {}", &[&other]),
        "sudoku-9x9 or sudoku-9x9-features",
    );
    let corrupt = dir.join("corrupt.dqn").to_string_lossy().to_string();
    write_damaged_copy(&model, &corrupt);
    fails_with(&args("sudoku eval --model {}", &[&corrupt]), "checksum");
}

#[test]
fn the_dust_dqns_train_resume_and_play_seeded_boards_from_the_command_line() {
    let dir = scratch("dqn-dust");
    let model = dir.join("backups.dqn").to_string_lossy().to_string();
    let train = |extra: &[&str]| {
        let mut args = vec!["dust", "train", "--chunk", "15", "--eval-boards", "5"];
        args.extend_from_slice(extra);
        succeeds(&args)
    };
    let out = train(&args(
        "--hidden 16,16 --batch 8 --steps 30 --seed 2 --out {}",
        &[&model],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("validation: 5 boards"), "{stderr}");
    let m = manifest(&model);
    assert_eq!(m["setup"]["net"], "backups");
    assert_eq!(m["hyperparameters"]["fullBackups"], true);
    assert_eq!(m["hyperparameters"]["gamma"], 1.0);
    assert_eq!(m["hyperparameters"]["meanNextQ"], false);
    // 9 planes of 48 cells: the one-hot six and the three features.
    assert_eq!(
        m["parameters"],
        (432 * 16 + 16) + (16 * 16 + 16) + (16 * 48 + 48)
    );
    assert_eq!(m["validation"]["boards"], 5);
    assert!(m["validation"]["mean_clicks"].as_f64().unwrap() >= 5.0);
    assert!(m["validation"]["mean_clicks_greedy"].as_f64().unwrap() >= 5.0);
    assert_eq!(m["validation"]["play"], "lookahead");
    assert_eq!(
        m["validation"]["mean_clicks"],
        m["validation"]["mean_clicks_lookahead"]
    );
    assert_eq!(m["puzzle"], "dust-8x6-c5-features");
    assert_eq!(m["steps"], 30);

    let out = train(&["--resume", &model, "--steps", "45"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming at step 30"));
    assert_eq!(manifest(&model)["steps"], 45);
    fails_with(
        &args("dust train --resume {} --steps 60 --hidden 8", &[&model]),
        "--hidden cannot change",
    );
    fails_with(
        &args("dust train --resume {} --steps 60 --target mean", &[&model]),
        "--target cannot change",
    );

    // The batched DQN (the blog's learner) with its mean target: replayed play of many games at
    // once. `--net blog` is its former name.
    let batched = dir.join("batched.dqn").to_string_lossy().to_string();
    train(&args(
        "--net blog --target mean --hidden 16 --envs 20 --batch 20 --replay 40 --steps 6 --out {}",
        &[&batched],
    ));
    let m = manifest(&batched);
    assert_eq!(
        m["setup"]["net"], "batched",
        "`--net blog` is the batched DQN's former name"
    );
    assert_eq!(m["puzzle"], "dust-8x6-c5");
    assert_eq!(m["validation"]["play"], "greedy");
    assert_eq!(m["hyperparameters"]["meanNextQ"], true);
    assert_eq!(m["hyperparameters"]["numEnvs"], 20);
    assert_eq!(m["hyperparameters"]["fullBackups"], false);

    // Play among the piles clears every board; the same boards give the same clicks.
    let eval_with = |extra: &[&str]| {
        let line = "dust eval --agent dqn --model {} --boards 6 --seed 9 --compare false";
        common::json(&succeeds(&[&args(line, &[&model])[..], extra].concat()))
    };
    let eval = |play: &str| eval_with(&["--play", play]);
    let boards_counted = |report: &Value| -> u64 {
        let distribution = report["distribution"].as_object().unwrap();
        distribution.values().map(|v| v.as_u64().unwrap()).sum()
    };
    let report = eval("auto");
    assert_eq!(report["agent"], "dqn");
    assert_eq!(report["boards"], 6);
    assert_eq!(boards_counted(&report), 6);
    let mean = report["mean_clicks"].as_f64().unwrap();
    assert!((5.0..=48.0).contains(&mean), "{report}");
    assert_eq!(eval("auto")["mean_clicks"], report["mean_clicks"]);
    // The backups learner plays with lookahead unless told otherwise.
    let lookahead = eval("lookahead");
    assert_eq!(lookahead["play"], "lookahead");
    assert_eq!(report["mean_clicks"], lookahead["mean_clicks"]);
    let greedy = eval("greedy")["mean_clicks"].as_f64().unwrap();
    assert!((5.0..=48.0).contains(&greedy));
    // A beam over the network's values (width from --beam-width) clears every board too.
    let beam = eval_with(&["--play", "beam", "--beam-width", "4"]);
    assert_eq!(beam["play"], "beam");
    assert_eq!(boards_counted(&beam), 6);
    assert!(
        (5.0..=48.0).contains(&beam["mean_clicks"].as_f64().unwrap()),
        "{beam}"
    );
    fails_with(&["dust", "eval", "--agent", "dqn"], "--model");
}

#[test]
fn batch_weighted_astar_over_the_shipped_8_puzzle_network_solves_uniform_positions() {
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/www/models/8puzzle.dqn");
    let report = common::json(&succeeds(&args(
        "sliding eval --model {} --per-distance 1 --uniform-positions 20 --seed 11 \
         --bwas-lambda 1 --bwas-batch 10",
        &[model],
    )));
    let bwas = &report["bwas_uniform"];
    assert_eq!(bwas["positions"], 20);
    assert_eq!(bwas["solved"], 20, "{bwas}");
    // Never shorter than the optimum (extra moves are counted from it, so never negative), and
    // the 8-puzzle network's estimates are close enough that most solutions are optimal.
    assert!(bwas["mean_extra_moves_when_solved"].as_f64().unwrap() >= 0.0);
    assert!(bwas["optimal"].as_u64().unwrap() >= 15, "{bwas}");
    assert_eq!(bwas["settings"]["batch"], 10);
    fails_with(
        &args("sliding eval --model {} --bwas-lambda 1", &[model]),
        "--uniform-positions",
    );
    fails_with(
        &args(
            "sliding eval --model {} --uniform-positions 2 --bwas-lambda 0",
            &[model],
        ),
        "above 0",
    );
}

#[test]
fn cost_to_go_data_train_resume_and_eval_end_to_end() {
    let dir = scratch("dqn_cli_cost_to_go");
    let path = |name: &str| dir.join(name).to_string_lossy().to_string();
    let (data, model) = (path("paths.txt"), path("values.dqn"));
    // `cost-to-go data` for `positions` solutions drawn from `seed`, into the data file.
    let make_data = |positions: &'static str, seed: &'static str| {
        let line = "sliding cost-to-go data --positions {} --seed {} --out {}";
        args(line, &[positions, seed, &data])
    };
    // Three optimal solutions, then two more: the file is continued, not redone.
    succeeds(&make_data("3", "5"));
    let first = std::fs::read_to_string(&data).unwrap();
    succeeds(&make_data("5", "5"));
    let text = std::fs::read_to_string(&data).unwrap();
    assert!(text.starts_with(&first));
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(text.lines().filter(|l| l.starts_with('#')).count(), 1);
    // Another seed is refused; a line left unfinished by a stop is dropped and solved again.
    fails_with(&make_data("6", "6"), "written with another --seed");
    std::fs::write(&data, format!("{text}{}", &lines[0][..20])).unwrap();
    succeeds(&make_data("5", "5"));
    assert_eq!(std::fs::read_to_string(&data).unwrap(), text);
    for line in &lines {
        let (_, moves) = line.split_once(' ').unwrap();
        assert!(
            moves.len() >= 20 && moves.chars().all(|c| "udlr".contains(c)),
            "{line}"
        );
    }

    let train_args =
        |hidden: &'static str, epochs: &'static str, batch: &'static str, resume: bool| {
            let mut train = args(
                "sliding cost-to-go train --data {} --validation {} --hidden {} --epochs {} \
                 --batch {} --seed 1 --out {}",
                &[&data, &data, hidden, epochs, batch, &model],
            );
            if resume {
                train.push("--resume");
            }
            train
        };
    let train = |hidden: &'static str, epochs: &'static str, resume: bool| {
        puzzlelab(&train_args(hidden, epochs, "32", resume))
    };
    let out = train("16", "2", false);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr)
            .matches("validation MAE")
            .count(),
        2
    );
    let m = manifest(&model);
    assert_eq!(m["epochs_done"], 2);
    assert_eq!(m["hyperparameters"]["hidden"], serde_json::json!([16]));
    assert_eq!(m["data"][0]["paths"], 5);
    // Every position of every path (the mirror images are added to these for training).
    let examples: u64 = lines
        .iter()
        .map(|l| l.split_once(' ').unwrap().1.len() as u64 + 1)
        .sum();
    assert_eq!(m["data"][0]["examples"], examples);
    assert!(train("16", "3", true).status.success());
    let m = manifest(&model);
    assert_eq!(m["epochs_done"], 3);
    assert_eq!(m["commands"].as_array().unwrap().len(), 2);
    assert_eq!(m["epochs_log"].as_array().unwrap().len(), 3);
    let refused = train("8", "4", true);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--hidden differs"));
    fails_with(&train_args("16", "4", "64", true), "the same flags");
    let done = train("16", "3", true);
    assert!(!done.status.success(), "3 epochs are done already");

    // The value network plays through the searches that read Q-networks.
    let report = common::json(&succeeds(&args(
        "sliding cost-to-go eval --model {} --positions 2 --seed 3 --max-nodes 20000 \
         --record check",
        &[&model],
    )));
    assert_eq!(report["positions"], 2);
    assert_eq!(manifest(&model)["evaluations"]["check"]["seed"], 3);
    // `solve --algo dqn` takes a value network (it used to refuse its single output).
    let solved = common::json(&succeeds(&args(
        "sliding solve --algo dqn --model {} --size 4x4 1,2,3,4,5,6,7,8,9,10,11,12,13,14,_,15",
        &[&model],
    )));
    assert_eq!(solved["length"], 1, "{solved}");

    let bad = path("bad.txt");
    std::fs::write(&bad, "1,2,3,4,5,6,7,8,9,10,11,12,13,14,_,15 l\n").unwrap();
    fails_with(
        &args(
            "sliding cost-to-go train --data {} --validation {} --out {}",
            &[&bad, &data, &path("x.dqn")],
        ),
        "line 1: the moves do not reach the goal",
    );
}

#[test]
fn a_run_killed_between_its_model_and_its_manifest_resumes_from_a_matching_pair() {
    let dir = scratch("dqn_cli_kill");
    let model = dir.join("killed.dqn").to_string_lossy().to_string();
    let train = "sliding train --size 2x3 --steps 900 --seed 3 --hidden 16 --batch 16 \
                 --replay 2000 --warmup 5 --difficulty 3 --chunk 300 --checkpoint-every 300 \
                 --eval-every 100000 --per-distance 1 --out {}";
    // Killed right after the second checkpoint's model is in place, before its manifest.
    let killed = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
        .args(args(train, &[&model]))
        .env("PUZZLELAB_FAULT", "between-model-and-manifest:2")
        .output()
        .unwrap();
    assert_eq!(
        killed.status.code(),
        Some(137),
        "the fault hook stops the run"
    );
    let bytes = std::fs::read(&model).unwrap();
    let behind = manifest(&model);
    assert_eq!(
        behind["steps"], 300,
        "the manifest is one checkpoint behind its model"
    );
    let checksum = format!("{:016x}", puzzlelab::checksum::fnv1a(&bytes));
    assert_ne!(behind["model_fnv1a"], checksum.as_str());

    // Resuming finishes the interrupted write: the model's own manifest, not the older one.
    let resumed = succeeds(&args(
        "sliding train --steps 1200 --chunk 300 --checkpoint-every 300 --eval-every 100000 \
         --per-distance 1 --resume {} --out {}",
        &[&model, &model],
    ));
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        stderr.contains("finished the write a stopped run left"),
        "{stderr}"
    );
    assert!(
        stderr.contains("step 900 ") || stderr.contains("step 900/"),
        "it goes on from the model's 600 steps, not the manifest's 300:\n{stderr}"
    );
    let m = manifest(&model);
    assert_eq!(m["steps"], 1200);
    let bytes = std::fs::read(&model).unwrap();
    assert_eq!(
        m["model_fnv1a"],
        format!("{:016x}", puzzlelab::checksum::fnv1a(&bytes)).as_str(),
        "the manifest records the checksum of the model beside it"
    );

    // A model that is not the manifest's (another run's) is refused, with which is newer.
    let other = dir.join("other.dqn").to_string_lossy().to_string();
    succeeds(&args(
        "sliding train --size 2x3 --steps 300 --seed 4 --hidden 16 --batch 16 --replay 2000 \
         --warmup 5 --difficulty 3 --chunk 300 --eval-every 100000 --per-distance 1 --out {}",
        &[&other],
    ));
    std::fs::copy(&other, &model).unwrap();
    let refused = fails_with(
        &args(
            "sliding train --steps 1500 --resume {} --out {}",
            &[&model, &model],
        ),
        "does not match its manifest",
    );
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains(&format!("{model} was written after {model}.json"))
            && stderr.contains("train again without --resume"),
        "{stderr}"
    );
}

/// A build without the GPU feature says how to get one.
#[cfg(not(feature = "gpu"))]
#[test]
fn training_on_the_gpu_needs_the_gpu_build() {
    fails_with(
        &[
            "sliding", "train", "--size", "2x3", "--steps", "10", "--device", "gpu",
        ],
        "--device gpu needs the GPU build: cargo build --release --features gpu",
    );
}

#[test]
fn models_average_into_one_whose_manifest_lists_every_input_and_command() {
    let dir = scratch("dqn_cli_average");
    let [a, b, mean, wide] = ["a.dqn", "b.dqn", "mean.dqn", "wide.dqn"]
        .map(|f| dir.join(f).to_string_lossy().to_string());
    train_tiny_sliding_model(&a);
    let tiny = "sliding train --size 2x3 --steps 50 --warmup 1 --batch 8 --per-distance 1";
    succeeds(&args(
        &format!("{tiny} --hidden 8 --seed 5 --out {{}}"),
        &[&b],
    ));
    let models = format!("{a},{b}");
    let out = succeeds(&args(
        "sliding average --models {} --shares 3,1 --out {}",
        &[&models, &mean],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("validation:"), "{stderr}");

    // The weights are the weighted mean: the last parameter_count × 4 bytes of each file.
    let weights = |path: &str| -> Vec<f32> {
        let bytes = std::fs::read(path).unwrap();
        let count = manifest(path)["parameters"].as_u64().unwrap() as usize;
        (bytes[bytes.len() - 4 * count..].chunks_exact(4))
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    };
    let (wa, wb, wm) = (weights(&a), weights(&b), weights(&mean));
    assert_ne!(wa, wb, "two seeds, two models");
    for ((x, y), m) in wa.iter().zip(&wb).zip(&wm) {
        assert!((0.75 * x + 0.25 * y - m).abs() < 1e-6, "{x} {y} {m}");
    }

    let m = manifest(&mean);
    let inputs = m["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 2);
    assert_eq!(inputs[0]["share"], 3.0);
    assert_eq!(inputs[1]["model_fnv1a"], manifest(&b)["model_fnv1a"]);
    let commands: Vec<&str> = (m["commands"].as_array().unwrap().iter())
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(commands.len(), 3, "{commands:?}");
    assert!(commands[1].contains("--seed 5") && commands[2].contains("sliding average"));
    assert!(m["validation"]["overall"]["positions"].as_u64().unwrap() > 0);
    assert!(
        m.get("training_curve").is_none(),
        "the inputs' curves are not the mean's"
    );
    succeeds(&args("sliding eval --model {} --per-distance 1", &[&mean]));

    // Models of other networks, or shares that do not fit, are refused in words.
    succeeds(&args(&format!("{tiny} --hidden 4 --out {{}}"), &[&wide]));
    let mixed = format!("{a},{wide}");
    fails_with(
        &args("sliding average --models {} --out {}", &[&mixed, &mean]),
        "has another network than",
    );
    let stepped = dir.join("steps.dqn").to_string_lossy().to_string();
    succeeds(&args(
        &format!("{tiny} --hidden 8 --reward steps --out {{}}"),
        &[&stepped],
    ));
    let rewards = format!("{a},{stepped}");
    fails_with(
        &args("sliding average --models {} --out {}", &[&rewards, &mean]),
        "has another reward than",
    );
    // A model averaged with itself: one run, its time counted once.
    let twice = format!("{a},{a}");
    succeeds(&args(
        "sliding average --models {} --out {}",
        &[&twice, &mean],
    ));
    let m = manifest(&mean);
    let once =
        manifest(&a)["wall_seconds"].as_f64().unwrap() + m["average_seconds"].as_f64().unwrap();
    assert!(
        (m["wall_seconds"].as_f64().unwrap() - once).abs() < 0.11,
        "{m}"
    );
    assert_eq!(m["commands"].as_array().unwrap().len(), 2);
    assert_eq!(weights(&mean), wa, "a model's mean with itself is itself");
    fails_with(
        &args(
            "sliding average --models {} --shares 1 --out {}",
            &[&models, &mean],
        ),
        "1 shares for 2 models: give one share a model",
    );
    fails_with(
        &args(
            "sliding average --models {} --shares 1,0 --out {}",
            &[&models, &mean],
        ),
        "each model's share must be a positive number",
    );
}
