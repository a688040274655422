//! `puzzlelab dust value-data`, `value-train` and `eval --agent dqn` with a value network, end to
//! end: the data file continued, training resumed, the model played by a beam search, and clear
//! errors.
#![cfg(feature = "learn")]

mod common;

use common::{args, fails_with, json, manifest, scratch, succeeds};

#[test]
fn dust_value_data_train_resume_and_beam_play_end_to_end() {
    let dir = scratch("dust_value_cli");
    let path = |name: &str| dir.join(name).to_string_lossy().to_string();
    let (data, validation, model) = (path("train.txt"), path("valid.txt"), path("value.dqn"));
    let make_data = |examples: &'static str, seed: &'static str, out: &str| {
        succeeds(&args(
            "dust value-data --examples {} --seed {} --fewest 6 --most 9 --max-nodes 400000 \
             --threads 2 --out {}",
            &[examples, seed, out],
        ))
    };
    // Four examples, then six: the file is continued, its lines kept.
    make_data("4", "1", &data);
    let first = std::fs::read_to_string(&data).unwrap();
    let out = json(&make_data("6", "1", &data));
    assert_eq!(out["already_there"], 4);
    assert_eq!(out["drawn_now"], 2);
    let text = std::fs::read_to_string(&data).unwrap();
    assert!(text.starts_with(&first));
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 6);
    let mut indices: Vec<usize> = lines
        .iter()
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    indices.sort();
    assert_eq!(indices, (0..6).collect::<Vec<_>>());
    fails_with(
        &args("dust value-data --examples 8 --seed 2 --out {}", &[&data]),
        "another --seed or other settings",
    );
    make_data("3", "2", &validation);
    // Another command's file (here one cut off mid-line) is refused and left as it was.
    let foreign = path("notes.txt");
    std::fs::write(&foreign, "some notes\nno newline at the end").unwrap();
    fails_with(
        &args(
            "dust value-data --examples 2 --seed 1 --out {}",
            &[&foreign],
        ),
        "is not a file of `dust value-data`",
    );
    assert_eq!(
        std::fs::read_to_string(&foreign).unwrap(),
        "some notes\nno newline at the end"
    );

    // `dust value-train` on these files with a batch of `batch` (and `extra` flags).
    let train_args = |batch: &'static str, extra: &[&'static str]| {
        let line = "dust value-train --data {} --validation {} --hidden 32,32 --batch {} --out {}";
        [&args(line, &[&data, &validation, batch, &model])[..], extra].concat()
    };
    let train = |extra: &[&'static str]| {
        let mut flags = vec!["--eval-boards", "3"];
        flags.extend_from_slice(extra);
        succeeds(&train_args("16", &flags))
    };
    train(&["--epochs", "2"]);
    let m = manifest(&model);
    assert_eq!(m["puzzle"], "dust-8x6-c5-counts");
    assert_eq!(m["epochs_done"], 2);
    assert_eq!(m["architecture"]["observation_len"], 664);
    assert_eq!(m["data"][0]["drawn"], 6);
    assert!(m["data"][0]["examples"].as_u64().unwrap() >= 5);
    // The validation positions' errors, and the finished model on 3 validation boards.
    assert!(m["validation"]["mean_absolute"].is_null(), "moved");
    assert!(m["validation_positions"]["mean_absolute"].as_f64().unwrap() >= 0.0);
    assert_eq!(m["validation_boards"], 3);
    assert_eq!(m["validation"]["boards"], 3);
    assert!(m["validation"]["mean_clicks"].as_f64().unwrap() >= 5.0);
    assert!(
        m["epochs_log"][1]["validation"]["mean_absolute"]
            .as_f64()
            .unwrap()
            >= 0.0
    );
    train(&["--epochs", "3", "--resume"]);
    assert_eq!(manifest(&model)["epochs_done"], 3);
    fails_with(
        &train_args("8", &["--epochs", "4", "--resume"]),
        "--resume goes on with the same flags",
    );
    // Resumed without boards played: the errors on held-out positions stand alone.
    succeeds(&train_args(
        "16",
        &["--epochs", "4", "--resume", "--eval-boards", "0"],
    ));
    let m = manifest(&model);
    assert_eq!(m["epochs_done"], 4);
    assert!(m["validation_boards"].is_null() && m["validation_positions"].is_null());
    assert!(m["validation"]["mean_absolute"].as_f64().unwrap() >= 0.0);

    // The value network plays by a beam search: auto is the default width, lookahead a beam of
    // one; every board is cleared, and the same boards give the same clicks.
    let eval = |extra: &[&str]| {
        let line = "dust eval --agent dqn --model {} --boards 2 --seed 9 --compare false";
        json(&succeeds(&[&args(line, &[&model])[..], extra].concat()))
    };
    let auto = eval(&["--play", "auto"]);
    // Two boards counted, both cleared: a board left uncleared would count as 0 clicks, and no
    // full board of five colours clears in fewer than five.
    let distribution = auto["distribution"].as_object().unwrap();
    let counted: u64 = distribution.values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(counted, 2);
    assert!(
        distribution
            .keys()
            .all(|k| k.parse::<usize>().unwrap() >= 5),
        "{auto}"
    );
    assert_eq!(
        eval(&["--play", "auto"])["mean_clicks"],
        auto["mean_clicks"]
    );
    let beam = eval(&["--play", "beam", "--beam-width", "100"]);
    assert_eq!(
        beam["mean_clicks"], auto["mean_clicks"],
        "auto is a beam of 100"
    );
    let one = eval(&["--play", "lookahead"]);
    let narrow = eval(&["--play", "beam", "--beam-width", "1"]);
    assert_eq!(one["mean_clicks"], narrow["mean_clicks"]);
    fails_with(
        &args(
            "dust eval --agent dqn --model {} --boards 2 --play greedy",
            &[&model],
        ),
        "a value network gives no value per click",
    );
}
