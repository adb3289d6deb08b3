//! A function body flattened: nested `{ }` scopes removed, labels and instructions in order,
//! every register and variable declaration collected.

use super::types::PtxType;
use super::LowerError;
use crate::ast::{Function, Instruction, Item, RegDecl, VarDecl};
use std::collections::HashMap;

/// Most registers a function may declare: NVRTC's largest bundled kernel declares under 2000,
/// and each one costs a map entry here and a slot per thread in the interpreter, so a few
/// declarations of huge ranges must not take seconds and gigabytes.
const MAX_REGISTERS: u64 = 1 << 18;

/// One step of a flattened body.
pub(crate) enum Step<'a> {
    /// A label.
    Label(&'a str),
    /// An instruction.
    Instr(&'a Instruction),
}

/// A flattened body with its declarations.
pub(crate) struct Flat<'a> {
    pub steps: Vec<Step<'a>>,
    /// Every declared register with its type.
    pub regs: HashMap<String, PtxType>,
    /// Declarations inside the body (`.shared`, `.local`).
    pub vars: Vec<&'a VarDecl>,
}

impl<'a> Flat<'a> {
    /// Flattens `f`.
    pub fn new(f: &'a Function) -> Result<Flat<'a>, LowerError> {
        let mut flat = Flat {
            steps: Vec::new(),
            regs: HashMap::new(),
            vars: Vec::new(),
        };
        for r in &f.regs {
            flat.declare(r)?;
        }
        flat.items(&f.body)?;
        Ok(flat)
    }

    /// The instructions alone.
    pub fn instrs(&self) -> impl Iterator<Item = &'a Instruction> + '_ {
        self.steps.iter().filter_map(|s| match s {
            Step::Instr(i) => Some(*i),
            Step::Label(_) => None,
        })
    }

    fn items(&mut self, items: &'a [Item]) -> Result<(), LowerError> {
        for it in items {
            match it {
                Item::Label(l) => self.steps.push(Step::Label(l)),
                Item::Instr(i) => self.steps.push(Step::Instr(i)),
                Item::Reg(r) => self.declare(r)?,
                Item::Var(v) => self.vars.push(v),
                Item::Block(b) => self.items(b)?,
            }
        }
        Ok(())
    }

    fn declare(&mut self, r: &RegDecl) -> Result<(), LowerError> {
        let ty = PtxType::parse(&r.ty).ok_or_else(|| {
            LowerError::new(
                format!("register `{}` has unsupported type `{}`", r.name, r.ty),
                0,
            )
        })?;
        match r.count {
            None => {
                self.regs.insert(r.name.clone(), ty);
            }
            Some(n) => {
                let total = self.regs.len() as u64 + u64::from(n);
                if total > MAX_REGISTERS {
                    return Err(LowerError::new(
                        format!(
                            "register range `{}<{n}>` makes {total} registers, more than the {MAX_REGISTERS} warpsafe lowers",
                            r.name
                        ),
                        0,
                    ));
                }
                for i in 0..n {
                    self.regs.insert(format!("{}{i}", r.name), ty);
                }
            }
        }
        Ok(())
    }
}
