//! SMT terms over mathematical integers, reals, booleans and integer-indexed arrays, with
//! the executing thread's index as a distinguished leaf so that one per-thread term can be
//! instantiated for several threads.

use std::fmt::Write as _;
use std::rc::Rc;

/// An SMT sort.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sort {
    /// Mathematical integers.
    Int,
    /// Mathematical reals (floats, by the design's convention).
    Real,
    /// Booleans.
    Bool,
    /// Arrays from integers to the element sort.
    Array(Box<Sort>),
}

impl Sort {
    /// The SMT-LIB spelling.
    pub fn smt(&self) -> String {
        match self {
            Sort::Int => "Int".into(),
            Sort::Real => "Real".into(),
            Sort::Bool => "Bool".into(),
            Sort::Array(e) => format!("(Array Int {})", e.smt()),
        }
    }
}

/// An SMT term. `Tid` is the index of "the" thread; `ThreadSym` is a value private to a
/// thread, a function of its index; `Sym` is one value shared by every thread.
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    /// An integer literal.
    Int(i128),
    /// A raw literal (reals).
    Lit(Rc<str>),
    /// A boolean literal.
    Bool(bool),
    /// A constant shared by all threads (parameters, uniform loop variables, memory).
    Sym(Rc<str>),
    /// A per-thread value: an uninterpreted function of the thread term.
    ThreadSym(Rc<str>, Box<Term>),
    /// The executing thread's `threadIdx.x`.
    Tid,
    /// An operator applied to arguments.
    App(Rc<str>, Vec<Term>),
    /// `forall` over integer variables.
    Forall(Vec<Rc<str>>, Box<Term>),
    /// `let` naming values for the body: a term that needs an operand several times names it
    /// once (see [`Term::shared`]), so nested uses stay linear in size instead of copying it.
    Let(Vec<(Rc<str>, Term)>, Box<Term>),
}

impl Term {
    /// A shared symbol.
    pub fn sym(name: &str) -> Term {
        Term::Sym(name.into())
    }

    /// A per-thread symbol of the executing thread.
    pub fn thread_sym(name: &str) -> Term {
        Term::ThreadSym(name.into(), Box::new(Term::Tid))
    }

    /// `op(args)`.
    pub fn app(op: &str, args: Vec<Term>) -> Term {
        Term::App(op.into(), args)
    }

    /// An exact real literal `num/den`.
    pub fn real(num: i128, den: i128) -> Term {
        let body = format!("(/ {}.0 {}.0)", num.abs(), den.abs());
        if (num < 0) != (den < 0) && num != 0 {
            Term::Lit(format!("(- {body})").into())
        } else {
            Term::Lit(body.into())
        }
    }

    /// `a + b`.
    pub fn plus(a: Term, b: Term) -> Term {
        if let Some(t) = fold(&a, &b, i128::checked_add) {
            return t;
        }
        match (&a, &b) {
            (Term::Int(0), _) => b,
            (_, Term::Int(0)) => a,
            _ => Term::app("+", vec![a, b]),
        }
    }

    /// `a - b`.
    pub fn minus(a: Term, b: Term) -> Term {
        if let Some(t) = fold(&a, &b, i128::checked_sub) {
            return t;
        }
        match (&a, &b) {
            (_, Term::Int(0)) => a,
            _ => Term::app("-", vec![a, b]),
        }
    }

    /// `a * b`.
    pub fn times(a: Term, b: Term) -> Term {
        if let Some(t) = fold(&a, &b, i128::checked_mul) {
            return t;
        }
        match (&a, &b) {
            (Term::Int(1), _) => b,
            (_, Term::Int(1)) => a,
            _ => Term::app("*", vec![a, b]),
        }
    }

    /// `a == b`.
    pub fn eq(a: Term, b: Term) -> Term {
        Term::app("=", vec![a, b])
    }

    /// `a <= b`.
    pub fn le(a: Term, b: Term) -> Term {
        Term::app("<=", vec![a, b])
    }

    /// `a < b`.
    pub fn lt(a: Term, b: Term) -> Term {
        Term::app("<", vec![a, b])
    }

    /// `lo <= x < hi`.
    pub fn in_range(x: Term, lo: Term, hi: Term) -> Term {
        Term::and(vec![Term::le(lo, x.clone()), Term::lt(x, hi)])
    }

    /// Conjunction (simplifying literals).
    pub fn and(parts: Vec<Term>) -> Term {
        let mut out = vec![];
        for p in parts {
            match p {
                Term::Bool(true) => {}
                Term::Bool(false) => return Term::Bool(false),
                Term::App(ref op, ref args) if &**op == "and" => out.extend(args.iter().cloned()),
                p => out.push(p),
            }
        }
        match out.len() {
            0 => Term::Bool(true),
            1 => out.remove(0),
            _ => Term::app("and", out),
        }
    }

    /// Disjunction (simplifying literals).
    pub fn or(parts: Vec<Term>) -> Term {
        let mut out = vec![];
        for p in parts {
            match p {
                Term::Bool(false) => {}
                Term::Bool(true) => return Term::Bool(true),
                p => out.push(p),
            }
        }
        match out.len() {
            0 => Term::Bool(false),
            1 => out.remove(0),
            _ => Term::app("or", out),
        }
    }

    /// Negation.
    pub fn negate(a: Term) -> Term {
        match a {
            Term::Bool(b) => Term::Bool(!b),
            a => Term::app("not", vec![a]),
        }
    }

    /// `a ==> b`.
    pub fn implies(a: Term, b: Term) -> Term {
        match (&a, &b) {
            (Term::Bool(true), _) => b,
            (Term::Bool(false), _) | (_, Term::Bool(true)) => Term::Bool(true),
            _ => Term::app("=>", vec![a, b]),
        }
    }

    /// `if c then a else b`.
    pub fn ite(c: Term, a: Term, b: Term) -> Term {
        match c {
            Term::Bool(true) => a,
            Term::Bool(false) => b,
            _ if a == b => a,
            c => Term::app("ite", vec![c, a, b]),
        }
    }

    /// `body` applied to stand-ins for `terms`: each term that is not a leaf is named once by
    /// a `let` (as `let!0`, `let!1`, …, names no source can spell), so that `body` may use
    /// its arguments as often as it likes without copying them, and nested uses (a chain of
    /// divisions) stay linear in size. `body` must build its term from its arguments and
    /// literals only (a `let` name would capture nothing else, but nothing else is needed).
    pub fn shared<const N: usize>(terms: [Term; N], body: impl FnOnce([Term; N]) -> Term) -> Term {
        let mut binds = vec![];
        let mut i = 0;
        let args = terms.map(|t| {
            i += 1;
            if t.is_leaf() {
                t
            } else {
                let name: Rc<str> = format!("let!{}", i - 1).into();
                binds.push((name.clone(), t));
                Term::Sym(name)
            }
        });
        let body = body(args);
        if binds.is_empty() {
            body
        } else {
            Term::Let(binds, Box::new(body))
        }
    }

    /// True for a term that is cheap to copy: a literal, a symbol, the thread, or a per-thread
    /// value of the thread.
    fn is_leaf(&self) -> bool {
        match self {
            Term::Int(_) | Term::Lit(_) | Term::Bool(_) | Term::Sym(_) | Term::Tid => true,
            Term::ThreadSym(_, arg) => matches!(**arg, Term::Tid | Term::Sym(_)),
            _ => false,
        }
    }

    /// `arr[idx]`.
    pub fn select(arr: Term, idx: Term) -> Term {
        Term::app("select", vec![arr, idx])
    }

    /// `arr` with `arr[idx] = v`.
    pub fn store(arr: Term, idx: Term, v: Term) -> Term {
        Term::app("store", vec![arr, idx, v])
    }

    /// Replaces the executing thread by `t` (instantiating the term for another thread).
    pub fn for_thread(&self, t: &Term) -> Term {
        match self {
            Term::Tid => t.clone(),
            Term::ThreadSym(n, arg) => Term::ThreadSym(n.clone(), Box::new(arg.for_thread(t))),
            Term::App(op, args) => {
                Term::App(op.clone(), args.iter().map(|a| a.for_thread(t)).collect())
            }
            Term::Forall(vs, body) => Term::Forall(vs.clone(), Box::new(body.for_thread(t))),
            Term::Let(binds, body) => Term::Let(
                binds
                    .iter()
                    .map(|(n, v)| (n.clone(), v.for_thread(t)))
                    .collect(),
                Box::new(body.for_thread(t)),
            ),
            _ => self.clone(),
        }
    }

    /// Replaces the shared symbol `name` by `with`.
    pub fn replace_sym(&self, name: &str, with: &Term) -> Term {
        match self {
            Term::Sym(n) if &**n == name => with.clone(),
            Term::ThreadSym(n, arg) => {
                Term::ThreadSym(n.clone(), Box::new(arg.replace_sym(name, with)))
            }
            Term::App(op, args) => Term::App(
                op.clone(),
                args.iter().map(|a| a.replace_sym(name, with)).collect(),
            ),
            Term::Forall(vs, body) if !vs.iter().any(|v| &**v == name) => {
                Term::Forall(vs.clone(), Box::new(body.replace_sym(name, with)))
            }
            Term::Let(binds, body) => {
                let body = if binds.iter().any(|(n, _)| &**n == name) {
                    (**body).clone()
                } else {
                    body.replace_sym(name, with)
                };
                Term::Let(
                    binds
                        .iter()
                        .map(|(n, v)| (n.clone(), v.replace_sym(name, with)))
                        .collect(),
                    Box::new(body),
                )
            }
            _ => self.clone(),
        }
    }

    /// True when the term depends on which thread evaluates it.
    pub fn is_thread_dependent(&self) -> bool {
        match self {
            Term::Tid | Term::ThreadSym(..) => true,
            Term::App(_, args) => args.iter().any(Term::is_thread_dependent),
            Term::Forall(_, body) => body.is_thread_dependent(),
            Term::Let(binds, body) => {
                binds.iter().any(|(_, v)| v.is_thread_dependent()) || body.is_thread_dependent()
            }
            _ => false,
        }
    }

    /// True when the shared symbol `name` occurs in the term.
    pub fn mentions(&self, name: &str) -> bool {
        match self {
            Term::Sym(n) => &**n == name,
            Term::ThreadSym(n, arg) => &**n == name || arg.mentions(name),
            Term::App(_, args) => args.iter().any(|a| a.mentions(name)),
            Term::Forall(_, body) => body.mentions(name),
            Term::Let(binds, body) => {
                binds.iter().any(|(_, v)| v.mentions(name))
                    || !binds.iter().any(|(n, _)| &**n == name) && body.mentions(name)
            }
            _ => false,
        }
    }

    /// Writes the SMT-LIB text; `Tid` is written as `tid`.
    pub fn write_smt(&self, out: &mut String) {
        match self {
            Term::Int(i) if *i < 0 => {
                let _ = write!(out, "(- {})", i.unsigned_abs());
            }
            Term::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Term::Lit(s) | Term::Sym(s) => out.push_str(s),
            Term::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Term::Tid => out.push_str("tid"),
            Term::ThreadSym(n, arg) => {
                let _ = write!(out, "({n} ");
                arg.write_smt(out);
                out.push(')');
            }
            Term::App(op, args) => {
                let _ = write!(out, "({op}");
                for a in args {
                    out.push(' ');
                    a.write_smt(out);
                }
                out.push(')');
            }
            Term::Forall(vs, body) => {
                out.push_str("(forall (");
                for v in vs {
                    let _ = write!(out, "({v} Int)");
                }
                out.push_str(") ");
                body.write_smt(out);
                out.push(')');
            }
            Term::Let(binds, body) => {
                out.push_str("(let (");
                for (n, v) in binds {
                    let _ = write!(out, "({n} ");
                    v.write_smt(out);
                    out.push(')');
                }
                out.push_str(") ");
                body.write_smt(out);
                out.push(')');
            }
        }
    }

    /// The SMT-LIB text.
    pub fn smt(&self) -> String {
        let mut s = String::new();
        self.write_smt(&mut s);
        s
    }
}

/// `a op b` folded to a literal when both are literals and the result is exact and not
/// `i128::MIN` (so that negating or dividing a folded literal cannot overflow either);
/// otherwise `None`, and the operation stays a term that the solver evaluates over the
/// mathematical integers.
fn fold(a: &Term, b: &Term, op: fn(i128, i128) -> Option<i128>) -> Option<Term> {
    match (a, b) {
        (Term::Int(x), Term::Int(y)) => op(*x, *y).filter(|v| *v != i128::MIN).map(Term::Int),
        _ => None,
    }
}

/// Splits an integer term into `coeff * x + rest` for the shared symbol `x`, when the term
/// is linear in `x` through `+`, `-` and multiplication by literals (and the coefficient fits
/// in an `i128`).
pub fn linear_in(t: &Term, x: &str) -> Option<(i128, Term)> {
    if !t.mentions(x) {
        return Some((0, t.clone()));
    }
    match t {
        Term::Sym(n) if &**n == x => Some((1, Term::Int(0))),
        Term::App(op, args) if &**op == "+" => {
            let mut c = 0;
            let mut rest = Term::Int(0);
            for a in args {
                let (ca, ra) = linear_in(a, x)?;
                c = ca.checked_add(c)?;
                rest = Term::plus(rest, ra);
            }
            Some((c, rest))
        }
        Term::App(op, args) if &**op == "-" && args.len() == 2 => {
            let (ca, ra) = linear_in(&args[0], x)?;
            let (cb, rb) = linear_in(&args[1], x)?;
            Some((ca.checked_sub(cb)?, Term::minus(ra, rb)))
        }
        Term::App(op, args) if &**op == "*" && args.len() == 2 => match (&args[0], &args[1]) {
            (Term::Int(k), e) | (e, Term::Int(k)) => {
                let (c, r) = linear_in(e, x)?;
                Some((c.checked_mul(*k)?, Term::times(Term::Int(*k), r)))
            }
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_instantiation_renames_thread_values() {
        let t = Term::plus(Term::Tid, Term::thread_sym("h"));
        assert_eq!(t.smt(), "(+ tid (h tid))");
        assert_eq!(t.for_thread(&Term::sym("t1")).smt(), "(+ t1 (h t1))");
        assert!(!Term::sym("n").is_thread_dependent());
    }

    /// Found by fuzzing (issue 16): folding `MAX + 1` or `2^63 * 2^63 * 4` overflowed.
    #[test]
    fn folding_is_exact_or_left_to_the_solver() {
        let max = Term::Int(i128::MAX);
        assert_eq!(
            Term::plus(max.clone(), Term::Int(1)).smt(),
            format!("(+ {} 1)", i128::MAX)
        );
        assert_eq!(
            Term::minus(Term::Int(-i128::MAX), Term::Int(1)).smt(),
            format!("(- (- {}) 1)", i128::MAX)
        );
        let big = Term::Int(i128::from(i64::MAX));
        let sq = Term::times(big.clone(), big.clone());
        assert_eq!(sq, Term::Int(i128::from(i64::MAX) * i128::from(i64::MAX)));
        assert_eq!(
            Term::times(sq.clone(), Term::Int(4)).smt(),
            format!("(* {} 4)", sq.smt())
        );
        assert_eq!(Term::plus(Term::Int(2), Term::Int(3)), Term::Int(5));
        assert_eq!(Term::minus(max.clone(), max.clone()), Term::Int(0));
        // `i128::MIN` is never a folded literal (it has no negation).
        assert!(matches!(
            Term::minus(Term::Int(-i128::MAX), Term::Int(1)),
            Term::App(..)
        ));
        let lin = Term::times(
            Term::Int(i128::MAX),
            Term::plus(Term::sym("i"), Term::sym("i")),
        );
        assert!(linear_in(&lin, "i").is_none());
        let lin = Term::minus(
            Term::times(Term::Int(-i128::MAX), Term::sym("i")),
            Term::times(Term::Int(2), Term::sym("i")),
        );
        assert!(linear_in(&lin, "i").is_none());
    }

    #[test]
    fn linear_decomposition() {
        let t = Term::minus(Term::plus(Term::sym("i"), Term::sym("n")), Term::Int(1));
        let (c, rest) = linear_in(&t, "i").expect("linear");
        assert_eq!(c, 1);
        assert_eq!(rest.smt(), "(- n 1)");
        let nl = Term::app("mod", vec![Term::sym("i"), Term::sym("n")]);
        assert!(linear_in(&nl, "i").is_none());
    }
}
