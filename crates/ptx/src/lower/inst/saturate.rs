//! The `.sat` modifier: float results clamped to `[0, 1]` (NaN to 0), `add/sub.sat.s32`
//! clamped to the `i32` range, `cvt.sat` between integers clamped to the destination range.

use super::{bin, cast, full_name, Lowerer, Res};
use crate::ast::Instruction;
use crate::lower::LowerError;
use warpsafe_exec::thread::code::{BinaryOp, Reg};
use warpsafe_ir::{ScalarType, Value};

impl Lowerer<'_> {
    /// Lowers `i`, which carries `.sat`.
    pub(super) fn saturated(&mut self, i: &Instruction) -> Res<()> {
        let mut plain = i.clone();
        plain.modifiers.retain(|m| m != "sat");
        let t = self.scalar(i, 0)?;
        let op = i.opcode.as_str();
        match op {
            "add" | "sub" | "mul" | "fma" | "mad" | "cvt" if t.is_float() => {
                self.body(&plain)?;
                let d = self.dst(i, 0)?;
                self.clamp(t, d, 0.0, 1.0);
                Ok(())
            }
            "cvt" => {
                let from = self.scalar(i, 1)?;
                if from.is_float() {
                    // Float to integer conversion saturates anyway.
                    return self.body(&plain);
                }
                self.int_sat_cvt(i, from, t)
            }
            "add" | "sub" if t == ScalarType::I32 => {
                let w = ScalarType::I64;
                let d = self.dst(i, 0)?;
                let a = self.src(i, 1, t)?;
                let b = self.src(i, 2, t)?;
                let (x, y) = (self.e.temp(), self.e.temp());
                self.e.emit(cast(t, w, x, a));
                self.e.emit(cast(t, w, y, b));
                let o = if op == "add" {
                    BinaryOp::Add
                } else {
                    BinaryOp::Sub
                };
                self.e.emit(bin(o, w, x, x, y));
                let lo = self.e.konst(i64::from(i32::MIN) as u64, w);
                let hi = self.e.konst(i32::MAX as u64, w);
                self.e.emit(bin(BinaryOp::Max, w, x, x, lo));
                self.e.emit(bin(BinaryOp::Min, w, x, x, hi));
                self.e.emit(cast(w, t, d, x));
                Ok(())
            }
            _ => Err(LowerError::at(
                i,
                format!("`.sat` on `{}` is not supported", full_name(i, op)),
            )),
        }
    }

    /// `d = min(max(d, lo), hi)` in float type `t` (the NaN-ignoring max sends NaN to `lo`).
    fn clamp(&mut self, t: ScalarType, d: Reg, lo: f64, hi: f64) {
        let k = |v: f64| match t {
            ScalarType::F32 => Value::F32(v as f32).to_bits(),
            _ => Value::F64(v).to_bits(),
        };
        let (lo, hi) = (self.e.konst(k(lo), t), self.e.konst(k(hi), t));
        self.e.emit(bin(BinaryOp::Max, t, d, d, lo));
        self.e.emit(bin(BinaryOp::Min, t, d, d, hi));
    }

    /// `cvt.sat` between integer types: the source clamped to the destination's range first.
    fn int_sat_cvt(&mut self, i: &Instruction, from: ScalarType, to: ScalarType) -> Res<()> {
        let range = |t: ScalarType| -> (i128, i128) {
            match t {
                ScalarType::I32 => (i32::MIN.into(), i32::MAX.into()),
                ScalarType::U32 => (0, u32::MAX.into()),
                ScalarType::I64 => (i64::MIN.into(), i64::MAX.into()),
                _ => (0, u64::MAX.into()),
            }
        };
        let ((flo, fhi), (tlo, thi)) = (range(from), range(to));
        let (lo, hi) = (flo.max(tlo), fhi.min(thi));
        let d = self.dst(i, 0)?;
        let s = self.src(i, 1, from)?;
        let x = self.e.temp();
        let klo = self.e.konst(Value::from_i128(from, lo).to_bits(), from);
        let khi = self.e.konst(Value::from_i128(from, hi).to_bits(), from);
        self.e.emit(bin(BinaryOp::Max, from, x, s, klo));
        self.e.emit(bin(BinaryOp::Min, from, x, x, khi));
        self.e.emit(cast(from, to, d, x));
        Ok(())
    }
}
