//! The 2048 DQN: train, resume and evaluate, and learn from the shipped n-tuple network's demonstrations.

use crate::common::{args, fails_with, manifest, scratch, succeeds};
use crate::train_tiny_sliding_model;
use serde_json::Value;

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
        crate::common::json(&succeeds(&args(line, &[&model, seed])))
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
