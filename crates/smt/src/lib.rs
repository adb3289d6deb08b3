//! The one road from warpsafe to an SMT solver (z3, or cvc5). Every engine that asks a solver
//! anything goes through this crate, so they share one process discipline (a watchdog against
//! runaway or deadlocked processes, failures as answers, never panics), one result cache, one
//! dump mechanism and one set of statistics.
//!
//! - [`Solver`]: z3 (the default) or cvc5, chosen with [`set_solver`] or `WARPSAFE_SOLVER`;
//!   the engines write z3's SMT-LIB, and the z3-only commands in it are said in cvc5's words
//!   in one place (`dialect`). [`set_second_opinion`] asks the other solver about every
//!   sat/unsat answer and turns a contradiction into "solvers disagree".
//! - [`Arena`] / [`SExpr`]: hash-consed S-expressions for engines that build queries as terms.
//! - [`Process`] / [`Pool`]: incremental solver processes (`push`/`pop`, tactics, models as
//!   [`Reply`] values), pooled per run, replaced when one dies.
//! - [`check`] / [`check_output`]: a whole SMT-LIB script decided by a fresh process.
//! - [`cache`]: answers remembered by the exact query text and solver, in memory and, with
//!   `WARPSAFE_SMT_CACHE=DIR` or [`set_cache_dir`], on disk; timeouts with their limit.
//! - [`dump`]: `--dump-smt DIR` (or `WARPSAFE_DUMP_SMT=DIR`) for every engine.
//! - [`stats`]: queries, solver seconds, cache hits, second opinions, for reports.
//!
//! ```
//! use std::time::Duration;
//! let script = "(declare-const x Int)\n(assert (< x 0))\n(assert (> x 0))\n(check-sat)\n";
//! match warpsafe_smt::check("doc", script, Duration::from_secs(5)) {
//!     warpsafe_smt::Answer::Unsat => {}
//!     // No z3 installed: an answer, not a panic.
//!     warpsafe_smt::Answer::Unknown(why) => assert!(why.contains("z3"), "{why}"),
//!     other => panic!("{other:?}"),
//! }
//! ```

pub mod cache;
mod dialect;
pub mod dump;
mod oneshot;
mod pool;
mod process;
mod reply;
mod second;
mod settings;
mod sexpr;
mod solver;
mod stats;
mod watchdog;

pub use cache::Cached;
pub use dump::{dump, dump_to};
pub use oneshot::{check, check_output, Answer};
pub use pool::Pool;
pub use process::{available, version, Process, Response};
pub use reply::Reply;
pub use settings::{
    set_cache_dir, set_dump_dir, set_second_opinion, set_solver, settings, solver_from_env,
    Settings,
};
pub use sexpr::{Arena, SExpr};
pub use solver::Solver;
pub use stats::{stats, Stats};
