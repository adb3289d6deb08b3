//! Division and remainder by a constant, recovered from the magic-number sequences NVRTC
//! emits for them (`mul.hi` by a constant, shifts, the "add indicator" `sub/shr 1/add`, the
//! signed sign-bit correction, then `mul.lo`/`sub` for a remainder), and a signed division by
//! `2^k` from its bias sequence (`x + ((x >> (w−1)) >>> (w−k))`, then `>> k`).
//!
//! Why here and not in the algebra: the pattern is only visible on PTX instructions; once
//! lowered, a 64-bit `mul.hi` is a dozen 32-bit-half operations whose term no normal form
//! relates to `x / d`. Every rewrite is an identity on machine values, proved for all inputs
//! of the operand's type by [`magic`](super::magic) before it is made, so the concrete
//! interpreter and the symbolic executor both see the same, exact `x / d` or `x % d`.
//!
//! The tracker follows one basic block at a time: it knows, for some PTX registers, an exact
//! closed form in terms of another register `x` that has not been written since; any write
//! to a register forgets the forms of that register and the forms built on it, and labels
//! forget everything (control flow may join there). Guarded instructions teach nothing.

use super::magic::{signed_divisor, unsigned_divisor};
use super::types::{Kind, PtxType};
use crate::ast::{Immediate, Instruction, Operand};
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::HashMap;
use warpsafe_exec::thread::code::Reg;
use warpsafe_ir::ScalarType;

/// The operand every form is a function of: a PTX register read as an `bits`-bit integer.
#[derive(Clone, Debug, PartialEq)]
struct Src {
    name: String,
    reg: Reg,
    bits: u32,
}

/// An exact closed form of a register's value.
#[derive(Clone, Debug)]
enum Form {
    /// `floor(x·m / 2^s)`, `x` unsigned.
    UScaled { m: BigUint, s: u32 },
    /// `x − floor(x·m / 2^s)` (with `m < 2^s`, so `0 ≤ value ≤ x`).
    Diff { m: BigUint, s: u32 },
    /// `floor((x − floor(x·m / 2^s)) / 2)`.
    HalfDiff { m: BigUint, s: u32 },
    /// `floor(x·m / 2^s)`, `x` signed.
    SScaled { m: BigInt, s: u32 },
    /// `[x·m < 0]` for some `m` whose sign is `negative`.
    Sign { negative: bool },
    /// `x / d`, truncating, proved.
    Quot { d: BigInt, signed: bool },
    /// `c · (x / d)` with `c = ±d`.
    Multiple { d: BigInt, signed: bool, c: BigInt },
    /// `x >> (bits − 1)`, `x` signed: `−1` when `x < 0`, else `0`.
    SignMask,
    /// `2^k − 1` when `x < 0`, else `0` (the sign mask shifted right logically).
    Bias { k: u32 },
    /// `x + (2^k − 1 when x < 0)`: never wraps, so an arithmetic `>> k` of it is `x / 2^k`.
    Biased { k: u32 },
}

/// A form held by a register of `width` bits.
#[derive(Clone, Debug)]
struct Known {
    x: Src,
    form: Form,
    width: u32,
}

/// What to emit instead of an instruction's plain translation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Rewrite {
    /// `dst = (to) (x / d)`, the division done in `ty`.
    Quot {
        x: Reg,
        ty: ScalarType,
        d: u64,
        to: ScalarType,
    },
    /// `dst = x % d` in `ty`, negated when `negate`.
    Rem {
        x: Reg,
        ty: ScalarType,
        d: u64,
        negate: bool,
    },
}

/// What an instruction taught: its destination's form and the rewrite to emit.
type Learned = (Option<Known>, Option<Rewrite>);

/// The registers with known forms in the current basic block.
#[derive(Default)]
pub(crate) struct Divisions {
    known: HashMap<String, Known>,
}

fn int_type(bits: u32, signed: bool) -> Option<ScalarType> {
    Some(match (bits, signed) {
        (32, false) => ScalarType::U32,
        (64, false) => ScalarType::U64,
        (32, true) => ScalarType::I32,
        (64, true) => ScalarType::I64,
        _ => return None,
    })
}

/// `v` reduced modulo `2^bits`, as an unsigned and as a two's-complement signed value.
fn imm_values(v: i128, bits: u32) -> (BigUint, BigInt) {
    let modulus = BigInt::one() << bits;
    let mut u = BigInt::from(v) % &modulus;
    if u.is_negative() {
        u += &modulus;
    }
    let s = if u >= (BigInt::one() << (bits - 1)) {
        &u - &modulus
    } else {
        u.clone()
    };
    (u.magnitude().clone(), s)
}

/// The bits of `d` as a register of `ty` holds them.
fn const_bits(d: &BigInt, ty: ScalarType) -> Option<u64> {
    let v = d.to_i64()?;
    Some(match ty {
        ScalarType::I32 | ScalarType::U32 => v as u32 as u64,
        _ => v as u64,
    })
}

fn reg_name(op: Option<&Operand>) -> Option<&str> {
    match op {
        Some(Operand::Reg(r)) => Some(r),
        _ => None,
    }
}

fn imm(op: Option<&Operand>) -> Option<i128> {
    match op {
        Some(Operand::Imm(Immediate::Int(v))) => Some(*v),
        _ => None,
    }
}

/// Registers `i` may write: its first operand and the parts of a pair or vector there.
fn written(i: &Instruction) -> Vec<&str> {
    match i.operands.first() {
        Some(Operand::Reg(r)) => vec![r],
        Some(Operand::Pair(a, b)) => vec![a, b],
        Some(Operand::Vector(v)) => v.iter().filter_map(|o| reg_name(Some(o))).collect(),
        _ => vec![],
    }
}

impl Divisions {
    /// Forgets everything (at a label).
    pub fn clear(&mut self) {
        self.known.clear();
    }

    /// Learns what `i` computes and returns the rewrite to emit when it completes a division
    /// or remainder by a constant. `reg` gives a declared register's thread-code register and
    /// type.
    pub fn step(
        &mut self,
        i: &Instruction,
        reg: &dyn Fn(&str) -> Option<(Reg, PtxType)>,
    ) -> Option<Rewrite> {
        let learned = if i.pred.is_none() {
            self.learn(i, reg)
        } else {
            None
        };
        for w in written(i) {
            self.known.remove(w);
            self.known.retain(|_, k| k.x.name != w);
        }
        let (known, rewrite) = learned?;
        let dst = reg_name(i.operands.first())?;
        if let Some(k) = known.filter(|k| k.x.name != dst) {
            self.known.insert(dst.to_string(), k);
        }
        rewrite
    }

    fn get(&self, op: Option<&Operand>) -> Option<&Known> {
        self.known.get(reg_name(op)?)
    }

    fn learn(
        &self,
        i: &Instruction,
        reg: &dyn Fn(&str) -> Option<(Reg, PtxType)>,
    ) -> Option<Learned> {
        let t = PtxType::parse(i.types.first()?)?;
        if !matches!(t.kind, Kind::Signed | Kind::Unsigned | Kind::Bits) {
            return None;
        }
        let logical = t.kind != Kind::Signed;
        let has = |m: &str| i.modifiers.iter().any(|x| x == m);
        let ops = &i.operands;
        let (a, b) = (ops.get(1), ops.get(2));
        match i.opcode.as_str() {
            "mul" if has("hi") || (has("wide") && t.bits == 32) => {
                let (x, v) = match (reg_name(a), imm(b), imm(a), reg_name(b)) {
                    (Some(x), Some(v), _, _) | (_, _, Some(v), Some(x)) => (x, v),
                    _ => return None,
                };
                let (r, rt) = reg(x)?;
                if rt.bits != t.bits {
                    return None;
                }
                let x = Src {
                    name: x.to_string(),
                    reg: r,
                    bits: t.bits,
                };
                let (mu, ms) = imm_values(v, t.bits);
                let (s, width) = if has("hi") {
                    (t.bits, t.bits)
                } else {
                    (0, 2 * t.bits)
                };
                let form = if logical {
                    Form::UScaled { m: mu, s }
                } else {
                    Form::SScaled { m: ms, s }
                };
                self.settle(x, form, width)
            }
            "mul" if has("lo") => {
                let (q, c) = match (self.get(a), imm(b), imm(a), self.get(b)) {
                    (Some(q), Some(c), _, _) | (_, _, Some(c), Some(q)) => (q, c),
                    _ => return None,
                };
                let Form::Quot { d, signed } = &q.form else {
                    return None;
                };
                if q.width != t.bits || q.x.bits != t.bits {
                    return None;
                }
                let c = multiple_of(c, d, t.bits)?;
                let form = Form::Multiple {
                    d: d.clone(),
                    signed: *signed,
                    c,
                };
                Some((self.with(q, form, t.bits), None))
            }
            "mad" if has("lo") => {
                let (q, c) = match (self.get(a), imm(b), imm(a), self.get(b)) {
                    (Some(q), Some(c), _, _) | (_, _, Some(c), Some(q)) => (q, c),
                    _ => return None,
                };
                let Form::Quot { d, signed } = &q.form else {
                    return None;
                };
                let c = multiple_of(c, d, t.bits)?;
                let x = reg_name(ops.get(3))?;
                if x != q.x.name || q.width != t.bits || q.x.bits != t.bits || c != -d {
                    return None;
                }
                Some((None, Some(rem(q, d, *signed, false)?)))
            }
            // Signed division by 2^k: `x + ((x >> (bits−1)) >>> (bits−k))`, then `>> k`.
            "shr"
                if !logical && imm(b) == Some(i128::from(t.bits) - 1) && self.get(a).is_none() =>
            {
                let x = reg_name(a)?;
                let (r, rt) = reg(x)?;
                if rt.bits != t.bits {
                    return None;
                }
                let x = Src {
                    name: x.to_string(),
                    reg: r,
                    bits: t.bits,
                };
                let form = Form::SignMask;
                Some((
                    Some(Known {
                        x,
                        form,
                        width: t.bits,
                    }),
                    None,
                ))
            }
            "shr"
                if matches!(
                    self.get(a).map(|k| &k.form),
                    Some(Form::SignMask | Form::Biased { .. })
                ) =>
            {
                let src = self.get(a)?;
                let k = u32::try_from(imm(b)?).ok()?;
                if src.width != t.bits || src.x.bits != t.bits || k == 0 || k >= t.bits {
                    return None;
                }
                match src.form {
                    Form::SignMask if logical => {
                        Some((self.with(src, Form::Bias { k: t.bits - k }, t.bits), None))
                    }
                    Form::Biased { k: kb } if !logical && kb == k => {
                        self.quotient(src.x.clone(), BigInt::one() << k, true, t.bits)
                    }
                    _ => None,
                }
            }
            "shr" => {
                let src = self.get(a)?;
                let k = u32::try_from(imm(b)?).ok()?;
                if src.width != t.bits || k >= t.bits {
                    return None;
                }
                match &src.form {
                    Form::UScaled { m, s } if logical => self.settle(
                        src.x.clone(),
                        Form::UScaled {
                            m: m.clone(),
                            s: s + k,
                        },
                        t.bits,
                    ),
                    Form::Diff { m, s } if logical && k == 1 => Some((
                        self.with(
                            src,
                            Form::HalfDiff {
                                m: m.clone(),
                                s: *s,
                            },
                            t.bits,
                        ),
                        None,
                    )),
                    Form::SScaled { m, .. } if logical && k == t.bits - 1 && !m.is_zero() => {
                        Some((
                            self.with(
                                src,
                                Form::Sign {
                                    negative: m.is_negative(),
                                },
                                t.bits,
                            ),
                            None,
                        ))
                    }
                    Form::SScaled { m, s } if !logical => self.settle(
                        src.x.clone(),
                        Form::SScaled {
                            m: m.clone(),
                            s: s + k,
                        },
                        t.bits,
                    ),
                    _ => None,
                }
            }
            "cvt" => {
                let from = PtxType::parse(i.types.get(1)?)?;
                let src = self.get(a)?;
                if !logical || from.kind == Kind::Float || from.bits != src.width {
                    return None;
                }
                if !i.modifiers.is_empty() || t.bits > from.bits {
                    return None;
                }
                match &src.form {
                    Form::UScaled { .. } | Form::Quot { signed: false, .. } => {
                        self.settle(src.x.clone(), src.form.clone(), t.bits)
                    }
                    _ => None,
                }
            }
            "sub" => {
                let (xa, kb) = (reg_name(a), self.get(b));
                if let (Some(x), Some(k)) = (xa, kb) {
                    if k.x.name == x && k.x.bits == t.bits && k.width == t.bits {
                        match &k.form {
                            Form::UScaled { m, s } if m < &(BigUint::one() << *s) => {
                                let form = Form::Diff {
                                    m: m.clone(),
                                    s: *s,
                                };
                                return Some((self.with(k, form, t.bits), None));
                            }
                            Form::Multiple { d, signed, c } if c == d => {
                                return Some((None, Some(rem(k, d, *signed, false)?)));
                            }
                            _ => {}
                        }
                    }
                }
                let (ka, xb) = (self.get(a), reg_name(b));
                let (k, x) = (ka?, xb?);
                match &k.form {
                    Form::Multiple { d, signed, c }
                        if c == d && k.x.name == x && k.x.bits == t.bits && k.width == t.bits =>
                    {
                        Some((None, Some(rem(k, d, *signed, true)?)))
                    }
                    _ => None,
                }
            }
            "add" => {
                let pairs = [(a, b), (b, a)];
                for (p, q) in pairs {
                    let Some(kp) = self.get(p) else { continue };
                    if kp.width != t.bits {
                        continue;
                    }
                    if let (Form::Bias { k }, Some(x)) = (&kp.form, reg_name(q)) {
                        if x == kp.x.name && kp.x.bits == t.bits {
                            return Some((self.with(kp, Form::Biased { k: *k }, t.bits), None));
                        }
                        continue;
                    }
                    if let Some(x) = reg_name(q) {
                        if x == kp.x.name && kp.x.bits == t.bits {
                            match &kp.form {
                                Form::SScaled { m, s } => {
                                    let m = m + (BigInt::one() << *s);
                                    let form = Form::SScaled { m, s: *s };
                                    return self.settle(kp.x.clone(), form, t.bits);
                                }
                                Form::Multiple { d, signed, c } if c == &-d => {
                                    return Some((None, Some(rem(kp, d, *signed, false)?)));
                                }
                                _ => {}
                            }
                        }
                    }
                    let Some(kq) = self.get(q) else { continue };
                    if kq.x != kp.x || kq.width != t.bits {
                        continue;
                    }
                    match (&kp.form, &kq.form) {
                        (Form::HalfDiff { m, s }, Form::UScaled { m: m2, s: s2 })
                            if m == m2 && s == s2 =>
                        {
                            let m = (BigUint::one() << *s) + m;
                            return self.settle(
                                kp.x.clone(),
                                Form::UScaled { m, s: s + 1 },
                                t.bits,
                            );
                        }
                        (Form::SScaled { m, s }, Form::Sign { negative })
                            if m.is_negative() == *negative =>
                        {
                            let d = signed_divisor(m, *s, kp.x.bits)?;
                            return self.quotient(kp.x.clone(), d, true, t.bits);
                        }
                        _ => {}
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// A known value with `k`'s operand.
    fn with(&self, k: &Known, form: Form, width: u32) -> Option<Known> {
        Some(Known {
            x: k.x.clone(),
            form,
            width,
        })
    }

    /// Records a scaled product when it fits its register, as a quotient (with its rewrite)
    /// when the magic constant is proved.
    fn settle(&self, x: Src, form: Form, width: u32) -> Option<Learned> {
        match &form {
            Form::UScaled { m, s } => {
                let max = (BigUint::one() << x.bits) - 1u8;
                if (&max * m) >> *s >= BigUint::one() << width {
                    return None;
                }
                if let Some(d) = unsigned_divisor(m, *s, &max) {
                    return self.quotient(x, BigInt::from(d), false, width);
                }
            }
            // |value| ≤ 2^(bits−1)·|m| / 2^s must stay below 2^(width−1).
            Form::SScaled { m, s }
                if x.bits > width || m.magnitude() >= &(BigUint::one() << (s + width - x.bits)) =>
            {
                return None;
            }
            Form::Quot { d, signed } => {
                return self.quotient(x, d.clone(), *signed, width);
            }
            _ => {}
        }
        Some((Some(Known { x, form, width }), None))
    }

    /// `x / d` in a register of `width` bits, and the rewrite computing it.
    fn quotient(&self, x: Src, d: BigInt, signed: bool, width: u32) -> Option<Learned> {
        let ty = int_type(x.bits, signed)?;
        let to = int_type(width, signed)?;
        if width < x.bits && d.magnitude() < &(BigUint::one() << (x.bits - width)) {
            return None;
        }
        let rw = Rewrite::Quot {
            x: x.reg,
            ty,
            d: const_bits(&d, ty)?,
            to,
        };
        let form = Form::Quot { d, signed };
        Some((Some(Known { x, form, width }), Some(rw)))
    }
}

/// `c` as `±d` (modulo `2^bits`), when it is one of them.
fn multiple_of(c: i128, d: &BigInt, bits: u32) -> Option<BigInt> {
    let (_, c) = imm_values(c, bits);
    let (_, dm) = imm_values(d.to_i128()?, bits);
    let (_, ndm) = imm_values((-d).to_i128()?, bits);
    if c == dm {
        Some(d.clone())
    } else if c == ndm {
        Some(-d)
    } else {
        None
    }
}

/// The remainder rewrite for the operand of `k`.
fn rem(k: &Known, d: &BigInt, signed: bool, negate: bool) -> Option<Rewrite> {
    let ty = int_type(k.x.bits, signed)?;
    if d.sign() == Sign::NoSign || d.is_zero() {
        return None;
    }
    Some(Rewrite::Rem {
        x: k.x.reg,
        ty,
        d: const_bits(d, ty)?,
        negate,
    })
}
