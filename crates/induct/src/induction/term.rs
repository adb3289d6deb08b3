//! induct's terms: the shared index-term language ([`warpsafe_terms`]) over 32-bit
//! vectors, with induct's own symbol payload: every free symbol (the block size `N`, the
//! threads `t`, `t2`, `u`, the cell `f`, the loop variables) is a 32-bit vector named once.

use std::sync::Arc;
use warpsafe_terms::{Sort, Symbol};

/// The width of every integer of the induction.
pub const W: u32 = 32;

/// A free 32-bit symbol of an induction query.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ISym(pub Arc<str>);

impl Symbol for ISym {
    fn name(&self) -> &str {
        &self.0
    }
    fn sort(&self) -> Sort {
        Sort::BitVec(W)
    }
}

/// A term of induct's obligations.
pub type T = warpsafe_terms::Term<ISym>;

/// The 32-bit symbol `name`.
pub fn sym(name: &str) -> T {
    T::sym(ISym(name.into()))
}

/// The 32-bit constant `x` (taken modulo 2^32).
pub fn bv(x: i64) -> T {
    T::bv(W, x.rem_euclid(1 << W) as u128)
}

/// `a >= b`, unsigned.
pub fn uge(a: &T, b: &T) -> T {
    b.ule(a)
}

/// `a > b`, unsigned.
pub fn ugt(a: &T, b: &T) -> T {
    b.ult(a)
}

/// `a >= b`, signed.
pub fn sge(a: &T, b: &T) -> T {
    b.sle(a)
}

/// `a > b`, signed.
pub fn sgt(a: &T, b: &T) -> T {
    b.slt(a)
}

/// `a < b`, signed or not.
pub fn lt(a: &T, b: &T, signed: bool) -> T {
    if signed {
        a.slt(b)
    } else {
        a.ult(b)
    }
}

/// `a <= b`, signed or not.
pub fn le(a: &T, b: &T, signed: bool) -> T {
    if signed {
        a.sle(b)
    } else {
        a.ule(b)
    }
}

/// `if b then 1 else 0`.
pub fn of_bool(b: &T) -> T {
    T::ite(b, &bv(1), &bv(0))
}

/// `x != 0`.
pub fn nonzero(x: &T) -> T {
    x.ne(&bv(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_fold_and_symbols_print_as_32_bit_vectors() {
        let n = sym("N");
        assert_eq!(bv(-1).as_bv(), Some(u32::MAX as u128));
        assert_eq!(n.add(&bv(0)).smt(), "N");
        assert_eq!(uge(&n, &bv(1)).smt(), "(bvule (_ bv1 32) N)");
        assert_eq!(n.sort(), Sort::BitVec(32));
        assert!(nonzero(&bv(3)).as_bool() == Some(true));
    }
}
