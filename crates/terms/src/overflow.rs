//! When bit-vector arithmetic leaves its range: the conditions under which `a + b`, `a - b`
//! or `a * b` on `w`-bit operands differs from the exact result, read as signed (overflow)
//! or as unsigned (wrap-around). They are ordinary terms, so constant operands fold them to
//! `true` or `false`.

use crate::{Op, Sort, Symbol, Term};

impl<S: Symbol> Term<S> {
    /// True exactly when `self op b` (`op` one of `Add`, `Sub`, `Mul`) on signed `w`-bit
    /// operands leaves `[-2^(w-1), 2^(w-1))`: the operation is redone at `2w` bits, where it
    /// is exact, and compared with the bounds. `None` for another operator or operands that
    /// are not bit-vectors.
    pub fn signed_overflow(&self, op: Op, b: &Term<S>) -> Option<Term<S>> {
        let w = self.bv_width()?;
        let ww = 2 * w;
        let (xa, xb) = (self.sext_to(ww), b.sext_to(ww));
        let exact = match op {
            Op::Add => xa.add(&xb),
            Op::Sub => xa.sub(&xb),
            Op::Mul => xa.mul(&xb),
            _ => return None,
        };
        let min = Term::bvi(ww, -(1i128 << (w - 1)));
        let max = Term::bvi(ww, (1i128 << (w - 1)) - 1);
        Some(exact.slt(&min).or(&max.slt(&exact)))
    }

    /// True exactly when `self op b` (`op` one of `Add`, `Sub`, `Mul`) on unsigned `w`-bit
    /// operands leaves `[0, 2^w)`: a borrow for `Sub`, a carry out of bit `w - 1` for `Add`,
    /// non-zero high half of the `2w`-bit product for `Mul`. `None` for another operator or
    /// operands that are not bit-vectors.
    pub fn unsigned_wrap(&self, op: Op, b: &Term<S>) -> Option<Term<S>> {
        let w = self.bv_width()?;
        Some(match op {
            Op::Sub => self.ult(b),
            Op::Add => {
                let s = self.zext_to(w + 1).add(&b.zext_to(w + 1));
                s.extract(w, w).eq(&Term::bv(1, 1))
            }
            Op::Mul => {
                let p = self.zext_to(2 * w).mul(&b.zext_to(2 * w));
                p.extract(2 * w - 1, w).ne(&Term::bv(w, 0))
            }
            _ => return None,
        })
    }

    /// The width of a bit-vector term of at least one bit.
    fn bv_width(&self) -> Option<u32> {
        match self.sort() {
            Sort::BitVec(w) if w > 0 => Some(w),
            _ => None,
        }
    }
}
