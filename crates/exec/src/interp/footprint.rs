//! How much memory the interpreter needs for a launch, estimated before anything is
//! allocated, and how many blocks may run at once under a memory limit.
//!
//! Two parts: what the launch holds once (the buffers, the race history of global memory,
//! the access summaries of a chunk of finished blocks) and what each running block holds
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
/// The launch-wide race history of one touched global cell when it is a hash map: the entry,
/// spare capacity, and the old table while the map grows (measured peak: 150 bytes).
const SPARSE_HISTORY_BYTES: u64 = 160;
/// A block's own shadow of one touched global cell when it is a hash map.
const SPARSE_CELL_BYTES: u64 = 2 * (size_of::<((u32, usize), Cell)>() as u64 + 1);
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

/// Blocks whose results are kept until they are merged, at most.
pub(crate) fn chunk_blocks() -> u64 {
    (64 * rayon::current_num_threads()).max(64) as u64
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
                touched_total.saturating_mul(SPARSE_HISTORY_BYTES),
                touched_per_block.saturating_mul(SPARSE_CELL_BYTES),
            )
        };
        let summary = touched_per_block.saturating_mul(size_of::<Touch>() as u64);
        let pending = summary.saturating_mul(blocks.min(chunk_blocks()));
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
        assert!(wide.launch_bytes - bytes_of_buffers > 64 * SPARSE_HISTORY_BYTES * 1_000_000);
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
