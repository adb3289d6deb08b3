//! Answers remembered by the exact text of their query: in memory for the life of the process
//! and, when a directory is configured, on disk across runs. Only `sat` (with the solver's
//! output, e.g. model values) and `unsat` are kept; `unknown`, timeouts and crashes never are.
//! An entry stores its whole query text and the solver's version, and is used only when both
//! match: a cached answer is what this solver said for exactly this text.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A remembered answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cached {
    /// Unsatisfiable.
    Unsat,
    /// Satisfiable, with what the caller kept of the solver's output (model values).
    Sat(String),
}

static MEMORY: Mutex<Option<HashMap<String, Cached>>> = Mutex::new(None);

/// The answer cached for `query`, from memory or from the disk cache.
pub fn lookup(query: &str) -> Option<Cached> {
    if let Some(c) = MEMORY
        .lock()
        .ok()
        .and_then(|m| m.as_ref().and_then(|m| m.get(query).cloned()))
    {
        crate::stats::count_hit();
        return Some(c);
    }
    let dir = crate::settings().cache_dir?;
    let c = load(&dir, query)?;
    remember(query, &c);
    crate::stats::count_hit();
    Some(c)
}

/// Remembers `answer` for `query`, in memory and on disk when configured.
pub fn store(query: &str, answer: &Cached) {
    remember(query, answer);
    if let Some(dir) = crate::settings().cache_dir {
        save(&dir, query, answer);
    }
}

fn remember(query: &str, answer: &Cached) {
    if let Ok(mut m) = MEMORY.lock() {
        m.get_or_insert_with(HashMap::new)
            .insert(query.to_string(), answer.clone());
    }
}

/// The solver's version line, part of every disk entry.
fn solver_id() -> &'static str {
    crate::process::version().unwrap_or("z3 (version unknown)")
}

const MAGIC: &str = "warpsafe-smt-cache 1";

/// A stable 128-bit FNV-1a-style name for the entry of `query` (collisions are harmless: the
/// entry holds the whole text and is checked against it).
fn file_of(dir: &Path, query: &str) -> PathBuf {
    let mut h1: u64 = 0xcbf2_9ce4_8422_2325;
    let mut h2: u64 = 0x6c62_272e_07bb_0142;
    for b in solver_id().bytes().chain([0xff]).chain(query.bytes()) {
        h1 = (h1 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        h2 = (h2 ^ b as u64)
            .wrapping_mul(0x0000_0100_0000_01b3)
            .rotate_left(5);
    }
    dir.join(format!("{:02x}", h1 >> 56))
        .join(format!("{h1:016x}{h2:016x}"))
}

fn load(dir: &Path, query: &str) -> Option<Cached> {
    let text = std::fs::read_to_string(file_of(dir, query)).ok()?;
    let mut parts = text.splitn(5, '\n');
    if parts.next()? != MAGIC || parts.next()? != solver_id() {
        return None;
    }
    let kind = parts.next()?;
    let len: usize = parts.next()?.parse().ok()?;
    let rest = parts.next()?;
    if !rest.is_char_boundary(len.min(rest.len())) || rest.len() < len || &rest[len..] != query {
        return None;
    }
    match kind {
        "unsat" => Some(Cached::Unsat),
        "sat" => Some(Cached::Sat(rest[..len].to_string())),
        _ => None,
    }
}

fn save(dir: &Path, query: &str, answer: &Cached) {
    let file = file_of(dir, query);
    let Some(parent) = file.parent() else { return };
    if std::fs::create_dir_all(parent).is_err() {
        return;
    }
    let (kind, payload) = match answer {
        Cached::Unsat => ("unsat", ""),
        Cached::Sat(p) => ("sat", p.as_str()),
    };
    let text = format!(
        "{MAGIC}\n{}\n{kind}\n{}\n{payload}{query}",
        solver_id(),
        payload.len()
    );
    // Written aside and renamed, so a reader never sees half an entry.
    let tmp = file.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, &file).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disk_entries_answer_only_their_exact_text() {
        let dir =
            std::env::temp_dir().join(format!("warpsafe-smt-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let q = "(declare-const x Int)\n(assert (< x 0))\n(check-sat)\n";
        save(&dir, q, &Cached::Sat("((x (- 1)))".into()));
        save(&dir, "(assert false)", &Cached::Unsat);
        assert_eq!(load(&dir, q), Some(Cached::Sat("((x (- 1)))".into())));
        assert_eq!(load(&dir, "(assert false)"), Some(Cached::Unsat));
        assert_eq!(load(&dir, "(assert  false)"), None);
        // An entry whose stored text differs (a hash collision, a damaged file) is not used.
        let f = file_of(&dir, "(assert false)");
        let text = std::fs::read_to_string(&f).unwrap();
        std::fs::write(&f, text.replace("(assert false)", "(assert true)")).unwrap();
        assert_eq!(load(&dir, "(assert false)"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
