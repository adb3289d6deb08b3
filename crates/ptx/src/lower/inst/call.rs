//! Calls left after inlining (see `flat`): the external functions NVRTC calls from device
//! code. `__assertfail` is what a failing `assert(...)` calls, so reaching it is the failed
//! assertion; `vprintf` (`printf`) has no effect on the kernel's memory; `ws_grid_sync` is
//! the grid barrier of generated CUDA C.

use super::{Lowerer, Res};
use crate::ast::{Instruction, Operand};
use crate::lower::LowerError;
use warpsafe_exec::thread::code::Inst;
use warpsafe_ir::{Check, ScalarType};

impl Lowerer<'_> {
    /// Lowers a `call` of an external function.
    pub(super) fn external_call(&mut self, i: &Instruction) -> Res<()> {
        let name = i.operands.iter().find_map(|o| match o {
            Operand::Symbol(s) => Some(s.as_str()),
            _ => None,
        });
        match name {
            Some("__assertfail") => {
                let f = self.e.konst(0, ScalarType::Bool);
                self.e.emit(Inst::Assert {
                    cond: f,
                    check: Check::User,
                });
                Ok(())
            }
            Some("vprintf") => Ok(()),
            Some(crate::lower::flat::GRID_BARRIER_FUNCTION) => {
                let id = self.e.barrier_id();
                self.e.emit(Inst::GridBarrier { id });
                Ok(())
            }
            Some(other) => Err(LowerError::at(
                i,
                format!("`call` of external function `{other}` is not supported"),
            )),
            None => Err(LowerError::at(i, "`call` needs a function name")),
        }
    }
}
