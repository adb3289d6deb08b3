//! `--format sarif` on every command that reports (issue 19, item 3): `run` with several
//! files, `check-perm`, `groebner`, `bench verify` and `bench suite` print one SARIF 2.1.0
//! run whose results match what the same command reports otherwise (a buggy twin has an
//! error, a correct kernel none); `ir --format sarif` is a usage error; `run --format json`
//! says what `--arg`/`--buf` fixed.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn kernel(name: &str) -> PathBuf {
    root().join("examples/kernels").join(name)
}

fn warpsafe(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("warpsafe runs")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

fn json(o: &Output) -> Value {
    let out = String::from_utf8_lossy(&o.stdout);
    serde_json::from_str(&out).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}):\n{out}\nstderr:\n{}",
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

/// The results of a SARIF log with exactly one run, after checking its version.
fn results(o: &Output) -> Vec<Value> {
    let log = json(o);
    assert_eq!(log["version"], "2.1.0", "{log}");
    let runs = log["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1, "one run: {log}");
    runs[0]["results"].as_array().expect("results").clone()
}

fn levels(results: &[Value]) -> Vec<String> {
    let mut l: Vec<String> = results
        .iter()
        .map(|r| r["level"].as_str().unwrap_or("?").to_string())
        .collect();
    l.sort();
    l
}

fn uri(r: &Value) -> String {
    r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn line(r: &Value) -> u64 {
    r["locations"][0]["physicalLocation"]["region"]["startLine"]
        .as_u64()
        .unwrap_or(0)
}

/// A fresh directory under the system's temporary one.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpsafe-sarif-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

#[test]
fn run_of_several_files_is_one_run_with_every_files_findings_at_their_lines() {
    let files = ["saxpy.cu", "saxpy_bug_stride.cu", "vector_add_bug_oob.cu"];
    let paths: Vec<PathBuf> = files.iter().map(|f| kernel(f)).collect();
    let mut args = vec!["run"];
    args.extend(paths.iter().map(|p| path(p)));
    let human = warpsafe(&args);
    args.extend(["--format", "sarif"]);
    let o = warpsafe(&args);
    assert_eq!(o.status.code(), human.status.code());
    assert_eq!(o.status.code(), Some(1));
    let got = results(&o);
    // The same findings, one file at a time, as the single-file JSON reports them.
    let mut expected = vec![];
    for p in &paths {
        let one = json(&warpsafe(&["run", path(p), "--format", "json"]));
        for f in one["findings"].as_array().expect("findings") {
            let level = f["severity"].as_str().expect("severity").to_string();
            expected.push((level, p.clone(), f["at"]["line"].as_u64().expect("line")));
        }
    }
    assert_eq!(got.len(), expected.len(), "{got:?}");
    let mut want: Vec<String> = expected.iter().map(|(l, ..)| l.clone()).collect();
    want.sort();
    assert_eq!(levels(&got), want);
    for (level, p, l) in &expected {
        assert!(
            got.iter()
                .any(|r| r["level"] == level.as_str() && uri(r) == path(p) && line(r) == *l),
            "no {level} result at {}:{l}: {got:?}",
            p.display()
        );
    }
    assert!(got.iter().all(|r| !uri(r).ends_with("/saxpy.cu")));
    assert!(got.iter().any(|r| r["level"] == "error"));
}

#[test]
fn run_json_says_what_the_flags_fixed() {
    let saxpy = kernel("saxpy.cu");
    let o = warpsafe(&[
        "run",
        path(&saxpy),
        "--arg",
        "n=100",
        "--buf",
        "x=zeros:100",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let report = json(&o);
    assert_eq!(report["fixed"]["args"]["n"], "100", "{report}");
    assert_eq!(report["fixed"]["lens"]["x"], 100, "{report}");
    assert_eq!(report["fixed"]["init"]["x"], "0", "{report}");
    let plain = json(&warpsafe(&["run", path(&saxpy), "--format", "json"]));
    assert!(plain.get("fixed").is_none(), "nothing fixed: {plain}");
}

#[test]
fn check_perm_has_a_result_per_obligation_not_verified() {
    let dir = root().join("examples/perm");
    let good = dir.join("rotate.cu");
    let bad = dir.join("rotate_missing_barrier.cu");
    let o = warpsafe(&["check-perm", path(&good), path(&bad), "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(1));
    let got = results(&o);
    let mut want = vec![];
    for p in [&good, &bad] {
        let report = json(&warpsafe(&["check-perm", path(p), "--format", "json"]));
        for ob in report["obligations"].as_array().expect("obligations") {
            let level = match ob["verdict"].as_str() {
                Some("violated") => "error",
                Some("unknown") => "note",
                _ => continue,
            };
            want.push((level, path(p).to_string(), ob["line"].as_u64().unwrap_or(0)));
        }
    }
    assert!(!want.is_empty());
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (level, file, l) in &want {
        assert!(
            got.iter()
                .any(|r| r["level"] == *level && uri(r) == *file && line(r) == *l),
            "no {level} at {file}:{l}: {got:?}"
        );
    }
    assert!(got.iter().all(|r| uri(r) == path(&bad)));
    let clean = warpsafe(&["check-perm", path(&good), "--format", "sarif"]);
    assert_eq!(clean.status.code(), Some(0));
    assert!(results(&clean).is_empty());
}

#[test]
fn groebner_reports_only_an_unchecked_or_failed_basis() {
    let system = root().join("examples/systems/cyclic4.txt");
    let unchecked = warpsafe(&["groebner", path(&system), "--format", "sarif"]);
    assert_eq!(unchecked.status.code(), Some(0));
    let r = results(&unchecked);
    assert_eq!(levels(&r), ["note"], "{r:?}");
    assert_eq!(r[0]["ruleId"], "unchecked");
    let checked = warpsafe(&["groebner", path(&system), "--check", "--format", "sarif"]);
    assert_eq!(checked.status.code(), Some(0));
    assert!(results(&checked).is_empty());
}

#[test]
fn ir_refuses_sarif_and_says_why() {
    let o = warpsafe(&["ir", path(&kernel("saxpy.cu")), "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(2));
    let e = json(&o);
    let msg = e["error"].as_str().unwrap_or_default();
    assert!(msg.contains("sarif") && msg.contains("json"), "{e}");
}

#[test]
fn bench_verify_has_a_result_per_verdict_not_verified() {
    let dir = scratch("bench-verify");
    for f in ["saxpy.cu", "saxpy_bug_stride.cu"] {
        std::fs::copy(kernel(f), dir.join(f)).expect("copy");
    }
    let common = ["bench", "verify", "--kernels", path(&dir), "--repeat", "1"];
    let o = warpsafe(&[&common[..], &["--format", "sarif"]].concat());
    assert_eq!(o.status.code(), Some(0));
    let got = results(&o);
    let rows = json(&warpsafe(&[&common[..], &["--format", "json"]].concat()));
    let mut want = vec![];
    for row in rows.as_array().expect("rows") {
        for p in row["report"]["results"].as_array().expect("results") {
            let v = &p["verdict"];
            let level = if v.get("violated").is_some() {
                "error"
            } else if v.get("possible").is_some() {
                "warning"
            } else if v.get("unknown").is_some() {
                "note"
            } else {
                continue;
            };
            want.push(level.to_string());
        }
    }
    want.sort();
    assert_eq!(levels(&got), want, "{got:?}");
    assert!(got.iter().any(|r| r["level"] == "error"));
    assert!(
        got.iter().all(|r| uri(r).ends_with("saxpy_bug_stride.cu")),
        "{got:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_suite_has_an_error_for_a_buggy_kernel_and_none_for_the_others() {
    // The suite reads fixed names: a copy of the bundled kernels with saxpy's twin in its
    // place.
    let dir = scratch("bench-suite");
    for entry in std::fs::read_dir(root().join("examples/kernels")).expect("kernels") {
        let p = entry.expect("entry").path();
        if let Some(name) = p.file_name() {
            std::fs::copy(&p, dir.join(name)).expect("copy");
        }
    }
    std::fs::copy(kernel("saxpy_bug_stride.cu"), dir.join("saxpy.cu")).expect("copy");
    let specs = root().join("examples/specs");
    let o = warpsafe(&[
        "bench",
        "suite",
        "--kernels",
        path(&dir),
        "--specs",
        path(&specs),
        "--max-size",
        "8",
        "--only",
        "saxpy,vector_add",
        "--format",
        "sarif",
    ]);
    assert_eq!(o.status.code(), Some(1), "a violated property exits 1");
    let got = results(&o);
    let errors: Vec<&Value> = got.iter().filter(|r| r["level"] == "error").collect();
    assert!(!errors.is_empty(), "{got:?}");
    assert!(
        errors.iter().all(|r| uri(r).ends_with("/saxpy.cu")),
        "{errors:?}"
    );
    assert!(errors.iter().any(|r| r["ruleId"] == "race" && line(r) > 0));
    // Every other result is an honest note: a functional proof up to the sweep's bound.
    for r in got.iter().filter(|r| r["level"] != "error") {
        assert_eq!(r["level"], "note", "{r}");
    }
    // --only ran the two kernels it names and no other.
    assert!(
        got.iter()
            .all(|r| uri(r).ends_with("/saxpy.cu") || uri(r).ends_with("/vector_add.cu")),
        "{got:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_suite_only_with_a_name_outside_the_suite_is_a_usage_error() {
    let o = warpsafe(&[
        "bench",
        "suite",
        "--only",
        "saxpy,nbody",
        "--format",
        "sarif",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let doc: Value = serde_json::from_slice(&o.stdout).expect("a JSON error document");
    let text = doc.to_string();
    assert!(text.contains("--only nbody: not a suite kernel"), "{text}");
    assert!(
        text.contains("matrix_mul"),
        "the message lists the suite: {text}"
    );
}
