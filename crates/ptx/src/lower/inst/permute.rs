//! Byte permutes and funnel shifts on the 64-bit pair `{b, a}` (`b` high): `prmt`, `shf`.

use super::{bin, cast, full_name, has, Lowerer, Res};
use crate::ast::{Immediate, Instruction, Operand};
use crate::lower::LowerError;
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, Inst, Reg};
use warpsafe_ir::ScalarType;

const U32: ScalarType = ScalarType::U32;
const U64: ScalarType = ScalarType::U64;

impl Lowerer<'_> {
    /// `x = (u64) b << 32 | a` from operands 1 (`a`) and 2 (`b`).
    fn pair(&mut self, i: &Instruction) -> Res<Reg> {
        let a = self.src(i, 1, U32)?;
        let b = self.src(i, 2, U32)?;
        let (x, y) = (self.e.temp(), self.e.temp());
        let k32 = self.e.konst(32, U32);
        self.e.emit(cast(U32, U64, x, b));
        self.e.emit(bin(BinaryOp::Shl, U64, x, x, k32));
        self.e.emit(cast(U32, U64, y, a));
        self.e.emit(bin(BinaryOp::Or, U64, x, x, y));
        Ok(x)
    }

    /// `prmt.b32 d, a, b, c` (default mode): byte `k` of `d` is byte `c[4k..4k+3]` of
    /// `{b, a}`, or that byte's sign bit replicated when bit `4k+3` of `c` is set.
    pub(super) fn prmt(&mut self, i: &Instruction) -> Res<()> {
        if let Some(m) = i.modifiers.first() {
            return Err(LowerError::at(
                i,
                format!(
                    "`{}`: the `.{m}` mode of `prmt` is not supported",
                    full_name(i, "prmt")
                ),
            ));
        }
        let d = self.dst(i, 0)?;
        let x = self.pair(i)?;
        let selector = match i.operands.get(3) {
            Some(Operand::Imm(Immediate::Int(c))) => Err(*c as u64),
            _ => Ok(self.src(i, 3, U32)?),
        };
        let (kff, k7, k8, k3) = (
            self.e.konst(0xff, U64),
            self.e.konst(7, U32),
            self.e.konst(8, U32),
            self.e.konst(3, U32),
        );
        let acc = self.e.temp();
        let zero = self.e.konst(0, U64);
        self.e.emit(Inst::Mov {
            dst: acc,
            src: zero,
        });
        let (byte, s, t) = (self.e.temp(), self.e.temp(), self.e.temp());
        for k in 0..4u64 {
            match selector {
                Err(c) => {
                    let sel = (c >> (4 * k)) & 0xf;
                    let sh = self.e.konst((sel & 7) * 8, U32);
                    self.e.emit(bin(BinaryOp::Shr, U64, byte, x, sh));
                    self.e.emit(bin(BinaryOp::And, U64, byte, byte, kff));
                    if sel & 8 != 0 {
                        self.e.emit(bin(BinaryOp::Shr, U64, byte, byte, k7));
                        self.e.emit(bin(BinaryOp::Mul, U64, byte, byte, kff));
                    }
                }
                Ok(c) => {
                    // s = ((c >> 4k) & 7) * 8; sign = (c >> (4k + 3)) & 1
                    let k4 = self.e.konst(4 * k, U32);
                    let sign = self.e.temp();
                    let one = self.e.konst(1, U32);
                    self.e.emit(bin(BinaryOp::Shr, U32, s, c, k4));
                    self.e.emit(bin(BinaryOp::Shr, U32, sign, s, k3));
                    self.e.emit(bin(BinaryOp::And, U32, sign, sign, one));
                    self.e.emit(bin(BinaryOp::And, U32, s, s, k7));
                    self.e.emit(bin(BinaryOp::Mul, U32, s, s, k8));
                    self.e.emit(bin(BinaryOp::Shr, U64, byte, x, s));
                    self.e.emit(bin(BinaryOp::And, U64, byte, byte, kff));
                    self.e.emit(bin(BinaryOp::Shr, U64, t, byte, k7));
                    self.e.emit(bin(BinaryOp::Mul, U64, t, t, kff));
                    let c0 = self.e.konst(0, U32);
                    let on = self.e.temp();
                    self.e.emit(Inst::Cmp {
                        op: CmpOp::Ne,
                        ty: U32,
                        dst: on,
                        a: sign,
                        b: c0,
                    });
                    self.e.emit(Inst::Select {
                        dst: byte,
                        cond: on,
                        a: t,
                        b: byte,
                    });
                }
            }
            if k > 0 {
                let sh = self.e.konst(8 * k, U32);
                self.e.emit(bin(BinaryOp::Shl, U64, byte, byte, sh));
            }
            self.e.emit(bin(BinaryOp::Or, U64, acc, acc, byte));
        }
        self.e.emit(cast(U64, U32, d, acc));
        Ok(())
    }

    /// `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c`: the high (`.l`) or low (`.r`) word of
    /// `{b, a}` shifted by `c & 31` (`.wrap`) or `min(c, 32)` (`.clamp`).
    pub(super) fn funnel_shift(&mut self, i: &Instruction) -> Res<()> {
        let left = has(i, "l");
        if left == has(i, "r") || has(i, "wrap") == has(i, "clamp") {
            return Err(LowerError::at(
                i,
                format!(
                    "`{}` needs one of .l/.r and one of .wrap/.clamp",
                    full_name(i, "shf")
                ),
            ));
        }
        let d = self.dst(i, 0)?;
        let x = self.pair(i)?;
        let c = self.src(i, 3, U32)?;
        let n = self.e.temp();
        if has(i, "wrap") {
            let k31 = self.e.konst(31, U32);
            self.e.emit(bin(BinaryOp::And, U32, n, c, k31));
        } else {
            let k32 = self.e.konst(32, U32);
            self.e.emit(bin(BinaryOp::Min, U32, n, c, k32));
        }
        let y = self.e.temp();
        if left {
            let k32 = self.e.konst(32, U32);
            self.e.emit(bin(BinaryOp::Shl, U64, y, x, n));
            self.e.emit(bin(BinaryOp::Shr, U64, y, y, k32));
        } else {
            self.e.emit(bin(BinaryOp::Shr, U64, y, x, n));
        }
        self.e.emit(cast(U64, U32, d, y));
        Ok(())
    }
}
