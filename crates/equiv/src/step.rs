//! Executes one thread-code instruction for the lanes of a warp that stand at the same pc:
//! the symbolic counterpart of the interpreter's step (same control flow, same memory
//! checks); a branch on input data is if-converted (`ifconv`), an access at a data-dependent
//! address goes to symbolic memory (`symmem`).

use crate::block::{lanes, BlockRun, BARRIER, EXITED, WARP};
use crate::field;
use crate::finding::Issue;
use crate::shadow::Kind;
use crate::value::{self, Fault, SVal};
use warpsafe_algebra::{Cmp, TermId};
use warpsafe_exec::thread::code::{BinaryOp, Inst, Space};
use warpsafe_ir::{AtomicOp, Builtin, Category, MathFn, ScalarType};

impl BlockRun<'_, '_> {
    /// Runs instruction `pc` for the lanes of `warp` in `mask` and advances their pcs.
    pub(crate) fn exec(&mut self, warp: usize, pc: u32, mask: u32) {
        let base = warp * 32;
        let Some(&inst) = self.ctx.code.insts.get(pc as usize) else {
            self.park(warp, pc, mask, EXITED);
            return;
        };
        match inst {
            Inst::Jump { target } => {
                for l in lanes(mask) {
                    self.pc[base + l] = target;
                }
                return;
            }
            Inst::Branch { cond, target, when } => {
                for l in lanes(mask) {
                    let t = base + l;
                    match self.reg(t, cond) {
                        SVal::C(c) => {
                            self.pc[t] = if (c & 1 != 0) == when { target } else { pc + 1 };
                        }
                        _ if self.ctx.field.is_some() => {
                            self.refuse_field("a branch on input data".into());
                            return;
                        }
                        v => {
                            let converted = self
                                .condition(cond, v)
                                .and_then(|c| self.if_convert(t, pc, c, target, when));
                            if let Err(why) = converted {
                                self.refuse_branch(t, pc, &why);
                                return;
                            }
                        }
                    }
                }
                return;
            }
            Inst::Barrier { .. } => {
                self.park(warp, pc, mask, BARRIER);
                return;
            }
            Inst::SyncWarp { mask: m } | Inst::Shuffle { mask: m, .. } => {
                for l in lanes(mask) {
                    let t = base + l;
                    match self.reg(t, m) {
                        SVal::C(v) => self.wait_mask[t] = v as u32,
                        _ => {
                            self.report(Issue::NotStructured, (t as u32, pc), None, true, |_| {
                                "not a structured CTA: a warp mask depends on input data".into()
                            });
                            return;
                        }
                    }
                }
                self.park(warp, pc, mask, WARP);
                return;
            }
            Inst::Exit => {
                self.park(warp, pc, mask, EXITED);
                return;
            }
            Inst::Vote { .. } | Inst::ActiveMask { .. } | Inst::BarrierVote { .. } => {
                let t = base + mask.trailing_zeros() as usize;
                self.report(Issue::Unsupported, (t as u32, pc), None, true, |_| {
                    "warp votes, __activemask and __syncthreads_count/_and/_or are not supported by the equivalence checker".into()
                });
                return;
            }
            Inst::Arbitrary { .. } => {
                let t = base + mask.trailing_zeros() as usize;
                self.report(Issue::Unsupported, (t as u32, pc), None, true, |_| {
                    "an arbitrary value (clock(), a function without a body): equivalence is not defined".into()
                });
                return;
            }
            Inst::GridBarrier { .. } => {
                // One block runs at a time here; a grid barrier orders it against the others.
                let t = base + mask.trailing_zeros() as usize;
                self.report(Issue::Unsupported, (t as u32, pc), None, true, |_| {
                    "grid barriers (this_grid().sync()) are not supported by the equivalence checker: it runs one block at a time".into()
                });
                return;
            }
            _ => {}
        }
        for l in lanes(mask) {
            self.exec_lane(base + l, pc, &inst);
            if self.stopped {
                return;
            }
        }
        for l in lanes(mask) {
            self.pc[base + l] = pc + 1;
        }
    }

    pub(crate) fn exec_lane(&mut self, t: usize, pc: u32, inst: &Inst) {
        match *inst {
            Inst::Const { dst, bits, ty } => {
                let v = match self.ctx.field {
                    Some(ev) if ty.is_float() => {
                        let r = field::constant(&ev, ty, bits);
                        self.in_field(r)
                    }
                    None if ty.is_float() => {
                        SVal::T(value::term(&mut self.store, ty, SVal::C(bits)))
                    }
                    _ => SVal::C(bits),
                };
                self.set(t, dst, v);
            }
            Inst::Param { dst, index, ty } => {
                let v = self.scalar(index, ty);
                self.set(t, dst, v);
            }
            Inst::AllocLen { dst, mem } => {
                let len = self.ctx.mems.get(mem as usize).map_or(0, |m| m.len);
                self.set(t, dst, SVal::C(len));
            }
            Inst::Mov { dst, src } => {
                let v = self.reg(t, src);
                self.set(t, dst, v);
            }
            Inst::Unary {
                op,
                ty,
                dst,
                a,
                checked,
            } => {
                let x = self.reg(t, a);
                if let Some(ev) = self.ctx.field.filter(|_| field::applies(ty, &[x])) {
                    let v = self.in_field(field::unary(&ev, op, ty, x));
                    self.set(t, dst, v);
                    return;
                }
                let (v, fault) = value::unary(&mut self.store, op, ty, checked, x);
                self.set(t, dst, v);
                self.fault(t, pc, fault, ty);
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
                if let Some(ev) = self.ctx.field.filter(|_| field::applies(ty, &[x, y])) {
                    let v = self.in_field(field::binary(&ev, op, ty, x, y));
                    self.set(t, dst, v);
                    return;
                }
                let (v, fault) = value::binary(&mut self.store, op, ty, checked, x, y);
                self.set(t, dst, v);
                self.fault(t, pc, fault, ty);
            }
            Inst::Cmp { op, ty, dst, a, b } => {
                let (x, y) = (self.reg(t, a), self.reg(t, b));
                if self.ctx.field.is_some() && field::applies(ty, &[x, y]) {
                    self.refuse_field(field::compare(op));
                    return;
                }
                let v = value::compare(&mut self.store, op, ty, x, y);
                self.set(t, dst, v);
            }
            Inst::Cast { from, to, dst, src } => {
                let x = self.reg(t, src);
                if let Some(ev) = self
                    .ctx
                    .field
                    .filter(|_| to.is_float() || field::applies(from, &[x]))
                {
                    let v = self.in_field(field::cast(&ev, from, to, x));
                    self.set(t, dst, v);
                    return;
                }
                let v = value::cast(&mut self.store, from, to, x);
                self.set(t, dst, v);
            }
            Inst::Select { dst, cond, a, b } => {
                let ty = self.value_type(a);
                let (c, x, y) = (self.reg(t, cond), self.reg(t, a), self.reg(t, b));
                if self.ctx.field.is_some() && !matches!(c, SVal::C(_)) {
                    self.refuse_field("a selection on input data".into());
                    return;
                }
                let v = value::select(&mut self.store, ty, c, x, y);
                self.set(t, dst, v);
            }
            Inst::Math {
                f: MathFn::Bits,
                ty,
                dst,
                args,
            } => {
                let x = self.reg(t, args[0]);
                if let Some(ev) = self.ctx.field.filter(|_| field::applies(ty, &[x])) {
                    let v = match x {
                        SVal::C(bits) => self.in_field(field::constant(&ev, ty, bits)),
                        _ => self.in_field(Err("a bit reinterpretation of input data".into())),
                    };
                    self.set(t, dst, v);
                    return;
                }
                let (v, fault) = value::bits_as(&mut self.store, ty, x);
                self.set(t, dst, v);
                self.fault(t, pc, fault, ty);
            }
            Inst::Math { f, ty, dst, args } => {
                let vals = args.map(|r| self.reg(t, r));
                if let Some(ev) = self.ctx.field.filter(|_| field::applies(ty, &vals)) {
                    let v = self.in_field(field::math(&ev, f, ty, vals));
                    self.set(t, dst, v);
                    return;
                }
                let v = value::math(&mut self.store, f, ty, vals);
                self.set(t, dst, v);
            }
            Inst::Special { dst, which } => {
                let tid = t as u32;
                let l = self.ctx.launch();
                let v = match which {
                    Builtin::ThreadIdx(d) => self.ctx.thread_idx(tid)[d.index()],
                    Builtin::BlockIdx(d) => self.block[d.index()],
                    Builtin::BlockDim(d) => l.block[d.index()],
                    Builtin::GridDim(d) => l.grid[d.index()],
                    Builtin::WarpSize => 32,
                    Builtin::LaneId => tid % 32,
                };
                self.set(t, dst, SVal::C(v as u64));
            }
            Inst::Load {
                ty,
                dst,
                mem,
                offset,
                ..
            } => {
                if let Some(off) = self.data_offset(t, offset) {
                    match self.load_at(t, pc, ty, mem, off, None) {
                        Ok(v) => self.set(t, dst, v),
                        Err(why) => self.refuse_address(t, pc, &why),
                    }
                } else if self.stopped {
                } else if let Some(idx) = self.address(t, pc, mem, offset, "read") {
                    let v = self.read(t, pc, mem, idx, ty, Kind::Read);
                    self.set(t, dst, v);
                } else if self.ctx.field.is_some() {
                    self.refuse_field("a load outside its buffer".into());
                } else {
                    let o = SVal::T(self.store.opaque());
                    self.set(t, dst, o);
                }
            }
            Inst::Store {
                ty,
                mem,
                offset,
                src,
                ..
            } => {
                if let Some(off) = self.data_offset(t, offset) {
                    let v = self.reg(t, src);
                    if let Err(why) = self.store_at(t, pc, ty, mem, off, v, None) {
                        self.refuse_address(t, pc, &why);
                    }
                } else if self.stopped {
                } else if let Some(idx) = self.address(t, pc, mem, offset, "write") {
                    let v = self.reg(t, src);
                    self.write(t, pc, mem, idx, v, Kind::Write);
                }
            }
            Inst::Atomic {
                op,
                ty,
                dst,
                mem,
                offset,
                value: val,
                compare,
            } => self.atomic(t, pc, (op, ty, dst, mem, offset, val, compare)),
            Inst::Assume { cond } | Inst::Assert { cond, .. } => {
                let assume = matches!(inst, Inst::Assume { .. });
                match self.reg(t, cond) {
                    SVal::C(c) if c & 1 != 0 => {}
                    SVal::C(_) if assume => {}
                    SVal::C(_) => {
                        self.report(
                            Issue::Bug(Category::Assert),
                            (t as u32, pc),
                            None,
                            false,
                            |s| format!("assertion failed in thread {}", s.thread_text(t as u32)),
                        );
                    }
                    _ => {
                        let what = if assume {
                            "an assumption"
                        } else {
                            "an assertion"
                        };
                        self.report(Issue::NotStructured, (t as u32, pc), None, false, |_| {
                            format!("not a structured CTA: {what} depends on input data and is not checked")
                        });
                    }
                }
            }
            Inst::Jump { .. }
            | Inst::Branch { .. }
            | Inst::Barrier { .. }
            | Inst::SyncWarp { .. }
            | Inst::Shuffle { .. }
            | Inst::Vote { .. }
            | Inst::ActiveMask { .. }
            | Inst::Arbitrary { .. }
            | Inst::BarrierVote { .. }
            | Inst::GridBarrier { .. }
            | Inst::Exit => {}
        }
    }

    pub(crate) fn value_type(&self, r: u32) -> ScalarType {
        self.ctx
            .reg_types
            .get(r as usize)
            .copied()
            .unwrap_or(ScalarType::I64)
    }

    fn fault(&mut self, t: usize, pc: u32, fault: Option<Fault>, ty: ScalarType) {
        let Some(f) = fault else { return };
        let (issue, msg) = match f {
            Fault::Overflow => (
                Issue::Bug(Category::Overflow),
                format!("signed {ty} overflow"),
            ),
            Fault::DivZero => (
                Issue::Bug(Category::DivByZero),
                "integer division by zero".to_string(),
            ),
            Fault::Unsupported(what) => (
                Issue::Unsupported,
                format!("{what} has no meaning over the reals"),
            ),
        };
        self.report(issue, (t as u32, pc), None, false, |s| {
            format!("{msg} in thread {}", s.thread_text(t as u32))
        });
    }

    /// The byte offset term of an access whose address depends on input data (None when it
    /// is concrete, or in field mode, which then stops: it has no terms).
    fn data_offset(&mut self, t: usize, offset: u32) -> Option<TermId> {
        let SVal::T(off) = self.reg(t, offset) else {
            return None;
        };
        if self.ctx.field.is_some() {
            self.refuse_field("an address computed from input data".into());
            return None;
        }
        Some(off)
    }

    /// Stops the block: thread `t`'s access at `pc`, at an address computed from input data,
    /// cannot be run exactly (`why`).
    fn refuse_address(&mut self, t: usize, pc: u32, why: &str) {
        self.report(Issue::NotStructured, (t as u32, pc), None, true, |s| {
            format!(
                "not a structured CTA: thread {} makes {why}",
                s.thread_text(t as u32)
            )
        });
    }

    /// The element index of an access, or None after reporting why there is none.
    fn address(&mut self, t: usize, pc: u32, mem: u32, offset: u32, what: &str) -> Option<usize> {
        let byte = match self.reg(t, offset) {
            SVal::C(b) => b as i64,
            _ => {
                self.report(Issue::NotStructured, (t as u32, pc), None, true, |s| {
                    format!(
                        "not a structured CTA: thread {} computes a memory address from input data",
                        s.thread_text(t as u32)
                    )
                });
                return None;
            }
        };
        let info = &self.ctx.mems[mem as usize];
        let idx = info.index(byte);
        if idx.is_none() {
            let (name, space, len, size) = (
                info.name.clone(),
                info.space,
                info.len,
                info.elem.size_bytes() as i64,
            );
            let what = what.to_string();
            self.report(Issue::Bug(Category::Oob), (t as u32, pc), None, false, |s| {
                format!(
                    "out-of-bounds {what} of {} `{name}` at index {} (length {len}) by thread {} of block ({},{},{})",
                    space.name(),
                    byte.div_euclid(size),
                    s.thread_text(t as u32),
                    s.block[0],
                    s.block[1],
                    s.block[2]
                )
            });
        }
        idx
    }

    pub(crate) fn cell(&self, t: usize, mem: u32, idx: usize) -> usize {
        let info = &self.ctx.mems[mem as usize];
        match info.space {
            Space::Local => t * info.len as usize + idx,
            _ => idx,
        }
    }

    pub(crate) fn read(
        &mut self,
        t: usize,
        pc: u32,
        mem: u32,
        idx: usize,
        ty: ScalarType,
        kind: Kind,
    ) -> SVal {
        let cell = self.cell(t, mem, idx);
        if kind == Kind::Read {
            self.track(mem, cell, t as u32, pc, Kind::Read);
        }
        let m = mem as usize;
        match self.mem[m][cell] {
            SVal::Input if self.ctx.field.is_some() => {
                let info = &self.ctx.mems[m];
                let v = match self.ctx.field {
                    Some(ev) if info.elem.is_float() && ty.is_float() => {
                        field::symbol(&ev, &info.name, Some(idx as u64))
                    }
                    _ => {
                        let why = format!("integer input data (`{}`)", info.name);
                        self.refuse_field(why);
                        return SVal::C(0);
                    }
                };
                self.mem[m][cell] = v;
                v
            }
            SVal::Input => {
                let info = &self.ctx.mems[m];
                let (name, elem) = (info.name.clone(), info.elem);
                let s = value::input_symbol(&mut self.store, &name, Some(idx as u64), elem);
                let v = value::settle(&self.store, ty, s);
                self.mem[m][cell] = v;
                v
            }
            SVal::Uninit => {
                let (name, space) = (self.ctx.mems[m].name.clone(), self.ctx.mems[m].space);
                self.report(Issue::Bug(Category::Uninit), (t as u32, pc), None, false, |s| {
                    format!(
                        "read of uninitialised {} `{name}` [index {idx}] by thread {} of block ({},{},{})",
                        space.name(),
                        s.thread_text(t as u32),
                        s.block[0],
                        s.block[1],
                        s.block[2]
                    )
                });
                if self.ctx.field.is_some() {
                    self.refuse_field("a read of uninitialised memory".into());
                    return SVal::C(0);
                }
                SVal::T(self.store.opaque())
            }
            v => v,
        }
    }

    pub(crate) fn write(&mut self, t: usize, pc: u32, mem: u32, idx: usize, v: SVal, kind: Kind) {
        let cell = self.cell(t, mem, idx);
        self.track(mem, cell, t as u32, pc, kind);
        let m = mem as usize;
        self.mem[m][cell] = v;
        if let Some(w) = self.written[m].get_mut(cell) {
            *w = true;
        }
        if kind != Kind::Atomic {
            self.mark_plain(m, cell);
        }
    }

    /// Cell `cell` of memory `m` got a write that is not an additive atomic.
    fn mark_plain(&mut self, m: usize, cell: usize) {
        if let Some(p) = self.plain[m].get_mut(cell) {
            *p = true;
        }
    }

    /// After an atomic `op` on a cell: unless it added with its old value discarded, later
    /// blocks' writes cannot merge with this block's by adding changes.
    pub(crate) fn atomic_kind(
        &mut self,
        op: AtomicOp,
        dst: Option<u32>,
        t: usize,
        mem: u32,
        idx: usize,
    ) {
        let discarded =
            dst.is_none_or(|d| !self.ctx.read_regs.get(d as usize).copied().unwrap_or(true));
        if !(matches!(op, AtomicOp::Add | AtomicOp::Sub) && discarded) {
            let cell = self.cell(t, mem, idx);
            self.mark_plain(mem as usize, cell);
        }
    }

    #[allow(clippy::type_complexity)]
    fn atomic(
        &mut self,
        t: usize,
        pc: u32,
        (op, ty, dst, mem, offset, val, compare): (
            AtomicOp,
            ScalarType,
            Option<u32>,
            u32,
            u32,
            u32,
            Option<u32>,
        ),
    ) {
        if matches!(op, AtomicOp::Inc | AtomicOp::Dec) {
            // With different bounds the cell, and with any bounds the old values, depend on the
            // order the threads' updates land in; one schedule is not every schedule.
            self.refuse_address(
                t,
                pc,
                &format!(
                    "an {}, whose results depend on the order threads update the cell (not \
                     modelled)",
                    op.c_name()
                ),
            );
            if let Some(d) = dst {
                let o = SVal::T(self.store.opaque());
                self.set(t, d, o);
            }
            return;
        }
        if let Some(off) = self.data_offset(t, offset) {
            let v = self.reg(t, val);
            match self.atomic_at(t, pc, (op, ty, dst), mem, off, v, None) {
                Ok(old) => {
                    if let Some(d) = dst {
                        self.set(t, d, old);
                    }
                }
                Err(why) => self.refuse_address(t, pc, &why),
            }
            return;
        }
        if self.stopped {
            return;
        }
        let Some(idx) = self.address(t, pc, mem, offset, "atomic update") else {
            if self.ctx.field.is_some() {
                self.refuse_field("an atomic update outside its buffer".into());
                return;
            }
            if let Some(d) = dst {
                let o = SVal::T(self.store.opaque());
                self.set(t, d, o);
            }
            return;
        };
        let old = self.read(t, pc, mem, idx, ty, Kind::Atomic);
        let v = self.reg(t, val);
        if let Some(ev) = self.ctx.field.filter(|_| field::applies(ty, &[old, v])) {
            let new = match op {
                AtomicOp::Add => field::binary(&ev, BinaryOp::Add, ty, old, v),
                AtomicOp::Sub => field::binary(&ev, BinaryOp::Sub, ty, old, v),
                AtomicOp::Exch => Ok(v),
                other => Err(format!("the atomic {other:?} of floats")),
            };
            let new = self.in_field(new);
            self.write(t, pc, mem, idx, new, Kind::Atomic);
            self.atomic_kind(op, dst, t, mem, idx);
            if let Some(d) = dst {
                self.set(t, d, old);
            }
            return;
        }
        let new = match op {
            AtomicOp::Add => value::binary(&mut self.store, BinaryOp::Add, ty, false, old, v).0,
            AtomicOp::Sub => value::binary(&mut self.store, BinaryOp::Sub, ty, false, old, v).0,
            AtomicOp::Max => value::binary(&mut self.store, BinaryOp::Max, ty, false, old, v).0,
            AtomicOp::Min => value::binary(&mut self.store, BinaryOp::Min, ty, false, old, v).0,
            AtomicOp::And => value::binary(&mut self.store, BinaryOp::And, ty, false, old, v).0,
            AtomicOp::Or => value::binary(&mut self.store, BinaryOp::Or, ty, false, old, v).0,
            AtomicOp::Xor => value::binary(&mut self.store, BinaryOp::Xor, ty, false, old, v).0,
            // Refused at the top of `atomic`.
            AtomicOp::Inc | AtomicOp::Dec => SVal::T(self.store.opaque()),
            AtomicOp::Exch => v,
            AtomicOp::Cas => {
                let c = compare.map_or(SVal::C(0), |c| self.reg(t, c));
                match (old, c) {
                    (SVal::C(a), SVal::C(b)) => {
                        if a == b {
                            v
                        } else {
                            old
                        }
                    }
                    _ => {
                        let (a, b): (TermId, TermId) = (
                            value::term(&mut self.store, ty, old),
                            value::term(&mut self.store, ty, c),
                        );
                        let eq = self.store.cmp(Cmp::Eq, a, b);
                        let (x, y) = (
                            value::term(&mut self.store, ty, v),
                            value::term(&mut self.store, ty, old),
                        );
                        let r = self.store.select(eq, x, y);
                        value::settle(&self.store, ty, r)
                    }
                }
            }
        };
        self.write(t, pc, mem, idx, new, Kind::Atomic);
        self.atomic_kind(op, dst, t, mem, idx);
        if let Some(d) = dst {
            self.set(t, d, old);
        }
    }
}
