//! Round to nearest integer, ties to even (`cvt.rni`), from floor and comparisons: the
//! thread code has `floor` but no `rint`.

use super::{bin, Lowerer};
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, Inst, Reg};
use warpsafe_ir::{MathFn, ScalarType, Value};

impl Lowerer<'_> {
    /// `dst = rint(x)` in float type `ty`: `f = floor(x)`; the fraction `x − f` is exact, so
    /// comparing it with ½ decides between `f` and `f + 1`, a tie going to the even one. A zero
    /// result takes `x`'s sign (`rint(−0.3) = −0`). NaN and infinities come through unchanged.
    pub(super) fn round_even(&mut self, ty: ScalarType, dst: Reg, x: Reg) {
        let k = |e: &mut super::Emitter, v: f64| {
            let bits = match ty {
                ScalarType::F32 => Value::F32(v as f32).to_bits(),
                _ => Value::F64(v).to_bits(),
            };
            e.konst(bits, ty)
        };
        let (half, one, zero) = (
            k(&mut self.e, 0.5),
            k(&mut self.e, 1.0),
            k(&mut self.e, 0.0),
        );
        let r: Vec<Reg> = (0..10).map(|_| self.e.temp()).collect();
        let (f, frac, up, h, fh, odd, above, tie, res, signed_zero) =
            (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9]);
        let floor = |e: &mut super::Emitter, d: Reg, a: Reg| {
            e.emit(Inst::Math {
                f: MathFn::Floor,
                ty,
                dst: d,
                args: [a; 3],
            })
        };
        let cmp = |e: &mut super::Emitter, op: CmpOp, d: Reg, a: Reg, b: Reg| {
            e.emit(Inst::Cmp {
                op,
                ty,
                dst: d,
                a,
                b,
            })
        };
        floor(&mut self.e, f, x);
        self.e.emit(bin(BinaryOp::Sub, ty, frac, x, f));
        self.e.emit(bin(BinaryOp::Add, ty, up, f, one));
        self.e.emit(bin(BinaryOp::Mul, ty, h, f, half));
        floor(&mut self.e, fh, h);
        cmp(&mut self.e, CmpOp::Ne, odd, h, fh);
        cmp(&mut self.e, CmpOp::Gt, above, frac, half);
        cmp(&mut self.e, CmpOp::Eq, tie, frac, half);
        self.e
            .emit(bin(BinaryOp::And, ScalarType::Bool, tie, tie, odd));
        self.e
            .emit(bin(BinaryOp::Or, ScalarType::Bool, above, above, tie));
        self.e.emit(Inst::Select {
            dst: res,
            cond: above,
            a: up,
            b: f,
        });
        cmp(&mut self.e, CmpOp::Eq, tie, res, zero);
        self.e.emit(bin(BinaryOp::Mul, ty, signed_zero, x, zero));
        self.e.emit(Inst::Select {
            dst,
            cond: tie,
            a: signed_zero,
            b: res,
        });
    }
}
