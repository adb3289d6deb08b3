//! The two parsers agree: every example the subset frontend reads, clang reads too, and the
//! IR of each kernel (statements, types, contract) is the same. Until the subset parser is
//! retired, this keeps the two roads from drifting apart.

use std::path::{Path, PathBuf};
use warpsafe_clang_front::{compile_file, source_text, Options};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn cu_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            cu_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "cu") {
            out.push(p);
        }
    }
}

#[test]
fn clang_and_subset_frontends_give_the_same_ir() {
    let mut files = vec![];
    for d in [
        "examples/kernels",
        "examples/equiv",
        "examples/induct",
        "tests/soundness",
    ] {
        cu_files(&root().join(d), &mut files);
    }
    files.sort();
    assert!(files.len() > 80, "examples found: {}", files.len());
    let mut problems = vec![];
    let mut compared = 0;
    for path in &files {
        let source = source_text(&std::fs::read(path).expect("readable"));
        if source.contains("<<<") {
            // A host launcher gives clang launches, lengths and scalar values the subset
            // parser cannot read: those kernels differ in their contracts by design (the
            // sized SGEMM and split-K families; their verdicts are tested through `equiv`).
            continue;
        }
        let Ok(subset) = warpsafe_cuda_front::compile(&source) else {
            continue;
        };
        let clang = match compile_file(path, &source, &Options::default()) {
            Ok(c) => c,
            Err(e) => {
                problems.push(format!("{}: clang frontend failed: {e:?}", path.display()));
                continue;
            }
        };
        for r in &clang.rejected {
            problems.push(format!(
                "{}: kernel `{}` rejected: {:?}",
                path.display(),
                r.kernel,
                r.errors
            ));
        }
        for k in &subset.kernels {
            let Some(c) = clang.module.kernel(&k.name) else {
                if !clang.rejected.iter().any(|r| r.kernel == k.name) {
                    problems.push(format!("{}: kernel `{}` missing", path.display(), k.name));
                }
                continue;
            };
            compared += 1;
            let (a, b) = (k.to_string(), c.to_string());
            if a != b {
                let diff: Vec<String> = a
                    .lines()
                    .zip(b.lines())
                    .filter(|(x, y)| x != y)
                    .take(3)
                    .map(|(x, y)| format!("    subset: {x}\n    clang:  {y}"))
                    .collect();
                problems.push(format!(
                    "{}: kernel `{}` differs:\n{}",
                    path.display(),
                    k.name,
                    diff.join("\n")
                ));
            } else if k.contract != c.contract {
                problems.push(format!(
                    "{}: kernel `{}` contract differs",
                    path.display(),
                    k.name
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} of the kernels differ ({compared} compared equal or not):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
