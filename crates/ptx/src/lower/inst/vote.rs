//! `vote.sync` from warp shuffles: the thread code has no vote, but a ballot is one
//! `shfl.sync.idx` per lane of the mask (each a collective over the same mask, as the vote
//! is), and `all`, `any` and `uni` are comparisons of the ballot with the lanes that take
//! part. Lanes the mask names but the block does not have contribute no bit.

use super::{bin, has, Lowerer, Res};
use crate::ast::{Immediate, Instruction, Operand};
use crate::lower::LowerError;
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, Inst, Reg};
use warpsafe_ir::{Builtin, Dim, ScalarType, ShuffleKind};

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
        let fixed = match i.operands.get(2) {
            Some(Operand::Imm(Immediate::Int(m))) => Some(*m as u32),
            _ => None,
        };
        let (zero, one, k32) = (self.e.konst(0, u), self.e.konst(1, u), self.e.konst(32, u));
        let offer = self.e.temp();
        self.e.emit(Inst::Select {
            dst: offer,
            cond: p,
            a: one,
            b: zero,
        });
        let (base, size) = self.warp_base_and_block_size();
        let (ballot, members) = (self.e.temp(), self.e.temp());
        self.e.emit(Inst::Mov {
            dst: ballot,
            src: zero,
        });
        self.e.emit(Inst::Mov {
            dst: members,
            src: zero,
        });
        let (got, member, lane) = (self.e.temp(), self.e.temp(), self.e.temp());
        // The comparison's predicate has its own register: `member` holds bits (a register
        // is one IR variable of one type).
        let exists = self.e.temp();
        for j in 0..32u64 {
            if fixed.is_some_and(|m| m >> j & 1 == 0) {
                continue;
            }
            let kj = self.e.konst(j, u);
            self.e.emit(Inst::Shuffle {
                kind: ShuffleKind::Idx,
                ty: u,
                dst: got,
                mask,
                value: offer,
                lane: kj,
                width: k32,
            });
            // member = lane j exists (and, for a register mask, is in it)
            self.e.emit(bin(BinaryOp::Add, u, lane, base, kj));
            self.e.emit(Inst::Cmp {
                op: CmpOp::Lt,
                ty: u,
                dst: exists,
                a: lane,
                b: size,
            });
            self.e.emit(Inst::Select {
                dst: member,
                cond: exists,
                a: one,
                b: zero,
            });
            if fixed.is_none() {
                self.e.emit(bin(BinaryOp::Shr, u, lane, mask, kj));
                self.e.emit(bin(BinaryOp::And, u, member, member, lane));
            }
            self.e.emit(bin(BinaryOp::And, u, got, got, member));
            for (acc, bit) in [(ballot, got), (members, member)] {
                self.e.emit(bin(BinaryOp::Shl, u, bit, bit, kj));
                self.e.emit(bin(BinaryOp::Or, u, acc, acc, bit));
            }
        }
        let cmp = |e: &mut super::Emitter, op: CmpOp, dst: Reg, a: Reg, b: Reg| {
            e.emit(Inst::Cmp {
                op,
                ty: u,
                dst,
                a,
                b,
            })
        };
        match mode {
            Mode::Ballot => self.e.emit(Inst::Mov {
                dst: d,
                src: ballot,
            }),
            Mode::All => cmp(&mut self.e, CmpOp::Eq, d, ballot, members),
            Mode::Any => cmp(&mut self.e, CmpOp::Ne, d, ballot, zero),
            Mode::Uni => {
                let none = self.e.temp();
                cmp(&mut self.e, CmpOp::Eq, none, ballot, zero);
                cmp(&mut self.e, CmpOp::Eq, d, ballot, members);
                self.e.emit(bin(BinaryOp::Or, ScalarType::Bool, d, d, none));
            }
        }
        Ok(())
    }

    /// Registers holding the linear thread index of lane 0 of this thread's warp and the
    /// block's thread count.
    fn warp_base_and_block_size(&mut self) -> (Reg, Reg) {
        let u = ScalarType::U32;
        let r: Vec<Reg> = (0..4).map(|_| self.e.temp()).collect();
        let (linear, size, t, lane) = (r[0], r[1], r[2], r[3]);
        let special =
            |e: &mut super::Emitter, dst: Reg, which: Builtin| e.emit(Inst::Special { dst, which });
        // linear = tid.x + ntid.x·(tid.y + ntid.y·tid.z); size = ntid.x·ntid.y·ntid.z
        special(&mut self.e, linear, Builtin::ThreadIdx(Dim::Z));
        special(&mut self.e, t, Builtin::BlockDim(Dim::Y));
        self.e.emit(bin(BinaryOp::Mul, u, linear, linear, t));
        special(&mut self.e, t, Builtin::ThreadIdx(Dim::Y));
        self.e.emit(bin(BinaryOp::Add, u, linear, linear, t));
        special(&mut self.e, t, Builtin::BlockDim(Dim::X));
        self.e.emit(bin(BinaryOp::Mul, u, linear, linear, t));
        special(&mut self.e, t, Builtin::ThreadIdx(Dim::X));
        self.e.emit(bin(BinaryOp::Add, u, linear, linear, t));
        special(&mut self.e, size, Builtin::BlockDim(Dim::X));
        special(&mut self.e, t, Builtin::BlockDim(Dim::Y));
        self.e.emit(bin(BinaryOp::Mul, u, size, size, t));
        special(&mut self.e, t, Builtin::BlockDim(Dim::Z));
        self.e.emit(bin(BinaryOp::Mul, u, size, size, t));
        special(&mut self.e, lane, Builtin::LaneId);
        self.e.emit(bin(BinaryOp::Sub, u, linear, linear, lane));
        (linear, size)
    }
}
