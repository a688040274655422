//! The sliding DQN: train, evaluate, resume and solve a tiny 2×3 model; damaged and foreign files; what a
//! run records and keeps on resume; batch-weighted A* over the shipped 8-puzzle network; the cost-to-go data.

use crate::common::{args, fails_with, manifest, puzzlelab, scratch, succeeds};
use crate::{train_tiny_sliding_model, write_damaged_copy};
use serde_json::Value;

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
    let every = &crate::common::json(&out)["every_position"];
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
    let solved = crate::common::json(&succeeds(&args(
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
fn batch_weighted_astar_over_the_shipped_8_puzzle_network_solves_uniform_positions() {
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/www/models/8puzzle.dqn");
    let report = crate::common::json(&succeeds(&args(
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
    let report = crate::common::json(&succeeds(&args(
        "sliding cost-to-go eval --model {} --positions 2 --seed 3 --max-nodes 20000 \
         --record check",
        &[&model],
    )));
    assert_eq!(report["positions"], 2);
    assert_eq!(manifest(&model)["evaluations"]["check"]["seed"], 3);
    // `solve --algo dqn` takes a value network (it used to refuse its single output).
    let solved = crate::common::json(&succeeds(&args(
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

/// `sliding bench-dqn` times the learner the trainer builds (the learners' one bench): both boards,
/// the dissertation's network, gradient steps taken in the timed steps, a greedy move's latency.
#[test]
fn bench_dqn_times_the_dissertation_network_on_both_boards() {
    let out = succeeds(&args("sliding bench-dqn --steps 30 --seed 3", &[]));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(report["backend"], "cpu (flex)");
    let cases = report["cases"].as_array().expect("cases");
    let boards: Vec<&str> = cases
        .iter()
        .map(|c| c["puzzle"].as_str().unwrap())
        .collect();
    assert_eq!(boards, ["3x3", "4x4"]);
    for (case, cells) in cases.iter().zip([9u64, 16]) {
        // One-hot board (cells × cells inputs), three layers of 250, four moves.
        let inputs = cells * cells;
        let parameters = inputs * 250 + 250 + 2 * (250 * 250 + 250) + 250 * 4 + 4;
        assert_eq!(case["parameters"], parameters, "{case}");
        assert_eq!(
            case["network"]["hidden"],
            serde_json::json!([250, 250, 250])
        );
        assert_eq!(case["train_steps"], 30);
        assert!(case["gradient_steps"].as_u64().unwrap() > 0, "{case}");
        assert!(case["train_steps_per_s"].as_f64().unwrap() > 0.0, "{case}");
        let (median, p90) = (
            case["greedy_move_us_median"].as_f64().unwrap(),
            case["greedy_move_us_p90"].as_f64().unwrap(),
        );
        assert!(median > 0.0 && p90 >= median, "{case}");
    }
}
