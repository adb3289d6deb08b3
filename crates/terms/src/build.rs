//! The smart constructors: every term is folded and simplified as it is built (constants,
//! identities, absorbing elements, double negation, flattening of conjunctions), so fixed
//! launch dimensions collapse before the solver sees them.

use crate::fold::{bv_bin, int_bin, mask, to_signed};
use crate::{Node, Op, Sort, Symbol, Term};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

impl<S: Symbol> Term<S> {
    /// A boolean constant.
    pub fn bool(b: bool) -> Term<S> {
        Term::mk(Node::Bool(b))
    }

    /// `true`.
    pub fn tt() -> Term<S> {
        Term::bool(true)
    }

    /// `false`.
    pub fn ff() -> Term<S> {
        Term::bool(false)
    }

    /// An integer constant.
    pub fn int(v: i128) -> Term<S> {
        Term::mk(Node::Int(v))
    }

    /// A real constant.
    pub fn real(v: BigRational) -> Term<S> {
        Term::mk(Node::Real(v))
    }

    /// The real `num/den` (`den` non-zero).
    pub fn ratio(num: i128, den: i128) -> Term<S> {
        Term::real(BigRational::new(BigInt::from(num), BigInt::from(den)))
    }

    /// The exact value of a finite float, or `None` for NaN and infinities.
    pub fn float(v: f64) -> Option<Term<S>> {
        BigRational::from_float(v).map(Term::real)
    }

    /// A bit-vector constant (`v` truncated to `w` bits).
    pub fn bv(w: u32, v: u128) -> Term<S> {
        Term::mk(Node::Bv(w, v & mask(w)))
    }

    /// A bit-vector constant from a signed value. Constants hold at most 128 bits, so a
    /// negative one wider than that is the sign extension of its 128-bit form.
    pub fn bvi(w: u32, v: i128) -> Term<S> {
        if w > 128 && v < 0 {
            return Term::app_raw(
                Op::Sext(w - 128),
                vec![Term::bv(128, v as u128)],
                Sort::BitVec(w),
            );
        }
        Term::bv(w, v as u128)
    }

    /// The zero of sort `s` (integer, real or bit-vector).
    pub fn zero(s: Sort) -> Term<S> {
        match s {
            Sort::Real => Term::real(BigRational::zero()),
            Sort::BitVec(w) => Term::bv(w, 0),
            _ => Term::int(0),
        }
    }

    /// The constant of sort `s` whose bits are `v`, as a model reports a value: a boolean
    /// (`v != 0`) or a bit-vector (`v` truncated to its width); `None` for the unbounded
    /// sorts and arrays.
    pub fn from_bits(s: Sort, v: u128) -> Option<Term<S>> {
        match s {
            Sort::Bool => Some(Term::bool(v != 0)),
            Sort::BitVec(w) => Some(Term::bv(w, v)),
            _ => None,
        }
    }

    fn is_const(&self, v: i128) -> bool {
        match &*self.0 {
            Node::Int(x) => *x == v,
            Node::Bv(w, x) => v >= 0 && *x == v as u128 && (*w >= 128 || v as u128 <= mask(*w)),
            Node::Real(r) => *r == BigRational::from_integer(BigInt::from(v)),
            _ => false,
        }
    }

    // ---- booleans -------------------------------------------------------------------

    /// `(not a)`.
    pub fn not(&self) -> Term<S> {
        match &*self.0 {
            Node::Bool(b) => Term::bool(!b),
            Node::App(Op::Not, a, _) => a[0].clone(),
            _ => Term::app_raw(Op::Not, vec![self.clone()], Sort::Bool),
        }
    }

    /// Conjunction of `xs` (nested conjunctions flattened, repeats dropped).
    pub fn and_all(xs: impl IntoIterator<Item = Term<S>>) -> Term<S> {
        let mut out: Vec<Term<S>> = vec![];
        for x in xs {
            match x.as_bool() {
                Some(true) => {}
                Some(false) => return Term::ff(),
                None => {
                    if let Node::App(Op::And, inner, _) = &*x.0 {
                        for i in inner {
                            if !out.iter().any(|o| o.same(i)) {
                                out.push(i.clone());
                            }
                        }
                    } else if !out.iter().any(|o| o.same(&x)) {
                        out.push(x);
                    }
                }
            }
        }
        match out.len() {
            0 => Term::tt(),
            1 => out.pop().unwrap_or_else(Term::tt),
            _ => Term::app_raw(Op::And, out, Sort::Bool),
        }
    }

    /// Disjunction of `xs` (repeats dropped).
    pub fn or_all(xs: impl IntoIterator<Item = Term<S>>) -> Term<S> {
        let mut out: Vec<Term<S>> = vec![];
        for x in xs {
            match x.as_bool() {
                Some(false) => {}
                Some(true) => return Term::tt(),
                None => {
                    if !out.iter().any(|o| o.same(&x)) {
                        out.push(x);
                    }
                }
            }
        }
        match out.len() {
            0 => Term::ff(),
            1 => out.pop().unwrap_or_else(Term::ff),
            _ => Term::app_raw(Op::Or, out, Sort::Bool),
        }
    }

    /// `a ∧ b`.
    pub fn and(&self, b: &Term<S>) -> Term<S> {
        Term::and_all([self.clone(), b.clone()])
    }

    /// `a ∨ b`.
    pub fn or(&self, b: &Term<S>) -> Term<S> {
        Term::or_all([self.clone(), b.clone()])
    }

    /// `a → b`.
    pub fn implies(&self, b: &Term<S>) -> Term<S> {
        self.not().or(b)
    }

    /// `(ite c a b)`; boolean branches become connectives where one is a constant.
    pub fn ite(c: &Term<S>, a: &Term<S>, b: &Term<S>) -> Term<S> {
        match c.as_bool() {
            Some(true) => return a.clone(),
            Some(false) => return b.clone(),
            None => {}
        }
        if a.same(b) {
            return a.clone();
        }
        if a.sort() == Sort::Bool {
            match (a.as_bool(), b.as_bool()) {
                (Some(true), Some(false)) => return c.clone(),
                (Some(false), Some(true)) => return c.not(),
                (Some(true), None) => return c.or(b),
                (Some(false), None) => return c.not().and(b),
                (None, Some(true)) => return c.not().or(a),
                (None, Some(false)) => return c.and(a),
                _ => {}
            }
        }
        Term::app_raw(Op::Ite, vec![c.clone(), a.clone(), b.clone()], a.sort())
    }

    /// `(= a b)`.
    pub fn eq(&self, b: &Term<S>) -> Term<S> {
        if self.same(b) {
            return Term::tt();
        }
        match (&*self.0, &*b.0) {
            (Node::Bool(x), Node::Bool(y)) => return Term::bool(x == y),
            (Node::Bv(_, x), Node::Bv(_, y)) => return Term::bool(x == y),
            (Node::Int(x), Node::Int(y)) => return Term::bool(x == y),
            (Node::Real(x), Node::Real(y)) => return Term::bool(x == y),
            (Node::Bool(true), _) => return b.clone(),
            (_, Node::Bool(true)) => return self.clone(),
            (Node::Bool(false), _) => return b.not(),
            (_, Node::Bool(false)) => return self.not(),
            _ => {}
        }
        Term::app_raw(Op::Eq, vec![self.clone(), b.clone()], Sort::Bool)
    }

    /// `(not (= a b))`.
    pub fn ne(&self, b: &Term<S>) -> Term<S> {
        self.eq(b).not()
    }

    // ---- arithmetic shared by integers, reals and bit-vectors -------------------------

    /// A binary operator through the folding rules.
    fn bin(op: Op, a: &Term<S>, b: &Term<S>) -> Term<S> {
        let sort = a.sort();
        match (&*a.0, &*b.0) {
            (Node::Bv(w, x), Node::Bv(_, y)) if *w <= 128 => match bv_bin(op, *w, *x, *y) {
                Some(Ok(v)) => return Term::bv(*w, v),
                Some(Err(v)) => return Term::bool(v),
                None => {}
            },
            (Node::Int(x), Node::Int(y)) => {
                if let Some(v) = int_bin(op, *x, *y) {
                    return Term::int(v);
                }
                match op {
                    Op::Lt => return Term::bool(x < y),
                    Op::Le => return Term::bool(x <= y),
                    _ => {}
                }
            }
            (Node::Real(x), Node::Real(y)) => match op {
                Op::Lt => return Term::bool(x < y),
                Op::Le => return Term::bool(x <= y),
                Op::Add => return Term::real(x + y),
                Op::Sub => return Term::real(x - y),
                Op::Mul => return Term::real(x * y),
                Op::RDiv if !y.is_zero() => return Term::real(x / y),
                _ => {}
            },
            _ => {}
        }
        let int_like = matches!(sort, Sort::Int | Sort::BitVec(_));
        match op {
            Op::Add if a.is_const(0) => return b.clone(),
            Op::Add if b.is_const(0) => return a.clone(),
            Op::Sub if b.is_const(0) => return a.clone(),
            Op::Sub if int_like && a.same(b) => return Term::zero(sort),
            Op::Mul if int_like && (a.is_const(0) || b.is_const(0)) => return Term::zero(sort),
            Op::Mul if a.is_const(1) => return b.clone(),
            Op::Mul if b.is_const(1) => return a.clone(),
            Op::Div | Op::Udiv | Op::Sdiv if b.is_const(1) => return a.clone(),
            Op::Shl | Op::Lshr | Op::Ashr if b.is_const(0) => return a.clone(),
            Op::BvAnd if a.is_const(0) || b.is_const(0) => return Term::zero(sort),
            Op::BvOr | Op::BvXor if b.is_const(0) => return a.clone(),
            Op::BvOr | Op::BvXor if a.is_const(0) => return b.clone(),
            _ => {}
        }
        if op.is_comparison() {
            if a.same(b) {
                return Term::bool(matches!(op, Op::Le | Op::Ule | Op::Sle));
            }
            return Term::app_raw(op, vec![a.clone(), b.clone()], Sort::Bool);
        }
        let sort = match op {
            Op::Div | Op::Mod => Sort::Int,
            Op::RDiv => Sort::Real,
            _ => sort,
        };
        Term::app_raw(op, vec![a.clone(), b.clone()], sort)
    }

    /// `a + b` (`bvadd` on bit-vectors).
    pub fn add(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Add, self, b)
    }
    /// `a - b` (`bvsub` on bit-vectors).
    pub fn sub(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Sub, self, b)
    }
    /// `a * b` (`bvmul` on bit-vectors).
    pub fn mul(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Mul, self, b)
    }

    /// `-a` (`bvneg` on bit-vectors).
    pub fn neg(&self) -> Term<S> {
        match &*self.0 {
            Node::Bv(w, v) if *w <= 128 => return Term::bv(*w, v.wrapping_neg()),
            Node::Int(v) if *v != i128::MIN => return Term::int(-v),
            Node::Real(r) => return Term::real(-r),
            _ => {}
        }
        Term::app_raw(Op::Neg, vec![self.clone()], self.sort())
    }

    // ---- integers and reals -----------------------------------------------------------

    /// Integer `div` (Euclidean).
    pub fn div(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Div, self, b)
    }
    /// Integer `mod` (in `[0, |b|)`).
    pub fn modulo(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Mod, self, b)
    }
    /// Real division.
    pub fn rdiv(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::RDiv, self, b)
    }
    /// `a < b` on integers or reals.
    pub fn lt(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Lt, self, b)
    }
    /// `a <= b` on integers or reals.
    pub fn le(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Le, self, b)
    }

    /// Integer to real (identity on reals).
    pub fn to_real(&self) -> Term<S> {
        match (&*self.0, self.sort()) {
            (_, Sort::Real) => self.clone(),
            (Node::Int(v), _) => Term::real(BigRational::from_integer(BigInt::from(*v))),
            _ => Term::app_raw(Op::ToReal, vec![self.clone()], Sort::Real),
        }
    }

    /// Real to integer, rounding down (identity on integers).
    pub fn to_int(&self) -> Term<S> {
        match (&*self.0, self.sort()) {
            (_, Sort::Int) => self.clone(),
            (Node::Real(r), _) => match i128::try_from(r.floor().to_integer()) {
                Ok(v) if v != i128::MIN => Term::int(v),
                _ => Term::app_raw(Op::ToInt, vec![self.clone()], Sort::Int),
            },
            _ => Term::app_raw(Op::ToInt, vec![self.clone()], Sort::Int),
        }
    }

    // ---- bit-vectors ------------------------------------------------------------------

    /// `bvudiv`.
    pub fn udiv(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Udiv, self, b)
    }
    /// `bvsdiv`.
    pub fn sdiv(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Sdiv, self, b)
    }
    /// `bvurem`.
    pub fn urem(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Urem, self, b)
    }
    /// `bvsrem`.
    pub fn srem(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Srem, self, b)
    }
    /// `bvand`.
    pub fn bvand(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::BvAnd, self, b)
    }
    /// `bvor`.
    pub fn bvor(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::BvOr, self, b)
    }
    /// `bvxor`.
    pub fn bvxor(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::BvXor, self, b)
    }
    /// `bvshl`.
    pub fn shl(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Shl, self, b)
    }
    /// `bvlshr`.
    pub fn lshr(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Lshr, self, b)
    }
    /// `bvashr`.
    pub fn ashr(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Ashr, self, b)
    }
    /// `bvult`.
    pub fn ult(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Ult, self, b)
    }
    /// `bvule`.
    pub fn ule(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Ule, self, b)
    }
    /// `bvslt`.
    pub fn slt(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Slt, self, b)
    }
    /// `bvsle`.
    pub fn sle(&self, b: &Term<S>) -> Term<S> {
        Term::bin(Op::Sle, self, b)
    }

    /// `bvnot`.
    pub fn bvnot(&self) -> Term<S> {
        if let Node::Bv(w, v) = &*self.0 {
            if *w <= 128 {
                return Term::bv(*w, !v);
            }
        }
        Term::app_raw(Op::BvNot, vec![self.clone()], self.sort())
    }

    /// `((_ extract hi lo) a)`.
    pub fn extract(&self, hi: u32, lo: u32) -> Term<S> {
        let w = self.width();
        if lo == 0 && hi + 1 == w {
            return self.clone();
        }
        if let Some(v) = self.as_bv() {
            return Term::bv(hi - lo + 1, v.checked_shr(lo).unwrap_or(0));
        }
        if let Node::App(Op::Zext(_) | Op::Sext(_), a, _) = &*self.0 {
            if lo == 0 && hi + 1 == a[0].width() {
                return a[0].clone();
            }
        }
        Term::app_raw(
            Op::Extract(hi, lo),
            vec![self.clone()],
            Sort::BitVec(hi - lo + 1),
        )
    }

    /// Zero-extends to `w` bits (or truncates when narrower).
    pub fn zext_to(&self, w: u32) -> Term<S> {
        let cur = self.width();
        if w == cur {
            return self.clone();
        }
        if w < cur {
            return self.extract(w - 1, 0);
        }
        if let Some(v) = self.as_bv() {
            return Term::bv(w, v);
        }
        Term::app_raw(Op::Zext(w - cur), vec![self.clone()], Sort::BitVec(w))
    }

    /// Sign-extends to `w` bits (or truncates when narrower).
    pub fn sext_to(&self, w: u32) -> Term<S> {
        let cur = self.width();
        if w == cur {
            return self.clone();
        }
        if w < cur {
            return self.extract(w - 1, 0);
        }
        if let Some(v) = self.as_bv() {
            if w <= 128 {
                return Term::bvi(w, to_signed(cur, v));
            }
        }
        Term::app_raw(Op::Sext(w - cur), vec![self.clone()], Sort::BitVec(w))
    }

    /// Extends to `w` bits, signed or not.
    pub fn ext_to(&self, w: u32, signed: bool) -> Term<S> {
        if signed {
            self.sext_to(w)
        } else {
            self.zext_to(w)
        }
    }

    // ---- arrays -------------------------------------------------------------------------

    /// `arr[idx]`.
    pub fn select(&self, idx: &Term<S>) -> Term<S> {
        let elem = self.sort().elem().unwrap_or(Sort::Int);
        Term::app_raw(Op::Select, vec![self.clone(), idx.clone()], elem)
    }

    /// `arr` with `arr[idx] = v`.
    pub fn store(&self, idx: &Term<S>, v: &Term<S>) -> Term<S> {
        Term::app_raw(
            Op::Store,
            vec![self.clone(), idx.clone(), v.clone()],
            self.sort(),
        )
    }

    // ---- the simplifier ---------------------------------------------------------------

    /// `op` applied to `args` through the folding constructors (`None` for a wrong arity).
    pub fn app(op: Op, args: &[Term<S>]) -> Option<Term<S>> {
        Some(match (op, args) {
            (Op::Not, [x]) => x.not(),
            (Op::And, xs) => Term::and_all(xs.iter().cloned()),
            (Op::Or, xs) => Term::or_all(xs.iter().cloned()),
            (Op::Ite, [c, x, y]) => Term::ite(c, x, y),
            (Op::Eq, [x, y]) => x.eq(y),
            (Op::Neg, [x]) => x.neg(),
            (Op::BvNot, [x]) => x.bvnot(),
            (Op::ToReal, [x]) => x.to_real(),
            (Op::ToInt, [x]) => x.to_int(),
            (Op::Extract(h, l), [x]) => x.extract(h, l),
            (Op::Zext(n), [x]) => x.zext_to(x.width() + n),
            (Op::Sext(n), [x]) => x.sext_to(x.width() + n),
            (Op::Select, [a, i]) => a.select(i),
            (Op::Store, [a, i, v]) => a.store(i, v),
            (op, [x, y]) => Term::bin(op, x, y),
            _ => return None,
        })
    }

    /// True when the term is an integer, real or bit-vector constant equal to `v`.
    pub fn is_value(&self, v: i128) -> bool {
        self.is_const(v)
    }

    /// `1` of the term's sort, for callers that need one.
    pub fn one_like(&self) -> Term<S> {
        match self.sort() {
            Sort::Real => Term::real(BigRational::one()),
            Sort::BitVec(w) => Term::bv(w, 1),
            _ => Term::int(1),
        }
    }
}
