//! Registers as IR variables: one type per register, and the reinterpretations between the
//! type a register holds and the type an instruction reads it as.
//!
//! Thread-code registers hold raw bits (narrower types zero-extended); each instruction
//! says how it reads them. A register becomes one IR variable of the type its definitions
//! give it; integer types of one width share a variable (unsigned), and reading it as
//! another integer type is the bit-preserving conversion. A register written both as a
//! float and as an integer of the float's width holds the bits (an unsigned variable);
//! a float read of it reinterprets them. Other mixes (a predicate and an integer, types of
//! different widths one of them a float) have no IR counterpart and are reported.

use super::LiftError;
use warpsafe_exec::thread::code::{Inst, Reg, ThreadCode};
use warpsafe_ir::{Expr, ExprKind, MathFn, ScalarType};

/// The type each instruction gives the register it defines, when it decides it.
fn def_type(
    inst: &Inst,
    types: &[Option<ScalarType>],
    elems: &[ScalarType],
) -> Option<(Reg, Option<ScalarType>)> {
    let t = |r: Reg| types.get(r as usize).copied().flatten();
    Some(match *inst {
        Inst::Const { dst, ty, .. } | Inst::Param { dst, ty, .. } => (dst, Some(ty)),
        Inst::AllocLen { dst, .. } => (dst, Some(ScalarType::U64)),
        Inst::Mov { dst, src } => (dst, t(src)),
        Inst::Unary { dst, ty, .. } | Inst::Binary { dst, ty, .. } => (dst, Some(ty)),
        Inst::Cmp { dst, .. } => (dst, Some(ScalarType::Bool)),
        Inst::Cast { dst, to, .. } => (dst, Some(to)),
        Inst::Select { dst, a, b, .. } => (dst, t(a).or(t(b))),
        Inst::Math { dst, ty, .. } | Inst::Arbitrary { dst, ty } => (dst, Some(ty)),
        Inst::Special { dst, .. } | Inst::ActiveMask { dst } => (dst, Some(ScalarType::U32)),
        // A load of a same-sized element holds the element's type (NVRTC moves floats
        // through `.u32` loads and stores).
        Inst::Load { dst, ty, mem, .. } => {
            let elem = elems.get(mem as usize).copied().unwrap_or(ty);
            let t = if elem.size_bytes() == ty.size_bytes() {
                elem
            } else {
                ty
            };
            (dst, Some(t))
        }
        Inst::Atomic {
            dst: Some(d), ty, ..
        } => (d, Some(ty)),
        Inst::Shuffle { dst, ty, .. } => (dst, Some(ty)),
        Inst::Vote { dst, kind, .. } => (dst, Some(kind.result_ty())),
        Inst::BarrierVote { dst, .. } => (dst, Some(ScalarType::I32)),
        _ => return None,
    })
}

/// Joins two definitions' types into the variable type both fit.
fn join(a: ScalarType, b: ScalarType) -> Result<ScalarType, String> {
    if a == b {
        return Ok(a);
    }
    if a.is_int() && b.is_int() {
        return Ok(unsigned_of(a.bits().max(b.bits())));
    }
    // A float and an integer of one width (nvcc moves a float through a `.u32` load into an
    // `.f32` register it also writes with `mov.f32`): the variable holds the bits, each
    // definition stores its value's bits and each read reinterprets them, both exactly.
    let numeric = a.is_numeric() && b.is_numeric();
    if numeric && a.bits() == b.bits() && (a.is_float() || b.is_float()) {
        return Ok(unsigned_of(a.bits()));
    }
    Err(format!(
        "a register written as both {} and {} (bit reinterpretation)",
        a.name(),
        b.name()
    ))
}

/// The unsigned integer type of `bits` bits.
pub(crate) fn unsigned_of(bits: u32) -> ScalarType {
    match bits {
        8 => ScalarType::U8,
        16 => ScalarType::U16,
        32 => ScalarType::U32,
        _ => ScalarType::U64,
    }
}

/// The variable type of every register (`None` for registers never defined).
pub(crate) fn register_types(code: &ThreadCode) -> Result<Vec<Option<ScalarType>>, LiftError> {
    let mut types: Vec<Option<ScalarType>> = vec![None; code.num_regs as usize];
    let elems: Vec<ScalarType> = code.allocs.iter().map(|a| a.elem).collect();
    // A constant says little about a register's type (`mov.u32 %r, 0` starts an `int`
    // counter): constants, and copies of registers only constants define, type a register
    // only when nothing else does.
    let mut non_const: Vec<bool> = vec![false; code.num_regs as usize];
    for inst in &code.insts {
        if let Some((dst, _)) = def_type(inst, &types, &elems) {
            if !matches!(inst, Inst::Const { .. }) {
                if let Some(slot) = non_const.get_mut(dst as usize) {
                    *slot = true;
                }
            }
        }
    }
    let weak = |inst: &Inst| match *inst {
        Inst::Const { .. } => true,
        Inst::Mov { src, .. } => !non_const.get(src as usize).copied().unwrap_or(true),
        _ => false,
    };
    for strong_pass in [true, false] {
        loop {
            let mut changed = false;
            for (pc, inst) in code.insts.iter().enumerate() {
                let Some((dst, Some(ty))) = def_type(inst, &types, &elems) else {
                    continue;
                };
                let slot = types
                    .get_mut(dst as usize)
                    .ok_or_else(|| LiftError::new(format!("register {dst} out of range"), pc))?;
                if weak(inst) && (strong_pass || slot.is_some()) {
                    continue;
                }
                let new = match *slot {
                    None => ty,
                    Some(old) => join(old, ty).map_err(|m| LiftError::new(m, pc))?,
                };
                if *slot != Some(new) {
                    *slot = Some(new);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    Ok(types)
}

/// `e` (of type `from`) read as type `to`, as thread code reads a register's bits.
pub(crate) fn reinterpret(e: Expr, to: ScalarType) -> Result<Expr, String> {
    let from = e.ty;
    if from == to {
        return Ok(e);
    }
    // Reading back a value's own bits: `(i32)((u32)n)` is `n`.
    if let ExprKind::Cast(inner) = &e.kind {
        if inner.ty == to && inner.ty.is_int() && from.is_int() && from.bits() == to.bits() {
            return Ok((**inner).clone());
        }
    }
    if let ExprKind::Const(v) = &e.kind {
        if from.is_int() && to == ScalarType::Bool {
            return Ok(Expr::constant(warpsafe_ir::Value::Bool(v.to_bits() != 0)));
        }
        if (from.is_int() || from == ScalarType::Bool) && to.is_int() {
            return Ok(Expr::constant(warpsafe_ir::Value::from_bits(
                to,
                v.to_bits(),
            )));
        }
        // The bits of a constant read as a float of the same width are that float, exactly.
        if from.is_int() && to.is_float() && from.bits() == to.bits() {
            return Ok(Expr::constant(warpsafe_ir::Value::from_bits(
                to,
                v.to_bits(),
            )));
        }
    }
    let cast = |e: Expr, ty: ScalarType| Expr::new(ExprKind::Cast(Box::new(e)), ty);
    if from == ScalarType::Bool && to.is_int() {
        return Ok(cast(e, to));
    }
    if from.is_int() && to == ScalarType::Bool {
        let zero = Expr::constant(warpsafe_ir::Value::zero(from));
        return Ok(Expr::new(
            ExprKind::Binary(warpsafe_ir::BinOp::Ne, Box::new(e), Box::new(zero)),
            ScalarType::Bool,
        ));
    }
    // A float's bits as an integer of its width, or back: a bit reinterpretation, and
    // reading the bits of a reinterpretation again goes back to its argument (exact).
    let numeric = from.is_numeric() && to.is_numeric();
    if numeric && from.bits() == to.bits() && (from.is_float() || to.is_float()) {
        if let ExprKind::Call(MathFn::Bits, args) = &e.kind {
            if let [inner] = args.as_slice() {
                if inner.ty.is_float() == to.is_float() {
                    // Back to the argument's kind: itself, or a C cast between integers.
                    return reinterpret(inner.clone(), to);
                }
                return Ok(inner.clone().bits_as(to));
            }
        }
        if let ExprKind::Const(v) = &e.kind {
            return Ok(Expr::constant(warpsafe_ir::Value::from_bits(
                to,
                v.to_bits(),
            )));
        }
        return Ok(e.bits_as(to));
    }
    if !(from.is_int() && to.is_int()) {
        return Err(format!(
            "bits of a {} read as a {} (bit reinterpretation)",
            from.name(),
            to.name()
        ));
    }
    if from.bits() == to.bits() {
        return Ok(cast(e, to));
    }
    // Through the unsigned type of each width: zero-extension or truncation of the bits.
    let mut x = e;
    if from.is_signed() {
        x = cast(x, unsigned_of(from.bits()));
    }
    x = cast(x, unsigned_of(to.bits()));
    if to.is_signed() {
        x = cast(x, to);
    }
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::{Value, VarId};

    fn var(ty: ScalarType) -> Expr {
        Expr::new(ExprKind::Var(VarId(0)), ty)
    }

    #[test]
    fn float_bits_read_as_integers_are_reinterpretations_that_round_trip() {
        let f = var(ScalarType::F32);
        let u = reinterpret(f.clone(), ScalarType::U32).expect("same width");
        assert!(matches!(&u.kind, ExprKind::Call(MathFn::Bits, a) if a[0] == f));
        assert_eq!(u.ty, ScalarType::U32);
        // Back to f32: the register itself; on to i32: one reinterpretation of the float.
        assert_eq!(reinterpret(u.clone(), ScalarType::F32), Ok(f.clone()));
        let i = reinterpret(u, ScalarType::I32).expect("same width");
        assert!(
            i.ty == ScalarType::I32 && matches!(i.kind, ExprKind::Cast(_) | ExprKind::Call(..))
        );
        // An integer through a float and back is a C cast between the integers.
        let n = var(ScalarType::U32);
        let x = reinterpret(n.clone(), ScalarType::F32).expect("same width");
        let back = reinterpret(x, ScalarType::I32).expect("same width");
        assert_eq!(
            back,
            Expr::new(ExprKind::Cast(Box::new(n)), ScalarType::I32)
        );
        // Constants fold exactly; other widths stay refused.
        let one = Expr::constant(Value::U32(0x3f80_0000));
        assert_eq!(
            reinterpret(one, ScalarType::F32),
            Ok(Expr::constant(Value::F32(1.0)))
        );
        assert!(reinterpret(f, ScalarType::U64).is_err());
    }
}
