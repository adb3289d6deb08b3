//! `warpsafe equiv` on kernels whose addresses come from input data (issue 18, item 4): a
//! histogram with global atomics against its shared-memory privatised form is `equal` (exit 0);
//! a privatised twin that never publishes its high bins is `different` (exit 1), with a
//! counterexample both kernels, run in the interpreter, disagree on. The bug only shows for data
//! values from 200 up, beyond the small integers of the ordinary random points.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The kernels of this test, beside the equivalence crate's tests.
fn kernel(name: &str) -> String {
    format!("crates/equiv/tests/data_addresses/{name}.cu")
}

fn equiv(reference: &str, optimized: &str, extra: &[&str]) -> Output {
    let (r, o) = (kernel(reference), kernel(optimized));
    let mut args = vec!["equiv", r.as_str(), o.as_str()];
    args.extend(extra);
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(&args)
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
fn a_privatised_histogram_is_equal_to_global_atomics() {
    for (r, o) in [
        ("hist_global", "hist_shared"),
        ("hist256_global", "hist256_shared"),
    ] {
        let out = equiv(r, o, &[]);
        assert_eq!(out.status.code(), Some(0), "{r} vs {o}: {}", text(&out));
        let s = String::from_utf8_lossy(&out.stdout);
        assert!(s.contains(": equal ("), "{s}");
    }
}

#[test]
fn a_histogram_that_drops_its_high_bins_is_different_and_replayed() {
    let out = equiv("hist256_global", "hist256_shared_bug_publish", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains(": different ("), "{s}");
    assert!(s.contains("both run in the interpreter"), "{s}");
    let out = equiv(
        "hist256_global",
        "hist256_shared_bug_publish",
        &["--format", "json"],
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(&out)));
    assert_eq!(j["verdict"], "different", "{j}");
    let c = &j["counterexample"];
    assert!(c["index"].as_u64().is_some_and(|i| i >= 200), "{c}");
    let replay = &c["replay"];
    let (e, a) = (replay["expected"].as_f64(), replay["actual"].as_f64());
    assert!(matches!((e, a), (Some(e), Some(a)) if e != a), "{c}");
}
