//! Every `$W …` command of the README's "Using it" block runs as written and exits as its
//! comment says (`exit N` in the comment; 0 otherwise). The commands run in order, in a
//! scratch directory that links `examples/` and `tests/` of the repository, so commands that
//! write files (`--out results/`, `> saxpy.json`) and the ones that read them back work as a
//! reader would type them. `bench` commands take minutes in a release build: their flags are
//! checked by the `readme_commands_parse` unit test of the CLI, not run here.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A README command and the exit code its comment promises.
struct Documented {
    line: usize,
    command: String,
    exit: i32,
}

/// The `$W` lines of the README's first `sh` block after "## Using it".
fn documented() -> Vec<Documented> {
    let text = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let start = text.find("## Using it").expect("a `## Using it` section");
    let mut out = vec![];
    let mut in_block = false;
    for (i, line) in text[start..].lines().enumerate() {
        let line_no = text[..start].lines().count() + i + 1;
        if line.starts_with("```") {
            if in_block {
                break;
            }
            in_block = true;
            continue;
        }
        let Some(rest) = line.strip_prefix("$W ") else {
            continue;
        };
        let (command, comment) = match rest.split_once(" #") {
            Some((c, k)) => (c.trim(), k),
            None => (rest.trim(), ""),
        };
        out.push(Documented {
            line: line_no,
            command: format!("$W {command}"),
            exit: promised_exit(comment),
        });
    }
    out
}

/// `exit N` in a comment, else 0.
fn promised_exit(comment: &str) -> i32 {
    comment
        .split("exit ")
        .nth(1)
        .and_then(|r| r.chars().next())
        .and_then(|c| c.to_digit(10))
        .map_or(0, |d| d as i32)
}

#[test]
fn every_readme_command_runs_as_written() {
    let commands = documented();
    assert!(
        commands.len() >= 30,
        "found only {} `$W` commands in the README",
        commands.len()
    );
    let scratch = std::env::temp_dir().join(format!("warpsafe-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    for dir in ["examples", "tests"] {
        let target = repo().join(dir).canonicalize().expect("repo dir");
        std::os::unix::fs::symlink(target, scratch.join(dir)).expect("symlink");
    }
    let mut failures = vec![];
    let mut ran = 0;
    for d in &commands {
        if d.command.starts_with("$W bench") {
            continue;
        }
        ran += 1;
        let out = Command::new("bash")
            .arg("-c")
            .arg(&d.command)
            .current_dir(&scratch)
            .env("W", env!("CARGO_BIN_EXE_warpsafe"))
            .output()
            .expect("bash");
        let code = out.status.code().unwrap_or(-1);
        if code != d.exit {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
            failures.push(format!(
                "README.md:{}: `{}` exited {code}, the README says {}\n    {}",
                d.line,
                d.command,
                d.exit,
                tail.into_iter().rev().collect::<Vec<_>>().join("\n    ")
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(ran >= 25, "ran only {ran} README commands");
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn exit_codes_are_read_from_the_comments() {
    assert_eq!(promised_exit(" exit 1: race, with both source lines"), 1);
    assert_eq!(promised_exit(" many files (exit 1: the twins)"), 1);
    assert_eq!(promised_exit(" the structured IR"), 0);
}
