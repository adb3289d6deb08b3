//! Instructions the PTX road does not model, rejected with what they are.

use super::{full_name, Lowerer};
use crate::ast::Instruction;
use crate::lower::LowerError;

impl Lowerer<'_> {
    /// The error for an instruction family warpsafe's thread code has no model of.
    pub(super) fn unsupported_feature(&self, i: &Instruction) -> LowerError {
        let what = match i.opcode.as_str() {
            "cp" if i.modifiers.iter().any(|m| m.starts_with("async")) => {
                "`cp.async` (asynchronous copy)"
            }
            "cp" => "`cp` (bulk or tensor copy)",
            "mbarrier" => "`mbarrier` (split arrive/wait barriers on shared memory)",
            "stmatrix" => "`stmatrix` (warp-collective matrix store)",
            "wgmma" => "`wgmma` (warpgroup tensor-core matrix multiply)",
            "redux" => "`redux.sync` (warp reduction, `__reduce_*_sync`)",
            "match" => "`match.sync` (`__match_any_sync`/`__match_all_sync`)",
            "elect" => "`elect.sync`",
            "griddepcontrol" => "`griddepcontrol` (programmatic dependent launch)",
            "setmaxnreg" => "`setmaxnreg`",
            _ => "this instruction",
        };
        LowerError::at(
            i,
            format!(
                "{what} is not supported by the PTX road (in `{}`)",
                full_name(i, &i.opcode)
            ),
        )
    }
}
