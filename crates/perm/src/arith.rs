//! C arithmetic as SMT terms over mathematical integers: truncating division and
//! remainder, two's-complement wrapping of unsigned results and conversions.

use crate::term::{Sort, Term};
use warpsafe_ir::ScalarType;

/// The SMT sort holding values of `ty`.
pub fn sort_of(ty: ScalarType) -> Sort {
    if ty == ScalarType::Bool {
        Sort::Bool
    } else if ty.is_float() {
        Sort::Real
    } else {
        Sort::Int
    }
}

fn abs(a: Term) -> Term {
    Term::ite(
        Term::le(Term::Int(0), a.clone()),
        a.clone(),
        Term::app("-", vec![a]),
    )
}

/// C's `a / b` on integers (truncation toward zero).
pub fn c_div(a: Term, b: Term) -> Term {
    if let (Term::Int(x), Term::Int(y)) = (&a, &b) {
        if *y != 0 {
            return Term::Int(x / y);
        }
    }
    let mag = Term::app("div", vec![abs(a.clone()), abs(b.clone())]);
    let same_sign = Term::eq(Term::le(Term::Int(0), a), Term::lt(Term::Int(0), b));
    Term::ite(same_sign, mag.clone(), Term::app("-", vec![mag]))
}

/// C's `a % b` on integers (the sign of the dividend).
pub fn c_rem(a: Term, b: Term) -> Term {
    if let (Term::Int(x), Term::Int(y)) = (&a, &b) {
        if *y != 0 {
            return Term::Int(x % y);
        }
    }
    let mag = Term::app("mod", vec![abs(a.clone()), b]);
    Term::ite(
        Term::le(Term::Int(0), a),
        mag.clone(),
        Term::app("-", vec![mag]),
    )
}

/// Reduces an integer result to the range of `ty`: exact wrap-around for unsigned types;
/// signed results are left as they are (overflow is the parametric verifier's finding).
pub fn wrap(t: Term, ty: ScalarType) -> Term {
    if !ty.is_int() || ty.is_signed() {
        return t;
    }
    let m = 1i128 << ty.bits();
    if let Term::Int(v) = t {
        return Term::Int(v.rem_euclid(m));
    }
    Term::app("mod", vec![t, Term::Int(m)])
}

/// The range of values of an integer type, as a constraint on `t`.
pub fn in_type(t: &Term, ty: ScalarType) -> Term {
    if !ty.is_int() {
        return Term::Bool(true);
    }
    let bits = ty.bits();
    let (lo, hi) = if ty.is_signed() {
        (-(1i128 << (bits - 1)), 1i128 << (bits - 1))
    } else {
        (0, 1i128 << bits)
    };
    Term::in_range(t.clone(), Term::Int(lo), Term::Int(hi))
}

/// Converts `t` of type `from` to type `to` with C semantics (two's complement for
/// integer narrowing and sign changes).
pub fn convert(t: Term, from: ScalarType, to: ScalarType) -> Term {
    if from == to {
        return t;
    }
    match (sort_of(from), sort_of(to)) {
        (Sort::Bool, Sort::Int) => Term::ite(t, Term::Int(1), Term::Int(0)),
        (Sort::Bool, Sort::Real) => Term::ite(t, Term::real(1, 1), Term::real(0, 1)),
        (Sort::Int, Sort::Bool) => Term::negate(Term::eq(t, Term::Int(0))),
        (Sort::Real, Sort::Bool) => Term::negate(Term::eq(t, Term::real(0, 1))),
        (Sort::Int, Sort::Real) => Term::app("to_real", vec![t]),
        (Sort::Real, Sort::Int) => {
            let down = Term::app("to_int", vec![t.clone()]);
            let up = Term::app(
                "-",
                vec![Term::app("to_int", vec![Term::app("-", vec![t.clone()])])],
            );
            Term::ite(Term::le(Term::real(0, 1), t), down, up)
        }
        (Sort::Int, Sort::Int) => {
            let m = 1i128 << to.bits();
            if !to.is_signed() {
                wrap(t, to)
            } else if from.bits() < to.bits() || from.is_signed() && from.bits() == to.bits() {
                t
            } else if from.bits() == to.bits() {
                let half = m / 2;
                Term::ite(
                    Term::lt(t.clone(), Term::Int(half)),
                    t.clone(),
                    Term::minus(t, Term::Int(m)),
                )
            } else {
                let half = m / 2;
                let w = Term::app("mod", vec![Term::plus(t, Term::Int(half)), Term::Int(m)]);
                Term::minus(w, Term::Int(half))
            }
        }
        _ => t,
    }
}
