//! `equiv` is honest (issue 18, item 0): `different` only with a counterexample both kernels
//! reproduce when run concretely in the interpreter (both values printed); a symbolic
//! difference the interpreter does not reproduce is `unknown`; every block's outputs are
//! compared unless `--block0-only` says otherwise (and the verdict says so); a memory or time
//! budget that runs out is `unknown` (exit 3), never an abort.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The kernel pairs of this test, beside the equivalence crate's tests.
fn honest(name: &str) -> String {
    format!("crates/equiv/tests/honest/{name}.cu")
}

fn warpsafe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
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

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(o)))
}

fn equiv(reference: &str, optimized: &str, extra: &[&str]) -> Output {
    let (r, o) = (honest(reference), honest(optimized));
    let mut args = vec!["equiv", r.as_str(), o.as_str()];
    args.extend(extra);
    warpsafe(&args)
}

#[test]
fn a_correct_pair_stays_equal() {
    let o = equiv("softmax_fmax", "softmax_online_select", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(": equal ("), "{out}");
    assert!(out.contains("compared: every block"), "{out}");
    assert!(out.contains("16 compared, 16 equal"), "{out}");
}

#[test]
fn a_stopped_symbolic_run_is_never_a_false_different() {
    // A loop whose exit depends on the data stops the symbolic run, so its outputs are stale
    // symbols that differ from the reference's terms; the interpreter, run on that input,
    // agrees with the reference, so the verdict is `unknown` with the reason.
    let o = equiv("softmax_fmax", "softmax_online_loop", &[]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(": unknown"), "{out}");
    assert!(!out.contains("different ("), "{out}");
    assert!(out.contains("the symbolic difference is not real"), "{out}");
    // The legacy --all-blocks flag is accepted and changes nothing.
    let o = equiv("softmax_fmax", "softmax_online_loop", &["--all-blocks"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
}

#[test]
fn the_online_softmax_branch_is_if_converted_and_equal() {
    // `if (v > row_m) row_m = v` runs both sides and merges them into max(row_m, v).
    let o = equiv("softmax_fmax", "softmax_online_branch", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("16 compared, 16 equal"));
}

#[test]
fn a_buggy_twin_is_different_with_replayed_values() {
    for (twin, buffer) in [
        ("softmax_online_branch_bug_norescale", "y"),
        ("scale_bug_block1", "y"),
    ] {
        let reference = if twin.starts_with("softmax") {
            "softmax_fmax"
        } else {
            "scale"
        };
        let o = equiv(reference, twin, &["--format", "json"]);
        assert_eq!(o.status.code(), Some(1), "{twin}: {}", text(&o));
        let v = json(&o);
        assert_eq!(v["verdict"], "different", "{twin}: {v:#}");
        let cx = &v["counterexample"];
        assert_eq!(cx["buffer"], buffer, "{v:#}");
        let (e, a) = (
            cx["replay"]["expected"]
                .as_f64()
                .expect("replayed reference value"),
            cx["replay"]["actual"]
                .as_f64()
                .expect("replayed kernel value"),
        );
        assert!((e - a).abs() > 1e-3, "{twin}: {e} vs {a}");
        assert_eq!(cx["replay"]["seed"], cx["seed"], "{v:#}");
    }
    let o = equiv("scale", "scale_bug_block1", &[]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(
            "first difference: y[32]: expected 3.75 but got 4.75 (both run in the interpreter"
        ),
        "{out}"
    );
}

#[test]
fn blocks_other_than_0_are_compared_by_default() {
    // The bug is only in block 1: found without flags.
    let o = equiv("scale", "scale_bug_block1", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(": different ("), "{out}");
    assert!(out.contains("output y: 128 compared"), "{out}");
    // --block0-only is the explicit shortcut, and the verdict says what it covers.
    let o = equiv("scale", "scale_bug_block1", &["--block0-only"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(": equal [block 0 only]"), "{out}");
    assert!(
        out.contains("outputs other blocks write are not compared"),
        "{out}"
    );
    let o = equiv(
        "scale",
        "scale_bug_block1",
        &["--block0-only", "--format", "json"],
    );
    assert!(
        json(&o)["scope"]
            .as_str()
            .is_some_and(|s| s.contains("block 0 only")),
        "{}",
        text(&o)
    );
}

#[test]
fn a_tiny_memory_budget_is_unknown_not_an_abort() {
    let o = equiv(
        "softmax_fmax",
        "softmax_online_select",
        &["--max-memory", "1M"],
    );
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(": unknown"), "{out}");
    assert!(out.contains("reason: memory budget"), "{out}");
    assert!(
        out.contains("output elements decided before it ran out"),
        "{out}"
    );
    // Bad budgets are usage errors.
    for bad in [
        ["--max-memory", "0"],
        ["--max-memory", "lots"],
        ["--timeout", "-1"],
    ] {
        let o = equiv("scale", "scale", &bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", text(&o));
    }
}

#[test]
fn a_spent_time_budget_is_unknown() {
    let o = equiv("scale", "scale_bug_block1", &["--timeout", "0.000001"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("reason: time budget"), "{out}");
}

#[test]
fn kernel_names_the_kernel_of_each_file_that_defines_it() {
    let dir = std::env::temp_dir().join(format!("warpsafe-equiv-kernel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let doubled = dir.join("doubled.cu");
    std::fs::write(
        &doubled,
        "//--blockDim=128 --gridDim=4\n//@ len(x) = 512\n\
         __global__ void doubled(float *x) {\n\
             int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
             x[i] = x[i] + x[i];\n\
         }\n",
    )
    .expect("writes");
    let doubled = doubled.to_str().expect("utf-8 path");
    let two = "tests/soundness/two_kernels.cu";
    // The file with two kernels gives the one named; the other file has one kernel.
    let same = warpsafe(&[
        "equiv", two, doubled, "--kernel", "scale", "--format", "json",
    ]);
    assert_eq!(same.status.code(), Some(0), "{}", text(&same));
    assert_eq!(json(&same)["verdict"], "equal", "{}", text(&same));
    let other = warpsafe(&["equiv", two, doubled, "--kernel", "shift_left"]);
    assert_ne!(other.status.code(), Some(0), "{}", text(&other));
    let missing = warpsafe(&["equiv", two, doubled, "--kernel", "nope"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing).contains("no kernel `nope` (kernels: scale, shift_left)"));
}
