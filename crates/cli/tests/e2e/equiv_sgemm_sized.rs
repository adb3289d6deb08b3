//! The sized SGEMM family (issue 18 benchmarks) at a small size, as CI can afford: C++ with
//! template tile sizes, float4 loads and warp tiling, read through clang at `-D SIZE=64`.
//! The warp-tiled kernel is `equal` to the naive reference, decided by random evaluation over
//! a prime field (the verdict prints the error bound) and, with `--exact`, by canonical forms;
//! the planted-bug twin is `different` with a counterexample both kernels, run in the
//! interpreter, disagree on; outputs that are not polynomials (softmax) never take the random
//! road. The field road and the term road (`--exact`) agree on the small SGEMM family.

use std::path::PathBuf;
use std::process::{Command, Output};

fn example(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/equiv")
        .join(rel)
        .display()
        .to_string()
}

fn warpsafe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .output()
        .expect("warpsafe runs")
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "JSON report ({e}): {}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn have_clang() -> bool {
    let found = warpsafe_clang_front::find_clang().is_some();
    if !found {
        eprintln!("clang not found: the sized SGEMM files are C++ (run scripts/setup.sh)");
    }
    found
}

fn sized(optimized: &str, extra: &[&str]) -> Output {
    let (r, o) = (example("sgemm/sgemm10_reference.cu"), example(optimized));
    let mut args = vec!["equiv", "-D", "SIZE=64", r.as_str(), o.as_str()];
    args.extend_from_slice(extra);
    warpsafe(&args)
}

#[test]
fn warp_tiling_is_equal_by_random_evaluation_with_its_error_bound() {
    if !have_clang() {
        return;
    }
    let out = sized("sgemm/sgemm12_warptiling.cu", &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains(": equal ("), "{text}");
    // Both kernels are polynomial: they run in the field, once per point (one by default).
    assert!(
        text.contains("4096 element(s) equal by evaluation at 1 random point(s) mod the prime"),
        "{text}"
    );
    let j = json(&sized("sgemm/sgemm12_warptiling.cu", &["--format", "json"]));
    assert_eq!(j["verdict"], "equal");
    let id = &j["identity"];
    assert_eq!(id["elements"], 4096);
    let p = id["prime"].as_u64().expect("prime");
    assert!(p >> 61 == 1, "the prime is in [2^61, 2^62): {p}");
    assert!(
        id["error_log2"].as_f64().expect("bound") < -45.0,
        "degree-3 outputs: 3/p per element, 4096 elements: {id}"
    );
    assert_eq!(j["outputs"][0]["equal"], 4096);
    // No term is built on the field road.
    assert_eq!(j["reference"]["stats"]["terms"], 0, "{j}");
    // Two points square the bound.
    let j = json(&sized(
        "sgemm/sgemm12_warptiling.cu",
        &["--format", "json", "--field-points", "2"],
    ));
    assert_eq!(j["verdict"], "equal");
    assert_eq!(j["identity"]["points"], 2);
    assert!(
        j["identity"]["error_log2"].as_f64().expect("bound") < -100.0,
        "(3/p)^2 per element, 4096 elements: {j}"
    );
}

#[test]
fn template_block_tiling_is_equal_by_canonical_forms_with_exact() {
    if !have_clang() {
        return;
    }
    let j = json(&sized(
        "sgemm/sgemm11_template_blocktiling.cu",
        &["--exact", "--format", "json"],
    ));
    assert_eq!(j["verdict"], "equal");
    assert!(j["identity"].is_null(), "--exact takes no random road");
    assert_eq!(j["outputs"][0]["equal"], 4096);
}

#[test]
fn swapped_float4_components_are_different_with_a_replayed_counterexample() {
    if !have_clang() {
        return;
    }
    let out = sized("sgemm/sgemm12_bug_float4_swap.cu", &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let j = json(&out);
    assert_eq!(j["verdict"], "different");
    let cx = &j["counterexample"];
    assert_eq!(cx["buffer"], "C");
    let replay = &cx["replay"];
    let (e, a) = (
        replay["expected"].as_f64().expect("reference's value"),
        replay["actual"].as_f64().expect("kernel's value"),
    );
    assert!(
        (e - a).abs() > 1e-3 * e.abs().max(1.0),
        "the interpreter's values differ: {e} vs {a}"
    );
    assert!(
        j["identity"].is_null(),
        "no element was equal: {}",
        j["identity"]
    );
}

#[test]
fn softmax_outputs_are_not_polynomials_and_take_the_exact_road() {
    let (r, o) = (
        example("softmax/softmax_naive.cu"),
        example("softmax/softmax_online.cu"),
    );
    let j = json(&warpsafe(&["equiv", &r, &o, "--format", "json"]));
    assert_eq!(j["verdict"], "equal");
    assert!(
        j["identity"].is_null(),
        "exp is outside the polynomial fragment"
    );
}

/// The field road and the term road (`--exact`) agree on the small SGEMM family and its bug
/// twins; the equal pairs are decided in the field, with no term built.
#[test]
fn the_field_road_and_the_term_road_agree_on_the_sgemm_family() {
    let naive = example("sgemm/sgemm1_naive.cu");
    for (other, want) in [
        ("sgemm2_coalesce", "equal"),
        ("sgemm3_shared", "equal"),
        ("sgemm6_vectorize", "equal"),
        ("sgemm5_bug_nosync", "race"),
        ("sgemm6_bug_transpose", "different"),
    ] {
        let o = example(&format!("sgemm/{other}.cu"));
        let run = |extra: &[&str]| {
            let mut args = vec!["equiv", naive.as_str(), o.as_str(), "--format", "json"];
            args.extend_from_slice(extra);
            json(&warpsafe(&args))
        };
        let (field, terms) = (run(&[]), run(&["--exact"]));
        assert_eq!(field["verdict"], want, "{other}: {field}");
        assert_eq!(terms["verdict"], want, "{other} --exact: {terms}");
        let built = field["reference"]["stats"]["terms"].as_u64().unwrap_or(0);
        if want == "equal" {
            assert_eq!(built, 0, "{other}: decided in the field");
            assert_eq!(field["identity"]["points"], 1, "{other}");
            assert!(terms["identity"].is_null(), "{other} --exact: {terms}");
        } else {
            // A race or a difference goes to the term road, which reports it.
            assert!(built > 0, "{other}: {field}");
        }
    }
}

/// Split-K with `atomicAdd` across blocks on the PTX road too: NVRTC's `atom.global.add` into
/// a register nothing reads discards the old value, so the blocks' changes add up there as on
/// the CUDA-C road; a short slice is a replayed difference.
#[test]
fn atomic_split_k_is_equal_on_the_ptx_road() {
    if warpsafe_cuda::nvrtc_path().is_err() {
        eprintln!("note: NVRTC not found; skipped");
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../equiv/tests/atomic_splitk");
    let file = |n: &str| dir.join(format!("{n}.cu")).display().to_string();
    let run = |other: &str| {
        let (r, o) = (file("mm_reference"), file(other));
        json(&warpsafe(&[
            "equiv",
            r.as_str(),
            o.as_str(),
            "--via-ptx",
            "--format",
            "json",
        ]))
    };
    let j = run("mm_splitk_atomic");
    assert_eq!(j["verdict"], "equal", "{j}");
    let j = run("mm_splitk_atomic_bug_short");
    assert_eq!(j["verdict"], "different", "{j}");
    assert!(!j["counterexample"]["replay"].is_null(), "{j}");
}
