//! Solver processes shared by the worker threads of one run: at most one per worker, reused
//! from query to query, replaced when one dies. With a second opinion, each query's commands
//! are replayed on the other solver ([`crate::second`]).

use crate::process::Process;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many fresh processes a query that a dying process left unanswered gets.
const MOST_RETRIES: usize = 3;

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
        let settings = crate::settings();
        let popped = if fresh {
            None
        } else {
            self.free.lock().ok().and_then(|mut v| v.pop())
        };
        let reused = popped.is_some();
        let mut p = match popped {
            Some(p) => p,
            None => Process::start(self.backstop).map_err(|e| e.to_string())?,
        };
        let once = |p: &mut Process| {
            p.begin_query(settings.second_opinion);
            catch_unwind(AssertUnwindSafe(|| ask(p)))
                .unwrap_or_else(|_| Err(io::Error::other("the solver interface failed")))
        };
        let mut r = once(&mut p);
        // A fresh process that printed an error would print it again; a reused one may have
        // failed on what an earlier query left, and one that was killed or crashed says
        // nothing about the query. z3 4.8.12 deadlocks at random (the watchdog kills it
        // idle) and did so twice running on one query of a loaded CI machine: such deaths
        // get a few fresh processes, one that ran past its backstop only one.
        let mut retries = 0;
        while r.is_err() && p.is_dead() && (retries == 0 && reused || !p.errored()) {
            let most = if p.over_limit() { 1 } else { MOST_RETRIES };
            if retries >= most {
                break;
            }
            retries += 1;
            p = Process::start(self.backstop).map_err(|e| format!("cannot restart: {e}"))?;
            r = once(&mut p);
        }
        if r.is_ok() {
            if let Some(steps) = p.take_record() {
                let solver = p.solver();
                if let Some(why) = crate::second::replay(solver, &steps, self.backstop) {
                    return Err(why);
                }
            }
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
