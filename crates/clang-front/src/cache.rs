//! clang's answers kept on disk (`warpsafe --cache DIR` keeps them under `DIR/clang`): a
//! file read again with the same clang, arguments and text, whose every dependency (each
//! header clang read, as its `-MD` list names them) is byte for byte what it was, gets the
//! AST dump and errors of the earlier run without starting clang.
//!
//! An entry (`HASH.json`, with the AST dump beside it as `HASH.ast`) holds its whole key
//! (clang's identity, the arguments, the file's path and text), the dump's length and hashes,
//! and, per dependency, the length and two independent 64-bit hashes of its contents; it is
//! used only when all of them match, so a stale or colliding entry is a miss, never a wrong
//! AST. Files are written to a temporary name and renamed, the dump first, so concurrent runs
//! never read a partial entry.

use crate::driver::{ClangOutput, Diagnostic};
use serde::{Deserialize, Serialize};
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::RwLock;

static DIR: RwLock<Option<PathBuf>> = RwLock::new(None);

/// Keeps clang's answers under `dir` (`None`: no cache, the default).
pub fn set_cache_dir(dir: Option<PathBuf>) {
    let mut g = match DIR.write() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    };
    *g = dir;
}

/// The directory entries go to, when caching is on.
pub(crate) fn dir() -> Option<PathBuf> {
    match DIR.read() {
        Ok(g) => g.clone(),
        Err(p) => p.into_inner().clone(),
    }
}

/// What identifies one run of clang on one file.
pub(crate) struct Key {
    /// clang's path, size and modification time, and every argument, one per line.
    pub command: String,
    /// The file's path as given to clang.
    pub file: String,
    /// The file's text when the run starts.
    pub source: String,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    command: String,
    file: String,
    source: String,
    deps: Vec<Dep>,
    /// Length and hashes of the AST dump kept beside the entry.
    ast_len: u64,
    ast_hash: [u64; 2],
    errors: Vec<Error>,
}

#[derive(Serialize, Deserialize)]
struct Dep {
    path: String,
    len: u64,
    hash: [u64; 2],
}

#[derive(Serialize, Deserialize)]
struct Error {
    file: String,
    line: usize,
    col: usize,
    message: String,
    fatal: bool,
}

/// Two independent 64-bit hashes of `bytes`: FNV-1a over 8-byte words (the tail
/// zero-padded, the length mixed in) and SipHash with std's fixed keys.
fn hash(bytes: &[u8]) -> [u64; 2] {
    let mut fnv: u64 = 0xcbf2_9ce4_8422_2325 ^ bytes.len() as u64;
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        fnv = (fnv ^ u64::from_le_bytes(word)).wrapping_mul(0x0100_0000_01b3);
    }
    #[allow(deprecated)]
    let mut sip = std::hash::SipHasher::new();
    sip.write(bytes);
    [fnv, sip.finish()]
}

fn entry_path(dir: &Path, key: &Key) -> PathBuf {
    let text = format!("{}\n{}\n{}", key.command, key.file, key.source);
    let [a, b] = hash(text.as_bytes());
    dir.join(format!("{a:016x}{b:016x}.json"))
}

/// The answer an earlier run left for `key`, when every dependency is unchanged.
pub(crate) fn lookup(dir: &Path, key: &Key) -> Option<ClangOutput> {
    let text = std::fs::read_to_string(entry_path(dir, key)).ok()?;
    let e: Entry = serde_json::from_str(&text).ok()?;
    if e.command != key.command || e.file != key.file || e.source != key.source {
        return None;
    }
    let json = std::fs::read_to_string(entry_path(dir, key).with_extension("ast")).ok()?;
    if json.len() as u64 != e.ast_len || hash(json.as_bytes()) != e.ast_hash {
        return None;
    }
    for d in &e.deps {
        let bytes = std::fs::read(&d.path).ok()?;
        if bytes.len() as u64 != d.len || hash(&bytes) != d.hash {
            return None;
        }
    }
    Some(ClangOutput {
        json,
        errors: e
            .errors
            .into_iter()
            .map(|x| Diagnostic {
                file: x.file,
                line: x.line,
                col: x.col,
                message: x.message,
                fatal: x.fatal,
            })
            .collect(),
    })
}

/// Keeps `out` for `key`, with the dependencies clang listed in the make-style file at
/// `deps_file` (nothing is kept when that list cannot be read: the entry could go stale).
pub(crate) fn store(dir: &Path, key: &Key, deps_file: &Path, out: &ClangOutput) {
    let Ok(listing) = std::fs::read_to_string(deps_file) else {
        return;
    };
    let mut deps = Vec::new();
    for path in dependencies(&listing) {
        let Ok(bytes) = std::fs::read(&path) else {
            return;
        };
        deps.push(Dep {
            path,
            len: bytes.len() as u64,
            hash: hash(&bytes),
        });
    }
    if deps.is_empty() {
        return;
    }
    let entry = Entry {
        command: key.command.clone(),
        file: key.file.clone(),
        source: key.source.clone(),
        deps,
        ast_len: out.json.len() as u64,
        ast_hash: hash(out.json.as_bytes()),
        errors: out
            .errors
            .iter()
            .map(|d| Error {
                file: d.file.clone(),
                line: d.line,
                col: d.col,
                message: d.message.clone(),
                fatal: d.fatal,
            })
            .collect(),
    };
    let Ok(text) = serde_json::to_string(&entry) else {
        return;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let target = entry_path(dir, key);
    if write_atomically(&target.with_extension("ast"), &out.json) {
        write_atomically(&target, &text);
    }
}

/// Writes `text` to `target` through a temporary name; true when it is there.
fn write_atomically(target: &Path, text: &str) -> bool {
    let tmp = target.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, target).is_ok() {
        return true;
    }
    let _ = std::fs::remove_file(&tmp);
    false
}

/// The prerequisites of a make rule as `clang -MD` writes it (`target: a b \` continued over
/// lines; a space inside a name is `\ `).
fn dependencies(listing: &str) -> Vec<String> {
    let body = listing.split_once(": ").map_or("", |(_, b)| b);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.peek() {
                Some(' ') => {
                    cur.push(' ');
                    chars.next();
                }
                Some('\n') | Some('\r') => {
                    chars.next();
                }
                _ => cur.push('\\'),
            },
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_rules_give_their_prerequisites() {
        let rule = "k.o: /src/k.cu \\\n  /inc/a\\ b.h /inc/c.h \\\n  /usr/include/d.h\n";
        assert_eq!(
            dependencies(rule),
            ["/src/k.cu", "/inc/a b.h", "/inc/c.h", "/usr/include/d.h"]
        );
    }

    #[test]
    fn an_entry_is_used_only_while_every_dependency_is_unchanged() {
        let dir = std::env::temp_dir().join(format!("warpsafe-clang-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let header = dir.join("config.h");
        std::fs::write(&header, "#define R 3\n").expect("header");
        let deps = dir.join("k.d");
        std::fs::write(&deps, format!("k.o: {}\n", header.display())).expect("deps");
        let key = Key {
            command: "clang\n-x\ncuda".into(),
            file: "k.cu".into(),
            source: "__global__ void k() {}".into(),
        };
        let out = ClangOutput {
            json: "{\"kind\":\"TranslationUnitDecl\"}".into(),
            errors: vec![],
        };
        let cache = dir.join("clang");
        store(&cache, &key, &deps, &out);
        let hit = lookup(&cache, &key).expect("a hit");
        assert_eq!(hit.json, out.json);
        // Another source text, or the same length of header text changed: misses.
        let other = Key {
            source: "__global__ void k() { }".into(),
            ..key
        };
        assert!(lookup(&cache, &other).is_none());
        let key = Key {
            source: "__global__ void k() {}".into(),
            ..other
        };
        std::fs::write(&header, "#define R 4\n").expect("header");
        assert!(lookup(&cache, &key).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
