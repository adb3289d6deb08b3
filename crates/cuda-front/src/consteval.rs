//! Constant evaluation of syntax trees: array extents, `#if` conditions, header values.

use crate::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use warpsafe_ir::{ScalarType, Value};

/// A compile-time number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer (held exactly; C wrapping is applied only by casts).
    Int(i128),
    /// A floating-point value.
    Float(f64),
}

impl Num {
    /// C truthiness.
    pub fn truthy(self) -> bool {
        match self {
            Num::Int(v) => v != 0,
            Num::Float(v) => v != 0.0,
        }
    }

    /// Converts to a value of type `ty` as a C conversion would.
    pub fn to_value(self, ty: ScalarType) -> Value {
        match self {
            Num::Int(v) => Value::from_i128(ty, v),
            Num::Float(v) => Value::from_f64(ty, v),
        }
    }

    /// The number held by a constant value.
    pub fn from_value(v: Value) -> Num {
        match v.as_i128() {
            Some(i) => Num::Int(i),
            None => Num::Float(v.as_f64()),
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            Num::Int(v) => v as f64,
            Num::Float(v) => v,
        }
    }
}

const LIMIT: i128 = 1 << 100;

fn checked(v: Option<i128>) -> Option<Num> {
    v.filter(|v| v.abs() < LIMIT).map(Num::Int)
}

/// Evaluates `e` if it is a constant expression; identifiers are looked up with `lookup`.
pub fn eval(e: &Expr, lookup: &dyn Fn(&str) -> Option<Num>) -> Option<Num> {
    match &e.kind {
        ExprKind::Int(v, _) => Some(Num::Int(*v as i128)),
        ExprKind::Float(v, _) => Some(Num::Float(*v)),
        ExprKind::Bool(b) => Some(Num::Int(*b as i128)),
        ExprKind::Ident(n) => lookup(n),
        ExprKind::SizeOf(t) => match (t.ptr, t.base) {
            (true, _) => Some(Num::Int(8)),
            (false, Some(s)) => Some(Num::Int(s.size_bytes() as i128)),
            (false, None) => None,
        },
        ExprKind::Cast(t, a) => {
            let v = eval(a, lookup)?;
            match (t.ptr, t.base) {
                (false, Some(ty)) => Some(Num::from_value(v.to_value(ty))),
                _ => None,
            }
        }
        ExprKind::Unary(op, a) => {
            let v = eval(a, lookup)?;
            match (op, v) {
                (UnaryOp::Plus, v) => Some(v),
                (UnaryOp::Neg, Num::Int(i)) => Some(Num::Int(-i)),
                (UnaryOp::Neg, Num::Float(f)) => Some(Num::Float(-f)),
                (UnaryOp::Not, v) => Some(Num::Int(!v.truthy() as i128)),
                (UnaryOp::BitNot, Num::Int(i)) => Some(Num::Int(!i)),
                _ => None,
            }
        }
        ExprKind::Cond(c, a, b) => {
            if eval(c, lookup)?.truthy() {
                eval(a, lookup)
            } else {
                eval(b, lookup)
            }
        }
        ExprKind::Binary(op, a, b) => binary(*op, eval(a, lookup)?, eval(b, lookup)?),
        _ => None,
    }
}

fn binary(op: BinaryOp, a: Num, b: Num) -> Option<Num> {
    use BinaryOp::*;
    let bool_ = |v: bool| Some(Num::Int(v as i128));
    match (op, a, b) {
        (And, a, b) => bool_(a.truthy() && b.truthy()),
        (Or, a, b) => bool_(a.truthy() || b.truthy()),
        (_, Num::Int(x), Num::Int(y)) => match op {
            Add => checked(x.checked_add(y)),
            Sub => checked(x.checked_sub(y)),
            Mul => checked(x.checked_mul(y)),
            Div => checked(x.checked_div(y)),
            Rem => checked(x.checked_rem(y)),
            Shl => checked(
                u32::try_from(y)
                    .ok()
                    .filter(|s| *s < 64)
                    .and_then(|s| x.checked_shl(s)),
            ),
            Shr => checked(
                u32::try_from(y)
                    .ok()
                    .filter(|s| *s < 64)
                    .and_then(|s| x.checked_shr(s)),
            ),
            BitAnd => Some(Num::Int(x & y)),
            BitOr => Some(Num::Int(x | y)),
            BitXor => Some(Num::Int(x ^ y)),
            Lt => bool_(x < y),
            Le => bool_(x <= y),
            Gt => bool_(x > y),
            Ge => bool_(x >= y),
            Eq => bool_(x == y),
            Ne => bool_(x != y),
            And | Or => None,
        },
        (_, a, b) => {
            let (x, y) = (a.as_f64(), b.as_f64());
            match op {
                Add => Some(Num::Float(x + y)),
                Sub => Some(Num::Float(x - y)),
                Mul => Some(Num::Float(x * y)),
                Div => Some(Num::Float(x / y)),
                Lt => bool_(x < y),
                Le => bool_(x <= y),
                Gt => bool_(x > y),
                Ge => bool_(x >= y),
                Eq => bool_(x == y),
                Ne => bool_(x != y),
                _ => None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use warpsafe_ir::Span;

    fn ev(s: &str) -> Option<Num> {
        let e = crate::parser::parse_expr_tokens(lex(s, 0), Span::DUMMY).ok()?;
        eval(&e, &|n| (n == "N").then_some(Num::Int(16)))
    }

    #[test]
    fn evaluates_constants() {
        assert_eq!(ev("N + 1"), Some(Num::Int(17)));
        assert_eq!(ev("(N * N) >> 2"), Some(Num::Int(64)));
        assert_eq!(ev("N > 4 && !0 ? 3 : 4"), Some(Num::Int(3)));
        assert_eq!(ev("sizeof(float) * 8"), Some(Num::Int(32)));
        assert_eq!(ev("1.5 * 2"), Some(Num::Float(3.0)));
        assert_eq!(ev("(int)2.7"), Some(Num::Int(2)));
        assert_eq!(ev("1 / 0"), None);
        assert_eq!(ev("1 << 200"), None);
        assert_eq!(ev("x + 1"), None);
    }
}
