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

/// C's `a / b` on integers (truncation toward zero), from SMT's Euclidean `div` and `mod`
/// (`a = b * div(a, b) + mod(a, b)` with `0 <= mod(a, b) < |b|`): they agree with C when
/// `a >= 0` or the division is exact, and otherwise C's quotient is one nearer zero, that
/// is `div(a, b) + sign(b)`. The operands are named once (a `let`), not copied, so a chain
/// of divisions grows linearly. Division by zero is left unspecified, as SMT leaves it.
pub fn c_div(a: Term, b: Term) -> Term {
    if let (Term::Int(x), Term::Int(y)) = (&a, &b) {
        if let Some(q) = x.checked_div(*y).filter(|q| *q != i128::MIN) {
            return Term::Int(q);
        }
    }
    Term::shared([a, b], |[a, b]| {
        let q = Term::app("div", vec![a.clone(), b.clone()]);
        let sign = match b {
            Term::Int(v) => Term::Int(v.signum()),
            _ => Term::ite(
                Term::lt(Term::Int(0), b.clone()),
                Term::Int(1),
                Term::Int(-1),
            ),
        };
        Term::ite(agrees_with_c(&a, &b), q.clone(), Term::plus(q, sign))
    })
}

/// C's `a % b` on integers (the sign of the dividend): SMT's `mod(a, b)` when `a >= 0` or
/// it is 0, otherwise `mod(a, b) - |b|`; the operands named once, as in [`c_div`].
pub fn c_rem(a: Term, b: Term) -> Term {
    if let (Term::Int(x), Term::Int(y)) = (&a, &b) {
        if let Some(r) = x.checked_rem(*y) {
            return Term::Int(r);
        }
    }
    Term::shared([a, b], |[a, b]| {
        let m = Term::app("mod", vec![a.clone(), b.clone()]);
        Term::ite(agrees_with_c(&a, &b), m.clone(), Term::minus(m, abs(b)))
    })
}

/// `a >= 0 || mod(a, b) == 0`, for leaves `a` and `b`: where SMT's Euclidean division and
/// C's truncating one agree.
fn agrees_with_c(a: &Term, b: &Term) -> Term {
    Term::or(vec![
        Term::le(Term::Int(0), a.clone()),
        Term::eq(Term::app("mod", vec![a.clone(), b.clone()]), Term::Int(0)),
    ])
}

/// `|a|` for a leaf `a` (it is copied).
fn abs(a: Term) -> Term {
    if let Term::Int(v) = a {
        if let Some(m) = v.checked_abs() {
            return Term::Int(m);
        }
    }
    Term::ite(
        Term::le(Term::Int(0), a.clone()),
        a.clone(),
        Term::app("-", vec![a]),
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
        (Sort::Real, Sort::Int) => Term::shared([t], |[t]| {
            let down = Term::app("to_int", vec![t.clone()]);
            let up = Term::app(
                "-",
                vec![Term::app("to_int", vec![Term::app("-", vec![t.clone()])])],
            );
            Term::ite(Term::le(Term::real(0, 1), t), down, up)
        }),
        (Sort::Int, Sort::Int) => {
            let m = 1i128 << to.bits();
            if !to.is_signed() {
                wrap(t, to)
            } else if from.bits() < to.bits() || from.is_signed() && from.bits() == to.bits() {
                t
            } else if from.bits() == to.bits() {
                let half = m / 2;
                Term::shared([t], |[t]| {
                    Term::ite(
                        Term::lt(t.clone(), Term::Int(half)),
                        t.clone(),
                        Term::minus(t, Term::Int(m)),
                    )
                })
            } else {
                let half = m / 2;
                let w = Term::app("mod", vec![Term::plus(t, Term::Int(half)), Term::Int(m)]);
                Term::minus(w, Term::Int(half))
            }
        }
        _ => t,
    }
}
