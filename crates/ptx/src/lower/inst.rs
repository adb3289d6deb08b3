//! Translation of one PTX instruction into thread code.

use super::data::DataRegs;
use super::divide::{Divisions, Rewrite};
use super::emit::Emitter;
use super::expf::{ExpRewrite, Exponentials};
use super::memory::{access_key, access_type, Layout};
use super::provenance::Provenance;
use super::types::{int_type, is_signed_int, width, Kind, PtxType};
use super::LowerError;
use crate::ast::{Immediate, Instruction, Operand};
use std::collections::HashSet;
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, Inst, MemId, Reg, UnaryOp};
use warpsafe_ir::{
    AtomicOp, BlockVoteKind, Builtin, Check, Dim, MathFn, ScalarType, ShuffleKind, F16,
};

mod arith;
mod barrier;
mod bits;
mod call;
mod float;
mod mma;
mod pack;
mod permute;
mod reject;
mod round;
mod saturate;
mod vote;
mod wmma;

pub(crate) use mma::check_mma_fragments;
pub(crate) use wmma::check_wmma_fragments;

type Res<T> = Result<T, LowerError>;

/// Everything instruction translation reads besides the code buffer.
pub(crate) struct Lowerer<'a> {
    /// The code buffer.
    pub e: Emitter,
    /// Allocations and parameters.
    pub layout: &'a Layout,
    /// Which registers are pointers, and into what.
    pub prov: &'a Provenance,
    /// Names of `.shared`/`.local` variables.
    pub vars: &'a HashSet<String>,
    /// Predicate registers that some instruction reads.
    pub read_preds: &'a HashSet<String>,
    /// Divisions by constants recognised in the current basic block.
    pub divs: Divisions,
    /// Exponentials recognised in the current basic block.
    pub exps: Exponentials,
    /// Registers holding memory contents whose signed arithmetic the source never does.
    pub data: &'a DataRegs,
}

fn has(i: &Instruction, m: &str) -> bool {
    i.modifiers.iter().any(|x| x == m)
}

fn special(name: &str) -> Option<Builtin> {
    let (base, dim) = match name.rsplit_once('.') {
        Some((b, d)) => (b, d),
        None => (name, ""),
    };
    let dim = match dim {
        "x" => Some(Dim::X),
        "y" => Some(Dim::Y),
        "z" => Some(Dim::Z),
        _ => None,
    };
    Some(match (base, dim) {
        ("%tid", Some(d)) => Builtin::ThreadIdx(d),
        ("%ntid", Some(d)) => Builtin::BlockDim(d),
        ("%ctaid", Some(d)) => Builtin::BlockIdx(d),
        ("%nctaid", Some(d)) => Builtin::GridDim(d),
        ("%laneid", None) => Builtin::LaneId,
        _ => return None,
    })
}

/// The bits of immediate `imm` as a value of type `ty`.
fn imm_bits(imm: Immediate, ty: ScalarType) -> u64 {
    let mask = |v: u64| match width(ty) {
        64 => v,
        w => v & ((1u64 << w) - 1),
    };
    match (imm, ty) {
        (Immediate::Int(v), ScalarType::F32) => (v as f32).to_bits() as u64,
        (Immediate::Int(v), ScalarType::F64) => (v as f64).to_bits(),
        (Immediate::Int(v), ScalarType::F16) => F16::from_f64(v as f64).to_bits() as u64,
        (Immediate::F32(b), ScalarType::F16) => {
            F16::from_f64(f64::from(f32::from_bits(b))).to_bits() as u64
        }
        (Immediate::F64(b), ScalarType::F16) => F16::from_f64(f64::from_bits(b)).to_bits() as u64,
        (Immediate::Int(v), ScalarType::Bool) => (v != 0) as u64,
        (Immediate::Int(v), _) => mask(v as i64 as u64),
        (Immediate::F32(b), ScalarType::F64) => (f32::from_bits(b) as f64).to_bits(),
        (Immediate::F32(b), _) => b as u64,
        (Immediate::F64(b), ScalarType::F32) => (f64::from_bits(b) as f32).to_bits() as u64,
        (Immediate::F64(b), _) => b,
    }
}

impl Lowerer<'_> {
    /// Lowers `i`, honouring its guard predicate.
    pub fn instr(&mut self, i: &Instruction) -> Res<()> {
        self.e.line = i.line;
        let e = &self.e;
        let division = self.divs.step(i, &|name| e.reg(i, name).ok());
        let exponential = self
            .exps
            .step(i, &|name| e.reg(i, name).ok().map(|(r, _)| r));
        if let Some(rw) = division {
            return self.rewrite(i, rw);
        }
        if let Some(ExpRewrite { x }) = exponential {
            let d = self.dst(i, 0)?;
            self.e.emit(Inst::Math {
                f: MathFn::Exp,
                ty: ScalarType::F32,
                dst: d,
                args: [x; 3],
            });
            return Ok(());
        }
        let Some(pred) = &i.pred else {
            return self.body(i);
        };
        let (p, _) = self.e.reg(i, &pred.reg)?;
        if i.opcode == "bra" {
            let target = self.label_operand(i)?;
            self.e.jump_to_label(
                Inst::Branch {
                    cond: p,
                    target: 0,
                    when: !pred.negated,
                },
                &target,
            );
            return Ok(());
        }
        let skip = self.e.new_label();
        self.e.jump_to_internal(
            Inst::Branch {
                cond: p,
                target: 0,
                when: pred.negated,
            },
            skip,
        );
        self.body(i)?;
        self.e.place(skip);
        Ok(())
    }

    fn body(&mut self, i: &Instruction) -> Res<()> {
        if has(i, "sat") {
            return self.saturated(i);
        }
        match i.opcode.as_str() {
            "mov" => self.mov(i),
            "cvta" => {
                let d = self.dst(i, 0)?;
                let s = self.src(i, 1, ScalarType::U64)?;
                self.e.emit(Inst::Mov { dst: d, src: s });
                Ok(())
            }
            "add" | "sub" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor" | "shl"
            | "shr" => self.binary(i),
            "mul" => self.mul(i),
            "mad" => self.mad(i),
            "fma" => {
                let t = self.scalar(i, 0)?;
                self.float_modifiers(i)?;
                self.math(i, MathFn::Fma, t, 3)
            }
            "neg" | "not" | "abs" | "cnot" | "popc" => self.unary(i),
            "bfi" => self.bfi(i),
            "bfe" => self.bfe(i),
            "bfind" => self.bfind(i),
            "prmt" => self.prmt(i),
            "shf" => self.funnel_shift(i),
            "sad" => self.sad(i),
            "mul24" | "mad24" => self.mul24(i),
            "copysign" => self.copysign(i),
            "testp" => self.testp(i),
            // Timing and cache hints: no effect on what the kernel computes.
            "nanosleep" | "prefetch" => Ok(()),
            "wmma" => self.wmma(i),
            "mma" => self.mma(i),
            "ldmatrix" => self.ldmatrix(i),
            "cp" | "mbarrier" | "stmatrix" | "wgmma" | "redux" | "match" | "elect"
            | "griddepcontrol" | "setmaxnreg" => Err(self.unsupported_feature(i)),
            "clz" => self.clz(i),
            "brev" => self.brev(i),
            "rcp" => {
                let t = self.scalar(i, 0)?;
                self.float_modifiers(i)?;
                let d = self.dst(i, 0)?;
                let a = self.src(i, 1, t)?;
                let one = self.e.konst(imm_bits(Immediate::Int(1), t), t);
                self.e.emit(bin(BinaryOp::Div, t, d, one, a));
                Ok(())
            }
            "sqrt" | "rsqrt" | "ex2" | "lg2" | "sin" | "cos" | "tanh" => {
                let t = self.scalar(i, 0)?;
                self.float_modifiers(i)?;
                let f = match i.opcode.as_str() {
                    "sqrt" => MathFn::Sqrt,
                    "rsqrt" => MathFn::Rsqrt,
                    "ex2" => MathFn::Exp2,
                    "lg2" => MathFn::Log2,
                    "sin" => MathFn::Sin,
                    "tanh" => MathFn::Tanh,
                    _ => MathFn::Cos,
                };
                self.math(i, f, t, 1)
            }
            "setp" => self.setp(i),
            "selp" => {
                let t = self.scalar(i, 0)?;
                let d = self.dst(i, 0)?;
                let a = self.src(i, 1, t)?;
                let b = self.src(i, 2, t)?;
                let c = self.src(i, 3, ScalarType::Bool)?;
                self.e.emit(Inst::Select {
                    dst: d,
                    cond: c,
                    a,
                    b,
                });
                Ok(())
            }
            "slct" => {
                let t = self.scalar(i, 0)?;
                let ct = self.scalar(i, 1)?;
                let d = self.dst(i, 0)?;
                let a = self.src(i, 1, t)?;
                let b = self.src(i, 2, t)?;
                let c = self.src(i, 3, ct)?;
                let zero = self.e.konst(0, ct);
                let cond = self.e.temp();
                self.e.emit(Inst::Cmp {
                    op: CmpOp::Ge,
                    ty: ct,
                    dst: cond,
                    a: c,
                    b: zero,
                });
                self.e.emit(Inst::Select { dst: d, cond, a, b });
                Ok(())
            }
            "cvt" => self.cvt(i),
            "bra" => {
                let target = self.label_operand(i)?;
                self.e.jump_to_label(Inst::Jump { target: 0 }, &target);
                Ok(())
            }
            "bar" | "barrier" => self.barrier(i),
            "shfl" => self.shuffle(i),
            "ld" => self.load(i),
            "st" => self.store(i),
            "atom" | "red" => self.atomic(i),
            "membar" | "fence" => Ok(()),
            "ret" | "exit" => {
                self.e.emit(Inst::Exit);
                Ok(())
            }
            "vote" => self.vote(i),
            "activemask" => {
                let dst = self.dst(i, 0)?;
                self.e.emit(Inst::ActiveMask { dst });
                Ok(())
            }
            "call" => self.external_call(i),
            "trap" => {
                // The thread aborts: reaching `trap` is a failed assertion.
                let f = self.e.konst(0, ScalarType::Bool);
                self.e.emit(Inst::Assert {
                    cond: f,
                    check: Check::User,
                });
                self.e.emit(Inst::Exit);
                Ok(())
            }
            op => Err(LowerError::at(
                i,
                format!(
                    "instruction `{}` is not supported by the PTX lowering",
                    full_name(i, op)
                ),
            )),
        }
    }

    /// Emits a division or remainder by a constant that [`Divisions`] proved `i` computes.
    fn rewrite(&mut self, i: &Instruction, rw: Rewrite) -> Res<()> {
        let d = self.dst(i, 0)?;
        match rw {
            Rewrite::Quot { x, ty, d: k, to } => {
                let kd = self.e.konst(k, ty);
                if ty == to {
                    self.e.emit(bin(BinaryOp::Div, ty, d, x, kd));
                } else {
                    let q = self.e.temp();
                    self.e.emit(bin(BinaryOp::Div, ty, q, x, kd));
                    self.e.emit(cast(ty, to, d, q));
                }
            }
            Rewrite::Rem {
                x,
                ty,
                d: k,
                negate,
            } => {
                let kd = self.e.konst(k, ty);
                if negate {
                    let r = self.e.temp();
                    self.e.emit(bin(BinaryOp::Rem, ty, r, x, kd));
                    self.e.emit(Inst::Unary {
                        op: UnaryOp::Neg,
                        ty,
                        dst: d,
                        a: r,
                        checked: false,
                    });
                } else {
                    self.e.emit(bin(BinaryOp::Rem, ty, d, x, kd));
                }
            }
        }
        Ok(())
    }

    fn label_operand(&self, i: &Instruction) -> Res<String> {
        match i.operands.first() {
            Some(Operand::Symbol(s)) => Ok(s.clone()),
            _ => Err(LowerError::at(i, "branch target must be a label")),
        }
    }

    /// The thread-code type of type suffix `k`.
    fn ptx_type(&self, i: &Instruction, k: usize) -> Res<PtxType> {
        let name = i
            .types
            .get(k)
            .ok_or_else(|| LowerError::at(i, format!("`{}` needs a type suffix", i.opcode)))?;
        PtxType::parse(name).ok_or_else(|| LowerError::at(i, format!("unsupported type `.{name}`")))
    }

    fn scalar(&self, i: &Instruction, k: usize) -> Res<ScalarType> {
        self.ptx_type(i, k)?
            .scalar()
            .map_err(|e| LowerError::at(i, format!("`{}`: {e}", full_name(i, &i.opcode))))
    }

    /// Rejects modifiers whose results the interpreter cannot reproduce. `.rn`, `.approx`
    /// and `.full` compute as IEEE round-to-nearest operations and `.ftz` is ignored; the
    /// directed roundings `.rz`/`.rm`/`.rp` also compute round-to-nearest, so their result
    /// may differ from the GPU's in the last place (1 ulp). That is the documented model of
    /// the PTX road (floats are reals in symbolic reasoning, where every rounding mode of
    /// `a*b+c` is `a*b+c`); NVRTC's libdevice uses them inside `expf`, `fmodf` and friends
    /// to split a value, where a last-place difference is compensated by the next step.
    fn float_modifiers(&self, i: &Instruction) -> Res<()> {
        for m in &i.modifiers {
            if matches!(m.as_str(), "sat" | "relu" | "oob") {
                return Err(LowerError::at(
                    i,
                    format!("`.{m}` on `{}` is not supported", full_name(i, &i.opcode)),
                ));
            }
        }
        Ok(())
    }

    /// The destination register of operand `n` (a sink gets a scratch register).
    fn dst(&mut self, i: &Instruction, n: usize) -> Res<Reg> {
        match i.operands.get(n) {
            Some(Operand::Reg(r)) | Some(Operand::Pair(r, _)) => {
                if special(r).is_some() {
                    return Err(LowerError::at(i, format!("cannot write `{r}`")));
                }
                Ok(self.e.reg(i, r)?.0)
            }
            Some(Operand::Sink) => Ok(self.e.temp()),
            _ => Err(LowerError::at(
                i,
                format!("operand {} must be a register", n + 1),
            )),
        }
    }

    /// The register holding source operand `n` read as `ty` (immediates and builtins are
    /// materialised).
    fn src(&mut self, i: &Instruction, n: usize, ty: ScalarType) -> Res<Reg> {
        match i.operands.get(n) {
            Some(op) => self.operand(i, op, ty),
            None => Err(LowerError::at(
                i,
                format!("`{}` is missing operand {}", i.opcode, n + 1),
            )),
        }
    }

    fn operand(&mut self, i: &Instruction, op: &Operand, ty: ScalarType) -> Res<Reg> {
        match op {
            Operand::Reg(r) => {
                if let Some(b) = special(r) {
                    let dst = self.e.temp();
                    self.e.emit(Inst::Special { dst, which: b });
                    return Ok(dst);
                }
                Ok(self.e.reg(i, r)?.0)
            }
            Operand::Imm(imm) => Ok(self.e.konst(imm_bits(*imm, ty), ty)),
            Operand::Symbol(s) if s == "WARP_SZ" => Ok(self.e.konst(32, ty)),
            // A variable's address is offset 0 into its allocation (see provenance).
            Operand::Symbol(s) if self.vars.contains(s) => Ok(self.e.konst(0, ty)),
            Operand::Not(p) => {
                let (a, _) = self.e.reg(i, p)?;
                let dst = self.e.temp();
                self.e.emit(Inst::Unary {
                    op: UnaryOp::Not,
                    ty: ScalarType::Bool,
                    dst,
                    a,
                    checked: false,
                });
                Ok(dst)
            }
            other => Err(LowerError::at(
                i,
                format!("unsupported operand `{}`", operand_text(other)),
            )),
        }
    }

    fn mov(&mut self, i: &Instruction) -> Res<()> {
        if let Some(Operand::Vector(_)) = i.operands.first() {
            return self.unpack(i);
        }
        let t = self.scalar(i, 0)?;
        let d = self.dst(i, 0)?;
        match i.operands.get(1) {
            Some(Operand::Imm(imm)) => self.e.emit(Inst::Const {
                dst: d,
                bits: imm_bits(*imm, t),
                ty: t,
            }),
            Some(Operand::Reg(r)) if special(r).is_some() => {
                if let Some(which) = special(r) {
                    self.e.emit(Inst::Special { dst: d, which });
                }
            }
            // The cycle counters and the global timer: values nothing is known about.
            Some(Operand::Reg(r))
                if matches!(
                    r.as_str(),
                    "%clock" | "%clock_hi" | "%clock64" | "%globaltimer"
                ) =>
            {
                self.e.emit(Inst::Arbitrary { dst: d, ty: t })
            }
            Some(Operand::Vector(_)) => return self.pack(i),
            _ => {
                let s = self.src(i, 1, t)?;
                self.e.emit(Inst::Mov { dst: d, src: s });
            }
        }
        Ok(())
    }

    fn binary(&mut self, i: &Instruction) -> Res<()> {
        let pt = self.ptx_type(i, 0)?;
        for m in &i.modifiers {
            let rounding = matches!(m.as_str(), "rz" | "rm" | "rp") && pt.kind == Kind::Float;
            let unsupported = matches!(
                m.as_str(),
                "sat" | "cc" | "rz" | "rm" | "rp" | "relu" | "NaN" | "xorsign" | "abs"
            );
            if unsupported && !rounding {
                return Err(LowerError::at(
                    i,
                    format!("`.{m}` on `{}` is not supported", full_name(i, &i.opcode)),
                ));
            }
        }
        if i.opcode == "div" && pt.kind == Kind::Float {
            self.float_modifiers(i)?;
        }
        let pt = match (i.opcode.as_str(), pt.kind) {
            ("shl" | "and" | "or" | "xor", _) => pt.unsigned(),
            ("shr", Kind::Bits) => pt.unsigned(),
            ("add" | "sub", Kind::Signed) if self.data.only_contents(i, 1..3) => pt.unsigned(),
            _ => pt,
        };
        let t = if pt.kind == Kind::Pred {
            ScalarType::U32
        } else {
            pt.scalar()
                .map_err(|e| LowerError::at(i, format!("`{}`: {e}", full_name(i, &i.opcode))))?
        };
        let op = match i.opcode.as_str() {
            "add" => BinaryOp::Add,
            "sub" => BinaryOp::Sub,
            "div" => BinaryOp::Div,
            "rem" => BinaryOp::Rem,
            "min" => BinaryOp::Min,
            "max" => BinaryOp::Max,
            "and" => BinaryOp::And,
            "or" => BinaryOp::Or,
            "xor" => BinaryOp::Xor,
            "shl" => BinaryOp::Shl,
            _ => BinaryOp::Shr,
        };
        let bty = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            ScalarType::U32
        } else {
            t
        };
        let d = self.dst(i, 0)?;
        let a = self.src(i, 1, t)?;
        let b = self.src(i, 2, bty)?;
        self.e.emit(bin(op, t, d, a, b));
        Ok(())
    }

    fn unary(&mut self, i: &Instruction) -> Res<()> {
        let pt = self.ptx_type(i, 0)?;
        let d = self.dst(i, 0)?;
        if pt.kind == Kind::Pred {
            let a = self.src(i, 1, ScalarType::Bool)?;
            if i.opcode != "not" {
                return Err(LowerError::at(i, "only `not` applies to predicates"));
            }
            self.e.emit(Inst::Unary {
                op: UnaryOp::Not,
                ty: ScalarType::Bool,
                dst: d,
                a,
                checked: false,
            });
            return Ok(());
        }
        let t = self.scalar(i, 0)?;
        let a = self.src(i, 1, t)?;
        match i.opcode.as_str() {
            "neg" => self.e.emit(Inst::Unary {
                op: UnaryOp::Neg,
                ty: t,
                dst: d,
                a,
                checked: false,
            }),
            "not" => self.e.emit(Inst::Unary {
                op: UnaryOp::BitNot,
                ty: t,
                dst: d,
                a,
                checked: false,
            }),
            "abs" => self.e.emit(Inst::Math {
                f: MathFn::Abs,
                ty: t,
                dst: d,
                args: [a; 3],
            }),
            "cnot" => {
                let zero = self.e.konst(0, t);
                self.e.emit(Inst::Cmp {
                    op: CmpOp::Eq,
                    ty: t,
                    dst: d,
                    a,
                    b: zero,
                });
            }
            _ => self.popc(t, d, a),
        }
        Ok(())
    }

    /// `bfi.bN d, a, b, pos, len`: `b` with bits `pos..pos+len` replaced by the low bits of
    /// `a`. Position and length must be immediates (what NVRTC emits); the mask is then a
    /// constant and the insert two ands, a shift and an or.
    fn bfi(&mut self, i: &Instruction) -> Res<()> {
        let t = self.scalar(i, 0)?;
        let bits = width(t);
        let imm = |n: usize| match i.operands.get(n) {
            Some(Operand::Imm(Immediate::Int(v))) => Ok((*v as u64) & 0xff),
            _ => Err(LowerError::at(
                i,
                format!(
                    "`{}` with a register position or length is not supported",
                    full_name(i, &i.opcode)
                ),
            )),
        };
        let (pos, len) = (imm(3)?, imm(4)?);
        let d = self.dst(i, 0)?;
        let a = self.src(i, 1, t)?;
        let b = self.src(i, 2, t)?;
        if len == 0 || pos >= u64::from(bits) {
            self.e.emit(Inst::Mov { dst: d, src: b });
            return Ok(());
        }
        let len = len.min(u64::from(bits) - pos);
        let ones = if len >= 64 {
            u64::MAX
        } else {
            (1u64 << len) - 1
        };
        let full = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let mask = (ones << pos) & full;
        let kmask = self.e.konst(mask, t);
        let kkeep = self.e.konst(!mask & full, t);
        let kpos = self.e.konst(pos, t);
        let x = self.e.temp();
        let y = self.e.temp();
        self.e.emit(bin(BinaryOp::Shl, t, x, a, kpos));
        self.e.emit(bin(BinaryOp::And, t, x, x, kmask));
        self.e.emit(bin(BinaryOp::And, t, y, b, kkeep));
        self.e.emit(bin(BinaryOp::Or, t, d, x, y));
        Ok(())
    }

    /// Population count by the usual SWAR steps.
    pub(super) fn popc(&mut self, t: ScalarType, d: Reg, a: Reg) {
        let u = if width(t) == 64 {
            ScalarType::U64
        } else {
            ScalarType::U32
        };
        let c = |e: &mut Emitter, v: u64| e.konst(v, u);
        let (m1, m2, m4, h01) = if u == ScalarType::U64 {
            (
                0x5555_5555_5555_5555,
                0x3333_3333_3333_3333,
                0x0f0f_0f0f_0f0f_0f0f,
                0x0101_0101_0101_0101,
            )
        } else {
            (0x5555_5555, 0x3333_3333, 0x0f0f_0f0f, 0x0101_0101)
        };
        let (k1, k2, k4, kshift) = (
            c(&mut self.e, 1),
            c(&mut self.e, 2),
            c(&mut self.e, 4),
            c(&mut self.e, if u == ScalarType::U64 { 56 } else { 24 }),
        );
        let (m1, m2, m4, h01) = (
            c(&mut self.e, m1),
            c(&mut self.e, m2),
            c(&mut self.e, m4),
            c(&mut self.e, h01),
        );
        let x = self.e.temp();
        let y = self.e.temp();
        self.e.emit(bin(BinaryOp::Shr, u, y, a, k1));
        self.e.emit(bin(BinaryOp::And, u, y, y, m1));
        self.e.emit(bin(BinaryOp::Sub, u, x, a, y));
        self.e.emit(bin(BinaryOp::Shr, u, y, x, k2));
        self.e.emit(bin(BinaryOp::And, u, y, y, m2));
        self.e.emit(bin(BinaryOp::And, u, x, x, m2));
        self.e.emit(bin(BinaryOp::Add, u, x, x, y));
        self.e.emit(bin(BinaryOp::Shr, u, y, x, k4));
        self.e.emit(bin(BinaryOp::Add, u, x, x, y));
        self.e.emit(bin(BinaryOp::And, u, x, x, m4));
        self.e.emit(bin(BinaryOp::Mul, u, x, x, h01));
        self.e.emit(bin(BinaryOp::Shr, u, x, x, kshift));
        self.e.emit(Inst::Cast {
            from: u,
            to: ScalarType::U32,
            dst: d,
            src: x,
        });
    }

    fn math(&mut self, i: &Instruction, f: MathFn, t: ScalarType, arity: usize) -> Res<()> {
        let d = self.dst(i, 0)?;
        let mut args = [0; 3];
        for (k, slot) in args.iter_mut().enumerate().take(arity) {
            *slot = self.src(i, k + 1, t)?;
        }
        for k in arity..3 {
            args[k] = args[0];
        }
        self.e.emit(Inst::Math {
            f,
            ty: t,
            dst: d,
            args,
        });
        Ok(())
    }

    fn mul(&mut self, i: &Instruction) -> Res<()> {
        let t = self.scalar(i, 0)?;
        if t.is_float() {
            self.float_modifiers(i)?;
            let d = self.dst(i, 0)?;
            let a = self.src(i, 1, t)?;
            let b = self.src(i, 2, t)?;
            self.e.emit(bin(BinaryOp::Mul, t, d, a, b));
            return Ok(());
        }
        let d = self.dst(i, 0)?;
        let t = self.contents_type(i, t, 3);
        let r = self.int_product(i, t)?;
        self.e.emit(Inst::Mov { dst: d, src: r });
        Ok(())
    }

    /// `t`, or its unsigned twin for a `.lo` product (and sum) whose operands `1..to` all
    /// hold memory contents the source only adds and multiplies unsigned ([`DataRegs`]).
    fn contents_type(&self, i: &Instruction, t: ScalarType, to: usize) -> ScalarType {
        let lo = !has(i, "wide") && !has(i, "hi");
        if lo && t.is_signed() && t.is_int() && self.data.only_contents(i, 1..to) {
            int_type(width(t), false)
        } else {
            t
        }
    }

    /// `a * b` of operands 1 and 2 by the `.lo`/`.wide`/`.hi` modifier, in a temporary.
    fn int_product(&mut self, i: &Instruction, t: ScalarType) -> Res<Reg> {
        if has(i, "sat") {
            return Err(LowerError::at(i, "`.sat` multiplication is not supported"));
        }
        let a = self.src(i, 1, t)?;
        let b = self.src(i, 2, t)?;
        let out = self.e.temp();
        if has(i, "wide") {
            if !matches!(width(t), 16 | 32) {
                return Err(LowerError::at(
                    i,
                    "`.wide` is supported on 16- and 32-bit operands",
                ));
            }
            let w = wide(t);
            let mut widen = |n: usize, r: Reg| -> Res<Reg> {
                if let Some(Operand::Imm(imm)) = i.operands.get(n) {
                    // Immediates are materialised directly in the wide type.
                    let narrow = imm_bits(*imm, t);
                    let extended = match t {
                        ScalarType::I32 => narrow as u32 as i32 as i64 as u64,
                        ScalarType::I16 => narrow as u16 as i16 as i32 as u32 as u64,
                        _ => narrow,
                    };
                    return Ok(self.e.konst(extended, w));
                }
                let x = self.e.temp();
                self.e.emit(cast(t, w, x, r));
                Ok(x)
            };
            let x = widen(1, a)?;
            let y = widen(2, b)?;
            self.e.emit(bin(BinaryOp::Mul, w, out, x, y));
        } else if has(i, "hi") {
            self.mul_hi(t, out, a, b);
        } else {
            self.e.emit(bin(BinaryOp::Mul, t, out, a, b));
        }
        Ok(out)
    }

    /// The high half of the full product.
    fn mul_hi(&mut self, t: ScalarType, out: Reg, a: Reg, b: Reg) {
        if width(t) <= 32 {
            let w = wide(t);
            let (x, y) = (self.e.temp(), self.e.temp());
            let k32 = self.e.konst(u64::from(width(t)), ScalarType::U32);
            self.e.emit(cast(t, w, x, a));
            self.e.emit(cast(t, w, y, b));
            self.e.emit(bin(BinaryOp::Mul, w, x, x, y));
            self.e.emit(bin(BinaryOp::Shr, w, x, x, k32));
            self.e.emit(cast(w, t, out, x));
            return;
        }
        // 64 x 64 → high 64 bits from 32-bit halves (no intermediate overflows).
        let u = ScalarType::U64;
        let m32 = self.e.konst(0xFFFF_FFFF, u);
        let k32 = self.e.konst(32, u);
        let r: Vec<Reg> = (0..9).map(|_| self.e.temp()).collect();
        let (a0, a1, b0, b1, ll, hl, lh, cross, hi) =
            (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]);
        self.e.emit(bin(BinaryOp::And, u, a0, a, m32));
        self.e.emit(bin(BinaryOp::Shr, u, a1, a, k32));
        self.e.emit(bin(BinaryOp::And, u, b0, b, m32));
        self.e.emit(bin(BinaryOp::Shr, u, b1, b, k32));
        self.e.emit(bin(BinaryOp::Mul, u, ll, a0, b0));
        self.e.emit(bin(BinaryOp::Mul, u, hl, a1, b0));
        self.e.emit(bin(BinaryOp::Mul, u, lh, a0, b1));
        self.e.emit(bin(BinaryOp::Mul, u, hi, a1, b1));
        self.e.emit(bin(BinaryOp::Shr, u, cross, ll, k32));
        self.e.emit(bin(BinaryOp::And, u, ll, hl, m32));
        self.e.emit(bin(BinaryOp::Add, u, cross, cross, ll));
        self.e.emit(bin(BinaryOp::Add, u, cross, cross, lh));
        self.e.emit(bin(BinaryOp::Shr, u, hl, hl, k32));
        self.e.emit(bin(BinaryOp::Add, u, hi, hi, hl));
        self.e.emit(bin(BinaryOp::Shr, u, cross, cross, k32));
        self.e.emit(bin(BinaryOp::Add, u, hi, hi, cross));
        if t == ScalarType::I64 {
            // Signed high half: subtract b when a < 0 and a when b < 0.
            let zero = self.e.konst(0, ScalarType::I64);
            let (neg, fix) = (self.e.temp(), self.e.temp());
            for (x, y) in [(a, b), (b, a)] {
                self.e.emit(Inst::Cmp {
                    op: CmpOp::Lt,
                    ty: ScalarType::I64,
                    dst: neg,
                    a: x,
                    b: zero,
                });
                self.e.emit(Inst::Select {
                    dst: fix,
                    cond: neg,
                    a: y,
                    b: zero,
                });
                self.e.emit(bin(BinaryOp::Sub, u, hi, hi, fix));
            }
        }
        self.e.emit(Inst::Mov { dst: out, src: hi });
    }

    fn mad(&mut self, i: &Instruction) -> Res<()> {
        let t = self.scalar(i, 0)?;
        if t.is_float() {
            self.float_modifiers(i)?;
            return self.math(i, MathFn::Fma, t, 3);
        }
        let p = self.int_product(i, self.contents_type(i, t, 3))?;
        let st = if has(i, "wide") { wide(t) } else { t };
        let st = self.contents_type(i, st, 4);
        let d = self.dst(i, 0)?;
        let c = self.src(i, 3, st)?;
        self.e.emit(bin(BinaryOp::Add, st, d, p, c));
        Ok(())
    }

    fn setp(&mut self, i: &Instruction) -> Res<()> {
        let pt = self.ptx_type(i, 0)?;
        let cmp = i
            .modifiers
            .first()
            .ok_or_else(|| LowerError::at(i, "`setp` needs a comparison"))?
            .clone();
        let combine = i.modifiers.get(1).map(String::as_str);
        let unsigned_cmp = matches!(cmp.as_str(), "lo" | "ls" | "hi" | "hs");
        let pt = if unsigned_cmp || pt.kind == Kind::Bits {
            pt.unsigned()
        } else {
            pt
        };
        let t = if pt.kind == Kind::Pred {
            ScalarType::U32
        } else {
            pt.scalar()
                .map_err(|e| LowerError::at(i, format!("`setp`: {e}")))?
        };
        let a = self.src(i, 1, t)?;
        let b = self.src(i, 2, t)?;
        let r = self.e.temp();
        self.compare(i, &cmp, t, r, a, b)?;
        let (p, q) = match i.operands.first() {
            Some(Operand::Pair(p, q)) => (p.clone(), Some(q.clone())),
            Some(Operand::Reg(p)) => (p.clone(), None),
            _ => return Err(LowerError::at(i, "`setp` writes a predicate register")),
        };
        let p = self.e.reg(i, &p)?.0;
        let q = match q {
            Some(q) => Some(self.e.reg(i, &q)?.0),
            None => None,
        };
        let nr = q.map(|_| {
            let nr = self.e.temp();
            self.e.emit(Inst::Unary {
                op: UnaryOp::Not,
                ty: ScalarType::Bool,
                dst: nr,
                a: r,
                checked: false,
            });
            nr
        });
        let c = match combine {
            None => None,
            Some(op) => {
                let op = match op {
                    "and" => BinaryOp::And,
                    "or" => BinaryOp::Or,
                    "xor" => BinaryOp::Xor,
                    other => {
                        return Err(LowerError::at(
                            i,
                            format!("unsupported `setp` modifier `.{other}`"),
                        ))
                    }
                };
                Some((op, self.src(i, 3, ScalarType::Bool)?))
            }
        };
        let write = |e: &mut Emitter, dst: Reg, v: Reg| match c {
            Some((op, c)) => e.emit(bin(op, ScalarType::U32, dst, v, c)),
            None => e.emit(Inst::Mov { dst, src: v }),
        };
        write(&mut self.e, p, r);
        if let (Some(q), Some(nr)) = (q, nr) {
            write(&mut self.e, q, nr);
        }
        Ok(())
    }

    /// `dst = a cmp b` for a PTX comparison name, floats with ordered/unordered variants.
    fn compare(
        &mut self,
        i: &Instruction,
        cmp: &str,
        t: ScalarType,
        dst: Reg,
        a: Reg,
        b: Reg,
    ) -> Res<()> {
        let base = |c: &str| -> Option<CmpOp> {
            Some(match c {
                "eq" => CmpOp::Eq,
                "ne" => CmpOp::Ne,
                "lt" | "lo" => CmpOp::Lt,
                "le" | "ls" => CmpOp::Le,
                "gt" | "hi" => CmpOp::Gt,
                "ge" | "hs" => CmpOp::Ge,
                _ => return None,
            })
        };
        let c = |op| Inst::Cmp {
            op,
            ty: t,
            dst,
            a,
            b,
        };
        if !t.is_float() {
            let op = base(cmp)
                .ok_or_else(|| LowerError::at(i, format!("unsupported comparison `.{cmp}`")))?;
            self.e.emit(c(op));
            return Ok(());
        }
        // unordered = isnan(a) | isnan(b); Rust comparisons are ordered except `!=`.
        let unordered = |e: &mut Emitter| {
            let (x, y) = (e.temp(), e.temp());
            e.emit(Inst::Cmp {
                op: CmpOp::Ne,
                ty: t,
                dst: x,
                a,
                b: a,
            });
            e.emit(Inst::Cmp {
                op: CmpOp::Ne,
                ty: t,
                dst: y,
                a: b,
                b,
            });
            e.emit(bin(BinaryOp::Or, ScalarType::U32, x, x, y));
            x
        };
        let not = |e: &mut Emitter, r: Reg| {
            e.emit(Inst::Unary {
                op: UnaryOp::Not,
                ty: ScalarType::Bool,
                dst: r,
                a: r,
                checked: false,
            })
        };
        match cmp {
            "eq" | "lt" | "le" | "gt" | "ge" | "neu" => {
                let op = base(cmp.trim_end_matches('u')).unwrap_or(CmpOp::Ne);
                self.e.emit(c(op));
            }
            "ne" => {
                self.e.emit(c(CmpOp::Ne));
                let u = unordered(&mut self.e);
                not(&mut self.e, u);
                self.e
                    .emit(bin(BinaryOp::And, ScalarType::U32, dst, dst, u));
            }
            "equ" | "ltu" | "leu" | "gtu" | "geu" => {
                let op = base(&cmp[..2]).unwrap_or(CmpOp::Eq);
                self.e.emit(c(op));
                let u = unordered(&mut self.e);
                self.e.emit(bin(BinaryOp::Or, ScalarType::U32, dst, dst, u));
            }
            "num" | "nan" => {
                let u = unordered(&mut self.e);
                self.e.emit(Inst::Mov { dst, src: u });
                if cmp == "num" {
                    not(&mut self.e, dst);
                }
            }
            other => {
                return Err(LowerError::at(
                    i,
                    format!("unsupported comparison `.{other}`"),
                ))
            }
        }
        Ok(())
    }

    fn cvt(&mut self, i: &Instruction) -> Res<()> {
        let (dt, st) = (self.ptx_type(i, 0)?, self.ptx_type(i, 1)?);
        let to = dt
            .scalar()
            .map_err(|e| LowerError::at(i, format!("`{}`: {e}", full_name(i, "cvt"))))?;
        let from = st
            .scalar()
            .map_err(|e| LowerError::at(i, format!("`{}`: {e}", full_name(i, "cvt"))))?;
        if has(i, "sat") {
            return Err(LowerError::at(i, "`cvt.sat` is not supported"));
        }
        let d = self.dst(i, 0)?;
        let s = self.src(i, 1, from)?;
        let round = i
            .modifiers
            .iter()
            .find(|m| {
                matches!(
                    m.as_str(),
                    "rn" | "rz" | "rm" | "rp" | "rni" | "rzi" | "rmi" | "rpi"
                )
            })
            .map(String::as_str);
        let unsupported = |m: &str| {
            Err(LowerError::at(
                i,
                format!(
                    "`{}` with rounding `.{m}` is not supported",
                    full_name(i, "cvt")
                ),
            ))
        };
        match (from.is_float(), to.is_float()) {
            (true, false) => {
                let f = match round {
                    None | Some("rzi") => None,
                    Some("rmi") => Some(MathFn::Floor),
                    Some("rpi") => Some(MathFn::Ceil),
                    Some("rni") => Some(MathFn::Round),
                    Some(m) => return unsupported(m),
                };
                let src = match f {
                    Some(MathFn::Round) => {
                        let r = self.e.temp();
                        self.round_even(from, r, s);
                        r
                    }
                    Some(f) => {
                        let r = self.e.temp();
                        self.e.emit(Inst::Math {
                            f,
                            ty: from,
                            dst: r,
                            args: [s; 3],
                        });
                        r
                    }
                    None => s,
                };
                self.e.emit(cast(from, to, d, src));
            }
            (true, true) if from == to => {
                let f = match round {
                    None => None,
                    Some("rzi") => Some(MathFn::Trunc),
                    Some("rmi") => Some(MathFn::Floor),
                    Some("rpi") => Some(MathFn::Ceil),
                    Some("rni") => Some(MathFn::Round),
                    Some(m) => return unsupported(m),
                };
                match f {
                    Some(MathFn::Round) => self.round_even(from, d, s),
                    Some(f) => self.e.emit(Inst::Math {
                        f,
                        ty: from,
                        dst: d,
                        args: [s; 3],
                    }),
                    None => self.e.emit(Inst::Mov { dst: d, src: s }),
                }
            }
            (_, true) => {
                if let Some(m) = round.filter(|m| *m != "rn") {
                    return unsupported(m);
                }
                self.e.emit(cast(from, to, d, s));
            }
            (false, false) => self.e.emit(cast(from, to, d, s)),
        }
        Ok(())
    }

    /// `bar.red.popc.u32 d, 0, {!}p` and `bar.red.{and,or}.pred d, 0, {!}p`: the block
    /// barrier reducing a predicate (`__syncthreads_count/_and/_or`). A thread count (the
    /// four-operand form) and barriers other than 0 are rejected.
    fn barrier_reduction(&mut self, i: &Instruction) -> Res<()> {
        let kind = if has(i, "popc") {
            BlockVoteKind::Count
        } else if has(i, "and") {
            BlockVoteKind::And
        } else if has(i, "or") {
            BlockVoteKind::Or
        } else {
            return Err(LowerError::at(i, "`bar.red` needs .popc, .and or .or"));
        };
        if i.operands.len() != 3 {
            return Err(LowerError::at(
                i,
                format!(
                    "`{}` with a thread count is not supported",
                    full_name(i, &i.opcode)
                ),
            ));
        }
        if !matches!(i.operands.get(1), Some(Operand::Imm(Immediate::Int(0)))) {
            return Err(LowerError::at(
                i,
                "a barrier reduction must use barrier 0 (the one __syncthreads uses)",
            ));
        }
        let dst = self.dst(i, 0)?;
        let pred = self.src(i, 2, ScalarType::Bool)?;
        let id = self.e.barrier_id();
        self.e.emit(Inst::BarrierVote {
            id,
            kind,
            dst,
            pred,
        });
        Ok(())
    }

    fn barrier(&mut self, i: &Instruction) -> Res<()> {
        if has(i, "warp") {
            let m = self.src(i, 0, ScalarType::U32)?;
            self.e.emit(Inst::SyncWarp { mask: m });
            return Ok(());
        }
        if has(i, "red") {
            return self.barrier_reduction(i);
        }
        if !(has(i, "sync") || i.modifiers.is_empty()) || has(i, "arrive") {
            return Err(LowerError::at(
                i,
                format!("`{}` is not supported", full_name(i, &i.opcode)),
            ));
        }
        match i.operands.first() {
            Some(Operand::Imm(Immediate::Int(0..=15))) => {}
            _ => {
                return Err(LowerError::at(
                    i,
                    "the barrier number must be an immediate 0..15",
                ))
            }
        }
        if i.operands.len() > 1 {
            self.whole_block_count(i)?;
        }
        let id = self.e.barrier_id();
        self.e.emit(Inst::Barrier { id });
        Ok(())
    }

    fn shuffle(&mut self, i: &Instruction) -> Res<()> {
        let kind = if has(i, "up") {
            ShuffleKind::Up
        } else if has(i, "down") {
            ShuffleKind::Down
        } else if has(i, "bfly") {
            ShuffleKind::Xor
        } else if has(i, "idx") {
            ShuffleKind::Idx
        } else {
            return Err(LowerError::at(i, "`shfl` needs .up, .down, .bfly or .idx"));
        };
        if !has(i, "sync") {
            return Err(LowerError::at(
                i,
                "`shfl` without `.sync` (pre-Volta) is not supported",
            ));
        }
        if let Some(Operand::Pair(_, p)) = i.operands.first() {
            if self.read_preds.contains(p) {
                return Err(LowerError::at(
                    i,
                    format!("the validity predicate `{p}` of `shfl.sync` is read; that is not supported"),
                ));
            }
        }
        let u = ScalarType::U32;
        let d = self.dst(i, 0)?;
        let value = self.src(i, 1, u)?;
        let lane = self.src(i, 2, u)?;
        // c packs the segment mask in bits 8..12: width = 32 - ((c >> 8) & 31).
        let width = match i.operands.get(3) {
            Some(Operand::Imm(Immediate::Int(c))) => self.e.konst(32 - ((*c as u64 >> 8) & 31), u),
            _ => {
                let c = self.src(i, 3, u)?;
                let (k8, k31, k32) = (self.e.konst(8, u), self.e.konst(31, u), self.e.konst(32, u));
                let w = self.e.temp();
                self.e.emit(bin(BinaryOp::Shr, u, w, c, k8));
                self.e.emit(bin(BinaryOp::And, u, w, w, k31));
                self.e.emit(bin(BinaryOp::Sub, u, w, k32, w));
                w
            }
        };
        let mask = self.src(i, 4, u)?;
        self.e.emit(Inst::Shuffle {
            kind,
            ty: u,
            dst: d,
            mask,
            value,
            lane,
            width,
        });
        Ok(())
    }

    /// The allocation and byte-offset register of the address of memory instruction `i`,
    /// plus `extra` bytes.
    fn address(&mut self, i: &Instruction, extra: i64) -> Res<(MemId, Reg)> {
        let (key, imm) = access_key(i, self.prov, self.vars)?;
        let mem = *self.layout.ids.get(&key).ok_or_else(|| {
            LowerError::at(
                i,
                "address into memory warpsafe does not model (.global or .const variable)",
            )
        })?;
        let imm = imm
            .checked_add(extra)
            .ok_or_else(|| LowerError::at(i, "address offset overflows"))?;
        let base = match super::provenance::address_operand(i) {
            Some(Operand::Address { base, .. }) if base.starts_with('%') => Some(base.clone()),
            _ => None,
        };
        let i64t = ScalarType::I64;
        let off = match base {
            None => self.e.konst(imm as u64, i64t),
            Some(b) => {
                let (r, t) = self.e.reg(i, &b)?;
                let wide_reg = if t.bits == 64 {
                    r
                } else {
                    let w = self.e.temp();
                    self.e.emit(cast(ScalarType::I32, i64t, w, r));
                    w
                };
                if imm == 0 {
                    wide_reg
                } else {
                    let k = self.e.konst(imm as u64, i64t);
                    let w = self.e.temp();
                    self.e.emit(bin(BinaryOp::Add, i64t, w, wide_reg, k));
                    w
                }
            }
        };
        Ok((mem, off))
    }

    /// The registers of a data operand: one, or the elements of a `{…}` vector (`None` for `_`).
    fn data_operands<'o>(
        &self,
        i: &'o Instruction,
        op: &'o Operand,
    ) -> Res<Vec<Option<&'o Operand>>> {
        let n = if has(i, "v2") {
            2
        } else if has(i, "v4") {
            4
        } else if has(i, "v8") {
            8
        } else {
            1
        };
        match op {
            Operand::Vector(v) if v.len() == n => Ok(v
                .iter()
                .map(|o| (!matches!(o, Operand::Sink)).then_some(o))
                .collect()),
            Operand::Vector(_) => Err(LowerError::at(
                i,
                "vector operand length does not match .vN",
            )),
            o if n == 1 => Ok(vec![Some(o)]),
            _ => Err(LowerError::at(i, "vector access needs a `{...}` operand")),
        }
    }

    fn load(&mut self, i: &Instruction) -> Res<()> {
        let at = access_type(i)?;
        let t = at
            .scalar()
            .map_err(|e| LowerError::at(i, format!("`{}`: {e}", full_name(i, "ld"))))?;
        if has(i, "param") {
            return self.load_param(i, at, t);
        }
        let dst_op = i
            .operands
            .first()
            .ok_or_else(|| LowerError::at(i, "`ld` needs a destination"))?;
        let dsts = self.data_operands(i, dst_op)?;
        for (k, d) in dsts.into_iter().enumerate() {
            let Some(d) = d else { continue };
            let Operand::Reg(name) = d else {
                return Err(LowerError::at(i, "`ld` writes registers"));
            };
            let (dr, dt) = self.e.reg(i, name)?;
            let (mem, off) = self.address(i, k as i64 * at.bytes() as i64)?;
            self.e.emit(Inst::Load {
                ty: t,
                dst: dr,
                mem,
                offset: off,
                volatile: has(i, "volatile"),
            });
            self.extend(t, dt.bits, dr);
        }
        Ok(())
    }

    fn load_param(&mut self, i: &Instruction, at: PtxType, t: ScalarType) -> Res<()> {
        let (Some(Operand::Address { base, offset }), d) = (i.operands.get(1), self.dst(i, 0)?)
        else {
            return Err(LowerError::at(i, "`ld.param` reads `[param]`"));
        };
        let &k = self
            .layout
            .params
            .get(base)
            .ok_or_else(|| LowerError::at(i, format!("`{base}` is not a kernel parameter")))?;
        if let Some(&(index, ft)) = self.layout.fields.get(&(k, *offset)) {
            // A field of a by-value aggregate (a launch parameter of its own).
            if ft.bytes() != at.bytes() || has(i, "v2") || has(i, "v4") {
                return Err(LowerError::at(
                    i,
                    "vector loads of aggregate parameter fields are not supported",
                ));
            }
            self.e.emit(Inst::Param {
                dst: d,
                index,
                ty: t,
            });
            let (_, dt) = match i.operands.first() {
                Some(Operand::Reg(r)) => self.e.reg(i, r)?,
                _ => return Ok(()),
            };
            self.extend(t, dt.bits, d);
            return Ok(());
        }
        if *offset != 0 {
            return Err(LowerError::at(
                i,
                format!("`{base}` is read at offset {offset} but is not a by-value aggregate"),
            ));
        }
        let index = self.layout.prog_index.get(k as usize).copied().unwrap_or(k);
        if self
            .layout
            .pointers
            .get(k as usize)
            .copied()
            .unwrap_or(false)
        {
            // A pointer parameter is offset 0 into its buffer.
            self.e.emit(Inst::Const {
                dst: d,
                bits: 0,
                ty: ScalarType::I64,
            });
            return Ok(());
        }
        self.e.emit(Inst::Param {
            dst: d,
            index,
            ty: t,
        });
        let (_, dt) = match i.operands.first() {
            Some(Operand::Reg(r)) => self.e.reg(i, r)?,
            _ => return Ok(()),
        };
        let _ = at;
        self.extend(t, dt.bits, d);
        Ok(())
    }

    /// Sign-extends `d`, just loaded as `t`, to the `bits` of its register (registers hold
    /// values zero-extended from their type's width).
    fn extend(&mut self, t: ScalarType, bits: u32, d: Reg) {
        if is_signed_int(t) && bits > width(t) {
            self.e.emit(cast(t, int_type(bits, true), d, d));
        }
    }

    /// `op` read as type `t`, narrowed when it sits in a wider register.
    fn value(&mut self, i: &Instruction, op: &Operand, t: ScalarType) -> Res<Reg> {
        let r = self.operand(i, op, t)?;
        if let Operand::Reg(name) = op {
            if special(name).is_none() {
                let (_, rt) = self.e.reg(i, name)?;
                if rt.kind != Kind::Pred && rt.bits > width(t) {
                    let n = self.e.temp();
                    let (from, to) = (int_type(rt.bits, false), int_type(width(t), false));
                    self.e.emit(cast(from, to, n, r));
                    return Ok(n);
                }
            }
        }
        Ok(r)
    }

    fn store(&mut self, i: &Instruction) -> Res<()> {
        let at = access_type(i)?;
        let t = at
            .scalar()
            .map_err(|e| LowerError::at(i, format!("`{}`: {e}", full_name(i, "st"))))?;
        if has(i, "param") {
            return Err(LowerError::at(i, "`st.param` (calls) is not supported"));
        }
        let src_op = i
            .operands
            .get(1)
            .ok_or_else(|| LowerError::at(i, "`st` needs a value"))?;
        let srcs = self.data_operands(i, src_op)?;
        for (k, s) in srcs.into_iter().enumerate() {
            let Some(s) = s else { continue };
            let v = self.value(i, s, t)?;
            let (mem, off) = self.address(i, k as i64 * at.bytes() as i64)?;
            self.e.emit(Inst::Store {
                ty: t,
                mem,
                offset: off,
                src: v,
                volatile: has(i, "volatile"),
            });
        }
        Ok(())
    }

    fn atomic(&mut self, i: &Instruction) -> Res<()> {
        let at = access_type(i)?;
        let t = at
            .scalar()
            .map_err(|e| LowerError::at(i, format!("`{}`: {e}", full_name(i, &i.opcode))))?;
        let op = i
            .modifiers
            .iter()
            .find_map(|m| {
                Some(match m.as_str() {
                    "add" => AtomicOp::Add,
                    "min" => AtomicOp::Min,
                    "max" => AtomicOp::Max,
                    "exch" => AtomicOp::Exch,
                    "cas" => AtomicOp::Cas,
                    "and" => AtomicOp::And,
                    "or" => AtomicOp::Or,
                    "xor" => AtomicOp::Xor,
                    "inc" => AtomicOp::Inc,
                    "dec" => AtomicOp::Dec,
                    _ => return None,
                })
            })
            .ok_or_else(|| {
                LowerError::at(
                    i,
                    format!(
                        "`{}`: only add, min, max, exch, cas, and, or, xor, inc and dec are \
                         supported",
                        full_name(i, &i.opcode)
                    ),
                )
            })?;
        // PTX defines `and/or/xor` on `.b32`/`.b64` and `inc/dec` on `.u32` only.
        let type_ok = match op {
            AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => t.is_int(),
            AtomicOp::Inc | AtomicOp::Dec => t == ScalarType::U32,
            _ => true,
        };
        if !type_ok {
            return Err(LowerError::at(
                i,
                format!(
                    "`{}`: {} is not defined on {t}",
                    full_name(i, &i.opcode),
                    op.c_name()
                ),
            ));
        }
        let red = i.opcode == "red";
        let first_value = if red { 1 } else { 2 };
        let dst = if red { None } else { Some(self.dst(i, 0)?) };
        let value_op = i
            .operands
            .get(first_value)
            .ok_or_else(|| LowerError::at(i, "missing atomic operand"))?;
        let (value, compare) = if op == AtomicOp::Cas {
            let cmp_op = value_op;
            let new_op = i
                .operands
                .get(first_value + 1)
                .ok_or_else(|| LowerError::at(i, "`atom.cas` needs a compare and a new value"))?;
            let c = self.value(i, cmp_op, t)?;
            (self.value(i, new_op, t)?, Some(c))
        } else {
            (self.value(i, value_op, t)?, None)
        };
        let (mem, off) = self.address(i, 0)?;
        self.e.emit(Inst::Atomic {
            op,
            ty: t,
            dst,
            mem,
            offset: off,
            value,
            compare,
        });
        Ok(())
    }
}

fn bin(op: BinaryOp, ty: ScalarType, dst: Reg, a: Reg, b: Reg) -> Inst {
    Inst::Binary {
        op,
        ty,
        dst,
        a,
        b,
        checked: false,
    }
}

fn cast(from: ScalarType, to: ScalarType, dst: Reg, src: Reg) -> Inst {
    Inst::Cast { from, to, dst, src }
}

/// The integer type of twice the width and the same signedness (`.wide` results).
fn wide(t: ScalarType) -> ScalarType {
    match t {
        ScalarType::I16 => ScalarType::I32,
        ScalarType::U16 => ScalarType::U32,
        ScalarType::I32 => ScalarType::I64,
        _ => ScalarType::U64,
    }
}

/// `opcode.mod1.mod2.type` as written.
fn full_name(i: &Instruction, opcode: &str) -> String {
    let mut s = opcode.to_string();
    for m in i.modifiers.iter().chain(&i.types) {
        s.push('.');
        s.push_str(m);
    }
    s
}

fn operand_text(o: &Operand) -> String {
    match o {
        Operand::Reg(r) | Operand::Symbol(r) => r.clone(),
        Operand::Imm(i) => format!("{i:?}"),
        Operand::Not(p) => format!("!{p}"),
        Operand::Pair(a, b) => format!("{a}|{b}"),
        Operand::Sink => "_".into(),
        Operand::Vector(_) => "{...}".into(),
        Operand::Address { base, offset } => format!("[{base}+{offset}]"),
        Operand::List(_) => "(...)".into(),
    }
}
