//! Byte offsets as element indices.
//!
//! Thread code addresses memory by byte offset; IR by element index. When the offset is
//! built from multiples of the element size (`base + sext(i) * 4`, `i << 3`) the index is
//! the same expression with each multiple divided, exactly; the division never wraps where
//! the byte offset did not. Otherwise the caller divides and asserts alignment.

use warpsafe_ir::{BinOp, Expr, ExprKind, Value};

/// `e / k` when `e` is structurally a multiple of `k` (`k > 0`); `leaf` gives the quotient
/// of a variable known to hold a multiple.
pub(crate) fn divide_exact(
    e: &Expr,
    k: i128,
    leaf: &dyn Fn(&Expr) -> Option<Expr>,
) -> Option<Expr> {
    if k == 1 {
        return Some(e.clone());
    }
    match &e.kind {
        ExprKind::Var(_) => leaf(e),
        ExprKind::Const(v) => {
            let x = v.as_i128()?;
            (x % k == 0).then(|| Expr::constant(Value::from_i128(e.ty, x / k)))
        }
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let (a, b) = (divide_exact(a, k, leaf)?, divide_exact(b, k, leaf)?);
            Some(binary(*op, a, b))
        }
        ExprKind::Binary(BinOp::Mul, a, b) => {
            if let Some(c) = const_of(b).filter(|c| c % k == 0) {
                return Some(scale(a, c / k));
            }
            if let Some(c) = const_of(a).filter(|c| c % k == 0) {
                return Some(scale(b, c / k));
            }
            match (divide_exact(a, k, leaf), divide_exact(b, k, leaf)) {
                (Some(qa), _) => Some(binary(BinOp::Mul, qa, (**b).clone())),
                (_, Some(qb)) => Some(binary(BinOp::Mul, (**a).clone(), qb)),
                _ => None,
            }
        }
        ExprKind::Binary(BinOp::Shl, a, b) => {
            if let Some(qa) = divide_exact(a, k, leaf) {
                return Some(binary(BinOp::Shl, qa, (**b).clone()));
            }
            let s = const_of(b).filter(|s| (0..62).contains(s))?;
            let c = 1i128 << s;
            (c % k == 0).then(|| scale(a, c / k))
        }
        // A conversion between integer types keeps a multiple a multiple of the same value
        // modulo the narrower width; where the narrow computation wrapped, the index is out
        // of bounds in the source's terms too.
        ExprKind::Cast(inner)
            if inner.ty.is_int() && e.ty.is_int() && inner.ty.bits() <= e.ty.bits() =>
        {
            let d = divide_exact(inner, k, leaf)?;
            Some(Expr::new(ExprKind::Cast(Box::new(d)), e.ty))
        }
        _ => None,
    }
}

/// `a op b`, folding additions of zero.
pub(crate) fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
    match op {
        BinOp::Add if const_of(&a) == Some(0) => return b,
        BinOp::Add | BinOp::Sub if const_of(&b) == Some(0) => return a,
        _ => {}
    }
    let ty = a.ty;
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
}

/// `a * c`, or `a` when `c` is 1.
fn scale(a: &Expr, c: i128) -> Expr {
    if c == 1 {
        return a.clone();
    }
    let k = Expr::constant(Value::from_i128(a.ty, c));
    binary(BinOp::Mul, a.clone(), k)
}

/// The value of an integer constant expression.
pub(crate) fn const_of(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::Const(v) if e.ty.is_int() => v.as_i128(),
        _ => None,
    }
}
