//! A linear road for value and step obligations over shared reads. A staged read's symbol
//! stands for the global read its witness writer made, at an address built from the witness's
//! digits (`(w div 8)·K + w mod 8 + 32·K·t`); the reader's side reads at its own address
//! (`4·(tid div 16)·K + u`). Whole, such an obligation is nonlinear and z3 may give up on it.
//! This road asks a stronger question that is linear: substitute each read's definition, match
//! the two sides term by term, and prove each pair of addresses equal coefficient by
//! coefficient over the size parameters (`K·(…) = 0` from `… = 0`). When the sides do not match
//! in shape, there is no such road and the obligation is asked as it is.

use crate::poly::{Monomial, Poly};
use crate::solve::Query;
use crate::term::{Op, Sort, Term};
use std::collections::{BTreeMap, HashSet};
use warpsafe_terms::Node;

/// What a staged read returns, as recorded for the value obligations: under `guard`, the
/// witness `facts` hold and the read's symbol `sym` equals `value`.
#[derive(Clone, Debug)]
pub(crate) struct StagedDef {
    /// The read's symbol (`sh{n}`).
    pub sym: Term,
    /// When the read happens.
    pub guard: Term,
    /// The witness writer's digits and definitions.
    pub facts: Vec<Term>,
    /// The writer's value in the witness's terms.
    pub value: Term,
}

impl StagedDef {
    /// The premise the value obligations carry: under the guard, the facts and `sym = value`.
    pub(crate) fn premise(&self) -> Term {
        let mut all = self.facts.clone();
        all.push(self.sym.eq(&self.value));
        self.guard.implies(&Term::and_all(all))
    }
}

/// The stronger, linear query for `premises → goal` where `goal` is `lhs = rhs`: the staged
/// reads' guards hold, and the addresses of matching buffer reads are equal coefficient by
/// coefficient over the size parameters. `None` when `goal` mentions no staged read or the
/// sides differ in shape.
///
/// Sound: a model of the premises satisfies the guards, hence the witness facts and the reads'
/// definitions; with the addresses equal, both sides read the same elements in the same
/// operations, so they are equal.
pub(crate) fn linear_query(premises: &[Term], staged: &[StagedDef], goal: &Term) -> Option<Query> {
    let Some((Op::Eq, [lhs, rhs])) = goal.as_app() else {
        return None;
    };
    let used: Vec<&StagedDef> = staged
        .iter()
        .filter(|d| {
            let n = d.sym.smt();
            lhs.mentions(&n) || rhs.mentions(&n)
        })
        .collect();
    if used.is_empty() {
        return None;
    }
    let by_name: BTreeMap<String, &StagedDef> = used.iter().map(|d| (d.sym.smt(), *d)).collect();
    let substitute = |t: &Term| t.subst(&|s| by_name.get(s.name.as_ref()).map(|d| d.value.clone()));
    let (l, r) = (substitute(lhs), substitute(rhs));
    let mut pairs = vec![];
    if !matches(&l, &r, &mut pairs) {
        return None;
    }
    let defs: HashSet<String> = staged.iter().map(|d| d.premise().smt()).collect();
    let mut kept: Vec<Term> = premises
        .iter()
        .filter(|p| !defs.contains(&p.smt()))
        .cloned()
        .collect();
    let mut goals = vec![];
    for d in &used {
        kept.push(d.guard.implies(&Term::and_all(d.facts.iter().cloned())));
        goals.push(d.guard.clone());
    }
    for (a, b) in pairs {
        goals.extend(equal_by_coefficients(&a, &b));
    }
    Some(Query {
        premises: kept,
        goal: Term::and_all(goals),
    })
}

/// Do `a` and `b` have the same shape, up to the integer arguments of uninterpreted functions
/// (buffer addresses, collected in `pairs`) and the order of a binary `+` or `×`?
pub(crate) fn matches(a: &Term, b: &Term, pairs: &mut Vec<(Term, Term)>) -> bool {
    if a == b {
        return true;
    }
    match (a.node(), b.node()) {
        (Node::Call(f, xs), Node::Call(g, ys)) if f.name == g.name && xs.len() == ys.len() => {
            xs.iter().zip(ys).all(|(x, y)| {
                if x.sort() == Sort::Int && y.sort() == Sort::Int {
                    pairs.push((x.clone(), y.clone()));
                    true
                } else {
                    matches(x, y, pairs)
                }
            })
        }
        (Node::App(op, xs, _), Node::App(op2, ys, _)) if op == op2 && xs.len() == ys.len() => {
            let mark = pairs.len();
            if xs.iter().zip(ys).all(|(x, y)| matches(x, y, pairs)) {
                return true;
            }
            pairs.truncate(mark);
            if matches!(op, Op::Add | Op::Mul) && xs.len() == 2 {
                if matches(&xs[0], &ys[1], pairs) && matches(&xs[1], &ys[0], pairs) {
                    return true;
                }
                pairs.truncate(mark);
            }
            false
        }
        _ => false,
    }
}

/// Is the atom a size parameter of the kernel (a scalar argument)?
fn is_parameter(t: &Term) -> bool {
    t.as_sym().is_some_and(|s| s.name.starts_with("p_"))
}

/// `a = b` as equations that imply it: `a − b` grouped by its monomials in the size
/// parameters, each group's coefficient zero (linear where the addresses are linear apart
/// from products with parameters). `a = b` itself when the difference has no normal form.
fn equal_by_coefficients(a: &Term, b: &Term) -> Vec<Term> {
    let Some(d) = Poly::of(&a.sub(b)) else {
        return vec![a.eq(b)];
    };
    let mut groups: BTreeMap<Monomial, Poly> = BTreeMap::new();
    for (m, &c) in &d.terms {
        let (params, rest): (Monomial, Monomial) = m
            .iter()
            .cloned()
            .partition(|k| d.atoms.get(k).is_some_and(is_parameter));
        let g = groups.entry(params).or_insert_with(|| Poly {
            atoms: d.atoms.clone(),
            ..Poly::default()
        });
        *g.terms.entry(rest).or_insert(0) += c;
    }
    groups
        .values()
        .map(|g| g.to_term().eq(&Term::int(0)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{sym, uf};

    fn int(n: &str) -> Term {
        sym(n, Sort::Int)
    }

    #[test]
    fn addresses_split_by_the_size_parameter() {
        let (k, w, t) = (int("p_K"), int("w"), int("t"));
        // (w div 8)·K + w mod 8  against  t·K + 3
        let a = w.div(&Term::int(8)).mul(&k).add(&w.modulo(&Term::int(8)));
        let b = t.mul(&k).add(&Term::int(3));
        let eqs = equal_by_coefficients(&a, &b);
        assert_eq!(eqs.len(), 2, "{eqs:?}");
        assert!(eqs.iter().all(|e| !e.mentions("p_K")), "{eqs:?}");
    }

    #[test]
    fn shapes_match_up_to_order_and_addresses() {
        let mem = |b: &str, x: &Term| uf(format!("mem_{b}"), vec![x.clone()], Sort::Real, None);
        let (x, y, u, v) = (int("x"), int("y"), int("u"), int("v"));
        let l = mem("A", &x).mul(&mem("B", &y));
        let r = mem("B", &v).mul(&mem("A", &u));
        let mut pairs = vec![];
        assert!(matches(&l, &r, &mut pairs));
        assert_eq!(pairs.len(), 2);
        let mut pairs = vec![];
        assert!(!matches(&l, &mem("A", &u).add(&mem("B", &v)), &mut pairs));
        assert!(!matches(&mem("A", &x), &mem("C", &x), &mut pairs));
    }
}
