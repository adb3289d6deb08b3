//! Our device headers (`include/`), embedded in the binary and written once per version to a
//! cache directory that clang searches with `-isystem`.

use std::path::PathBuf;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/headers.rs"));

/// The directory holding our headers (`$WARPSAFE_CLANG_INCLUDE` replaces them), written on
/// first use (keyed by a hash of their text,
/// so a new build never reads stale headers).
pub fn dir() -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("WARPSAFE_CLANG_INCLUDE").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d));
    }
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(write_headers).clone()
}

fn write_headers() -> Result<PathBuf, String> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (path, text) in HEADERS {
        for b in path.bytes().chain(text.bytes()) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    let root = std::env::temp_dir().join(format!("warpsafe-include-{hash:016x}"));
    for (path, text) in HEADERS {
        let target = root.join(path);
        if std::fs::read_to_string(&target).is_ok_and(|t| t == *text) {
            continue;
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        let tmp = target.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &target)
            .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    }
    Ok(root)
}

/// True when `file` (as clang names it) is one of our headers.
pub fn is_ours(file: &str) -> bool {
    dir().is_ok_and(|d| std::path::Path::new(file).starts_with(&d))
}
