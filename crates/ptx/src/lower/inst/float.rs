//! Float instructions computed on bits or by comparisons: `copysign`, `testp`.

use super::{bin, Lowerer, Res};
use crate::ast::Instruction;
use crate::lower::types::{int_type, width};
use crate::lower::LowerError;
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, Inst};
use warpsafe_ir::{MathFn, ScalarType, Value, F16};

impl Lowerer<'_> {
    fn float_type(&self, i: &Instruction) -> Res<ScalarType> {
        let t = self.scalar(i, 0)?;
        if !t.is_float() {
            return Err(LowerError::at(
                i,
                format!("`{}` needs a float type", i.opcode),
            ));
        }
        Ok(t)
    }

    /// `copysign.fN d, a, b`: `b`'s magnitude with `a`'s sign, on bits (exact for NaNs too).
    pub(super) fn copysign(&mut self, i: &Instruction) -> Res<()> {
        let t = self.float_type(i)?;
        let w = width(t);
        let u = int_type(w, false);
        let sign = 1u64 << (w - 1);
        let d = self.dst(i, 0)?;
        let a = self.src(i, 1, t)?;
        let b = self.src(i, 2, t)?;
        let (ks, km) = (self.e.konst(sign, u), self.e.konst(sign - 1, u));
        let (x, y) = (self.e.temp(), self.e.temp());
        self.e.emit(bin(BinaryOp::And, u, x, a, ks));
        self.e.emit(bin(BinaryOp::And, u, y, b, km));
        self.e.emit(bin(BinaryOp::Or, u, d, x, y));
        Ok(())
    }

    /// `testp.{finite,infinite,number,notanumber,normal,subnormal}.fN p, a`.
    pub(super) fn testp(&mut self, i: &Instruction) -> Res<()> {
        let t = self.float_type(i)?;
        let d = self.dst(i, 0)?;
        let a = self.src(i, 1, t)?;
        let k = |s: &mut Self, v: f64| {
            let bits = match t {
                ScalarType::F16 => F16::from_f64(v).to_bits() as u64,
                ScalarType::F32 => Value::F32(v as f32).to_bits(),
                _ => Value::F64(v).to_bits(),
            };
            s.e.konst(bits, t)
        };
        let min_normal = match t {
            ScalarType::F16 => 6.103_515_625e-5,
            ScalarType::F32 => f64::from(f32::MIN_POSITIVE),
            _ => f64::MIN_POSITIVE,
        };
        let (inf, norm, zero) = (k(self, f64::INFINITY), k(self, min_normal), k(self, 0.0));
        let abs = self.e.temp();
        self.e.emit(Inst::Math {
            f: MathFn::Abs,
            ty: t,
            dst: abs,
            args: [a; 3],
        });
        let cmp = |s: &mut Self, op, x, y| {
            let r = s.e.temp();
            s.e.emit(Inst::Cmp {
                op,
                ty: t,
                dst: r,
                a: x,
                b: y,
            });
            r
        };
        let and = |s: &mut Self, x, y| {
            s.e.emit(bin(BinaryOp::And, ScalarType::Bool, d, x, y));
        };
        let test = i.modifiers.first().map(String::as_str).unwrap_or_default();
        match test {
            // Comparisons with NaN are false, so `|a| < inf` is false for NaN.
            "finite" => {
                let r = cmp(self, CmpOp::Lt, abs, inf);
                self.e.emit(Inst::Mov { dst: d, src: r });
            }
            "infinite" => {
                let r = cmp(self, CmpOp::Eq, abs, inf);
                self.e.emit(Inst::Mov { dst: d, src: r });
            }
            "number" => {
                let r = cmp(self, CmpOp::Eq, a, a);
                self.e.emit(Inst::Mov { dst: d, src: r });
            }
            "notanumber" => {
                let r = cmp(self, CmpOp::Ne, a, a);
                self.e.emit(Inst::Mov { dst: d, src: r });
            }
            "normal" => {
                let x = cmp(self, CmpOp::Ge, abs, norm);
                let y = cmp(self, CmpOp::Lt, abs, inf);
                and(self, x, y);
            }
            "subnormal" => {
                let x = cmp(self, CmpOp::Lt, abs, norm);
                let y = cmp(self, CmpOp::Gt, abs, zero);
                and(self, x, y);
            }
            other => return Err(LowerError::at(i, format!("unsupported `testp.{other}`"))),
        }
        Ok(())
    }
}
