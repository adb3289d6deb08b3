//! `--dump-smt DIR`: every query written as a replayable `.smt2` file. A failed write is not
//! an error (dumps are for people, not for verdicts).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// Writes `text` as `DIR/FILE` when `dir` is given.
pub fn dump_to(dir: Option<&Path>, file: &str, text: &str) {
    if let Some(dir) = dir {
        let _ = std::fs::create_dir_all(dir);
        let _ = std::fs::write(dir.join(file), text);
    }
}

/// Writes `text` as `DIR/ENGINE-N.smt2` (N counts this process's dumps) when the
/// [settings](crate::settings) name a dump directory; the file's path then.
pub fn dump(engine: &str, text: &str) -> Option<PathBuf> {
    let dir = crate::settings().dump_dir?;
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let file = format!("{engine}-{n}.smt2");
    dump_to(Some(&dir), &file, text);
    Some(dir.join(file))
}
