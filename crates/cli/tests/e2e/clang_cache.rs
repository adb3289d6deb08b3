//! `--cache DIR` keeps clang's reading of a file under `DIR/clang` and uses it again only
//! while the file and every header it read are unchanged: editing an included header must
//! change the verdict, never replay the old one. Skipped without clang or z3.

use std::path::Path;
use std::process::{Command, Output};

fn tools() -> bool {
    let ok = warpsafe_clang_front::find_clang().is_some() && warpsafe_smt::available();
    if !ok {
        eprintln!("note: clang or z3 not found; clang cache test skipped");
    }
    ok
}

fn verify(dir: &Path, cache: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .arg("--cache")
        .arg(cache)
        .args([
            "verify",
            "k.cu",
            "--property",
            "bounds",
            "--frontend",
            "clang",
        ])
        .current_dir(dir)
        .output()
        .expect("runs")
}

fn entries(cache: &Path) -> usize {
    std::fs::read_dir(cache.join("clang"))
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "ast"))
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn an_edited_header_is_read_again() {
    if !tools() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("warpsafe-clang-cache-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let cache = dir.join("cache");
    std::fs::write(dir.join("k.h"), "#define SHIFT 64\n").expect("header");
    std::fs::write(
        dir.join("k.cu"),
        "//--blockDim=64 --gridDim=1\n//@ len(out) = 128\n#include \"k.h\"\n\
         __global__ void k(float* out) { out[threadIdx.x + SHIFT] = 0.0f; }\n",
    )
    .expect("source");
    let first = verify(&dir, &cache);
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    assert_eq!(entries(&cache), 1, "the first run keeps clang's answer");
    let again = verify(&dir, &cache);
    assert_eq!(again.status.code(), Some(0), "{again:?}");
    assert_eq!(again.stdout.len(), first.stdout.len());
    assert_eq!(entries(&cache), 1, "the second run reads it back");
    // One past the end now: the cached reading (SHIFT 64) must not be used.
    std::fs::write(dir.join("k.h"), "#define SHIFT 65\n").expect("header");
    let edited = verify(&dir, &cache);
    assert_eq!(edited.status.code(), Some(1), "{edited:?}");
    assert!(String::from_utf8_lossy(&edited.stdout).contains("VIOLATED"));
    let _ = std::fs::remove_dir_all(&dir);
}
