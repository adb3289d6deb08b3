//! `prove` for every size on the sized SGEMM family's C++ kernels as written (template tile
//! sizes, `reinterpret_cast<float4*>` loads and stores, A stored transposed by four scalar
//! stores; warp tiling, the thread id split into warp and lane and each again), read through
//! clang: proved for every M, N, K their headers admit; with the barrier before the product
//! dropped, the shared-memory race is found instead; with lane row and column swapped, the
//! warp tile's digits no longer fit and the proof does not go through.

use std::path::PathBuf;
use std::process::{Command, Output};

fn example(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/equiv")
        .join(rel)
}

fn prove(kernel: &str) -> Output {
    let spec = example("specs/sgemm.spec");
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .arg("prove")
        .arg(kernel)
        .arg("--spec")
        .arg(&spec)
        .output()
        .expect("warpsafe runs")
}

fn assert_proved(o: &Output) {
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains("proved for every launch configuration and size"),
        "{text}"
    );
}

#[test]
fn warp_tiling_is_proved_for_every_size_and_its_lane_swap_is_not() {
    if warpsafe_clang_front::find_clang().is_none() {
        eprintln!("clang not found: the sized SGEMM files are C++ (run scripts/setup.sh)");
        return;
    }
    let path = example("sgemm/sgemm12_warptiling.cu");
    assert_proved(&prove(&path.display().to_string()));
    let src = std::fs::read_to_string(&path).expect("kernel source");
    let from = "laneRow = lane / (WSUBN / TN), laneCol = lane % (WSUBN / TN)";
    assert!(src.contains(from));
    let dir = std::env::temp_dir().join(format!("ws_prove_s12_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bug = dir.join("sgemm12_bug_lanes.cu");
    let swapped = "laneRow = lane % (WSUBN / TN), laneCol = lane / (WSUBN / TN)";
    std::fs::write(&bug, src.replace(from, swapped)).expect("write twin");
    let o = prove(&bug.display().to_string());
    let text = String::from_utf8_lossy(&o.stdout);
    assert_ne!(o.status.code(), Some(0), "{text}");
    assert!(!text.contains("proved for every"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn template_blocktiling_with_float4_is_proved_for_every_size() {
    if warpsafe_clang_front::find_clang().is_none() {
        eprintln!("clang not found: the sized SGEMM files are C++ (run scripts/setup.sh)");
        return;
    }
    let path = example("sgemm/sgemm11_template_blocktiling.cu");
    let o = prove(&path.display().to_string());
    assert_proved(&o);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("requires (blockDim.x == 256u)"), "{text}");

    let src = std::fs::read_to_string(&path).expect("kernel source");
    let from = "        __syncthreads();\n#pragma unroll";
    assert!(src.contains(from));
    let dir = std::env::temp_dir().join(format!("ws_prove_s11_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bug = dir.join("sgemm11_bug_nosync.cu");
    std::fs::write(&bug, src.replace(from, "#pragma unroll")).expect("write twin");
    let o = prove(&bug.display().to_string());
    let text = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{text}");
    assert!(
        err.contains("race obligation refuted") || text.contains("race"),
        "{text}\n{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
