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
    program: &'static str,
}

impl Solver {
    /// A solver giving each query `timeout`.
    pub fn new(timeout: Duration) -> Solver {
        Solver {
            decls: BTreeMap::new(),
            timeout,
            program: "z3",
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
        self.check_with_model(facts, &[]).0
    }

    /// Like [`Solver::check`], and when satisfiable the model's values of those of the
    /// constants `names` the facts mention, as SMT-LIB text (`3`, `(- 1)`, `true`).
    pub fn check_with_model(
        &self,
        facts: &[Term],
        names: &[String],
    ) -> (Sat, Vec<(String, String)>) {
        let mut script = self.script(facts);
        let asked: Vec<&String> = names
            .iter()
            .filter(|n| {
                self.decls
                    .get(n.as_str())
                    .is_some_and(|(args, _)| args.is_empty())
                    && mentions_word(&script, n)
            })
            .collect();
        if !asked.is_empty() {
            let list: Vec<&str> = asked.iter().map(|n| n.as_str()).collect();
            script.push_str(&format!("(get-value ({}))\n", list.join(" ")));
        }
        let text = match self.run(&script) {
            Ok(t) => t,
            Err(why) => return (Sat::Unknown(why), vec![]),
        };
        let sat = match text.lines().next().map(str::trim) {
            Some("unsat") => Sat::Unsat,
            Some("sat") => Sat::Sat,
            Some("unknown") => Sat::Unknown("the solver gave up (unknown)".into()),
            Some("timeout") => Sat::Unknown("solver timeout".into()),
            Some(other) => Sat::Unknown(format!("unexpected solver output `{other}`")),
            None => Sat::Unknown("solver timeout".into()),
        };
        let model = if sat == Sat::Sat {
            asked
                .iter()
                .filter_map(|n| value_of(&text, n).map(|v| (n.to_string(), v)))
                .collect()
        } else {
            vec![]
        };
        (sat, model)
    }

    /// Runs the solver on `script`, returning its standard output: a solver that does not
    /// start is an error, which [`Solver::check_with_model`] turns into [`Sat::Unknown`].
    fn run(&self, script: &str) -> Result<String, String> {
        let program = self.program;
        let ms = self.timeout.as_millis().max(1);
        let hard = self.timeout.as_secs() * 2 + 2;
        let mut child = Command::new(program)
            .args(["-smt2", "-in", &format!("-t:{ms}"), &format!("-T:{hard}")])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(script.as_bytes())
                .map_err(|e| format!("cannot talk to z3: {e}"))?;
        }
        let out = child
            .wait_with_output()
            .map_err(|e| format!("z3 failed: {e}"))?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// The value z3 printed for `name` in a `get-value` answer: the balanced text after
/// `(name `.
fn value_of(text: &str, name: &str) -> Option<String> {
    let key = format!("({name} ");
    let at = text.find(&key)? + key.len();
    let mut depth = 0i32;
    let mut out = String::new();
    for c in text[at..].chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => break,
            ')' => depth -= 1,
            _ => {}
        }
        out.push(c);
    }
    Some(out.split_whitespace().collect::<Vec<_>>().join(" "))
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
    fn satisfiable_queries_come_with_the_values_asked_for() {
        let mut s = Solver::new(Duration::from_secs(5));
        s.declare("x", Sort::Int);
        s.declare("y", Sort::Int);
        let x = Term::sym("x");
        let q = [Term::eq(x, Term::Int(-4))];
        let (sat, model) = s.check_with_model(&q, &["x".to_string(), "y".to_string()]);
        assert_eq!(sat, Sat::Sat);
        assert_eq!(model, vec![("x".to_string(), "(- 4)".to_string())]);
    }

    #[test]
    fn a_solver_that_does_not_start_proves_nothing() {
        let mut s = Solver::new(Duration::from_secs(1));
        s.program = "warpsafe-no-such-solver";
        s.declare("x", Sort::Int);
        let q = [
            Term::lt(Term::sym("x"), Term::Int(0)),
            Term::lt(Term::Int(0), Term::sym("x")),
        ];
        assert!(matches!(s.check(&q), Sat::Unknown(r) if r.contains("cannot start")));
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
