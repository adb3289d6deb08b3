//! The spec side of softmax: `sum(k, exp(S_k − M)·v_k)` with `M` a maximum that does not
//! depend on `k` is `E(−M)·sum(k, exp(S_k)·v_k)` — the shift cancels, and the kernel's
//! rescaled accumulators ([`crate::online`]) meet the shifted sums.
//!
//! [`normalize`] rewrites an instantiated equation that way: reductions with one definition
//! become one symbol (the spec writes the row maximum twice), each sum whose terms carry
//! `E(−M)` is replaced by a new sum without it, divided by `E(M)`, and a sum of positive terms
//! over a non-empty range is known positive. Every step is an equality (or a fact) of the
//! reals, so the obligations mean what they meant.

use crate::expo::{exp, positive, shift};
use crate::specenc::{Instance, Red};
use crate::term::{Sort, Term};
use num_rational::BigRational;
use num_traits::Zero;
use std::collections::BTreeMap;
use warpsafe_equiv::Reduce;

/// `inst` with shifted sums, and the facts (premises) about its reductions.
pub(crate) fn normalize(mut inst: Instance) -> (Instance, Vec<Term>) {
    let exp_in = |t: &Term| t.mentions(crate::expo::EXP);
    if !exp_in(&inst.value) && !inst.reds.iter().any(|r| exp_in(&r.body)) {
        return (inst, vec![]);
    }
    dedupe(&mut inst);
    for i in 0..inst.reds.len() {
        if inst.reds[i].op != Reduce::Sum {
            continue;
        }
        let maxima: Vec<Term> = inst
            .reds
            .iter()
            .filter(|m| matches!(m.op, Reduce::Max | Reduce::Min))
            .filter(|m| inst.reds[i].body.mentions(&m.sym.smt()))
            // Only a maximum that is the same for every term of the sum factors out.
            .filter(|m| {
                let k = inst.reds[i].k.smt();
                ![&m.lo, &m.hi, &m.body].iter().any(|t| t.mentions(&k))
            })
            .map(|m| m.sym.clone())
            .collect();
        for m in maxima {
            let r = &inst.reds[i];
            let Some((body, true)) = shift(&r.body, &m) else {
                continue;
            };
            if body.mentions(&m.smt()) {
                continue;
            }
            let sym = crate::term::sym(format!("{}_s", r.sym.smt()), Sort::Real);
            let old = r.sym.smt();
            let by = sym.rdiv(&exp(m.clone()));
            inst.reds[i] = Red {
                sym,
                body,
                ..r.clone()
            };
            substitute(&mut inst, &old, &by);
        }
    }
    let zero = Term::real(BigRational::zero());
    let facts = inst
        .reds
        .iter()
        .filter(|r| r.op == Reduce::Sum && positive(&r.body))
        .map(|r| r.lo.lt(&r.hi).implies(&zero.lt(&r.sym)))
        .collect();
    (inst, facts)
}

/// Replaces symbol `name` by `by` in the value and in every reduction.
fn substitute(inst: &mut Instance, name: &str, by: &Term) {
    inst.value = inst.value.replace(name, by);
    for r in &mut inst.reds {
        r.body = r.body.replace(name, by);
        r.lo = r.lo.replace(name, by);
        r.hi = r.hi.replace(name, by);
    }
}

/// Reductions with the same operation, range and body (up to the index's name) become one.
fn dedupe(inst: &mut Instance) {
    let canon = crate::term::sym("rk_canon", Sort::Int);
    let mut seen: BTreeMap<String, Term> = BTreeMap::new();
    let mut i = 0;
    while i < inst.reds.len() {
        let r = &inst.reds[i];
        let key = format!(
            "{:?} {} {} {}",
            r.op,
            r.lo.smt(),
            r.hi.smt(),
            r.body.replace(&r.k.smt(), &canon).smt()
        );
        match seen.get(&key) {
            Some(first) => {
                let name = r.sym.smt();
                let first = first.clone();
                inst.reds.remove(i);
                substitute(inst, &name, &first);
            }
            None => {
                seen.insert(key, r.sym.clone());
                i += 1;
            }
        }
    }
}
