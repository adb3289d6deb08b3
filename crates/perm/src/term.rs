//! perm's terms: the shared index-term language ([`warpsafe_terms`]) over integers, reals,
//! booleans and integer-indexed arrays, with what is perm's own: the executing thread's
//! index as a distinguished symbol `tid`, and per-thread values as uninterpreted functions
//! of it, so one per-thread term can be instantiated for several threads.

use std::sync::Arc;
pub use warpsafe_terms::{Elem, Sort};
use warpsafe_terms::{Op, Symbol};

/// A shared symbol, or (applied to a thread term) a per-thread value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PSym {
    /// The SMT-LIB name.
    pub name: Arc<str>,
    /// The sort (of a per-thread value: its result sort).
    pub sort: Sort,
}

impl Symbol for PSym {
    fn name(&self) -> &str {
        &self.name
    }
    fn sort(&self) -> Sort {
        self.sort
    }
}

/// A term of perm's queries.
pub type Term = warpsafe_terms::Term<PSym>;

/// The name of the executing thread's `threadIdx.x`.
const TID: &str = "tid";

/// A constant shared by all threads (parameters, uniform loop variables, memory).
pub fn sym(name: &str, sort: Sort) -> Term {
    Term::sym(PSym {
        name: name.into(),
        sort,
    })
}

/// An integer constant shared by all threads.
pub fn int_sym(name: &str) -> Term {
    sym(name, Sort::Int)
}

/// The executing thread's `threadIdx.x`.
pub fn tid() -> Term {
    int_sym(TID)
}

/// A per-thread value of the executing thread: a function of its index.
pub fn thread_sym(name: &str, sort: Sort) -> Term {
    let f = PSym {
        name: name.into(),
        sort,
    };
    Term::call(f, vec![tid()])
}

/// `lo <= x < hi`.
pub fn in_range(x: &Term, lo: &Term, hi: &Term) -> Term {
    lo.le(x).and(&x.lt(hi))
}

/// `∀ vars: Int. body`.
pub fn forall(vars: &[&str], body: Term) -> Term {
    Term::forall(vars.iter().map(|v| int_sym(v)).collect(), body)
}

/// What perm adds to a term: instantiation for another thread.
pub trait ThreadTerm {
    /// Replaces the executing thread by `t`.
    fn for_thread(&self, t: &Term) -> Term;
    /// True when the term depends on which thread evaluates it.
    fn is_thread_dependent(&self) -> bool;
}

impl ThreadTerm for Term {
    fn for_thread(&self, t: &Term) -> Term {
        self.replace(TID, t)
    }

    fn is_thread_dependent(&self) -> bool {
        self.mentions(TID) || !self.calls().is_empty()
    }
}

/// Splits an integer term into `coeff * x + rest` for the shared symbol `x`, when the term
/// is linear in `x` through `+`, `-` and multiplication by literals (and the coefficient fits
/// in an `i128`).
pub fn linear_in(t: &Term, x: &str) -> Option<(i128, Term)> {
    if !t.mentions(x) {
        return Some((0, t.clone()));
    }
    if t.as_sym().is_some_and(|s| &*s.name == x) {
        return Some((1, Term::int(0)));
    }
    match t.as_app()? {
        (Op::Add, args) => {
            let mut c = 0i128;
            let mut rest = Term::int(0);
            for a in args {
                let (ca, ra) = linear_in(a, x)?;
                c = ca.checked_add(c)?;
                rest = rest.add(&ra);
            }
            Some((c, rest))
        }
        (Op::Sub, [a, b]) => {
            let (ca, ra) = linear_in(a, x)?;
            let (cb, rb) = linear_in(b, x)?;
            Some((ca.checked_sub(cb)?, ra.sub(&rb)))
        }
        (Op::Mul, [a, b]) => {
            let (k, e) = match (a.as_int(), b.as_int()) {
                (Some(k), _) => (k, b),
                (_, Some(k)) => (k, a),
                _ => return None,
            };
            let (c, r) = linear_in(e, x)?;
            Some((c.checked_mul(k)?, Term::int(k).mul(&r)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_instantiation_renames_thread_values() {
        let t = tid().add(&thread_sym("h", Sort::Int));
        assert_eq!(t.smt(), "(+ tid (h tid))");
        assert_eq!(t.for_thread(&int_sym("t1")).smt(), "(+ t1 (h t1))");
        assert!(!int_sym("n").is_thread_dependent());
    }

    /// Found by fuzzing (issue 16): folding `MAX + 1` or `2^63 * 2^63 * 4` overflowed.
    #[test]
    fn folding_is_exact_or_left_to_the_solver() {
        let max = Term::int(i128::MAX);
        assert_eq!(max.add(&Term::int(1)).smt(), format!("(+ {} 1)", i128::MAX));
        assert_eq!(
            Term::int(-i128::MAX).sub(&Term::int(1)).smt(),
            format!("(- (- {}) 1)", i128::MAX)
        );
        let big = Term::int(i128::from(i64::MAX));
        let sq = big.mul(&big);
        assert_eq!(
            sq.as_int(),
            Some(i128::from(i64::MAX) * i128::from(i64::MAX))
        );
        assert_eq!(sq.mul(&Term::int(4)).smt(), format!("(* {} 4)", sq.smt()));
        let i = int_sym("i");
        let lin = Term::int(i128::MAX).mul(&i.add(&i));
        assert!(linear_in(&lin, "i").is_none());
        let lin = Term::int(-i128::MAX).mul(&i).sub(&Term::int(2).mul(&i));
        assert!(linear_in(&lin, "i").is_none());
    }

    #[test]
    fn linear_decomposition() {
        let t = int_sym("i").add(&int_sym("n")).sub(&Term::int(1));
        let (c, rest) = linear_in(&t, "i").expect("linear");
        assert_eq!(c, 1);
        assert_eq!(rest.smt(), "(- n 1)");
        let nl = int_sym("i").modulo(&int_sym("n"));
        assert!(linear_in(&nl, "i").is_none());
    }
}
