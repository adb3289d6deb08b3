//! `warpsafe validate` end to end: every correct example kernel compiles through our codegen
//! and NVRTC, and its PTX is proved to compute what its IR computes (every block of the
//! header's launch), `#[kernel]` sources validate through their serialised IR, and a PTX
//! whose division magic constant is wrong is never called equal. Skipped when NVRTC is not
//! installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `#[kernel]` example kernels of the `warpsafe` crate.
#[allow(dead_code)]
#[path = "../../../warpsafe/examples/common/kernels.rs"]
mod kernels;

fn warpsafe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .expect("the binary runs")
}

fn nvrtc() -> bool {
    let ok = warpsafe_cuda::nvrtc_path().is_ok();
    if !ok {
        eprintln!("note: NVRTC not found; validate tests skipped");
    }
    ok
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Kernels the exact engine cannot decide yet (none today; gauss_elim's `% 65521` on 64-bit
/// data is proved through the PTX lowering's division-by-constant recognition).
const UNKNOWN: &[&str] = &[];

#[test]
fn every_correct_example_validates() {
    if !nvrtc() {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/kernels");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .filter(|p| !p.to_string_lossy().contains("_bug_"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "found {} examples", files.len());
    let mut failures = vec![];
    for f in &files {
        let stem = f.file_stem().unwrap_or_default().to_string_lossy();
        let path = f.to_string_lossy();
        // Every example runs with its header's launch, all blocks: each takes well under a
        // few seconds in a debug build.
        let out = warpsafe(&["validate", &path, "--format", "json"]);
        let v = json(&out);
        let verdict = v["verdict"].as_str().unwrap_or("?").to_string();
        let want = if UNKNOWN.contains(&stem.as_ref()) {
            "unknown"
        } else {
            "equal"
        };
        let want_code = if want == "equal" { 0 } else { 3 };
        if verdict != want || out.status.code() != Some(want_code) {
            failures.push(format!(
                "{stem}: {verdict} (exit {:?}), want {want}: {}",
                out.status.code(),
                v["reason"]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fma_contraction_is_reported_and_equal() {
    if !nvrtc() {
        return;
    }
    let out = warpsafe(&["validate", "examples/kernels/saxpy.cu"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("equal"), "{text}");
    assert!(text.contains("fma"), "{text}");
    let v = json(&warpsafe(&[
        "validate",
        "examples/kernels/saxpy.cu",
        "--format",
        "json",
    ]));
    assert!(v["fma"].as_u64().unwrap_or(0) >= 1);
}

#[test]
fn launch_flags_override_the_header() {
    if !nvrtc() {
        return;
    }
    let v = json(&warpsafe(&[
        "validate",
        "examples/kernels/matrix_mul.cu",
        "--arg",
        "n=8",
        "--grid",
        "1,1",
        "--block",
        "8,8",
        "--format",
        "json",
    ]));
    assert_eq!(v["verdict"], "equal");
    assert_eq!(v["equiv"]["outputs"][0]["compared"], 64);
}

#[test]
fn usage_errors_exit_2() {
    let out = warpsafe(&["validate", "no/such/file.cu"]);
    assert_eq!(out.status.code(), Some(2));
    let out = warpsafe(&["validate", "examples/kernels/saxpy.cu", "--arg", "nope=1"]);
    assert_eq!(out.status.code(), Some(2));
}

fn tmp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpsafe-validate-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write_json(dir: &Path, name: &str, kernel: &warpsafe::ir::Kernel) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string(kernel).expect("IR serialises")).expect("write");
    path.to_string_lossy().into_owned()
}

#[test]
fn rust_kernels_validate_through_their_ir() {
    if !nvrtc() {
        return;
    }
    let dir = tmp_dir("dsl");
    let saxpy = write_json(&dir, "saxpy.json", kernels::saxpy::ir());
    let v = json(&warpsafe(&[
        "validate", &saxpy, "--grid", "2", "--block", "32", "--arg", "n=50", "--arg", "a=2",
        "--len", "x=50", "--len", "y=50", "--format", "json",
    ]));
    assert_eq!(v["verdict"], "equal", "{v}");
    assert_eq!(v["kernel"], "saxpy");
    assert_eq!(v["equiv"]["outputs"][0]["compared"], 50);
    // The DSL gauss_elim reduces modulo 65521 in u64: NVRTC's magic-number division.
    let gauss = write_json(&dir, "gauss_elim.json", kernels::gauss_elim::ir());
    let out = warpsafe(&[
        "validate",
        &gauss,
        "--grid",
        "1",
        "--block",
        "16",
        "--arg",
        "nrows=16",
        "--arg",
        "ncols=8",
        "--arg",
        "pcol=2",
        "--len",
        "mat=128",
        "--len",
        "pivot_row=8",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("equal"), "{text}");
}

/// NVRTC's PTX for gauss_elim with its division magic constant as emitted, and with the
/// constant's last digit changed: the first is proved equal to the source, the second must
/// never be (the lowering only rewrites a magic sequence after proving it divides).
#[test]
fn a_wrong_division_magic_is_never_equal() {
    if !nvrtc() {
        return;
    }
    let ptx = warpsafe(&["ptx", "examples/kernels/gauss_elim.cu"]);
    assert_eq!(ptx.status.code(), Some(0));
    let text = String::from_utf8_lossy(&ptx.stdout).into_owned();
    let magic = "4223091239536077";
    assert!(
        text.contains(magic),
        "NVRTC's magic for 65521 changed:\n{text}"
    );
    let source = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/kernels/gauss_elim.cu"),
    )
    .expect("example source");
    for (tag, ptx, want) in [
        ("good", text.clone(), &["equal"][..]),
        (
            "bad",
            text.replace(magic, "4223091239536076"),
            &["different", "unknown"][..],
        ),
        (
            "worse",
            text.replace(magic, "4223091239536078"),
            &["different", "unknown"][..],
        ),
    ] {
        // A `.ptx` takes its signature and launch from the sibling `.cu`.
        let dir = tmp_dir(tag);
        std::fs::write(dir.join("gauss_elim.cu"), &source).expect("write");
        let file = dir.join("gauss_elim.ptx");
        std::fs::write(&file, ptx).expect("write");
        let v = json(&warpsafe(&[
            "equiv",
            "examples/kernels/gauss_elim.cu",
            file.to_str().expect("utf-8"),
            "--all-blocks",
            "--format",
            "json",
        ]));
        let verdict = v["verdict"].as_str().unwrap_or("?");
        assert!(want.contains(&verdict), "{tag}: {verdict}: {}", v["reason"]);
    }
}
