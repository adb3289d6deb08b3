//! Constant folding of integer and `bool` expressions, exactly as the thread-code
//! interpreter computes them.
//!
//! An operation folds only when it cannot report anything at run time: a signed overflow
//! (reported by checked operations), a division by zero or a signed `MIN / -1` stay in the
//! code, as do shifts by the type's width or more. Floats are never folded (their rounding
//! belongs to the engines), and a cast folds only between integer and `bool` types.

use super::visit::rewrite_expr;
use crate::{BinOp, Expr, ExprKind, LogicOp, ScalarType, UnOp, Value};

/// Folds `e` bottom-up in place.
pub(crate) fn fold(e: &mut Expr) {
    rewrite_expr(e, &mut fold_node);
}

/// Folds one node whose operands are already folded.
fn fold_node(e: &mut Expr) {
    let ty = e.ty;
    let span = e.span;
    let replacement = match &mut e.kind {
        ExprKind::Unary(op, a) => a
            .as_const()
            .and_then(|v| unary(*op, v, ty))
            .filter(|v| v.ty() == ty)
            .map(konst),
        ExprKind::Binary(op, a, b) => match (a.as_const(), b.as_const()) {
            (Some(x), Some(y)) if x.ty() == y.ty() => {
                binary(*op, x, y).filter(|v| v.ty() == ty).map(konst)
            }
            (_, Some(y)) if identity_right(*op, y) && a.ty == ty => Some(take(a)),
            (Some(x), _) if identity_left(*op, x) && b.ty == ty => Some(take(b)),
            _ => None,
        },
        ExprKind::Logical(op, a, b) => match a.as_const() {
            Some(Value::Bool(x)) if b.ty == ScalarType::Bool => match (op, x) {
                (LogicOp::And, false) | (LogicOp::Or, true) => Some(konst(Value::Bool(x))),
                (LogicOp::And, true) | (LogicOp::Or, false) => Some(take(b)),
            },
            _ => None,
        },
        ExprKind::Cast(a) => a
            .as_const()
            .filter(|v| is_intlike(v.ty()) && is_intlike(ty))
            .map(|v| konst(v.cast(ty))),
        ExprKind::Select(c, a, b) => match c.as_const() {
            Some(Value::Bool(true)) if a.ty == ty => Some(take(a)),
            Some(Value::Bool(false)) if b.ty == ty => Some(take(b)),
            _ => None,
        },
        _ => None,
    };
    if let Some(r) = replacement {
        *e = r.with_span(span);
    }
}

fn konst(v: Value) -> Expr {
    Expr::constant(v)
}

fn take(e: &mut Expr) -> Expr {
    std::mem::replace(e, Expr::bool(false))
}

fn is_intlike(t: ScalarType) -> bool {
    t.is_int() || t == ScalarType::Bool
}

/// `x op c == x` for every integer `x` (and evaluating `x` alone reports what `x op c` would).
fn identity_right(op: BinOp, c: Value) -> bool {
    c.ty().is_int()
        && match op {
            BinOp::Add | BinOp::Sub => c.as_i128() == Some(0),
            BinOp::Mul => c.as_i128() == Some(1),
            _ => false,
        }
}

/// `c op x == x` for every integer `x`.
fn identity_left(op: BinOp, c: Value) -> bool {
    c.ty().is_int()
        && match op {
            BinOp::Add => c.as_i128() == Some(0),
            BinOp::Mul => c.as_i128() == Some(1),
            _ => false,
        }
}

/// `op v` when it is exact and reports nothing.
pub(crate) fn unary(op: UnOp, v: Value, ty: ScalarType) -> Option<Value> {
    if v.ty() != ty {
        return None;
    }
    match (op, v) {
        (UnOp::Not, Value::Bool(b)) => Some(Value::Bool(!b)),
        (UnOp::BitNot, _) if ty.is_int() => Some(Value::from_bits(ty, !v.to_bits())),
        (UnOp::Neg, _) if ty.is_int() => in_range(ty, -v.as_i128()?),
        _ => None,
    }
}

/// `a op b` (operands of one type) when it is exact and reports nothing.
pub(crate) fn binary(op: BinOp, a: Value, b: Value) -> Option<Value> {
    let ty = a.ty();
    if ty == ScalarType::Bool {
        let (x, y) = (a.to_bits() != 0, b.to_bits() != 0);
        return Some(Value::Bool(match op {
            BinOp::BitAnd => x & y,
            BinOp::BitOr => x | y,
            BinOp::BitXor => x ^ y,
            BinOp::Eq => x == y,
            BinOp::Ne => x != y,
            _ => return None,
        }));
    }
    if !ty.is_int() {
        return None;
    }
    let (x, y) = (a.as_i128()?, b.as_i128()?);
    let bits = |r: u64| Some(Value::from_bits(ty, r));
    match op {
        BinOp::Add => in_range(ty, x.checked_add(y)?),
        BinOp::Sub => in_range(ty, x.checked_sub(y)?),
        BinOp::Mul => in_range(ty, x.checked_mul(y)?),
        BinOp::Div if y != 0 => in_range(ty, x.checked_div(y)?),
        BinOp::Rem if y != 0 => in_range(ty, x.checked_rem(y)?),
        BinOp::Div | BinOp::Rem => None,
        BinOp::BitAnd => bits(a.to_bits() & b.to_bits()),
        BinOp::BitOr => bits(a.to_bits() | b.to_bits()),
        BinOp::BitXor => bits(a.to_bits() ^ b.to_bits()),
        BinOp::Shl | BinOp::Shr => {
            let n = b.to_bits();
            if n >= u64::from(ty.bits()) {
                return None;
            }
            if op == BinOp::Shl {
                bits(a.to_bits() << n)
            } else {
                Some(Value::from_i128(ty, x >> n))
            }
        }
        BinOp::Min => Some(Value::from_i128(ty, x.min(y))),
        BinOp::Max => Some(Value::from_i128(ty, x.max(y))),
        BinOp::Eq => Some(Value::Bool(x == y)),
        BinOp::Ne => Some(Value::Bool(x != y)),
        BinOp::Lt => Some(Value::Bool(x < y)),
        BinOp::Le => Some(Value::Bool(x <= y)),
        BinOp::Gt => Some(Value::Bool(x > y)),
        BinOp::Ge => Some(Value::Bool(x >= y)),
    }
}

/// `r` as a value of `ty`: wrapped for unsigned types (as the interpreter does), `None` for
/// a signed result out of range (an overflow the interpreter reports).
fn in_range(ty: ScalarType, r: i128) -> Option<Value> {
    let (lo, hi) = ty.int_range()?;
    if ty.is_signed() && !(lo..=hi).contains(&r) {
        return None;
    }
    Some(Value::from_i128(ty, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folded(mut e: Expr) -> Option<Value> {
        fold(&mut e);
        e.as_const()
    }

    #[test]
    fn folds_exact_integer_arithmetic() {
        let e = Expr::binary(
            BinOp::Add,
            Expr::binary(BinOp::Mul, Expr::i32(3), Expr::i32(4)),
            Expr::i32(-2),
        );
        assert_eq!(folded(e), Some(Value::I32(10)));
        let wrap = Expr::binary(BinOp::Sub, Expr::u32(0), Expr::u32(1));
        assert_eq!(folded(wrap), Some(Value::U32(u32::MAX)));
        let rem = Expr::binary(BinOp::Rem, Expr::i32(-7), Expr::i32(2));
        assert_eq!(folded(rem), Some(Value::I32(-1)));
        let shr = Expr::binary(BinOp::Shr, Expr::i32(-8), Expr::i32(1));
        assert_eq!(folded(shr), Some(Value::I32(-4)));
        let cast = Expr::i32(-1).cast(ScalarType::U64);
        assert_eq!(folded(cast), Some(Value::U64(u64::MAX)));
    }

    #[test]
    fn keeps_what_the_interpreter_reports() {
        let ovf = Expr::binary(BinOp::Add, Expr::i32(i32::MAX), Expr::i32(1));
        assert_eq!(folded(ovf), None);
        let dz = Expr::binary(BinOp::Div, Expr::i32(1), Expr::i32(0));
        assert_eq!(folded(dz), None);
        let min = Expr::binary(BinOp::Div, Expr::i32(i32::MIN), Expr::i32(-1));
        assert_eq!(folded(min), None);
        let neg = Expr::unary(UnOp::Neg, Expr::i32(i32::MIN));
        assert_eq!(folded(neg), None);
        let wide = Expr::binary(BinOp::Shl, Expr::u32(1), Expr::u32(32));
        assert_eq!(folded(wide), None);
        let float = Expr::binary(BinOp::Add, Expr::f32(0.1), Expr::f32(0.2));
        assert_eq!(folded(float), None);
    }

    #[test]
    fn short_circuit_and_select_fold_on_a_constant_condition() {
        let x = Expr::var(crate::VarId(0), ScalarType::I32);
        let pick = Expr::select(Expr::bool(false), Expr::i32(1), x.clone());
        let mut e = pick;
        fold(&mut e);
        assert_eq!(e.kind, x.kind);
        let and = Expr::logical(
            LogicOp::And,
            Expr::bool(false),
            Expr::binary(BinOp::Lt, x, Expr::i32(3)),
        );
        assert_eq!(folded(and), Some(Value::Bool(false)));
    }
}
