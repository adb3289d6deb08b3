//! Deciding queries with the `z3` binary: one short-lived `z3 -smt2 -in` process per query,
//! with a soft per-query timeout and a hard wall-clock limit.

use crate::term::{Sort, Term};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The answer to "is this conjunction satisfiable?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sat {
    /// Unsatisfiable: the obligation whose negation was asked holds.
    Unsat,
    /// Satisfiable: a counterexample exists.
    Sat,
    /// No answer, with the reason.
    Unknown(String),
}

/// Symbol declarations shared by every query of one check, and the solver settings.
#[derive(Clone, Debug)]
pub struct Solver {
    decls: BTreeMap<String, (Vec<Sort>, Sort)>,
    timeout: Duration,
}

impl Solver {
    /// A solver giving each query `timeout`.
    pub fn new(timeout: Duration) -> Solver {
        Solver {
            decls: BTreeMap::new(),
            timeout,
        }
    }

    /// Declares a shared constant.
    pub fn declare(&mut self, name: &str, sort: Sort) {
        self.decls.insert(name.to_string(), (vec![], sort));
    }

    /// Declares a per-thread value (a function of the thread index).
    pub fn declare_thread(&mut self, name: &str, sort: Sort) {
        self.decls.insert(name.to_string(), (vec![Sort::Int], sort));
    }

    /// Declares an uninterpreted function.
    pub fn declare_fun(&mut self, name: &str, args: Vec<Sort>, sort: Sort) {
        self.decls.insert(name.to_string(), (args, sort));
    }

    /// True when `name` is declared.
    pub fn is_declared(&self, name: &str) -> bool {
        self.decls.contains_key(name)
    }

    /// The SMT-LIB script asking whether all `facts` can hold together.
    pub fn script(&self, facts: &[Term]) -> String {
        let mut body = String::new();
        for f in facts {
            body.push_str("(assert ");
            f.write_smt(&mut body);
            body.push_str(")\n");
        }
        let mut out = String::from("(set-logic ALL)\n");
        for (name, (args, sort)) in &self.decls {
            if mentions_word(&body, name) {
                let args: Vec<String> = args.iter().map(Sort::smt).collect();
                out.push_str(&format!(
                    "(declare-fun {name} ({}) {})\n",
                    args.join(" "),
                    sort.smt()
                ));
            }
        }
        out.push_str(&body);
        out.push_str("(check-sat)\n");
        out
    }

    /// Decides whether all `facts` can hold together.
    pub fn check(&self, facts: &[Term]) -> Sat {
        let script = self.script(facts);
        let ms = self.timeout.as_millis().max(1);
        let hard = self.timeout.as_secs() * 2 + 2;
        let child = Command::new("z3")
            .args(["-smt2", "-in", &format!("-t:{ms}"), &format!("-T:{hard}")])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let mut child = match child {
            Ok(c) => c,
            Err(e) => return Sat::Unknown(format!("cannot start z3: {e}")),
        };
        if let Some(mut stdin) = child.stdin.take() {
            if let Err(e) = stdin.write_all(script.as_bytes()) {
                return Sat::Unknown(format!("cannot talk to z3: {e}"));
            }
        }
        let out = match child.wait_with_output() {
            Ok(o) => o,
            Err(e) => return Sat::Unknown(format!("z3 failed: {e}")),
        };
        let text = String::from_utf8_lossy(&out.stdout);
        match text.lines().next().map(str::trim) {
            Some("unsat") => Sat::Unsat,
            Some("sat") => Sat::Sat,
            Some("unknown") => Sat::Unknown("the solver gave up (unknown)".into()),
            Some("timeout") => Sat::Unknown("solver timeout".into()),
            Some(other) => Sat::Unknown(format!("unexpected solver output `{other}`")),
            None => Sat::Unknown("solver timeout".into()),
        }
    }
}

fn mentions_word(text: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '!' || c == '.';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decides_simple_queries() {
        let mut s = Solver::new(Duration::from_secs(5));
        s.declare("x", Sort::Int);
        let x = Term::sym("x");
        let q = [
            Term::lt(x.clone(), Term::Int(3)),
            Term::lt(Term::Int(5), x.clone()),
        ];
        assert_eq!(s.check(&q), Sat::Unsat);
        assert_eq!(s.check(&[Term::lt(x, Term::Int(3))]), Sat::Sat);
    }

    #[test]
    fn declares_only_used_symbols() {
        let mut s = Solver::new(Duration::from_secs(5));
        s.declare("x", Sort::Int);
        s.declare("xy", Sort::Int);
        let script = s.script(&[Term::eq(Term::sym("x"), Term::Int(1))]);
        assert!(script.contains("(declare-fun x () Int)"));
        assert!(!script.contains("xy"));
    }
}
