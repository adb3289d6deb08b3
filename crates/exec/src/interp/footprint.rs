//! How much memory the interpreter needs for a launch, estimated before anything is
//! allocated, and how many blocks may run at once under a memory limit.
//!
//! Two parts: what the launch holds once (the buffers, the race history of global memory,
//! the access summaries of a chunk of finished blocks, kept under [`PENDING_SUMMARY_BYTES`]
//! by running smaller chunks) and what each running block holds
//! (registers, lane states, shared and local memory with their shadow cells, its own shadow
//! of global memory). Where a kernel's accesses cannot be bounded from its code, every
//! global element is assumed touched, spread evenly over the blocks.

use super::interblock::Touch;
use super::race::Cell;
use super::worker::DENSE_GLOBAL_LIMIT;
use crate::thread::code::{AllocSize, Inst, Space, ThreadCode};
use crate::{LaunchConfig, Options, Program};
use std::mem::size_of;

/// Copies of each buffer element alive during a run: the caller's, the run's input and the
/// working copy the blocks write.
pub(crate) const BUFFER_COPIES: u64 = 3;
/// Bytes of one buffer element in one copy.
const ELEMENT_BYTES: u64 = 8;
/// The launch-wide race history of one global cell when it is a dense array (its kinds and the
/// first `(block, thread, pc)` of each kind).
const DENSE_HISTORY_BYTES: u64 = size_of::<(u8, [(u64, u32, u32); 3])>() as u64;
/// An entry of the launch-wide race history of touched global cells when it is a hash map.
const SPARSE_HISTORY_ENTRY: u64 = size_of::<((u32, u64), (u8, [(u64, u32, u32); 3]))>() as u64;
/// An entry of a block's own shadow of the global cells it touches when it is a hash map.
const SPARSE_CELL_ENTRY: u64 = size_of::<((u32, usize), Cell)>() as u64;
/// Per warp: lane pcs, wait pcs, wait masks, lane states, and its threads' warp clocks.
const WARP_BYTES: u64 = 3 * 32 * 4 + 32 + 32 * 32 * 4;
/// A running block's findings, side tables and bookkeeping.
const BLOCK_OVERHEAD: u64 = 64 << 10;

/// The interpreter's memory estimate for one launch (see [`estimate_memory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryEstimate {
    /// Bytes held once: buffers (three copies: the caller's, the run's input and its working
    /// copy), the race history of global memory, the summaries of finished blocks.
    pub launch_bytes: u64,
    /// Bytes held by each running block: registers, lane states, shared and local memory and
    /// their shadow cells, and the block's shadow of the global cells it touches.
    pub block_bytes: u64,
    /// Blocks that would run at once without a limit.
    pub parallel_blocks: u64,
}

impl MemoryEstimate {
    /// The estimate with `blocks` blocks running at once.
    pub fn with_blocks(&self, blocks: u64) -> u64 {
        self.launch_bytes
            .saturating_add(self.block_bytes.saturating_mul(blocks))
    }

    /// The estimate with [`parallel_blocks`](Self::parallel_blocks) blocks running at once.
    pub fn total(&self) -> u64 {
        self.with_blocks(self.parallel_blocks)
    }

    /// How many blocks may run at once within `limit` bytes (at most
    /// [`parallel_blocks`](Self::parallel_blocks)); `None` when not even one may.
    pub fn blocks_within(&self, limit: u64) -> Option<u64> {
        let room = limit.checked_sub(self.launch_bytes)?;
        let blocks = room / self.block_bytes.max(1);
        (blocks >= 1).then(|| blocks.min(self.parallel_blocks.max(1)))
    }
}

/// Estimates the interpreter's memory for running `p` on `cfg` (its dynamic shared memory as
/// given) with buffers of `buffer_lens` elements, before anything is allocated: callers can
/// refuse a launch, or choose its parallelism, without building its buffers first.
pub fn estimate_memory(
    p: &Program,
    cfg: &LaunchConfig,
    buffer_lens: &[u64],
    opts: &Options,
) -> MemoryEstimate {
    estimate(p.code(), cfg, cfg.dynamic_shared_bytes, buffer_lens, opts)
}

/// Bytes of finished blocks' summaries (the global cells each touched) kept until their chunk
/// is merged: chunks shrink to stay under it.
pub(crate) const PENDING_SUMMARY_BYTES: u64 = 256 << 20;

/// Blocks whose results are kept until they are merged, at most.
fn chunk_blocks() -> u64 {
    (64 * rayon::current_num_threads()).max(64) as u64
}

/// How many blocks the next chunk runs: `at_once` first, then as many as keep the summaries
/// under [`PENDING_SUMMARY_BYTES`] when each is at most `summary_bytes` (the largest seen).
pub(crate) fn next_chunk(at_once: u64, summary_bytes: Option<u64>) -> u64 {
    let at_once = at_once.max(1);
    match summary_bytes {
        None => at_once,
        Some(b) => (PENDING_SUMMARY_BYTES / b.max(1)).clamp(at_once, chunk_blocks().max(at_once)),
    }
}

/// [`estimate_memory`] with the dynamic shared memory the launch resolved.
pub(crate) fn estimate(
    code: &ThreadCode,
    cfg: &LaunchConfig,
    dyn_bytes: u64,
    buffer_lens: &[u64],
    opts: &Options,
) -> MemoryEstimate {
    let threads = cfg.threads_per_block();
    let blocks = cfg.num_blocks().max(1);
    let warps = threads.div_ceil(32);
    let elements = buffer_lens
        .iter()
        .fold(0u64, |acc, &n| acc.saturating_add(n));
    let (shared_cells, local_cells) = cells(code, dyn_bytes);

    let global_accesses = code
        .insts
        .iter()
        .filter(|i| accessed_space(code, i) == Some(Space::Global))
        .count() as u64;
    let per_block_bound = loop_free(code).then(|| threads.saturating_mul(global_accesses));
    let touched_total = match per_block_bound {
        Some(b) => elements.min(b.saturating_mul(blocks)),
        None => elements,
    };
    let touched_per_block = match per_block_bound {
        Some(b) => touched_total.min(b),
        None => touched_total.div_ceil(blocks),
    };

    let mut launch = elements.saturating_mul(BUFFER_COPIES * ELEMENT_BYTES);
    let mut block = (warps * code.num_regs as u64)
        .saturating_mul(32 * 8)
        .saturating_add(warps * WARP_BYTES)
        .saturating_add(shared_cells.saturating_mul(8 + size_of::<Cell>() as u64))
        .saturating_add(local_cells.saturating_mul(threads).saturating_mul(8 + 4))
        .saturating_add(BLOCK_OVERHEAD);
    if opts.checks.race {
        let dense = elements <= DENSE_GLOBAL_LIMIT as u64;
        let (history, shadow) = if dense {
            (
                elements.saturating_mul(DENSE_HISTORY_BYTES),
                elements.saturating_mul(size_of::<Cell>() as u64),
            )
        } else {
            (
                map_peak(touched_total, SPARSE_HISTORY_ENTRY),
                map_peak(touched_per_block, SPARSE_CELL_ENTRY),
            )
        };
        let touch = size_of::<Touch>() as u64;
        let summary = vec_capacity(touched_per_block).saturating_mul(touch);
        // Blocks that share what they read (tiled products) touch more than their share, so
        // the pending summaries are counted as if each block could touch every cell.
        let widest = vec_capacity(per_block_bound.map_or(elements, |b| b.min(elements)));
        let pending = widest
            .saturating_mul(touch)
            .saturating_mul(blocks.min(chunk_blocks()))
            .min(PENDING_SUMMARY_BYTES);
        launch = launch.saturating_add(history).saturating_add(pending);
        block = block.saturating_add(shadow).saturating_add(summary);
    }
    let parallel_blocks = if opts.parallel && opts.schedule_seed.is_none() {
        blocks.min(rayon::current_num_threads() as u64)
    } else {
        1
    };
    MemoryEstimate {
        launch_bytes: launch,
        block_bytes: block,
        parallel_blocks,
    }
}

/// Peak bytes of a hash map grown to `entries` entries of `entry` bytes by inserting: the
/// table holds a power of two of buckets at most 7/8 full (one control byte each), and while
/// it grows the old table (half the size) is alive beside the new one.
fn map_peak(entries: u64, entry: u64) -> u64 {
    if entries == 0 {
        return 0;
    }
    let buckets = (entries.saturating_mul(8) / 7 + 1)
        .checked_next_power_of_two()
        .unwrap_or(u64::MAX);
    (buckets / 2).saturating_mul(3).saturating_mul(entry + 1)
}

/// Elements a vector grown to `len` elements by pushing has room for.
fn vec_capacity(len: u64) -> u64 {
    len.checked_next_power_of_two().unwrap_or(u64::MAX)
}

/// Shared cells of a block and local cells of a thread.
pub(crate) fn cells(code: &ThreadCode, dyn_bytes: u64) -> (u64, u64) {
    let (mut shared, mut local) = (0u64, 0u64);
    for a in &code.allocs {
        let len = match a.size {
            AllocSize::Static(n) => n,
            AllocSize::Dynamic => dyn_bytes / a.elem.size_bytes().max(1),
            AllocSize::Param(_) => 0,
        };
        match a.space {
            Space::Shared => shared = shared.saturating_add(len),
            Space::Local => local = local.saturating_add(len),
            Space::Global => {}
        }
    }
    (shared, local)
}

/// The space a load, store or atomic addresses.
fn accessed_space(code: &ThreadCode, inst: &Inst) -> Option<Space> {
    let mem = match inst {
        Inst::Load { mem, .. } | Inst::Store { mem, .. } | Inst::Atomic { mem, .. } => *mem,
        _ => return None,
    };
    code.allocs.get(mem as usize).map(|a| a.space)
}

/// True when no jump goes backwards: each thread executes each instruction at most once.
fn loop_free(code: &ThreadCode) -> bool {
    code.insts.iter().enumerate().all(|(pc, i)| match i {
        Inst::Jump { target } | Inst::Branch { target, .. } => *target as usize > pc,
        _ => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile;
    use warpsafe_ir::{BinOp, Dim, Expr, Kernel, KernelBuilder, MemRef, ScalarType};

    /// `y[i] = x[i] + y[i]` for `i < n`: loop-free, three global accesses per thread.
    fn vector_add() -> Kernel {
        let mut b = KernelBuilder::new("vector_add");
        let n = b.scalar_param("n", ScalarType::U32);
        let x = b.buffer_param("x", ScalarType::F32, false);
        let y = b.buffer_param("y", ScalarType::F32, true);
        let i = b.let_("i", b.global_index(Dim::X));
        b.if_(Expr::binary(BinOp::Lt, b.var(i), b.param(n)), |b| {
            let sum = Expr::binary(
                BinOp::Add,
                b.load(MemRef::Global(x), vec![b.var(i)]),
                b.load(MemRef::Global(y), vec![b.var(i)]),
            );
            b.store(MemRef::Global(y), vec![b.var(i)], sum);
        });
        b.finish()
    }

    fn sequential() -> Options {
        Options {
            parallel: false,
            ..Options::default()
        }
    }

    #[test]
    fn buffers_count_three_copies_without_race_checks() {
        let p = compile(&vector_add()).unwrap();
        let opts = Options {
            checks: crate::Checks::none(),
            ..sequential()
        };
        let e = estimate_memory(&p, &LaunchConfig::linear(4, 32), &[1000, 1000], &opts);
        assert_eq!(e.launch_bytes, 2000 * 24);
        assert_eq!(e.parallel_blocks, 1);
        assert!(e.block_bytes >= BLOCK_OVERHEAD && e.block_bytes < 1 << 20);
    }

    #[test]
    fn dense_race_state_is_per_element_and_per_block() {
        let p = compile(&vector_add()).unwrap();
        let e = estimate_memory(
            &p,
            &LaunchConfig::linear(4, 32),
            &[1000, 1000],
            &sequential(),
        );
        let cell = size_of::<Cell>() as u64;
        assert!(e.launch_bytes >= 2000 * (24 + DENSE_HISTORY_BYTES));
        assert!(e.block_bytes >= 2000 * cell);
    }

    #[test]
    fn a_loop_free_kernel_touches_at_most_one_cell_per_access_and_thread() {
        let p = compile(&vector_add()).unwrap();
        let huge = 1u64 << 30;
        let small = estimate_memory(
            &p,
            &LaunchConfig::linear(1, 32),
            &[huge, huge],
            &sequential(),
        );
        let bytes_of_buffers = 2 * huge * 24;
        assert!(small.launch_bytes - bytes_of_buffers < 1 << 20);
        let wide = estimate_memory(
            &p,
            &LaunchConfig::linear(65535, 1024),
            &[huge, huge],
            &sequential(),
        );
        assert!(
            wide.launch_bytes - bytes_of_buffers > map_peak(65535 * 1024 * 3, SPARSE_HISTORY_ENTRY)
        );
    }

    #[test]
    fn chunks_shrink_to_keep_block_summaries_bounded() {
        assert_eq!(next_chunk(4, None), 4);
        assert_eq!(next_chunk(0, None), 1);
        assert_eq!(next_chunk(2, Some(0)), chunk_blocks());
        assert_eq!(next_chunk(2, Some(PENDING_SUMMARY_BYTES / 10)), 10);
        assert_eq!(next_chunk(2, Some(PENDING_SUMMARY_BYTES)), 2);
        assert_eq!(next_chunk(2, Some(u64::MAX)), 2);
    }

    #[test]
    fn hash_maps_peak_while_they_grow() {
        let e = SPARSE_HISTORY_ENTRY + 1;
        // 24M entries: 2^25 buckets, grown from 2^24 (the measured run peaked at 3.6 GiB).
        assert_eq!(
            map_peak(24_000_000, SPARSE_HISTORY_ENTRY),
            3 * (1 << 24) * e
        );
        assert_eq!(map_peak(0, SPARSE_HISTORY_ENTRY), 0);
        assert_eq!(map_peak(u64::MAX, SPARSE_HISTORY_ENTRY), u64::MAX);
        assert_eq!(vec_capacity(1000), 1024);
    }

    #[test]
    fn parallelism_shrinks_before_a_launch_is_refused() {
        let e = MemoryEstimate {
            launch_bytes: 1000,
            block_bytes: 100,
            parallel_blocks: 8,
        };
        assert_eq!(e.total(), 1800);
        assert_eq!(e.blocks_within(10_000), Some(8));
        assert_eq!(e.blocks_within(1350), Some(3));
        assert_eq!(e.blocks_within(1100), Some(1));
        assert_eq!(e.blocks_within(1099), None);
        assert_eq!(e.blocks_within(10), None);
    }

    #[test]
    fn absurd_sizes_saturate_instead_of_overflowing() {
        let p = compile(&vector_add()).unwrap();
        let cfg = LaunchConfig {
            grid: [u32::MAX, 65535, 65535],
            block: [1024, 1, 1],
            dynamic_shared_bytes: u64::MAX,
        };
        let e = estimate_memory(&p, &cfg, &[u64::MAX, u64::MAX], &Options::default());
        assert_eq!(e.total(), u64::MAX);
        assert_eq!(e.blocks_within(u64::MAX - 1), None);
    }
}
