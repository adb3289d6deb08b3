//! SMT terms over mathematical integers, reals and booleans, with uninterpreted functions for
//! buffer contents and math intrinsics. Built with light folding; printed as SMT-LIB.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::rc::Rc;

/// The sort of a term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    /// `Bool`.
    Bool,
    /// Mathematical integers.
    Int,
    /// Real numbers (floats, as fast-math compilers assume).
    Real,
}

impl Sort {
    fn name(self) -> &'static str {
        match self {
            Sort::Bool => "Bool",
            Sort::Int => "Int",
            Sort::Real => "Real",
        }
    }
}

/// Interpreted operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `+` (Int or Real).
    Add,
    /// `-` binary.
    Sub,
    /// `*`.
    Mul,
    /// Unary minus.
    Neg,
    /// Integer `div` (SMT-LIB: floor for positive divisors).
    Div,
    /// Integer `mod` (non-negative result).
    Mod,
    /// Real division.
    RDiv,
    /// Int to Real.
    ToReal,
    /// `ite`.
    Ite,
    /// `=`.
    Eq,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// Conjunction.
    And,
    /// Disjunction.
    Or,
    /// Negation.
    Not,
}

impl Op {
    fn smt(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub | Op::Neg => "-",
            Op::Mul => "*",
            Op::Div => "div",
            Op::Mod => "mod",
            Op::RDiv => "/",
            Op::ToReal => "to_real",
            Op::Ite => "ite",
            Op::Eq => "=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::And => "and",
            Op::Or => "or",
            Op::Not => "not",
        }
    }
}

/// A term node.
#[derive(Debug, PartialEq)]
pub enum Node {
    /// A boolean constant.
    Bool(bool),
    /// An integer constant.
    Int(i128),
    /// A real constant.
    Real(BigRational),
    /// A free symbol (universally quantified in every obligation).
    Sym(String, Sort),
    /// An interpreted operator applied to arguments.
    App(Op, Vec<Term>, Sort),
    /// An uninterpreted function applied to arguments, with the range of its integer results.
    Uf(String, Vec<Term>, Sort, Option<(i128, i128)>),
}

/// A shared term.
#[derive(Clone, Debug, PartialEq)]
pub struct Term(pub Rc<Node>);

impl Term {
    fn new(n: Node) -> Term {
        Term(Rc::new(n))
    }

    /// A boolean constant.
    pub fn bool(b: bool) -> Term {
        Term::new(Node::Bool(b))
    }

    /// `true`.
    pub fn tt() -> Term {
        Term::bool(true)
    }

    /// An integer constant.
    pub fn int(v: i128) -> Term {
        Term::new(Node::Int(v))
    }

    /// A real constant.
    pub fn real(v: BigRational) -> Term {
        Term::new(Node::Real(v))
    }

    /// The exact value of a finite float, or `None` for NaN and infinities.
    pub fn float(v: f64) -> Option<Term> {
        BigRational::from_float(v).map(Term::real)
    }

    /// A free symbol.
    pub fn sym(name: impl Into<String>, sort: Sort) -> Term {
        Term::new(Node::Sym(name.into(), sort))
    }

    /// An uninterpreted function application.
    pub fn uf(
        name: impl Into<String>,
        args: Vec<Term>,
        sort: Sort,
        range: Option<(i128, i128)>,
    ) -> Term {
        Term::new(Node::Uf(name.into(), args, sort, range))
    }

    /// The term's sort.
    pub fn sort(&self) -> Sort {
        match &*self.0 {
            Node::Bool(_) => Sort::Bool,
            Node::Int(_) => Sort::Int,
            Node::Real(_) => Sort::Real,
            Node::Sym(_, s) | Node::App(_, _, s) | Node::Uf(_, _, s, _) => *s,
        }
    }

    /// The integer constant, if it is one.
    pub fn as_int(&self) -> Option<i128> {
        match &*self.0 {
            Node::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The boolean constant, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match &*self.0 {
            Node::Bool(b) => Some(*b),
            _ => None,
        }
    }

    fn app(op: Op, args: Vec<Term>, sort: Sort) -> Term {
        Term::new(Node::App(op, args, sort))
    }

    /// `self + b`.
    pub fn add(&self, b: &Term) -> Term {
        if let (Some(x), Some(y)) = (self.as_int(), b.as_int()) {
            if let Some(v) = x.checked_add(y) {
                return Term::int(v);
            }
        }
        if self.is_zero() {
            return b.clone();
        }
        if b.is_zero() {
            return self.clone();
        }
        Term::app(Op::Add, vec![self.clone(), b.clone()], self.sort())
    }

    /// `self - b`.
    pub fn sub(&self, b: &Term) -> Term {
        if let (Some(x), Some(y)) = (self.as_int(), b.as_int()) {
            if let Some(v) = x.checked_sub(y) {
                return Term::int(v);
            }
        }
        if b.is_zero() {
            return self.clone();
        }
        Term::app(Op::Sub, vec![self.clone(), b.clone()], self.sort())
    }

    /// `self * b`.
    pub fn mul(&self, b: &Term) -> Term {
        if let (Some(x), Some(y)) = (self.as_int(), b.as_int()) {
            if let Some(v) = x.checked_mul(y) {
                return Term::int(v);
            }
        }
        if self.is_one() {
            return b.clone();
        }
        if b.is_one() {
            return self.clone();
        }
        if self.sort() == Sort::Int && (self.is_zero() || b.is_zero()) {
            return Term::int(0);
        }
        Term::app(Op::Mul, vec![self.clone(), b.clone()], self.sort())
    }

    /// `-self`.
    pub fn neg(&self) -> Term {
        if let Some(v) = self.as_int().and_then(i128::checked_neg) {
            return Term::int(v);
        }
        Term::app(Op::Neg, vec![self.clone()], self.sort())
    }

    /// Integer `div` (floor for positive divisors).
    pub fn div(&self, b: &Term) -> Term {
        if let (Some(x), Some(y)) = (self.as_int(), b.as_int()) {
            if y > 0 {
                return Term::int(x.div_euclid(y));
            }
        }
        if b.is_one() {
            return self.clone();
        }
        Term::app(Op::Div, vec![self.clone(), b.clone()], Sort::Int)
    }

    /// Integer `mod` (in `[0, |b|)`).
    pub fn modulo(&self, b: &Term) -> Term {
        if let (Some(x), Some(y)) = (self.as_int(), b.as_int()) {
            if y > 0 {
                return Term::int(x.rem_euclid(y));
            }
        }
        Term::app(Op::Mod, vec![self.clone(), b.clone()], Sort::Int)
    }

    /// Real division.
    pub fn rdiv(&self, b: &Term) -> Term {
        Term::app(Op::RDiv, vec![self.clone(), b.clone()], Sort::Real)
    }

    /// Int to Real (identity on reals).
    pub fn to_real(&self) -> Term {
        match (&*self.0, self.sort()) {
            (_, Sort::Real) => self.clone(),
            (Node::Int(v), _) => Term::real(BigRational::from_integer(BigInt::from(*v))),
            _ => Term::app(Op::ToReal, vec![self.clone()], Sort::Real),
        }
    }

    /// `if c then a else b`.
    pub fn ite(c: &Term, a: &Term, b: &Term) -> Term {
        match c.as_bool() {
            Some(true) => return a.clone(),
            Some(false) => return b.clone(),
            None => {}
        }
        if a == b {
            return a.clone();
        }
        if a.sort() == Sort::Bool {
            return c.and(a).or(&c.not().and(b));
        }
        Term::app(Op::Ite, vec![c.clone(), a.clone(), b.clone()], a.sort())
    }

    /// `self = b`.
    pub fn eq(&self, b: &Term) -> Term {
        if self == b {
            return Term::tt();
        }
        if let (Some(x), Some(y)) = (self.as_int(), b.as_int()) {
            return Term::bool(x == y);
        }
        Term::app(Op::Eq, vec![self.clone(), b.clone()], Sort::Bool)
    }

    /// `self < b`.
    pub fn lt(&self, b: &Term) -> Term {
        if let (Some(x), Some(y)) = (self.as_int(), b.as_int()) {
            return Term::bool(x < y);
        }
        Term::app(Op::Lt, vec![self.clone(), b.clone()], Sort::Bool)
    }

    /// `self <= b`.
    pub fn le(&self, b: &Term) -> Term {
        if let (Some(x), Some(y)) = (self.as_int(), b.as_int()) {
            return Term::bool(x <= y);
        }
        if self == b {
            return Term::tt();
        }
        Term::app(Op::Le, vec![self.clone(), b.clone()], Sort::Bool)
    }

    /// Conjunction.
    pub fn and(&self, b: &Term) -> Term {
        match (self.as_bool(), b.as_bool()) {
            (Some(false), _) | (_, Some(false)) => Term::bool(false),
            (Some(true), _) => b.clone(),
            (_, Some(true)) => self.clone(),
            _ if self == b => self.clone(),
            _ => Term::app(Op::And, vec![self.clone(), b.clone()], Sort::Bool),
        }
    }

    /// Disjunction.
    pub fn or(&self, b: &Term) -> Term {
        match (self.as_bool(), b.as_bool()) {
            (Some(true), _) | (_, Some(true)) => Term::bool(true),
            (Some(false), _) => b.clone(),
            (_, Some(false)) => self.clone(),
            _ if self == b => self.clone(),
            _ => Term::app(Op::Or, vec![self.clone(), b.clone()], Sort::Bool),
        }
    }

    /// Negation.
    pub fn not(&self) -> Term {
        match &*self.0 {
            Node::Bool(b) => Term::bool(!b),
            Node::App(Op::Not, a, _) => a[0].clone(),
            _ => Term::app(Op::Not, vec![self.clone()], Sort::Bool),
        }
    }

    /// `self → b`.
    pub fn implies(&self, b: &Term) -> Term {
        self.not().or(b)
    }

    /// Conjunction of many.
    pub fn all(xs: impl IntoIterator<Item = Term>) -> Term {
        xs.into_iter().fold(Term::tt(), |a, b| a.and(&b))
    }

    /// Disjunction of many.
    pub fn any(xs: impl IntoIterator<Item = Term>) -> Term {
        xs.into_iter().fold(Term::bool(false), |a, b| a.or(&b))
    }

    fn is_zero(&self) -> bool {
        match &*self.0 {
            Node::Int(0) => true,
            Node::Real(r) => r.is_zero(),
            _ => false,
        }
    }

    fn is_one(&self) -> bool {
        match &*self.0 {
            Node::Int(1) => true,
            Node::Real(r) => r.is_one(),
            _ => false,
        }
    }

    /// The operator and arguments of an application.
    pub fn as_app(&self) -> Option<(Op, &[Term])> {
        match &*self.0 {
            Node::App(op, args, _) => Some((*op, args)),
            _ => None,
        }
    }

    /// True when symbol `name` occurs in the term.
    pub fn mentions(&self, name: &str) -> bool {
        match &*self.0 {
            Node::Sym(n, _) => n == name,
            Node::App(_, args, _) | Node::Uf(_, args, _, _) => {
                args.iter().any(|a| a.mentions(name))
            }
            _ => false,
        }
    }

    /// Replaces symbols by terms.
    pub fn subst(&self, map: &dyn Fn(&str) -> Option<Term>) -> Term {
        match &*self.0 {
            Node::Sym(n, _) => map(n).unwrap_or_else(|| self.clone()),
            Node::App(op, args, sort) => {
                let args: Vec<Term> = args.iter().map(|a| a.subst(map)).collect();
                rebuild(*op, args, *sort)
            }
            Node::Uf(n, args, sort, range) => Term::uf(
                n.clone(),
                args.iter().map(|a| a.subst(map)).collect(),
                *sort,
                *range,
            ),
            _ => self.clone(),
        }
    }

    /// Renames symbols (for a second copy of the same events).
    pub fn rename(&self, f: &dyn Fn(&str) -> Option<String>) -> Term {
        self.subst(&|n| {
            let sort = self.sort_of_sym(n)?;
            f(n).map(|m| Term::sym(m, sort))
        })
    }

    fn sort_of_sym(&self, name: &str) -> Option<Sort> {
        match &*self.0 {
            Node::Sym(n, s) if n == name => Some(*s),
            Node::App(_, args, _) | Node::Uf(_, args, _, _) => {
                args.iter().find_map(|a| a.sort_of_sym(name))
            }
            _ => None,
        }
    }

    /// Writes the term as SMT-LIB.
    pub fn write(&self, out: &mut String) {
        match &*self.0 {
            Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Node::Int(v) => {
                if *v < 0 {
                    let _ = write!(out, "(- {})", v.unsigned_abs());
                } else {
                    let _ = write!(out, "{v}");
                }
            }
            Node::Real(r) => write_real(r, out),
            Node::Sym(n, _) => out.push_str(n),
            Node::App(op, args, _) => {
                out.push('(');
                out.push_str(op.smt());
                for a in args {
                    out.push(' ');
                    a.write(out);
                }
                out.push(')');
            }
            Node::Uf(n, args, _, _) => {
                if args.is_empty() {
                    out.push_str(n);
                    return;
                }
                out.push('(');
                out.push_str(n);
                for a in args {
                    out.push(' ');
                    a.write(out);
                }
                out.push(')');
            }
        }
    }

    /// The term as SMT-LIB text.
    pub fn text(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }

    /// Collects declarations (symbols, functions) and range facts of function results.
    pub fn declare(&self, decls: &mut Decls) {
        match &*self.0 {
            Node::Sym(n, s) => {
                decls.syms.insert(n.clone(), *s);
            }
            Node::App(_, args, _) => {
                for a in args {
                    a.declare(decls);
                }
            }
            Node::Uf(n, args, s, range) => {
                for a in args {
                    a.declare(decls);
                }
                decls
                    .funs
                    .insert(n.clone(), (args.iter().map(Term::sort).collect(), *s));
                if let Some((lo, hi)) = range {
                    let fact = Term::int(*lo).le(self).and(&self.le(&Term::int(*hi)));
                    let key = fact.text();
                    decls.facts.entry(key).or_insert(fact);
                }
            }
            _ => {}
        }
    }
}

fn write_real(r: &BigRational, out: &mut String) {
    let num = r.numer();
    let den = r.denom();
    let mag = |n: &BigInt| format!("{}.0", n.abs());
    let body = if den.is_one() {
        mag(num)
    } else {
        format!("(/ {} {})", mag(num), mag(den))
    };
    if num.is_negative() {
        let _ = write!(out, "(- {body})");
    } else {
        out.push_str(&body);
    }
}

/// Rebuilds an application with the folding constructors.
pub fn rebuild(op: Op, a: Vec<Term>, sort: Sort) -> Term {
    match (op, a.as_slice()) {
        (Op::Add, [x, y]) => x.add(y),
        (Op::Sub, [x, y]) => x.sub(y),
        (Op::Mul, [x, y]) => x.mul(y),
        (Op::Neg, [x]) => x.neg(),
        (Op::Div, [x, y]) => x.div(y),
        (Op::Mod, [x, y]) => x.modulo(y),
        (Op::RDiv, [x, y]) => x.rdiv(y),
        (Op::ToReal, [x]) => x.to_real(),
        (Op::Ite, [c, x, y]) => Term::ite(c, x, y),
        (Op::Eq, [x, y]) => x.eq(y),
        (Op::Lt, [x, y]) => x.lt(y),
        (Op::Le, [x, y]) => x.le(y),
        (Op::And, [x, y]) => x.and(y),
        (Op::Or, [x, y]) => x.or(y),
        (Op::Not, [x]) => x.not(),
        _ => Term::app(op, a, sort),
    }
}

/// Declarations a query needs.
#[derive(Default)]
pub struct Decls {
    /// Symbols and their sorts.
    pub syms: BTreeMap<String, Sort>,
    /// Functions: argument sorts and result sort.
    pub funs: BTreeMap<String, (Vec<Sort>, Sort)>,
    /// Range facts of integer-valued function applications, keyed by text.
    pub facts: BTreeMap<String, Term>,
}

impl Decls {
    /// The SMT-LIB declarations and facts.
    pub fn write(&self, out: &mut String) {
        for (n, s) in &self.syms {
            let _ = writeln!(out, "(declare-const {n} {})", s.name());
        }
        for (n, (args, s)) in &self.funs {
            let args: Vec<&str> = args.iter().map(|a| a.name()).collect();
            let _ = writeln!(out, "(declare-fun {n} ({}) {})", args.join(" "), s.name());
        }
        for f in self.facts.values() {
            let _ = writeln!(out, "(assert {})", f.text());
        }
    }
}
