//! `-v` says every step on stderr and leaves stdout alone; progress bars appear only on a
//! terminal, never for JSON, never in a pipe.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn warpsafe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .current_dir(root())
        .env_remove("WARPSAFE_NO_PROGRESS")
        .output()
        .expect("the binary runs")
}

fn z3() -> bool {
    let ok = warpsafe_smt::available();
    if !ok {
        eprintln!("note: z3 not found; verify tests skipped");
    }
    ok
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `text` with every decimal fraction (a timing: `0.123`) replaced by `#`.
fn untimed(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let digit = |j: usize| chars.get(j).is_some_and(|c| c.is_ascii_digit());
        if digit(i) && (i == 0 || !chars[i - 1].is_ascii_alphanumeric()) {
            let mut j = i;
            while digit(j) {
                j += 1;
            }
            if chars.get(j) == Some(&'.') && digit(j + 1) {
                j += 1;
                while digit(j) {
                    j += 1;
                }
                out.push('#');
                i = j;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The `-v` lines of stderr, without their clock.
fn steps(err: &str) -> Vec<String> {
    err.lines()
        .filter_map(|l| l.strip_prefix("warpsafe ["))
        .filter_map(|l| l.split_once("] ").map(|(_, step)| untimed(step)))
        .collect()
}

const PROPERTIES: [&str; 6] = [
    "race",
    "divergence",
    "bounds",
    "overflow",
    "assert",
    "uninit",
];

#[test]
fn verify_v_names_every_step_before_or_after_the_command() {
    if !z3() {
        return;
    }
    let file = "examples/kernels/vector_add.cu";
    let plain = warpsafe(&["verify", file]);
    let before = warpsafe(&["-v", "verify", file]);
    let after = warpsafe(&["verify", file, "-v"]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    for o in [&before, &after] {
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(
            untimed(&stdout(o)),
            untimed(&stdout(&plain)),
            "stdout changed"
        );
    }
    assert!(steps(&stderr(&plain)).is_empty(), "{}", stderr(&plain));
    let lines = steps(&stderr(&before));
    assert_eq!(lines, steps(&stderr(&after)));
    let read = lines.first().expect("a first step");
    assert!(
        read.starts_with(&format!("read {file} through clang (")) && read.contains("1 kernel(s)")
            || read.starts_with(&format!("read {file} with the C-subset parser")),
        "{lines:#?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("verify `vector_add`: race, divergence")));
    for p in PROPERTIES {
        let line = format!("verify `vector_add` {p}: verified (");
        assert!(
            lines.iter().any(|l| l.starts_with(&line)),
            "{line}: {lines:#?}"
        );
    }
    let done = lines.last().expect("a last step");
    assert!(
        done.starts_with("verify `vector_add` done (# s); solver: "),
        "{done}"
    );
}

#[test]
fn verify_v_says_the_violated_property_of_a_buggy_twin() {
    if !z3() {
        return;
    }
    let file = "examples/kernels/vector_add_bug_oob.cu";
    let plain = warpsafe(&["verify", file]);
    let v = warpsafe(&["verify", "-v", file]);
    assert_eq!(plain.status.code(), Some(1));
    assert_eq!(v.status.code(), Some(1));
    // The verdict lines are the same; the counterexample under `bounds` is whichever model
    // the parallel solvers found first, so it may differ from run to run.
    let verdicts = |o: &std::process::Output| -> Vec<String> {
        untimed(&stdout(o))
            .lines()
            .filter(|l| !l.starts_with("              "))
            .map(|l| l.split(" [oob]").next().unwrap_or(l).to_string())
            .collect()
    };
    assert_eq!(verdicts(&v), verdicts(&plain));
    let lines = steps(&stderr(&v));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("verify `vector_add` bounds: violated (oob, replayed)")),
        "{lines:#?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("verify `vector_add` race: verified")));
}

#[test]
fn json_with_v_is_still_json_on_stdout() {
    if !z3() {
        return;
    }
    let o = warpsafe(&[
        "-v",
        "verify",
        "examples/kernels/vector_add.cu",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    assert_eq!(v["kernels"][0]["kernel"], "vector_add");
    assert!(stderr(&o).contains("verify `vector_add` bounds: verified"));
    assert!(!stderr(&o).contains("\x1b["));
}

#[test]
fn groebner_v_says_every_f4_round_and_keeps_the_basis() {
    let file = "examples/systems/katsura8.txt";
    let plain = warpsafe(&["groebner", file]);
    let v = warpsafe(&["groebner", file, "--verbose"]);
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(stdout(&v), stdout(&plain));
    let lines = steps(&stderr(&v));
    assert!(lines[0].starts_with("f4 on examples/systems/katsura8.txt (9 variables, 9 polynomials"));
    let rounds: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("F4 round "))
        .collect();
    assert!(
        rounds[0].starts_with("F4 round 1: degree 2, "),
        "{rounds:#?}"
    );
    let last = lines.last().expect("a last step");
    assert!(
        last.starts_with("f4 done: ") && last.contains(&format!("{} rounds", rounds.len())),
        "{last}"
    );
}

#[test]
fn a_pipe_gets_no_progress_bar() {
    // Over a second of F4: long enough for a bar, which a pipe must not get.
    let o = warpsafe(&[
        "groebner",
        "examples/systems/katsura11.txt",
        "--threads",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!stderr(&o).contains('\x1b'), "{:?}", stderr(&o));
    assert!(!stdout(&o).contains('\x1b'));
}

/// Runs `warpsafe ARGS 2>&1 >/dev/null` on a pseudo-terminal (util-linux `script`): what a
/// person sees of stderr. `None` when `script` is missing.
fn on_terminal(args: &str) -> Option<String> {
    let bin = env!("CARGO_BIN_EXE_warpsafe");
    let o = Command::new("script")
        .args([
            "-qec",
            &format!("{bin} {args} 2>&1 >/dev/null"),
            "/dev/null",
        ])
        .current_dir(root())
        .env_remove("WARPSAFE_NO_PROGRESS")
        .output()
        .ok()?;
    o.status.success().then(|| stdout(&o))
}

#[test]
fn a_terminal_gets_a_bar_after_a_second_and_it_is_cleared_before_the_report() {
    let long = "groebner examples/systems/katsura11.txt --threads 1";
    let Some(seen) = on_terminal(long) else {
        eprintln!("note: `script` not found; terminal test skipped");
        return;
    };
    assert!(seen.contains("\x1b[2K"), "no bar drawn: {seen:?}");
    assert!(seen.contains("round "), "{seen:?}");
    // The statistics line comes after the bar is gone, on a clean line.
    let report = seen.rfind("reduced basis of").expect("the statistics line");
    let last_clear = seen.rfind("\x1b[2K").expect("a clear");
    assert!(last_clear < report, "{seen:?}");
    // Quick work draws nothing, and JSON never does.
    let quick = on_terminal("groebner examples/systems/katsura4.txt").expect("script runs");
    assert!(!quick.contains('\x1b'), "{quick:?}");
    let json = on_terminal(&format!("{long} --format json")).expect("script runs");
    assert!(!json.contains('\x1b'), "{json:?}");
}
