//! Warp collectives (`__syncwarp`, shuffles): releasing a group when every lane of its mask
//! has arrived, the shuffle data exchange, the warp vector-clock join, and divergence when a
//! group can never complete.

use super::context::{coords, Ctx};
use super::findings::Party;
use super::memory::lanes;
use super::worker::{Worker, BARRIER, EXITED, RUN, WARP};
use crate::thread::code::Inst;
use warpsafe_ir::{Category, ShuffleKind, VoteKind};

/// What trying to release a stuck warp's collectives achieved.
pub(crate) enum Release {
    /// Some lanes were released and can run again.
    Released,
    /// No lane waits at a collective: the warp is done or waits at a block barrier.
    Idle,
    /// A collective can never complete; a divergence was reported and the block stops.
    Stopped,
}

/// Releases every complete collective group of `warp`.
pub(crate) fn release(ctx: &Ctx, w: &mut Worker, warp: usize) -> Release {
    let mut waiting = 0u32;
    for (l, &s) in w.state[warp].iter().enumerate() {
        waiting |= ((s == WARP) as u32) << l;
    }
    if waiting == 0 {
        return Release::Idle;
    }
    let exists = w.existing(warp);
    let mut released = false;
    let mut pending = waiting;
    while pending != 0 {
        let lane = pending.trailing_zeros() as usize;
        pending &= !(1 << lane);
        let m = w.wait_mask[warp][lane];
        let group = (m | 1 << lane) & exists;
        let complete = lanes(group).all(|g| w.state[warp][g] == WARP && w.wait_mask[warp][g] == m);
        if complete {
            run_group(ctx, w, warp, group);
            pending &= !group;
            released = true;
        }
    }
    if released {
        return Release::Released;
    }
    let lane = waiting.trailing_zeros() as usize;
    let m = w.wait_mask[warp][lane];
    if !ctx.checks.divergence {
        // Lenient mode: the lanes that did arrive with this mask go on without the others.
        let group = lanes(waiting)
            .filter(|&g| w.wait_mask[warp][g] == m)
            .fold(0u32, |acc, g| acc | 1 << g);
        run_group(ctx, w, warp, group);
        return Release::Released;
    }
    report_stuck(ctx, w, warp, lane, m);
    w.stopped = true;
    Release::Stopped
}

/// Completes the collective for `group`: shuffle exchange, clock join, pcs advance.
fn run_group(ctx: &Ctx, w: &mut Worker, warp: usize, group: u32) {
    let base = warp * ctx.nregs;
    let mut offered = [0u64; 32];
    let mut shuffling = 0u32;
    for g in lanes(group) {
        if let Some(Inst::Shuffle { value, .. }) = ctx.insts.get(w.wait_pc[warp][g] as usize) {
            offered[g] = w.regs[base + *value as usize][g];
            shuffling |= 1 << g;
        }
    }
    for g in lanes(shuffling) {
        if let Some(&Inst::Shuffle {
            kind,
            dst,
            lane,
            width,
            ..
        }) = ctx.insts.get(w.wait_pc[warp][g] as usize)
        {
            let arg = w.regs[base + lane as usize][g] as u32;
            let width = w.regs[base + width as usize][g] as u32;
            let src = source_lane(kind, g as u32, arg, width) as usize;
            let v = if src < 32 && shuffling >> src & 1 != 0 {
                offered[src]
            } else {
                offered[g]
            };
            w.regs[base + dst as usize][g] = v;
        }
    }
    // Votes: over the lanes of the group waiting at a vote (all at the same mask).
    let mut voting = 0u32;
    let mut ballot = 0u32;
    for g in lanes(group) {
        if let Some(&Inst::Vote { pred, .. }) = ctx.insts.get(w.wait_pc[warp][g] as usize) {
            voting |= 1 << g;
            ballot |= ((w.regs[base + pred as usize][g] & 1) as u32) << g;
        }
    }
    for g in lanes(voting) {
        if let Some(&Inst::Vote { kind, dst, .. }) = ctx.insts.get(w.wait_pc[warp][g] as usize) {
            let v = match kind {
                VoteKind::Ballot => ballot as u64,
                VoteKind::Any => (ballot != 0) as u64,
                VoteKind::All => (ballot == voting) as u64,
            };
            w.regs[base + dst as usize][g] = v;
        }
    }
    // Warp vector clocks: each participant ticks its own entry, then all take the join.
    let mut join = [0u32; 32];
    for g in lanes(group) {
        let t = warp * 32 + g;
        w.vc[t][g] = w.vc[t][g].saturating_add(1);
        for (j, v) in join.iter_mut().zip(w.vc[t].iter()) {
            *j = (*j).max(*v);
        }
    }
    for g in lanes(group) {
        w.vc[warp * 32 + g] = join;
        w.state[warp][g] = RUN;
        w.pcs[warp][g] = w.wait_pc[warp][g] + 1;
    }
}

/// The lane a shuffle reads, as CUDA defines it (its own lane when the source is outside
/// the width segment). Shared with the symbolic executor so both engines agree.
pub fn source_lane(kind: ShuffleKind, lane: u32, arg: u32, width: u32) -> u32 {
    let width = if width.is_power_of_two() && width <= 32 {
        width
    } else {
        32
    };
    let seg = lane & !(width - 1);
    let pos = lane - seg;
    match kind {
        ShuffleKind::Idx => seg + arg % width,
        ShuffleKind::Up => {
            if pos >= arg {
                lane - arg
            } else {
                lane
            }
        }
        ShuffleKind::Down => {
            if (pos as u64) + (arg as u64) < width as u64 {
                lane + arg
            } else {
                lane
            }
        }
        ShuffleKind::Xor => {
            let src = lane ^ arg;
            if src >= seg + width {
                lane
            } else {
                src
            }
        }
    }
}

fn report_stuck(ctx: &Ctx, w: &mut Worker, warp: usize, lane: usize, m: u32) {
    let exists = w.existing(warp);
    let group = (m | 1 << lane) & exists;
    let Some(bad) = lanes(group).find(|&g| w.state[warp][g] != WARP || w.wait_mask[warp][g] != m)
    else {
        return;
    };
    let tid = (warp * 32 + lane) as u32;
    let other = (warp * 32 + bad) as u32;
    let block = w.block;
    let what = match w.state[warp][bad] {
        EXITED => "has exited".to_string(),
        BARRIER => "waits at a __syncthreads() instead".to_string(),
        _ => format!(
            "waits at a warp sync with a different mask {:#010x}",
            w.wait_mask[warp][bad]
        ),
    };
    let here = ctx.insts.get(w.wait_pc[warp][lane] as usize);
    let op = match here {
        Some(Inst::Shuffle { kind, .. }) => kind.c_name(),
        Some(Inst::Vote { kind, .. }) => kind.c_name(),
        _ => "__syncwarp",
    };
    let (at_pc, other_pc) = (w.wait_pc[warp][lane], w.wait_pc[warp][bad]);
    w.sink.report(
        ctx,
        Category::Divergence,
        ctx.severity(Category::Divergence),
        Party {
            block,
            tid,
            pc: at_pc,
        },
        Some(Party {
            block,
            tid: other,
            pc: other_pc,
        }),
        || {
            (
                format!(
                    "thread {} of block {} waits at {op} with mask {m:#010x}, but thread {} (lane {bad}) in that mask {what}",
                    ctx.thread_text(tid),
                    coords(block),
                    ctx.thread_text(other)
                ),
                None,
            )
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_sources_follow_cuda() {
        assert_eq!(source_lane(ShuffleKind::Down, 3, 16, 32), 19);
        assert_eq!(source_lane(ShuffleKind::Down, 20, 16, 32), 20);
        assert_eq!(source_lane(ShuffleKind::Down, 5, 4, 8), 5);
        assert_eq!(source_lane(ShuffleKind::Up, 9, 2, 8), 9);
        assert_eq!(source_lane(ShuffleKind::Up, 11, 2, 8), 9);
        assert_eq!(source_lane(ShuffleKind::Xor, 3, 1, 32), 2);
        assert_eq!(source_lane(ShuffleKind::Xor, 3, 8, 8), 3);
        assert_eq!(source_lane(ShuffleKind::Xor, 11, 8, 8), 3);
        assert_eq!(source_lane(ShuffleKind::Idx, 13, 17, 8), 9);
    }
}
