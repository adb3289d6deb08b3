//! Per-worker block state, reused from block to block: registers, lane states, warp clocks,
//! shared and local memory, shadow cells. Generation counters make resets O(1) where the
//! state is large.

use super::context::Ctx;
use super::findings::Sink;
use super::interblock::Touch;
use super::race::{Cell, SideTable};
use std::collections::HashMap;

/// Above this many global elements in all, shadow state is kept in hash maps holding only
/// the cells a block touches instead of dense arrays.
pub(crate) const DENSE_GLOBAL_LIMIT: usize = 1 << 22;

/// Lane is runnable.
pub(crate) const RUN: u8 = 0;
/// Lane waits at a block barrier (`wait_pc`).
pub(crate) const BARRIER: u8 = 1;
/// Lane waits at a warp collective (`wait_pc`, `wait_mask`).
pub(crate) const WARP: u8 = 2;
/// Lane has exited (`wait_pc` holds the exit instruction).
pub(crate) const EXITED: u8 = 3;
/// No thread of the block has this lane.
pub(crate) const ABSENT: u8 = 4;

/// Not runnable: the pc value of lanes that are waiting, exited or absent.
pub(crate) const PARKED: u32 = u32::MAX;

/// Reusable state for running one block at a time.
pub(crate) struct Worker {
    pub gen: u32,
    /// Generation of the global shadow cells: a new one at each block start and grid barrier.
    pub global_gen: u32,
    /// Registers of warp `w` are `regs[w * nregs..][..nregs]`, each a 32-lane row.
    pub regs: Vec<[u64; 32]>,
    /// Per warp, the pc of each runnable lane, [`PARKED`] otherwise.
    pub pcs: Vec<[u32; 32]>,
    pub wait_pc: Vec<[u32; 32]>,
    pub state: Vec<[u8; 32]>,
    pub wait_mask: Vec<[u32; 32]>,
    /// Warp vector clock of each thread (indexed by lane of its warp).
    pub vc: Vec<[u32; 32]>,
    /// Per warp, how many arbitrary values each lane has drawn (seeds the next one).
    pub draws: Vec<[u64; 32]>,
    pub shared: Vec<u64>,
    pub shared_cells: Vec<Cell>,
    pub local: Vec<u64>,
    pub local_gen: Vec<u32>,
    /// Shadow cells of each global buffer (empty when race checking is off or sparse).
    pub global_cells: Vec<Vec<Cell>>,
    /// Shadow cells of touched global elements, keyed by (buffer slot, index), for launches
    /// with more than [`DENSE_GLOBAL_LIMIT`] global elements.
    pub sparse_cells: Option<HashMap<(u32, usize), Cell>>,
    pub side: SideTable,
    pub touched: Vec<Touch>,
    pub sink: Sink,
    pub block: [u32; 3],
    pub epoch: u32,
    pub instrs: u64,
    /// The instruction count at which the block next checks in with the launch's budget.
    pub next_check: u64,
    /// The part of `instrs` already added to the launch's budget.
    pub reported: u64,
    pub barriers: u64,
    pub stopped: bool,
    /// The block ran past its instruction budget.
    pub over_budget: bool,
}

impl Worker {
    /// Allocates state sized for `ctx`'s launch.
    pub fn new(ctx: &Ctx) -> Worker {
        Worker::with_sparse_global(ctx, false)
    }

    /// Allocates state sized for `ctx`'s launch; with `sparse`, the shadow of global memory
    /// holds only the cells the block touches whatever the buffers' size (cooperative launches
    /// keep every block's worker alive at once).
    pub fn with_sparse_global(ctx: &Ctx, sparse: bool) -> Worker {
        let warps = ctx.warps;
        let sparse = sparse || ctx.global.iter().map(Vec::len).sum::<usize>() > DENSE_GLOBAL_LIMIT;
        let global_cells = if ctx.checks.race && !sparse {
            ctx.global
                .iter()
                .map(|g| vec![Cell::default(); g.len()])
                .collect()
        } else {
            ctx.global.iter().map(|_| Vec::new()).collect()
        };
        Worker {
            gen: 0,
            global_gen: 0,
            regs: vec![[0; 32]; warps * ctx.nregs],
            pcs: vec![[PARKED; 32]; warps],
            wait_pc: vec![[0; 32]; warps],
            state: vec![[ABSENT; 32]; warps],
            wait_mask: vec![[0; 32]; warps],
            vc: vec![[0; 32]; warps * 32],
            draws: vec![[0; 32]; warps],
            shared: vec![0; ctx.shared_cells],
            shared_cells: vec![Cell::default(); ctx.shared_cells],
            local: vec![0; ctx.local_cells * ctx.threads],
            local_gen: vec![0; ctx.local_cells * ctx.threads],
            global_cells,
            sparse_cells: (ctx.checks.race && sparse).then(HashMap::new),
            side: SideTable::default(),
            touched: Vec::new(),
            sink: Sink::default(),
            block: [0; 3],
            epoch: 0,
            instrs: 0,
            next_check: 0,
            reported: 0,
            barriers: 0,
            stopped: false,
            over_budget: false,
        }
    }

    /// Resets everything for a fresh block.
    pub fn start_block(&mut self, ctx: &Ctx, block: [u32; 3]) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            // Generation wrapped: stale records could look current, so clear them for real.
            self.gen = 1;
            self.shared_cells.fill(Cell::default());
            self.local_gen.fill(0);
        }
        self.new_global_phase();
        self.regs.fill([0; 32]);
        self.vc.fill([0; 32]);
        self.draws.fill([0; 32]);
        self.shared.fill(0);
        self.local.fill(0);
        self.side.clear();
        self.block = block;
        self.epoch = 0;
        self.instrs = 0;
        self.reported = 0;
        self.barriers = 0;
        self.stopped = false;
        self.over_budget = false;
        for w in 0..ctx.warps {
            for l in 0..32 {
                let exists = w * 32 + l < ctx.threads;
                self.pcs[w][l] = if exists { 0 } else { PARKED };
                self.state[w][l] = if exists { RUN } else { ABSENT };
                self.wait_pc[w][l] = 0;
                self.wait_mask[w][l] = 0;
            }
        }
    }

    /// Forgets the block's shadow of global memory and its summary of touched global cells:
    /// at the block's start, and at each grid barrier (every global access before it is
    /// ordered before every access after it, in every block).
    pub fn new_global_phase(&mut self) {
        self.global_gen = self.global_gen.wrapping_add(1);
        if self.global_gen == 0 {
            // Generation wrapped: stale records could look current, so clear them for real.
            self.global_gen = 1;
            for g in &mut self.global_cells {
                g.fill(Cell::default());
            }
        }
        if let Some(m) = &mut self.sparse_cells {
            m.clear();
        }
        self.touched.clear();
    }

    /// Lanes of warp `w` that belong to the block.
    pub fn existing(&self, w: usize) -> u32 {
        let mut m = 0;
        for (l, &s) in self.state[w].iter().enumerate() {
            m |= ((s != ABSENT) as u32) << l;
        }
        m
    }
}
