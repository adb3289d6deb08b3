//! Runs one block: SIMT warps with min-pc reconvergence, block barriers, and barrier
//! divergence (threads at different barriers, or waiting for threads that exited).

use super::collective::{self, Release};
use super::context::{coords, Ctx};
use super::findings::Party;
use super::step;
use super::worker::{Worker, BARRIER, EXITED, PARKED, RUN};
use warpsafe_ir::Category;

/// Runs the block at `block` to completion (or until a divergence stops it).
pub(crate) fn run_block(ctx: &Ctx, w: &mut Worker, block: [u32; 3]) {
    w.start_block(ctx, block);
    loop {
        for warp in 0..ctx.warps {
            run_warp(ctx, w, warp);
            if w.stopped {
                return;
            }
        }
        if !barrier_step(ctx, w) {
            return;
        }
    }
}

/// Runs `warp` until none of its lanes can run.
fn run_warp(ctx: &Ctx, w: &mut Worker, warp: usize) {
    loop {
        let pcs = &w.pcs[warp];
        let pc = pcs.iter().copied().fold(PARKED, u32::min);
        if pc == PARKED {
            match collective::release(ctx, w, warp) {
                Release::Released => continue,
                Release::Idle | Release::Stopped => return,
            }
        }
        let mut mask = 0u32;
        for (i, &p) in pcs.iter().enumerate() {
            mask |= ((p == pc) as u32) << i;
        }
        w.instrs += mask.count_ones() as u64;
        if w.instrs > ctx.max_block_instructions {
            w.over_budget = true;
            w.stopped = true;
            return;
        }
        step::exec(ctx, w, warp, pc, mask);
    }
}

/// Called when no warp can run: releases a complete barrier (true) or ends the block (false),
/// reporting divergence when threads wait that can never be released.
fn barrier_step(ctx: &Ctx, w: &mut Worker) -> bool {
    let mut first: Option<(u32, u32)> = None; // (tid, pc) of the first waiting thread
    let mut other_barrier: Option<(u32, u32)> = None;
    let mut exited: Option<(u32, u32)> = None;
    for warp in 0..ctx.warps {
        for lane in 0..32 {
            let tid = (warp * 32 + lane) as u32;
            let pc = w.wait_pc[warp][lane];
            match w.state[warp][lane] {
                BARRIER => match first {
                    None => first = Some((tid, pc)),
                    Some((_, p0))
                        if other_barrier.is_none()
                            && barrier_id(ctx, pc) != barrier_id(ctx, p0) =>
                    {
                        other_barrier = Some((tid, pc))
                    }
                    _ => {}
                },
                EXITED if exited.is_none() => exited = Some((tid, pc)),
                _ => {}
            }
        }
    }
    let Some((tid, pc)) = first else {
        return false;
    };
    let problem = other_barrier
        .map(|o| (o, true))
        .or(exited.map(|e| (e, false)));
    if let Some(((otid, opc), at_barrier)) = problem {
        if ctx.checks.divergence {
            report(ctx, w, (tid, pc), (otid, opc), at_barrier);
            return false;
        }
    }
    w.epoch += 1;
    w.barriers += 1;
    for warp in 0..ctx.warps {
        for lane in 0..32 {
            if w.state[warp][lane] == BARRIER {
                w.state[warp][lane] = RUN;
                w.pcs[warp][lane] = w.wait_pc[warp][lane] + 1;
            }
        }
    }
    true
}

fn barrier_id(ctx: &Ctx, pc: u32) -> Option<u32> {
    match ctx.insts.get(pc as usize) {
        Some(crate::thread::code::Inst::Barrier { id }) => Some(*id),
        _ => None,
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
            let id = |pc| barrier_id(ctx, pc).map(|i| format!("#{i}")).unwrap_or_default();
            let msg = if at_barrier {
                format!(
                    "barrier divergence in block {}: thread {} waits at __syncthreads() {} while thread {} waits at a different __syncthreads() {}; the block deadlocks",
                    coords(block),
                    ctx.thread_text(tid),
                    id(pc),
                    ctx.thread_text(otid),
                    id(opc)
                )
            } else {
                format!(
                    "barrier divergence in block {}: thread {} waits at __syncthreads() {} but thread {} has already returned and never arrives",
                    coords(block),
                    ctx.thread_text(tid),
                    id(pc),
                    ctx.thread_text(otid)
                )
            };
            (msg, None)
        },
    );
}
