//! Evaluation of contract expressions (buffer lengths, preconditions, shared memory sizes).

use crate::{ExecError, LaunchConfig};
use warpsafe_ir::{
    BinOp, Builtin, Expr, ExprKind, Kernel, LogicOp, MathFn, ParamId, ScalarType, UnOp, Value,
};

/// Evaluates a contract expression (lengths, requires, shared_bytes): scalar parameters come
/// from `scalars`, `len(x)` from `buffer_len`, `blockDim`/`gridDim` from `cfg`. Integer
/// arithmetic is exact: a result that does not fit its type is an error, never a wrap.
/// Loads, variables and thread-dependent builtins are errors.
pub fn eval_contract_expr(
    kernel: &Kernel,
    e: &Expr,
    scalars: &dyn Fn(ParamId) -> Option<Value>,
    buffer_len: &dyn Fn(ParamId) -> Option<u64>,
    cfg: &LaunchConfig,
) -> Result<Value, ExecError> {
    Eval {
        kernel,
        scalars,
        buffer_len,
        cfg,
    }
    .eval(e)
}

struct Eval<'a> {
    kernel: &'a Kernel,
    scalars: &'a dyn Fn(ParamId) -> Option<Value>,
    buffer_len: &'a dyn Fn(ParamId) -> Option<u64>,
    cfg: &'a LaunchConfig,
}

fn err<T>(m: impl Into<String>) -> Result<T, ExecError> {
    Err(ExecError::Contract(m.into()))
}

fn fit(ty: ScalarType, v: i128) -> Result<Value, ExecError> {
    let (lo, hi) = match ty {
        ScalarType::Bool => (0, 1),
        _ if ty.is_float() => return Ok(Value::from_i128(ty, v)),
        _ => ty.int_range().unwrap_or((0, 0)),
    };
    if v < lo || v > hi {
        return err(format!("the value {v} does not fit in {ty}"));
    }
    Ok(Value::from_i128(ty, v))
}

impl Eval<'_> {
    fn param_name(&self, p: ParamId) -> String {
        self.kernel
            .params
            .get(p.0 as usize)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| format!("#{}", p.0))
    }

    fn eval(&self, e: &Expr) -> Result<Value, ExecError> {
        match &e.kind {
            ExprKind::Const(v) => Ok(*v),
            ExprKind::Param(p) => match (self.scalars)(*p) {
                Some(v) => Ok(v),
                None => err(format!("no value for parameter `{}`", self.param_name(*p))),
            },
            ExprKind::BufferLen(p) => match (self.buffer_len)(*p) {
                Some(n) => Ok(Value::U64(n)),
                None => err(format!("no length for buffer `{}`", self.param_name(*p))),
            },
            ExprKind::Builtin(b) => match b {
                Builtin::BlockDim(d) => Ok(Value::U32(self.cfg.block[d.index()])),
                Builtin::GridDim(d) => Ok(Value::U32(self.cfg.grid[d.index()])),
                Builtin::WarpSize => Ok(Value::U32(32)),
                other => err(format!(
                    "`{}` differs between threads and cannot appear in a contract",
                    other.c_name()
                )),
            },
            ExprKind::Var(_) => err("local variables cannot appear in a contract"),
            ExprKind::Load(..) => err("memory reads cannot appear in a contract"),
            ExprKind::Unary(op, a) => {
                let v = self.eval(a)?;
                match (op, v.as_i128()) {
                    (UnOp::Not, _) => Ok(Value::Bool(v.to_bits() == 0)),
                    (UnOp::Neg, Some(i)) => fit(e.ty, -i),
                    (UnOp::BitNot, Some(_)) => Ok(Value::from_bits(e.ty, !v.to_bits())),
                    (UnOp::Neg, None) => Ok(Value::from_f64(e.ty, -v.as_f64())),
                    (UnOp::BitNot, None) => err("`~` applied to a float"),
                }
            }
            ExprKind::Logical(op, a, b) => {
                let a = self.eval(a)?.to_bits() != 0;
                let short = match op {
                    LogicOp::And => !a,
                    LogicOp::Or => a,
                };
                if short {
                    return Ok(Value::Bool(a));
                }
                Ok(Value::Bool(self.eval(b)?.to_bits() != 0))
            }
            ExprKind::Cast(a) => Ok(self.eval(a)?.cast(e.ty)),
            ExprKind::Select(c, a, b) => {
                if self.eval(c)?.to_bits() != 0 {
                    self.eval(a)
                } else {
                    self.eval(b)
                }
            }
            ExprKind::Call(f, args) => {
                let vals = args
                    .iter()
                    .map(|a| self.eval(a))
                    .collect::<Result<Vec<_>, _>>()?;
                if let (MathFn::Bits, [v]) = (f, vals.as_slice()) {
                    return Ok(Value::from_bits(e.ty, v.to_bits()));
                }
                match (f, vals.first().and_then(|v| v.as_i128())) {
                    (MathFn::Abs, Some(i)) => fit(e.ty, i.abs()),
                    _ => {
                        let x: Vec<f64> = vals.iter().map(|v| v.as_f64()).collect();
                        let r = match (f, x.as_slice()) {
                            (MathFn::Abs, [a]) => a.abs(),
                            (MathFn::Sqrt, [a]) => a.sqrt(),
                            (MathFn::Floor, [a]) => a.floor(),
                            (MathFn::Ceil, [a]) => a.ceil(),
                            (MathFn::Log2, [a]) => a.log2(),
                            (MathFn::Pow, [a, b]) => a.powf(*b),
                            _ => {
                                return err(format!("`{}` is not supported in contracts", f.name()))
                            }
                        };
                        Ok(Value::from_f64(e.ty, r))
                    }
                }
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                self.binary(*op, x, y, e.ty)
            }
        }
    }

    fn binary(&self, op: BinOp, x: Value, y: Value, ty: ScalarType) -> Result<Value, ExecError> {
        if let (Some(a), Some(b)) = (x.as_i128(), y.as_i128()) {
            let r = match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a
                    .checked_mul(b)
                    .ok_or(ExecError::Contract("overflow".into()))?,
                BinOp::Div | BinOp::Rem if b == 0 => return err("division by zero"),
                BinOp::Div => a / b,
                BinOp::Rem => a % b,
                BinOp::BitAnd => a & b,
                BinOp::BitOr => a | b,
                BinOp::BitXor => a ^ b,
                BinOp::Shl if (0..64).contains(&b) => a << b,
                BinOp::Shr if (0..64).contains(&b) => a >> b,
                BinOp::Shl | BinOp::Shr => return err(format!("shift by {b}")),
                BinOp::Eq => return Ok(Value::Bool(a == b)),
                BinOp::Ne => return Ok(Value::Bool(a != b)),
                BinOp::Lt => return Ok(Value::Bool(a < b)),
                BinOp::Le => return Ok(Value::Bool(a <= b)),
                BinOp::Gt => return Ok(Value::Bool(a > b)),
                BinOp::Ge => return Ok(Value::Bool(a >= b)),
                BinOp::Min => a.min(b),
                BinOp::Max => a.max(b),
            };
            return fit(ty, r);
        }
        let (a, b) = (x.as_f64(), y.as_f64());
        let r = match op {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            BinOp::Mul => a * b,
            BinOp::Div => a / b,
            BinOp::Eq => return Ok(Value::Bool(a == b)),
            BinOp::Ne => return Ok(Value::Bool(a != b)),
            BinOp::Lt => return Ok(Value::Bool(a < b)),
            BinOp::Le => return Ok(Value::Bool(a <= b)),
            BinOp::Gt => return Ok(Value::Bool(a > b)),
            BinOp::Ge => return Ok(Value::Bool(a >= b)),
            BinOp::Min => a.min(b),
            BinOp::Max => a.max(b),
            _ => return err(format!("`{}` on floats", op.symbol())),
        };
        Ok(Value::from_f64(ty, r))
    }
}
