//! If-conversion of branches on input data: a thread whose branch condition is a term runs both
//! sides, each under its path condition, and merges them at the branch's join point, the
//! immediate post-dominator (`if (s > m) m = s` becomes `m = max(m, s)`).
//!
//! Only forward regions free of barriers, warp collectives, atomic exchanges,
//! compare-and-swaps and wrapping increments/decrements, assertions and exits are converted (an
//! atomic add, sub, max, min, and, or or xor on a
//! side adds `guard ? v : 0`, or keeps the old value, at its cell or cells); what cannot be is "not structured" with the reason. A side that may not run must
//! not report bugs it would not make: its reads are in bounds and initialised (at an address
//! computed from input data, shown in bounds under the path's condition), its arithmetic
//! does not fault, or the run says why it cannot tell; its stores keep the old value when the
//! side does not run (`cell = c ? new : old`); races involving its accesses are undecided.

use crate::block::BlockRun;
use crate::finding::Issue;
use crate::shadow::Kind;
use crate::value::{self, SVal};
use std::collections::BTreeSet;
use warpsafe_algebra::{Node, TermId};
use warpsafe_exec::thread::code::{Inst, ThreadCode};
use warpsafe_ir::{AtomicOp, ScalarType};

/// Most instructions a converted region may span (a guard against pathological code).
const MAX_REGION: usize = 20_000;

/// Why a region is not converted.
type Refusal = String;

/// The join point of the branch at `pc` whose sides start at `pc + 1` and `target`: the first
/// pc every path from both sides reaches, when the code between is a forward region that can
/// run under a condition.
pub(crate) fn join_point(code: &ThreadCode, pc: u32, target: u32) -> Result<u32, Refusal> {
    if target <= pc {
        return Err("it is a loop whose exit depends on input data".into());
    }
    let mut frontier: BTreeSet<u32> = [pc + 1, target].into_iter().collect();
    let mut steps = 0usize;
    while frontier.len() > 1 {
        let Some(p) = frontier.pop_first() else { break };
        steps += 1;
        if steps > MAX_REGION {
            return Err(format!(
                "the code under it spans more than {MAX_REGION} instructions"
            ));
        }
        let Some(inst) = code.insts.get(p as usize) else {
            return Err("one side returns early".into());
        };
        if let Some(what) = blocker(inst) {
            return Err(format!("{what} lies under it"));
        }
        let succ: &[u32] = match *inst {
            Inst::Jump { target } => &[target],
            Inst::Branch { target, .. } => &[p + 1, target],
            _ => &[p + 1],
        };
        for &s in succ {
            if s <= p {
                return Err("a loop lies under it".into());
            }
            frontier.insert(s);
        }
    }
    frontier
        .pop_first()
        .ok_or_else(|| "it has no join point".into())
}

/// What makes an instruction impossible to run under a condition, if anything.
fn blocker(inst: &Inst) -> Option<&'static str> {
    Some(match inst {
        Inst::Exit => "an early return",
        Inst::Barrier { .. } | Inst::BarrierVote { .. } => "a barrier",
        Inst::GridBarrier { .. } => "a grid barrier",
        Inst::SyncWarp { .. } | Inst::Shuffle { .. } | Inst::Vote { .. } => "a warp collective",
        Inst::ActiveMask { .. } => "__activemask()",
        Inst::Arbitrary { .. } => "an arbitrary value",
        Inst::Atomic {
            op: AtomicOp::Exch | AtomicOp::Cas,
            ..
        } => "an atomic exchange or compare-and-swap",
        Inst::Atomic {
            op: AtomicOp::Inc | AtomicOp::Dec,
            ..
        } => "an atomic wrapping increment or decrement",
        Inst::Assert { .. } | Inst::Assume { .. } => "an assertion",
        _ => return None,
    })
}

impl BlockRun<'_, '_> {
    /// Runs both sides of lane `t`'s branch at `pc` on the term `cond` and leaves the lane at
    /// the join point with merged registers; the reason when the branch cannot be converted.
    pub(crate) fn if_convert(
        &mut self,
        t: usize,
        pc: u32,
        cond: TermId,
        target: u32,
        when: bool,
    ) -> Result<(), Refusal> {
        let one = self.store.int(1);
        let join = self.fork(t, pc, cond, target, when, one)?;
        self.pc[t] = join;
        Ok(())
    }

    /// Both sides of the branch at `pc` under `guard`; returns the join point.
    fn fork(
        &mut self,
        t: usize,
        pc: u32,
        cond: TermId,
        target: u32,
        when: bool,
        guard: TermId,
    ) -> Result<u32, Refusal> {
        let join = join_point(self.ctx.code, pc, target)?;
        let taken = if when {
            crate::cond::canonical(&mut self.store, cond)
        } else {
            crate::cond::negation(&mut self.store, cond)
        };
        let not_taken = crate::cond::negation(&mut self.store, taken);
        let range = t * self.ctx.nregs..(t + 1) * self.ctx.nregs;
        let before: Vec<SVal> = self.regs[range.clone()].to_vec();
        let g = crate::cond::conj(&mut self.store, &[guard, taken]);
        self.run_guarded(t, target, join, g)?;
        let after_taken: Vec<SVal> = self.regs[range.clone()].to_vec();
        self.regs[range.clone()].copy_from_slice(&before);
        let g = crate::cond::conj(&mut self.store, &[guard, not_taken]);
        self.run_guarded(t, pc + 1, join, g)?;
        for (r, &x) in after_taken.iter().enumerate() {
            let y = self.regs[range.start + r];
            if x != y {
                let ty = self.value_type(r as u32);
                let merged = self.merge(ty, taken, x, y);
                self.regs[range.start + r] = merged;
            }
        }
        Ok(join)
    }

    /// `taken ? x : y` for a register of type `ty`.
    fn merge(&mut self, ty: ScalarType, taken: TermId, x: SVal, y: SVal) -> SVal {
        value::select(&mut self.store, ty, SVal::T(taken), x, y)
    }

    /// Runs lane `t` from `from` to `join` under `guard` (a 0/1 term).
    fn run_guarded(
        &mut self,
        t: usize,
        from: u32,
        join: u32,
        guard: TermId,
    ) -> Result<(), Refusal> {
        let mut p = from;
        while p != join {
            let Some(&inst) = self.ctx.code.insts.get(p as usize) else {
                return Err("one side returns early".into());
            };
            self.instrs += 1;
            if self.instrs > self.ctx.max_instrs {
                return Err("the step limit was reached under it".into());
            }
            p = match inst {
                Inst::Jump { target } => target,
                Inst::Branch { cond, target, when } => match self.reg(t, cond) {
                    SVal::C(c) => {
                        if (c & 1 != 0) == when {
                            target
                        } else {
                            p + 1
                        }
                    }
                    v => {
                        let c = self.condition(cond, v)?;
                        self.fork(t, p, c, target, when, guard)?
                    }
                },
                Inst::Load {
                    ty,
                    dst,
                    mem,
                    offset,
                    ..
                } if matches!(self.reg(t, offset), SVal::T(_)) => {
                    let SVal::T(off) = self.reg(t, offset) else {
                        return Err("one side computes a memory address from input data".into());
                    };
                    let v = self.load_at(t, p, ty, mem, off, Some(guard))?;
                    self.set(t, dst, v);
                    p + 1
                }
                Inst::Store {
                    ty,
                    mem,
                    offset,
                    src,
                    ..
                } if matches!(self.reg(t, offset), SVal::T(_)) => {
                    let SVal::T(off) = self.reg(t, offset) else {
                        return Err("one side computes a memory address from input data".into());
                    };
                    let v = self.reg(t, src);
                    self.store_at(t, p, ty, mem, off, v, Some(guard))?;
                    p + 1
                }
                Inst::Atomic {
                    op,
                    ty,
                    dst,
                    mem,
                    offset,
                    value,
                    ..
                } => {
                    let v = self.reg(t, value);
                    let old = match self.reg(t, offset) {
                        SVal::T(off) => {
                            self.atomic_at(t, p, (op, ty, dst), mem, off, v, Some(guard))?
                        }
                        _ => {
                            let idx = self.guarded_index(t, mem, offset)?;
                            self.atomic_guarded(t, p, (op, ty, dst), mem, idx, v, guard)?
                        }
                    };
                    if let Some(d) = dst {
                        self.set(t, d, old);
                    }
                    p + 1
                }
                Inst::Load {
                    ty,
                    dst,
                    mem,
                    offset,
                    ..
                } => {
                    let idx = self.guarded_index(t, mem, offset)?;
                    let cell = self.cell(t, mem, idx);
                    if self.mem[mem as usize][cell] == SVal::Uninit {
                        return Err("one side may read memory never written".into());
                    }
                    self.guarded.insert(p);
                    let v = self.read(t, p, mem, idx, ty, Kind::Read);
                    self.set(t, dst, v);
                    p + 1
                }
                Inst::Store {
                    ty,
                    mem,
                    offset,
                    src,
                    ..
                } => {
                    let idx = self.guarded_index(t, mem, offset)?;
                    let cell = self.cell(t, mem, idx);
                    let old = match self.mem[mem as usize][cell] {
                        SVal::Uninit => {
                            return Err("one side writes memory never written before".into())
                        }
                        SVal::Input => {
                            let info = &self.ctx.mems[mem as usize];
                            let (name, elem) = (info.name.clone(), info.elem);
                            let s =
                                value::input_symbol(&mut self.store, &name, Some(idx as u64), elem);
                            let v = value::settle(&self.store, ty, s);
                            self.mem[mem as usize][cell] = v;
                            v
                        }
                        v => v,
                    };
                    let new = self.reg(t, src);
                    let merged = self.merge(ty, guard, new, old);
                    self.guarded.insert(p);
                    self.write(t, p, mem, idx, merged, Kind::Write);
                    p + 1
                }
                Inst::Unary {
                    op,
                    ty,
                    dst,
                    a,
                    checked,
                } => {
                    let x = self.reg(t, a);
                    let (v, fault) = value::unary(&mut self.store, op, ty, checked, x);
                    if fault.is_some() {
                        return Err("one side may fault (overflow or division by zero)".into());
                    }
                    self.set(t, dst, v);
                    p + 1
                }
                Inst::Binary {
                    op,
                    ty,
                    dst,
                    a,
                    b,
                    checked,
                } => {
                    let (x, y) = (self.reg(t, a), self.reg(t, b));
                    let (v, fault) = value::binary(&mut self.store, op, ty, checked, x, y);
                    if fault.is_some() {
                        return Err("one side may fault (overflow or division by zero)".into());
                    }
                    self.set(t, dst, v);
                    p + 1
                }
                other => {
                    if let Some(what) = blocker(&other) {
                        return Err(format!("{what} lies under it"));
                    }
                    self.exec_lane(t, p, &other);
                    p + 1
                }
            };
            if self.stopped {
                return Err("the run stopped under it".into());
            }
        }
        Ok(())
    }

    /// The 0/1 term of branch condition register `r` holding `v`.
    pub(crate) fn condition(&mut self, r: u32, v: SVal) -> Result<TermId, Refusal> {
        let c = value::term(&mut self.store, ScalarType::Bool, v);
        let zero_one = is_zero_one(&self.store, c, 0);
        if self.value_type(r) != ScalarType::Bool && !zero_one {
            return Err("its condition is not a comparison".into());
        }
        Ok(c)
    }

    /// The element index of a guarded access: concrete and in bounds, or the reason.
    fn guarded_index(&mut self, t: usize, mem: u32, offset: u32) -> Result<usize, Refusal> {
        let SVal::C(byte) = self.reg(t, offset) else {
            return Err("one side computes a memory address from input data".into());
        };
        let info = &self.ctx.mems[mem as usize];
        info.index(byte as i64).ok_or_else(|| {
            format!(
                "one side may access `{}` out of bounds (index {}, length {})",
                info.name,
                (byte as i64).div_euclid(info.elem.size_bytes() as i64),
                info.len
            )
        })
    }

    /// Reports that lane `t`'s branch at `pc` could not be converted, and stops the block.
    pub(crate) fn refuse_branch(&mut self, t: usize, pc: u32, why: &str) {
        self.report(Issue::NotStructured, (t as u32, pc), None, true, |s| {
            format!(
                "not a structured CTA: thread {} branches on input data and its two sides cannot both be run: {why}",
                s.thread_text(t as u32)
            )
        });
    }
}

/// True when `c` is 0 or 1 whatever the inputs: a comparison, a logical operation, a 0/1
/// constant, or a select between such (`a && b` as C computes it, `a ? b : a`).
fn is_zero_one(store: &warpsafe_algebra::Store, c: TermId, depth: u32) -> bool {
    if depth > 32 {
        return false;
    }
    match *store.node(c) {
        Node::Cmp(..) | Node::Not(_) | Node::And(..) | Node::Or(..) => true,
        Node::Const(_) => store
            .as_const(c)
            .is_some_and(|q| q.is_integer() && (*q.numer() == 0.into() || *q.numer() == 1.into())),
        Node::Select(_, a, b) => {
            is_zero_one(store, a, depth + 1) && is_zero_one(store, b, depth + 1)
        }
        _ => false,
    }
}
