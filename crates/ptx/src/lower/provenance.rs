//! Pointer provenance: which registers hold addresses into which allocation.
//!
//! A flow-insensitive fixpoint over the whole body: a register's provenance is the set of
//! allocations any of its definitions can point into. Pointer parameters, `mov r, symbol`,
//! `cvta`, `cvt`, `add`, `sub` (pointer minus integer), `mad` (the addend) and `selp` carry it;
//! every other instruction produces plain integers. At run time such a register holds the
//! byte offset into its allocation rather than an absolute address, so address arithmetic
//! lowers to ordinary integer arithmetic on offsets.

use super::flat::Flat;
use crate::ast::{Instruction, Operand};
use std::collections::{BTreeSet, HashMap, HashSet};

/// An allocation a pointer can point into.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Key {
    /// The global buffer of kernel parameter `.0`.
    Param(u32),
    /// A `.shared` or `.local` variable.
    Var(String),
}

/// The allocations a register may point into (empty: not a pointer).
pub(crate) type Prov = BTreeSet<Key>;

/// The provenance of every register of a body.
pub(crate) struct Provenance {
    map: HashMap<String, Prov>,
}

/// The operand that holds the address of a memory instruction (not `ld.param`).
pub(crate) fn address_operand(i: &Instruction) -> Option<&Operand> {
    match i.opcode.as_str() {
        "ld" if !i.modifiers.iter().any(|m| m == "param") => i.operands.get(1),
        "atom" => i.operands.get(1),
        "st" | "red" if !i.modifiers.iter().any(|m| m == "param") => i.operands.first(),
        "wmma" if i.modifiers.iter().any(|m| m == "load") => i.operands.get(1),
        "ldmatrix" => i.operands.get(1),
        "wmma" if i.modifiers.iter().any(|m| m == "store") => i.operands.first(),
        _ => None,
    }
}

impl Provenance {
    /// Runs the analysis. `params` maps parameter names to indices, `is_pointer` says which
    /// parameters are buffers, `vars` names the memory variables.
    pub fn analyse(
        flat: &Flat,
        params: &HashMap<String, u32>,
        is_pointer: &dyn Fn(u32) -> bool,
        vars: &HashSet<String>,
    ) -> Provenance {
        let mut p = Provenance {
            map: HashMap::new(),
        };
        loop {
            let mut changed = false;
            for i in flat.instrs() {
                let Some((dst, prov)) = p.transfer(i, params, is_pointer, vars) else {
                    continue;
                };
                if prov.is_empty() {
                    continue;
                }
                let e = p.map.entry(dst.to_string()).or_default();
                let before = e.len();
                e.extend(prov);
                changed |= e.len() != before;
            }
            if !changed {
                return p;
            }
        }
    }

    /// The provenance of register `reg` (empty when it is not a pointer).
    pub fn of(&self, reg: &str) -> Prov {
        self.map.get(reg).cloned().unwrap_or_default()
    }

    fn operand(&self, op: Option<&Operand>, vars: &HashSet<String>) -> Prov {
        match op {
            Some(Operand::Reg(r)) => self.of(r),
            Some(Operand::Symbol(s)) if vars.contains(s) => [Key::Var(s.clone())].into(),
            _ => Prov::new(),
        }
    }

    fn transfer<'i>(
        &self,
        i: &'i Instruction,
        params: &HashMap<String, u32>,
        is_pointer: &dyn Fn(u32) -> bool,
        vars: &HashSet<String>,
    ) -> Option<(&'i str, Prov)> {
        let dst = match i.operands.first()? {
            Operand::Reg(r) => r.as_str(),
            Operand::Pair(r, _) => r.as_str(),
            _ => return None,
        };
        let op = |n: usize| self.operand(i.operands.get(n), vars);
        let prov = match i.opcode.as_str() {
            "ld" if i.modifiers.iter().any(|m| m == "param") => match i.operands.get(1) {
                Some(Operand::Address { base, .. }) => match params.get(base) {
                    Some(&k) if is_pointer(k) => [Key::Param(k)].into(),
                    _ => Prov::new(),
                },
                _ => Prov::new(),
            },
            "mov" | "cvta" | "cvt" => op(1),
            "add" | "selp" | "and" => op(1).union(&op(2)).cloned().collect(),
            "sub" => {
                let (a, b) = (op(1), op(2));
                if b.is_empty() {
                    a
                } else if a == b && a.len() == 1 {
                    Prov::new()
                } else {
                    a.union(&b).cloned().collect()
                }
            }
            "mad" => {
                let mut p = op(3);
                p.extend(op(1));
                p.extend(op(2));
                p
            }
            _ => Prov::new(),
        };
        Some((dst, prov))
    }
}
