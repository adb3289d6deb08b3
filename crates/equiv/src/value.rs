//! The symbolic value domain: machine integers stay concrete bits, everything else is a term;
//! the thread-code ALU over that domain (integers wrap like CUDA, floats are reals).

use warpsafe_algebra::{rat_to_i128, wrap_int, Cmp, Func, Func2, IntOp, Node, Store, TermId};
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, UnaryOp};
use warpsafe_ir::{MathFn, ScalarType, Value};

/// A register or memory value of the symbolic executor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SVal {
    /// Concrete bits, as thread-code registers hold them (integers and bools).
    C(u64),
    /// A term (every float, and integers that depend on input data).
    T(TermId),
    /// The initial content of a global buffer element: its input symbol, created on first read.
    Input,
    /// Never written (shared and local memory).
    Uninit,
    /// Field mode ([`crate::field`]): a float's value at one random point of a prime field,
    /// computed as the kernel runs instead of a term, with bounds on the size of the
    /// polynomial it is the value of (degree, log₂ of its coefficients' height and of its
    /// denominator, rounded up, saturating).
    F {
        /// The value, in the field's Montgomery form.
        v: u64,
        /// Total degree.
        deg: u16,
        /// Height bits.
        h: u16,
        /// Denominator bits.
        d: u16,
    },
}

/// An arithmetic fault on concrete integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    Overflow,
    DivZero,
    /// An operation the real-number model has no meaning for (float `%`).
    Unsupported(&'static str),
}

fn int_of(ty: ScalarType, bits: u64) -> i128 {
    Value::from_bits(ty, bits).as_i128().unwrap_or(0)
}

fn bits_of(ty: ScalarType, v: i128) -> u64 {
    Value::from_i128(ty, v).to_bits()
}

fn width(ty: ScalarType) -> u8 {
    ty.bits() as u8
}

/// The term for `v` read as type `ty`.
pub(crate) fn term(store: &mut Store, ty: ScalarType, v: SVal) -> TermId {
    match v {
        SVal::T(t) => t,
        SVal::C(bits) => match Value::from_bits(ty, bits) {
            Value::F16(f) => store.float(f.to_f64()),
            Value::F32(f) => store.float(f as f64),
            Value::F64(f) => store.float(f),
            other => store.constant(num_rational::BigRational::from_integer(
                other.as_i128().unwrap_or(0).into(),
            )),
        },
        // A field value has no term (field mode never asks for one): an unknown.
        SVal::Input | SVal::Uninit | SVal::F { .. } => store.opaque(),
    }
}

/// `t` reduced to the range of integer type `ty`. Integer terms denote their value modulo
/// `2^bits` (`+ − ×` commute with wrapping), so every use that is not a ring operation
/// (comparison, min/max, widening, conversion to float) wraps first; otherwise two programs
/// that wrap at different widths would get the same term and be called equal.
fn wrapped(store: &mut Store, ty: ScalarType, t: TermId) -> TermId {
    if ty.is_float() || ty == ScalarType::Bool {
        return t;
    }
    let (bits, signed) = (width(ty), ty.is_signed());
    if let Node::Int(IntOp::Wrap, b, s, _, _) = *store.node(t) {
        // Already in a range that fits `ty`.
        if (s == signed && b <= bits) || (!s && signed && b < bits) {
            return t;
        }
    }
    store.int_op(IntOp::Wrap, bits, signed, t, t)
}

/// The input symbol `name[index]` of element type `ty`: for integers, wrapped into the
/// type's range, so that evaluation at random points only picks values the type can hold.
pub(crate) fn input_symbol(
    store: &mut Store,
    name: &str,
    index: Option<u64>,
    ty: ScalarType,
) -> TermId {
    let s = store.symbol(name, index, !ty.is_float());
    wrapped(store, ty, s)
}

/// Back to concrete bits when a term of an integer or bool type is a constant.
pub(crate) fn settle(store: &Store, ty: ScalarType, t: TermId) -> SVal {
    if ty.is_float() {
        return SVal::T(t);
    }
    match store.as_const(t).and_then(rat_to_i128) {
        Some(i) => SVal::C(bits_of(ty, wrap_int(i, width(ty), ty.is_signed()))),
        None => SVal::T(t),
    }
}

/// `a op b` as type `ty`.
pub(crate) fn binary(
    store: &mut Store,
    op: BinaryOp,
    ty: ScalarType,
    checked: bool,
    a: SVal,
    b: SVal,
) -> (SVal, Option<Fault>) {
    if let (SVal::C(x), SVal::C(y), false) = (a, b, ty.is_float()) {
        return concrete_binary(op, ty, checked, x, y);
    }
    let (x, y) = (term(store, ty, a), term(store, ty, b));
    let (bits, signed) = (width(ty), ty.is_signed());
    let t = match op {
        BinaryOp::Add => store.add(x, y),
        BinaryOp::Sub => store.sub(x, y),
        BinaryOp::Mul => store.mul(x, y),
        BinaryOp::Div if ty.is_float() => store.div(x, y),
        BinaryOp::Min | BinaryOp::Max => {
            let (x, y) = (wrapped(store, ty, x), wrapped(store, ty, y));
            if op == BinaryOp::Min {
                store.min(x, y)
            } else {
                store.max(x, y)
            }
        }
        BinaryOp::Rem if ty.is_float() => {
            return (
                SVal::T(store.opaque()),
                Some(Fault::Unsupported("floating-point remainder")),
            )
        }
        _ if ty.is_float() => x,
        BinaryOp::Div => store.int_op(IntOp::Div, bits, signed, x, y),
        BinaryOp::Rem => store.int_op(IntOp::Rem, bits, signed, x, y),
        BinaryOp::And => store.int_op(IntOp::And, bits, signed, x, y),
        BinaryOp::Or => store.int_op(IntOp::Or, bits, signed, x, y),
        BinaryOp::Xor => store.int_op(IntOp::Xor, bits, signed, x, y),
        BinaryOp::Shl => store.int_op(IntOp::Shl, bits, signed, x, y),
        BinaryOp::Shr => store.int_op(IntOp::Shr, bits, signed, x, y),
    };
    (settle(store, ty, t), None)
}

fn concrete_binary(
    op: BinaryOp,
    ty: ScalarType,
    checked: bool,
    x: u64,
    y: u64,
) -> (SVal, Option<Fault>) {
    if ty == ScalarType::Bool {
        let (x, y) = (x & 1, y & 1);
        let r = match op {
            BinaryOp::And | BinaryOp::Mul | BinaryOp::Min => x & y,
            BinaryOp::Or | BinaryOp::Max => x | y,
            BinaryOp::Xor | BinaryOp::Add | BinaryOp::Sub => x ^ y,
            _ => x,
        };
        return (SVal::C(r), None);
    }
    let signed = ty.is_signed();
    let bits = width(ty);
    if bits == 32 && matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul) {
        return add_sub_mul_32(op, signed, checked, x, y);
    }
    let (a, b) = (int_of(ty, x), int_of(ty, y));
    let mut fault = None;
    let exact: i128 = match op {
        BinaryOp::Add => a + b,
        BinaryOp::Sub => a - b,
        BinaryOp::Mul => {
            if signed {
                a * b
            } else {
                ((a as u128).wrapping_mul(b as u128) & u64::MAX as u128) as i128
            }
        }
        BinaryOp::Div | BinaryOp::Rem if b == 0 => return (SVal::C(0), Some(Fault::DivZero)),
        BinaryOp::Div => a / b,
        BinaryOp::Rem => a % b,
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::Shl => {
            let n = y & (u64::MAX >> (64 - bits as u32));
            if n >= bits as u64 {
                0
            } else {
                ((x << n) & mask(bits)) as i128
            }
        }
        BinaryOp::Shr => {
            let n = if signed { b } else { y as i128 };
            if n < 0 || n >= bits as i128 {
                if signed && a < 0 {
                    -1
                } else {
                    0
                }
            } else {
                a >> n
            }
        }
        BinaryOp::Min => a.min(b),
        BinaryOp::Max => a.max(b),
    };
    let wrapped = wrap_int(exact, bits, signed);
    if checked && signed && wrapped != exact {
        fault = Some(Fault::Overflow);
    }
    (SVal::C(bits_of(ty, wrapped)), fault)
}

/// `+ − ×` on 32-bit integers (most index arithmetic) without the general path's 128-bit
/// detour: the same bits and the same overflow fault.
fn add_sub_mul_32(
    op: BinaryOp,
    signed: bool,
    checked: bool,
    x: u64,
    y: u64,
) -> (SVal, Option<Fault>) {
    if !signed {
        let (a, b) = (x as u32, y as u32);
        let r = match op {
            BinaryOp::Add => a.wrapping_add(b),
            BinaryOp::Sub => a.wrapping_sub(b),
            _ => a.wrapping_mul(b),
        };
        return (SVal::C(r as u64), None);
    }
    let (a, b) = (x as u32 as i32 as i64, y as u32 as i32 as i64);
    let exact = match op {
        BinaryOp::Add => a + b,
        BinaryOp::Sub => a - b,
        _ => a * b,
    };
    let wrapped = exact as i32;
    let fault = (checked && wrapped as i64 != exact).then_some(Fault::Overflow);
    (SVal::C(wrapped as u32 as u64), fault)
}

fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// `op a` as type `ty`.
pub(crate) fn unary(
    store: &mut Store,
    op: UnaryOp,
    ty: ScalarType,
    checked: bool,
    a: SVal,
) -> (SVal, Option<Fault>) {
    if op == UnaryOp::Not || ty == ScalarType::Bool {
        return match a {
            SVal::C(x) => (
                SVal::C(if op == UnaryOp::Neg {
                    x & 1
                } else {
                    (x & 1) ^ 1
                }),
                None,
            ),
            _ => {
                let t = term(store, ScalarType::Bool, a);
                let r = if op == UnaryOp::Neg { t } else { store.not(t) };
                (settle(store, ScalarType::Bool, r), None)
            }
        };
    }
    match (op, a, ty.is_float()) {
        (UnaryOp::Neg, SVal::C(x), false) => {
            let v = -int_of(ty, x);
            let w = wrap_int(v, width(ty), ty.is_signed());
            let fault = (checked && ty.is_signed() && w != v).then_some(Fault::Overflow);
            (SVal::C(bits_of(ty, w)), fault)
        }
        (UnaryOp::BitNot, SVal::C(x), false) => (SVal::C(!x & mask(width(ty))), None),
        (UnaryOp::Neg, _, _) => {
            let t = term(store, ty, a);
            let r = store.neg(t);
            (settle(store, ty, r), None)
        }
        _ => {
            let t = term(store, ty, a);
            let m1 = store.int(-1);
            let r = store.int_op(IntOp::Xor, width(ty), ty.is_signed(), t, m1);
            (settle(store, ty, r), None)
        }
    }
}

/// `a op b` as a `bool`, comparing as type `ty`.
pub(crate) fn compare(store: &mut Store, op: CmpOp, ty: ScalarType, a: SVal, b: SVal) -> SVal {
    if let (SVal::C(x), SVal::C(y), false) = (a, b, ty.is_float()) {
        let (p, q) = if ty == ScalarType::Bool {
            ((x & 1) as i128, (y & 1) as i128)
        } else {
            (int_of(ty, x), int_of(ty, y))
        };
        let r = match op {
            CmpOp::Eq => p == q,
            CmpOp::Ne => p != q,
            CmpOp::Lt => p < q,
            CmpOp::Le => p <= q,
            CmpOp::Gt => p > q,
            CmpOp::Ge => p >= q,
        };
        return SVal::C(r as u64);
    }
    let (x, y) = (term(store, ty, a), term(store, ty, b));
    let (x, y) = (wrapped(store, ty, x), wrapped(store, ty, y));
    let t = match op {
        CmpOp::Eq => store.cmp(Cmp::Eq, x, y),
        CmpOp::Ne => store.cmp(Cmp::Ne, x, y),
        CmpOp::Lt => store.cmp(Cmp::Lt, x, y),
        CmpOp::Le => store.cmp(Cmp::Le, x, y),
        CmpOp::Gt => store.cmp(Cmp::Lt, y, x),
        CmpOp::Ge => store.cmp(Cmp::Le, y, x),
    };
    settle(store, ScalarType::Bool, t)
}

/// `(to) v` with C semantics on concrete values and real-number semantics on terms.
pub(crate) fn cast(store: &mut Store, from: ScalarType, to: ScalarType, v: SVal) -> SVal {
    if from == to {
        return v;
    }
    match v {
        SVal::C(bits) if !from.is_float() && !to.is_float() => {
            SVal::C(Value::from_bits(from, bits).cast(to).to_bits())
        }
        _ => {
            let t = term(store, from, v);
            let t = wrapped(store, from, t);
            if to.is_float() {
                return SVal::T(t);
            }
            if to == ScalarType::Bool {
                let z = store.int(0);
                let r = store.cmp(Cmp::Ne, t, z);
                return settle(store, to, r);
            }
            if from.is_float() {
                if let Some(q) = store.as_const(t) {
                    let f = warpsafe_algebra::rat_to_f64(q);
                    return SVal::C(Value::F64(f).cast(to).to_bits());
                }
                let r = store.func(Func::Trunc, t);
                return settle(store, to, r);
            }
            // `t` is already in `from`'s range: only narrowing, or widening a signed value
            // into an unsigned type, changes it.
            let r = if to.bits() <= from.bits() || (from.is_signed() && !to.is_signed()) {
                wrapped(store, to, t)
            } else {
                t
            };
            settle(store, to, r)
        }
    }
}

/// `c ? a : b`.
pub(crate) fn select(store: &mut Store, ty: ScalarType, c: SVal, a: SVal, b: SVal) -> SVal {
    match c {
        SVal::C(x) => {
            if x & 1 != 0 {
                a
            } else {
                b
            }
        }
        _ => {
            let ct = term(store, ScalarType::Bool, c);
            let (x, y) = (term(store, ty, a), term(store, ty, b));
            let r = select_term(store, ct, x, y);
            settle(store, ty, r)
        }
    }
}

/// `c ? a : b`, as `max`/`min` when it is one (`x < y ? y : x` is `max(x, y)` over the reals),
/// so that a data-dependent maximum meets the algebra's rules for `max`. Selects nested on the
/// same condition collapse: `c ? (c ? x : y) : z` is `c ? x : z`.
fn select_term(store: &mut Store, c: TermId, a: TermId, b: TermId) -> TermId {
    let (c, a, b) = match *store.node(c) {
        Node::Not(inner) => (inner, b, a),
        _ => (c, a, b),
    };
    let a = branch_of(store, a, c, true);
    let b = branch_of(store, b, c, false);
    if let Node::Cmp(Cmp::Lt | Cmp::Le, x, y) = *store.node(c) {
        if (a, b) == (y, x) {
            return store.max(x, y);
        }
        if (a, b) == (x, y) {
            return store.min(x, y);
        }
    }
    if let Some(t) = guarded_update(store, c, a, b) {
        return t;
    }
    oriented_select(store, c, a, b)
}

/// `c ? a : b` with `c` canonical ([`crate::cond`]) and oriented: of `c` and its canonical
/// negation (with the sides swapped), the one whose shape hashes lower, so that `x < 16 ? p : q`
/// and `x >= 16 ? q : p` are one term.
fn oriented_select(store: &mut Store, c: TermId, a: TermId, b: TermId) -> TermId {
    if !matches!(
        store.node(c),
        Node::Cmp(..) | Node::And(..) | Node::Or(..) | Node::Select(..)
    ) {
        return store.select(c, a, b);
    }
    let c = crate::cond::canonical(store, c);
    if crate::cond::has_rewritten_negation(store, c) {
        let n = crate::cond::negation(store, c);
        if crate::cond::shape(store, n) < crate::cond::shape(store, c) {
            return store.select(n, b, a);
        }
    }
    store.select(c, a, b)
}

/// `c ? s + p : s` as `s + (c ? p : 0)` (and `c ? s − p : s` as `s − (c ? p : 0)`, and the
/// mirrored forms): a sum that a guarded loop body adds to (`if (ok) s += v[j]`) is then a sum
/// of guarded terms, whatever the order of the additions, the same polynomial as the sum a
/// reordered loop or a reduction tree builds. An identity over the reals and modulo `2^n`.
fn guarded_update(store: &mut Store, c: TermId, a: TermId, b: TermId) -> Option<TermId> {
    let zero = store.int(0);
    // The part added to `base` to make `t`, and whether it is subtracted.
    let part = |store: &Store, t: TermId, base: TermId| match *store.node(t) {
        Node::Add(x, y) if x == base => Some((y, false)),
        Node::Add(x, y) if y == base => Some((x, false)),
        Node::Sub(x, y) if x == base => Some((y, true)),
        _ => None,
    };
    if let Some((p, neg)) = part(store, a, b) {
        let g = oriented_select(store, c, p, zero);
        return Some(if neg {
            store.sub(b, g)
        } else {
            store.add(b, g)
        });
    }
    if let Some((p, neg)) = part(store, b, a) {
        let g = oriented_select(store, c, zero, p);
        return Some(if neg {
            store.sub(a, g)
        } else {
            store.add(a, g)
        });
    }
    None
}

/// The value of `t` where condition `c` is `holds`: the matching side of a select on `c` or
/// on its negation (`!c`, or the canonical one of [`crate::cond`]), else `t` itself.
fn branch_of(store: &mut Store, t: TermId, c: TermId, holds: bool) -> TermId {
    let Node::Select(d, x, y) = *store.node(t) else {
        return t;
    };
    let (d, x, y) = match *store.node(d) {
        Node::Not(inner) => (inner, y, x),
        _ => (d, x, y),
    };
    let same = if d == c {
        true
    } else if crate::cond::has_rewritten_negation(store, c) && crate::cond::negation(store, c) == d
    {
        false
    } else {
        return t;
    };
    if same == holds {
        x
    } else {
        y
    }
}

/// `x` when `t` is `x · log2e` with `log2e` the float nearest `log₂ e`: `2^(x·log2e)` is how
/// `__expf` (and `expf` under fast math) computes `e^x`, read as `e^x` over the reals like every
/// other float constant.
fn log2e_multiple(store: &Store, t: TermId) -> Option<TermId> {
    let Node::Mul(a, b) = *store.node(t) else {
        return None;
    };
    let log2e = num_rational::BigRational::from_float(std::f32::consts::LOG2_E)?;
    [(a, b), (b, a)]
        .into_iter()
        .find(|&(c, _)| store.as_const(c) == Some(&log2e))
        .map(|(_, x)| x)
}

/// The bits of `x` read as a `ty` of the same width ([`MathFn::Bits`]). Exact on concrete
/// bits (integers); the bits of a real number have no meaning, so anything else is an opaque
/// value and an `Unsupported` fault (never a wrong `equal`).
pub(crate) fn bits_as(store: &mut Store, ty: ScalarType, x: SVal) -> (SVal, Option<Fault>) {
    match x {
        SVal::C(bits) if ty.is_float() => (SVal::T(term(store, ty, SVal::C(bits))), None),
        SVal::C(bits) => (SVal::C(Value::from_bits(ty, bits).to_bits()), None),
        _ => (
            SVal::T(store.opaque()),
            Some(Fault::Unsupported("a bit reinterpretation")),
        ),
    }
}

/// A math intrinsic on type `ty` (`Bits` goes through [`bits_as`]).
pub(crate) fn math(store: &mut Store, f: MathFn, ty: ScalarType, args: [SVal; 3]) -> SVal {
    if f == MathFn::Bits {
        return bits_as(store, ty, args[0]).0;
    }
    if !ty.is_float() {
        // Integer `abs` is the only integer intrinsic.
        return match args[0] {
            SVal::C(x) => {
                let v = int_of(ty, x).abs();
                SVal::C(bits_of(ty, wrap_int(v, width(ty), ty.is_signed())))
            }
            other => {
                let t = term(store, ty, other);
                let r = store.func(Func::Abs, t);
                settle(store, ty, r)
            }
        };
    }
    let [a, b, c] = args.map(|v| term(store, ty, v));
    let t = match f {
        MathFn::Abs => store.func(Func::Abs, a),
        MathFn::Exp | MathFn::FastExp => store.func(Func::Exp, a),
        MathFn::Exp2 => match log2e_multiple(store, a) {
            Some(x) => store.func(Func::Exp, x),
            None => store.func(Func::Exp2, a),
        },
        MathFn::Log => store.func(Func::Log, a),
        MathFn::Log2 => store.func(Func::Log2, a),
        MathFn::Log10 => store.func(Func::Log10, a),
        MathFn::Sqrt => store.func(Func::Sqrt, a),
        MathFn::Rsqrt => {
            let s = store.func(Func::Sqrt, a);
            let one = store.int(1);
            store.div(one, s)
        }
        MathFn::Pow => store.pow(a, b),
        MathFn::Fma => {
            let p = store.mul(a, b);
            store.add(p, c)
        }
        MathFn::Sin => store.func(Func::Sin, a),
        MathFn::Cos => store.func(Func::Cos, a),
        MathFn::Tan => store.func(Func::Tan, a),
        MathFn::Tanh => {
            // tanh x = (e^{2x} − 1) / (e^{2x} + 1) for every real x: a kernel calling tanhf
            // and one spelling it with expf (GELU's two forms) meet in one normal form.
            let two = store.int(2);
            let x2 = store.mul(two, a);
            let e = store.func(Func::Exp, x2);
            let one = store.int(1);
            let (num, den) = (store.sub(e, one), store.add(e, one));
            store.div(num, den)
        }
        MathFn::Floor => store.func(Func::Floor, a),
        MathFn::Ceil => store.func(Func::Ceil, a),
        MathFn::Round => store.func(Func::Round, a),
        MathFn::Trunc => store.func(Func::Trunc, a),
        MathFn::Sinh | MathFn::Cosh => {
            // (e^x ∓ e^{−x}) / 2 for every real x, so that they meet their spellings in `expf`.
            let e = store.func(Func::Exp, a);
            let na = store.neg(a);
            let en = store.func(Func::Exp, na);
            let s = if f == MathFn::Sinh {
                store.sub(e, en)
            } else {
                store.add(e, en)
            };
            let two = store.int(2);
            store.div(s, two)
        }
        MathFn::Expm1 => {
            let e = store.func(Func::Exp, a);
            let one = store.int(1);
            store.sub(e, one)
        }
        MathFn::Log1p => {
            let one = store.int(1);
            let s = store.add(one, a);
            store.func(Func::Log, s)
        }
        MathFn::Exp10 => {
            let ten = store.int(10);
            store.pow(ten, a)
        }
        MathFn::Hypot => {
            let (aa, bb) = (store.mul(a, a), store.mul(b, b));
            let s = store.add(aa, bb);
            store.func(Func::Sqrt, s)
        }
        MathFn::Fdim => {
            let d = store.sub(a, b);
            let zero = store.int(0);
            store.max(d, zero)
        }
        MathFn::Ldexp => {
            let two = store.int(2);
            let p = store.pow(two, b);
            store.mul(a, p)
        }
        MathFn::Atan2 => store.func2(Func2::Atan2, a, b),
        MathFn::Fmod => store.func2(Func2::Fmod, a, b),
        MathFn::Remainder => store.func2(Func2::Remainder, a, b),
        MathFn::Copysign => store.func2(Func2::Copysign, a, b),
        // Uninterpreted: equal arguments give equal terms, nothing more.
        MathFn::Atan => store.func(Func::Atan, a),
        MathFn::Asin => store.func(Func::Asin, a),
        MathFn::Acos => store.func(Func::Acos, a),
        MathFn::Asinh => store.func(Func::Asinh, a),
        MathFn::Acosh => store.func(Func::Acosh, a),
        MathFn::Atanh => store.func(Func::Atanh, a),
        MathFn::Cbrt => store.func(Func::Cbrt, a),
        MathFn::Rint => store.func(Func::Rint, a),
        MathFn::Erf => store.func(Func::Erf, a),
        MathFn::Erfc => store.func(Func::Erfc, a),
        MathFn::Lgamma => store.func(Func::Lgamma, a),
        MathFn::Tgamma => store.func(Func::Tgamma, a),
        MathFn::SinPi => store.func(Func::SinPi, a),
        MathFn::CosPi => store.func(Func::CosPi, a),
        // Returned above; an opaque value would be its meaning here too.
        MathFn::Bits => store.opaque(),
    };
    SVal::T(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_fold_on_constants_and_are_unsupported_on_reals() {
        let mut s = Store::new();
        // 0x3fc00000 is 1.5f; 0xffffffff read as an i32 is -1 (as bits).
        let (v, f) = bits_as(&mut s, ScalarType::F32, SVal::C(0x3fc0_0000));
        let want = s.float(1.5);
        assert_eq!((v, f), (SVal::T(want), None));
        let (v, f) = bits_as(&mut s, ScalarType::I32, SVal::C(0xffff_ffff));
        assert_eq!((v, f), (SVal::C(0xffff_ffff), None));
        let x = s.symbol("x", None, false);
        let (v, f) = bits_as(&mut s, ScalarType::U32, SVal::T(x));
        assert_ne!(v, SVal::T(x));
        assert_eq!(f, Some(Fault::Unsupported("a bit reinterpretation")));
    }

    #[test]
    fn the_32_bit_fast_path_matches_the_general_one() {
        let samples = [
            0u64,
            1,
            2,
            7,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            0x1234_5678,
            65535,
        ];
        for ty in [ScalarType::I32, ScalarType::U32] {
            for op in [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul] {
                for &x in &samples {
                    for &y in &samples {
                        let fast = add_sub_mul_32(op, ty.is_signed(), true, x, y);
                        let (a, b) = (int_of(ty, x), int_of(ty, y));
                        let exact = match op {
                            BinaryOp::Add => a + b,
                            BinaryOp::Sub => a - b,
                            _ => a * b,
                        };
                        let w = wrap_int(exact, 32, ty.is_signed());
                        let fault = (ty.is_signed() && w != exact).then_some(Fault::Overflow);
                        assert_eq!(
                            fast,
                            (SVal::C(bits_of(ty, w)), fault),
                            "{ty:?} {op:?} {x} {y}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_guarded_maximum_is_max() {
        let mut s = Store::new();
        let (x, y) = (s.symbol("x", None, false), s.symbol("y", None, false));
        let lt = s.cmp(Cmp::Lt, x, y);
        assert_eq!(select_term(&mut s, lt, y, x), s.max(x, y));
        assert_eq!(select_term(&mut s, lt, x, y), s.min(x, y));
        let ge = s.not(lt);
        assert_eq!(select_term(&mut s, ge, x, y), s.max(x, y));
        let z = s.symbol("z", None, false);
        let plain = select_term(&mut s, lt, z, x);
        assert!(matches!(s.node(plain), Node::Select(..)));
        // `lt ? z : (lt ? y : x)` is `lt ? z : x`; `!lt ? y : (lt ? z : x)` is `lt ? z : y`.
        let inner = s.select(lt, y, x);
        let outer = select_term(&mut s, lt, z, inner);
        assert_eq!(outer, s.select(lt, z, x));
        let not_lt = s.not(lt);
        let flipped = select_term(&mut s, not_lt, y, plain);
        assert_eq!(flipped, s.select(lt, z, y));
    }
}
