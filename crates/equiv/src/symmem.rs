//! Symbolic memory: loads, stores and atomics at addresses computed from input data (gathers
//! `x[idx[i]]`, histograms `atomicAdd(&h[d[i] & 7], 1)`, scatters `y[perm[i]] = v`).
//!
//! The address must be shown to stay inside its buffer and aligned ([`crate::interval`], under
//! the path's guard); then every cell `k` it may name is visited. A load is the chain
//! `off == k₀ ? v₀ : (off == k₁ ? v₁ : … v_last)` over those cells' current contents (input
//! symbols, or what was written), so two loads at indices with equal normal forms are equal; a
//! store makes each cell `off == k ? new : old`; an atomic add adds `off == k ? v : 0` to each.
//! Every such access counts, for races, as a possible access to every cell it may name, so a
//! conflict with it is undecided ("not structured"), never a certain race and never ignored.
//! What cannot be shown in bounds, may read uninitialised memory, or names too many cells is
//! refused with the reason (the verdict is then `unknown`).

use crate::block::BlockRun;
use crate::interval::{self, Facts};
use crate::shadow::Kind;
use crate::value::{self, SVal};
use warpsafe_algebra::{Cmp, TermId};
use warpsafe_exec::thread::code::BinaryOp;
use warpsafe_ir::{AtomicOp, ScalarType};

/// Most cells one access at a data-dependent address may name (a chain or an update of this
/// many cells per access).
pub(crate) const MAX_CELLS: u64 = 4096;

/// Most cells a block's data-dependent accesses may visit in all (about three terms each).
pub(crate) const MAX_BLOCK_CELLS: u64 = 1 << 22;

/// Why an access at a data-dependent address cannot be run exactly.
pub(crate) type Refusal = String;

/// The cells an access may name: the first and last element index, and the byte offset term.
struct Cells {
    lo: u64,
    hi: u64,
    off: TermId,
    size: i128,
}

impl BlockRun<'_, '_> {
    /// The cells of `mem` that byte offset `off` may name on a path where `guard` holds.
    fn cells(
        &mut self,
        mem: u32,
        off: TermId,
        guard: Option<TermId>,
        what: &str,
    ) -> Result<Cells, Refusal> {
        let info = &self.ctx.mems[mem as usize];
        let size = info.elem.size_bytes() as i128;
        let len = info.len as i128;
        let facts = Facts::of(&self.store, guard);
        let range = interval::range(&self.store, off, &facts);
        let (lo, hi) = match range {
            Some((lo, hi)) if lo >= 0 && hi < len * size => (lo, hi),
            r => {
                let shown = match r {
                    Some((lo, hi)) => format!(
                        "its index may be anywhere in [{}, {}]",
                        lo.div_euclid(size),
                        hi.div_euclid(size)
                    ),
                    None => "its index is not bounded by anything the path checks".into(),
                };
                return Err(format!(
                    "{what} `{}` at an index computed from input data that may lie outside it ({shown}; length {len})",
                    info.name
                ));
            }
        };
        if size > 1 && interval::multiple(&self.store, off) % size != 0 {
            return Err(format!(
                "{what} `{}` at a byte offset computed from input data that may not be a multiple of its element size {size}",
                info.name
            ));
        }
        let (lo, hi) = ((lo + size - 1) / size, hi / size);
        let n = (hi - lo + 1).max(0) as u64;
        if n > MAX_CELLS {
            return Err(format!(
                "{what} `{}` at an index computed from input data that may name {n} cells (more than {MAX_CELLS})",
                info.name
            ));
        }
        self.sym_cells += n;
        if self.sym_cells > MAX_BLOCK_CELLS {
            return Err(format!(
                "the accesses at indices computed from input data visit more than {MAX_BLOCK_CELLS} cells in one block"
            ));
        }
        Ok(Cells {
            lo: lo as u64,
            hi: hi as u64,
            off,
            size,
        })
    }

    /// `off == k` for element `k`.
    fn names(&mut self, c: &Cells, k: u64) -> TermId {
        let at = self.store.int((k as i128 * c.size) as i64);
        self.store.cmp(Cmp::Eq, c.off, at)
    }

    /// The current content of element `idx` of `mem` as seen by thread `t` (an input symbol
    /// the first time), or the refusal for memory never written.
    fn content(&mut self, t: usize, mem: u32, idx: u64, ty: ScalarType) -> Result<SVal, Refusal> {
        let cell = self.cell(t, mem, idx as usize);
        let m = mem as usize;
        match self.mem[m][cell] {
            SVal::Input => {
                let info = &self.ctx.mems[m];
                let (name, elem) = (info.name.clone(), info.elem);
                let s = value::input_symbol(&mut self.store, &name, Some(idx), elem);
                let v = value::settle(&self.store, ty, s);
                self.mem[m][cell] = v;
                Ok(v)
            }
            SVal::Uninit => {
                let info = &self.ctx.mems[m];
                Err(format!(
                    "an access to {} `{}` that may reach [index {idx}] before anything is written to it",
                    info.space.name(),
                    info.name
                ))
            }
            v => Ok(v),
        }
    }

    /// Thread `t`'s load (instruction `pc`) of a `ty` from `mem` at byte offset `off`, on a path
    /// where `guard` holds.
    pub(crate) fn load_at(
        &mut self,
        t: usize,
        pc: u32,
        ty: ScalarType,
        mem: u32,
        off: TermId,
        guard: Option<TermId>,
    ) -> Result<SVal, Refusal> {
        let c = self.cells(mem, off, guard, "a load of")?;
        self.guarded.insert(pc);
        let mut acc = None;
        for k in (c.lo..=c.hi).rev() {
            let v = self.content(t, mem, k, ty)?;
            let cell = self.cell(t, mem, k as usize);
            self.track(mem, cell, t as u32, pc, Kind::Read);
            let v = value::term(&mut self.store, ty, v);
            acc = Some(match acc {
                None => v,
                Some(rest) => {
                    let hit = self.names(&c, k);
                    self.store.select(hit, v, rest)
                }
            });
        }
        let t = acc.ok_or_else(|| {
            "an access at an index computed from input data names no cell".to_string()
        })?;
        Ok(value::settle(&self.store, ty, t))
    }

    /// Thread `t`'s store (instruction `pc`) of `v` into `mem` at byte offset `off`, on a path
    /// where `guard` holds.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store_at(
        &mut self,
        t: usize,
        pc: u32,
        ty: ScalarType,
        mem: u32,
        off: TermId,
        v: SVal,
        guard: Option<TermId>,
    ) -> Result<(), Refusal> {
        let c = self.cells(mem, off, guard, "a store into")?;
        self.guarded.insert(pc);
        let new = value::term(&mut self.store, ty, v);
        for k in c.lo..=c.hi {
            let old = self.content(t, mem, k, ty)?;
            let old = value::term(&mut self.store, ty, old);
            let mut hit = self.names(&c, k);
            if let Some(g) = guard {
                hit = crate::cond::conj(&mut self.store, &[g, hit]);
            }
            let cell = self.store.select(hit, new, old);
            let cell = value::settle(&self.store, ty, cell);
            self.write(t, pc, mem, k as usize, cell, Kind::Write);
        }
        Ok(())
    }

    /// Thread `t`'s atomic `op` (instruction `pc`) of `v` on `mem` at byte offset `off`, on a
    /// path where `guard` holds: the old value (a chain over the cells it may name).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn atomic_at(
        &mut self,
        t: usize,
        pc: u32,
        (op, ty, dst): (AtomicOp, ScalarType, Option<u32>),
        mem: u32,
        off: TermId,
        v: SVal,
        guard: Option<TermId>,
    ) -> Result<SVal, Refusal> {
        refuse_unordered(op, "at an index computed from input data")?;
        let c = self.cells(mem, off, guard, "an atomic update of")?;
        self.guarded.insert(pc);
        let mut old_chain = None;
        for k in (c.lo..=c.hi).rev() {
            let old = self.content(t, mem, k, ty)?;
            let mut hit = self.names(&c, k);
            let ot = value::term(&mut self.store, ty, old);
            old_chain = Some(match old_chain {
                None => ot,
                Some(rest) => self.store.select(hit, ot, rest),
            });
            if let Some(g) = guard {
                hit = crate::cond::conj(&mut self.store, &[g, hit]);
            }
            let new = self.updated(op, ty, old, v, hit);
            self.write(t, pc, mem, k as usize, new, Kind::Atomic);
            self.atomic_kind(op, dst, t, mem, k as usize);
        }
        let old = old_chain.ok_or_else(|| {
            "an access at an index computed from input data names no cell".to_string()
        })?;
        Ok(value::settle(&self.store, ty, old))
    }

    /// Thread `t`'s atomic `op` (instruction `pc`) of `v` on element `idx` of `mem`, on a side
    /// of a branch on input data that runs when `guard` holds: the old value.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn atomic_guarded(
        &mut self,
        t: usize,
        pc: u32,
        (op, ty, dst): (AtomicOp, ScalarType, Option<u32>),
        mem: u32,
        idx: usize,
        v: SVal,
        guard: TermId,
    ) -> Result<SVal, Refusal> {
        refuse_unordered(op, "under a branch on input data")?;
        let old = self.content(t, mem, idx as u64, ty)?;
        self.guarded.insert(pc);
        let new = self.updated(op, ty, old, v, guard);
        self.write(t, pc, mem, idx, new, Kind::Atomic);
        self.atomic_kind(op, dst, t, mem, idx);
        Ok(old)
    }

    /// A cell holding `old` after atomic `op` of `v` when `hit` holds (else unchanged): an
    /// addition adds `hit ? v : 0`, so additions stay sums whatever their order.
    fn updated(&mut self, op: AtomicOp, ty: ScalarType, old: SVal, v: SVal, hit: TermId) -> SVal {
        let vt = value::term(&mut self.store, ty, v);
        match op {
            AtomicOp::Add | AtomicOp::Sub => {
                let zero = value::term(&mut self.store, ty, SVal::C(0));
                let part = self.store.select(hit, vt, zero);
                let part = value::settle(&self.store, ty, part);
                let bop = if op == AtomicOp::Add {
                    BinaryOp::Add
                } else {
                    BinaryOp::Sub
                };
                value::binary(&mut self.store, bop, ty, false, old, part).0
            }
            AtomicOp::Max | AtomicOp::Min | AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => {
                let bop = match op {
                    AtomicOp::Max => BinaryOp::Max,
                    AtomicOp::Min => BinaryOp::Min,
                    AtomicOp::And => BinaryOp::And,
                    AtomicOp::Or => BinaryOp::Or,
                    _ => BinaryOp::Xor,
                };
                let ext = value::binary(&mut self.store, bop, ty, false, old, v).0;
                let et = value::term(&mut self.store, ty, ext);
                let ot = value::term(&mut self.store, ty, old);
                let r = self.store.select(hit, et, ot);
                value::settle(&self.store, ty, r)
            }
            // `refuse_unordered` turns these away before any cell is updated.
            AtomicOp::Exch | AtomicOp::Cas | AtomicOp::Inc | AtomicOp::Dec => {
                unreachable!("{} is refused before a conditional update", op.c_name())
            }
        }
    }
}

/// Exchanges, compare-and-swaps and wrapping increments/decrements have no order-free meaning
/// when they may not happen (or may hit any of several cells): refused. (`and`/`or`/`xor`, like
/// `min`/`max`, give the same cell whatever the order.)
fn refuse_unordered(op: AtomicOp, where_: &str) -> Result<(), Refusal> {
    if matches!(
        op,
        AtomicOp::Exch | AtomicOp::Cas | AtomicOp::Inc | AtomicOp::Dec
    ) {
        return Err(format!("{} {where_} is not supported", op.c_name()));
    }
    Ok(())
}
