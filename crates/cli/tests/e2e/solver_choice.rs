//! `--solver cvc5` gives the verdicts z3 gives, `--second-opinion` finds no contradiction on
//! a small kernel, and a cvc5 that does not run is an error (exit 2), never a verdict.

use std::path::PathBuf;
use std::process::{Command, Output};

const FIXED: &str = "examples/kernels/reduce_interleaved.cu";
const RACY: &str = "examples/kernels/reduce_interleaved_bug_nosync.cu";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn warpsafe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .current_dir(root())
        .env_remove("WARPSAFE_SOLVER")
        .env_remove("WARPSAFE_SECOND_OPINION")
        .env_remove("WARPSAFE_SMT_CACHE")
        .env_remove("WARPSAFE_CVC5")
        .output()
        .expect("the binary runs")
}

fn runs(program: &str, flag: &str) -> bool {
    let ok = Command::new(program)
        .arg(flag)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("note: {program} not found; test skipped");
    }
    ok
}

fn both() -> bool {
    runs("z3", "-version") && runs("cvc5", "--version")
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(o)))
}

/// The verdict word of each property of the file's one kernel (`verified`, `violated`, …).
fn verdicts(report: &serde_json::Value) -> Vec<(String, String)> {
    report["kernels"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let v = &r["verdict"];
            let word = match v.as_object() {
                Some(o) => o.keys().next().cloned().unwrap_or_default(),
                None => v.as_str().unwrap_or_default().to_string(),
            };
            (r["property"].as_str().unwrap_or_default().to_string(), word)
        })
        .collect()
}

#[test]
fn cvc5_gives_the_verdicts_z3_gives_on_a_racy_kernel_and_its_fixed_twin() {
    if !both() {
        return;
    }
    for file in [FIXED, RACY] {
        let args = |solver| {
            vec![
                "verify",
                file,
                "--property",
                "race,bounds,overflow",
                "--format",
                "json",
                "--solver",
                solver,
            ]
        };
        let z3 = warpsafe(&args("z3"));
        let cvc5 = warpsafe(&args("cvc5"));
        assert_eq!(
            z3.status.code(),
            cvc5.status.code(),
            "{file}: {}",
            text(&cvc5)
        );
        let (z, c) = (json(&z3), json(&cvc5));
        assert_eq!(verdicts(&z), verdicts(&c), "{file}");
        assert_eq!(c["solver"]["name"], "cvc5", "{file}: {}", text(&cvc5));
        assert_eq!(z["solver"]["name"], "z3");
        assert!(c["solver"]["queries"].as_u64().unwrap_or(0) > 0, "{file}");
        let race = verdicts(&c)
            .into_iter()
            .find(|(p, _)| p == "race")
            .map(|(_, v)| v);
        let expected = if file == RACY { "violated" } else { "verified" };
        assert_eq!(race.as_deref(), Some(expected), "{file}: {}", text(&cvc5));
    }
}

#[test]
fn a_second_opinion_on_a_small_kernel_finds_no_disagreement() {
    if !both() {
        return;
    }
    for solver in ["z3", "cvc5"] {
        let o = warpsafe(&[
            "verify",
            RACY,
            "--property",
            "race,bounds",
            "--format",
            "json",
            "--solver",
            solver,
            "--second-opinion",
        ]);
        let j = json(&o);
        let second = &j["solver"]["second_opinion"];
        assert!(
            second["checked"].as_u64().unwrap_or(0) > 0,
            "{solver}: {}",
            text(&o)
        );
        assert_eq!(second["disagreements"], 0, "{solver}: {}", text(&o));
        assert!(
            !String::from_utf8_lossy(&o.stderr).contains("disagree"),
            "{}",
            text(&o)
        );
        assert_eq!(
            verdicts(&j)[0],
            ("race".to_string(), "violated".to_string()),
            "{}",
            text(&o)
        );
    }
    // The human statistics line says it too.
    let o = warpsafe(&[
        "-v",
        "verify",
        FIXED,
        "--property",
        "race",
        "--second-opinion",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("queries to z3") && err.contains("second opinion (cvc5):"),
        "{}",
        text(&o)
    );
    assert!(err.contains(" 0 disagreements"), "{}", text(&o));
}

#[test]
fn a_cvc5_that_does_not_run_is_an_error_not_a_verdict() {
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["verify", RACY, "--solver", "cvc5"])
        .current_dir(root())
        .env("WARPSAFE_CVC5", "/nonexistent/cvc5")
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("--solver cvc5: cvc5 is not installed; apt-get install cvc5"),
        "{}",
        text(&o)
    );
    assert!(o.stdout.is_empty(), "no verdict: {}", text(&o));
    // The same through the environment, and for a second opinion asked of z3's answers.
    for (var, value, args) in [
        ("WARPSAFE_SOLVER", "cvc5", vec!["verify", RACY]),
        (
            "WARPSAFE_SECOND_OPINION",
            "1",
            vec!["verify", RACY, "--solver", "z3"],
        ),
    ] {
        if value == "1" && !runs("z3", "-version") {
            continue;
        }
        let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
            .args(&args)
            .current_dir(root())
            .env(var, value)
            .env("WARPSAFE_CVC5", "/nonexistent/cvc5")
            .output()
            .expect("the binary runs");
        assert_eq!(o.status.code(), Some(2), "{var}: {}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("cvc5 is not installed"),
            "{var}: {}",
            text(&o)
        );
    }
    // A solver name that names none is a usage error too.
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["verify", RACY])
        .current_dir(root())
        .env("WARPSAFE_SOLVER", "yices")
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("WARPSAFE_SOLVER"),
        "{}",
        text(&o)
    );
}
