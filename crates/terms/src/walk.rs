//! Walks over a term's DAG (each shared subterm visited once): free symbols, occurrence,
//! substitution (rebuilt through the simplifier, so constants fold again).

use crate::{Node, Symbol, Term};
use std::collections::{HashMap, HashSet};

impl<S: Symbol + Clone> Term<S> {
    /// The distinct free symbols of the term (by name), in the order first met.
    pub fn free_syms(&self) -> Vec<Term<S>> {
        let mut out = vec![];
        self.syms(
            &mut out,
            &mut HashSet::new(),
            &mut HashSet::new(),
            &HashSet::new(),
        );
        out
    }

    /// Collects the free symbols below `self` not yet met (`seen`: nodes, `names`: symbol
    /// names) and not `bound`; names are borrowed from the term, so nothing is copied.
    fn syms<'a>(
        &'a self,
        out: &mut Vec<Term<S>>,
        seen: &mut HashSet<usize>,
        names: &mut HashSet<&'a str>,
        bound: &HashSet<&'a str>,
    ) {
        if !seen.insert(self.id()) {
            return;
        }
        match &*self.0 {
            Node::Sym(s) if !bound.contains(s.name()) && names.insert(s.name()) => {
                out.push(self.clone());
            }
            Node::App(_, args, _) | Node::Call(_, args) => {
                args.iter().for_each(|a| a.syms(out, seen, names, bound))
            }
            Node::Forall(vars, body) => {
                let mut inner = bound.clone();
                inner.extend(vars.iter().filter_map(|v| v.as_sym().map(|s| s.name())));
                body.syms(out, &mut HashSet::new(), names, &inner);
            }
            _ => {}
        }
    }

    /// The distinct uninterpreted function applications of the term.
    pub fn calls(&self) -> Vec<Term<S>> {
        let mut out = vec![];
        let mut seen = HashSet::new();
        let mut stack = vec![self.clone()];
        while let Some(t) = stack.pop() {
            if !seen.insert(t.id()) {
                continue;
            }
            if matches!(&*t.0, Node::Call(..)) {
                out.push(t.clone());
            }
            stack.extend(t.children().iter().cloned());
        }
        out
    }

    /// True when symbol (or function) `name` occurs in the term.
    pub fn mentions(&self, name: &str) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            if !seen.insert(t.id()) {
                continue;
            }
            match &*t.0 {
                Node::Sym(s) if s.name() == name => return true,
                Node::Call(f, _) if f.name() == name => return true,
                _ => stack.extend(t.children()),
            }
        }
        false
    }

    /// The term with every free symbol that `f` maps replaced (operators rebuilt through the
    /// simplifier; bound symbols of quantifiers are left alone).
    pub fn subst(&self, f: &dyn Fn(&S) -> Option<Term<S>>) -> Term<S> {
        self.subst_memo(f, &mut HashMap::new())
    }

    fn subst_memo(
        &self,
        f: &dyn Fn(&S) -> Option<Term<S>>,
        memo: &mut HashMap<usize, Term<S>>,
    ) -> Term<S> {
        if let Some(t) = memo.get(&self.id()) {
            return t.clone();
        }
        let out = match &*self.0 {
            Node::Sym(s) => f(s).unwrap_or_else(|| self.clone()),
            Node::App(op, args, _) => {
                let a: Vec<Term<S>> = args.iter().map(|x| x.subst_memo(f, memo)).collect();
                if a.iter().zip(args).all(|(x, y)| x.id() == y.id()) {
                    self.clone()
                } else {
                    Term::app(*op, &a).unwrap_or_else(|| self.clone())
                }
            }
            Node::Call(g, args) => {
                let a: Vec<Term<S>> = args.iter().map(|x| x.subst_memo(f, memo)).collect();
                if a.iter().zip(args).all(|(x, y)| x.id() == y.id()) {
                    self.clone()
                } else {
                    Term::call(g.clone(), a)
                }
            }
            Node::Forall(vars, body) => {
                let names: HashSet<&str> = vars
                    .iter()
                    .filter_map(|v| v.as_sym().map(|s| s.name()))
                    .collect();
                let inner = body.subst(&|s: &S| {
                    if names.contains(s.name()) {
                        None
                    } else {
                        f(s)
                    }
                });
                Term::forall(vars.clone(), inner)
            }
            _ => self.clone(),
        };
        memo.insert(self.id(), out.clone());
        out
    }

    /// Replaces every free symbol named `name` by `with`.
    pub fn replace(&self, name: &str, with: &Term<S>) -> Term<S> {
        self.subst(&|s: &S| (s.name() == name).then(|| with.clone()))
    }
}
