//! `prove` says `proved` only about what it checked, and a CI script can tell the outcomes
//! apart by exit code: a spec that states nothing is a usage error (2); a failed all-sizes
//! proof followed by a proof for the header's configuration exits 4 and says why; a missing
//! z3 is an error (2) for every command that needs it; and the kernel's `requires` bound
//! what `prove --all-sizes` claims and refutes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
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

/// A file under this test binary's scratch directory.
fn scratch(name: &str, contents: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("prove_honest");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let p = dir.join(name);
    std::fs::write(&p, contents).expect("scratch file");
    p
}

const SAXPY: &str = "examples/kernels/saxpy.cu";

fn assert_states_nothing(spec: &Path) {
    let spec = spec.to_str().expect("UTF-8 path");
    for all_sizes in [false, true] {
        let mut args = vec!["prove", SAXPY, "--spec", spec];
        if all_sizes {
            args.insert(1, "--all-sizes");
        }
        let o = warpsafe(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("states no property"), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{spec}:1:1")),
            "names the spec: {err}"
        );
        assert!(!String::from_utf8_lossy(&o.stdout).contains("proved"));
    }
}

#[test]
fn an_empty_spec_is_a_usage_error() {
    assert_states_nothing(&scratch("empty.spec", ""));
}

#[test]
fn a_comment_only_spec_is_a_usage_error() {
    assert_states_nothing(&scratch(
        "comments.spec",
        "# saxpy: y = a x + y\n// nothing stated yet\n\n",
    ));
}

#[test]
fn a_spec_of_declarations_only_is_a_usage_error() {
    assert_states_nothing(&scratch("shapes.spec", "# only a shape\nshape y[n]\n"));
}

/// The spec leaves y[n-1] out of its domain while saxpy writes it: the all-sizes frame
/// obligation fails; the header's configuration, every block of it, shows the element that
/// breaks the spec, and block 0 alone (which does not write it) is what `--block0-only` proves.
const SHORT_DOMAIN: &str = "y[i] = a * x[i] + y[i] for i < n - 1";

#[test]
fn a_failed_all_sizes_proof_is_said_and_the_configuration_finds_the_element() {
    let o = warpsafe(&["prove", SAXPY, "--spec", SHORT_DOMAIN]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("the all-sizes proof failed: frame obligation refuted"),
        "{out}"
    );
    assert!(out.contains("against the spec: different"), "{out}");
    assert!(out.contains("first difference: y[3999]"), "{out}");
    assert!(
        out.contains("configuration: grid 8, block 128, n = 4000, a = 2.0f; every block"),
        "{out}"
    );
    assert!(!out.contains("proved for every launch"), "{out}");
}

#[test]
fn block0_only_proves_one_configuration_only_and_exits_4() {
    let o = warpsafe(&["prove", SAXPY, "--spec", SHORT_DOMAIN, "--block0-only"]);
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("the all-sizes proof failed: frame obligation refuted"),
        "{out}"
    );
    assert!(out.contains("proved for one configuration only"), "{out}");
    assert!(out.contains("block 0 only"), "{out}");

    let o = warpsafe(&[
        "prove",
        SAXPY,
        "--spec",
        SHORT_DOMAIN,
        "--block0-only",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    let v = json(&o);
    assert_eq!(v["scope"], "configuration", "{v:#}");
    assert_eq!(v["verdict"], "equal", "{v:#}");
    assert_eq!(v["all_sizes"]["obligation"]["kind"], "frame", "{v:#}");
    assert_eq!(v["all_sizes"]["obligation"]["verdict"], "refuted", "{v:#}");
    assert_eq!(v["configuration"]["block"][0], 128, "{v:#}");
    assert_eq!(v["configuration"]["params"][0]["name"], "n", "{v:#}");
    assert_eq!(v["configuration"]["params"][0]["value"], "4000", "{v:#}");
}

#[test]
fn every_scope_is_in_the_json() {
    let o = warpsafe(&[
        "prove",
        SAXPY,
        "--spec",
        "examples/specs/saxpy.spec",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(json(&o)["scope"], "all-sizes");
    // One configuration asked for with flags: proved for it, exit 0, and said so.
    let o = warpsafe(&[
        "prove",
        SAXPY,
        "--spec",
        "examples/specs/saxpy.spec",
        "--arg",
        "n=100",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v = json(&o);
    assert_eq!(v["scope"], "configuration", "{v:#}");
    assert!(v["all_sizes"].is_null(), "not attempted: {v:#}");
}

/// A `PATH` holding only a `z3` that points nowhere.
fn path_without_z3() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-z3-bin");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let link = dir.join("z3");
    if std::fs::symlink_metadata(&link).is_err() {
        std::os::unix::fs::symlink(dir.join("missing/z3"), &link).expect("dangling link");
    }
    dir
}

fn without_z3(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .current_dir(root())
        .env("PATH", path_without_z3())
        .output()
        .expect("the binary runs")
}

#[test]
fn a_missing_solver_is_an_error_for_every_command_that_needs_it() {
    for args in [
        vec!["verify", SAXPY],
        vec!["prove", SAXPY, "--spec", "examples/specs/saxpy.spec"],
        vec![
            "prove",
            "--all-sizes",
            "examples/kernels/kogge_stone_scan.cu",
            "--spec",
            "examples/specs/kogge_stone_scan.spec",
        ],
        vec!["check-perm", "examples/perm/kogge_stone.cu"],
    ] {
        let o = without_z3(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("z3 not found; run scripts/setup.sh"),
            "{args:?}: {}",
            text(&o)
        );
        assert!(o.stdout.is_empty(), "{args:?}: no verdict: {}", text(&o));
    }
}

#[test]
fn one_configuration_needs_no_solver() {
    let o = without_z3(&[
        "prove",
        SAXPY,
        "--spec",
        "examples/specs/saxpy.spec",
        "--arg",
        "n=100",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("proved for one configuration"));
}

const FIXED: &str = "examples/induct/reduce_fixed_stride.cu";
const FIXED_TWIN: &str = "examples/induct/reduce_fixed_stride_no_requires.cu";
const RED_SPEC: &str = "examples/induct/reduce_sequential.spec";

#[test]
fn all_sizes_honours_the_requires_lines() {
    let o = warpsafe(&[
        "prove",
        "--all-sizes",
        FIXED,
        "--spec",
        RED_SPEC,
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v = json(&o);
    assert_eq!(v["scope"], "all-sizes", "{v:#}");
    assert_eq!(v["verdict"]["verdict"], "proved_all_sizes", "{v:#}");
    let assumed = v["assumptions"].to_string();
    assert!(assumed.contains("requires blockDim.x <= 256"), "{v:#}");

    let o = warpsafe(&["prove", "--all-sizes", FIXED, "--spec", RED_SPEC]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("assuming:"), "{out}");
    assert!(out.contains("✓ all sizes"), "{out}");

    let o = warpsafe(&[
        "prove",
        "--all-sizes",
        FIXED_TWIN,
        "--spec",
        RED_SPEC,
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v = json(&o);
    assert_eq!(v["verdict"]["verdict"], "refuted", "{v:#}");
    assert_eq!(v["verdict"]["size"], 512, "{v:#}");
    assert!(v["verdict"]["counterexample"]["inputs"].is_array(), "{v:#}");
}
