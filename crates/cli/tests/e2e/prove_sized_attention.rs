//! `prove` for every sequence length on FlashAttention (examples/equiv/attention/
//! attention_sized_flash_every_n.cu against examples/equiv/specs/attention.spec): the tiled
//! online-softmax kernel (running maximum from -INFINITY, `__expf`, rescaled sum and output,
//! K/V tiles in `extern __shared__` memory) is proved for every n its header admits, with the
//! size assumptions printed; the twin without the rescale and the twin without the barrier
//! after staging are not. Read at head dimension 2 and tiles of 4 (the shipped D = 8, tiles of
//! 16 take 3000 obligations), the same proof at a size CI affords.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn example(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/equiv")
        .join(rel)
}

/// `rel` at head dimension 2 and key tiles of 4 rows (the launch header with it).
fn small_kernel(rel: &str) -> String {
    let src = std::fs::read_to_string(example(rel)).expect("kernel source");
    let sizes = "#define D 8\n#define BC 16\n";
    assert!(src.contains(sizes));
    src.replace(sizes, "#define D 2\n#define BC 4\n")
        .replace("//--blockDim=16 ", "//--blockDim=4 ")
}

fn small_spec() -> String {
    std::fs::read_to_string(example("specs/attention.spec"))
        .expect("spec")
        .replace("8]", "2]")
        .replace("< 8,", "< 2,")
        .replace("c < 8", "c < 2")
}

fn prove(dir: &Path, name: &str, src: &str) -> Output {
    let kernel = dir.join(name);
    let spec = dir.join("attention.spec");
    std::fs::write(&kernel, src).expect("write kernel");
    std::fs::write(&spec, small_spec()).expect("write spec");
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .arg("prove")
        .arg(&kernel)
        .arg("--spec")
        .arg(&spec)
        .output()
        .expect("warpsafe runs")
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ws_prove_attn_{tag}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn no_z3(o: &Output) -> bool {
    let missing = String::from_utf8_lossy(&o.stderr).contains("z3 not found");
    if missing {
        eprintln!("z3 not found: skipped");
    }
    missing
}

#[test]
fn flash_attention_is_proved_for_every_n_with_its_assumptions() {
    let dir = scratch("ok");
    let o = prove(
        &dir,
        "flash.cu",
        &small_kernel("attention/attention_sized_flash_every_n.cu"),
    );
    if no_z3(&o) {
        return;
    }
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains("proved for every launch configuration and size"),
        "{text}"
    );
    // The sizes the proof is for: blocks of one key tile, n = gridDim.x * blockDim.x.
    assert!(text.contains("blockDim.x == 4"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_twins_without_rescale_or_barrier_are_not_proved() {
    let dir = scratch("bugs");
    let o = prove(
        &dir,
        "norescale.cu",
        &small_kernel("attention/attention_sized_flash_every_n_bug_norescale.cu"),
    );
    if no_z3(&o) {
        return;
    }
    let text = String::from_utf8_lossy(&o.stdout);
    assert_ne!(o.status.code(), Some(0), "{text}");
    assert!(!text.contains("proved for every"), "{text}");

    let src = small_kernel("attention/attention_sized_flash_every_n.cu");
    let staged = "        }\n        __syncthreads();\n        float mt";
    assert!(src.contains(staged));
    let o = prove(
        &dir,
        "nosync.cu",
        &src.replace(staged, "        }\n        float mt"),
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert_ne!(o.status.code(), Some(0), "{text}");
    assert!(!text.contains("proved for every"), "{text}");
    assert!(text.contains("race"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
