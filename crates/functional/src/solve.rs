//! Obligations as SMT-LIB scripts, each decided by a fresh z3 process (`warpsafe-smt`).

use crate::term::{Decls, Term, TermExt};
use std::time::{Duration, Instant};

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
                p.write_smt(&mut out);
                out.push_str(")\n");
            }
        }
        out.push_str("(assert ");
        negated.write_smt(&mut out);
        out.push_str(")\n(check-sat)\n");
        out
    }

    /// The script, or `None` when the goal is trivially true.
    pub fn script_unless_trivial(&self) -> Option<String> {
        (self.goal.as_bool() != Some(true)).then(|| self.script())
    }
}

/// Decides a script from [`Query::script`] within `timeout` (through `warpsafe-smt`: cached,
/// dumped with `--dump-smt`/`WARPSAFE_DUMP_SMT`); the answer and seconds.
pub fn run_script(script: &str, timeout: Duration) -> (Answer, f64) {
    let start = Instant::now();
    let answer = match warpsafe_smt::check("functional", script, timeout) {
        warpsafe_smt::Answer::Unsat => Answer::Proved,
        warpsafe_smt::Answer::Sat => Answer::Refuted,
        warpsafe_smt::Answer::Unknown(why) => Answer::Unknown(why),
    };
    (answer, start.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_and_invalid_goals() {
        if !warpsafe_smt::available() {
            return;
        }
        let t = Duration::from_secs(5);
        let q = |goal| Query {
            premises: vec![],
            goal,
        };
        assert_eq!(
            run_script(&q(Term::bool(true)).script(), t).0,
            Answer::Proved
        );
        assert_eq!(
            run_script(&q(Term::bool(false)).script(), t).0,
            Answer::Refuted
        );
    }
}
