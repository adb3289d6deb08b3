//! Barrier thread counts (`bar.sync a, b`): warpsafe models block-wide barriers only, so the
//! count must be the block's thread count. That depends on the launch, so the lowering
//! emits a check that the interpreter and the symbolic executor decide per launch: a
//! different count is an `assert` finding at the barrier's line, never a silently wrong
//! synchronisation.

use super::{bin, Lowerer, Res};
use crate::ast::Instruction;
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, Inst};
use warpsafe_ir::{Builtin, Check, Dim, ScalarType};

impl Lowerer<'_> {
    /// Emits `assert(b == ntid.x · ntid.y · ntid.z)` for the count operand of `i`.
    pub(super) fn whole_block_count(&mut self, i: &Instruction) -> Res<()> {
        let u = ScalarType::U32;
        let count = self.src(i, 1, u)?;
        let n = self.e.temp();
        let dim = self.e.temp();
        self.e.emit(Inst::Special {
            dst: n,
            which: Builtin::BlockDim(Dim::X),
        });
        for d in [Dim::Y, Dim::Z] {
            self.e.emit(Inst::Special {
                dst: dim,
                which: Builtin::BlockDim(d),
            });
            self.e.emit(bin(BinaryOp::Mul, u, n, n, dim));
        }
        let whole = self.e.temp();
        self.e.emit(Inst::Cmp {
            op: CmpOp::Eq,
            ty: u,
            dst: whole,
            a: count,
            b: n,
        });
        self.e.emit(Inst::Assert {
            cond: whole,
            check: Check::User,
        });
        Ok(())
    }
}
