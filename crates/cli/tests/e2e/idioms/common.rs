//! What the idiom tests share: a kernel written to a fresh file, its `// verify:` lines
//! checked, a buggy twin made by one replacement, `warpsafe` run on a kernel.

pub(crate) use crate::corpus;
pub use std::path::{Path, PathBuf};
pub use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh directory for one test's files.
pub fn dir(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("warpsafe-idioms-{}-{n}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Writes `text` as `name.cu` in a fresh directory.
pub fn file(name: &str, text: &str) -> PathBuf {
    let f = dir(name).join(format!("{name}.cu"));
    std::fs::write(&f, text).expect("kernel written");
    f
}

/// Writes `text` as `name.cu` and checks its `// verify:` lines through clang.
pub fn check(name: &str, text: &str) {
    if let Err(e) = corpus::check(&file(name, text), &["--frontend", "clang"]) {
        panic!("{name}: {e}");
    }
}

/// The buggy twin of `good`: `from` (which must occur) replaced by `to`.
pub fn twin(good: &str, from: &str, to: &str) -> String {
    assert!(good.contains(from), "`{from}` is not in the kernel");
    good.replace(from, to)
}

/// `warpsafe COMMAND --frontend clang FILE EXTRA…` on `text` written as `name.cu`.
pub fn warpsafe(command: &str, name: &str, text: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args([command, "--frontend", "clang"])
        .arg(file(name, text))
        .args(extra)
        .output()
        .expect("warpsafe runs")
}

/// `warpsafe verify` on `text` (see [`warpsafe`]).
pub fn verify(name: &str, text: &str, extra: &[&str]) -> Output {
    warpsafe("verify", name, text, extra)
}

/// Writes each `(file name, source)` of `kernels` into one fresh directory and checks their
/// `// verify:` lines through clang (a generous query limit: verdicts, not speed); panics
/// listing every kernel that missed.
pub fn check_all(group: &str, kernels: &[(&str, &str)]) {
    let d = dir(group);
    let failures: Vec<String> = kernels
        .iter()
        .filter_map(|(name, src)| {
            let f = d.join(name);
            std::fs::write(&f, src).expect("write kernel");
            corpus::check(&f, &["--frontend", "clang", "--query-timeout", "120"])
                .err()
                .map(|e| format!("{name}: {e}"))
        })
        .collect();
    let _ = std::fs::remove_dir_all(&d);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
