//! Integer arithmetic beyond the plain operators: `sad` (sum of absolute differences) and
//! the 24-bit multiplies `mul24`/`mad24`.

use super::{bin, cast, has, wide, Lowerer, Res};
use crate::ast::Instruction;
use crate::lower::types::{int_type, width};
use crate::lower::LowerError;
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, Inst};
use warpsafe_ir::ScalarType;

impl Lowerer<'_> {
    fn int_type_of(&self, i: &Instruction) -> Res<ScalarType> {
        let t = self.scalar(i, 0)?;
        if t.is_float() || t == ScalarType::Bool {
            return Err(LowerError::at(
                i,
                format!("`{}` needs an integer type", i.opcode),
            ));
        }
        Ok(t)
    }

    /// `sad.T d, a, b, c`: `c + |a - b|`, the difference taken in `T`'s signedness and the
    /// sum wrapping.
    pub(super) fn sad(&mut self, i: &Instruction) -> Res<()> {
        let t = self.int_type_of(i)?;
        let u = int_type(width(t), false);
        let d = self.dst(i, 0)?;
        let a = self.src(i, 1, t)?;
        let b = self.src(i, 2, t)?;
        let c = self.src(i, 3, t)?;
        let (lt, x, y) = (self.e.temp(), self.e.temp(), self.e.temp());
        self.e.emit(Inst::Cmp {
            op: CmpOp::Lt,
            ty: t,
            dst: lt,
            a,
            b,
        });
        self.e.emit(bin(BinaryOp::Sub, u, x, b, a));
        self.e.emit(bin(BinaryOp::Sub, u, y, a, b));
        self.e.emit(Inst::Select {
            dst: x,
            cond: lt,
            a: x,
            b: y,
        });
        self.e.emit(bin(BinaryOp::Add, u, d, c, x));
        Ok(())
    }

    /// `mul24.{lo,hi}.{u32,s32} d, a, b` and `mad24.{lo,hi}.{u32,s32} d, a, b, c`: the
    /// product of the low 24 bits of `a` and `b` (sign-extended for `.s32`), bits 0..32
    /// (`.lo`) or 16..48 (`.hi`), plus `c`.
    pub(super) fn mul24(&mut self, i: &Instruction) -> Res<()> {
        let t = self.int_type_of(i)?;
        if width(t) != 32 || has(i, "sat") {
            return Err(LowerError::at(
                i,
                format!("`{}` is supported on .u32/.s32 without .sat", i.opcode),
            ));
        }
        let w = wide(t);
        let d = self.dst(i, 0)?;
        let k8 = self.e.konst(8, ScalarType::U32);
        let ext = |s: &mut Self, n: usize| -> Res<_> {
            let r = s.src(i, n, t)?;
            let x = s.e.temp();
            s.e.emit(bin(BinaryOp::Shl, t, x, r, k8));
            s.e.emit(bin(BinaryOp::Shr, t, x, x, k8));
            s.e.emit(cast(t, w, x, x));
            Ok(x)
        };
        let a = ext(self, 1)?;
        let b = ext(self, 2)?;
        let p = self.e.temp();
        self.e.emit(bin(BinaryOp::Mul, w, p, a, b));
        if has(i, "hi") {
            let k16 = self.e.konst(16, ScalarType::U32);
            let u = int_type(64, false);
            self.e.emit(bin(BinaryOp::Shr, u, p, p, k16));
        }
        let r = self.e.temp();
        self.e.emit(cast(w, t, r, p));
        if i.opcode == "mad24" {
            let c = self.src(i, 3, t)?;
            self.e.emit(bin(BinaryOp::Add, t, d, r, c));
        } else {
            self.e.emit(Inst::Mov { dst: d, src: r });
        }
        Ok(())
    }
}
