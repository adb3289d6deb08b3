//! Which signed integer arithmetic of the PTX works on memory contents only, and may be read
//! as unsigned because the source kernel does no signed arithmetic on memory contents.
//!
//! NVRTC emits `add.s32` (and `sub`, `mul.lo`, `mad.lo`) for additions the source declares
//! `unsigned` as readily as for `int` ones: the instructions are the same bits. The lifting
//! keeps signed arithmetic signed so that the `overflow` property reports what the source's
//! signed overflow would be; for sums of memory contents that the source adds as `unsigned`
//! (wrapping by definition) that is a false alarm. When the source kernel is at hand (the
//! `.cu` a `--via-ptx` verification compiles, or the sibling of a `.ptx` file) and none of its
//! signed arithmetic reads memory contents, directly or through variables, no signed overflow
//! of the source involves them, so a PTX instruction whose operands all hold memory contents
//! (or are immediates) is no signed operation of the source and is lowered unsigned. Any
//! signed arithmetic on contents in the source (an `int` twin) keeps every instruction as the
//! PTX types it.

use super::flat::Flat;
use crate::ast::{Instruction, Operand};
use std::collections::HashSet;
use warpsafe_ir::{BinOp, ExprKind, Kernel, Stmt, StmtKind, UnOp, VarId};

/// The registers that hold memory contents, when the source's arithmetic on memory contents
/// is all unsigned (or float); empty otherwise.
#[derive(Debug, Default)]
pub(crate) struct DataRegs {
    regs: HashSet<String>,
}

impl DataRegs {
    /// The registers of `flat` that may read memory contents (loads other than `ld.param`,
    /// atomics, and whatever is computed from them), when `source` does no signed arithmetic
    /// on memory contents; none without a source.
    pub fn new(flat: &Flat, source: Option<&Kernel>) -> DataRegs {
        match source {
            Some(k) if !k.body.is_empty() && !signed_on_contents(k) => DataRegs {
                regs: contents(flat),
            },
            _ => DataRegs::default(),
        }
    }

    /// True when every operand of `i` in `ops` is a register holding memory contents or an
    /// immediate, and at least one is such a register: then `i` is no signed operation of the
    /// source.
    pub fn only_contents(&self, i: &Instruction, ops: std::ops::Range<usize>) -> bool {
        if self.regs.is_empty() {
            return false;
        }
        let Some(ops) = i.operands.get(ops) else {
            return false;
        };
        let ok = ops.iter().all(|o| match o {
            Operand::Reg(r) => self.regs.contains(r),
            Operand::Imm(_) => true,
            _ => false,
        });
        ok && ops.iter().any(|o| matches!(o, Operand::Reg(_)))
    }
}

/// Opcodes that write no register through their first operand.
const NO_DEST: &[&str] = &[
    "st",
    "red",
    "bar",
    "barrier",
    "bra",
    "ret",
    "exit",
    "membar",
    "fence",
    "call",
    "trap",
    "prefetch",
    "prefetchu",
    "brkpt",
    "nanosleep",
    "wmma",
    "cp",
    "mbarrier",
];

/// The registers that may hold memory contents: written by a load from memory (not a
/// parameter) or an atomic, or by any instruction reading such a register (flow-insensitive,
/// to a fixed point).
fn contents(flat: &Flat) -> HashSet<String> {
    let mut out: HashSet<String> = HashSet::new();
    loop {
        let before = out.len();
        for i in flat.instrs() {
            if NO_DEST.contains(&i.opcode.as_str()) {
                continue;
            }
            let source = match i.opcode.as_str() {
                "ld" | "ldu" => !i.modifiers.iter().any(|m| m == "param"),
                "atom" => true,
                _ => i.operands.iter().skip(1).any(|o| reads_any(o, &out)),
            };
            if source {
                if let Some(d) = i.operands.first() {
                    dests(d, &mut out);
                }
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

fn reads_any(o: &Operand, set: &HashSet<String>) -> bool {
    match o {
        Operand::Reg(r) | Operand::Not(r) => set.contains(r),
        Operand::Vector(v) | Operand::List(v) => v.iter().any(|x| reads_any(x, set)),
        Operand::Pair(a, b) => set.contains(a) || set.contains(b),
        Operand::Address { base, .. } => set.contains(base),
        _ => false,
    }
}

fn dests(o: &Operand, out: &mut HashSet<String>) {
    match o {
        Operand::Reg(r) => {
            out.insert(r.clone());
        }
        Operand::Pair(a, b) => {
            out.insert(a.clone());
            out.insert(b.clone());
        }
        Operand::Vector(v) => v.iter().for_each(|x| dests(x, out)),
        _ => {}
    }
}

/// True when some signed integer arithmetic of `k` (an operator other than a comparison or a
/// bitwise one, on a signed type) reads memory contents: a load, or a variable that is ever
/// assigned something computed from one (or the result of a shuffle, vote or atomic).
fn signed_on_contents(k: &Kernel) -> bool {
    let mut tainted: HashSet<VarId> = HashSet::new();
    loop {
        let before = tainted.len();
        for s in &k.body {
            s.walk(&mut |s: &Stmt| match &s.kind {
                StmtKind::Let {
                    var,
                    init: Some(value),
                }
                | StmtKind::Assign { var, value }
                    if reads_contents(value, &tainted) =>
                {
                    tainted.insert(*var);
                }
                StmtKind::Shuffle { dst, .. }
                | StmtKind::Vote { dst, .. }
                | StmtKind::ActiveMask { dst }
                | StmtKind::Arbitrary { dst }
                | StmtKind::SyncThreadsVote { dst, .. }
                | StmtKind::Atomic { dst: Some(dst), .. } => {
                    tainted.insert(*dst);
                }
                _ => {}
            });
        }
        if tainted.len() == before {
            break;
        }
    }
    let mut found = false;
    for s in &k.body {
        s.walk(&mut |s: &Stmt| {
            for e in s.exprs() {
                e.walk(&mut |x| {
                    let signed_int = x.ty.is_int() && x.ty.is_signed();
                    let hit = match &x.kind {
                        ExprKind::Binary(op, a, b) => {
                            signed_int
                                && !op.is_comparison()
                                && !matches!(op, BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor)
                                && (reads_contents(a, &tainted) || reads_contents(b, &tainted))
                        }
                        ExprKind::Unary(UnOp::Neg, a) => signed_int && reads_contents(a, &tainted),
                        _ => false,
                    };
                    found |= hit;
                });
            }
        });
    }
    found
}

/// True when `e` reads memory or a tainted variable.
fn reads_contents(e: &warpsafe_ir::Expr, tainted: &HashSet<VarId>) -> bool {
    let mut found = false;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Load(..) => found = true,
        ExprKind::Var(v) if tainted.contains(v) => found = true,
        _ => {}
    });
    found
}
