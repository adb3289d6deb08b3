//! functional's terms: the shared index-term language ([`warpsafe_terms`]) over integers,
//! reals and booleans, with functional's own symbol payload: uninterpreted functions for
//! buffer contents and math intrinsics carry the range of their integer results, which
//! [`Decls`] turns into facts.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;
use warpsafe_terms::Symbol;
pub use warpsafe_terms::{Op, Sort};

/// A symbol or uninterpreted function, with the range of its integer values when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FSym {
    /// The SMT-LIB name.
    pub name: Arc<str>,
    /// The sort (the result sort of a function).
    pub sort: Sort,
    /// Bounds `lo <= f(..) <= hi` every application satisfies.
    pub range: Option<(i128, i128)>,
}

impl Symbol for FSym {
    fn name(&self) -> &str {
        &self.name
    }
    fn sort(&self) -> Sort {
        self.sort
    }
}

/// A term of functional's obligations.
pub type Term = warpsafe_terms::Term<FSym>;

/// A free symbol (universally quantified in every obligation).
pub fn sym(name: impl Into<Arc<str>>, sort: Sort) -> Term {
    Term::sym(FSym {
        name: name.into(),
        sort,
        range: None,
    })
}

/// An uninterpreted function application, with the range of its integer results.
pub fn uf(
    name: impl Into<Arc<str>>,
    args: Vec<Term>,
    sort: Sort,
    range: Option<(i128, i128)>,
) -> Term {
    let f = FSym {
        name: name.into(),
        sort,
        range,
    };
    if args.is_empty() && range.is_none() {
        return Term::sym(f);
    }
    Term::call(f, args)
}

/// What functional adds to a term: declarations with range facts, and renaming by name.
pub trait TermExt {
    /// Collects declarations (symbols, functions) and range facts of function results.
    fn declare(&self, decls: &mut Decls);
    /// Renames symbols (for a second copy of the same events).
    fn rename(&self, f: &dyn Fn(&str) -> Option<String>) -> Term;
}

impl TermExt for Term {
    fn declare(&self, decls: &mut Decls) {
        for s in self.free_syms() {
            if let Some(x) = s.as_sym() {
                decls.syms.insert(x.name.to_string(), x.sort);
            }
        }
        for c in self.calls() {
            let warpsafe_terms::Node::Call(f, args) = c.node() else {
                continue;
            };
            decls.funs.insert(
                f.name.to_string(),
                (args.iter().map(Term::sort).collect(), f.sort),
            );
            if let Some((lo, hi)) = f.range {
                let fact = Term::int(lo).le(&c).and(&c.le(&Term::int(hi)));
                decls.facts.entry(fact.smt()).or_insert(fact);
            }
        }
    }

    fn rename(&self, f: &dyn Fn(&str) -> Option<String>) -> Term {
        self.subst(&|s: &FSym| {
            f(&s.name).map(|m| {
                Term::sym(FSym {
                    name: m.into(),
                    ..s.clone()
                })
            })
        })
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
            let _ = writeln!(out, "(declare-const {n} {s})");
        }
        for (n, (args, s)) in &self.funs {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            let _ = writeln!(out, "(declare-fun {n} ({}) {s})", args.join(" "));
        }
        for f in self.facts.values() {
            let _ = writeln!(out, "(assert {})", f.smt());
        }
    }
}
