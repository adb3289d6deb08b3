//! C's implicit conversions, made explicit as IR casts: integer promotion, the usual
//! arithmetic conversions, and conversion to `bool` for conditions.

use warpsafe_ir::{BinOp, Expr, ScalarType, Value};

/// Integer promotion: `bool`, `char`, `short` and their unsigned forms become `int` (every
/// value of them fits); every other type is unchanged. `__half` stays half: cuda_fp16.h's
/// operators compute in half precision.
pub fn promote(t: ScalarType) -> ScalarType {
    if t == ScalarType::Bool || t.is_small_int() {
        ScalarType::I32
    } else {
        t
    }
}

fn rank(t: ScalarType) -> u8 {
    match t {
        ScalarType::I64 | ScalarType::U64 => 2,
        _ => 1,
    }
}

fn to_unsigned(t: ScalarType) -> ScalarType {
    match t {
        ScalarType::I32 => ScalarType::U32,
        ScalarType::I64 => ScalarType::U64,
        t => t,
    }
}

/// The usual arithmetic conversions: the common type of a binary operator's operands
/// (`int`+`unsigned` → `unsigned`, `int`*`long long` → `long long`, `float`*`double` → `double`,
/// `char`+`char` → `int`). Half with half or with an integer stays half (cuda_fp16.h's
/// operators); half with `float` or `double` widens to it.
pub fn common(a: ScalarType, b: ScalarType) -> ScalarType {
    use ScalarType::*;
    if a == F64 || b == F64 {
        return F64;
    }
    if a == F32 || b == F32 {
        return F32;
    }
    if a == F16 || b == F16 {
        return F16;
    }
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if rank(a) >= rank(b) { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if rank(u) >= rank(s) {
        u
    } else if s.bits() > u.bits() {
        s
    } else {
        to_unsigned(s)
    }
}

/// Converts to `ty` (a no-op when the type already matches); constants are folded.
pub fn convert(e: Expr, ty: ScalarType) -> Expr {
    if e.ty == ty {
        return e;
    }
    match e.as_const() {
        Some(v) => {
            let folded = match v.as_i128() {
                Some(i) if v.ty() != ScalarType::Bool || ty.is_int() => Value::from_i128(ty, i),
                _ => Value::from_f64(ty, v.as_f64()),
            };
            Expr::constant(folded).with_span(e.span)
        }
        None => e.cast(ty),
    }
}

/// Applies integer promotion to an expression.
pub fn promoted(e: Expr) -> Expr {
    let t = promote(e.ty);
    convert(e, t)
}

/// C's conversion of a scalar to a truth value: `e != 0` (unchanged for `bool`).
pub fn to_bool(e: Expr) -> Expr {
    if e.ty == ScalarType::Bool {
        return e;
    }
    let span = e.span;
    if let Some(v) = e.as_const() {
        return Expr::bool(v.as_f64() != 0.0).with_span(span);
    }
    let zero = Expr::constant(Value::zero(e.ty)).with_span(span);
    Expr::binary(BinOp::Ne, e, zero).with_span(span)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarType::*;

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(common(I32, U32), U32);
        assert_eq!(common(I32, I64), I64);
        assert_eq!(common(U32, I64), I64);
        assert_eq!(common(U64, I64), U64);
        assert_eq!(common(I64, U32), I64);
        assert_eq!(common(F32, F64), F64);
        assert_eq!(common(I32, F32), F32);
        assert_eq!(common(Bool, Bool), I32);
        assert_eq!(common(Bool, U32), U32);
        assert_eq!(promote(Bool), I32);
        assert_eq!(common(U8, U8), I32);
        assert_eq!(common(I8, U16), I32);
        assert_eq!(common(U16, U32), U32);
        assert_eq!(common(I16, I64), I64);
        assert_eq!(common(F16, F16), F16);
        assert_eq!(common(F16, I32), F16);
        assert_eq!(common(F16, F32), F32);
        assert_eq!(promote(U16), I32);
        assert_eq!(promote(F16), F16);
    }

    #[test]
    fn conversions_fold_constants_and_cast_the_rest() {
        assert_eq!(
            convert(Expr::i32(-1), U32).as_const(),
            Some(Value::U32(u32::MAX))
        );
        assert_eq!(convert(Expr::i32(3), F32).as_const(), Some(Value::F32(3.0)));
        assert_eq!(convert(Expr::f32(2.5), I32).as_const(), Some(Value::I32(2)));
        let v = Expr::var(warpsafe_ir::VarId(0), I32);
        assert!(matches!(
            convert(v.clone(), I64).kind,
            warpsafe_ir::ExprKind::Cast(_)
        ));
        assert_eq!(to_bool(v).ty, Bool);
    }
}
