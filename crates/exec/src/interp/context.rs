//! The run-wide, read-only context of a launch: code, geometry, memory layout, global buffers.

use crate::report::{Location, Severity, Site};
use crate::thread::code::{Inst, Space, ThreadCode};
use crate::{Checks, LaunchConfig};
use std::sync::atomic::AtomicU64;
use warpsafe_ir::{Category, Span};

/// Where one allocation lives for this launch.
pub(crate) struct MemInfo {
    pub space: Space,
    pub name: String,
    pub elem_size: u64,
    /// Length in elements.
    pub len: u64,
    /// Global: index into [`Ctx::global`]; shared: first cell in block shared memory;
    /// local: first cell within a thread's local memory.
    pub base: usize,
}

impl MemInfo {
    /// The element index for a byte offset, if in bounds and aligned.
    #[inline(always)]
    pub fn index(&self, byte_offset: i64) -> Option<usize> {
        if byte_offset < 0 {
            return None;
        }
        let off = byte_offset as u64;
        let idx = off / self.elem_size;
        // Element sizes are powers of two.
        (off & (self.elem_size - 1) == 0 && idx < self.len).then_some(idx as usize)
    }

    /// The report form of a cell.
    pub fn location(&self, byte_offset: i64) -> Location {
        Location {
            memory: self.name.clone(),
            space: self.space,
            byte_offset,
            index: byte_offset.div_euclid(self.elem_size as i64),
        }
    }
}

/// Everything every block of a launch shares.
pub(crate) struct Ctx<'p> {
    pub code: &'p ThreadCode,
    pub insts: &'p [Inst],
    pub nregs: usize,
    pub cfg: LaunchConfig,
    /// Scalar argument bits by parameter index (0 for buffers).
    pub params: Vec<u64>,
    pub mems: Vec<MemInfo>,
    /// Global buffers, written concurrently by blocks (relaxed atomics compile to plain moves).
    pub global: Vec<Vec<AtomicU64>>,
    pub shared_cells: usize,
    pub local_cells: usize,
    pub threads: usize,
    pub warps: usize,
    pub checks: Checks,
    pub lockstep: bool,
    pub deny: Vec<Category>,
    pub max_findings: usize,
    /// Thread-instruction budget of one block.
    pub max_block_instructions: u64,
}

impl Ctx<'_> {
    /// The span of instruction `pc`.
    pub fn span(&self, pc: u32) -> Span {
        self.code
            .spans
            .get(pc as usize)
            .copied()
            .unwrap_or_default()
    }

    /// `threadIdx` of linear thread `tid` in a block.
    pub fn thread_idx(&self, tid: u32) -> [u32; 3] {
        let [bx, by, _] = self.cfg.block;
        [tid % bx, (tid / bx) % by, tid / (bx * by)]
    }

    /// `blockIdx` of linear block `b`.
    pub fn block_idx(&self, b: u64) -> [u32; 3] {
        let [gx, gy, _] = self.cfg.grid;
        let (gx, gy) = (gx as u64, gy as u64);
        [
            (b % gx) as u32,
            ((b / gx) % gy) as u32,
            (b / (gx * gy)) as u32,
        ]
    }

    /// A report site.
    pub fn site(&self, block: [u32; 3], tid: u32, pc: u32) -> Site {
        Site {
            block,
            thread: self.thread_idx(tid),
            span: self.span(pc),
        }
    }

    /// `(x,y,z)` of thread `tid`.
    pub fn thread_text(&self, tid: u32) -> String {
        coords(self.thread_idx(tid))
    }

    /// The severity of category `c` in this run.
    pub fn severity(&self, c: Category) -> Severity {
        if c.is_warning_by_default() && !self.deny.contains(&c) {
            Severity::Warning
        } else {
            Severity::Error
        }
    }
}

/// `(x,y,z)`.
pub(crate) fn coords(c: [u32; 3]) -> String {
    format!("({},{},{})", c[0], c[1], c[2])
}
