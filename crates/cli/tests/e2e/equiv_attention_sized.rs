//! The sized attention family (issue 18 benchmarks) at a small size, as CI can afford: C++ in
//! the upstream FlashAttention style (`extern __shared__` tiles sized by the launch,
//! `-INFINITY`, `__expf`, the row maximum grown by a branch), read through clang at
//! `-D N=32 -D D=8` (two key tiles of 16, so the running maximum is rescaled once). The flash
//! kernel is `equal` to the one-thread-per-row reference on both roads (the IR's thread code
//! and NVRTC's PTX); the twin that drops the rescale is `different`, with a counterexample on
//! which both kernels, run in the interpreter, disagree. `bench equiv` runs the same pairs at
//! N = 64, d = 32 and N = 128, d = 64.

use std::path::PathBuf;
use std::process::{Command, Output};

fn example(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/equiv/attention")
        .join(rel)
        .display()
        .to_string()
}

fn have_clang() -> bool {
    let found = warpsafe_clang_front::find_clang().is_some();
    if !found {
        eprintln!("clang not found: the sized attention files are C++ (run scripts/setup.sh)");
    }
    found
}

fn have_nvrtc() -> bool {
    let found = warpsafe_cuda::nvrtc_path().is_ok();
    if !found {
        eprintln!("note: NVRTC not found; the PTX road is skipped");
    }
    found
}

/// `warpsafe equiv -D N=32 -D D=8 reference optimized --format json [extra]`.
fn small(optimized: &str, extra: &[&str]) -> (Output, serde_json::Value) {
    let (r, o) = (example("attention_sized_reference.cu"), example(optimized));
    let mut args = vec![
        "equiv",
        "-D",
        "N=32",
        "-D",
        "D=8",
        r.as_str(),
        o.as_str(),
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let out = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(&args)
        .output()
        .expect("warpsafe runs");
    let j = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "JSON report ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out, j)
}

fn assert_equal_everywhere(j: &serde_json::Value) {
    assert_eq!(j["verdict"], "equal", "{j}");
    // Every element of O (N·D = 256) is compared, by normal forms: exp and max are outside
    // the polynomial fragment, so no random-field shortcut.
    assert_eq!(j["outputs"][0]["equal"], 256, "{j}");
    assert_eq!(j["outputs"][0]["unknown"], 0, "{j}");
    assert!(j["identity"].is_null(), "{j}");
}

fn assert_replayed_difference(out: &Output, j: &serde_json::Value) {
    assert_eq!(out.status.code(), Some(1), "{j}");
    assert_eq!(j["verdict"], "different", "{j}");
    let cx = &j["counterexample"];
    assert_eq!(cx["buffer"], "O", "{j}");
    let replay = &cx["replay"];
    let (e, a) = (
        replay["expected"].as_f64().expect("reference's value"),
        replay["actual"].as_f64().expect("kernel's value"),
    );
    assert!(
        (e - a).abs() > 1e-3 * e.abs().max(1.0),
        "the interpreter's values differ: {e} vs {a}"
    );
}

#[test]
fn flash_attention_is_equal_to_the_reference_on_both_roads() {
    if !have_clang() {
        return;
    }
    let (out, j) = small("attention_sized_flash.cu", &[]);
    assert_eq!(out.status.code(), Some(0), "{j}");
    assert_equal_everywhere(&j);
    if have_nvrtc() {
        let (out, j) = small("attention_sized_flash.cu", &["--via-ptx"]);
        assert_eq!(out.status.code(), Some(0), "{j}");
        assert_equal_everywhere(&j);
    }
}

#[test]
fn flash_attention_without_the_rescale_is_a_replayed_difference_on_both_roads() {
    if !have_clang() {
        return;
    }
    let (out, j) = small("attention_sized_flash_bug_norescale.cu", &[]);
    assert_replayed_difference(&out, &j);
    if have_nvrtc() {
        let (out, j) = small("attention_sized_flash_bug_norescale.cu", &["--via-ptx"]);
        assert_replayed_difference(&out, &j);
    }
}
