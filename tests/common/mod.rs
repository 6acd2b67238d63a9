//! What the command-line tests share: running the binary and reading what it printed.
#![allow(dead_code)]

use std::process::{Command, Output};

pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backoff-lab"))
        .args(args)
        .output()
        .expect("the binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `args`, expects success, and parses the JSON it printed.
pub fn json(args: &[&str]) -> serde_json::Value {
    let output = run(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    serde_json::from_str(&stdout(&output)).expect("JSON")
}

/// Runs `args` and expects a refusal: exit status 2 and one line starting with `expected`.
pub fn refused(args: &[&str], expected: &str) {
    let output = run(args);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{args:?}: {}",
        stdout(&output)
    );
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
    assert!(
        message.starts_with(expected),
        "{args:?}:\n{message}\nexpected it to start with:\n{expected}"
    );
}
