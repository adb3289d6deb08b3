//! A whole SMT-LIB script decided by a fresh solver process: for engines that write their
//! queries as text (functional, induct, perm). Cached (timeouts with their limit), dumped,
//! counted and cross-checked like every query.

use crate::cache::{self, Cached};
use crate::solver::Solver;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The answer to a script's (first) `check-sat`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// No answer (gave up, ran out of time, failed to start, crashed), with the reason.
    Unknown(String),
}

/// Decides `script` within `timeout`. `engine` names its dumps (`DIR/ENGINE-N.smt2`).
pub fn check(engine: &str, script: &str, timeout: Duration) -> Answer {
    check_output(engine, script, timeout).0
}

/// [`check`], with what the solver printed after its answer (the replies to `get-value`
/// commands that follow the `check-sat`), empty unless satisfiable. The script goes to the
/// configured solver, said in its words ([`crate::dialect`]); with a second opinion, a
/// sat/unsat answer is asked of the other solver too, and a contradiction is `Unknown`.
pub fn check_output(engine: &str, script: &str, timeout: Duration) -> (Answer, String) {
    let dumped = crate::dump::dump(engine, script);
    let settings = crate::settings();
    let solver = settings.solver;
    match cache::lookup_for(solver, script) {
        Some(Cached::Unsat) => return (Answer::Unsat, String::new()),
        Some(Cached::Sat(rest)) => return (Answer::Sat, rest),
        None => {}
    }
    let said = crate::dialect::script(solver, script);
    if cache::timed_out(solver, &said, timeout) {
        crate::stats::count_hit();
        crate::stats::count_unknown();
        crate::stats::count_cached_timeout();
        return (
            Answer::Unknown(format!(
                "unknown (timeout, cached): {solver} ran out of {} ms or more on this query before",
                timeout.as_millis()
            )),
            String::new(),
        );
    }
    let start = Instant::now();
    let (answer, rest) = run(solver, &said, timeout);
    let took = start.elapsed();
    crate::stats::count_query(took, !matches!(answer, Answer::Unknown(_)));
    if let Answer::Unknown(_) = &answer {
        if took * 10 >= timeout * 9 {
            cache::store_timeout(solver, &said, timeout);
        }
        return (answer, rest);
    }
    if settings.second_opinion {
        if let Some(why) = crate::second::script(solver, script, &answer, timeout, dumped) {
            return (Answer::Unknown(why), String::new());
        }
    }
    match &answer {
        Answer::Unsat => cache::store_for(solver, script, &Cached::Unsat),
        Answer::Sat => cache::store_for(solver, script, &Cached::Sat(rest.clone())),
        Answer::Unknown(_) => {}
    }
    (answer, rest)
}

/// Runs `solver` on `script` (already in its words) with a soft limit per check, a hard one
/// for the run, and the watchdog past both. An answer other than `sat`/`unsat`, or a program
/// that does not start, is `Unknown`, never a proof.
pub(crate) fn run(solver: Solver, script: &str, timeout: Duration) -> (Answer, String) {
    run_program(&solver.program(), solver, script, timeout)
}

fn run_program(program: &str, solver: Solver, script: &str, timeout: Duration) -> (Answer, String) {
    let unknown = |why: String| (Answer::Unknown(why), String::new());
    let hard = Duration::from_secs(timeout.as_secs() * 2 + 2);
    let child = Command::new(program)
        .args(solver.oneshot_args(timeout, hard))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            return unknown(format!(
                "cannot start {program}: {e} (install {solver}: scripts/setup.sh)"
            ))
        }
    };
    crate::stats::count_start();
    crate::stats::count_check();
    let _dog = crate::watchdog::watch(child.id(), hard + Duration::from_secs(5));
    if let Some(mut stdin) = child.stdin.take() {
        if let Err(e) = stdin.write_all(script.as_bytes()) {
            let _ = child.kill();
            let _ = child.wait();
            return unknown(format!("cannot talk to {program}: {e}"));
        }
    }
    let out = match child.wait_with_output() {
        Ok(o) => o,
        Err(e) => return unknown(format!("{program} failed: {e}")),
    };
    let text = String::from_utf8_lossy(&out.stdout);
    // cvc5 says `unsupported` for an option it does not know, and goes on.
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != "unsupported");
    let first = lines.next();
    let rest = || lines.clone().collect::<Vec<_>>().join("\n");
    match first {
        Some("unsat") => (Answer::Unsat, String::new()),
        Some("sat") => (Answer::Sat, rest()),
        Some("unknown") => unknown("the solver gave up (unknown)".into()),
        Some("timeout") => unknown(format!("solver timeout ({} ms)", timeout.as_millis())),
        Some(other) => unknown(format!("{program}: {other}")),
        None => {
            let err = String::from_utf8_lossy(&out.stderr);
            match err.lines().next() {
                Some(l) => unknown(format!("{program}: {l}")),
                None => unknown(format!(
                    "no answer from {program} (killed at its time limit)"
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solver_that_does_not_start_proves_nothing() {
        let (a, _) = run_program(
            "warpsafe-no-such-solver",
            Solver::Cvc5,
            "(assert false)\n(check-sat)\n",
            Duration::from_secs(1),
        );
        assert!(
            matches!(&a, Answer::Unknown(r) if r.contains("cannot start")),
            "{a:?}"
        );
    }

    #[test]
    fn scripts_are_decided_with_their_values_and_answered_again_from_the_cache() {
        if !crate::available() {
            return;
        }
        let t = Duration::from_secs(5);
        let s = "(declare-const x Int)\n(assert (< x 0))\n(assert (> x (- 2)))\n(check-sat)\n(get-value (x))\n";
        let before = crate::stats();
        assert_eq!(
            check_output("test", s, t),
            (Answer::Sat, "((x (- 1)))".into())
        );
        assert_eq!(
            check_output("test", s, t),
            (Answer::Sat, "((x (- 1)))".into())
        );
        let d = crate::stats().since(&before);
        assert!(d.queries >= 2 && d.cache_hits >= 1, "{d:?}");
        let u = "(declare-const x Int)\n(assert (< x 0))\n(assert (> x 0))\n(check-sat)\n";
        assert_eq!(check("test", u, t), Answer::Unsat);
        let bad = "(assert (> y 0))\n(check-sat)\n";
        assert!(matches!(check("test", bad, t), Answer::Unknown(_)));
        assert_eq!(cache::lookup(bad), None, "failures are not cached");
    }
}
