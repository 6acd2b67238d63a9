//! The README's command-line examples, run: every `$ ` line inside a fenced code block is run
//! against the binary under test and what it printed is compared with the output the README
//! shows below it, so the examples cannot drift from the binary.
//!
//! The rules:
//! - An example is a line starting with `$ ` inside a fenced block (```` ``` ```` or `~~~`,
//!   any info string). Its shown output is the lines after it up to the end of the block or
//!   the next `$ ` line; blank lines at its end separate it from the next example and are not
//!   output (nor are blank lines at the end of what the binary printed).
//! - The command line is split as a shell splits these simple lines (whitespace, single and
//!   double quotes, backslashes, a `#` comment at the start of a word). `backoff-lab` and
//!   `cargo run --release --` both mean the binary under test. A line this test cannot run
//!   (another program, a pipe, a redirection, an expansion) fails the test unless [`SKIPPED`]
//!   names it with the reason.
//! - Each shown line equals the printed line at its place, trailing whitespace ignored; a shown
//!   line `…` stands for one or more printed lines. Everything printed must be accounted for,
//!   unless the shown output ends with `…`. The command must succeed and print nothing on
//!   stderr (a terminal would show it among the output).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{run, stderr, stdout};
use std::fs;
use std::path::PathBuf;

/// The examples this test does not run, each with the reason: (the command line as written
/// after `$ `, without its comment; why). An entry that matches no example fails the test.
const SKIPPED: &[(&str, &str)] = &[];

/// A README always has at least this many examples; fewer means the extraction broke.
const AT_LEAST: usize = 8;

/// The shown line that stands for one or more printed lines.
const ELISION: &str = "…";

struct Example {
    /// 1-based line number of the `$ ` line in README.md.
    line: usize,
    /// The command line after `$ `, as written (comment included).
    command: String,
    /// The shown output, each with its 1-based README line number.
    shown: Vec<(usize, String)>,
}

fn readme() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md");
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn examples(text: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut fence: Option<&str> = None;
    let mut current: Option<Example> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim_start();
        match fence {
            None => {
                for marker in ["```", "~~~"] {
                    if trimmed.starts_with(marker) {
                        fence = Some(marker);
                    }
                }
            }
            Some(marker) if trimmed.starts_with(marker) && trimmed.trim_end() == marker => {
                fence = None;
                found.extend(current.take());
            }
            Some(_) => {
                if let Some(command) = line.strip_prefix("$ ") {
                    found.extend(current.take());
                    current = Some(Example {
                        line: number,
                        command: command.to_string(),
                        shown: Vec::new(),
                    });
                } else if let Some(example) = current.as_mut() {
                    example.shown.push((number, line.to_string()));
                }
            }
        }
    }
    assert!(fence.is_none(), "README.md ends inside a code block");
    for example in &mut found {
        while example
            .shown
            .last()
            .is_some_and(|(_, l)| l.trim().is_empty())
        {
            example.shown.pop();
        }
    }
    found
}

/// `line` without its comment: from a `#` that starts a word, outside quotes, to the end.
fn without_comment(line: &str) -> &str {
    let mut quote = None;
    let mut escaped = false;
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('"') | None, '\\') => escaped = true,
            (None, '\'' | '"') => quote = Some(c),
            (None, '#') if previous.is_whitespace() => return line[..at].trim_end(),
            _ => {}
        }
        previous = c;
    }
    line.trim_end()
}

/// The words of `line` (a command line without its comment) as a shell would split it, or why
/// this test cannot run it the way a shell would.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("an unterminated single quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("an unterminated double quote".into()),
                        },
                        Some(c @ ('$' | '`')) => {
                            return Err(format!("an expansion ({c}) inside double quotes"))
                        }
                        Some(c) => word.push(c),
                        None => return Err("an unterminated double quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err("a line continuation".into()),
                }
            }
            '|' | '&' | ';' | '<' | '>' | '(' | ')' => {
                return Err(format!("a pipe, redirection or list ({c})"))
            }
            '$' | '`' | '*' | '?' | '[' => return Err(format!("an expansion or glob ({c})")),
            '~' if !in_word => return Err("a tilde expansion".into()),
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// The arguments to the binary under test, or why the command line is not a run of it.
fn arguments(command: &str) -> Result<Vec<String>, String> {
    let words = shell_words(without_comment(command))?;
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let rest = match words.as_slice() {
        ["backoff-lab", rest @ ..] => rest,
        ["cargo", "run", "--release", "--", rest @ ..] => rest,
        ["cargo", "run", "--", rest @ ..] => rest,
        [] => return Err("an empty command line".into()),
        _ => return Err(format!("runs {:?}, not backoff-lab", words[0])),
    };
    Ok(rest.iter().map(|s| s.to_string()).collect())
}

/// Where shown and printed output first part: the shown line's index (or `shown.len()` when
/// the output goes on past the shown lines) and the printed line's (or `printed.len()` when
/// the output ended first).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Mismatch {
    shown: usize,
    printed: usize,
}

/// Matches `shown[s..]` against `printed[p..]`; on failure, the mismatch that got furthest
/// into the shown lines (the first differing line a reader should look at).
fn matches(shown: &[&str], printed: &[&str], s: usize, p: usize) -> Result<(), Mismatch> {
    let here = Mismatch {
        shown: s,
        printed: p,
    };
    let Some(&line) = shown.get(s) else {
        return if p == printed.len() {
            Ok(())
        } else {
            Err(here)
        };
    };
    if line.trim() == ELISION {
        if p >= printed.len() {
            return Err(here);
        }
        if s + 1 == shown.len() {
            return Ok(());
        }
        let mut furthest = here;
        for next in p + 1..=printed.len() {
            match matches(shown, printed, s + 1, next) {
                Ok(()) => return Ok(()),
                Err(m) => furthest = furthest.max(m),
            }
        }
        return Err(furthest);
    }
    match printed.get(p) {
        Some(printed_line) if printed_line.trim_end() == line.trim_end() => {
            matches(shown, printed, s + 1, p + 1)
        }
        _ => Err(here),
    }
}

/// Runs one example: `None` when its output is the one shown, else what went wrong.
fn check(example: &Example, args: &[String]) -> Option<String> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = run(&args);
    let heading = format!("README.md:{}: $ {}", example.line, example.command);
    let (out, err) = (stdout(&output), stderr(&output));
    if !output.status.success() || !err.is_empty() {
        return Some(format!(
            "{heading}\n  exited with {}, stderr:\n{err}",
            output.status
        ));
    }
    let mut printed: Vec<&str> = out.lines().collect();
    while printed.last().is_some_and(|l| l.trim().is_empty()) {
        printed.pop();
    }
    let shown: Vec<&str> = example.shown.iter().map(|(_, l)| l.as_str()).collect();
    let Err(m) = matches(&shown, &printed, 0, 0) else {
        return None;
    };
    let shown_at = match example.shown.get(m.shown) {
        Some((number, line)) => format!("README.md:{number}: {line}"),
        None => "(the shown output ends here)".to_string(),
    };
    let printed_at = match printed.get(m.printed) {
        Some(line) => format!("printed line {}: {line}", m.printed + 1),
        None => "(the printed output ends here)".to_string(),
    };
    Some(format!(
        "{heading}\n  shown:   {shown_at}\n  printed: {printed_at}\n  everything printed:\n{out}"
    ))
}

#[test]
fn every_readme_example_prints_what_the_readme_shows() {
    let text = readme();
    let examples = examples(&text);
    assert!(
        examples.len() >= AT_LEAST,
        "found {} examples (`$ ` lines in code blocks) in README.md, expected at least {AT_LEAST}",
        examples.len()
    );
    let mut failures = Vec::new();
    let mut skipped_used = vec![false; SKIPPED.len()];
    let mut ran = 0;
    for example in &examples {
        let command = without_comment(&example.command).trim();
        if let Some(i) = SKIPPED.iter().position(|(skipped, _)| *skipped == command) {
            skipped_used[i] = true;
            eprintln!(
                "skipped README.md:{}: $ {} ({})",
                example.line, example.command, SKIPPED[i].1
            );
            continue;
        }
        match arguments(&example.command) {
            Ok(args) => {
                ran += 1;
                failures.extend(check(example, &args));
            }
            Err(why) => failures.push(format!(
                "README.md:{}: $ {}\n  cannot be run here ({why}): make it a plain run of \
                 backoff-lab, or add it to SKIPPED in tests/readme.rs with the reason",
                example.line, example.command
            )),
        }
    }
    for (used, (command, _)) in skipped_used.iter().zip(SKIPPED) {
        if !used {
            failures.push(format!(
                "SKIPPED names `{command}`, which no README example is: remove it"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} README examples do not print what README.md shows:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n\n")
    );
    assert!(ran >= AT_LEAST, "ran {ran} examples");
}

#[test]
fn the_matcher_elides_and_reports_the_first_difference() {
    let ok = |shown: &[&str], printed: &[&str]| matches(shown, printed, 0, 0).is_ok();
    assert!(ok(&["a", "b"], &["a", "b  "]));
    assert!(!ok(&["a"], &["a", "b"]));
    assert!(!ok(&["a", "b"], &["a"]));
    assert!(ok(&["a", "…"], &["a", "b", "c"]));
    assert!(!ok(&["a", "…"], &["a"]));
    assert!(ok(&["a", "…", "d"], &["a", "b", "c", "d"]));
    assert!(ok(&["…", "x", "…", "x"], &["x", "x", "y", "x"]));
    assert!(!ok(&["a", "…", "d"], &["a", "d"]));
    assert_eq!(
        matches(&["a", "…", "d", "e"], &["a", "b", "d", "f"], 0, 0),
        Err(Mismatch {
            shown: 3,
            printed: 3
        })
    );
}

#[test]
fn command_lines_split_as_a_shell_splits_them() {
    assert_eq!(
        arguments("backoff-lab storm --budget 10%   # a comment").unwrap(),
        ["storm", "--budget", "10%"]
    );
    assert_eq!(
        arguments("cargo run --release -- schedule --base '30 s' --cap \"3h\"").unwrap(),
        ["schedule", "--base", "30 s", "--cap", "3h"]
    );
    assert_eq!(
        arguments("backoff-lab a#b").unwrap(),
        ["a#b"],
        "a # inside a word is no comment"
    );
    assert!(arguments("backoff-lab storm | head").is_err());
    assert!(arguments("backoff-lab storm > out.txt").is_err());
    assert!(arguments("PORT=9000 scripts/serve.sh").is_err());
    assert!(arguments("backoff-lab $HOME").is_err());
    assert_eq!(
        without_comment("backoff-lab storm '# kept' \\# kept # gone"),
        "backoff-lab storm '# kept' \\# kept"
    );
    assert_eq!(
        arguments("backoff-lab storm '# kept' \\# kept # gone").unwrap(),
        ["storm", "# kept", "#", "kept"]
    );
}
