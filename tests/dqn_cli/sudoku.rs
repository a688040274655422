//! The Sudoku DQN: train, resume and evaluate by bin.

use crate::common::{args, fails_with, manifest, scratch, succeeds};
use crate::write_damaged_copy;

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
        crate::common::json(&succeeds(&args(line, &[&model])))
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
        crate::common::json(&succeeds(&from_file))["bins"]["easy"]["puzzles"],
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
