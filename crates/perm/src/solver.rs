//! Deciding queries with z3 through `warpsafe-smt`: one short-lived process per script, with a
//! soft per-query timeout and a hard wall-clock limit; answers cached, scripts dumped with
//! `--dump-smt`/`WARPSAFE_DUMP_SMT`.

use crate::term::{Sort, Term};
use std::collections::BTreeMap;
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
            f.write_shared(&mut body);
            body.push_str(")\n");
        }
        let mut out = String::from("(set-logic ALL)\n");
        for (name, (args, sort)) in &self.decls {
            if mentions_word(&body, name) {
                let args: Vec<String> = args.iter().map(Sort::to_string).collect();
                out.push_str(&format!(
                    "(declare-fun {name} ({}) {})\n",
                    args.join(" "),
                    sort
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
        let (sat, text) = match warpsafe_smt::check_output("perm", &script, self.timeout) {
            (warpsafe_smt::Answer::Unsat, _) => (Sat::Unsat, String::new()),
            (warpsafe_smt::Answer::Sat, rest) => (Sat::Sat, rest),
            (warpsafe_smt::Answer::Unknown(why), _) => (Sat::Unknown(why), String::new()),
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
    use crate::term::int_sym;

    #[test]
    fn decides_simple_queries() {
        let mut s = Solver::new(Duration::from_secs(5));
        s.declare("x", Sort::Int);
        let x = int_sym("x");
        let q = [x.lt(&Term::int(3)), Term::int(5).lt(&x)];
        assert_eq!(s.check(&q), Sat::Unsat);
        assert_eq!(s.check(&[x.lt(&Term::int(3))]), Sat::Sat);
    }

    #[test]
    fn satisfiable_queries_come_with_the_values_asked_for() {
        let mut s = Solver::new(Duration::from_secs(5));
        s.declare("x", Sort::Int);
        s.declare("y", Sort::Int);
        let x = int_sym("x");
        let q = [x.eq(&Term::int(-4))];
        let (sat, model) = s.check_with_model(&q, &["x".to_string(), "y".to_string()]);
        assert_eq!(sat, Sat::Sat);
        assert_eq!(model, vec![("x".to_string(), "(- 4)".to_string())]);
    }

    #[test]
    fn declares_only_used_symbols() {
        let mut s = Solver::new(Duration::from_secs(5));
        s.declare("x", Sort::Int);
        s.declare("xy", Sort::Int);
        let script = s.script(&[int_sym("x").eq(&Term::int(1))]);
        assert!(script.contains("(declare-fun x () Int)"));
        assert!(!script.contains("xy"));
    }
}
