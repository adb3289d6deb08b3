//! Counters of solver work for the whole process, for reports: queries, time in the solver,
//! cache hits, and what a second opinion found.

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
static CACHED_TIMEOUTS: AtomicU64 = AtomicU64::new(0);
static SECOND_CHECKS: AtomicU64 = AtomicU64::new(0);
static DISAGREEMENTS: AtomicU64 = AtomicU64::new(0);
static SECOND_FAILURES: AtomicU64 = AtomicU64::new(0);

/// A snapshot of the counters ([`stats`]); subtract two with [`Stats::since`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// The solver queries go to (`z3`, `cvc5`), as configured when the snapshot was taken.
    pub solver: &'static str,
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
    /// Checks answered "unknown" at once because the same text ran out of the same or a
    /// larger limit before (counted in `checks` neither as asked nor as answered).
    pub cached_timeouts: u64,
    /// Whether the other solver was asked for a second opinion (see the next three).
    pub second_opinion: bool,
    /// Sat/unsat answers the other solver was asked about.
    pub second_checks: u64,
    /// Answers the other solver contradicted (sat against unsat).
    pub disagreements: u64,
    /// Second opinions not had (the other solver said unknown, failed, or is missing).
    pub second_failures: u64,
}

/// The counters now.
pub fn stats() -> Stats {
    let settings = crate::settings();
    Stats {
        solver: settings.solver.name(),
        queries: QUERIES.load(Relaxed),
        checks: CHECKS.load(Relaxed),
        solver_seconds: NANOS.load(Relaxed) as f64 * 1e-9,
        cache_hits: HITS.load(Relaxed),
        starts: STARTS.load(Relaxed),
        kills: KILLS.load(Relaxed),
        unknowns: UNKNOWNS.load(Relaxed),
        cached_timeouts: CACHED_TIMEOUTS.load(Relaxed),
        second_opinion: settings.second_opinion,
        second_checks: SECOND_CHECKS.load(Relaxed),
        disagreements: DISAGREEMENTS.load(Relaxed),
        second_failures: SECOND_FAILURES.load(Relaxed),
    }
}

impl Stats {
    /// What was counted between `earlier` and `self`.
    pub fn since(&self, earlier: &Stats) -> Stats {
        Stats {
            solver: self.solver,
            queries: self.queries.saturating_sub(earlier.queries),
            checks: self.checks.saturating_sub(earlier.checks),
            solver_seconds: (self.solver_seconds - earlier.solver_seconds).max(0.0),
            cache_hits: self.cache_hits.saturating_sub(earlier.cache_hits),
            starts: self.starts.saturating_sub(earlier.starts),
            kills: self.kills.saturating_sub(earlier.kills),
            unknowns: self.unknowns.saturating_sub(earlier.unknowns),
            cached_timeouts: self.cached_timeouts.saturating_sub(earlier.cached_timeouts),
            second_opinion: self.second_opinion,
            second_checks: self.second_checks.saturating_sub(earlier.second_checks),
            disagreements: self.disagreements.saturating_sub(earlier.disagreements),
            second_failures: self.second_failures.saturating_sub(earlier.second_failures),
        }
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let solver = if self.solver.is_empty() {
            "z3"
        } else {
            self.solver
        };
        write!(
            f,
            "{} queries to {solver} ({} from the cache, {} unanswered), {} checks, {:.1} s in the solver, {} processes started",
            self.queries, self.cache_hits, self.unknowns, self.checks, self.solver_seconds, self.starts
        )?;
        if self.kills > 0 {
            write!(f, ", {} killed by the watchdog", self.kills)?;
        }
        if self.cached_timeouts > 0 {
            write!(f, ", {} timeouts from the cache", self.cached_timeouts)?;
        }
        if self.second_opinion {
            let other = match self.solver {
                "cvc5" => "z3",
                _ => "cvc5",
            };
            write!(
                f,
                "; second opinion ({other}): {} answers checked, {} disagreements",
                self.second_checks, self.disagreements
            )?;
            if self.second_failures > 0 {
                write!(
                    f,
                    ", {} not checked (unknown or failed)",
                    self.second_failures
                )?;
            }
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

pub(crate) fn count_unknown() {
    UNKNOWNS.fetch_add(1, Relaxed);
}

pub(crate) fn count_cached_timeout() {
    CACHED_TIMEOUTS.fetch_add(1, Relaxed);
}

pub(crate) fn count_second(disagreed: bool) {
    SECOND_CHECKS.fetch_add(1, Relaxed);
    if disagreed {
        DISAGREEMENTS.fetch_add(1, Relaxed);
    }
}

pub(crate) fn count_second_failure() {
    SECOND_FAILURES.fetch_add(1, Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_solver_and_the_second_opinion() {
        let s = Stats {
            solver: "cvc5",
            queries: 4,
            cache_hits: 1,
            cached_timeouts: 2,
            second_opinion: true,
            second_checks: 3,
            disagreements: 1,
            ..Stats::default()
        };
        let line = s.to_string();
        assert!(
            line.starts_with("4 queries to cvc5 (1 from the cache"),
            "{line}"
        );
        assert!(line.contains("2 timeouts from the cache"), "{line}");
        assert!(
            line.contains("second opinion (z3): 3 answers checked, 1 disagreements"),
            "{line}"
        );
        let z = Stats::default().to_string();
        assert!(
            z.starts_with("0 queries to z3 (") && !z.contains("second"),
            "{z}"
        );
        assert_eq!(s.since(&s).disagreements, 0);
        assert_eq!(s.since(&Stats::default()).solver, "cvc5");
    }
}
