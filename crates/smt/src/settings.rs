//! Process-wide settings: which solver answers, whether the other one checks its answers,
//! where to keep the on-disk cache and where to dump queries. Read from `WARPSAFE_SOLVER`
//! (`z3` or `cvc5`), `WARPSAFE_SECOND_OPINION` (`1`), `WARPSAFE_SMT_CACHE` and
//! `WARPSAFE_DUMP_SMT` on first use; the CLI overrides them from `--solver`,
//! `--second-opinion`, `--cache` and `--dump-smt`.

use crate::solver::Solver;
use std::path::PathBuf;
use std::sync::RwLock;

/// The settings every solver call reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Directory of the on-disk result cache (`None`: in memory only).
    pub cache_dir: Option<PathBuf>,
    /// Directory every query is written to as `.smt2` (`None`: no dumps).
    pub dump_dir: Option<PathBuf>,
    /// The solver every query goes to.
    pub solver: Solver,
    /// Every sat/unsat answer is asked of the other solver too ([`Solver::other`]).
    pub second_opinion: bool,
}

static SETTINGS: RwLock<Option<Settings>> = RwLock::new(None);

fn from_env() -> Settings {
    let dir = |v: &str| {
        std::env::var_os(v)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
    };
    let var = |v: &str| std::env::var(v).ok().filter(|s| !s.trim().is_empty());
    Settings {
        cache_dir: dir("WARPSAFE_SMT_CACHE"),
        dump_dir: dir("WARPSAFE_DUMP_SMT"),
        // A value that names no solver leaves z3; the CLI reports it ([`solver_from_env`]).
        solver: solver_from_env().ok().flatten().unwrap_or_default(),
        second_opinion: var("WARPSAFE_SECOND_OPINION").is_some_and(|v| v != "0"),
    }
}

/// The solver `$WARPSAFE_SOLVER` names (`None` when unset or empty), or why it names none.
pub fn solver_from_env() -> Result<Option<Solver>, String> {
    match std::env::var("WARPSAFE_SOLVER") {
        Ok(v) if !v.trim().is_empty() => v
            .parse()
            .map(Some)
            .map_err(|e| format!("$WARPSAFE_SOLVER: {e}")),
        _ => Ok(None),
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

/// Sends every query to `solver`.
pub fn set_solver(solver: Solver) {
    update(|s| s.solver = solver);
}

/// Asks the other solver too about every sat/unsat answer (`false`: the chosen one only).
pub fn set_second_opinion(on: bool) {
    update(|s| s.second_opinion = on);
}
