//! Arithmetic: `mov`, integer `add`/`sub`/`mul`/`mad` with PTX's `.lo`/`.hi`/`.wide`, `.sat`
//! and the carry chains (`add.cc`, `addc`, `sub.cc`, `subc`, `mad.cc`, `madc`), `div`, `rem`,
//! `neg`, `abs`, `min`, `max`, float arithmetic and `fma`, and `cvt`.
//!
//! Integer results wrap as PTX defines them: every sum and product is computed on the
//! unsigned type of its width and converted back, so no C signed overflow is introduced. The
//! carry flag is a `0`/`1` local of the statement; reading it before an instruction of the
//! same statement sets it is rejected (PTX keeps no carry between `asm` statements). Float
//! rounding modifiers are the operation they round, as the front end reads `__fadd_rz`.

use super::build::{unsigned, B};
use super::instr::{only, op, ty0, why, Step};
use super::regs::{ptx_ty, wrapping_neg, Reg, Tr};
use warpsafe_cuda_front::ast::{BinaryOp, Expr, Stmt};
use warpsafe_ir::ScalarType;
use warpsafe_ptx::{Instruction, Operand};

use BinaryOp::*;

const ROUND: &[&str] = &["rn", "rz", "rm", "rp", "ftz", "approx", "full"];

/// The unsigned type sums and products of `t` are computed in (at least 32 bits).
fn wide(t: ScalarType) -> ScalarType {
    if t.bits() > 32 {
        ScalarType::U64
    } else {
        ScalarType::U32
    }
}

/// The type of twice `t`'s width, same signedness.
fn doubled(t: ScalarType) -> Option<ScalarType> {
    use ScalarType::*;
    Some(match t {
        U16 => U32,
        I16 => I32,
        U32 => U64,
        I32 => I64,
        _ => return None,
    })
}

/// `op` read as `t`, then widened to the unsigned computing type.
fn ur(tr: &Tr, o: &Operand, t: ScalarType) -> Result<Expr, Option<String>> {
    Ok(tr.b.cast(wide(t), why(tr.read(o, t))?))
}

/// `mov`: register to register (bits moved in their own type), special registers,
/// immediates, vector pack/unpack, and the copy of an address.
pub fn mov(tr: &mut Tr, i: &Instruction, out: &mut Vec<Stmt>) -> Step {
    only(i, &[])?;
    let t = ty0(i)?;
    let (d, a) = (op(i, 0)?, op(i, 1)?);
    let b = tr.b;
    if let Some(Reg::Ptr { .. }) = Tr::reg_name(a).and_then(|n| tr.lookup(n)).cloned() {
        return copy_address(tr, d, a);
    }
    match (d, a) {
        (Operand::Vector(parts), src) => {
            let w = t.bits() / parts.len() as u32;
            let part = unsigned_of(w)?;
            let v = tr.temp(unsigned(t), why(tr.read(src, unsigned(t)))?, out);
            for (k, p) in parts.iter().enumerate() {
                let shifted = b.bin(
                    Shr,
                    v.clone(),
                    b.int(u64::from(w) * k as u64, ScalarType::U32),
                );
                why(tr.write(p, b.cast(part, shifted), part, out))?;
            }
            Ok(())
        }
        (dst, Operand::Vector(parts)) => {
            let w = t.bits() / parts.len() as u32;
            let part = unsigned_of(w)?;
            let ut = unsigned(t);
            let mut acc: Option<Expr> = None;
            for (k, p) in parts.iter().enumerate() {
                let piece = b.cast(ut, why(tr.read(p, part))?);
                let piece = b.bin(Shl, piece, b.int(u64::from(w) * k as u64, ScalarType::U32));
                acc = Some(match acc {
                    None => piece,
                    Some(a) => b.bin(BitOr, a, piece),
                });
            }
            let v = acc.ok_or_else(|| Some("an empty vector".to_string()))?;
            why(tr.write(dst, b.cast(ut, v), ut, out))
        }
        (dst, src) => {
            let (e, et) = why(tr.read_own(src, t))?;
            why(tr.write(dst, e, et, out))
        }
    }
}

fn unsigned_of(bits: u32) -> Result<ScalarType, Option<String>> {
    Ok(match bits {
        8 => ScalarType::U8,
        16 => ScalarType::U16,
        32 => ScalarType::U32,
        _ => return Err(Some("a vector of this width".into())),
    })
}

/// `mov.b64 rd, %1` / `cvta.to.global.u64 rd, %1` where `%1` holds an address: `rd` now
/// names the same address.
pub fn copy_address(tr: &mut Tr, d: &Operand, a: &Operand) -> Step {
    if tr.guarded {
        return Err(Some("an address copied under a predicate".into()));
    }
    let src = Tr::reg_name(a).and_then(|n| tr.lookup(n)).cloned();
    let Some(n) = Tr::reg_name(d) else {
        return Err(Some("an address copied into a non-register".into()));
    };
    match src {
        Some(r @ Reg::Ptr { .. }) => why(tr.rebind(n, r)),
        _ => Err(Some("an address register expected".into())),
    }
}

/// Integer and float arithmetic.
pub fn arith(tr: &mut Tr, i: &Instruction, out: &mut Vec<Stmt>) -> Step {
    let t = ty0(i)?;
    let b = tr.b;
    let m = |s: &str| i.modifiers.iter().any(|x| x == s);
    if t.is_float() {
        return float(tr, i, t, out);
    }
    if t == ScalarType::Bool || t.is_float() {
        return Err(Some(format!("`{}` on predicates", i.opcode)));
    }
    let name = i.opcode.as_str();
    if m("cc") || matches!(name, "addc" | "subc" | "madc") {
        return carry(tr, i, t, out);
    }
    let d = op(i, 0)?;
    let rd = |k: usize| -> Result<Expr, Option<String>> { ur(tr, op(i, k)?, t) };
    let (value, vty) = match name {
        "add" | "sub" => {
            only(i, &["sat"])?;
            let o = if name == "add" { Add } else { Sub };
            if m("sat") {
                if t != ScalarType::I32 {
                    return Err(Some("`.sat` on a type other than `.s32`".into()));
                }
                let l = |k: usize| -> Result<Expr, Option<String>> {
                    Ok(b.cast(ScalarType::I64, why(tr.read(op(i, k)?, t))?))
                };
                let s = tr.temp(ScalarType::I64, b.bin(o, l(1)?, l(2)?), out);
                (saturate_i32(&b, s), ScalarType::I32)
            } else {
                (b.cast(t, b.bin(o, rd(1)?, rd(2)?)), t)
            }
        }
        "mul" | "mad" => {
            only(i, &["lo", "hi", "wide"])?;
            let (p, pty) = product(tr, i, t, out)?;
            if name == "mul" {
                (p, pty)
            } else {
                let c = b.cast(wide(pty), why(tr.read(op(i, 3)?, pty))?);
                (b.cast(pty, b.bin(Add, b.cast(wide(pty), p), c)), pty)
            }
        }
        "div" | "rem" => {
            only(i, &[])?;
            let o = if name == "div" { Div } else { Rem };
            let x = why(tr.read(op(i, 1)?, t))?;
            let y = why(tr.read(op(i, 2)?, t))?;
            (b.bin(o, x, y), t)
        }
        "neg" => {
            only(i, &[])?;
            (wrapping_neg(&b, why(tr.read(op(i, 1)?, t))?, t), t)
        }
        "abs" => {
            only(i, &[])?;
            let x = tr.temp(t, why(tr.read(op(i, 1)?, t))?, out);
            let neg = b.bin(Lt, x.clone(), b.int(0, t));
            (b.cond(neg, wrapping_neg(&b, x.clone(), t), x), t)
        }
        "min" | "max" => {
            only(i, &[])?;
            let x = tr.temp(t, why(tr.read(op(i, 1)?, t))?, out);
            let y = tr.temp(t, why(tr.read(op(i, 2)?, t))?, out);
            let pick = b.bin(if name == "min" { Lt } else { Gt }, x.clone(), y.clone());
            (b.cond(pick, x, y), t)
        }
        _ => return Err(None),
    };
    why(tr.write(d, value, vty, out))
}

/// `i32` clamp of the `i64` value `s`.
fn saturate_i32(b: &B, s: Expr) -> Expr {
    let (lo, hi) = (i128::from(i32::MIN), i128::from(i32::MAX));
    let l = |v| b.lit(v, ScalarType::I64);
    b.cond(
        b.bin(Gt, s.clone(), l(hi)),
        b.lit(hi, ScalarType::I32),
        b.cond(
            b.bin(Lt, s.clone(), l(lo)),
            b.lit(lo, ScalarType::I32),
            b.cast(ScalarType::I32, s),
        ),
    )
}

/// The product of operands 1 and 2 as `.lo`, `.hi` or `.wide` says, with its type.
fn product(
    tr: &mut Tr,
    i: &Instruction,
    t: ScalarType,
    out: &mut Vec<Stmt>,
) -> Result<(Expr, ScalarType), Option<String>> {
    let b = tr.b;
    let m = |s: &str| i.modifiers.iter().any(|x| x == s);
    let x = why(tr.read(op(i, 1)?, t))?;
    let y = why(tr.read(op(i, 2)?, t))?;
    if m("wide") {
        let dt = doubled(t).ok_or_else(|| Some(format!("`.wide` on `{t}`")))?;
        let w = |e: Expr| b.cast(wide(dt), b.cast(dt, e));
        return Ok((b.cast(dt, b.bin(Mul, w(x), w(y))), dt));
    }
    if !m("hi") {
        let p = b.bin(Mul, b.cast(wide(t), x), b.cast(wide(t), y));
        return Ok((b.cast(t, p), t));
    }
    if let Some(dt) = doubled(t) {
        // The double-width product cannot overflow its (signed or unsigned) type.
        let p = b.bin(Mul, b.cast(dt, x), b.cast(dt, y));
        let hi = b.bin(Shr, p, b.int(u64::from(t.bits()), ScalarType::U32));
        return Ok((b.cast(t, hi), t));
    }
    // 64 x 64 high half through 32-bit halves.
    let u = ScalarType::U64;
    let xs = tr.temp(t, x, out);
    let ys = tr.temp(t, y, out);
    let xu = tr.temp(u, b.cast(u, xs.clone()), out);
    let yu = tr.temp(u, b.cast(u, ys.clone()), out);
    let mask = || b.int(0xffff_ffff, u);
    let sh = || b.int(32, ScalarType::U32);
    let lo = |e: &Expr| b.bin(BitAnd, e.clone(), mask());
    let hi = |e: &Expr| b.bin(Shr, e.clone(), sh());
    let p0 = tr.temp(u, b.bin(Mul, lo(&xu), lo(&yu)), out);
    let p1 = tr.temp(u, b.bin(Mul, lo(&xu), hi(&yu)), out);
    let p2 = tr.temp(u, b.bin(Mul, hi(&xu), lo(&yu)), out);
    let p3 = tr.temp(u, b.bin(Mul, hi(&xu), hi(&yu)), out);
    let mid = tr.temp(u, b.bin(Add, b.bin(Add, hi(&p0), lo(&p1)), lo(&p2)), out);
    let mut h = b.bin(Add, b.bin(Add, b.bin(Add, p3, hi(&p1)), hi(&p2)), hi(&mid));
    if t.is_signed() {
        let zero = || b.int(0, t);
        let fix = |neg: &Expr, other: &Expr| {
            b.cond(b.bin(Lt, neg.clone(), zero()), other.clone(), b.int(0, u))
        };
        h = b.bin(Sub, b.bin(Sub, h, fix(&xs, &yu)), fix(&ys, &xu));
    }
    Ok((b.cast(t, h), t))
}

/// `add.cc`, `addc`, `sub.cc`, `subc`, `mad{.lo,.hi}.cc`, `madc`.
fn carry(tr: &mut Tr, i: &Instruction, t: ScalarType, out: &mut Vec<Stmt>) -> Step {
    only(i, &["cc", "lo", "hi"])?;
    if t.bits() < 32 {
        return Err(Some("a carry chain narrower than 32 bits".into()));
    }
    let b = tr.b;
    let u = wide(t);
    let name = i.opcode.as_str();
    let sets = i.modifiers.iter().any(|m| m == "cc");
    let uses = matches!(name, "addc" | "subc" | "madc");
    let cin = if uses {
        let cf = tr.carry.clone().ok_or_else(|| {
            Some("a carry read before an instruction of this `asm` statement sets it".to_string())
        })?;
        Some(b.cast(u, b.id(&cf)))
    } else {
        None
    };
    let (first, second) = match name {
        "add" | "addc" | "sub" | "subc" => (ur(tr, op(i, 1)?, t)?, ur(tr, op(i, 2)?, t)?),
        _ => {
            let lo_hi = if i.modifiers.iter().any(|m| m == "hi") {
                "hi"
            } else {
                "lo"
            };
            let fake = Instruction {
                modifiers: vec![lo_hi.into()],
                ..i.clone()
            };
            let (p, _) = product(tr, &fake, t, out)?;
            (b.cast(u, p), ur(tr, op(i, 3)?, t)?)
        }
    };
    let x = tr.temp(u, first, out);
    let y = tr.temp(u, second, out);
    let one = |c: Expr| b.cond(c, b.int(1, ScalarType::U32), b.int(0, ScalarType::U32));
    let (value, flag) = if matches!(name, "sub" | "subc") {
        let diff = tr.temp(u, b.bin(Sub, x.clone(), y.clone()), out);
        match cin {
            None => (diff, b.bin(Lt, x, y)),
            Some(c) => {
                let c = tr.temp(u, c, out);
                let v = b.bin(Sub, diff.clone(), c.clone());
                let borrow = b.bin(BinaryOp::Or, b.bin(Lt, x, y), b.bin(Lt, diff, c));
                (v, borrow)
            }
        }
    } else {
        let sum = tr.temp(u, b.bin(Add, x.clone(), y), out);
        match cin {
            None => (sum.clone(), b.bin(Lt, sum, x)),
            Some(c) => {
                let total = tr.temp(u, b.bin(Add, sum.clone(), c), out);
                let carry = b.bin(
                    BinaryOp::Or,
                    b.bin(Lt, sum.clone(), x),
                    b.bin(Lt, total.clone(), sum),
                );
                (total, carry)
            }
        }
    };
    let flag = if sets {
        Some(tr.temp(ScalarType::U32, one(flag), out))
    } else {
        None
    };
    why(tr.write(op(i, 0)?, b.cast(t, value), t, out))?;
    if let Some(f) = flag {
        let cf = match tr.carry.clone() {
            Some(cf) => cf,
            None => {
                let cf = tr.local("cf");
                tr.hoisted.push(b.decl(
                    b.ty(ScalarType::U32),
                    false,
                    &cf,
                    Some(b.int(0, ScalarType::U32)),
                ));
                tr.carry = Some(cf.clone());
                cf
            }
        };
        out.push(b.assign(b.id(&cf), f));
    }
    Ok(())
}

fn float(tr: &mut Tr, i: &Instruction, t: ScalarType, out: &mut Vec<Stmt>) -> Step {
    if t == ScalarType::F16 {
        return Err(Some("half-precision arithmetic in registers".into()));
    }
    only(i, ROUND)?;
    let b = tr.b;
    let f32_ = t == ScalarType::F32;
    let fname = |s32: &str, s64: &str| {
        if f32_ {
            s32.to_string()
        } else {
            s64.to_string()
        }
    };
    let rd = |k: usize| -> Result<Expr, Option<String>> { why(tr.read(op(i, k)?, t)) };
    let v = match i.opcode.as_str() {
        "add" => b.bin(Add, rd(1)?, rd(2)?),
        "sub" => b.bin(Sub, rd(1)?, rd(2)?),
        "mul" => b.bin(Mul, rd(1)?, rd(2)?),
        "div" => b.bin(Div, rd(1)?, rd(2)?),
        "neg" => b.un(warpsafe_cuda_front::ast::UnaryOp::Neg, rd(1)?),
        "abs" => b.call(&fname("fabsf", "fabs"), vec![rd(1)?]),
        "min" => b.call(&fname("fminf", "fmin"), vec![rd(1)?, rd(2)?]),
        "max" => b.call(&fname("fmaxf", "fmax"), vec![rd(1)?, rd(2)?]),
        "fma" | "mad" => b.call(&fname("fmaf", "fma"), vec![rd(1)?, rd(2)?, rd(3)?]),
        "sqrt" => b.call(&fname("sqrtf", "sqrt"), vec![rd(1)?]),
        "rcp" => b.bin(Div, b.float(1.0, t), rd(1)?),
        _ => return Err(None),
    };
    why(tr.write(op(i, 0)?, v, t, out))
}

/// `cvt.dst.src`: integer widths, integer-float and float-float conversions.
pub fn cvt(tr: &mut Tr, i: &Instruction, out: &mut Vec<Stmt>) -> Step {
    let b = tr.b;
    let [dt, st] = &i.types[..] else {
        return Err(Some("`cvt` without two types".into()));
    };
    let dt = ptx_ty(dt).ok_or_else(|| Some(format!("the type `.{dt}`")))?;
    let st = ptx_ty(st).ok_or_else(|| Some(format!("the type `.{st}`")))?;
    if i.modifiers.iter().any(|m| m == "sat") {
        return Err(Some("`.sat` conversions".into()));
    }
    let x = why(tr.read(op(i, 1)?, st))?;
    let r = |allowed: &[&str]| only(i, allowed);
    let round_int = |x: Expr, f32_: bool| -> Result<Expr, Option<String>> {
        let f = |a: &str, c: &str| if f32_ { a.to_string() } else { c.to_string() };
        let m = i.modifiers.iter().find(|m| *m != "ftz").map(String::as_str);
        Ok(match m {
            Some("rzi") => b.call(&f("truncf", "trunc"), vec![x]),
            Some("rmi") => b.call(&f("floorf", "floor"), vec![x]),
            Some("rpi") => b.call(&f("ceilf", "ceil"), vec![x]),
            Some(other) => return Err(Some(format!("the rounding `.{other}`"))),
            None => x,
        })
    };
    let v = match (dt.is_float(), st.is_float()) {
        (false, false) => {
            r(&[])?;
            b.cast(dt, x)
        }
        (true, false) => {
            r(&["rn"])?;
            b.cast(dt, x)
        }
        (false, true) => {
            r(&["rzi", "rmi", "rpi", "ftz"])?;
            let x = if i.modifiers.iter().any(|m| m == "rzi") {
                x
            } else {
                round_int(x, st == ScalarType::F32)?
            };
            b.cast(dt, x)
        }
        (true, true) if dt == st => {
            r(&["rzi", "rmi", "rpi", "ftz"])?;
            if st == ScalarType::F16 {
                return Err(Some("rounding a half-precision value".into()));
            }
            round_int(x, st == ScalarType::F32)?
        }
        (true, true) => {
            r(&["rn", "ftz"])?;
            if dt.bits() < st.bits() && !i.modifiers.iter().any(|m| m == "rn") {
                return Err(Some("a narrowing float conversion without `.rn`".into()));
            }
            b.cast(dt, x)
        }
    };
    let _ = out.len();
    why(tr.write(op(i, 0)?, v, dt, out))
}
