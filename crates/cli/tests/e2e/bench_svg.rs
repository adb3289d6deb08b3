//! `bench … --svg FILE` writes one standalone SVG chart beside the table, for every bench cheap
//! enough to run here (`bench verify`, `suite` and `mutate` have their own tests). Intake is
//! skipped without clang.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh empty directory under the target's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bench_svg_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs `warpsafe bench ARGS --svg DIR/chart.svg` from the repository root, checks it exits
/// `code` and that the chart is one standalone SVG document holding `label`.
fn chart(name: &str, args: &[&str], code: i32, label: &str) {
    let svg = temp_dir(name).join("chart.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .arg("bench")
        .args(args)
        .arg("--svg")
        .arg(&svg)
        .current_dir(root())
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(code),
        "bench {args:?}\nstdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout.trim().is_empty(), "the table is still printed");
    let text = std::fs::read_to_string(&svg).expect("the chart is written");
    assert!(text.starts_with("<svg"), "{text}");
    assert!(text.trim_end().ends_with("</svg>"), "{text}");
    assert_eq!(text.matches("<svg").count(), 1, "one document: {text}");
    assert!(!text.contains("<script"), "no script: {text}");
    assert!(
        !text.contains("href") && !text.contains("url("),
        "no external reference: {text}"
    );
    assert!(
        text.contains(&format!(">{label}</text>")),
        "{label}: {text}"
    );
}

#[test]
fn bench_intake_charts_the_kernels_accepted() {
    if warpsafe_clang_front::find_clang().is_none() {
        eprintln!("note: clang not found; bench intake --svg skipped");
        return;
    }
    chart("intake", &["intake", "tests/real"], 0, "accepted");
}

#[test]
fn bench_equiv_charts_seconds_per_pair() {
    chart(
        "equiv",
        &["equiv", "--only", "softmax", "--repeat", "1"],
        0,
        "softmax_naive vs softmax_online",
    );
}

#[test]
fn bench_scans_charts_seconds_per_scan() {
    chart(
        "scans",
        &["scans", "--bound", "64"],
        0,
        "kogge_stone_scan (float)",
    );
}

#[test]
fn bench_interp_charts_throughput() {
    chart(
        "interp",
        &["interp", "--repeat", "1"],
        0,
        "vector_add n=262144",
    );
}

#[test]
fn bench_groebner_charts_seconds_per_system() {
    // The half-second limit skips the large systems, so the whole bench takes a few seconds.
    chart(
        "groebner",
        &["groebner", "--repeat", "1", "--limit", "0.5"],
        0,
        "cyclic5 (warpsafe F4)",
    );
}

#[test]
fn an_unwritable_svg_path_is_a_usage_error_naming_it() {
    let missing = temp_dir("unwritable").join("no/such/dir/chart.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["bench", "scans", "--bound", "4", "--svg"])
        .arg(&missing)
        .current_dir(root())
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&missing.display().to_string()), "{stderr}");
}
