//! Bit-field instructions built from shifts, masks and population counts: `bfe`, `clz`,
//! `bfind`, `brev`.

use super::{bin, Lowerer, Res};
use crate::ast::Instruction;
use crate::lower::types::width;
use crate::lower::LowerError;
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, Inst, Reg, UnaryOp};
use warpsafe_ir::ScalarType;

impl Lowerer<'_> {
    /// `bfe.{u,s}{32,64} d, a, pos, len`: bits `pos .. pos+len` of `a` (both clamped to
    /// `0..=255`), zero-extended, or for signed types sign-extended from the field's top bit
    /// (bit `msb` when the field runs past it); `len == 0` gives 0. With
    /// `top = min(pos + len, W)` that is `(a << (W − top)) >> (W − (top − min(pos, W)))`,
    /// the right shift arithmetic for signed types.
    pub(super) fn bfe(&mut self, i: &Instruction) -> Res<()> {
        let t = self.scalar(i, 0)?;
        if t.is_float() || t == ScalarType::Bool {
            return Err(LowerError::at(i, "`bfe` needs an integer type"));
        }
        let u = ScalarType::U32;
        let d = self.dst(i, 0)?;
        let a = self.src(i, 1, t)?;
        let pos = self.src(i, 2, u)?;
        let len = self.src(i, 3, u)?;
        let w = u64::from(width(t));
        let (k255, kw, zero_u) = (self.e.konst(255, u), self.e.konst(w, u), self.e.konst(0, u));
        let zero = self.e.konst(0, t);
        let r: Vec<_> = (0..8).map(|_| self.e.temp()).collect();
        let (p, l, top, left, field, right, x, empty) =
            (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
        self.e.emit(bin(BinaryOp::And, u, p, pos, k255));
        self.e.emit(bin(BinaryOp::Min, u, p, p, kw));
        self.e.emit(bin(BinaryOp::And, u, l, len, k255));
        self.e.emit(bin(BinaryOp::Add, u, top, p, l));
        self.e.emit(bin(BinaryOp::Min, u, top, top, kw));
        self.e.emit(bin(BinaryOp::Sub, u, left, kw, top));
        self.e.emit(bin(BinaryOp::Sub, u, field, top, p));
        self.e.emit(bin(BinaryOp::Sub, u, right, kw, field));
        self.e.emit(bin(BinaryOp::Shl, t, x, a, left));
        self.e.emit(bin(BinaryOp::Shr, t, x, x, right));
        self.e.emit(Inst::Cmp {
            op: CmpOp::Eq,
            ty: u,
            dst: empty,
            a: l,
            b: zero_u,
        });
        self.e.emit(Inst::Select {
            dst: d,
            cond: empty,
            a: zero,
            b: x,
        });
        Ok(())
    }

    /// `clz.b{32,64} d, a`: leading zeros.
    pub(super) fn clz(&mut self, i: &Instruction) -> Res<()> {
        let t = self.unsigned_bits(i)?;
        let d = self.dst(i, 0)?;
        let a = self.src(i, 1, t)?;
        self.leading_zeros(t, d, a);
        Ok(())
    }

    /// `d = ` the leading zeros of `a` (unsigned `t`) as `u32`: `W − popc(a smeared right)`.
    fn leading_zeros(&mut self, t: ScalarType, d: Reg, a: Reg) {
        let x = self.e.temp();
        let y = self.e.temp();
        self.e.emit(Inst::Mov { dst: x, src: a });
        let mut s = 1;
        while s < width(t) {
            let k = self.e.konst(u64::from(s), ScalarType::U32);
            self.e.emit(bin(BinaryOp::Shr, t, y, x, k));
            self.e.emit(bin(BinaryOp::Or, t, x, x, y));
            s *= 2;
        }
        let n = self.e.temp();
        self.popc(t, n, x);
        let kw = self.e.konst(u64::from(width(t)), ScalarType::U32);
        self.e.emit(bin(BinaryOp::Sub, ScalarType::U32, d, kw, n));
    }

    /// `bfind[.shiftamt].{u,s}{32,64} d, a`: the bit position of the most significant
    /// non-sign bit of `a` (for negative signed `a`, of `!a`), or with `.shiftamt` the left
    /// shift that moves it to the top; `0xffffffff` when there is none.
    pub(super) fn bfind(&mut self, i: &Instruction) -> Res<()> {
        let st = self.scalar(i, 0)?;
        let t = self.unsigned_bits(i)?;
        let d = self.dst(i, 0)?;
        let a = self.src(i, 1, st)?;
        let u = ScalarType::U32;
        let x = self.e.temp();
        if matches!(st, ScalarType::I32 | ScalarType::I64) {
            let (neg, inv) = (self.e.temp(), self.e.temp());
            let zero = self.e.konst(0, st);
            self.e.emit(Inst::Cmp {
                op: CmpOp::Lt,
                ty: st,
                dst: neg,
                a,
                b: zero,
            });
            self.e.emit(Inst::Unary {
                op: UnaryOp::BitNot,
                ty: t,
                dst: inv,
                a,
                checked: false,
            });
            self.e.emit(Inst::Select {
                dst: x,
                cond: neg,
                a: inv,
                b: a,
            });
        } else {
            self.e.emit(Inst::Mov { dst: x, src: a });
        }
        let n = self.e.temp();
        self.leading_zeros(t, n, x);
        let res = self.e.temp();
        if i.modifiers.iter().any(|m| m == "shiftamt") {
            self.e.emit(Inst::Mov { dst: res, src: n });
        } else {
            let top = self.e.konst(u64::from(width(t)) - 1, u);
            self.e.emit(bin(BinaryOp::Sub, u, res, top, n));
        }
        let (found, zero_t) = (self.e.temp(), self.e.konst(0, t));
        self.e.emit(Inst::Cmp {
            op: CmpOp::Ne,
            ty: t,
            dst: found,
            a: x,
            b: zero_t,
        });
        let none = self.e.konst(0xffff_ffff, u);
        self.e.emit(Inst::Select {
            dst: d,
            cond: found,
            a: res,
            b: none,
        });
        Ok(())
    }

    /// `brev.b{32,64} d, a`: the bits of `a` in reverse order, by swapping ever larger
    /// neighbouring groups.
    pub(super) fn brev(&mut self, i: &Instruction) -> Res<()> {
        let t = self.unsigned_bits(i)?;
        let d = self.dst(i, 0)?;
        let a = self.src(i, 1, t)?;
        let wide = width(t) == 64;
        let x = self.e.temp();
        let (hi, lo) = (self.e.temp(), self.e.temp());
        self.e.emit(Inst::Mov { dst: x, src: a });
        let steps: &[(u64, u64)] = &[
            (1, 0x5555_5555_5555_5555),
            (2, 0x3333_3333_3333_3333),
            (4, 0x0f0f_0f0f_0f0f_0f0f),
            (8, 0x00ff_00ff_00ff_00ff),
            (16, 0x0000_ffff_0000_ffff),
            (32, 0x0000_0000_ffff_ffff),
        ];
        for &(s, m) in steps.iter().take(if wide { 6 } else { 5 }) {
            let m = if wide { m } else { m & 0xffff_ffff };
            let (ks, km) = (self.e.konst(s, ScalarType::U32), self.e.konst(m, t));
            self.e.emit(bin(BinaryOp::Shr, t, hi, x, ks));
            self.e.emit(bin(BinaryOp::And, t, hi, hi, km));
            self.e.emit(bin(BinaryOp::And, t, lo, x, km));
            self.e.emit(bin(BinaryOp::Shl, t, lo, lo, ks));
            self.e.emit(bin(BinaryOp::Or, t, x, hi, lo));
        }
        self.e.emit(Inst::Mov { dst: d, src: x });
        Ok(())
    }

    /// The unsigned 32- or 64-bit type of a `.bN` instruction.
    fn unsigned_bits(&self, i: &Instruction) -> Res<ScalarType> {
        match self.scalar(i, 0)? {
            ScalarType::U32 | ScalarType::I32 => Ok(ScalarType::U32),
            ScalarType::U64 | ScalarType::I64 => Ok(ScalarType::U64),
            _ => Err(LowerError::at(
                i,
                format!("`{}` needs a 32- or 64-bit integer type", i.opcode),
            )),
        }
    }
}
