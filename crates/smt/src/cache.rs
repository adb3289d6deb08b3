//! Answers remembered by the exact text of their query and the solver that gave them: in
//! memory for the life of the process and, when a directory is configured, on disk across
//! runs. `sat` (with the solver's output, e.g. model values) and `unsat` are kept as answers.
//! A timeout is kept with the time limit it was given: a later ask with the same or a smaller
//! limit is answered "unknown (timeout, cached)" at once, one with a larger limit asks the
//! solver again. Other unknowns and crashes are never kept.
//!
//! An entry stores its whole query text and the solver's version line, and is used only when
//! both match: a cached answer is what this solver said for exactly this text.

use crate::solver::Solver;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// A remembered answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cached {
    /// Unsatisfiable.
    Unsat,
    /// Satisfiable, with what the caller kept of the solver's output (model values).
    Sat(String),
}

/// What memory holds for one (solver, text) pair.
#[derive(Default)]
struct Memory {
    answers: HashMap<(Solver, String), Cached>,
    /// The largest limit, in milliseconds, the text ran out of.
    timeouts: HashMap<(Solver, String), u64>,
}

static MEMORY: Mutex<Option<Memory>> = Mutex::new(None);

fn with_memory<R>(f: impl FnOnce(&mut Memory) -> R) -> Option<R> {
    let mut g = MEMORY.lock().ok()?;
    Some(f(g.get_or_insert_with(Memory::default)))
}

/// The answer the configured solver gave for `query`, from memory or from the disk cache.
pub fn lookup(query: &str) -> Option<Cached> {
    lookup_for(crate::settings().solver, query)
}

/// Remembers the configured solver's `answer` for `query`, in memory and on disk when
/// configured.
pub fn store(query: &str, answer: &Cached) {
    store_for(crate::settings().solver, query, answer);
}

/// The answer `solver` gave for `query` (see [`lookup`]).
pub fn lookup_for(solver: Solver, query: &str) -> Option<Cached> {
    let key = (solver, query.to_string());
    if let Some(c) = with_memory(|m| m.answers.get(&key).cloned()).flatten() {
        crate::stats::count_hit();
        return Some(c);
    }
    let dir = crate::settings().cache_dir?;
    let c = match load(&dir, solver, Kind::Answer, query)? {
        Entry::Answer(c) => c,
        Entry::Timeout(_) => return None,
    };
    with_memory(|m| m.answers.insert(key, c.clone()));
    crate::stats::count_hit();
    Some(c)
}

/// Remembers `solver`'s `answer` for `query` (see [`store`]).
pub fn store_for(solver: Solver, query: &str, answer: &Cached) {
    with_memory(|m| {
        m.answers
            .insert((solver, query.to_string()), answer.clone())
    });
    if let Some(dir) = crate::settings().cache_dir {
        save(&dir, solver, query, &Entry::Answer(answer.clone()));
    }
}

/// True when `solver` ran out of a limit at least as large as `limit` on `query` before
/// (in this process, or in the disk cache). Counts nothing: the caller says what it skipped.
pub fn timed_out(solver: Solver, query: &str, limit: Duration) -> bool {
    let ms = crate::process::millis(limit);
    let key = (solver, query.to_string());
    if let Some(t) = with_memory(|m| m.timeouts.get(&key).copied()).flatten() {
        if t >= ms {
            return true;
        }
    }
    let Some(dir) = crate::settings().cache_dir else {
        return false;
    };
    match load(&dir, solver, Kind::Timeout, query) {
        Some(Entry::Timeout(t)) => {
            with_memory(|m| {
                let e = m.timeouts.entry(key).or_insert(t);
                *e = (*e).max(t);
            });
            t >= ms
        }
        _ => false,
    }
}

/// Remembers that `solver` ran out of `limit` on `query` (keeping the largest limit seen).
pub fn store_timeout(solver: Solver, query: &str, limit: Duration) {
    let ms = crate::process::millis(limit);
    let ms = with_memory(|m| {
        let e = m.timeouts.entry((solver, query.to_string())).or_insert(ms);
        *e = (*e).max(ms);
        *e
    })
    .unwrap_or(ms);
    if let Some(dir) = crate::settings().cache_dir {
        let ms = match load(&dir, solver, Kind::Timeout, query) {
            Some(Entry::Timeout(t)) => t.max(ms),
            _ => ms,
        };
        save(&dir, solver, query, &Entry::Timeout(ms));
    }
}

/// The solver's version line, part of every disk entry.
fn solver_id(solver: Solver) -> String {
    match solver.version() {
        Some(v) => v.to_string(),
        None => format!("{solver} (version unknown)"),
    }
}

const MAGIC: &str = "warpsafe-smt-cache 1";

/// The two kinds of entry, kept in separate files.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Answer,
    Timeout,
}

/// A disk entry.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Entry {
    Answer(Cached),
    /// Ran out of this many milliseconds.
    Timeout(u64),
}

impl Entry {
    fn kind(&self) -> Kind {
        match self {
            Entry::Answer(_) => Kind::Answer,
            Entry::Timeout(_) => Kind::Timeout,
        }
    }
}

/// A stable 128-bit FNV-1a-style name for the entry of `query` (collisions are harmless: the
/// entry holds the whole text and is checked against it).
fn file_of(dir: &Path, solver: Solver, kind: Kind, query: &str) -> PathBuf {
    let mut h1: u64 = 0xcbf2_9ce4_8422_2325;
    let mut h2: u64 = 0x6c62_272e_07bb_0142;
    // Answer entries hash as they did before timeouts were kept: old caches stay valid.
    let sep: &[u8] = match kind {
        Kind::Answer => &[0xff],
        Kind::Timeout => &[0xfe, 0xff],
    };
    let id = solver_id(solver);
    for b in id.bytes().chain(sep.iter().copied()).chain(query.bytes()) {
        h1 = (h1 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        h2 = (h2 ^ b as u64)
            .wrapping_mul(0x0000_0100_0000_01b3)
            .rotate_left(5);
    }
    dir.join(format!("{:02x}", h1 >> 56))
        .join(format!("{h1:016x}{h2:016x}"))
}

fn load(dir: &Path, solver: Solver, kind: Kind, query: &str) -> Option<Entry> {
    let text = std::fs::read_to_string(file_of(dir, solver, kind, query)).ok()?;
    let mut parts = text.splitn(5, '\n');
    if parts.next()? != MAGIC || parts.next()? != solver_id(solver) {
        return None;
    }
    let what = parts.next()?;
    let len: usize = parts.next()?.parse().ok()?;
    let rest = parts.next()?;
    if !rest.is_char_boundary(len.min(rest.len())) || rest.len() < len || &rest[len..] != query {
        return None;
    }
    let payload = &rest[..len];
    let e = match what {
        "unsat" => Entry::Answer(Cached::Unsat),
        "sat" => Entry::Answer(Cached::Sat(payload.to_string())),
        "timeout" => Entry::Timeout(payload.parse().ok()?),
        _ => return None,
    };
    (e.kind() == kind).then_some(e)
}

fn save(dir: &Path, solver: Solver, query: &str, entry: &Entry) {
    let file = file_of(dir, solver, entry.kind(), query);
    let Some(parent) = file.parent() else { return };
    if std::fs::create_dir_all(parent).is_err() {
        return;
    }
    let (what, payload) = match entry {
        Entry::Answer(Cached::Unsat) => ("unsat", String::new()),
        Entry::Answer(Cached::Sat(p)) => ("sat", p.clone()),
        Entry::Timeout(ms) => ("timeout", ms.to_string()),
    };
    let text = format!(
        "{MAGIC}\n{}\n{what}\n{}\n{payload}{query}",
        solver_id(solver),
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

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("warpsafe-smt-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn disk_entries_answer_only_their_exact_text() {
        let dir = temp("exact");
        let z3 = Solver::Z3;
        let q = "(declare-const x Int)\n(assert (< x 0))\n(check-sat)\n";
        let sat = Entry::Answer(Cached::Sat("((x (- 1)))".into()));
        save(&dir, z3, q, &sat);
        save(&dir, z3, "(assert false)", &Entry::Answer(Cached::Unsat));
        assert_eq!(load(&dir, z3, Kind::Answer, q), Some(sat));
        assert_eq!(
            load(&dir, z3, Kind::Answer, "(assert false)"),
            Some(Entry::Answer(Cached::Unsat))
        );
        assert_eq!(load(&dir, z3, Kind::Answer, "(assert  false)"), None);
        // Another solver's answers are its own.
        assert_eq!(
            load(&dir, Solver::Cvc5, Kind::Answer, "(assert false)"),
            None
        );
        // An entry whose stored text differs (a hash collision, a damaged file) is not used.
        let f = file_of(&dir, z3, Kind::Answer, "(assert false)");
        let text = std::fs::read_to_string(&f).unwrap();
        std::fs::write(&f, text.replace("(assert false)", "(assert true)")).unwrap();
        assert_eq!(load(&dir, z3, Kind::Answer, "(assert false)"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn timeouts_are_kept_apart_from_answers_with_their_limit() {
        let dir = temp("timeout");
        let q = "(assert (= (bvmul x y) #x1234))\n(check-sat)\n";
        save(&dir, Solver::Cvc5, q, &Entry::Timeout(2500));
        assert_eq!(
            load(&dir, Solver::Cvc5, Kind::Timeout, q),
            Some(Entry::Timeout(2500))
        );
        assert_eq!(load(&dir, Solver::Cvc5, Kind::Answer, q), None);
        assert_eq!(load(&dir, Solver::Z3, Kind::Timeout, q), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_timeout_answers_the_same_or_a_smaller_limit_and_no_larger_one() {
        // In memory (the process-wide settings are left alone: other tests share them).
        let q = format!("(check-sat) ; timeout test {}", std::process::id());
        let s = Duration::from_millis;
        assert!(!timed_out(Solver::Z3, &q, s(1000)));
        store_timeout(Solver::Z3, &q, s(1000));
        assert!(timed_out(Solver::Z3, &q, s(1000)), "same limit: hit");
        assert!(timed_out(Solver::Z3, &q, s(400)), "smaller limit: hit");
        assert!(
            !timed_out(Solver::Z3, &q, s(1001)),
            "larger limit: asked again"
        );
        assert!(!timed_out(Solver::Cvc5, &q, s(10)), "another solver: asked");
        assert!(
            !timed_out(Solver::Z3, &format!("{q} "), s(10)),
            "another text"
        );
        // A smaller timeout later does not shrink what was learnt.
        store_timeout(Solver::Z3, &q, s(200));
        assert!(timed_out(Solver::Z3, &q, s(1000)));
        store_timeout(Solver::Z3, &q, s(3000));
        assert!(timed_out(Solver::Z3, &q, s(3000)));
        assert_eq!(lookup_for(Solver::Z3, &q), None, "a timeout is no answer");
    }
}
