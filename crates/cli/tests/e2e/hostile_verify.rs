//! `warpsafe verify` on hostile command lines and inputs: every one is a clear error naming
//! what is wrong (exit 2), or a bounded run — never a panic, never a verdict on a launch CUDA
//! would refuse.

use std::process::{Command, Output};

fn verify(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .arg("verify")
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("warpsafe runs")
}

fn refused(args: &[&str], says: &str) {
    let o = verify(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: `{says}` not in: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn launches_cuda_refuses_are_usage_errors() {
    let k = "examples/kernels/saxpy.cu";
    refused(&[k, "--block", "2000"], "per-dimension limits");
    refused(&[k, "--block", "1024,1024,1"], "the limit is 1024");
    refused(&[k, "--grid", "1,70000"], "exceeds the limits");
    refused(&[k, "--block", "0"], "zero extent");
    refused(&[k, "--grid", "99999999999"], "not a number");
    refused(&[k, "--block", "any,any"], "not a number");
}

#[test]
fn bad_selections_and_properties_name_themselves() {
    let k = "examples/kernels/saxpy.cu";
    refused(
        &[k, "--kernel", "nope"],
        "no kernel `nope` (kernels: saxpy)",
    );
    refused(&[k, "--property", "speed"], "unknown property `speed`");
    refused(&["no/such/file.cu"], "no/such/file.cu");
}

#[test]
fn a_malformed_kernel_is_a_parse_error_with_its_line() {
    let dir = std::env::temp_dir().join(format!("warpsafe-hostile-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("broken.cu");
    std::fs::write(&f, "__global__ void k(int *a) {\n  a[threadIdx.x] = ;\n}\n").expect("write");
    let o = verify(&[f.to_str().expect("utf-8")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("broken.cu:2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_time_budget_bounds_the_whole_run() {
    // A symbolic-grid transpose has hard queries: with a one-second budget the run ends soon
    // after, and what it could not decide is unknown, never verified.
    let start = std::time::Instant::now();
    let o = verify(&[
        "examples/kernels/matrix_transpose_tiled.cu",
        "--grid",
        "any",
        "--property",
        "bounds,overflow",
        "--timeout",
        "1",
        "--format",
        "json",
    ]);
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let results = json["kernels"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        results
            .iter()
            .any(|r| r["verdict"].get("unknown").is_some()),
        "{json}"
    );
    assert!(results
        .iter()
        .all(|r| r["verdict"] != "verified" || r["property"] == "assert"));
}
