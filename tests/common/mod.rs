//! What the tests share: running `puzzlelab` (with or without standard input) on arguments
//! written as one line, reading its JSON, checking failures, scratch directories and manifests;
//! and, in `sliding`, searches run to their end and the shipped pattern databases.
// Each test file uses some of these helpers, never all.
#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub mod sliding;

/// The arguments of `line`, split at white space, with each `{}` in it replaced by the next of
/// `values` (which may hold white space: paths, boards). Panics when the counts differ.
pub fn args<'a>(line: &'a str, values: &[&'a str]) -> Vec<&'a str> {
    let mut values = values.iter();
    let args = line
        .split_whitespace()
        .map(|word| match word {
            "{}" => *values.next().expect("a value for every {}"),
            word => word,
        })
        .collect();
    assert!(values.next().is_none(), "a {{}} for every value: {line}");
    args
}

/// Runs `puzzlelab args` with `stdin` as its standard input.
pub fn puzzlelab_with_input(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("puzzlelab starts");
    let mut input = child.stdin.take().expect("piped");
    input.write_all(stdin.as_bytes()).expect("stdin");
    drop(input);
    child.wait_with_output().expect("puzzlelab runs")
}

/// Runs `puzzlelab args` with an empty standard input.
pub fn puzzlelab(args: &[&str]) -> Output {
    puzzlelab_with_input(args, "")
}

/// Standard output and error as text.
pub fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// One JSON value per line of standard output.
pub fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// Standard output as one JSON document.
pub fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// Runs `puzzlelab args` and asserts it succeeded (printing its stderr if not).
pub fn succeeds(args: &[&str]) -> Output {
    let out = puzzlelab(args);
    assert!(
        out.status.success(),
        "puzzlelab {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `puzzlelab args` and asserts it failed with `message` on stderr or stdout.
pub fn fails_with(args: &[&str], message: &str) -> Output {
    let out = puzzlelab(args);
    let (stdout, stderr) = text(&out);
    assert!(!out.status.success(), "puzzlelab {args:?} succeeded");
    assert!(
        stderr.contains(message) || stdout.contains(message),
        "puzzlelab {args:?}: expected \"{message}\" in\n{stderr}{stdout}"
    );
    out
}

/// A fresh, empty directory for one test's files.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The manifest `model.json` written beside a model.
pub fn manifest(model: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(format!("{model}.json")).unwrap()).unwrap()
}

/// Property-test cases: `PROPTEST_CASES` from the environment (for a longer hunt), else `default`.
pub fn proptest_cases(default: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default),
        ..proptest::test_runner::Config::default()
    }
}
