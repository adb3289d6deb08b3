//! Registers that always hold a multiple of an element size, and their quotients.
//!
//! NVRTC keeps byte offsets in registers across blocks and iterations: a pointer bumped by 64
//! each iteration, a shared-memory base `buf + (flip << 10)` computed before a branch. Such an
//! offset is not an expression the index division can see through. But when every
//! definition of a register is a multiple of `k` built from constants and other such
//! registers (sums, products by multiples, shifts, copies, selects), the register always
//! equals `k · q` for a companion variable `q` assigned next to each definition (both start
//! at zero). The index of an access through it is then `q`, exactly; the analysis is the
//! greatest fixpoint of that rule.

use super::inst::defined;
use std::collections::{HashMap, HashSet};
use warpsafe_exec::thread::code::{BinaryOp, Inst, Reg, ThreadCode};
use warpsafe_ir::ScalarType;

/// `(register, k)` pairs whose register is always a multiple of `k`.
pub(crate) fn multiples(
    code: &ThreadCode,
    types: &[Option<ScalarType>],
    sizes: &[u64],
    reachable: &dyn Fn(usize) -> bool,
) -> HashSet<(Reg, u64)> {
    let mut defs: HashMap<Reg, Vec<usize>> = HashMap::new();
    for (pc, inst) in code.insts.iter().enumerate() {
        if reachable(pc) {
            if let Some(d) = defined(inst) {
                defs.entry(d).or_default().push(pc);
            }
        }
    }
    let consts = constant_values(code, &defs);
    let mut out = HashSet::new();
    for &k in sizes.iter().filter(|&&k| k > 1) {
        let mut set: HashSet<Reg> = defs
            .keys()
            .copied()
            .filter(|r| {
                types
                    .get(*r as usize)
                    .copied()
                    .flatten()
                    .is_some_and(|t| t.is_int())
            })
            .collect();
        loop {
            let keep: HashSet<Reg> = set
                .iter()
                .copied()
                .filter(|r| {
                    defs[r]
                        .iter()
                        .all(|&pc| divides(&code.insts[pc], k, &set, &consts))
                })
                .collect();
            if keep.len() == set.len() {
                break;
            }
            set = keep;
        }
        out.extend(set.into_iter().map(|r| (r, k)));
    }
    out
}

/// Registers defined only by one constant, and its value.
fn constant_values(code: &ThreadCode, defs: &HashMap<Reg, Vec<usize>>) -> HashMap<Reg, i128> {
    defs.iter()
        .filter_map(|(r, pcs)| match pcs.as_slice() {
            [pc] => match code.insts[*pc] {
                Inst::Const { bits, ty, .. } if ty.is_int() => {
                    warpsafe_ir::Value::from_bits(ty, bits)
                        .as_i128()
                        .map(|v| (*r, v))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// True when the value `inst` defines is a multiple of `k` given that the registers of
/// `set` are.
fn divides(inst: &Inst, k: u64, set: &HashSet<Reg>, consts: &HashMap<Reg, i128>) -> bool {
    let k = k as i128;
    let mult = |r: Reg| set.contains(&r) || consts.get(&r).is_some_and(|c| c % k == 0);
    match *inst {
        Inst::Const { bits, ty, .. } => {
            ty.is_int()
                && warpsafe_ir::Value::from_bits(ty, bits)
                    .as_i128()
                    .is_some_and(|c| c % k == 0)
        }
        Inst::Mov { src, .. } => mult(src),
        Inst::Cast { from, to, src, .. } => {
            from.is_int() && to.is_int() && from.bits() <= to.bits() && mult(src)
        }
        Inst::Select { a, b, .. } => mult(a) && mult(b),
        Inst::Binary { op, a, b, ty, .. } if ty.is_int() => match op {
            BinaryOp::Add | BinaryOp::Sub => mult(a) && mult(b),
            BinaryOp::Mul => mult(a) || mult(b),
            BinaryOp::Shl => {
                mult(a)
                    || consts
                        .get(&b)
                        .is_some_and(|s| (0..62).contains(s) && (1i128 << s) % k == 0)
            }
            _ => false,
        },
        _ => false,
    }
}

/// Registers defined only by one integer constant, and its value.
pub(crate) fn constants(code: &ThreadCode) -> HashMap<Reg, i128> {
    let mut defs: HashMap<Reg, Vec<usize>> = HashMap::new();
    for (pc, inst) in code.insts.iter().enumerate() {
        if let Some(d) = defined(inst) {
            defs.entry(d).or_default().push(pc);
        }
    }
    constant_values(code, &defs)
}
