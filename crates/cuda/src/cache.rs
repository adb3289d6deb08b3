//! The on-disk PTX cache: one file per (source, options, NVRTC version) key.

use std::path::PathBuf;

/// The cache directory: `$WARPSAFE_CACHE`, else `$XDG_CACHE_HOME/warpsafe/ptx`, else
/// `~/.cache/warpsafe/ptx`.
pub fn dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("WARPSAFE_CACHE") {
        return Some(PathBuf::from(d));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("warpsafe").join("ptx"))
}

/// A stable 128-bit key (two FNV-1a passes with different offsets) of the given parts.
pub fn key(parts: &[&str]) -> String {
    let mut h1: u64 = 0xcbf2_9ce4_8422_2325;
    let mut h2: u64 = 0x6c62_272e_07bb_0142;
    for part in parts {
        for b in part.bytes().chain([0xff]) {
            h1 = (h1 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
            h2 = (h2 ^ b as u64)
                .wrapping_mul(0x0000_0100_0000_01b3)
                .rotate_left(5);
        }
    }
    format!("{h1:016x}{h2:016x}")
}

/// The cached `(ptx, log)` for `key`, if present.
pub fn load(key: &str) -> Option<(String, String)> {
    let d = dir()?;
    let ptx = std::fs::read_to_string(d.join(format!("{key}.ptx"))).ok()?;
    let log = std::fs::read_to_string(d.join(format!("{key}.log"))).unwrap_or_default();
    Some((ptx, log))
}

/// Stores `(ptx, log)` under `key`; failures only cost a recompilation later.
pub fn store(key: &str, ptx: &str, log: &str) {
    let Some(d) = dir() else { return };
    if std::fs::create_dir_all(&d).is_err() {
        return;
    }
    // Write the log first and the PTX last via rename, so a reader never sees a partial entry.
    let _ = std::fs::write(d.join(format!("{key}.log")), log);
    let tmp = d.join(format!("{key}.ptx.{}", std::process::id()));
    if std::fs::write(&tmp, ptx).is_ok() {
        let _ = std::fs::rename(&tmp, d.join(format!("{key}.ptx")));
    }
}

#[cfg(test)]
mod tests {
    use super::key;

    #[test]
    fn keys_separate_parts_and_are_stable() {
        assert_eq!(key(&["ab", "c"]), key(&["ab", "c"]));
        assert_ne!(key(&["ab", "c"]), key(&["a", "bc"]));
        assert_eq!(key(&["x"]).len(), 32);
    }
}
