//! Loads and stores through an address operand: an `l` operand bound to a C pointer
//! (`"l"(p + i)`), or a register that copied it (`mov.b64`, `cvta.to.global`), plus a
//! constant byte offset. `ld.global` (any cache operator: `.nc`, `.cg`, `.ca`, `.cs`, `.lu`,
//! `.cv`, `L1::`/`L2::` hints) and generic `ld` become reads of the pointer's elements,
//! `.v2`/`.v4` reading consecutive ones; `st` likewise. A non-coherent load (`.nc`) is read
//! as `__ldg` is, as a plain read: a write to the same element by another thread is a race
//! either way. `atom`/`red` (`add`, `min`, `max`, `exch`, `cas`, at device or system scope)
//! are the CUDA atomics on the element.
//!
//! Other state spaces (`.shared` through a 32-bit window address, `.local`, `.const`,
//! `.param`), the memory-ordering forms (`.volatile`, `.acquire`, `.release`) and
//! block-scoped atomics are rejected, as is a `.global` access through a pointer that may
//! point into shared memory (`shared.rs`). Not detected: a vector access through a pointer
//! not aligned to the vector's size, and a `.global` access through a shared pointer that
//! `shared.rs` does not trace (both fault on hardware; here they read or write the element).

use super::arith::copy_address;
use super::instr::{op, ty0, why, Step};
use super::regs::{Reg, Tr};
use warpsafe_cuda_front::ast::Stmt;
use warpsafe_ir::ScalarType;
use warpsafe_ptx::{Instruction, Operand};

/// `ld`, `st`, `cvta` and `prefetch`.
pub fn memory(tr: &mut Tr, i: &Instruction, out: &mut Vec<Stmt>) -> Step {
    match i.opcode.as_str() {
        "cvta" => {
            let ok = i
                .modifiers
                .iter()
                .all(|m| matches!(m.as_str(), "to" | "global"));
            if !ok {
                return Err(Some(
                    "a conversion to or from a space other than `.global`".into(),
                ));
            }
            copy_address(tr, op(i, 0)?, op(i, 1)?)
        }
        "prefetch" => Ok(()),
        "ld" | "st" => access(tr, i, out),
        "atom" | "red" => atomic(tr, i, out),
        _ => Err(None),
    }
}

/// The C pointer local, element type and element index an address operand names.
fn element(
    tr: &Tr,
    addr: &Operand,
    global: bool,
) -> Result<(String, ScalarType, i64), Option<String>> {
    let Operand::Address { base, offset } = addr else {
        return Err(Some("an address that is not `[register+offset]`".into()));
    };
    let Some(Reg::Ptr {
        local,
        elem,
        offset: at,
        shared,
    }) = tr.lookup(base)
    else {
        return Err(Some(format!(
            "the address `[{base}]`: only an `l` operand bound to a C pointer (or a copy of \
             one) is an address"
        )));
    };
    if *shared && global {
        return Err(Some(format!(
            "a `.global` access through `[{base}]`, which may point into shared memory (a \
             generic access, without `.global`, is read)"
        )));
    }
    let size = i64::from(elem.bits() / 8).max(1);
    let bytes = at + offset;
    if bytes % size != 0 {
        return Err(Some(format!(
            "an access {bytes} bytes past the pointer, not a whole number of {elem} elements"
        )));
    }
    Ok((local.clone(), *elem, bytes / size))
}

/// `atom` and `red` on global memory at device or system scope: `atomicAdd`, `atomicMin`,
/// `atomicMax`, `atomicExch`, `atomicCAS` on the element.
fn atomic(tr: &mut Tr, i: &Instruction, out: &mut Vec<Stmt>) -> Step {
    let b = tr.b;
    let mut op_name = None;
    for m in &i.modifiers {
        match m.as_str() {
            "global" | "relaxed" | "gpu" | "sys" => {}
            "add" | "min" | "max" | "exch" | "cas" if op_name.is_none() => {
                op_name = Some(m.as_str())
            }
            "cta" => return Err(Some("a block-scoped atomic (`.cta`)".into())),
            other => return Err(Some(format!("the `.{other}` form"))),
        }
    }
    let f = match op_name {
        Some("add") => "atomicAdd",
        Some("min") => "atomicMin",
        Some("max") => "atomicMax",
        Some("exch") => "atomicExch",
        Some("cas") => "atomicCAS",
        _ => return Err(Some("an atomic without an operation".into())),
    };
    let t = ty0(i)?;
    let red = i.opcode == "red";
    let first = usize::from(!red);
    let (local, elem, idx) = element(tr, op(i, first)?, i.modifiers.iter().any(|m| m == "global"))?;
    if elem.bits() != t.bits() || elem.is_float() != t.is_float() {
        return Err(Some(format!(
            "a `.{}` atomic through a pointer to {elem}",
            i.types[0]
        )));
    }
    let place = b.index(b.id(&local), b.lit(i128::from(idx), ScalarType::I64));
    let addr = b.un(warpsafe_cuda_front::ast::UnaryOp::AddrOf, place);
    let mut args = vec![addr, why(tr.read(op(i, first + 1)?, elem))?];
    if f == "atomicCAS" {
        args.push(why(tr.read(op(i, first + 2)?, elem))?);
    }
    let call = b.call(f, args);
    if red {
        out.push(b.stmt(warpsafe_cuda_front::ast::StmtKind::Expr(call)));
        Ok(())
    } else {
        why(tr.write(op(i, 0)?, call, elem, out))
    }
}

fn access(tr: &mut Tr, i: &Instruction, out: &mut Vec<Stmt>) -> Step {
    let b = tr.b;
    let load = i.opcode == "ld";
    let mut lanes = 1u32;
    for m in &i.modifiers {
        match m.as_str() {
            "global" | "ca" | "cg" | "cs" | "lu" | "cv" | "nc" | "wb" | "wt" | "weak" => {}
            "v2" => lanes = 2,
            "v4" => lanes = 4,
            h if h.starts_with("L1::") || h.starts_with("L2::") => {
                if h == "L2::cache_hint" {
                    return Err(Some("a cache-policy operand (`.L2::cache_hint`)".into()));
                }
            }
            other => return Err(Some(format!("the `.{other}` form"))),
        }
    }
    let t = ty0(i)?;
    let (data, addr) = if load {
        (op(i, 0)?, op(i, 1)?)
    } else {
        (op(i, 1)?, op(i, 0)?)
    };
    let (local, elem, first) = element(tr, addr, i.modifiers.iter().any(|m| m == "global"))?;
    if elem.bits() != t.bits() {
        return Err(Some(format!(
            "a `.{}` access through a pointer to {elem}",
            i.types[0]
        )));
    }
    let parts: Vec<&Operand> = match data {
        Operand::Vector(v) if v.len() as u32 == lanes => v.iter().collect(),
        Operand::Vector(_) => return Err(Some("a vector of the wrong length".into())),
        d if lanes == 1 => vec![d],
        _ => return Err(Some("a vector access without a vector operand".into())),
    };
    for (k, part) in parts.into_iter().enumerate() {
        let idx = first + k as i64;
        let place = b.index(b.id(&local), b.lit(i128::from(idx), ScalarType::I64));
        if load {
            why(tr.write(part, place, elem, out))?;
        } else {
            if matches!(part, Operand::Sink) {
                continue;
            }
            let v = why(tr.read(part, elem))?;
            out.push(b.assign(place, v));
        }
    }
    Ok(())
}
