//! Obligations as SMT-LIB scripts, each decided by a fresh z3 process.

use crate::term::{Decls, Term};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

static DUMPED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// `premises → goal`, to be proved valid (`WARPSAFE_DUMP_SMT=DIR` writes every script there).
#[derive(Clone, Debug)]
pub struct Query {
    /// What is assumed.
    pub premises: Vec<Term>,
    /// What must follow.
    pub goal: Term,
}

/// What z3 said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Valid (the negation is unsatisfiable).
    Proved,
    /// A model of the negation exists.
    Refuted,
    /// Neither within the time limit, or z3 failed; the reason.
    Unknown(String),
}

impl Query {
    /// The SMT-LIB script checking the negation of the query.
    pub fn script(&self) -> String {
        let negated = self.goal.not();
        let mut decls = Decls::default();
        for p in &self.premises {
            p.declare(&mut decls);
        }
        negated.declare(&mut decls);
        let mut out = String::new();
        decls.write(&mut out);
        for p in &self.premises {
            if p.as_bool() != Some(true) {
                out.push_str("(assert ");
                p.write(&mut out);
                out.push_str(")\n");
            }
        }
        out.push_str("(assert ");
        negated.write(&mut out);
        out.push_str(")\n(check-sat)\n");
        out
    }

    /// The script, or `None` when the goal is trivially true.
    pub fn script_unless_trivial(&self) -> Option<String> {
        (self.goal.as_bool() != Some(true)).then(|| self.script())
    }
}

/// Decides a script from [`Query::script`] with z3 within `timeout`; the answer and seconds.
pub fn run_script(script: &str, timeout: Duration) -> (Answer, f64) {
    let start = Instant::now();
    let answer = run_z3(script, timeout);
    (answer, start.elapsed().as_secs_f64())
}

fn run_z3(script: &str, timeout: Duration) -> Answer {
    run_solver("z3", script, timeout)
}

/// Runs `program` (z3 or a stand-in) on `script`: an answer other than `unsat` or `sat`, or a
/// program that does not start, is `Unknown`, never a proof.
fn run_solver(program: &str, script: &str, timeout: Duration) -> Answer {
    if let Some(dir) = std::env::var_os("WARPSAFE_DUMP_SMT") {
        let n = DUMPED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let _ = std::fs::write(
            std::path::Path::new(&dir).join(format!("functional-{n}.smt2")),
            script,
        );
    }
    let ms = timeout.as_millis().max(1);
    let child = Command::new(program)
        .arg("-in")
        .arg(format!("-t:{ms}"))
        .arg(format!("-T:{}", timeout.as_secs() + 2))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            return Answer::Unknown(format!(
                "cannot run {program}: {e} (install z3: scripts/setup.sh)"
            ))
        }
    };
    if let Some(mut stdin) = child.stdin.take() {
        if let Err(e) = stdin.write_all(script.as_bytes()) {
            return Answer::Unknown(format!("cannot talk to z3: {e}"));
        }
    }
    let out = match child.wait_with_output() {
        Ok(o) => o,
        Err(e) => return Answer::Unknown(format!("z3 failed: {e}")),
    };
    let text = String::from_utf8_lossy(&out.stdout);
    match text.lines().next().map(str::trim) {
        Some("unsat") => Answer::Proved,
        Some("sat") => Answer::Refuted,
        Some("unknown") | Some("timeout") => {
            Answer::Unknown("z3 gave up (nonlinear arithmetic or time limit)".into())
        }
        _ => Answer::Unknown(format!(
            "z3: {}",
            text.lines()
                .chain(String::from_utf8_lossy(&out.stderr).lines())
                .next()
                .unwrap_or("no answer")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solver_that_does_not_start_proves_nothing() {
        let q = Query {
            premises: vec![],
            goal: Term::bool(false),
        };
        let a = run_solver(
            "warpsafe-no-such-solver",
            &q.script(),
            Duration::from_secs(1),
        );
        assert!(
            matches!(&a, Answer::Unknown(r) if r.contains("cannot run")),
            "{a:?}"
        );
    }
}
