//! Runs one block symbolically, mirroring the interpreter's schedule: SIMT warps with min-pc
//! reconvergence, warp collectives released when their whole mask has arrived, block barriers
//! released when every thread waits at the same one; divergence when that can never happen.

use crate::budget::Budget;
use crate::finding::{Finding, Issue, Place};
use crate::launch::{Scalar, Setup};
use crate::shadow::{Kind, Now, Shadow};
use crate::value::SVal;
use std::collections::HashSet;
use std::sync::Arc;
use warpsafe_algebra::{Store, TermId};
use warpsafe_exec::thread::code::{AllocSize, Inst, Space, ThreadCode};
use warpsafe_exec::LaunchConfig;
use warpsafe_ir::{Category, Kernel, ParamKind, ScalarType};

pub(crate) const RUN: u8 = 0;
pub(crate) const BARRIER: u8 = 1;
pub(crate) const WARP: u8 = 2;
pub(crate) const EXITED: u8 = 3;
pub(crate) const ABSENT: u8 = 4;

/// Scheduling steps of a warp between two questions to the budget.
const BUDGET_EVERY: u32 = 4096;

/// Most distinct findings one block reports.
const MAX_FINDINGS: usize = 50;

/// An allocation of this launch.
pub(crate) struct MemInfo {
    pub space: Space,
    pub elem: ScalarType,
    pub len: u64,
    pub name: String,
    /// Race tracking (shared arrays and writable global buffers).
    pub track: bool,
}

impl MemInfo {
    /// Element index of a byte offset, if in bounds and aligned.
    pub fn index(&self, byte: i64) -> Option<usize> {
        let size = self.elem.size_bytes() as i64;
        (byte >= 0 && byte % size == 0 && ((byte / size) as u64) < self.len)
            .then_some((byte / size) as usize)
    }
}

/// Read-only context shared by every block of a run.
pub(crate) struct Ctx<'a> {
    pub code: &'a ThreadCode,
    pub kernel: &'a Kernel,
    pub setup: &'a Setup,
    pub mems: Vec<MemInfo>,
    pub threads: usize,
    pub warps: usize,
    pub nregs: usize,
    pub lockstep: bool,
    pub max_instrs: u64,
    /// The type each register holds (variables from the kernel, temporaries from their
    /// defining instruction).
    pub reg_types: Vec<ScalarType>,
    /// The check's memory and time budgets.
    pub budget: Arc<Budget>,
    /// The most terms a finished block built: the next block's store starts with room for as
    /// many (blocks of a launch build about the same), so its tables never rehash.
    pub block_terms: std::sync::atomic::AtomicUsize,
    /// Field mode ([`crate::field`]): floats are values at this point, no terms are built.
    pub field: Option<warpsafe_algebra::PointEval>,
    /// Per register: some instruction reads it (an atomic whose result register nothing
    /// reads discards its old value, as PTX's `atom` into a dead register does).
    pub read_regs: Vec<bool>,
}

/// Which registers some instruction reads.
fn read_registers(code: &ThreadCode) -> Vec<bool> {
    let mut read = vec![false; code.num_regs as usize];
    for inst in &code.insts {
        inst.reads(&mut |r| {
            if let Some(x) = read.get_mut(r as usize) {
                *x = true;
            }
        });
    }
    read
}

/// Register types: kernel variables first, temporaries by their defining instruction.
fn register_types(code: &ThreadCode, kernel: &Kernel) -> Vec<ScalarType> {
    let mut ty = vec![ScalarType::I64; code.num_regs as usize];
    for (i, v) in kernel.vars.iter().enumerate() {
        if let Some(t) = ty.get_mut(i) {
            *t = v.ty;
        }
    }
    let nvars = kernel.vars.len();
    for inst in &code.insts {
        let (dst, t) = match *inst {
            Inst::Const { dst, ty, .. } | Inst::Param { dst, ty, .. } => (dst, ty),
            Inst::AllocLen { dst, .. } => (dst, ScalarType::U64),
            Inst::Mov { dst, src } => (
                dst,
                ty.get(src as usize).copied().unwrap_or(ScalarType::I64),
            ),
            Inst::Unary { ty, dst, .. }
            | Inst::Binary { ty, dst, .. }
            | Inst::Math { ty, dst, .. } => (dst, ty),
            Inst::Cmp { dst, .. } => (dst, ScalarType::Bool),
            Inst::Cast { to, dst, .. } => (dst, to),
            Inst::Select { dst, a, .. } => {
                (dst, ty.get(a as usize).copied().unwrap_or(ScalarType::I64))
            }
            Inst::Special { dst, .. } => (dst, ScalarType::U32),
            Inst::Load { ty, dst, .. } | Inst::Shuffle { ty, dst, .. } => (dst, ty),
            Inst::Atomic {
                ty, dst: Some(dst), ..
            } => (dst, ty),
            _ => continue,
        };
        if (dst as usize) >= nvars {
            if let Some(slot) = ty.get_mut(dst as usize) {
                *slot = t;
            }
        }
    }
    ty
}

impl<'a> Ctx<'a> {
    pub fn new(
        code: &'a ThreadCode,
        kernel: &'a Kernel,
        setup: &'a Setup,
        lockstep: bool,
        max_instrs: u64,
        budget: Arc<Budget>,
    ) -> Ctx<'a> {
        let mems = code
            .allocs
            .iter()
            .map(|a| {
                let (len, track) = match a.size {
                    AllocSize::Param(p) => {
                        let writable = matches!(
                            kernel.params.get(p as usize).map(|p| p.kind),
                            Some(ParamKind::Buffer { writable: true, .. })
                        );
                        let len = setup.lens.get(p as usize).copied().flatten().unwrap_or(0);
                        (len, writable)
                    }
                    AllocSize::Static(n) => (n, a.space == Space::Shared),
                    AllocSize::Dynamic => (
                        setup.launch.dynamic_shared_bytes / a.elem.size_bytes(),
                        true,
                    ),
                };
                MemInfo {
                    space: a.space,
                    elem: a.elem,
                    len,
                    name: a.name.clone(),
                    track,
                }
            })
            .collect();
        let threads = setup.launch.threads_per_block() as usize;
        Ctx {
            code,
            kernel,
            setup,
            mems,
            threads,
            warps: threads.div_ceil(32),
            nregs: code.num_regs as usize,
            lockstep,
            max_instrs,
            reg_types: register_types(code, kernel),
            budget,
            block_terms: std::sync::atomic::AtomicUsize::new(0),
            field: None,
            read_regs: read_registers(code),
        }
    }

    pub fn launch(&self) -> &LaunchConfig {
        &self.setup.launch
    }

    /// `threadIdx` of linear thread `tid`.
    pub fn thread_idx(&self, tid: u32) -> [u32; 3] {
        let [bx, by, _] = self.setup.launch.block;
        [tid % bx, (tid / bx) % by, tid / (bx * by)]
    }

    /// `blockIdx` of linear block `b`.
    pub fn block_idx(&self, b: u64) -> [u32; 3] {
        let [gx, gy, _] = self.setup.launch.grid;
        let (gx, gy) = (gx as u64, gy as u64);
        [
            (b % gx) as u32,
            ((b / gx) % gy) as u32,
            (b / (gx * gy)) as u32,
        ]
    }
}

/// What one block left behind.
pub(crate) struct BlockResult {
    pub store: Store,
    /// Final values of global cells the block wrote: (alloc, index, value, written only by
    /// additive atomics).
    pub writes: Vec<(u32, usize, TermId, bool)>,
    /// In field mode, the same as values (no terms).
    pub field_writes: Vec<(u32, usize, SVal, bool)>,
    /// In field mode, why the block could not run there (the check then runs on terms).
    pub refused: Option<crate::field::Refusal>,
    /// First accesses to tracked global cells: (alloc, index, first read, first write).
    pub touches: Vec<GlobalTouch>,
    pub findings: Vec<Finding>,
    pub instrs: u64,
    pub barriers: u64,
    /// Pcs of accesses made under an if-converted branch ([`BlockRun::guarded`]).
    pub guarded: HashSet<u32>,
}

/// A block's first read and first write of one global cell.
pub(crate) struct GlobalTouch {
    pub mem: u32,
    pub idx: usize,
    pub read: Option<(u32, u32)>,
    pub write: Option<(u32, u32, bool)>,
}

/// The state of one block under symbolic execution.
pub(crate) struct BlockRun<'c, 'a> {
    pub ctx: &'c Ctx<'a>,
    pub store: Store,
    pub block: [u32; 3],
    pub regs: Vec<SVal>,
    pub pc: Vec<u32>,
    pub state: Vec<u8>,
    pub wait_pc: Vec<u32>,
    pub wait_mask: Vec<u32>,
    pub vc: Vec<[u32; 32]>,
    pub epoch: u32,
    pub mem: Vec<Vec<SVal>>,
    pub written: Vec<Vec<bool>>,
    /// Per global cell: some write to it was not an additive atomic (`atomicAdd`/`atomicSub`
    /// whose old value is discarded). Cells written only additively merge across blocks by
    /// adding each block's change ([`crate::symexec`]).
    pub plain: Vec<Vec<bool>>,
    pub shadow: Vec<Vec<Shadow>>,
    pub findings: Vec<Finding>,
    seen: HashSet<(Issue, u32, u32)>,
    pub instrs: u64,
    pub barriers: u64,
    pub stopped: bool,
    /// Pcs of accesses made on a side of an if-converted branch (which may not run): races
    /// involving them are undecided.
    pub guarded: HashSet<u32>,
    scalar_terms: Vec<Option<SVal>>,
    /// Cells visited so far by accesses at data-dependent addresses ([`crate::symmem`]).
    pub sym_cells: u64,
    /// In field mode, why the block stopped (see [`BlockRun::refuse_field`]).
    pub refused: Option<crate::field::Refusal>,
}

impl<'c, 'a> BlockRun<'c, 'a> {
    pub fn new(ctx: &'c Ctx<'a>, block: [u32; 3]) -> BlockRun<'c, 'a> {
        let n = ctx.warps * 32;
        let mut state = vec![ABSENT; n];
        for s in state.iter_mut().take(ctx.threads) {
            *s = RUN;
        }
        let mut mem = Vec::new();
        let mut written = Vec::new();
        let mut plain = Vec::new();
        let mut shadow = Vec::new();
        for m in &ctx.mems {
            let (init, cells) = match m.space {
                Space::Global => (SVal::Input, m.len as usize),
                Space::Shared => (SVal::Uninit, m.len as usize),
                Space::Local => (SVal::Uninit, m.len as usize * ctx.threads),
            };
            mem.push(vec![init; cells]);
            written.push(if m.space == Space::Global {
                vec![false; cells]
            } else {
                Vec::new()
            });
            plain.push(if m.space == Space::Global {
                vec![false; cells]
            } else {
                Vec::new()
            });
            shadow.push(if m.track {
                vec![Shadow::default(); cells]
            } else {
                Vec::new()
            });
        }
        BlockRun {
            ctx,
            store: Store::with_capacity(ctx.block_terms.load(std::sync::atomic::Ordering::Relaxed)),
            block,
            regs: vec![SVal::C(0); n * ctx.nregs],
            pc: vec![0; n],
            state,
            wait_pc: vec![0; n],
            wait_mask: vec![0; n],
            vc: vec![[0; 32]; n],
            epoch: 0,
            mem,
            written,
            plain,
            shadow,
            findings: Vec::new(),
            seen: HashSet::new(),
            instrs: 0,
            barriers: 0,
            stopped: false,
            guarded: HashSet::new(),
            scalar_terms: vec![None; ctx.setup.scalars.len()],
            sym_cells: 0,
            refused: None,
        }
    }

    /// Runs the block to completion, a divergence or a finding that stops it.
    pub fn run(mut self) -> BlockResult {
        self.check_budget(0, 0);
        'outer: loop {
            if self.stopped {
                break;
            }
            for warp in 0..self.ctx.warps {
                self.run_warp(warp);
                if self.stopped {
                    break 'outer;
                }
            }
            if !self.barrier_step() {
                break;
            }
        }
        self.finish()
    }

    fn finish(mut self) -> BlockResult {
        self.ctx
            .block_terms
            .fetch_max(self.store.len(), std::sync::atomic::Ordering::Relaxed);
        let mut writes = Vec::new();
        let mut field_writes = Vec::new();
        let mut touches = Vec::new();
        for (m, info) in self.ctx.mems.iter().enumerate() {
            if info.space != Space::Global {
                continue;
            }
            for idx in 0..self.written[m].len() {
                if self.written[m][idx] {
                    let v = self.mem[m][idx];
                    let additive = !self.plain[m][idx];
                    if self.ctx.field.is_some() {
                        field_writes.push((m as u32, idx, v, additive));
                        continue;
                    }
                    let t = crate::value::term(&mut self.store, info.elem, v);
                    writes.push((m as u32, idx, t, additive));
                }
            }
            for (idx, s) in self.shadow[m].iter().enumerate() {
                if s.first_read.is_some() || s.first_write.is_some() {
                    touches.push(GlobalTouch {
                        mem: m as u32,
                        idx,
                        read: s.first_read,
                        write: s.first_write,
                    });
                }
            }
        }
        BlockResult {
            store: self.store,
            writes,
            field_writes,
            refused: self.refused,
            touches,
            findings: self.findings,
            instrs: self.instrs,
            barriers: self.barriers,
            guarded: self.guarded,
        }
    }

    /// Field mode cannot go on (`why`): the block stops, and the check runs on terms.
    pub(crate) fn refuse_field(&mut self, why: crate::field::Refusal) {
        if self.refused.is_none() {
            self.refused = Some(why);
        }
        self.stopped = true;
    }

    /// The value `r` gives, or the field refusal it carries (the block stops).
    pub(crate) fn in_field(&mut self, r: Result<SVal, crate::field::Refusal>) -> SVal {
        r.unwrap_or_else(|why| {
            self.refuse_field(why);
            SVal::C(0)
        })
    }

    #[inline]
    pub fn reg(&self, tid: usize, r: u32) -> SVal {
        self.regs[tid * self.ctx.nregs + r as usize]
    }

    #[inline]
    pub fn set(&mut self, tid: usize, r: u32, v: SVal) {
        self.regs[tid * self.ctx.nregs + r as usize] = v;
    }

    /// The value of scalar parameter `index`.
    pub fn scalar(&mut self, index: u32, ty: ScalarType) -> SVal {
        if let Some(v) = self.scalar_terms.get(index as usize).copied().flatten() {
            return v;
        }
        let v = match self
            .ctx
            .setup
            .scalars
            .get(index as usize)
            .copied()
            .flatten()
        {
            Some(Scalar::Value(v)) if ty.is_float() => match self.ctx.field {
                Some(ev) => match ev.float(v.as_f64()) {
                    Some((x, size)) => crate::field::pack(x, size),
                    None => {
                        self.refuse_field(format!("the scalar argument {v} (no field element)"));
                        SVal::C(0)
                    }
                },
                None => SVal::T(self.store.float(v.as_f64())),
            },
            Some(Scalar::Value(v)) => SVal::C(v.cast(ty).to_bits()),
            Some(Scalar::Symbol) | None => {
                let name = self
                    .ctx
                    .kernel
                    .params
                    .get(index as usize)
                    .map(|p| p.name.clone())
                    .unwrap_or_default();
                match self.ctx.field {
                    Some(ev) if ty.is_float() => crate::field::symbol(&ev, &name, None),
                    Some(_) => {
                        self.refuse_field(format!("the integer scalar `{name}` has no value"));
                        SVal::C(0)
                    }
                    None => SVal::T(self.store.symbol(&name, None, !ty.is_float())),
                }
            }
        };
        if let Some(slot) = self.scalar_terms.get_mut(index as usize) {
            *slot = Some(v);
        }
        v
    }

    fn place(&self, tid: u32, pc: u32) -> Place {
        Place {
            block: self.block,
            thread: self.ctx.thread_idx(tid),
            span: self
                .ctx
                .code
                .spans
                .get(pc as usize)
                .copied()
                .unwrap_or_default(),
            line: None,
        }
    }

    /// Records a finding (once per issue and site pair); `stop` ends the block.
    pub fn report(
        &mut self,
        issue: Issue,
        at: (u32, u32),
        other: Option<(u32, u32)>,
        stop: bool,
        message: impl FnOnce(&Self) -> String,
    ) {
        if stop {
            self.stopped = true;
        }
        let key = (issue, at.1, other.map_or(u32::MAX, |o| o.1));
        if self.findings.len() >= MAX_FINDINGS || !self.seen.insert(key) {
            return;
        }
        let message = message(self);
        self.findings.push(Finding {
            issue,
            kind: issue.name(),
            message,
            at: self.place(at.0, at.1),
            other: other.map(|(t, p)| self.place(t, p)),
        });
    }

    /// `(x,y,z)` of thread `tid`.
    pub fn thread_text(&self, tid: u32) -> String {
        let [x, y, z] = self.ctx.thread_idx(tid);
        format!("({x},{y},{z})")
    }

    /// Race bookkeeping of one access to a tracked cell.
    pub fn track(&mut self, mem: u32, cell: usize, tid: u32, pc: u32, kind: Kind) {
        let info = &self.ctx.mems[mem as usize];
        if !info.track {
            return;
        }
        let now = Now {
            tid,
            pc,
            epoch: self.epoch,
            vc: &self.vc[tid as usize],
            lockstep: self.ctx.lockstep
                && self
                    .ctx
                    .code
                    .insts
                    .get(pc as usize)
                    .is_some_and(Inst::is_volatile),
        };
        let Some(sh) = self.shadow[mem as usize].get_mut(cell) else {
            return;
        };
        if let Some(c) = sh.access(&now, kind) {
            if self.guarded.contains(&pc) || self.guarded.contains(&c.pc) {
                self.report(Issue::NotStructured, (tid, pc), Some((c.tid, c.pc)), false, |s| {
                    format!(
                        "a possible race on {} `{}` [index {}] between thread {} and thread {}: an access is under a branch on input data, which may not run",
                        s.ctx.mems[mem as usize].space.name(),
                        s.ctx.mems[mem as usize].name,
                        cell,
                        s.thread_text(c.tid),
                        s.thread_text(tid)
                    )
                });
                return;
            }
            self.report(
                Issue::Bug(Category::Race),
                (tid, pc),
                Some((c.tid, c.pc)),
                false,
                |s| {
                    format!(
                        "{}-{} race on {} `{}` [index {}] between thread {} and thread {} of block ({},{},{})",
                        c.kind.name(),
                        kind.name(),
                        s.ctx.mems[mem as usize].space.name(),
                        s.ctx.mems[mem as usize].name,
                        cell,
                        s.thread_text(c.tid),
                        s.thread_text(tid),
                        s.block[0],
                        s.block[1],
                        s.block[2]
                    )
                },
            );
        }
    }

    /// Stops the block with a `budget` finding when the check's memory or time ran out.
    fn check_budget(&mut self, tid: u32, pc: u32) {
        if let Some(spent) = self.ctx.budget.check() {
            self.report(Issue::Budget, (tid, pc), None, true, |_| spent.text());
        }
    }

    fn run_warp(&mut self, warp: usize) {
        let base = warp * 32;
        // Lanes past the block's last thread never run.
        let width = self.ctx.threads.saturating_sub(base).min(32);
        let mut steps = 0u32;
        loop {
            steps = steps.wrapping_add(1);
            if steps % BUDGET_EVERY == 0 {
                self.check_budget(base as u32, self.pc[base]);
                if self.stopped {
                    return;
                }
            }
            // The lowest pc of a running lane, and the lanes standing there, in one pass.
            let (mut pc, mut mask) = (u32::MAX, 0u32);
            let (state, pcs) = (
                &self.state[base..base + width],
                &self.pc[base..base + width],
            );
            for (l, (&s, &p)) in state.iter().zip(pcs).enumerate() {
                if s == RUN {
                    if p < pc {
                        (pc, mask) = (p, 1 << l);
                    } else if p == pc {
                        mask |= 1 << l;
                    }
                }
            }
            if pc == u32::MAX {
                match self.release(warp) {
                    Some(true) => continue,
                    _ => return,
                }
            }
            self.instrs += mask.count_ones() as u64;
            if self.instrs > self.ctx.max_instrs {
                let tid = (base + mask.trailing_zeros() as usize) as u32;
                let limit = self.ctx.max_instrs;
                self.report(Issue::StepLimit, (tid, pc), None, true, |_| {
                    format!("the block executed more than {limit} thread-instructions (an infinite loop?)")
                });
                return;
            }
            self.exec(warp, pc, mask);
            if self.stopped {
                return;
            }
        }
    }

    /// Takes lanes out of scheduling into `state` at `pc`.
    pub fn park(&mut self, warp: usize, pc: u32, mask: u32, state: u8) {
        for l in lanes(mask) {
            let t = warp * 32 + l;
            self.state[t] = state;
            self.wait_pc[t] = pc;
        }
    }

    /// Releases complete warp-collective groups: Some(true) when some lanes can run again,
    /// Some(false) when none waits, None after reporting a divergence.
    fn release(&mut self, warp: usize) -> Option<bool> {
        let base = warp * 32;
        let mut waiting = 0u32;
        let mut exists = 0u32;
        for l in 0..32 {
            waiting |= ((self.state[base + l] == WARP) as u32) << l;
            exists |= ((self.state[base + l] != ABSENT) as u32) << l;
        }
        if waiting == 0 {
            return Some(false);
        }
        let mut released = false;
        let mut pending = waiting;
        while pending != 0 {
            let lane = pending.trailing_zeros() as usize;
            pending &= !(1 << lane);
            let m = self.wait_mask[base + lane];
            let group = (m | 1 << lane) & exists;
            let complete =
                lanes(group).all(|g| self.state[base + g] == WARP && self.wait_mask[base + g] == m);
            if complete {
                self.run_group(warp, group);
                if self.stopped {
                    return None;
                }
                pending &= !group;
                released = true;
            }
        }
        if released {
            return Some(true);
        }
        let lane = waiting.trailing_zeros() as usize;
        let m = self.wait_mask[base + lane];
        let group = (m | 1 << lane) & exists;
        let bad = lanes(group)
            .find(|&g| self.state[base + g] != WARP || self.wait_mask[base + g] != m)
            .unwrap_or(lane);
        let (tid, other) = ((base + lane) as u32, (base + bad) as u32);
        let what = match self.state[base + bad] {
            EXITED => "has exited".to_string(),
            BARRIER => "waits at a __syncthreads() instead".to_string(),
            _ => format!(
                "waits at a warp sync with a different mask {:#010x}",
                self.wait_mask[base + bad]
            ),
        };
        let (pc, opc) = (self.wait_pc[base + lane], self.wait_pc[base + bad]);
        self.report(
            Issue::Bug(Category::Divergence),
            (tid, pc),
            Some((other, opc)),
            true,
            |s| {
                format!(
                    "thread {} waits at a warp collective with mask {m:#010x}, but thread {} (lane {bad}) in that mask {what}",
                    s.thread_text(tid),
                    s.thread_text(other)
                )
            },
        );
        None
    }

    fn run_group(&mut self, warp: usize, group: u32) {
        let base = warp * 32;
        let mut offered = [SVal::C(0); 32];
        let mut shuffling = 0u32;
        for g in lanes(group) {
            if let Some(Inst::Shuffle { value, .. }) =
                self.ctx.code.insts.get(self.wait_pc[base + g] as usize)
            {
                offered[g] = self.reg(base + g, *value);
                shuffling |= 1 << g;
            }
        }
        for g in lanes(shuffling) {
            let pc = self.wait_pc[base + g];
            if let Some(&Inst::Shuffle {
                kind,
                dst,
                lane,
                width,
                ..
            }) = self.ctx.code.insts.get(pc as usize)
            {
                let (SVal::C(arg), SVal::C(w)) =
                    (self.reg(base + g, lane), self.reg(base + g, width))
                else {
                    self.report(Issue::NotStructured, ((base + g) as u32, pc), None, true, |_| {
                        "not a structured CTA: a shuffle's source lane or width depends on input data".into()
                    });
                    return;
                };
                let src = warpsafe_exec::shuffle_source_lane(kind, g as u32, arg as u32, w as u32)
                    as usize;
                let v = if src < 32 && shuffling >> src & 1 != 0 {
                    offered[src]
                } else {
                    offered[g]
                };
                self.set(base + g, dst, v);
            }
        }
        let mut join = [0u32; 32];
        for g in lanes(group) {
            let t = base + g;
            self.vc[t][g] = self.vc[t][g].saturating_add(1);
            for (j, v) in join.iter_mut().zip(self.vc[t].iter()) {
                *j = (*j).max(*v);
            }
        }
        for g in lanes(group) {
            let t = base + g;
            self.vc[t] = join;
            self.state[t] = RUN;
            self.pc[t] = self.wait_pc[t] + 1;
        }
    }

    /// Releases a block barrier when every thread waits at the same one (true), or ends the
    /// block (false), reporting divergence when threads wait that can never be released.
    fn barrier_step(&mut self) -> bool {
        let mut first: Option<(u32, u32)> = None;
        let mut other_barrier: Option<(u32, u32)> = None;
        let mut exited: Option<(u32, u32)> = None;
        let mut stuck_warp: Option<(u32, u32)> = None;
        for t in 0..self.ctx.warps * 32 {
            let pc = self.wait_pc[t];
            match self.state[t] {
                BARRIER => match first {
                    None => first = Some((t as u32, pc)),
                    Some((_, p0))
                        if other_barrier.is_none()
                            && self.barrier_id(pc) != self.barrier_id(p0) =>
                    {
                        other_barrier = Some((t as u32, pc))
                    }
                    _ => {}
                },
                EXITED if exited.is_none() => exited = Some((t as u32, pc)),
                WARP if stuck_warp.is_none() => stuck_warp = Some((t as u32, pc)),
                _ => {}
            }
        }
        let Some((tid, pc)) = first else {
            return false;
        };
        let problem = other_barrier
            .map(|o| (o, 0))
            .or(stuck_warp.map(|o| (o, 1)))
            .or(exited.map(|e| (e, 2)));
        if let Some(((otid, opc), why)) = problem {
            self.report(
                Issue::Bug(Category::Divergence),
                (tid, pc),
                Some((otid, opc)),
                true,
                |s| {
                    let what = match why {
                        0 => "waits at a different __syncthreads()",
                        1 => "waits at a warp collective",
                        _ => "has already returned and never arrives",
                    };
                    format!(
                        "barrier divergence in block ({},{},{}): thread {} waits at __syncthreads() while thread {} {what}; the block deadlocks",
                        s.block[0],
                        s.block[1],
                        s.block[2],
                        s.thread_text(tid),
                        s.thread_text(otid)
                    )
                },
            );
            return false;
        }
        self.epoch += 1;
        self.barriers += 1;
        for t in 0..self.ctx.warps * 32 {
            if self.state[t] == BARRIER {
                self.state[t] = RUN;
                self.pc[t] = self.wait_pc[t] + 1;
            }
        }
        true
    }

    fn barrier_id(&self, pc: u32) -> Option<u32> {
        match self.ctx.code.insts.get(pc as usize) {
            Some(Inst::Barrier { id }) => Some(*id),
            _ => None,
        }
    }
}

/// Iterates the set bits of a lane mask.
pub(crate) fn lanes(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}
