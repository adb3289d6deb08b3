//! The code buffer of a lowering: instructions with their PTX lines, registers (PTX ones and
//! temporaries), hoisted constants, labels and jump fix-ups.

use super::types::PtxType;
use super::LowerError;
use crate::ast::Instruction;
use std::collections::HashMap;
use warpsafe_exec::thread::code::{Alloc, Inst, Reg, ThreadCode};
use warpsafe_ir::{ScalarType, Span};

/// Where a jump goes before layout is final.
enum Target {
    /// A PTX label.
    Label(String),
    /// A label made by the lowering (the end of a predicated instruction).
    Internal(usize),
}

/// The growing thread code of one kernel.
pub(crate) struct Emitter {
    insts: Vec<Inst>,
    lines: Vec<usize>,
    /// PTX line of the instruction being lowered.
    pub line: usize,
    fixups: Vec<(usize, Target, usize)>,
    labels: HashMap<String, usize>,
    internal: Vec<usize>,
    consts: HashMap<(u64, ScalarType), Reg>,
    prologue: Vec<Inst>,
    regs: HashMap<String, (Reg, PtxType)>,
    next_reg: Reg,
    barriers: u32,
    shadows: HashMap<(String, u32), Reg>,
}

impl Emitter {
    /// An empty buffer with one thread-code register per declared PTX register.
    pub fn new(declared: &HashMap<String, PtxType>) -> Emitter {
        let mut names: Vec<(&String, &PtxType)> = declared.iter().collect();
        names.sort_by(|a, b| a.0.cmp(b.0));
        let regs: HashMap<String, (Reg, PtxType)> = names
            .into_iter()
            .enumerate()
            .map(|(i, (n, t))| (n.clone(), (i as Reg, *t)))
            .collect();
        Emitter {
            insts: Vec::new(),
            lines: Vec::new(),
            line: 0,
            fixups: Vec::new(),
            labels: HashMap::new(),
            internal: Vec::new(),
            consts: HashMap::new(),
            prologue: Vec::new(),
            next_reg: regs.len() as Reg,
            regs,
            barriers: 0,
            shadows: HashMap::new(),
        }
    }

    /// Appends `inst`.
    pub fn emit(&mut self, inst: Inst) {
        self.insts.push(inst);
        self.lines.push(self.line);
    }

    /// A fresh temporary register.
    pub fn temp(&mut self) -> Reg {
        let r = self.next_reg;
        self.next_reg += 1;
        r
    }

    /// A register holding `bits`, set once at entry.
    pub fn konst(&mut self, bits: u64, ty: ScalarType) -> Reg {
        if let Some(&r) = self.consts.get(&(bits, ty)) {
            return r;
        }
        let dst = self.temp();
        self.prologue.push(Inst::Const { dst, bits, ty });
        self.consts.insert((bits, ty), dst);
        dst
    }

    /// The register and declared type of PTX register `name`.
    pub fn reg(&self, i: &Instruction, name: &str) -> Result<(Reg, PtxType), LowerError> {
        self.regs
            .get(name)
            .copied()
            .ok_or_else(|| LowerError::at(i, format!("register `{name}` is not declared")))
    }

    /// The register that keeps element `slot` of PTX register `name` as a value of its own
    /// (the halves of a `.f16` wmma fragment register, which `wmma.mma` reads without
    /// taking the register's bits apart).
    pub fn shadow(&mut self, name: &str, slot: u32) -> Reg {
        let key = (name.to_string(), slot);
        if let Some(&r) = self.shadows.get(&key) {
            return r;
        }
        let r = self.temp();
        self.shadows.insert(key, r);
        r
    }

    /// A fresh static barrier site number.
    pub fn barrier_id(&mut self) -> u32 {
        self.barriers += 1;
        self.barriers - 1
    }

    /// Places PTX label `name` at the next instruction.
    pub fn label(&mut self, name: &str) {
        self.labels.insert(name.to_string(), self.insts.len());
    }

    /// A new internal label, not yet placed.
    pub fn new_label(&mut self) -> usize {
        self.internal.push(usize::MAX);
        self.internal.len() - 1
    }

    /// Places internal label `l` at the next instruction.
    pub fn place(&mut self, l: usize) {
        if let Some(p) = self.internal.get_mut(l) {
            *p = self.insts.len();
        }
    }

    /// Emits a jump or branch to PTX label `name`.
    pub fn jump_to_label(&mut self, inst: Inst, name: &str) {
        self.fixups
            .push((self.insts.len(), Target::Label(name.to_string()), self.line));
        self.emit(inst);
    }

    /// Emits a jump or branch to internal label `l`.
    pub fn jump_to_internal(&mut self, inst: Inst, l: usize) {
        self.fixups
            .push((self.insts.len(), Target::Internal(l), self.line));
        self.emit(inst);
    }

    /// Lays out prologue and body, resolves jumps and builds the thread code; `spans` turns a
    /// PTX line into a source span.
    pub fn finish(
        mut self,
        name: &str,
        allocs: Vec<Alloc>,
        spans: &dyn Fn(usize) -> Span,
    ) -> Result<ThreadCode, LowerError> {
        let shift = self.prologue.len();
        for (at, target, line) in std::mem::take(&mut self.fixups) {
            let pos = match &target {
                Target::Label(l) => self.labels.get(l).copied().ok_or_else(|| {
                    LowerError::new(format!("branch to undefined label `{l}`"), line)
                })?,
                Target::Internal(l) => self
                    .internal
                    .get(*l)
                    .copied()
                    .filter(|&p| p != usize::MAX)
                    .ok_or_else(|| LowerError::new("internal label not placed", line))?,
            };
            if let Some(t) = self.insts.get_mut(at).and_then(Inst::target_mut) {
                *t = (pos + shift) as u32;
            }
        }
        let first_line = self.lines.first().copied().unwrap_or(0);
        let mut insts = self.prologue;
        let mut span_list = vec![spans(first_line); insts.len()];
        insts.extend(self.insts);
        span_list.extend(self.lines.iter().map(|&l| spans(l)));
        Ok(ThreadCode {
            name: name.to_string(),
            insts,
            spans: span_list,
            num_regs: self.next_reg,
            allocs,
            num_barriers: self.barriers,
        })
    }
}
