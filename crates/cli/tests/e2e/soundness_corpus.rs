//! The soundness corpus (`tests/soundness/`): kernels written the way real projects write
//! them, each correct one beside its buggy twin, every one a past wrong verdict. Each file
//! states what `warpsafe verify` must answer (see `corpus/mod.rs`).

use crate::corpus;

use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/soundness")
}

#[test]
fn every_corpus_kernel_gets_its_expected_verdicts() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus())
        .expect("tests/soundness")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "the corpus has {} kernels", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            corpus::check(f, &[]).err().map(|e| {
                format!(
                    "{}: {e}",
                    f.file_name().unwrap_or_default().to_string_lossy()
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
