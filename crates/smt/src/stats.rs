//! Counters of solver work for the whole process, for reports: queries, time in the solver,
//! cache hits.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

static QUERIES: AtomicU64 = AtomicU64::new(0);
static CHECKS: AtomicU64 = AtomicU64::new(0);
static NANOS: AtomicU64 = AtomicU64::new(0);
static HITS: AtomicU64 = AtomicU64::new(0);
static STARTS: AtomicU64 = AtomicU64::new(0);
static KILLS: AtomicU64 = AtomicU64::new(0);
static UNKNOWNS: AtomicU64 = AtomicU64::new(0);

/// A snapshot of the counters ([`stats`]); subtract two with [`Stats::since`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Queries asked (answered by a solver or by the cache).
    pub queries: u64,
    /// `check-sat` commands solvers answered (a query may take several).
    pub checks: u64,
    /// Wall-clock seconds spent waiting for solvers (summed over threads).
    pub solver_seconds: f64,
    /// Queries answered from the cache.
    pub cache_hits: u64,
    /// Solver processes started.
    pub starts: u64,
    /// Solver processes killed by the watchdog.
    pub kills: u64,
    /// Queries that got no answer (unknown, timeout, crash).
    pub unknowns: u64,
}

/// The counters now.
pub fn stats() -> Stats {
    Stats {
        queries: QUERIES.load(Relaxed),
        checks: CHECKS.load(Relaxed),
        solver_seconds: NANOS.load(Relaxed) as f64 * 1e-9,
        cache_hits: HITS.load(Relaxed),
        starts: STARTS.load(Relaxed),
        kills: KILLS.load(Relaxed),
        unknowns: UNKNOWNS.load(Relaxed),
    }
}

impl Stats {
    /// What was counted between `earlier` and `self`.
    pub fn since(&self, earlier: &Stats) -> Stats {
        Stats {
            queries: self.queries.saturating_sub(earlier.queries),
            checks: self.checks.saturating_sub(earlier.checks),
            solver_seconds: (self.solver_seconds - earlier.solver_seconds).max(0.0),
            cache_hits: self.cache_hits.saturating_sub(earlier.cache_hits),
            starts: self.starts.saturating_sub(earlier.starts),
            kills: self.kills.saturating_sub(earlier.kills),
            unknowns: self.unknowns.saturating_sub(earlier.unknowns),
        }
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} queries ({} from the cache, {} unanswered), {} checks, {:.1} s in the solver, {} processes started",
            self.queries, self.cache_hits, self.unknowns, self.checks, self.solver_seconds, self.starts
        )?;
        if self.kills > 0 {
            write!(f, ", {} killed by the watchdog", self.kills)?;
        }
        Ok(())
    }
}

pub(crate) fn count_query(took: Duration, answered: bool) {
    QUERIES.fetch_add(1, Relaxed);
    NANOS.fetch_add(took.as_nanos().min(u64::MAX as u128) as u64, Relaxed);
    if !answered {
        UNKNOWNS.fetch_add(1, Relaxed);
    }
}

pub(crate) fn count_hit() {
    QUERIES.fetch_add(1, Relaxed);
    HITS.fetch_add(1, Relaxed);
}

pub(crate) fn count_check() {
    CHECKS.fetch_add(1, Relaxed);
}

pub(crate) fn count_start() {
    STARTS.fetch_add(1, Relaxed);
}

pub(crate) fn count_kill() {
    KILLS.fetch_add(1, Relaxed);
}
