//! `vote.sync` as the thread code's warp vote (`Inst::Vote`, which the source's
//! `__ballot_sync`, `__any_sync` and `__all_sync` lower to as well, so the lifting gives
//! back the source's vote): the lanes of the mask that the block has vote; `uni` is
//! `!any || all` over the same mask. Lanes the mask names but the block does not have
//! contribute no bit.

use super::{bin, has, Lowerer, Res};
use crate::ast::Instruction;
use crate::lower::LowerError;
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, Inst, Reg};
use warpsafe_ir::{ScalarType, VoteKind};

/// What a vote computes.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    All,
    Any,
    Uni,
    Ballot,
}

impl Lowerer<'_> {
    /// `vote.sync.{all,any,uni}.pred d, p, mask` and `vote.sync.ballot.b32 d, p, mask`.
    pub(super) fn vote(&mut self, i: &Instruction) -> Res<()> {
        if !has(i, "sync") {
            return Err(LowerError::at(
                i,
                "`vote` without `.sync` (pre-Volta) is not supported",
            ));
        }
        let mode = if has(i, "all") {
            Mode::All
        } else if has(i, "any") {
            Mode::Any
        } else if has(i, "uni") {
            Mode::Uni
        } else if has(i, "ballot") {
            Mode::Ballot
        } else {
            return Err(LowerError::at(
                i,
                "`vote` needs .all, .any, .uni or .ballot",
            ));
        };
        let u = ScalarType::U32;
        let d = self.dst(i, 0)?;
        let p = self.src(i, 1, ScalarType::Bool)?;
        let mask = self.src(i, 2, u)?;
        self.direct_vote(mode, d, p, mask)
    }

    /// The vote as the thread code's own collective (`Inst::Vote`, the form of the source's
    /// `__ballot_sync`, `__any_sync` and `__all_sync`): the lanes of the mask that the block
    /// has vote. `any` and `all` give an `i32` 0 or 1 that the
    /// predicate `d` tests; `uni` is `!any || all`, two votes over the same mask.
    fn direct_vote(&mut self, mode: Mode, d: Reg, p: Reg, mask: Reg) -> Res<()> {
        let vote = |e: &mut super::Emitter, kind: VoteKind| -> Reg {
            let t = e.temp();
            e.emit(Inst::Vote {
                kind,
                dst: t,
                mask,
                pred: p,
            });
            t
        };
        let i32t = ScalarType::I32;
        let test = |e: &mut super::Emitter, op: CmpOp, dst: Reg, t: Reg| {
            let zero = e.konst(0, i32t);
            e.emit(Inst::Cmp {
                op,
                ty: i32t,
                dst,
                a: t,
                b: zero,
            });
        };
        match mode {
            Mode::Ballot => {
                let t = vote(&mut self.e, VoteKind::Ballot);
                self.e.emit(Inst::Mov { dst: d, src: t });
            }
            Mode::Any => {
                let t = vote(&mut self.e, VoteKind::Any);
                test(&mut self.e, CmpOp::Ne, d, t);
            }
            Mode::All => {
                let t = vote(&mut self.e, VoteKind::All);
                test(&mut self.e, CmpOp::Ne, d, t);
            }
            Mode::Uni => {
                let any = vote(&mut self.e, VoteKind::Any);
                let all = vote(&mut self.e, VoteKind::All);
                let (none, every) = (self.e.temp(), self.e.temp());
                test(&mut self.e, CmpOp::Eq, none, any);
                test(&mut self.e, CmpOp::Ne, every, all);
                self.e
                    .emit(bin(BinaryOp::Or, ScalarType::Bool, d, none, every));
            }
        }
        Ok(())
    }
}
