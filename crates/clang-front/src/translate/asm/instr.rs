//! One PTX instruction of an `asm` template as subset statements: the dispatch on the opcode,
//! predicated execution (`@p`), register declarations and `{ }` scopes.

use super::regs::{ptx_ty, Tr};
use super::{arith, bits, compare, memory, warp};
use warpsafe_cuda_front::ast::{Stmt, StmtKind};
use warpsafe_ir::ScalarType;
use warpsafe_ptx::{Instruction, Item, Operand};

/// Why an instruction was not translated: the instruction as written and what stops it
/// (`None`: the instruction itself).
pub struct Reject {
    /// `cp.async.ca.shared.global`.
    pub instr: String,
    /// The detail, when the instruction is supported but this use of it is not.
    pub why: Option<String>,
}

type Res = Result<(), Reject>;

/// The instruction as written: opcode, modifiers and types joined by dots.
pub fn spelled(i: &Instruction) -> String {
    let mut s = i.opcode.clone();
    for m in i.modifiers.iter().chain(&i.types) {
        s.push('.');
        s.push_str(m);
    }
    s
}

/// Translates `items` (a template, or one scope of it) into `out`.
pub fn items(tr: &mut Tr, items: &[Item], out: &mut Vec<Stmt>) -> Res {
    for item in items {
        match item {
            Item::Reg(r) => {
                let names: Vec<String> = match r.count {
                    Some(n) => (0..n).map(|k| format!("{}{k}", r.name)).collect(),
                    None => vec![r.name.clone()],
                };
                for n in names {
                    tr.declare(&n, &r.ty, out).map_err(|why| Reject {
                        instr: ".reg".into(),
                        why: Some(why),
                    })?;
                }
            }
            Item::Block(inner) => {
                tr.push_scope();
                let mut body = vec![];
                let r = items_in(tr, inner, &mut body);
                tr.pop_scope();
                r?;
                out.push(tr.b.stmt(StmtKind::Block(body)));
            }
            Item::Label(l) => {
                return Err(Reject {
                    instr: format!("{l}:"),
                    why: Some("a label (branches inside `asm` are not modelled)".into()),
                })
            }
            Item::Var(v) => {
                return Err(Reject {
                    instr: v.space.as_str().into(),
                    why: Some(format!(
                        "the variable `{}` declared in the template",
                        v.name
                    )),
                })
            }
            Item::Instr(i) => instr(tr, i, out)?,
        }
    }
    Ok(())
}

fn items_in(tr: &mut Tr, inner: &[Item], out: &mut Vec<Stmt>) -> Res {
    items(tr, inner, out)
}

fn instr(tr: &mut Tr, i: &Instruction, out: &mut Vec<Stmt>) -> Res {
    let reject = |why: String| Reject {
        instr: spelled(i),
        why: Some(why),
    };
    let Some(p) = &i.pred else {
        return body(tr, i, out).map_err(|e| match e {
            Some(why) => reject(why),
            None => Reject {
                instr: spelled(i),
                why: None,
            },
        });
    };
    let cond = tr
        .read(&Operand::Reg(p.reg.clone()), ScalarType::Bool)
        .or_else(|_| tr.read(&Operand::Symbol(p.reg.clone()), ScalarType::Bool))
        .map_err(reject)?;
    let cond = if p.negated { tr.b.not(cond) } else { cond };
    let mut then = vec![];
    let carry_before = tr.carry.is_some();
    tr.guarded = true;
    let r = body(tr, i, &mut then);
    tr.guarded = false;
    r.map_err(|e| match e {
        Some(why) => reject(why),
        None => Reject {
            instr: spelled(i),
            why: None,
        },
    })?;
    if !carry_before && tr.carry.is_some() {
        return Err(reject(
            "a carry set only under a predicate (the flag would be undefined otherwise)".into(),
        ));
    }
    out.push(tr.b.stmt(StmtKind::If(
        cond,
        Box::new(tr.b.stmt(StmtKind::Block(then))),
        None,
    )));
    Ok(())
}

/// `Err(None)`: the instruction is not supported at all; `Err(Some(why))`: this use of it.
pub type Step = Result<(), Option<String>>;

/// The first type suffix as a C type.
pub fn ty0(i: &Instruction) -> Result<ScalarType, Option<String>> {
    let t = i
        .types
        .first()
        .ok_or_else(|| Some("an instruction without a type".to_string()))?;
    ptx_ty(t).ok_or_else(|| Some(format!("the type `.{t}`")))
}

/// The operand `k`.
pub fn op(i: &Instruction, k: usize) -> Result<&Operand, Option<String>> {
    i.operands
        .get(k)
        .ok_or_else(|| Some(format!("operand {} is missing", k + 1)))
}

/// Rejects modifiers outside `allowed`.
pub fn only(i: &Instruction, allowed: &[&str]) -> Step {
    match i.modifiers.iter().find(|m| !allowed.contains(&m.as_str())) {
        Some(m) => Err(Some(format!("the modifier `.{m}`"))),
        None => Ok(()),
    }
}

/// Lifts a `String` error of the register layer.
pub fn why<T>(r: Result<T, String>) -> Result<T, Option<String>> {
    r.map_err(Some)
}

fn body(tr: &mut Tr, i: &Instruction, out: &mut Vec<Stmt>) -> Step {
    match i.opcode.as_str() {
        "mov" => arith::mov(tr, i, out),
        "add" | "sub" | "mul" | "mad" | "addc" | "subc" | "madc" | "div" | "rem" | "neg"
        | "abs" | "min" | "max" | "fma" | "sqrt" | "rcp" | "mul24" | "mad24" | "sad" => {
            arith::arith(tr, i, out)
        }
        "cvt" => arith::cvt(tr, i, out),
        "and" | "or" | "xor" | "not" | "cnot" | "shl" | "shr" | "popc" | "clz" | "brev"
        | "bfind" | "bfe" | "bfi" | "prmt" | "shf" | "lop3" => bits::bits(tr, i, out),
        "setp" | "selp" | "slct" => compare::compare(tr, i, out),
        "ld" | "st" | "cvta" | "prefetch" | "atom" | "red" => memory::memory(tr, i, out),
        "bar" | "barrier" | "membar" | "fence" | "shfl" | "vote" | "activemask" | "match" => {
            warp::warp(tr, i, out)
        }
        _ => Err(None),
    }
}
