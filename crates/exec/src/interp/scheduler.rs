//! Runs one block: SIMT warps with min-pc reconvergence, block barriers, and barrier
//! divergence (threads at different barriers, or waiting for threads that exited).

use super::budget::Budget;
use super::collective::{self, Release};
use super::context::{coords, Ctx};
use super::findings::Party;
use super::step;
use super::worker::{Worker, BARRIER, EXITED, PARKED, RUN};
use crate::thread::code::Inst;
use warpsafe_ir::{BlockVoteKind, Category};

/// A small deterministic random source for schedules (xorshift64*).
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// How a block's run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockEnd {
    /// Every thread exited.
    Finished,
    /// Every thread that has not exited waits at a grid barrier (resume with [`resume_block`]
    /// after [`release_grid`]).
    AtGrid,
    /// A divergence, or the budget, stopped the block.
    Stopped,
}

/// Runs the block at `block` to completion (or until a divergence or the budget stops it, or
/// its threads wait at a grid barrier), in the default schedule or, with `rng`, in a random
/// legal one.
pub(crate) fn run_block(
    ctx: &Ctx,
    w: &mut Worker,
    block: [u32; 3],
    rng: Option<&mut Rng>,
    budget: &Budget,
) -> BlockEnd {
    w.start_block(ctx, block);
    w.next_check = budget.next_check(0);
    resume_block(ctx, w, rng, budget)
}

/// Continues a started block (after [`release_grid`]) until it ends or waits at the next grid
/// barrier.
pub(crate) fn resume_block(
    ctx: &Ctx,
    w: &mut Worker,
    mut rng: Option<&mut Rng>,
    budget: &Budget,
) -> BlockEnd {
    let end = run_warps(ctx, w, &mut rng, budget);
    if end != BlockEnd::AtGrid
        && !w.over_budget
        && !budget.check_in(w.block, w.instrs, &mut w.reported)
    {
        w.over_budget = true;
    }
    if w.stopped {
        BlockEnd::Stopped
    } else {
        end
    }
}

fn run_warps(ctx: &Ctx, w: &mut Worker, rng: &mut Option<&mut Rng>, budget: &Budget) -> BlockEnd {
    loop {
        match rng.as_deref_mut() {
            None => {
                for warp in 0..ctx.warps {
                    run_warp(ctx, w, warp, u64::MAX, None, budget);
                    if w.stopped {
                        return BlockEnd::Stopped;
                    }
                }
            }
            Some(r) => {
                // Warps interact only through barriers, so a warp that cannot run stays
                // blocked until the next barrier release.
                let mut live: Vec<usize> = (0..ctx.warps).collect();
                while !live.is_empty() {
                    let i = r.below(live.len());
                    let steps = 1 + r.below(48) as u64;
                    let blocked = run_warp(ctx, w, live[i], steps, Some(r), budget);
                    if w.stopped {
                        return BlockEnd::Stopped;
                    }
                    if blocked {
                        live.swap_remove(i);
                    }
                }
            }
        }
        match barrier_step(ctx, w) {
            Step::Released => {}
            Step::Ended => return BlockEnd::Finished,
            Step::Diverged => return BlockEnd::Stopped,
            Step::AtGrid => return BlockEnd::AtGrid,
        }
    }
}

/// Runs `warp` for at most `steps` instructions or until none of its lanes can run (then
/// returns true). With `rng` under independent thread scheduling, each step advances the
/// lanes at a randomly chosen pc rather than at the smallest one.
fn run_warp(
    ctx: &Ctx,
    w: &mut Worker,
    warp: usize,
    steps: u64,
    mut rng: Option<&mut Rng>,
    budget: &Budget,
) -> bool {
    let mut done = 0u64;
    loop {
        if done == steps {
            return false;
        }
        done += 1;
        let pcs = &w.pcs[warp];
        let mut pc = pcs.iter().copied().fold(PARKED, u32::min);
        if pc == PARKED {
            match collective::release(ctx, w, warp) {
                Release::Released => continue,
                Release::Idle | Release::Stopped => return true,
            }
        }
        if let Some(r) = rng.as_deref_mut().filter(|_| !ctx.lockstep) {
            let running = pcs.iter().filter(|&&p| p != PARKED).count();
            let k = r.below(running);
            pc = pcs
                .iter()
                .copied()
                .filter(|&p| p != PARKED)
                .nth(k)
                .unwrap_or(pc);
        }
        let mut mask = 0u32;
        for (i, &p) in pcs.iter().enumerate() {
            mask |= ((p == pc) as u32) << i;
        }
        w.instrs += mask.count_ones() as u64;
        if w.instrs > w.next_check {
            if !budget.check_in(w.block, w.instrs, &mut w.reported) {
                w.over_budget = true;
                w.stopped = true;
                return true;
            }
            w.next_check = budget.next_check(w.instrs);
        }
        step::exec(ctx, w, warp, pc, mask);
    }
}

/// What [`barrier_step`] did.
enum Step {
    /// Released the threads waiting at a complete block barrier.
    Released,
    /// No thread waits: the block is done.
    Ended,
    /// Threads wait at barriers that can never release (reported).
    Diverged,
    /// Every waiting thread waits at a grid barrier: the launch releases it.
    AtGrid,
}

/// Called when no warp can run: releases a complete barrier, ends the block, or leaves it
/// waiting at a grid barrier, reporting divergence when threads wait that can never be
/// released.
fn barrier_step(ctx: &Ctx, w: &mut Worker) -> Step {
    let mut first: Option<(u32, u32)> = None; // (tid, pc) of the first waiting thread
    let mut other_barrier: Option<(u32, u32)> = None;
    let mut exited: Option<(u32, u32)> = None;
    let mut at_grid = false;
    for warp in 0..ctx.warps {
        for lane in 0..32 {
            let tid = (warp * 32 + lane) as u32;
            let pc = w.wait_pc[warp][lane];
            match w.state[warp][lane] {
                BARRIER => {
                    at_grid |= is_grid_barrier(ctx, pc);
                    match first {
                        None => first = Some((tid, pc)),
                        Some((_, p0))
                            if other_barrier.is_none()
                                && barrier_id(ctx, pc) != barrier_id(ctx, p0) =>
                        {
                            other_barrier = Some((tid, pc))
                        }
                        _ => {}
                    }
                }
                EXITED if exited.is_none() => exited = Some((tid, pc)),
                _ => {}
            }
        }
    }
    let Some((tid, pc)) = first else {
        return Step::Ended;
    };
    let problem = other_barrier
        .map(|o| (o, true))
        .or(exited.map(|e| (e, false)));
    if let Some(((otid, opc), at_barrier)) = problem {
        if ctx.checks.divergence {
            report(ctx, w, (tid, pc), (otid, opc), at_barrier);
            return Step::Diverged;
        }
    }
    if at_grid {
        return Step::AtGrid;
    }
    release(ctx, w);
    Step::Released
}

/// Releases every thread of the block waiting at a grid barrier, once all blocks arrived.
pub(crate) fn release_grid(ctx: &Ctx, w: &mut Worker) {
    release(ctx, w);
}

/// Releases the threads waiting at a barrier: a new epoch orders their accesses before and
/// after it, and barrier reductions get their value.
fn release(ctx: &Ctx, w: &mut Worker) {
    w.epoch += 1;
    w.barriers += 1;
    // `__syncthreads_count/_and/_or`: reduce the predicates of the threads waiting at the
    // barrier (all threads of the block that have not exited, at the same site).
    let (mut count, mut waiting) = (0u64, 0u64);
    let mut any_vote = false;
    for warp in 0..ctx.warps {
        for lane in 0..32 {
            if w.state[warp][lane] != BARRIER {
                continue;
            }
            if let Some(&Inst::BarrierVote { pred, .. }) =
                ctx.insts.get(w.wait_pc[warp][lane] as usize)
            {
                any_vote = true;
                waiting += 1;
                count += w.regs[warp * ctx.nregs + pred as usize][lane] & 1;
            }
        }
    }
    if any_vote {
        for warp in 0..ctx.warps {
            for lane in 0..32 {
                if w.state[warp][lane] != BARRIER {
                    continue;
                }
                if let Some(&Inst::BarrierVote { kind, dst, .. }) =
                    ctx.insts.get(w.wait_pc[warp][lane] as usize)
                {
                    let v = match kind {
                        BlockVoteKind::Count => count,
                        BlockVoteKind::And => (count == waiting) as u64,
                        BlockVoteKind::Or => (count != 0) as u64,
                    };
                    w.regs[warp * ctx.nregs + dst as usize][lane] = v;
                }
            }
        }
    }
    for warp in 0..ctx.warps {
        for lane in 0..32 {
            if w.state[warp][lane] == BARRIER {
                w.state[warp][lane] = RUN;
                w.pcs[warp][lane] = w.wait_pc[warp][lane] + 1;
            }
        }
    }
}

fn barrier_id(ctx: &Ctx, pc: u32) -> Option<u32> {
    match ctx.insts.get(pc as usize) {
        Some(Inst::Barrier { id } | Inst::BarrierVote { id, .. } | Inst::GridBarrier { id }) => {
            Some(*id)
        }
        _ => None,
    }
}

/// True when the instruction at `pc` is a grid barrier.
pub(crate) fn is_grid_barrier(ctx: &Ctx, pc: u32) -> bool {
    matches!(ctx.insts.get(pc as usize), Some(Inst::GridBarrier { .. }))
}

/// How a barrier site is named in messages.
pub(crate) fn barrier_name(ctx: &Ctx, pc: u32) -> String {
    let id = barrier_id(ctx, pc)
        .map(|i| format!(" #{i}"))
        .unwrap_or_default();
    if is_grid_barrier(ctx, pc) {
        format!("grid barrier{id}")
    } else {
        format!("__syncthreads(){id}")
    }
}

fn report(ctx: &Ctx, w: &mut Worker, at: (u32, u32), other: (u32, u32), at_barrier: bool) {
    let block = w.block;
    let (tid, pc) = at;
    let (otid, opc) = other;
    w.sink.report(
        ctx,
        Category::Divergence,
        ctx.severity(Category::Divergence),
        Party { block, tid, pc },
        Some(Party {
            block,
            tid: otid,
            pc: opc,
        }),
        || {
            let msg = if at_barrier {
                format!(
                    "barrier divergence in block {}: thread {} waits at {} while thread {} waits at a different {}; the block deadlocks",
                    coords(block),
                    ctx.thread_text(tid),
                    barrier_name(ctx, pc),
                    ctx.thread_text(otid),
                    barrier_name(ctx, opc)
                )
            } else {
                format!(
                    "barrier divergence in block {}: thread {} waits at {} but thread {} has already returned and never arrives",
                    coords(block),
                    ctx.thread_text(tid),
                    barrier_name(ctx, pc),
                    ctx.thread_text(otid)
                )
            };
            (msg, None)
        },
    );
}
