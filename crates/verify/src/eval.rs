//! Symbolic evaluation of IR expressions to terms, with C semantics: exact wrapping
//! bit-vectors for integers, opaque floats, short-circuit guards for `&&`, `||` and `?:`.
//! Where a value comes from (variables, builtins, memory) and what happens to arithmetic
//! hazards (overflow, division by zero) is up to the caller's [`Hooks`].

use crate::term::{Op, Sort, Term};
use warpsafe_ir::{
    BinOp, Builtin, Category, Expr, ExprKind, LogicOp, MathFn, MemRef, ScalarType, Span, UnOp,
    Value, VarId,
};

/// A symbolic value of an IR type.
#[derive(Clone, Debug)]
pub enum SVal {
    /// A `bool`.
    Bool(Term),
    /// An integer: its bits, its type, and when its computation wrapped unsigned arithmetic
    /// (not yet reduced by `%` or `&`), which matters only if it becomes an index.
    Int {
        /// The value.
        t: Term,
        /// Its type.
        ty: ScalarType,
        /// Condition under which an unsigned add/sub/mul on the way wrapped.
        wrap: Term,
    },
    /// A float (never needed precisely for the properties checked).
    Opaque,
}

impl SVal {
    /// An integer without wrap history.
    pub fn int(t: Term, ty: ScalarType) -> SVal {
        SVal::Int {
            t,
            ty,
            wrap: Term::ff(),
        }
    }

    /// The constant `v`.
    pub fn constant(v: Value) -> SVal {
        let ty = v.ty();
        if ty == ScalarType::Bool {
            SVal::Bool(Term::bool(v.to_bits() != 0))
        } else if ty.is_int() {
            SVal::int(Term::bv(ty.bits(), v.to_bits() as u128), ty)
        } else {
            SVal::Opaque
        }
    }

    /// The zero of `ty`.
    pub fn zero(ty: ScalarType) -> SVal {
        SVal::constant(Value::zero(ty))
    }

    /// The integer term, if any.
    pub fn term(&self) -> Option<&Term> {
        match self {
            SVal::Int { t, .. } => Some(t),
            SVal::Bool(t) => Some(t),
            SVal::Opaque => None,
        }
    }

    /// `ite(c, a, b)` on values of the same type.
    pub fn merge(c: &Term, a: &SVal, b: &SVal) -> SVal {
        match (a, b) {
            (SVal::Bool(x), SVal::Bool(y)) => SVal::Bool(Term::ite(c, x, y)),
            (SVal::Int { t: x, ty, wrap: wx }, SVal::Int { t: y, wrap: wy, .. })
                if x.width() == y.width() =>
            {
                SVal::Int {
                    t: Term::ite(c, x, y),
                    ty: *ty,
                    wrap: Term::ite(c, wx, wy),
                }
            }
            _ => SVal::Opaque,
        }
    }

    /// True when the two values are the same terms.
    pub fn same(&self, o: &SVal) -> bool {
        match (self, o) {
            (SVal::Bool(a), SVal::Bool(b)) => a.same(b),
            (SVal::Int { t: a, wrap: wa, .. }, SVal::Int { t: b, wrap: wb, .. }) => {
                a.same(b) && wa.same(wb)
            }
            (SVal::Opaque, SVal::Opaque) => true,
            _ => false,
        }
    }
}

/// Where values come from and where hazards go.
pub trait Hooks {
    /// The value of a local variable.
    fn var(&mut self, v: VarId, ty: ScalarType) -> SVal;
    /// The value of a builtin other than the launch dimensions and `warpSize`.
    fn builtin(&mut self, b: Builtin) -> SVal;
    /// A memory read under path condition `pc`.
    fn load(&mut self, mem: MemRef, idx: Vec<SVal>, ty: ScalarType, pc: &Term, span: Span) -> SVal;
    /// A hazard: under `pc`, `cond` means a finding of category `cat`.
    fn hazard(&mut self, cat: Category, cond: Term, pc: &Term, span: Span, what: String);
    /// A fresh unconstrained term (per thread) of sort `s`.
    fn fresh(&mut self, s: Sort) -> Term;
    /// Under `pc`, `cond` means an unsigned add/sub/mul wrapped (legal C, tracked for indices).
    fn wrap(&mut self, _cond: &Term, _pc: &Term) {}
}

/// The launch-wide values every evaluation can read.
pub trait Shared {
    /// `blockDim.d` (`u32`).
    fn block_dim(&self, d: usize) -> Term;
    /// `gridDim.d` (`u32`).
    fn grid_dim(&self, d: usize) -> Term;
    /// Value of a scalar parameter.
    fn param(&self, p: usize) -> SVal;
    /// Length of a buffer parameter (`u64`).
    fn buffer_len(&self, p: usize) -> Term;
}

/// Converts an integer term of type `from` to type `to` with C semantics.
pub fn cast_int(t: &Term, from: ScalarType, to: ScalarType) -> Term {
    t.ext_to(to.bits(), from.is_signed())
}

fn min_of(ty: ScalarType) -> Term {
    Term::bv(ty.bits(), 1u128 << (ty.bits() - 1))
}

/// Evaluates `e` under path condition `pc`.
pub fn eval(h: &mut dyn Hooks, s: &dyn Shared, e: &Expr, pc: &Term) -> SVal {
    match &e.kind {
        ExprKind::Const(v) => SVal::constant(*v),
        ExprKind::Var(v) => h.var(*v, e.ty),
        ExprKind::Param(p) => s.param(p.0 as usize),
        ExprKind::BufferLen(p) => SVal::int(s.buffer_len(p.0 as usize), ScalarType::U64),
        ExprKind::Builtin(b) => match b {
            Builtin::BlockDim(d) => SVal::int(s.block_dim(d.index()), ScalarType::U32),
            Builtin::GridDim(d) => SVal::int(s.grid_dim(d.index()), ScalarType::U32),
            Builtin::WarpSize => SVal::int(Term::bv(32, 32), ScalarType::U32),
            _ => h.builtin(*b),
        },
        ExprKind::Unary(op, a) => {
            let va = eval(h, s, a, pc);
            unary(h, *op, e.ty, va, pc, e.span)
        }
        ExprKind::Binary(op, a, b) => {
            let va = eval(h, s, a, pc);
            let vb = eval(h, s, b, pc);
            binary(h, *op, a.ty, va, vb, pc, e.span)
        }
        ExprKind::Logical(op, a, b) => {
            let va = eval(h, s, a, pc);
            let va = as_bool(h, va);
            let guard = match op {
                LogicOp::And => va.clone(),
                LogicOp::Or => va.not(),
            };
            let vb = eval(h, s, b, &pc.and(&guard));
            let vb = as_bool(h, vb);
            SVal::Bool(match op {
                LogicOp::And => va.and(&vb),
                LogicOp::Or => va.or(&vb),
            })
        }
        ExprKind::Cast(a) => {
            let va = eval(h, s, a, pc);
            cast(h, va, a.ty, e.ty)
        }
        ExprKind::Select(c, a, b) => {
            let vc = eval(h, s, c, pc);
            let vc = as_bool(h, vc);
            let va = eval(h, s, a, &pc.and(&vc));
            let vb = eval(h, s, b, &pc.and(&vc.not()));
            SVal::merge(&vc, &va, &vb)
        }
        ExprKind::Call(f, args) => {
            let vals: Vec<SVal> = args.iter().map(|a| eval(h, s, a, pc)).collect();
            match (f, vals.first()) {
                (MathFn::Abs, Some(SVal::Int { t, ty, wrap })) if e.ty.is_int() => {
                    if ty.is_signed() {
                        let min = min_of(*ty);
                        h.hazard(
                            Category::Overflow,
                            t.eq(&min),
                            pc,
                            e.span,
                            format!("abs of the most negative {ty}"),
                        );
                        let neg = t.slt(&Term::bv(t.width(), 0));
                        SVal::Int {
                            t: Term::ite(&neg, &t.neg(), t),
                            ty: *ty,
                            wrap: wrap.clone(),
                        }
                    } else {
                        vals[0].clone()
                    }
                }
                _ => opaque_of(h, e.ty),
            }
        }
        ExprKind::Load(mem, idx) => {
            let iv: Vec<SVal> = idx.iter().map(|i| eval(h, s, i, pc)).collect();
            h.load(*mem, iv, e.ty, pc, e.span)
        }
    }
}

/// A fresh value of type `ty` (opaque for floats).
pub fn opaque_of(h: &mut dyn Hooks, ty: ScalarType) -> SVal {
    match ty {
        ScalarType::Bool => SVal::Bool(h.fresh(Sort::Bool)),
        t if t.is_int() => SVal::int(h.fresh(Sort::BitVec(t.bits())), t),
        _ => SVal::Opaque,
    }
}

/// The value as a boolean term (fresh when it is opaque).
pub fn as_bool(h: &mut dyn Hooks, v: SVal) -> Term {
    match v {
        SVal::Bool(t) => t,
        SVal::Int { t, .. } => t.ne(&Term::bv(t.width(), 0)),
        SVal::Opaque => h.fresh(Sort::Bool),
    }
}

fn cast(h: &mut dyn Hooks, v: SVal, from: ScalarType, to: ScalarType) -> SVal {
    if from == to {
        return v;
    }
    match (v, to) {
        (v, ScalarType::Bool) => SVal::Bool(as_bool(h, v)),
        (SVal::Bool(b), t) if t.is_int() => SVal::int(
            Term::ite(&b, &Term::bv(t.bits(), 1), &Term::bv(t.bits(), 0)),
            t,
        ),
        (SVal::Int { t, wrap, .. }, ty) if ty.is_int() => SVal::Int {
            t: cast_int(&t, from, ty),
            ty,
            // Narrowing to 8 or 16 bits reduces modulo 2^n like `& 0xff`: the low bits of a
            // wrapped sum are those of the exact one.
            wrap: if ty.is_small_int() && ty.bits() < from.bits() {
                Term::ff()
            } else {
                wrap
            },
        },
        (_, ty) => opaque_of(h, ty),
    }
}

fn unary(h: &mut dyn Hooks, op: UnOp, ty: ScalarType, v: SVal, pc: &Term, span: Span) -> SVal {
    match (op, v) {
        (UnOp::Not, v) => SVal::Bool(as_bool(h, v).not()),
        (UnOp::Neg, SVal::Int { t, ty, wrap }) => {
            if ty.is_signed() {
                h.hazard(
                    Category::Overflow,
                    t.eq(&min_of(ty)),
                    pc,
                    span,
                    format!("negation of the most negative {ty}"),
                );
            }
            SVal::Int {
                t: t.neg(),
                ty,
                wrap,
            }
        }
        (UnOp::BitNot, SVal::Int { t, ty, wrap }) => SVal::Int {
            t: t.bvnot(),
            ty,
            wrap,
        },
        (UnOp::BitNot, SVal::Bool(b)) => SVal::Bool(b.not()),
        _ => opaque_of(h, ty),
    }
}

fn bool_bin(op: BinOp, a: &Term, b: &Term) -> Option<Term> {
    Some(match op {
        BinOp::BitAnd | BinOp::Min => a.and(b),
        BinOp::BitOr | BinOp::Max => a.or(b),
        BinOp::BitXor | BinOp::Ne => a.ne(b),
        BinOp::Eq => a.eq(b),
        BinOp::Lt => a.not().and(b),
        BinOp::Le => a.not().or(b),
        BinOp::Gt => a.and(&b.not()),
        BinOp::Ge => a.or(&b.not()),
        _ => return None,
    })
}

/// Applies a binary operator to two values of type `ty` (the operand type).
#[allow(clippy::too_many_arguments)]
pub fn binary(
    h: &mut dyn Hooks,
    op: BinOp,
    ty: ScalarType,
    a: SVal,
    b: SVal,
    pc: &Term,
    span: Span,
) -> SVal {
    let (ta, wa, tb, wb) = match (a, b) {
        (
            SVal::Int {
                t: ta, wrap: wa, ..
            },
            SVal::Int {
                t: tb, wrap: wb, ..
            },
        ) if ta.width() == tb.width() => (ta, wa, tb, wb),
        (SVal::Bool(x), SVal::Bool(y)) => {
            return match bool_bin(op, &x, &y) {
                Some(t) => SVal::Bool(t),
                None => opaque_of(h, ScalarType::Bool),
            }
        }
        _ => {
            return if op.is_comparison() {
                SVal::Bool(h.fresh(Sort::Bool))
            } else {
                opaque_of(h, ty)
            }
        }
    };
    let signed = ty.is_signed();
    let cmp = |f: fn(&Term, &Term) -> Term, g: fn(&Term, &Term) -> Term| {
        SVal::Bool(if signed { f(&ta, &tb) } else { g(&ta, &tb) })
    };
    match op {
        BinOp::Eq => return SVal::Bool(ta.eq(&tb)),
        BinOp::Ne => return SVal::Bool(ta.ne(&tb)),
        BinOp::Lt => return cmp(Term::slt, Term::ult),
        BinOp::Le => return cmp(Term::sle, Term::ule),
        BinOp::Gt => return cmp(|a, b| b.slt(a), |a, b| b.ult(a)),
        BinOp::Ge => return cmp(|a, b| b.sle(a), |a, b| b.ule(a)),
        _ => {}
    }
    let w = ta.width();
    let zero = Term::bv(w, 0);
    let mut wrap = wa.or(&wb);
    let t = match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => {
            let o = match op {
                BinOp::Add => Op::Add,
                BinOp::Sub => Op::Sub,
                _ => Op::Mul,
            };
            if signed {
                h.hazard(
                    Category::Overflow,
                    // `o` is add, sub or mul: the condition exists (else: a possible overflow).
                    ta.signed_overflow(o, &tb).unwrap_or_else(Term::tt),
                    pc,
                    span,
                    format!("signed {ty} `{}` overflows", op.symbol()),
                );
            } else {
                let c = ta.unsigned_wrap(o, &tb).unwrap_or_else(Term::tt);
                h.wrap(&c, pc);
                wrap = wrap.or(&c);
            }
            match o {
                Op::Add => ta.add(&tb),
                Op::Sub => ta.sub(&tb),
                _ => ta.mul(&tb),
            }
        }
        BinOp::Div | BinOp::Rem => {
            h.hazard(
                Category::DivByZero,
                tb.eq(&zero),
                pc,
                span,
                format!("integer `{}` by zero", op.symbol()),
            );
            if signed {
                let m1 = Term::bv(w, u128::MAX);
                h.hazard(
                    Category::Overflow,
                    ta.eq(&min_of(ty)).and(&tb.eq(&m1)),
                    pc,
                    span,
                    format!("most negative {ty} `{}` -1 overflows", op.symbol()),
                );
            }
            if op == BinOp::Rem {
                wrap = Term::ff();
            }
            match (op, signed) {
                (BinOp::Div, true) => ta.sdiv(&tb),
                (BinOp::Div, false) => ta.udiv(&tb),
                (_, true) => ta.srem(&tb),
                _ => ta.urem(&tb),
            }
        }
        BinOp::BitAnd => {
            wrap = Term::ff();
            ta.bvand(&tb)
        }
        BinOp::BitOr => ta.bvor(&tb),
        BinOp::BitXor => ta.bvxor(&tb),
        BinOp::Shl => ta.shl(&tb),
        BinOp::Shr => {
            if signed {
                ta.ashr(&tb)
            } else {
                // Extracting the high bits of an unsigned word by a constant shift is bit-level
                // intent, like `&`: the modular value is what is meant (the parallel popcount's
                // `(x * 0x01010101) >> 24`, hashes).
                if tb.as_bv().is_some_and(|k| k > 0) {
                    wrap = Term::ff();
                }
                ta.lshr(&tb)
            }
        }
        BinOp::Min | BinOp::Max => {
            let lt = if signed { ta.slt(&tb) } else { ta.ult(&tb) };
            if op == BinOp::Min {
                Term::ite(&lt, &ta, &tb)
            } else {
                Term::ite(&lt, &tb, &ta)
            }
        }
        _ => return opaque_of(h, ty),
    };
    SVal::Int { t, ty, wrap }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoHooks(Vec<Term>);
    impl Hooks for NoHooks {
        fn var(&mut self, _: VarId, ty: ScalarType) -> SVal {
            SVal::zero(ty)
        }
        fn builtin(&mut self, _: Builtin) -> SVal {
            SVal::int(Term::bv(32, 0), ScalarType::U32)
        }
        fn load(&mut self, _: MemRef, _: Vec<SVal>, ty: ScalarType, _: &Term, _: Span) -> SVal {
            SVal::zero(ty)
        }
        fn hazard(&mut self, _: Category, cond: Term, pc: &Term, _: Span, _: String) {
            self.0.push(pc.and(&cond));
        }
        fn fresh(&mut self, s: Sort) -> Term {
            crate::term::sym("f".into(), s, crate::term::SymKind::Load, 1)
        }
    }
    struct NoShared;
    impl Shared for NoShared {
        fn block_dim(&self, _: usize) -> Term {
            Term::bv(32, 256)
        }
        fn grid_dim(&self, _: usize) -> Term {
            Term::bv(32, 16)
        }
        fn param(&self, _: usize) -> SVal {
            SVal::Opaque
        }
        fn buffer_len(&self, _: usize) -> Term {
            Term::bv(64, 0)
        }
    }

    #[test]
    fn constant_overflow_is_a_hazard() {
        let e = Expr::binary(BinOp::Mul, Expr::i32(65520), Expr::i32(65520));
        let mut h = NoHooks(vec![]);
        eval(&mut h, &NoShared, &e, &Term::tt());
        assert_eq!(h.0.len(), 1);
        assert_eq!(h.0[0].as_bool(), Some(true));
    }

    #[test]
    fn short_circuit_guards_the_right_operand() {
        // false && (1 / 0 == 0): the division is never evaluated.
        let div = Expr::binary(BinOp::Div, Expr::i32(1), Expr::i32(0));
        let e = Expr::logical(
            LogicOp::And,
            Expr::bool(false),
            Expr::binary(BinOp::Eq, div, Expr::i32(0)),
        );
        let mut h = NoHooks(vec![]);
        eval(&mut h, &NoShared, &e, &Term::tt());
        assert!(h.0.iter().all(|c| c.as_bool() == Some(false)));
    }
}
