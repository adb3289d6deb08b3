//! A direct evaluator, SMT-LIB semantics: the reference the simplifier is tested against,
//! and a way to read a term under a model.

use crate::fold::{bv_bin, mask, to_signed};
use crate::{Node, Op, Symbol, Term};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// A value of a term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// An integer (evaluation gives up beyond `i128`).
    Int(i128),
    /// A real.
    Real(BigRational),
    /// A bit-vector: width and bits.
    Bv(u32, u128),
}

impl<S: Symbol> Term<S> {
    /// The value of the term when every symbol has the value `env` gives it; `None` where a
    /// symbol has none, on integer overflow, for arrays, uninterpreted functions and
    /// quantifiers, and where SMT-LIB leaves the value open (integer or real division by
    /// zero).
    pub fn eval(&self, env: &dyn Fn(&S) -> Option<Value>) -> Option<Value> {
        use Value as V;
        Some(match &*self.0 {
            Node::Bool(b) => V::Bool(*b),
            Node::Int(v) => V::Int(*v),
            Node::Real(r) => V::Real(r.clone()),
            Node::Bv(w, v) => V::Bv(*w, *v),
            Node::Sym(s) => env(s)?,
            Node::Call(..) | Node::Forall(..) => return None,
            Node::App(op, args, _) => {
                let vs: Vec<Value> = args.iter().map(|a| a.eval(env)).collect::<Option<_>>()?;
                apply(*op, &vs)?
            }
        })
    }
}

fn apply(op: Op, vs: &[Value]) -> Option<Value> {
    use Value as V;
    let b = |v: bool| Some(V::Bool(v));
    Some(match (op, vs) {
        (Op::Not, [V::Bool(x)]) => V::Bool(!x),
        (Op::And, xs) => V::Bool(xs.iter().all(|x| *x == V::Bool(true))),
        (Op::Or, xs) => V::Bool(xs.contains(&V::Bool(true))),
        (Op::Ite, [V::Bool(c), x, y]) => {
            if *c {
                x.clone()
            } else {
                y.clone()
            }
        }
        (Op::Eq, [x, y]) => V::Bool(x == y),
        (Op::Add, [V::Int(x), V::Int(y)]) => V::Int(x.checked_add(*y)?),
        (Op::Sub, [V::Int(x), V::Int(y)]) => V::Int(x.checked_sub(*y)?),
        (Op::Mul, [V::Int(x), V::Int(y)]) => V::Int(x.checked_mul(*y)?),
        (Op::Neg, [V::Int(x)]) => V::Int(x.checked_neg()?),
        (Op::Div, [V::Int(x), V::Int(y)]) if *y != 0 => V::Int(x.checked_div_euclid(*y)?),
        (Op::Mod, [V::Int(x), V::Int(y)]) if *y != 0 => V::Int(x.checked_rem_euclid(*y)?),
        (Op::Lt, [V::Int(x), V::Int(y)]) => return b(x < y),
        (Op::Le, [V::Int(x), V::Int(y)]) => return b(x <= y),
        (Op::Add, [V::Real(x), V::Real(y)]) => V::Real(x + y),
        (Op::Sub, [V::Real(x), V::Real(y)]) => V::Real(x - y),
        (Op::Mul, [V::Real(x), V::Real(y)]) => V::Real(x * y),
        (Op::Neg, [V::Real(x)]) => V::Real(-x),
        (Op::RDiv, [V::Real(x), V::Real(y)]) if !y.is_zero() => V::Real(x / y),
        (Op::Lt, [V::Real(x), V::Real(y)]) => return b(x < y),
        (Op::Le, [V::Real(x), V::Real(y)]) => return b(x <= y),
        (Op::ToReal, [V::Int(x)]) => V::Real(BigRational::from_integer(BigInt::from(*x))),
        (Op::ToInt, [V::Real(x)]) => V::Int(x.floor().to_integer().to_i128()?),
        (Op::Neg, [V::Bv(w, x)]) => V::Bv(*w, x.wrapping_neg() & mask(*w)),
        (Op::BvNot, [V::Bv(w, x)]) => V::Bv(*w, !x & mask(*w)),
        (Op::Extract(h, l), [V::Bv(_, x)]) => V::Bv(h - l + 1, (x >> l) & mask(h - l + 1)),
        (Op::Zext(n), [V::Bv(w, x)]) if w + n <= 128 => V::Bv(w + n, *x),
        (Op::Sext(n), [V::Bv(w, x)]) if w + n <= 128 => {
            V::Bv(w + n, to_signed(*w, *x) as u128 & mask(w + n))
        }
        (Op::Udiv, [V::Bv(w, _), V::Bv(_, 0)]) => V::Bv(*w, mask(*w)),
        (Op::Urem, [V::Bv(w, x), V::Bv(_, 0)]) => V::Bv(*w, *x),
        (Op::Sdiv, [V::Bv(w, x), V::Bv(_, 0)]) if *w < 128 => {
            V::Bv(*w, if to_signed(*w, *x) < 0 { 1 } else { mask(*w) })
        }
        (Op::Srem, [V::Bv(w, x), V::Bv(_, 0)]) => V::Bv(*w, *x),
        (op, [V::Bv(w, x), V::Bv(_, y)]) if *w <= 128 => match bv_bin(op, *w, *x, *y)? {
            Ok(v) => V::Bv(*w, v),
            Err(v) => V::Bool(v),
        },
        _ => return None,
    })
}
