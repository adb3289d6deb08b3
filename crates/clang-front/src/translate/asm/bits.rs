//! Bit operations with PTX's definitions: logic on integers and predicates, shifts that
//! clamp their amount (`shl.b32 x, 40` is 0, `shr.s32` fills with the sign), `popc`, `clz`,
//! `brev` and `bfind` through the front end's exact expansions, `bfe`/`bfi` with their
//! position and length taken from the low byte, `prmt` (default mode), `shf` (funnel
//! shifts) and `lop3` (any truth table).

use super::build::{signed, unsigned};
use super::instr::{only, op, ty0, why, Step};
use super::regs::{bit_not, Tr};
use warpsafe_cuda_front::ast::{BinaryOp, Expr, Stmt};
use warpsafe_ir::ScalarType;
use warpsafe_ptx::Instruction;

use BinaryOp::*;

const U32: ScalarType = ScalarType::U32;

/// Logic, shifts and bit-field instructions.
pub fn bits(tr: &mut Tr, i: &Instruction, out: &mut Vec<Stmt>) -> Step {
    let t = ty0(i)?;
    let b = tr.b;
    let name = i.opcode.as_str();
    let d = op(i, 0)?;
    if t == ScalarType::Bool {
        only(i, &[])?;
        let rd = |k: usize| -> Result<Expr, Option<String>> { why(tr.read(op(i, k)?, t)) };
        let v = match name {
            "and" => b.bin(And, rd(1)?, rd(2)?),
            "or" => b.bin(Or, rd(1)?, rd(2)?),
            "xor" => b.bin(Ne, rd(1)?, rd(2)?),
            "not" => b.not(rd(1)?),
            _ => return Err(Some(format!("`{name}` on predicates"))),
        };
        return why(tr.write(d, v, t, out));
    }
    if t.is_float() {
        return Err(Some("bit operations on a floating type".into()));
    }
    let ut = unsigned(t);
    let w = u64::from(t.bits());
    // Operand `k` as the unsigned type of the instruction's width.
    let rd = |tr: &Tr, k: usize| -> Result<Expr, Option<String>> {
        Ok(b.cast(ut, why(tr.read(op(i, k)?, t))?))
    };
    let amount =
        |tr: &Tr, k: usize| -> Result<Expr, Option<String>> { why(tr.read(op(i, k)?, U32)) };
    let (v, vty) = match name {
        "and" | "or" | "xor" => {
            only(i, &[])?;
            let o = match name {
                "and" => BitAnd,
                "or" => BitOr,
                _ => BitXor,
            };
            (b.cast(ut, b.bin(o, rd(tr, 1)?, rd(tr, 2)?)), ut)
        }
        "not" => {
            only(i, &[])?;
            (bit_not(&b, rd(tr, 1)?, ut), ut)
        }
        "cnot" => {
            only(i, &[])?;
            let z = b.bin(Eq, rd(tr, 1)?, b.int(0, ut));
            (b.cond(z, b.int(1, ut), b.int(0, ut)), ut)
        }
        "shl" | "shr" => {
            only(i, &[])?;
            let n = tr.temp(U32, amount(tr, 2)?, out);
            let big = b.bin(Ge, n.clone(), b.int(w, U32));
            if name == "shl" || !t.is_signed() {
                let x = b.cast(wide(t), rd(tr, 1)?);
                let o = if name == "shl" { Shl } else { Shr };
                let s = b.cast(ut, b.bin(o, x, n));
                (b.cond(big, b.int(0, ut), s), ut)
            } else {
                // Arithmetic: shifting by the width or more leaves the sign everywhere.
                let st = if t.bits() > 32 {
                    ScalarType::I64
                } else {
                    ScalarType::I32
                };
                let x = tr.temp(st, b.cast(st, why(tr.read(op(i, 1)?, t))?), out);
                let top = b.int(u64::from(st.bits() - 1), U32);
                let clamped = b.cond(big, top, n);
                (b.cast(t, b.bin(Shr, x, clamped)), t)
            }
        }
        "popc" | "clz" | "brev" => {
            only(i, &[])?;
            let x = tr.temp(ut, rd(tr, 1)?, out);
            let f = match (name, w) {
                ("popc", 64) => "__popcll",
                ("popc", _) => "__popc",
                ("clz", 64) => "__clzll",
                ("clz", _) => "__clz",
                ("brev", 64) => "__brevll",
                _ => "__brev",
            };
            if w < 32 {
                return Err(Some(format!("`{name}` narrower than 32 bits")));
            }
            let e = expand(f, x, &b)?;
            if name == "brev" {
                (e, ut)
            } else {
                (b.cast(U32, e), U32)
            }
        }
        "bfind" => {
            only(i, &["shiftamt"])?;
            if w < 32 {
                return Err(Some("`bfind` narrower than 32 bits".into()));
            }
            let x = tr.temp(ut, rd(tr, 1)?, out);
            // For a signed value, the highest bit that differs from the sign.
            let x = if t.is_signed() {
                let neg = b.bin(Lt, b.cast(signed(t), x.clone()), b.int(0, signed(t)));
                tr.temp(ut, b.cond(neg, bit_not(&b, x.clone(), ut), x), out)
            } else {
                x
            };
            let clz = tr.temp(
                U32,
                b.cast(
                    U32,
                    expand(if w == 64 { "__clzll" } else { "__clz" }, x.clone(), &b)?,
                ),
                out,
            );
            let pos = if i.modifiers.iter().any(|m| m == "shiftamt") {
                clz
            } else {
                b.bin(Sub, b.int(w - 1, U32), clz)
            };
            let none = b.bin(Eq, x, b.int(0, ut));
            (b.cond(none, b.int(0xffff_ffff, U32), pos), U32)
        }
        "bfe" => {
            only(i, &[])?;
            let x = tr.temp(ut, rd(tr, 1)?, out);
            let pos = tr.temp(U32, b.bin(BitAnd, amount(tr, 2)?, b.int(0xff, U32)), out);
            let len = tr.temp(U32, b.bin(BitAnd, amount(tr, 3)?, b.int(0xff, U32)), out);
            (bfe(tr, t, x, pos, len, out), t)
        }
        "bfi" => {
            only(i, &[])?;
            let f = tr.temp(ut, rd(tr, 1)?, out);
            let base = tr.temp(ut, rd(tr, 2)?, out);
            let pos = tr.temp(U32, b.bin(BitAnd, amount(tr, 3)?, b.int(0xff, U32)), out);
            let len = tr.temp(U32, b.bin(BitAnd, amount(tr, 4)?, b.int(0xff, U32)), out);
            let wide_t = wide(t);
            let ones = b.cond(
                b.bin(Ge, len.clone(), b.int(w, U32)),
                b.cast(wide_t, bit_not(&b, b.int(0, ut), ut)),
                b.bin(
                    Sub,
                    b.bin(Shl, b.int(1, wide_t), len.clone()),
                    b.int(1, wide_t),
                ),
            );
            let m = b.cond(
                b.bin(Ge, pos.clone(), b.int(w, U32)),
                b.int(0, ut),
                b.cast(ut, b.bin(Shl, ones, pos.clone())),
            );
            let m = tr.temp(ut, m, out);
            let put = b.bin(
                BitOr,
                b.bin(BitAnd, base.clone(), bit_not(&b, m.clone(), ut)),
                b.bin(
                    BitAnd,
                    b.cast(ut, b.bin(Shl, b.cast(wide_t, f), pos.clone())),
                    m,
                ),
            );
            let skip = b.bin(
                Or,
                b.bin(Eq, len, b.int(0, U32)),
                b.bin(Ge, pos, b.int(w, U32)),
            );
            (b.cond(skip, base, b.cast(ut, put)), ut)
        }
        "prmt" => {
            only(i, &[])?;
            let lo = b.cast(ScalarType::U64, rd(tr, 1)?);
            let hi = b.cast(ScalarType::U64, rd(tr, 2)?);
            let x = tr.temp(
                ScalarType::U64,
                b.bin(BitOr, lo, b.bin(Shl, hi, b.int(32, U32))),
                out,
            );
            let c = tr.temp(U32, amount(tr, 3)?, out);
            let mut acc: Option<Expr> = None;
            for k in 0..4u64 {
                let nib = b.bin(Shr, c.clone(), b.int(4 * k, U32));
                let sel = b.bin(BitAnd, nib.clone(), b.int(7, U32));
                let byte = tr.temp(
                    U32,
                    b.cast(
                        U32,
                        b.bin(
                            BitAnd,
                            b.bin(Shr, x.clone(), b.bin(Mul, sel, b.int(8, U32))),
                            b.int(0xff, ScalarType::U64),
                        ),
                    ),
                    out,
                );
                let sign = b.bin(Ne, b.bin(BitAnd, nib, b.int(8, U32)), b.int(0, U32));
                let neg = b.bin(
                    Ne,
                    b.bin(BitAnd, byte.clone(), b.int(0x80, U32)),
                    b.int(0, U32),
                );
                let rep = b.cond(neg, b.int(0xff, U32), b.int(0, U32));
                let v = b.cond(sign, rep, byte);
                let v = b.bin(Shl, v, b.int(8 * k, U32));
                acc = Some(match acc {
                    None => v,
                    Some(a) => b.bin(BitOr, a, v),
                });
            }
            (b.cast(U32, acc.unwrap_or_else(|| b.int(0, U32))), U32)
        }
        "shf" => {
            let left = i.modifiers.iter().any(|m| m == "l");
            let clamp = i.modifiers.iter().any(|m| m == "clamp");
            only(i, &["l", "r", "wrap", "clamp"])?;
            if w != 32 {
                return Err(Some("`shf` on a width other than 32".into()));
            }
            let lo = b.cast(ScalarType::U64, rd(tr, 1)?);
            let hi = b.cast(ScalarType::U64, rd(tr, 2)?);
            let x = tr.temp(
                ScalarType::U64,
                b.bin(BitOr, lo, b.bin(Shl, hi, b.int(32, U32))),
                out,
            );
            let c = tr.temp(U32, amount(tr, 3)?, out);
            let n = if clamp {
                b.cond(b.bin(Gt, c.clone(), b.int(32, U32)), b.int(32, U32), c)
            } else {
                b.bin(BitAnd, c, b.int(31, U32))
            };
            let n = tr.temp(U32, n, out);
            let v = if left {
                b.bin(Shr, b.bin(Shl, x, n), b.int(32, U32))
            } else {
                b.bin(Shr, x, n)
            };
            (b.cast(U32, v), U32)
        }
        "lop3" => {
            only(i, &[])?;
            let lut = tr
                .konst(op(i, 4)?)
                .ok_or_else(|| Some("a `lop3` truth table that is not a constant".to_string()))?;
            let a = tr.temp(ut, rd(tr, 1)?, out);
            let bb = tr.temp(ut, rd(tr, 2)?, out);
            let c = tr.temp(ut, rd(tr, 3)?, out);
            let lit = |v: &Expr, on: bool| {
                if on {
                    v.clone()
                } else {
                    bit_not(&b, v.clone(), ut)
                }
            };
            let mut acc: Option<Expr> = None;
            for k in 0..8u32 {
                if (lut >> k) & 1 == 0 {
                    continue;
                }
                let term = b.bin(
                    BitAnd,
                    b.bin(BitAnd, lit(&a, k & 4 != 0), lit(&bb, k & 2 != 0)),
                    lit(&c, k & 1 != 0),
                );
                acc = Some(match acc {
                    None => term,
                    Some(x) => b.bin(BitOr, x, term),
                });
            }
            (b.cast(ut, acc.unwrap_or_else(|| b.int(0, ut))), ut)
        }
        _ => return Err(None),
    };
    why(tr.write(d, v, vty, out))
}

/// The computing type of shifts (C promotes narrower values to `int`; stay unsigned).
fn wide(t: ScalarType) -> ScalarType {
    if t.bits() > 32 {
        ScalarType::U64
    } else {
        U32
    }
}

/// `bfe`: `len` bits of `x` from `pos`, zero- or sign-extended (PTX's definition, with bits
/// past the top read as zero, or as the sign for signed types).
fn bfe(tr: &mut Tr, t: ScalarType, x: Expr, pos: Expr, len: Expr, out: &mut Vec<Stmt>) -> Expr {
    let b = tr.b;
    let ut = unsigned(t);
    let w = u64::from(t.bits());
    let wt = wide(t);
    if !t.is_signed() {
        let shifted = b.cond(
            b.bin(Ge, pos.clone(), b.int(w, U32)),
            b.int(0, wt),
            b.bin(Shr, b.cast(wt, x), pos),
        );
        let ones = b.cond(
            b.bin(Ge, len.clone(), b.int(w, U32)),
            b.cast(wt, bit_not(&b, b.int(0, ut), ut)),
            b.bin(Sub, b.bin(Shl, b.int(1, wt), len), b.int(1, wt)),
        );
        return b.cast(t, b.bin(BitAnd, shifted, ones));
    }
    // Signed: the field's top bit (or the value's, past the top) fills the rest.
    let st = if w > 32 {
        ScalarType::I64
    } else {
        ScalarType::I32
    };
    let sw = u64::from(st.bits());
    let end = tr.temp(
        U32,
        b.cond(
            b.bin(Gt, b.bin(Add, pos.clone(), len.clone()), b.int(w, U32)),
            b.int(w, U32),
            b.bin(Add, pos.clone(), len.clone()),
        ),
        out,
    );
    // Left-align the field's end at the top of the computing type, then shift back.
    let up = b.cast(
        st,
        b.bin(
            Shl,
            b.cast(wt, x.clone()),
            b.bin(Sub, b.int(sw, U32), end.clone()),
        ),
    );
    let field = b.bin(
        Shr,
        up.clone(),
        b.bin(Sub, b.bin(Add, b.int(sw, U32), pos.clone()), end),
    );
    let sign_all = b.bin(
        Shr,
        b.cast(st, b.bin(Shl, b.cast(wt, x), b.int(sw - w, U32))),
        b.int(sw - 1, U32),
    );
    let e = b.cond(
        b.bin(Eq, len, b.int(0, U32)),
        b.int(0, st),
        b.cond(b.bin(Ge, pos, b.int(w, U32)), sign_all, field),
    );
    b.cast(t, e)
}

/// One of the front end's exact bit-intrinsic expansions, applied to the simple `x`.
fn expand(f: &str, x: Expr, b: &super::build::B) -> Result<Expr, Option<String>> {
    match super::super::intrinsics::expand(f, &[x], b.span) {
        Some(Ok(kind)) => Ok(b.e(kind)),
        Some(Err(e)) => Err(Some(e)),
        None => Err(Some(format!("`{f}`"))),
    }
}
