//! `e^x` recovered from the instruction sequences NVRTC emits for it, so that the PTX road
//! sees the `exp` the source wrote rather than bit manipulations no real-number term explains.
//!
//! (`__expf(x)` is `ex2.approx(x · log2e)`, which the lowering keeps: it runs bit for bit as
//! the hardware computes it, and the symbolic executor reads `2^(x·log2e)` as `e^x`.)
//! `expf(x)` is a range reduction:
//!
//! ```text
//! j  = fma.rm(sat(fma(x, log2e/256, 0.5)), 252, 12582913)   an integer-valued float
//! n  = j − 12583039                                           the power of two taken out
//! r  = fma(x, log2e_lo, fma(x, log2e_hi, −n))                 x·log₂e − n
//! 2ⁿ = bits(bits(j) << 23)                                    n + 127 in the exponent field
//! e^x = ex2.approx(r) · 2ⁿ
//! ```
//!
//! The shift identity is exact for the floats it can meet: `sat` keeps its operand in [0, 1],
//! so `j` lies in [12582913, 12583165], floats of unit spacing there, whose bits are
//! `0x4B400000 + (j − 12582912)`; shifted left by 23 within 32 bits only the low nine bits
//! survive, giving exponent field `j − 12582912` ∈ [1, 253] and sign 0, the float
//! `2^(j − 12583039)` = `2ⁿ`. The product is then `2^(x·(log2e_hi + log2e_lo))`, which is
//! `e^x` up to the rounding of `log₂ e` into two floats (a relative error below 2⁻⁵⁰) — the
//! same reading of float constants as reals the rest of the symbolic road makes. Every
//! constant is matched by its exact bits; anything else is lowered instruction by instruction.
//!
//! The tracker follows one basic block at a time, like [`divide`](super::divide): it knows,
//! for some registers, which stage of the sequence they hold for which input register `x`;
//! writing a register forgets its stage and every stage built on it, labels forget
//! everything, and guarded instructions teach nothing.

use crate::ast::{Immediate, Instruction, Operand};
use std::collections::HashMap;
use warpsafe_exec::thread::code::Reg;

/// `log₂ e` rounded to a float.
const LOG2E: u32 = 0x3FB8_AA3B;
/// The low part of `log₂ e` after [`LOG2E`].
const LOG2E_LO: u32 = 0x32A5_7060;
/// `log₂ e / 256`, the first step of the range reduction.
const LOG2E_256: u32 = 0x3BBB_989D;
/// `0.5`.
const HALF: u32 = 0x3F00_0000;
/// `252.0`.
const SPAN: u32 = 0x437C_0000;
/// `12582913.0 = 1.5·2²³ + 1`.
const MAGIC: u32 = 0x4B40_0001;
/// `−12583039.0 = −(1.5·2²³ + 127)`.
const UNBIAS: u32 = 0xCB40_007F;

/// Which value of the sequence a register holds, for input `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// An `f32` constant (its bits).
    Const(u32),
    /// `x · log2e/256 + 0.5`.
    Reduced,
    /// `sat(Reduced)`.
    Saturated,
    /// `j = fma.rm(Saturated, 252, 12582913)`.
    J,
    /// `n = j − 12583039`.
    N,
    /// `−n`.
    NegN,
    /// `x · log2e_hi − n`.
    High,
    /// `r = x · log2e_lo + High`.
    R,
    /// The bits of `j` in an integer register.
    JBits,
    /// `bits(j) << 23`.
    Shifted,
    /// `2ⁿ` as a float.
    Pow,
    /// `ex2.approx(r)`.
    Ex2,
}

/// A register's stage and the input it is a function of.
#[derive(Clone, Debug)]
struct Known {
    stage: Stage,
    /// The input register (`None` for constants).
    x: Option<(String, Reg)>,
}

/// What to emit instead of an instruction's plain translation: `dst = expf(x)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ExpRewrite {
    /// The input register.
    pub x: Reg,
}

/// The registers with known stages in the current basic block.
#[derive(Default)]
pub(crate) struct Exponentials {
    known: HashMap<String, Known>,
}

fn reg_name(op: Option<&Operand>) -> Option<&str> {
    match op {
        Some(Operand::Reg(r)) => Some(r),
        _ => None,
    }
}

fn has(i: &Instruction, m: &str) -> bool {
    i.modifiers.iter().any(|x| x == m)
}

/// True for `t`, or `t` with rounding `.rn` only (no other modifier that changes the value).
fn plain(i: &Instruction, allowed: &[&str]) -> bool {
    i.modifiers
        .iter()
        .all(|m| m == "rn" || m == "ftz" || allowed.contains(&m.as_str()))
}

impl Exponentials {
    /// Forgets everything (at a label).
    pub fn clear(&mut self) {
        self.known.clear();
    }

    /// Learns what `i` computes and returns the rewrite when it completes an exponential.
    /// `reg` gives a declared register's thread-code register.
    pub fn step(
        &mut self,
        i: &Instruction,
        reg: &dyn Fn(&str) -> Option<Reg>,
    ) -> Option<ExpRewrite> {
        let learned = if i.pred.is_none() {
            self.learn(i, reg)
        } else {
            None
        };
        if let Some(Operand::Reg(w)) = i.operands.first() {
            self.known.remove(w.as_str());
            self.known
                .retain(|_, k| k.x.as_ref().is_none_or(|(x, _)| x != w));
        }
        let (known, rewrite) = learned?;
        let dst = reg_name(i.operands.first())?;
        if let Some(k) = known {
            if k.x.as_ref().is_none_or(|(x, _)| x != dst) {
                self.known.insert(dst.to_string(), k);
            }
        }
        rewrite
    }

    /// The stage of operand `k` of `i`: a known register or an `f32` immediate.
    fn stage(&self, i: &Instruction, k: usize) -> Option<(Stage, Option<(String, Reg)>)> {
        match i.operands.get(k)? {
            Operand::Reg(r) => self.known.get(r).map(|kn| (kn.stage, kn.x.clone())),
            Operand::Imm(Immediate::F32(b)) => Some((Stage::Const(*b), None)),
            _ => None,
        }
    }

    fn constant(&self, i: &Instruction, k: usize) -> Option<u32> {
        match self.stage(i, k)? {
            (Stage::Const(b), _) => Some(b),
            _ => None,
        }
    }

    /// Operands `k` and `k + 1` as (input register, constant) in either order.
    fn input_times(
        &self,
        i: &Instruction,
        k: usize,
        reg: &dyn Fn(&str) -> Option<Reg>,
    ) -> Option<((String, Reg), u32)> {
        for (a, b) in [(k, k + 1), (k + 1, k)] {
            if let (Some(x), Some(c)) = (reg_name(i.operands.get(a)), self.constant(i, b)) {
                if !matches!(
                    self.known.get(x),
                    Some(Known {
                        stage: Stage::Const(_),
                        ..
                    })
                ) {
                    return Some(((x.to_string(), reg(x)?), c));
                }
            }
        }
        None
    }

    /// Operands `k` and `k + 1` as (stage with its input, constant) in either order.
    fn stage_times(&self, i: &Instruction, k: usize) -> Option<(Stage, (String, Reg), u32)> {
        for (a, b) in [(k, k + 1), (k + 1, k)] {
            if let (Some((s, Some(x))), Some(c)) = (self.stage(i, a), self.constant(i, b)) {
                return Some((s, x, c));
            }
        }
        None
    }

    fn learn(
        &self,
        i: &Instruction,
        reg: &dyn Fn(&str) -> Option<Reg>,
    ) -> Option<(Option<Known>, Option<ExpRewrite>)> {
        let ty = i.types.first().map(String::as_str)?;
        let known = |stage, x| Some((Some(Known { stage, x }), None));
        match (i.opcode.as_str(), ty) {
            ("mov", "f32") => match i.operands.get(1)? {
                Operand::Imm(Immediate::F32(b)) => known(Stage::Const(*b), None),
                Operand::Reg(r) => {
                    let k = self.known.get(r)?;
                    known(k.stage, k.x.clone())
                }
                _ => None,
            },
            ("mov", "b32") => {
                let (s, x) = self.stage(i, 1)?;
                match s {
                    Stage::J => known(Stage::JBits, x),
                    Stage::Shifted => known(Stage::Pow, x),
                    _ => None,
                }
            }
            ("mul", "f32") if plain(i, &[]) => {
                let (a, b) = (self.stage(i, 1)?, self.stage(i, 2)?);
                let x = match (a, b) {
                    ((Stage::Ex2, Some(x)), (Stage::Pow, Some(y)))
                    | ((Stage::Pow, Some(y)), (Stage::Ex2, Some(x)))
                        if x == y =>
                    {
                        x
                    }
                    _ => return None,
                };
                Some((None, Some(ExpRewrite { x: x.1 })))
            }
            ("fma", "f32") => {
                let c = self.stage(i, 3)?;
                if has(i, "rm") {
                    let (s, x, k) = self.stage_times(i, 1)?;
                    return (s == Stage::Saturated
                        && k == SPAN
                        && c == (Stage::Const(MAGIC), None))
                        .then_some({
                            (
                                Some(Known {
                                    stage: Stage::J,
                                    x: Some(x),
                                }),
                                None,
                            )
                        });
                }
                if !plain(i, &[]) {
                    return None;
                }
                let (x, k) = self.input_times(i, 1, reg)?;
                let stage = match (k, c) {
                    (LOG2E_256, (Stage::Const(HALF), None)) => Stage::Reduced,
                    (LOG2E, (Stage::NegN, Some(y))) if y == x => Stage::High,
                    (LOG2E_LO, (Stage::High, Some(y))) if y == x => Stage::R,
                    _ => return None,
                };
                known(stage, Some(x))
            }
            ("cvt", "f32") if has(i, "sat") && i.types.get(1).is_some_and(|t| t == "f32") => {
                match self.stage(i, 1)? {
                    (Stage::Reduced, x) => known(Stage::Saturated, x),
                    _ => None,
                }
            }
            ("add", "f32") if plain(i, &[]) => match (self.stage(i, 1)?, self.constant(i, 2)?) {
                ((Stage::J, x), UNBIAS) => known(Stage::N, x),
                _ => None,
            },
            ("neg", "f32") if plain(i, &[]) => match self.stage(i, 1)? {
                (Stage::N, x) => known(Stage::NegN, x),
                _ => None,
            },
            ("shl", "b32") => {
                let (s, x) = self.stage_bits(i)?;
                (s == Stage::JBits).then_some({
                    (
                        Some(Known {
                            stage: Stage::Shifted,
                            x,
                        }),
                        None,
                    )
                })
            }
            ("ex2", "f32") if has(i, "approx") => match self.stage(i, 1)? {
                (Stage::R, x) => known(Stage::Ex2, x),
                _ => None,
            },
            _ => None,
        }
    }

    /// `shl.b32 d, a, 23`: the stage of `a`.
    fn stage_bits(&self, i: &Instruction) -> Option<(Stage, Option<(String, Reg)>)> {
        match i.operands.get(2)? {
            Operand::Imm(Immediate::Int(23)) => {
                let k = self.known.get(reg_name(i.operands.get(1))?)?;
                Some((k.stage, k.x.clone()))
            }
            _ => None,
        }
    }
}
