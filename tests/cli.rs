//! The `puzzlelab` command line: one JSON object per position, errors as objects, stdin input.

mod common;

use common::{json, json_lines, puzzlelab, puzzlelab_with_input};

fn run(args: &[&str], stdin: &str) -> (i32, Vec<serde_json::Value>, String) {
    let out = puzzlelab_with_input(args, stdin);
    (
        out.status.code().unwrap(),
        json_lines(&out),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn solve_prints_one_json_object_per_position() {
    let input = "# a comment\n1,2,3,4,5,6,_,7,8\n\n7,2,4,5,_,6,8,3,1\n2,1,3,4,5,6,7,8,_\n1,2,3,4,5,6,7,8,8\n";
    let (code, values, _) = run(
        &[
            "sliding",
            "solve",
            "--algo",
            "astar",
            "--heuristic",
            "manhattan",
        ],
        input,
    );
    assert_eq!(code, 0);
    assert_eq!(values.len(), 4);
    assert_eq!(values[0]["length"], 2);
    assert_eq!(values[0]["moves"], serde_json::json!(["right", "right"]));
    assert_eq!(values[0]["tiles"], serde_json::json!([7, 8]));
    assert_eq!(values[0]["optimal"], true);
    assert!(values[0]["nodes"].as_u64().unwrap() >= 2);
    assert!(values[0]["ms"].as_f64().is_some());
    assert_eq!(
        values[1]["length"], 20,
        "the 26-move example is 26 moves to _,1..8, but 20 to the default goal 1..8,_"
    );
    assert!(values[2]["error"]
        .as_str()
        .unwrap()
        .contains("cannot reach"));
    assert!(values[3]["error"]
        .as_str()
        .unwrap()
        .contains("more than once"));
}

#[test]
fn solve_takes_goal_size_algorithm_and_presets() {
    let (code, values, _) = run(
        &[
            "sliding",
            "solve",
            "7,2,4,5,_,6,8,3,1",
            "--goal",
            "_,1,2,3,4,5,6,7,8",
            "--algo",
            "bfs",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(values[0]["length"], 26);
    assert_eq!(values[0]["algorithm"], "bfs");
    let (_, values, _) = run(&["sliding", "solve", "--size", "2x3", "1 2 3\n_ 4 5"], "");
    assert_eq!(values[0]["length"], 2);
    assert_eq!(values[0]["size"], "2x3");
    let (_, values, _) = run(
        &[
            "sliding",
            "solve",
            "--preset",
            "sun-moon",
            "--algo",
            "qlearning",
            "☼☼☼ ☾☼☾ ☾_☾",
        ],
        "",
    );
    assert_eq!(values[0]["length"], 13);
    assert_eq!(values[0]["optimal"], true);
    let (code, values, _) = run(
        &[
            "sliding",
            "solve",
            "--size",
            "4",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 _ 15",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(values[0]["moves"], serde_json::json!(["right"]));
    let (code, _, stderr) = run(&["sliding", "solve", "--bogus"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("unexpected argument '--bogus'"), "{stderr}");
    let (code, values, _) = run(
        &[
            "sliding",
            "solve",
            "--algo",
            "bfs",
            "--size",
            "4",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 _ 15",
        ],
        "",
    );
    assert_eq!(code, 1, "every position failed");
    assert!(values[0]["error"].as_str().unwrap().contains("BFS"));
}

#[test]
fn table_and_scramble_commands() {
    let (code, _, _) = run(&["sliding", "table"], "");
    assert_eq!(code, 0);
    let v = json(&puzzlelab(&["sliding", "table"]));
    assert_eq!(v["reachable"], 181_440);
    assert_eq!(v["max_distance"], 31);
    let out = puzzlelab(&[
        "sliding",
        "scramble",
        "--exact",
        "--difficulty",
        "20",
        "--count",
        "3",
        "--seed",
        "4",
    ]);
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 3);
    let (_, values, _) = run(&["sliding", "solve", "--algo", "bfs"], &lines.join("\n"));
    assert!(values.iter().all(|v| v["length"] == 20));
}

#[test]
fn solve_runs_weighted_astar_with_a_weight() {
    let start = "5,1,2,3,9,6,7,4,13,10,11,8,_,14,15,12";
    let (code, values, _) = run(
        &[
            "sliding", "solve", "--algo", "wastar", "--weight", "1.5", start,
        ],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(values[0]["algorithm"], "wastar");
    assert_eq!(values[0]["weight"], 1.5);
    assert_eq!(values[0]["lower_bound"], 9);
    assert_eq!(values[0]["length"], 9);
    assert_eq!(values[0]["optimal"], true, "it met the lower bound");
    let (_, values, _) = run(&["sliding", "solve", "--algo", "wastar", start], "");
    assert_eq!(values[0]["weight"], 2.0, "the default weight");
    let (_, values, _) = run(&["sliding", "solve", "--algo", "astar", start], "");
    assert!(values[0]["weight"].is_null());
    let (code, values, _) = run(
        &[
            "sliding", "solve", "--algo", "wastar", "--weight", "0.5", start,
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(values[0]["error"]
        .as_str()
        .unwrap()
        .contains("from 1 to 100"));
    let (code, values, _) = run(
        &[
            "sliding", "solve", "--algo", "idastar", "--weight", "2", start,
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(values[0]["error"].as_str().unwrap().contains("wastar"));
}

#[test]
fn pdb_builds_files_with_manifests_and_solve_uses_them() {
    let dir = std::env::temp_dir().join(format!("puzzlelab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("goal.pdb.gz");
    let goal = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,_,15";
    let out = puzzlelab(&[
        "sliding",
        "pdb",
        "--partition",
        "5-5-5",
        "--goal",
        goal,
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("goal.pdb.gz.json")).unwrap()).unwrap();
    assert_eq!(manifest["partition"], "5-5-5");
    assert_eq!(manifest["goal"], goal);
    assert_eq!(
        manifest["mirrored_lookup"], false,
        "the blank is off the diagonal"
    );
    assert!(manifest["command"]
        .as_str()
        .unwrap()
        .contains("--partition 5-5-5"));
    assert!(manifest["build_ms"].as_f64().unwrap() > 0.0);
    assert_eq!(
        manifest["written_bytes"].as_u64().unwrap(),
        std::fs::metadata(&file).unwrap().len()
    );
    // Solving with the file: IDA* + databases, optimal, and the same length as linear conflicts.
    let position = "5,1,2,3,9,6,7,4,13,10,11,8,14,15,_,12";
    let with_file = [
        "--heuristic",
        "pdb",
        "--pdb",
        file.to_str().unwrap(),
        position,
    ];
    let (code, with_pdb, _) = run(
        &[
            &["sliding", "solve", "--size", "4", "--goal", goal][..],
            &with_file[..],
        ]
        .concat(),
        "",
    );
    assert_eq!(code, 0, "{with_pdb:?}");
    assert_eq!(with_pdb[0]["heuristic"], "pdb-5-5-5");
    assert_eq!(with_pdb[0]["optimal"], true);
    let (_, with_lc, _) = run(
        &["sliding", "solve", "--size", "4", "--goal", goal, position],
        "",
    );
    assert_eq!(with_pdb[0]["length"], with_lc[0]["length"]);
    assert!(with_pdb[0]["nodes"].as_u64() <= with_lc[0]["nodes"].as_u64());
    // The file refuses another goal, and pdb refuses another size.
    let (_, wrong, _) = run(
        &[&["sliding", "solve", "--size", "4"][..], &with_file[..]].concat(),
        "",
    );
    assert!(
        wrong[0]["error"]
            .as_str()
            .unwrap()
            .contains("different goal"),
        "{wrong:?}"
    );
    let (code, _, stderr) = run(
        &[
            "sliding",
            "pdb",
            "--size",
            "3",
            "--out",
            dir.join("x.pdb").to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(stderr.contains("4x4"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_pdb_checks_korf_lengths_and_runs_the_baseline() {
    let out = puzzlelab(&[
        "sliding",
        "bench-pdb",
        "--set",
        "korf",
        "--count",
        "2",
        "--baseline-count",
        "1",
        "--baseline-timeout-ms",
        "50",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let korf = &v["sets"]["korf"];
    assert_eq!(korf["ours"]["all_correct"], true);
    assert_eq!(korf["positions"].as_array().unwrap().len(), 2);
    assert_eq!(korf["positions"][0]["length"], 57, "Korf's instance 1");
    assert_eq!(korf["baseline_positions"].as_array().unwrap().len(), 1);
}

#[test]
fn each_subcommand_takes_only_its_own_flags_and_explains_them() {
    let (code, _, stderr) = run(&["sliding", "table", "--hidden", "3"], "");
    assert_eq!(code, 2, "a usage error");
    assert!(
        stderr.contains("unexpected argument '--hidden'"),
        "{stderr}"
    );
    let (code, _, stderr) = run(&["sliding", "scramble", "--games", "3"], "");
    assert_eq!(code, 2, "{stderr}");
    let (code, _, stderr) = run(&["sliding", "solve", "--algo", "dijkstra", "123456780"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("possible values"), "{stderr}");
    let commands: [(&[&str], &str); 21] = [
        (&["sliding", "solve"], "--heuristic"),
        (&["sliding", "table"], "--preset"),
        (&["sliding", "scramble"], "--exact"),
        (&["sliding", "pdb"], "--partition"),
        (&["sliding", "bench"], "--count"),
        (&["sliding", "bench-pdb"], "--baseline-timeout-ms"),
        (&["sliding", "train"], "--full-backups"),
        (&["sliding", "eval"], "--uniform-positions"),
        (&["sliding", "bench-dqn"], "--steps"),
        (&["sliding", "local-vi", "eval"], "--per-band"),
        (&["sliding", "cost-to-go", "train"], "--data"),
        (&["2048", "train"], "--filters"),
        (&["2048", "eval"], "--agent"),
        (&["2048", "ntuple", "train"], "--tuples"),
        (&["minesweeper", "train"], "--net"),
        (&["minesweeper", "eval"], "--agent"),
        (&["sudoku", "train"], "--net"),
        (&["sudoku", "solve"], "PUZZLES"),
        (&["dust", "train"], "--full-backups"),
        (&["dust", "solve"], "--seconds"),
        (&["samegame", "solve"], "--algo"),
    ];
    for (command, flag) in commands {
        let out = puzzlelab(&[command, &["--help"]].concat());
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{command:?} --help");
        assert!(
            help.contains(flag),
            "{command:?} --help names {flag}:\n{help}"
        );
        let out = puzzlelab(&[&["help"], command].concat());
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            help,
            "help {command:?}"
        );
    }
}

#[test]
fn every_puzzle_is_a_noun_with_its_verbs_in_its_help() {
    let out = puzzlelab(&["--help"]);
    let help = String::from_utf8_lossy(&out.stdout).to_string();
    for puzzle in puzzlelab::puzzles::PUZZLES {
        assert!(
            help.contains(puzzle.id),
            "--help lists {}:\n{help}",
            puzzle.id
        );
        let out = puzzlelab(&[puzzle.id, "--help"]);
        assert!(out.status.success(), "{} --help", puzzle.id);
        let own = String::from_utf8_lossy(&out.stdout);
        assert!(own.contains("Usage: puzzlelab"), "{own}");
        assert!(
            own.contains("Commands:"),
            "{} lists its verbs:\n{own}",
            puzzle.id
        );
    }
    // The old flat spellings are hidden from the help.
    let listed: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut nouns: Vec<&str> = puzzlelab::puzzles::PUZZLES.iter().map(|p| p.id).collect();
    nouns.push("help");
    assert_eq!(listed, nouns, "only the nouns are listed:\n{help}");
}

#[test]
fn the_old_spellings_still_work_and_name_the_new_one_on_stderr() {
    let old_and_new = [
        (vec!["solve", "123456780"], "puzzlelab sliding solve"),
        (vec!["table", "--size", "2x3"], "puzzlelab sliding table"),
        (
            vec!["scramble", "--count", "2"],
            "puzzlelab sliding scramble",
        ),
        (
            vec!["eval-2048", "--agent", "random", "--games", "2"],
            "puzzlelab 2048 eval",
        ),
    ];
    for (old, new) in old_and_new {
        let out = puzzlelab(&old);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{old:?}: {stderr}");
        let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("is now")).collect();
        assert_eq!(lines.len(), 1, "{old:?}: {stderr}");
        assert!(lines[0].contains(&format!("`{new}`")), "{old:?}: {stderr}");
        // The same work as the new spelling (scrambles are seeded: the same text).
        let mut new_args: Vec<&str> = new.split(' ').skip(1).collect();
        new_args.extend(&old[1..]);
        let renamed = puzzlelab(&new_args);
        assert!(renamed.status.success(), "{new_args:?}");
        assert!(!String::from_utf8_lossy(&renamed.stderr).contains("is now"));
        if old[0] == "scramble" {
            assert_eq!(renamed.stdout, out.stdout);
        }
    }
    // Every hidden spelling still parses (its --help works).
    for old in [
        "solve",
        "table",
        "scramble",
        "pdb",
        "bench",
        "bench-pdb",
        "train",
        "eval",
        "bench-dqn",
        "train-2048",
        "eval-2048",
        "train-dqn-2048",
        "eval-dqn-2048",
        "local-vi",
        "cost-to-go",
    ] {
        assert!(puzzlelab(&[old, "--help"]).status.success(), "{old} --help");
    }
}

#[test]
fn solve_uses_the_shipped_pattern_databases_on_their_goals_by_itself() {
    // Korf's instance 1 (57 moves), to Korf's goal: the blank-first databases.
    let korf_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    let goal = "_,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15";
    let (code, values, _) = run(&["sliding", "solve", "--goal", goal, korf_1], "");
    assert_eq!(code, 0, "{values:?}");
    assert_eq!(values[0]["length"], 57);
    assert_eq!(values[0]["optimal"], true);
    assert_eq!(values[0]["heuristic"], "pdb-6-6-3");
    assert!(values[0]["databases"]
        .as_str()
        .unwrap()
        .ends_with("www/models/pdb-4x4-6-6-3-blank-first.pdb.gz"));
    // The standard goal gets the standard databases; another heuristic, when named, wins.
    let position = "5,1,2,3,9,6,7,4,13,10,11,8,14,15,_,12";
    let (_, values, _) = run(&["sliding", "solve", position], "");
    assert_eq!(values[0]["heuristic"], "pdb-6-6-3");
    assert!(values[0]["databases"]
        .as_str()
        .unwrap()
        .ends_with("www/models/pdb-4x4-6-6-3-standard.pdb.gz"));
    let (_, named, _) = run(
        &[
            "sliding",
            "solve",
            "--heuristic",
            "linear-conflict",
            position,
        ],
        "",
    );
    assert_eq!(named[0]["heuristic"], "linear-conflict");
    assert!(named[0].get("databases").is_none());
    assert_eq!(named[0]["length"], values[0]["length"]);
    // A goal without shipped databases keeps linear conflicts.
    let (_, other, _) = run(
        &[
            "sliding",
            "solve",
            "--goal",
            "1,2,3,4,5,6,7,8,9,10,11,12,13,14,_,15",
            position,
        ],
        "",
    );
    assert_eq!(other[0]["heuristic"], "linear-conflict");
}
