//! `mov` between a wide register and a vector of narrower ones: `mov.b64 %rd, {%r1, %r2}`
//! packs (element 0 in the low bits), `mov.b64 {%r1, %r2}, %fd` unpacks.

use super::{bin, cast, Lowerer, Res};
use crate::ast::{Instruction, Operand};
use crate::lower::types::int_type;
use crate::lower::LowerError;
use warpsafe_exec::thread::code::{BinaryOp, Inst};
use warpsafe_ir::ScalarType;

impl Lowerer<'_> {
    /// The whole width, the element width and the elements of a packing `mov`'s vector
    /// operand `n`.
    fn vector_shape<'o>(&self, i: &'o Instruction, n: usize) -> Res<(u32, u32, &'o [Operand])> {
        let bits = self.ptx_type(i, 0)?.bits;
        let Some(Operand::Vector(v)) = i.operands.get(n) else {
            return Err(LowerError::at(i, "expected a `{...}` vector operand"));
        };
        let k = v.len() as u32;
        if !matches!(bits, 32 | 64) || !matches!(k, 2 | 4) || bits / k < 8 {
            return Err(LowerError::at(
                i,
                format!("packing {k} registers into .b{bits} is not supported"),
            ));
        }
        Ok((bits, bits / k, v))
    }

    /// `mov.bN d, {a, b, ...}`.
    pub(super) fn pack(&mut self, i: &Instruction) -> Res<()> {
        let (bits, w, elems) = self.vector_shape(i, 1)?;
        let (wt, et) = (int_type(bits, false), int_type(w, false));
        let d = self.dst(i, 0)?;
        let acc = self.e.temp();
        let piece = self.e.temp();
        let zero = self.e.konst(0, wt);
        self.e.emit(Inst::Mov {
            dst: acc,
            src: zero,
        });
        for (k, op) in elems.iter().enumerate() {
            let r = self.value(i, op, et)?;
            self.e.emit(cast(et, wt, piece, r));
            if k > 0 {
                let sh = self.e.konst(k as u64 * u64::from(w), ScalarType::U32);
                self.e.emit(bin(BinaryOp::Shl, wt, piece, piece, sh));
            }
            self.e.emit(bin(BinaryOp::Or, wt, acc, acc, piece));
        }
        self.e.emit(Inst::Mov { dst: d, src: acc });
        Ok(())
    }

    /// `mov.bN {a, b, ...}, s`.
    pub(super) fn unpack(&mut self, i: &Instruction) -> Res<()> {
        let (bits, w, elems) = self.vector_shape(i, 0)?;
        let (wt, et) = (int_type(bits, false), int_type(w, false));
        let s = self.src(i, 1, wt)?;
        let piece = self.e.temp();
        for (k, op) in elems.iter().enumerate() {
            let d = match op {
                Operand::Sink => continue,
                Operand::Reg(r) => self.e.reg(i, r)?.0,
                _ => return Err(LowerError::at(i, "unpacking `mov` writes registers")),
            };
            let sh = self.e.konst(k as u64 * u64::from(w), ScalarType::U32);
            self.e.emit(bin(BinaryOp::Shr, wt, piece, s, sh));
            self.e.emit(cast(wt, et, d, piece));
        }
        Ok(())
    }
}
