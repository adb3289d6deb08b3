//! Several kernels in sequence as one side of `equiv` (issue 18, item 5): a split-K SGEMM
//! (partial products per K slice, then a reduction kernel) against the one-kernel reference.
//! The launches come from the file's host launcher through clang; skipped without clang.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn clang() -> bool {
    let ok = warpsafe_clang_front::find_clang().is_some();
    if !ok {
        eprintln!("note: clang not found; split-K tests skipped");
    }
    ok
}

const REFERENCE: &str = "examples/equiv/sgemm/sgemm1_naive.cu";
const SEQUENCE: &str = "splitk_partial,splitk_reduce";

fn equiv(twin: &str, extra: &[&str]) -> Output {
    let file = format!("examples/equiv/splitk/{twin}.cu");
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["equiv", REFERENCE, &file, "--sequence", SEQUENCE])
        .args(extra)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

fn text(o: &Output) -> String {
    format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn split_k_then_reduce_equals_the_one_kernel_reference() {
    if !clang() {
        return;
    }
    let o = equiv("sgemm_splitk", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("4096 compared, 4096 equal"), "{out}");
    // By canonical forms too, and the report names both kernels of the side.
    let o = equiv("sgemm_splitk", &["--exact", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["verdict"], "equal", "{v:#}");
    assert_eq!(
        v["optimized"]["name"], "splitk_partial then splitk_reduce",
        "{v:#}"
    );
}

#[test]
fn a_reduction_that_drops_a_slice_is_a_replayed_difference() {
    if !clang() {
        return;
    }
    let o = equiv("sgemm_splitk_bug_lastslice", &["--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["verdict"], "different", "{v:#}");
    let replay = &v["counterexample"]["replay"];
    let (a, b) = (replay["expected"].as_f64(), replay["actual"].as_f64());
    assert!(a.zip(b).is_some_and(|(a, b)| (a - b).abs() > 1e-3), "{v:#}");
}

#[test]
fn a_race_in_the_first_kernel_is_reported() {
    if !clang() {
        return;
    }
    let o = equiv("sgemm_splitk_bug_nosync", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(": race ("), "{out}");
    assert!(out.contains("race on shared `As`"), "{out}");
}

#[test]
fn an_unknown_kernel_in_the_sequence_is_a_usage_error() {
    if !clang() {
        return;
    }
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args([
            "equiv",
            REFERENCE,
            "examples/equiv/splitk/sgemm_splitk.cu",
            "--sequence",
            "splitk_partial,nosuch",
        ])
        .current_dir(root())
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("nosuch") && err.contains("splitk_reduce"),
        "{err}"
    );
}
