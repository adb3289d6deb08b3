//! Online softmax loops: a running maximum `m` and variables rescaled by `E(m_old − m_new)`
//! whenever it grows (`l = l·E(m − m') + Σ E(s_j − m')`, `o = o·E(m − m') + …`).
//!
//! Such a variable `x` is not an accumulation, but `X = x·E(m)` is: multiplying the update by
//! `E(m')` folds the rescale into `x·E(m)` and every `E(s − m')` into `E(s)`
//! ([`shift`](crate::expo::shift)), so `X' = X + e` with `e` free of `m`. The loop is then
//! summarised by accumulators for the `X`s, linked to the spec like any other; after it
//! `x = X / E(m)` for an opaque, finite `m` — the maximum's value never matters.
//!
//! A maximum started at `−∞` (with every rescaled variable started at 0) is allowed when one
//! iteration from `−∞` makes it finite (it is grown by comparisons with finite values): in the
//! first iteration `x·E(m − m') = 0·E(−∞) = 0 = x·E(m)`, after it `m` is finite. The loop must
//! then run at least once (a side obligation), so that `m` is finite after it too.

use crate::expo::{exp, finite_from_neg_inf, shift};
use crate::term::{Op, Sort, Term};
use num_rational::BigRational;
use num_traits::Zero;
use warpsafe_terms::Node;

/// One loop-carried variable: the symbol for its value at the start of an iteration, its
/// value at the end, and its value before the loop.
pub(crate) struct Carried {
    /// The pre-iteration symbol.
    pub pre: Term,
    /// The value after the body.
    pub new: Term,
    /// The value before the loop.
    pub init: Term,
    /// The accumulator symbol `X` the variable gets if it is rescaled.
    pub acc: Term,
}

/// How a loop's online-softmax variables are summarised.
pub(crate) struct Plan {
    /// The running maximum (an index into the carried variables).
    pub max: usize,
    /// Whether the maximum starts at `−∞`.
    pub from_neg_inf: bool,
    /// Rescaled variables: index, the accumulator's initial value and its summand.
    pub rescaled: Vec<(usize, Term, Term)>,
    /// Accumulators of inner loops that the rescaled updates add, multiplied by the new
    /// maximum's exponential: the inner accumulator, its new symbol and the new summand.
    pub derived: Vec<(Term, Term, Term)>,
}

/// An accumulator of an inner loop of the body (started at 0): its symbol and summand.
pub(crate) struct Inner {
    /// The accumulator symbol.
    pub sym: Term,
    /// Its summand.
    pub summand: Term,
}

/// The summary of `vars` (all carried variables that are not plain accumulations), or `None`
/// when no choice of the maximum makes every other one a rescaled accumulation.
pub(crate) fn plan(vars: &[Carried], inner: &[Inner], all_pre: &[Term]) -> Option<Plan> {
    if vars.len() < 2 {
        return None;
    }
    (0..vars.len()).find_map(|mi| plan_with(vars, inner, mi, all_pre))
}

fn plan_with(vars: &[Carried], inner: &[Inner], mi: usize, all_pre: &[Term]) -> Option<Plan> {
    let m = &vars[mi];
    if m.pre.sort() != Sort::Real {
        return None;
    }
    let m_name = m.pre.smt();
    if all_pre
        .iter()
        .any(|p| *p != m.pre && m.new.mentions(&p.smt()))
    {
        return None;
    }
    let from_neg_inf = m
        .init
        .as_sym()
        .is_some_and(|s| &*s.name == crate::encode::INFINITIES[1]);
    if from_neg_inf && !finite_from_neg_inf(&m.new, &m_name) {
        return None;
    }
    let mut rescaled = vec![];
    let mut derived: Vec<(Term, Term, Term)> = vec![];
    for (i, x) in vars.iter().enumerate() {
        if i == mi {
            continue;
        }
        // An inner sum `A` the update adds is `A' / E(m')` with `A' = Σ e·E(m')`.
        let mut new = x.new.clone();
        let mut terms = vec![];
        additive_terms(&x.new, &mut terms);
        for a in inner.iter().filter(|a| terms.contains(&a.sym)) {
            let a_sh = crate::term::sym(format!("{}_x", a.sym.smt()), Sort::Real);
            if !derived.iter().any(|d| d.0 == a.sym) {
                if !only_through(&a.summand, None, &m.pre, &m.new) {
                    return None;
                }
                let (sh, _) = shift(&a.summand, &m.new)?;
                if all_pre.iter().any(|p| sh.mentions(&p.smt())) {
                    return None;
                }
                derived.push((a.sym.clone(), a_sh.clone(), sh));
            }
            new = new.replace(&a.sym.smt(), &a_sh.rdiv(&exp(m.new.clone())));
        }
        if !only_through(&new, Some(&x.pre), &m.pre, &m.new) {
            return None;
        }
        let (shifted, _) = shift(&new, &m.new)?;
        // `x_pre · E(m_pre)` is the accumulator's value before the iteration.
        let before = exp(m.pre.clone());
        let folded = replace_product(&shifted, &x.pre, &before, &x.acc);
        let summand = match folded.as_app() {
            Some((Op::Add, [a, b])) if *a == x.acc && !b.mentions(&x.acc.smt()) => b.clone(),
            Some((Op::Add, [a, b])) if *b == x.acc && !a.mentions(&x.acc.smt()) => a.clone(),
            _ => return None,
        };
        if all_pre.iter().any(|p| summand.mentions(&p.smt())) {
            return None;
        }
        let zero = Term::real(BigRational::zero());
        let init = if from_neg_inf {
            if !x.init.to_real().as_real().is_some_and(|r| r.is_zero()) {
                return None;
            }
            zero
        } else {
            x.init.to_real().mul(&exp(m.init.clone()))
        };
        rescaled.push((i, init, summand));
    }
    Some(Plan {
        max: mi,
        from_neg_inf,
        rescaled,
        derived,
    })
}

/// True when the old maximum `m` reaches `new` only through the new maximum `m_new` and the
/// rescale `x·E(m − m_new)`: then no arithmetic on `−∞` other than `E(−∞) = 0` happens in the
/// first iteration (a sum such as `v + m − m` would be NaN there, though it cancels as a real).
fn only_through(new: &Term, x: Option<&Term>, m: &Term, m_new: &Term) -> bool {
    let hole = crate::term::sym("online_m_new", Sort::Real);
    let zero = Term::real(BigRational::zero());
    let probe = rewrite(new, &|t| (t == m_new).then(|| hole.clone()));
    let rescale = crate::expo::split(&exp(m.sub(&hole)));
    let probe = rewrite(&probe, &|t| {
        let (Op::Mul, [a, b]) = t.as_app()? else {
            return None;
        };
        let is_rescale =
            |e: &Term| crate::expo::exp_arg(e).is_some() && crate::expo::split(e) == rescale;
        let x = x?;
        ((a == x && is_rescale(b)) || (b == x && is_rescale(a))).then(|| zero.clone())
    });
    !probe.mentions(&m.smt())
}

/// The terms of a sum (`a + b − c` gives `a`, `b`, `c`).
fn additive_terms(t: &Term, out: &mut Vec<Term>) {
    match t.as_app() {
        Some((Op::Add | Op::Sub, [a, b])) => {
            additive_terms(a, out);
            additive_terms(b, out);
        }
        _ => out.push(t.clone()),
    }
}

/// `t` with each product `x·e` or `e·x` replaced by `by`.
fn replace_product(t: &Term, x: &Term, e: &Term, by: &Term) -> Term {
    rewrite(t, &|u| {
        let (Op::Mul, [a, b]) = u.as_app()? else {
            return None;
        };
        ((a == x && b == e) || (a == e && b == x)).then(|| by.clone())
    })
}

/// `t` rewritten top-down: a node `f` maps is replaced (and not entered), others rebuilt.
fn rewrite(t: &Term, f: &dyn Fn(&Term) -> Option<Term>) -> Term {
    if let Some(u) = f(t) {
        return u;
    }
    match t.node() {
        Node::App(op, args, _) => {
            let new: Vec<Term> = args.iter().map(|a| rewrite(a, f)).collect();
            if new.iter().zip(args).all(|(a, b)| a.same(b)) {
                t.clone()
            } else {
                Term::app(*op, &new).unwrap_or_else(|| t.clone())
            }
        }
        Node::Call(s, args) => {
            let new: Vec<Term> = args.iter().map(|a| rewrite(a, f)).collect();
            Term::call(s.clone(), new)
        }
        _ => t.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::sym;

    fn r(name: &str) -> Term {
        sym(name, Sort::Real)
    }

    #[test]
    fn the_online_softmax_sum_is_a_rescaled_accumulation() {
        let (m, s, v) = (r("m"), r("s"), r("v"));
        let mn = Term::ite(&v.le(&m), &m, &v);
        let vars = [
            Carried {
                pre: m.clone(),
                new: mn.clone(),
                init: r(crate::encode::INFINITIES[1]),
                acc: r("M"),
            },
            Carried {
                pre: s.clone(),
                new: s.mul(&exp(m.sub(&mn))).add(&exp(v.sub(&mn))),
                init: Term::real(BigRational::zero()),
                acc: r("S"),
            },
        ];
        let p = plan(&vars, &[], &[m.clone(), s.clone()]).expect("a plan");
        assert_eq!(p.max, 0);
        assert!(p.from_neg_inf);
        assert_eq!(p.rescaled[0].2, exp(v.clone()));
        // Without the rescale the sum is not an accumulation of anything.
        let bug = [
            Carried {
                new: s.add(&exp(v.sub(&mn))),
                ..vars[1].clone_parts()
            },
            vars[0].clone_parts(),
        ];
        assert!(plan(&bug, &[], &[m, s]).is_none());
    }

    impl Carried {
        fn clone_parts(&self) -> Carried {
            Carried {
                pre: self.pre.clone(),
                new: self.new.clone(),
                init: self.init.clone(),
                acc: self.acc.clone(),
            }
        }
    }
}
