//! The term: an `Arc`-shared node over a symbol payload `S` that each analysis chooses
//! (a plain named variable, verify's per-thread symbols, perm's thread-indexed values).

use crate::{Op, Sort};
use num_rational::BigRational;
use std::fmt;
use std::sync::Arc;

/// What a free symbol (or an uninterpreted function) is to the term language: a name that
/// is unique within one query, and a sort (the result sort for a function).
pub trait Symbol: fmt::Debug {
    /// Its SMT-LIB name.
    fn name(&self) -> &str;
    /// Its sort.
    fn sort(&self) -> Sort;
}

/// The plain symbol: a name and a sort, nothing the analysis needs besides.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Var {
    /// The SMT-LIB name.
    pub name: Arc<str>,
    /// The sort.
    pub sort: Sort,
}

impl Symbol for Var {
    fn name(&self) -> &str {
        &self.name
    }
    fn sort(&self) -> Sort {
        self.sort
    }
}

/// The node behind a [`Term`].
#[derive(Debug)]
pub enum Node<S> {
    /// A boolean constant.
    Bool(bool),
    /// An integer constant.
    Int(i128),
    /// A real constant.
    Real(BigRational),
    /// A bit-vector constant of width `.0` (at most 128 bits are representable).
    Bv(u32, u128),
    /// A free symbol.
    Sym(S),
    /// An interpreted operator applied to arguments, with the result sort.
    App(Op, Vec<Term<S>>, Sort),
    /// An uninterpreted function (the symbol names it and gives its result sort) applied to
    /// arguments.
    Call(S, Vec<Term<S>>),
    /// `(forall (vars) body)`: the symbols `vars` are bound in the boolean `body`.
    Forall(Vec<Term<S>>, Term<S>),
}

/// A shared, immutable term. Terms built through the constructors are folded and simplified
/// as they are built; equal subterms built once are shared (a DAG), which the printer names
/// once.
#[derive(Debug)]
pub struct Term<S>(pub Arc<Node<S>>);

impl<S> Clone for Term<S> {
    fn clone(&self) -> Self {
        Term(self.0.clone())
    }
}

impl<S: Symbol> PartialEq for Term<S> {
    fn eq(&self, o: &Self) -> bool {
        self.same(o)
    }
}

impl<S> Term<S> {
    /// Wraps a node (no simplification).
    pub fn mk(n: Node<S>) -> Term<S> {
        Term(Arc::new(n))
    }

    /// The node.
    pub fn node(&self) -> &Node<S> {
        &self.0
    }

    /// Pointer identity, for memo tables.
    pub fn id(&self) -> usize {
        Arc::as_ptr(&self.0) as *const u8 as usize
    }

    /// The boolean constant, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match &*self.0 {
            Node::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer constant, if this is one.
    pub fn as_int(&self) -> Option<i128> {
        match &*self.0 {
            Node::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The real constant, if this is one.
    pub fn as_real(&self) -> Option<&BigRational> {
        match &*self.0 {
            Node::Real(v) => Some(v),
            _ => None,
        }
    }

    /// The bit-vector constant (unsigned), if this is one.
    pub fn as_bv(&self) -> Option<u128> {
        match &*self.0 {
            Node::Bv(_, v) => Some(*v),
            _ => None,
        }
    }

    /// The symbol, if this is one.
    pub fn as_sym(&self) -> Option<&S> {
        match &*self.0 {
            Node::Sym(s) => Some(s),
            _ => None,
        }
    }

    /// The operator and arguments of an interpreted application.
    pub fn as_app(&self) -> Option<(Op, &[Term<S>])> {
        match &*self.0 {
            Node::App(op, args, _) => Some((*op, args)),
            _ => None,
        }
    }

    /// The direct subterms (arguments; a quantifier's body).
    pub fn children(&self) -> &[Term<S>] {
        match &*self.0 {
            Node::App(_, args, _) | Node::Call(_, args) => args,
            Node::Forall(_, body) => std::slice::from_ref(body),
            _ => &[],
        }
    }

    /// True for constants and symbols.
    pub fn is_leaf(&self) -> bool {
        matches!(
            &*self.0,
            Node::Bool(_) | Node::Int(_) | Node::Real(_) | Node::Bv(..) | Node::Sym(_)
        )
    }
}

impl<S: Symbol> Term<S> {
    /// The sort of the term.
    pub fn sort(&self) -> Sort {
        match &*self.0 {
            Node::Bool(_) | Node::Forall(..) => Sort::Bool,
            Node::Int(_) => Sort::Int,
            Node::Real(_) => Sort::Real,
            Node::Bv(w, _) => Sort::BitVec(*w),
            Node::Sym(s) | Node::Call(s, _) => s.sort(),
            Node::App(_, _, s) => *s,
        }
    }

    /// Bit width (1 for booleans, 0 for integers and reals).
    pub fn width(&self) -> u32 {
        self.sort().width()
    }

    /// True when the two terms are the same: by pointer, else structurally (symbols by
    /// name). The structural walk gives up (answers `false`, which only forgoes a
    /// simplification) after a fixed number of nodes, so comparing two large DAGs that are
    /// not shared stays cheap.
    pub fn same(&self, o: &Term<S>) -> bool {
        let mut budget = 4096u32;
        self.same_within(o, &mut budget)
    }

    fn same_within(&self, o: &Term<S>, budget: &mut u32) -> bool {
        if Arc::ptr_eq(&self.0, &o.0) {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let mut all = |a: &[Term<S>], b: &[Term<S>]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_within(y, budget))
        };
        match (&*self.0, &*o.0) {
            (Node::Bool(a), Node::Bool(b)) => a == b,
            (Node::Int(a), Node::Int(b)) => a == b,
            (Node::Real(a), Node::Real(b)) => a == b,
            (Node::Bv(w1, a), Node::Bv(w2, b)) => w1 == w2 && a == b,
            (Node::Sym(a), Node::Sym(b)) => a.name() == b.name(),
            (Node::App(o1, a1, _), Node::App(o2, a2, _)) => o1 == o2 && all(a1, a2),
            (Node::Call(f, a1), Node::Call(g, a2)) => f.name() == g.name() && all(a1, a2),
            (Node::Forall(v1, b1), Node::Forall(v2, b2)) => {
                all(v1, v2) && b1.same_within(b2, budget)
            }
            _ => false,
        }
    }

    /// A free symbol.
    pub fn sym(s: S) -> Term<S> {
        Term::mk(Node::Sym(s))
    }

    /// The uninterpreted function `f` applied to `args`.
    pub fn call(f: S, args: Vec<Term<S>>) -> Term<S> {
        Term::mk(Node::Call(f, args))
    }

    /// `op(args)` exactly as given, with result sort `sort` (no folding; tests and
    /// translations that must keep a shape use it).
    pub fn app_raw(op: Op, args: Vec<Term<S>>, sort: Sort) -> Term<S> {
        Term::mk(Node::App(op, args, sort))
    }

    /// `∀ vars. body` (a constant body stays a constant; no variable, no quantifier).
    pub fn forall(vars: Vec<Term<S>>, body: Term<S>) -> Term<S> {
        if body.as_bool().is_some() || vars.is_empty() {
            return body;
        }
        Term::mk(Node::Forall(vars, body))
    }
}

impl Term<Var> {
    /// The plain symbol `name` of sort `sort`.
    pub fn var(name: impl Into<Arc<str>>, sort: Sort) -> Term<Var> {
        Term::sym(Var {
            name: name.into(),
            sort,
        })
    }
}
