//! C arithmetic as SMT terms over mathematical integers: truncating division and
//! remainder, two's-complement wrapping of unsigned results and conversions.

use crate::term::{in_range, Sort, Term};
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
/// is `div(a, b) + sign(b)`. The operands are shared subterms, which the printer names
/// once, so a chain of divisions grows linearly. Division by zero is left unspecified, as
/// SMT leaves it.
pub fn c_div(a: Term, b: Term) -> Term {
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        if let Some(q) = x.checked_div(y).filter(|q| *q != i128::MIN) {
            return Term::int(q);
        }
    }
    let q = a.div(&b);
    let sign = match b.as_int() {
        Some(v) => Term::int(v.signum()),
        None => Term::ite(&Term::int(0).lt(&b), &Term::int(1), &Term::int(-1)),
    };
    Term::ite(&agrees_with_c(&a, &b), &q, &q.add(&sign))
}

/// C's `a % b` on integers (the sign of the dividend): SMT's `mod(a, b)` when `a >= 0` or
/// it is 0, otherwise `mod(a, b) - |b|`; the operands shared, as in [`c_div`].
pub fn c_rem(a: Term, b: Term) -> Term {
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        if let Some(r) = x.checked_rem(y) {
            return Term::int(r);
        }
    }
    let m = a.modulo(&b);
    Term::ite(&agrees_with_c(&a, &b), &m, &m.sub(&abs(&b)))
}

/// `a >= 0 || mod(a, b) == 0`: where SMT's Euclidean division and C's truncating one agree.
fn agrees_with_c(a: &Term, b: &Term) -> Term {
    Term::int(0).le(a).or(&a.modulo(b).eq(&Term::int(0)))
}

/// `|a|`.
fn abs(a: &Term) -> Term {
    if let Some(m) = a.as_int().and_then(i128::checked_abs) {
        return Term::int(m);
    }
    Term::ite(&Term::int(0).le(a), a, &a.neg())
}

/// Reduces an integer result to the range of `ty`: exact wrap-around for unsigned types;
/// signed results are left as they are (overflow is the parametric verifier's finding).
pub fn wrap(t: Term, ty: ScalarType) -> Term {
    if !ty.is_int() || ty.is_signed() {
        return t;
    }
    t.modulo(&Term::int(1i128 << ty.bits()))
}

/// The range of values of an integer type, as a constraint on `t`.
pub fn in_type(t: &Term, ty: ScalarType) -> Term {
    if !ty.is_int() {
        return Term::bool(true);
    }
    let bits = ty.bits();
    let (lo, hi) = if ty.is_signed() {
        (-(1i128 << (bits - 1)), 1i128 << (bits - 1))
    } else {
        (0, 1i128 << bits)
    };
    in_range(t, &Term::int(lo), &Term::int(hi))
}

/// Converts `t` of type `from` to type `to` with C semantics (two's complement for
/// integer narrowing and sign changes).
pub fn convert(t: Term, from: ScalarType, to: ScalarType) -> Term {
    if from == to {
        return t;
    }
    match (sort_of(from), sort_of(to)) {
        (Sort::Bool, Sort::Int) => Term::ite(&t, &Term::int(1), &Term::int(0)),
        (Sort::Bool, Sort::Real) => Term::ite(&t, &Term::ratio(1, 1), &Term::ratio(0, 1)),
        (Sort::Int, Sort::Bool) => t.eq(&Term::int(0)).not(),
        (Sort::Real, Sort::Bool) => t.eq(&Term::ratio(0, 1)).not(),
        (Sort::Int, Sort::Real) => t.to_real(),
        (Sort::Real, Sort::Int) => {
            let down = t.to_int();
            let up = t.neg().to_int().neg();
            Term::ite(&Term::ratio(0, 1).le(&t), &down, &up)
        }
        (Sort::Int, Sort::Int) => {
            let m = 1i128 << to.bits();
            if !to.is_signed() {
                wrap(t, to)
            } else if from.bits() < to.bits() || from.is_signed() && from.bits() == to.bits() {
                t
            } else if from.bits() == to.bits() {
                let half = m / 2;
                Term::ite(&t.lt(&Term::int(half)), &t, &t.sub(&Term::int(m)))
            } else {
                let half = m / 2;
                let w = t.add(&Term::int(half)).modulo(&Term::int(m));
                w.sub(&Term::int(half))
            }
        }
        _ => t,
    }
}

/// The sort of an array of `elem` values (indexed by integers).
pub fn array_sort(elem: Sort) -> Sort {
    Sort::array_of(elem).unwrap_or(Sort::Array(crate::term::Elem::Int))
}
