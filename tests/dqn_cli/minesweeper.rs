//! The Minesweeper DQN: train, resume and play any board.

use crate::common::{args, fails_with, manifest, scratch, succeeds};
use crate::write_damaged_copy;

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
        crate::common::json(&succeeds(&args(line, &[&model, level])))
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
