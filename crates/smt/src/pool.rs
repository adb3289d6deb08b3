//! Solver processes shared by the worker threads of one run: at most one per worker, reused
//! from query to query, replaced when one dies.

use crate::process::Process;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A pool of [`Process`]es; they start on first use.
pub struct Pool {
    free: Mutex<Vec<Process>>,
    backstop: Duration,
}

impl Pool {
    /// An empty pool whose processes are killed when one answer takes longer than `backstop`.
    pub fn new(backstop: Duration) -> Pool {
        Pool {
            free: Mutex::new(vec![]),
            backstop,
        }
    }

    /// Runs `ask` on a process: a free one, or a new one when `fresh` (a query sensitive to
    /// what earlier ones left in the process) or none is free. A process that died mid-query
    /// (killed by the watchdog, or crashed) says nothing about the query: `ask` runs once more
    /// on a fresh process. Failures (and panics in `ask`) come back as `Err` with the reason.
    pub fn run<R>(
        &self,
        fresh: bool,
        ask: impl Fn(&mut Process) -> io::Result<R>,
    ) -> Result<R, String> {
        let start = Instant::now();
        let r = self.run_inner(fresh, ask);
        crate::stats::count_query(start.elapsed(), r.is_ok());
        r
    }

    fn run_inner<R>(
        &self,
        fresh: bool,
        ask: impl Fn(&mut Process) -> io::Result<R>,
    ) -> Result<R, String> {
        let popped = if fresh {
            None
        } else {
            self.free.lock().ok().and_then(|mut v| v.pop())
        };
        let mut p = match popped {
            Some(p) => p,
            None => Process::start(self.backstop).map_err(|e| format!("cannot start z3: {e}"))?,
        };
        let once = |p: &mut Process| {
            catch_unwind(AssertUnwindSafe(|| ask(p)))
                .unwrap_or_else(|_| Err(io::Error::other("the solver interface failed")))
        };
        let mut r = once(&mut p);
        if r.is_err() && p.is_dead() {
            p = Process::start(self.backstop).map_err(|e| format!("cannot restart z3: {e}"))?;
            r = once(&mut p);
        }
        match r {
            Ok(v) => {
                if !fresh && !p.is_dead() {
                    if let Ok(mut free) = self.free.lock() {
                        free.push(p);
                    }
                }
                Ok(v)
            }
            Err(e) => Err(e.to_string()),
        }
    }
}
