//! Machine-readable output: with `--format json` (or `sarif`) every command that fails before
//! its report still prints one JSON document on stdout (`{"error": …, "span": …}`), so a CI
//! script never parses nothing; `run --format sarif` reports an interpreter run's findings.

use std::path::Path;
use std::process::{Command, Output};

fn warpsafe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .expect("warpsafe runs")
}

fn stdout_json(out: &Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {text}"))
}

fn scratch(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("warpsafe-machine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn a_kernel_that_does_not_parse_is_a_json_error_with_its_span_for_every_command() {
    let bad = scratch(
        "bad.cu",
        "__global__ void k(float *x) {\n    x[0] = no_such_function(1);\n}\n",
    );
    let bad = bad.to_str().expect("utf-8 path");
    let spec = "examples/specs/saxpy.spec";
    let commands: Vec<Vec<&str>> = vec![
        vec!["run", bad],
        vec!["ir", bad],
        vec!["verify", bad],
        vec!["verify", bad, "--format", "sarif"],
        vec!["equiv", bad, bad],
        vec!["prove", bad, "--spec", spec],
        vec!["validate", bad],
    ];
    for mut c in commands {
        if !c.contains(&"--format") {
            c.extend(["--format", "json"]);
        }
        let out = warpsafe(&c);
        assert_eq!(out.status.code(), Some(2), "{c:?}");
        let v = stdout_json(&out);
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(msg.contains("1 error"), "{c:?}: {v}");
        assert_eq!(v["errors"][0]["line"], 2, "{c:?}: {v}");
        assert!(
            v["errors"][0]["message"]
                .as_str()
                .unwrap_or_default()
                .contains("no_such_function"),
            "{c:?}: {v}"
        );
        let lo = v["span"]["lo"].as_u64().expect("a span");
        assert!((30..60).contains(&lo), "{c:?}: span {lo}");
    }
}

#[test]
fn usage_and_file_errors_are_json_too() {
    let out = warpsafe(&["verify", "no/such/file.cu", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let v = stdout_json(&out);
    assert!(v["error"].as_str().unwrap_or_default().contains("file.cu"));
    assert!(v["span"].is_null());

    let out = warpsafe(&[
        "verify",
        "examples/kernels/saxpy.cu",
        "--format=json",
        "--no-such-flag",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let v = stdout_json(&out);
    assert!(v["error"]
        .as_str()
        .unwrap_or_default()
        .contains("--no-such-flag"));

    let perm = scratch("perm_bad.cu", "__global__ void k(int *x) { x[0] = ; }\n");
    let out = warpsafe(&[
        "check-perm",
        perm.to_str().unwrap_or(""),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout_json(&out)["error"].is_string());
}

#[test]
fn run_reports_findings_as_sarif() {
    let out = warpsafe(&[
        "run",
        "examples/kernels/matrix_transpose_tiled_bug_nosync.cu",
        "--format",
        "sarif",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v = stdout_json(&out);
    assert_eq!(v["version"], "2.1.0");
    let results = v["runs"][0]["results"].as_array().expect("results");
    assert!(results.iter().any(|r| r["ruleId"] == "race"), "{v}");
    let loc = &results[0]["locations"][0]["physicalLocation"];
    assert!(loc["artifactLocation"]["uri"]
        .as_str()
        .unwrap_or_default()
        .ends_with("matrix_transpose_tiled_bug_nosync.cu"));
    assert!(loc["region"]["startLine"].as_u64().unwrap_or(0) > 1);

    let clean = warpsafe(&["run", "examples/kernels/saxpy.cu", "--format", "sarif"]);
    assert_eq!(clean.status.code(), Some(0));
    let v = stdout_json(&clean);
    assert_eq!(v["runs"][0]["results"].as_array().map(Vec::len), Some(0));
}
