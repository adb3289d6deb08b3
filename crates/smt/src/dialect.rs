//! The z3-flavoured SMT-LIB our engines write, said in each solver's own words. z3 takes it
//! as it is. For cvc5: `(check-sat-using T)` becomes `(check-sat)` (under `(try-for T MS)`,
//! with `(set-option :tlimit-per MS)` first), `(set-option :timeout MS)` becomes
//! `:tlimit-per`, and z3's module options (`:smt.random_seed`) and `(set-param …)` are
//! dropped (cvc5 would print `unsupported`, out of step with the answers we read).
//!
//! The translation is of commands only: the terms in them are standard SMT-LIB, which both
//! solvers read.

use crate::reply::Reply;
use crate::solver::Solver;
use std::borrow::Cow;

/// One command as `solver` should receive it: unchanged, rewritten, or `None` (dropped).
pub(crate) fn command(solver: Solver, cmd: &str) -> Option<Cow<'_, str>> {
    if solver == Solver::Z3 {
        return Some(Cow::Borrowed(cmd));
    }
    let head = head(cmd);
    match head {
        "check-sat-using" => Some(match try_for(cmd) {
            Some(ms) => Cow::Owned(format!("(set-option :tlimit-per {ms})\n(check-sat)")),
            None => Cow::Borrowed("(check-sat)"),
        }),
        "set-param" => None,
        "set-option" => {
            let key = keyword(cmd);
            if let Some(ms) = timeout_of(cmd) {
                Some(Cow::Owned(format!("(set-option :tlimit-per {ms})")))
            } else if key.contains('.') || key == ":timeout" {
                None
            } else {
                Some(Cow::Borrowed(cmd))
            }
        }
        _ => Some(Cow::Borrowed(cmd)),
    }
}

/// A whole script as `solver` should receive it (every top-level command translated; for
/// cvc5 a `(set-logic ALL)` first when the script sets no logic, which is what cvc5 assumes
/// anyway, said so that it does not warn).
pub(crate) fn script(solver: Solver, text: &str) -> Cow<'_, str> {
    if solver == Solver::Z3 {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 32);
    let forms = forms(text);
    if !forms.iter().any(|f| head(f) == "set-logic") {
        out.push_str("(set-logic ALL)\n");
    }
    for f in forms {
        if let Some(c) = command(solver, f) {
            out.push_str(&c);
            out.push('\n');
        }
    }
    Cow::Owned(out)
}

/// The limit in milliseconds of the `(try-for TACTIC MS)` inside a `check-sat-using`.
pub(crate) fn try_for(cmd: &str) -> Option<u64> {
    fn find(r: &Reply) -> Option<u64> {
        let l = r.list()?;
        if let [Reply::Atom(h), _, Reply::Atom(ms)] = l {
            if h == "try-for" {
                return ms.parse().ok();
            }
        }
        l.iter().find_map(find)
    }
    find(&Reply::parse(cmd)?.0)
}

/// The limit of a `(set-option :timeout MS)` (z3's per-check limit, set by the engines).
pub(crate) fn timeout_of(cmd: &str) -> Option<u64> {
    if head(cmd) != "set-option" || keyword(cmd) != ":timeout" {
        return None;
    }
    cmd.trim()
        .trim_end_matches(')')
        .rsplit(|c: char| c.is_whitespace())
        .next()?
        .parse()
        .ok()
}

/// `cmd` with the limits of its `(try-for TACTIC MS)` left out (`(try-for TACTIC)`): the
/// text of a check apart from its limit, which timeout entries keep beside it.
pub(crate) fn without_limits(cmd: &str) -> Cow<'_, str> {
    fn strip(r: &Reply) -> Reply {
        match r {
            Reply::Atom(_) => r.clone(),
            Reply::List(l) => match l.as_slice() {
                [Reply::Atom(h), t, Reply::Atom(_)] if h == "try-for" => {
                    Reply::List(vec![Reply::Atom(h.clone()), strip(t)])
                }
                _ => Reply::List(l.iter().map(strip).collect()),
            },
        }
    }
    if !cmd.contains("try-for") {
        return Cow::Borrowed(cmd);
    }
    match Reply::parse(cmd) {
        Some((r, _)) => Cow::Owned(strip(&r).to_string()),
        None => Cow::Borrowed(cmd),
    }
}

/// The command's name: `check-sat` of `(check-sat)`.
fn head(cmd: &str) -> &str {
    let s = cmd.trim_start().trim_start_matches('(').trim_start();
    let end = s
        .find(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .unwrap_or(s.len());
    &s[..end]
}

/// The option name of a `set-option` (`:timeout`).
fn keyword(cmd: &str) -> &str {
    let s = cmd.trim_start().trim_start_matches('(').trim_start();
    let s = s["set-option".len().min(s.len())..].trim_start();
    let end = s
        .find(|c: char| c.is_whitespace() || c == ')')
        .unwrap_or(s.len());
    &s[..end]
}

/// The top-level forms of a script, comments and whitespace between them left out. A form
/// cut off at the end is kept as it is (the solver reports it).
pub(crate) fn forms(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_whitespace() => i += 1,
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            _ => {
                let start = i;
                let mut depth = 0usize;
                while i < b.len() {
                    match b[i] {
                        b'(' => depth += 1,
                        b')' => depth = depth.saturating_sub(1),
                        b';' if depth > 0 => {
                            while i < b.len() && b[i] != b'\n' {
                                i += 1;
                            }
                            continue;
                        }
                        q @ (b'"' | b'|') => {
                            i += 1;
                            while i < b.len() && b[i] != q {
                                i += 1;
                            }
                        }
                        c if depth == 0 && (c.is_ascii_whitespace() || c == b';') => break,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 && b[start] == b'(' {
                        break;
                    }
                }
                out.push(&text[start..i.min(b.len())]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z3_gets_everything_as_it_is() {
        for c in [
            "(check-sat-using (try-for smt 100))",
            "(set-option :timeout 5)",
        ] {
            assert_eq!(command(Solver::Z3, c).as_deref(), Some(c));
        }
        let s = "(set-option :timeout 5)\n(check-sat-using qfbv)\n";
        assert_eq!(script(Solver::Z3, s), s);
    }

    #[test]
    fn z3_only_commands_are_translated_for_cvc5() {
        let c = |s| command(Solver::Cvc5, s).map(|c| c.into_owned());
        assert_eq!(
            c("(check-sat-using (try-for qflia 150))").as_deref(),
            Some("(set-option :tlimit-per 150)\n(check-sat)")
        );
        assert_eq!(
            c("(check-sat-using (then simplify bit-blast sat))").as_deref(),
            Some("(check-sat)")
        );
        assert_eq!(
            c("(set-option :timeout 2500)").as_deref(),
            Some("(set-option :tlimit-per 2500)")
        );
        assert_eq!(c("(set-option :smt.random_seed 3)"), None);
        assert_eq!(c("(set-param :timeout 3)"), None);
        assert_eq!(
            c("(set-option :produce-models true)").as_deref(),
            Some("(set-option :produce-models true)")
        );
        assert_eq!(c("(assert (> x 0))").as_deref(), Some("(assert (> x 0))"));
        assert_eq!(c("(get-value (x))").as_deref(), Some("(get-value (x))"));
    }

    #[test]
    fn scripts_are_split_into_commands_and_translated() {
        let s = "; a comment (with parens\n(declare-const |a b| Int)(assert (= |a b| 1)) ; c\n(echo \"x)\")\n(check-sat-using (then simplify smt))\n(get-value (|a b|))\n";
        assert_eq!(
            forms(s),
            vec![
                "(declare-const |a b| Int)",
                "(assert (= |a b| 1))",
                "(echo \"x)\")",
                "(check-sat-using (then simplify smt))",
                "(get-value (|a b|))"
            ]
        );
        let t = script(Solver::Cvc5, s);
        assert!(t.starts_with("(set-logic ALL)\n"), "{t}");
        assert!(
            t.contains("\n(check-sat)\n") && !t.contains("check-sat-using"),
            "{t}"
        );
        let own = "(set-logic QF_BV)\n(check-sat)\n";
        assert_eq!(script(Solver::Cvc5, own), own);
    }

    #[test]
    fn limits_are_recognised() {
        assert_eq!(try_for("(check-sat-using (try-for smt 70))"), Some(70));
        assert_eq!(
            try_for("(check-sat-using (then simplify (try-for qfbv 9)))"),
            Some(9)
        );
        assert_eq!(try_for("(check-sat-using smt)"), None);
        assert_eq!(timeout_of("(set-option :timeout 250)"), Some(250));
        assert_eq!(timeout_of("(set-option :produce-models true)"), None);
        assert_eq!(
            without_limits("(check-sat-using (try-for qflia 150))"),
            "(check-sat-using (try-for qflia))"
        );
        assert_eq!(without_limits("(check-sat)"), "(check-sat)");
    }
}
