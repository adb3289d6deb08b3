//! `setp` (every comparison, ordered and unordered, combined with a predicate by
//! `.and`/`.or`/`.xor`, with the `p|q` pair), `selp` and `slct`.

use super::instr::{only, op, ty0, why, Step};
use super::regs::Tr;
use warpsafe_cuda_front::ast::{BinaryOp, Expr, Stmt};
use warpsafe_ir::ScalarType;
use warpsafe_ptx::{Instruction, Operand};

use BinaryOp::*;

/// `setp`, `selp` and `slct`.
pub fn compare(tr: &mut Tr, i: &Instruction, out: &mut Vec<Stmt>) -> Step {
    let b = tr.b;
    let t = ty0(i)?;
    match i.opcode.as_str() {
        "selp" => {
            only(i, &[])?;
            let c = why(tr.read(op(i, 3)?, ScalarType::Bool))?;
            let (x, xt) = why(tr.read_own(op(i, 1)?, t))?;
            let y = why(tr.read(op(i, 2)?, xt))?;
            why(tr.write(op(i, 0)?, b.cond(c, x, y), xt, out))
        }
        "slct" => {
            only(i, &["ftz"])?;
            let ct = i
                .types
                .get(1)
                .and_then(|c| super::regs::ptx_ty(c))
                .ok_or_else(|| Some("`slct` without a selector type".to_string()))?;
            let c = why(tr.read(op(i, 3)?, ct))?;
            let zero = if ct.is_float() {
                b.float(0.0, ct)
            } else {
                b.int(0, ct)
            };
            let x = why(tr.read(op(i, 1)?, t))?;
            let y = why(tr.read(op(i, 2)?, t))?;
            why(tr.write(op(i, 0)?, b.cond(b.bin(Ge, c, zero), x, y), t, out))
        }
        _ => setp(tr, i, t, out),
    }
}

fn setp(tr: &mut Tr, i: &Instruction, t: ScalarType, out: &mut Vec<Stmt>) -> Step {
    let b = tr.b;
    let mut cmp = None;
    let mut combine = None;
    for m in &i.modifiers {
        match m.as_str() {
            "and" | "or" | "xor" if combine.is_none() => combine = Some(m.clone()),
            "ftz" => {}
            c if cmp.is_none() => cmp = Some(c.to_string()),
            other => return Err(Some(format!("the modifier `.{other}`"))),
        }
    }
    let cmp = cmp.ok_or_else(|| Some("`setp` without a comparison".to_string()))?;
    let x = tr.temp(t, why(tr.read(op(i, 1)?, t))?, out);
    let y = tr.temp(t, why(tr.read(op(i, 2)?, t))?, out);
    let c = if t.is_float() {
        float_cmp(&b, &cmp, x, y)?
    } else {
        int_cmp(&b, &cmp, t, x, y)?
    };
    let c = tr.temp(ScalarType::Bool, c, out);
    let (p, q) = match op(i, 0)? {
        Operand::Pair(p, q) => (Operand::Reg(p.clone()), Some(Operand::Reg(q.clone()))),
        other => (other.clone(), None),
    };
    let with = |v: Expr| -> Result<Expr, Option<String>> {
        Ok(match combine.as_deref() {
            None => v,
            Some(k) => {
                let r = why(tr.read(op(i, 3)?, ScalarType::Bool))?;
                match k {
                    "and" => b.bin(And, v, r),
                    "or" => b.bin(Or, v, r),
                    _ => b.bin(Ne, v, r),
                }
            }
        })
    };
    let pv = with(c.clone())?;
    let qv = match &q {
        Some(_) => Some(with(b.not(c))?),
        None => None,
    };
    why(tr.write(&p, pv, ScalarType::Bool, out))?;
    if let (Some(q), Some(v)) = (q, qv) {
        why(tr.write(&q, v, ScalarType::Bool, out))?;
    }
    Ok(())
}

fn int_cmp(
    b: &super::build::B,
    cmp: &str,
    t: ScalarType,
    x: Expr,
    y: Expr,
) -> Result<Expr, Option<String>> {
    // `lo`/`ls`/`hi`/`hs` compare as unsigned whatever the type says.
    let u = super::build::unsigned(t);
    let un = |x: Expr| b.cast(u, x);
    Ok(match cmp {
        "eq" => b.bin(Eq, x, y),
        "ne" => b.bin(Ne, x, y),
        "lt" => b.bin(Lt, x, y),
        "le" => b.bin(Le, x, y),
        "gt" => b.bin(Gt, x, y),
        "ge" => b.bin(Ge, x, y),
        "lo" => b.bin(Lt, un(x), un(y)),
        "ls" => b.bin(Le, un(x), un(y)),
        "hi" => b.bin(Gt, un(x), un(y)),
        "hs" => b.bin(Ge, un(x), un(y)),
        other => return Err(Some(format!("the comparison `.{other}` on integers"))),
    })
}

/// Ordered comparisons are false on NaN (C's, but for `ne`); unordered ones true.
fn float_cmp(b: &super::build::B, cmp: &str, x: Expr, y: Expr) -> Result<Expr, Option<String>> {
    let num = || {
        b.bin(
            And,
            b.bin(Eq, x.clone(), x.clone()),
            b.bin(Eq, y.clone(), y.clone()),
        )
    };
    let c = |op| b.bin(op, x.clone(), y.clone());
    Ok(match cmp {
        "eq" => c(Eq),
        "ne" => b.bin(And, c(Ne), num()),
        "lt" => c(Lt),
        "le" => c(Le),
        "gt" => c(Gt),
        "ge" => c(Ge),
        "equ" => b.bin(Or, c(Eq), b.not(num())),
        "neu" => c(Ne),
        "ltu" => b.not(c(Ge)),
        "leu" => b.not(c(Gt)),
        "gtu" => b.not(c(Le)),
        "geu" => b.not(c(Lt)),
        "num" => num(),
        "nan" => b.not(num()),
        other => return Err(Some(format!("the comparison `.{other}` on floats"))),
    })
}
