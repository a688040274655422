//! The dust DQNs: train, resume and play seeded boards.

use crate::common::{args, fails_with, manifest, scratch, succeeds};
use serde_json::Value;

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
        crate::common::json(&succeeds(&[&args(line, &[&model])[..], extra].concat()))
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
