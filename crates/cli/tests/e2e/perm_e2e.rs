//! `warpsafe check-perm` end to end: the annotated rotation kernel verifies, each broken twin
//! is rejected with the failing check and line, exit codes and JSON.

use std::path::PathBuf;
use std::process::{Command, Output};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/perm")
        .join(name)
}

fn check_perm(name: &str, json: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpsafe"));
    cmd.arg("check-perm").arg(example(name));
    if json {
        cmd.args(["--format", "json"]);
    }
    cmd.output().expect("warpsafe runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn rotation_verifies() {
    let o = check_perm("rotate.cu", false);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("verdict: verified"), "{out}");
    assert!(
        !out.contains("violated") && !out.contains("unknown"),
        "{out}"
    );
}

#[test]
fn kogge_stone_tree_reduction_and_a_uniform_branch_verify() {
    for file in [
        "kogge_stone.cu",
        "reduce_tree.cu",
        "shift_add.cu",
        "uniform_flag.cu",
    ] {
        let o = check_perm(file, false);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{file}: {out}");
        assert!(out.contains("verdict: verified"), "{out}");
    }
}

#[test]
fn rotation_json_lists_every_obligation_verified() {
    let o = check_perm("rotate.cu", true);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["verdict"], "verified");
    let obs = v["obligations"].as_array().expect("obligations");
    assert!(!obs.is_empty());
    assert!(obs.iter().all(|o| o["verdict"] == "verified"));
}

#[test]
fn broken_twins_are_rejected_with_check_and_line() {
    let cases = [
        ("rotate_bad_barrier_spec.cu", "access", 15),
        ("rotate_missing_barrier.cu", "split", 7),
        ("rotate_write_no_perm.cu", "access", 13),
        ("rotate_bad_split.cu", "split", 6),
        ("rotate_read_not_held.cu", "access", 12),
        ("rotate_wrong_post.cu", "functional", 7),
        ("kogge_stone_missing_barrier.cu", "access", 17),
        ("kogge_stone_bad_barrier_spec.cu", "barrier", 16),
        ("kogge_stone_bad_invariant.cu", "invariant", 13),
        ("kogge_stone_divergent_loop.cu", "uniform", 14),
        ("uniform_flag_racy.cu", "access", 11),
        ("reduce_tree_bad_barrier_spec.cu", "barrier", 21),
        ("shift_add_wrong_fact.cu", "barrier", 18),
    ];
    for (file, check, line) in cases {
        let o = check_perm(file, true);
        assert_eq!(o.status.code(), Some(1), "{file}: {}", stdout(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        assert_eq!(v["verdict"], "violated", "{file}");
        let hit = v["obligations"]
            .as_array()
            .expect("obligations")
            .iter()
            .any(|o| o["verdict"] == "violated" && o["check"] == check && o["line"] == line);
        assert!(
            hit,
            "{file}: expected {check} violated at line {line}: {v:#}"
        );
    }
}

#[test]
fn malformed_annotation_exits_2() {
    let dir = std::env::temp_dir().join(format!("warpsafe-perm-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("bad.cu");
    std::fs::write(
        &f,
        "//@ thread requires Perm(a[tid] 1)\n__global__ void k(int* a) {}\n",
    )
    .expect("write");
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .arg("check-perm")
        .arg(&f)
        .output()
        .expect("warpsafe runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(":1: error"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unsupported_kernel_exits_3() {
    let dir = std::env::temp_dir().join(format!("warpsafe-perm-e2e3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("atomic.cu");
    std::fs::write(
        &f,
        "//@ kernel requires Perm(a[0..blockDim.x], 1)\n//@ thread requires Perm(a[tid], 1)\n\
         __global__ void k(int* a)\n{\n    atomicAdd(&a[0], 1);\n}\n",
    )
    .expect("write");
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .arg("check-perm")
        .arg(&f)
        .output()
        .expect("warpsafe runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(3), "{out}");
    assert!(out.contains("atomics are not supported yet"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn several_files_give_one_report_each_and_a_summary() {
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .arg("check-perm")
        .arg(example("rotate.cu"))
        .arg(example("kogge_stone_missing_barrier.cu"))
        .output()
        .expect("warpsafe runs");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("file") && out.contains("seconds"), "{out}");
    let row = |name: &str| {
        out.lines()
            .find(|l| l.contains(name) && !l.contains(':'))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row("rotate.cu").contains("verified"), "{out}");
    assert!(
        row("kogge_stone_missing_barrier.cu").contains("violated"),
        "{out}"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["check-perm", "--format", "json"])
        .arg(example("rotate.cu"))
        .arg(example("uniform_flag.cu"))
        .output()
        .expect("warpsafe runs");
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let kernels: Vec<&str> = v
        .as_array()
        .expect("one report per file")
        .iter()
        .filter_map(|r| r["kernel"].as_str())
        .collect();
    assert_eq!(kernels, vec!["rotate", "uniform_flag"]);
}

/// `warpsafe verify`'s verdict for `property` on an example, launched as one 1-D block of
/// 64 threads with `a` of length `n` (the launch the annotations describe).
fn verify_verdict(name: &str, property: &str) -> String {
    let dir = std::env::temp_dir().join(format!("warpsafe-perm-xv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join(name);
    let src = std::fs::read_to_string(example(name)).expect("example");
    std::fs::write(
        &f,
        format!("//--blockDim=64 --gridDim=1\n//@ len(a) = n\n{src}"),
    )
    .expect("write");
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["verify", "--format", "json"])
        .arg(&f)
        .output()
        .expect("warpsafe runs");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let verdict = v["kernels"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["property"] == property)
        .map(|r| match &r["verdict"] {
            serde_json::Value::String(s) => s.clone(),
            other => other
                .as_object()
                .and_then(|o| o.keys().next().cloned())
                .unwrap_or_default(),
        })
        .unwrap_or_default();
    let _ = std::fs::remove_file(&f);
    verdict
}

/// Two methods, one question: where the annotations prove a kernel race- and
/// divergence-free, the parametric verifier agrees; where a twin's bug is a real race or
/// divergence (not just a wrong annotation), it finds it too.
#[test]
fn the_parametric_verifier_agrees_with_the_annotations() {
    for name in [
        "kogge_stone.cu",
        "reduce_tree.cu",
        "rotate.cu",
        "uniform_flag.cu",
    ] {
        assert_eq!(check_perm(name, false).status.code(), Some(0), "{name}");
        for property in ["race", "divergence"] {
            assert_eq!(
                verify_verdict(name, property),
                "verified",
                "{name}: {property}"
            );
        }
    }
    for (name, property) in [
        ("kogge_stone_missing_barrier.cu", "race"),
        ("rotate_missing_barrier.cu", "race"),
        ("uniform_flag_racy.cu", "race"),
        ("kogge_stone_divergent_loop.cu", "divergence"),
    ] {
        assert_eq!(check_perm(name, false).status.code(), Some(1), "{name}");
        assert_eq!(
            verify_verdict(name, property),
            "violated",
            "{name}: {property}"
        );
    }
}
