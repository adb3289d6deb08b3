//! Process-wide settings: where to keep the on-disk cache and where to dump queries. Read from
//! `WARPSAFE_SMT_CACHE` and `WARPSAFE_DUMP_SMT` on first use; the CLI overrides them from
//! `--cache` and `--dump-smt`.

use std::path::PathBuf;
use std::sync::RwLock;

/// The settings every solver call reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Directory of the on-disk result cache (`None`: in memory only).
    pub cache_dir: Option<PathBuf>,
    /// Directory every query is written to as `.smt2` (`None`: no dumps).
    pub dump_dir: Option<PathBuf>,
}

static SETTINGS: RwLock<Option<Settings>> = RwLock::new(None);

fn from_env() -> Settings {
    let dir = |v: &str| {
        std::env::var_os(v)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
    };
    Settings {
        cache_dir: dir("WARPSAFE_SMT_CACHE"),
        dump_dir: dir("WARPSAFE_DUMP_SMT"),
    }
}

/// The settings in force.
pub fn settings() -> Settings {
    if let Some(s) = SETTINGS.read().ok().and_then(|g| g.clone()) {
        return s;
    }
    let mut g = match SETTINGS.write() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    };
    g.get_or_insert_with(from_env).clone()
}

fn update(f: impl FnOnce(&mut Settings)) {
    let current = settings();
    let mut g = match SETTINGS.write() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    };
    f(g.get_or_insert(current));
}

/// Keeps sat/unsat answers under `dir` as well as in memory (`None`: memory only).
pub fn set_cache_dir(dir: Option<PathBuf>) {
    update(|s| s.cache_dir = dir);
}

/// Writes every query to `dir` (`None`: no dumps).
pub fn set_dump_dir(dir: Option<PathBuf>) {
    update(|s| s.dump_dir = dir);
}
