//! Our tensor-core GEMM written with inline `ldmatrix` and `mma.sync.aligned.m16n8k16`
//! (examples/equiv/wmma/mma_gemm.cu) on the PTX road: NVRTC's PTX of it is `equal` to the naive
//! half-precision GEMM, its planted-bug twin (B loaded `.trans`) is `different` with a
//! counterexample replayed in the interpreter, its shared staging is barrier-separated (no
//! finding when run; a race at the `ldmatrix` once the closing barrier is removed), and the
//! stored PTX is still what NVRTC makes of the sources. The CUDA-C road cannot read the file:
//! clang-front's inline-PTX translation has no `ldmatrix`/`mma`, which is checked too.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn example(rel: &str) -> String {
    root()
        .join("examples/equiv/wmma")
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

/// The sibling `.cu` of each PTX (its contract) is C++ read through clang.
fn have_clang() -> bool {
    let found = warpsafe_clang_front::find_clang().is_some();
    if !found {
        eprintln!(
            "clang not found: the contracts of the mma PTX files are C++ (run scripts/setup.sh)"
        );
    }
    found
}

const RUN_ARGS: [&str; 10] = [
    "--buf",
    "a=random:4096",
    "--buf",
    "b=random:4096",
    "--buf",
    "c=random:4096",
    "--arg",
    "alpha=1.5",
    "--arg",
    "beta=-0.5",
];

#[test]
fn nvrtcs_ptx_of_the_mma_gemm_is_equal_to_the_reference_and_its_b_bug_is_found() {
    if !have_clang() {
        return;
    }
    let reference = example("gemm_half_reference.cu");
    let good = warpsafe(&["equiv", &reference, &example("mma_gemm_nvrtc.ptx")]);
    let text = String::from_utf8_lossy(&good.stdout);
    assert_eq!(
        good.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&good.stderr)
    );
    assert!(
        text.contains(": equal (") && text.contains("4096 equal"),
        "{text}"
    );
    let exact = warpsafe(&[
        "equiv",
        "--exact",
        &reference,
        &example("mma_gemm_nvrtc.ptx"),
    ]);
    let text = String::from_utf8_lossy(&exact.stdout);
    assert_eq!(exact.status.code(), Some(0), "{text}");
    let bad = warpsafe(&[
        "equiv",
        &reference,
        &example("mma_gemm_bug_btrans_nvrtc.ptx"),
    ]);
    let text = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{text}");
    assert!(text.contains("different"), "{text}");
    assert!(text.contains("both run in the interpreter"), "{text}");
}

#[test]
fn the_shared_staging_is_barrier_separated_and_a_missing_barrier_is_a_race() {
    if !have_clang() {
        return;
    }
    let ptx = example("mma_gemm_nvrtc.ptx");
    let mut args = vec!["run", ptx.as_str()];
    args.extend(RUN_ARGS);
    let o = warpsafe(&args);
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("no findings"), "{text}");
    // Without the barrier that closes each k step, the next step's staging races with the
    // `ldmatrix` of other warps.
    let dir = std::env::temp_dir().join(format!("warpsafe-mma-nosync-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let text = std::fs::read_to_string(&ptx).expect("ptx");
    let mut seen = 0;
    let cut: String = text
        .lines()
        .filter(|l| {
            if l.trim_start().starts_with("bar.sync") {
                seen += 1;
                return seen != 2;
            }
            true
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(seen, 2, "the PTX has two barriers per k step");
    std::fs::write(dir.join("mma_gemm_nvrtc.ptx"), cut).expect("w");
    std::fs::copy(example("mma_gemm_nvrtc.cu"), dir.join("mma_gemm_nvrtc.cu")).expect("cp");
    let nosync = dir.join("mma_gemm_nvrtc.ptx").display().to_string();
    let mut args = vec!["run", nosync.as_str()];
    args.extend(RUN_ARGS);
    let o = warpsafe(&args);
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("race on shared"), "{text}");
    assert!(text.contains("ldmatrix.sync.aligned"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_cuda_c_road_names_the_inline_ldmatrix_it_does_not_translate() {
    if !have_clang() {
        return;
    }
    let o = warpsafe(&[
        "equiv",
        &example("gemm_half_reference.cu"),
        &example("mma_gemm.cu"),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("inline PTX `ldmatrix.sync.aligned"), "{err}");
}

/// The lines of `ptx` that hold a tensor-core instruction, whitespace-normalised.
fn tensor_lines(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter(|l| l.contains("ldmatrix") || l.contains("mma.sync"))
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn the_stored_ptx_is_nvrtcs_of_the_sources() {
    if warpsafe_cuda::nvrtc_path().is_err() {
        eprintln!("note: NVRTC not found; the stored PTX is not recompiled");
        return;
    }
    for stem in ["mma_gemm", "mma_gemm_bug_btrans"] {
        let src = std::fs::read_to_string(example(&format!("{stem}.cu"))).expect("source");
        // As the stored PTX says: NVRTC has no <cuda_fp16.h>; the kernel only copies halves.
        let src = src
            .replace(
                "#include <cuda_fp16.h>",
                "struct __align__(2) half { unsigned short x; };",
            )
            .replace("__global__ void", "extern \"C\" __global__ void");
        let opts = warpsafe_cuda::CompileOptions {
            arch: "sm_80".into(),
            extra: vec![],
        };
        let fresh = warpsafe_cuda::compile_ptx(&src, &opts)
            .unwrap_or_else(|e| panic!("NVRTC on {stem}: {e}"))
            .ptx;
        let stored =
            std::fs::read_to_string(example(&format!("{stem}_nvrtc.ptx"))).expect("stored");
        assert_eq!(tensor_lines(&fresh), tensor_lines(&stored), "{stem}");
        assert_eq!(tensor_lines(&fresh).len(), 3, "{stem}");
    }
}
