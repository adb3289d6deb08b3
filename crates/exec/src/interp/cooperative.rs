//! Cooperative launches: kernels with a grid barrier (`this_grid().sync()`). Every block keeps
//! its state for the whole launch; the launch runs in phases, each block running until all its
//! threads wait at a grid barrier or have exited, and the barrier releases only when every
//! thread of every block arrived. Races between blocks are checked within a phase: accesses
//! separated by a grid barrier are ordered, in every pair of blocks.

use super::budget::Budget;
use super::context::{coords, Ctx};
use super::findings::{Party, Sink};
use super::interblock::History;
use super::scheduler::{self, barrier_name, BlockEnd, Rng};
use super::worker::{Worker, BARRIER, EXITED};
use crate::report::Stats;
use crate::{ExecError, Options};
use rayon::prelude::*;
use warpsafe_ir::Category;

/// One block of a cooperative launch, alive from start to end of the launch.
struct BlockRun {
    w: Worker,
    rng: Option<Rng>,
    /// How its last run ended; `None` while it still has to run in this phase.
    end: Option<BlockEnd>,
}

/// Runs every block of the launch through its grid barriers; findings go to `sink`, counts to
/// `stats`. An error when the budget stopped the launch.
pub(crate) fn run(
    ctx: &Ctx,
    opts: &Options,
    budget: &Budget,
    sink: &mut Sink,
    stats: &mut Stats,
) -> Result<(), ExecError> {
    let blocks = ctx.cfg.num_blocks();
    let mut runs: Vec<BlockRun> = (0..blocks)
        .map(|b| BlockRun {
            w: Worker::with_sparse_global(ctx, true),
            rng: opts
                .schedule_seed
                .map(|s| Rng::new(s ^ b.wrapping_mul(0xff51_afd7_ed55_8ccd))),
            end: None,
        })
        .collect();
    let mut started = false;
    let mut phase = 0u64;
    loop {
        let go = |(b, r): (usize, &mut BlockRun)| {
            if r.end.is_some() {
                return;
            }
            let end = if started {
                scheduler::resume_block(ctx, &mut r.w, r.rng.as_mut(), budget)
            } else {
                let at = ctx.block_idx(b as u64);
                scheduler::run_block(ctx, &mut r.w, at, r.rng.as_mut(), budget)
            };
            r.end = Some(end);
        };
        match opts.schedule_seed {
            Some(seed) => {
                // One block at a time, in a random order each phase.
                let mut order: Vec<usize> = (0..runs.len()).collect();
                let mut rng = Rng::new(seed ^ phase.wrapping_mul(0x9e37_79b9));
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i + 1));
                }
                for b in order {
                    go((b, &mut runs[b]));
                }
            }
            None if !opts.parallel => runs.iter_mut().enumerate().for_each(go),
            None => runs.par_iter_mut().enumerate().for_each(go),
        }
        started = true;
        if let Some(e) = budget.reason() {
            return Err(e);
        }
        // Every block's accesses since its last grid barrier: those of a block that finished
        // without reaching the barrier (divergence checks off) stay unordered with later
        // phases, so they are compared again.
        let mut history = ctx.checks.race.then(|| History::new(ctx));
        for (b, r) in runs.iter_mut().enumerate() {
            sink.merge(r.w.sink.take(), ctx.max_findings);
            if let Some(h) = &mut history {
                h.merge_block(ctx, b as u64, &r.w.touched, sink);
            }
        }
        let waiting: Vec<usize> = (0..runs.len())
            .filter(|&b| runs[b].end == Some(BlockEnd::AtGrid))
            .collect();
        if waiting.is_empty() || runs.iter().any(|r| r.end == Some(BlockEnd::Stopped)) {
            // Done, or a block diverged or ran out of budget (already reported).
            break;
        }
        if ctx.checks.divergence && grid_divergence(ctx, &runs, &waiting, sink) {
            break;
        }
        for &b in &waiting {
            let r = &mut runs[b];
            scheduler::release_grid(ctx, &mut r.w);
            r.w.new_global_phase();
            r.end = None;
        }
        phase += 1;
    }
    for r in &runs {
        stats.thread_instructions += r.w.instrs;
        stats.barriers += r.w.barriers;
    }
    Ok(())
}

/// The first thread of `w` in lane state `state`: its id and the pc it stopped at.
fn first_in(ctx: &Ctx, w: &Worker, state: u8) -> Option<(u32, u32)> {
    (0..ctx.warps).find_map(|warp| {
        (0..32)
            .find(|&lane| w.state[warp][lane] == state)
            .map(|lane| ((warp * 32 + lane) as u32, w.wait_pc[warp][lane]))
    })
}

/// Reports a grid barrier that can never release: some block finished without reaching it,
/// or blocks wait at different grid barriers. True when one was reported.
fn grid_divergence(ctx: &Ctx, runs: &[BlockRun], waiting: &[usize], sink: &mut Sink) -> bool {
    let Some(&b0) = waiting.first() else {
        return false;
    };
    let w0 = &runs[b0].w;
    let Some((tid, pc)) = first_in(ctx, w0, BARRIER) else {
        return false;
    };
    let other = runs.iter().enumerate().find_map(|(b, r)| match r.end {
        Some(BlockEnd::Finished) => first_in(ctx, &r.w, EXITED).map(|t| (b, t, false)),
        Some(BlockEnd::AtGrid) => first_in(ctx, &r.w, BARRIER)
            .filter(|&(_, opc)| opc != pc)
            .map(|t| (b, t, true)),
        _ => None,
    });
    let Some((b1, (otid, opc), at_barrier)) = other else {
        return false;
    };
    let (block, oblock) = (w0.block, runs[b1].w.block);
    sink.report(
        ctx,
        Category::Divergence,
        ctx.severity(Category::Divergence),
        Party { block, tid, pc },
        Some(Party {
            block: oblock,
            tid: otid,
            pc: opc,
        }),
        || {
            let here = format!(
                "barrier divergence across the grid: thread {} of block {} waits at {}",
                ctx.thread_text(tid),
                coords(block),
                barrier_name(ctx, pc)
            );
            let msg = if at_barrier {
                format!(
                    "{here} while thread {} of block {} waits at a different {}; the grid deadlocks",
                    ctx.thread_text(otid),
                    coords(oblock),
                    barrier_name(ctx, opc)
                )
            } else {
                format!(
                    "{here} but block {} has finished (thread {} returned) without reaching it; the grid deadlocks",
                    coords(oblock),
                    ctx.thread_text(otid)
                )
            };
            (msg, None)
        },
    );
    true
}
