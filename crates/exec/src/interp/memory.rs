//! Loads, stores and atomics of one warp step: address → cell, bounds, uninitialised reads,
//! and the race bookkeeping of each access.

use super::alu;
use super::context::{coords, Ctx, MemInfo};
use super::findings::Party;
use super::interblock::Touch;
use super::race::{Accessor, Cell, Conflict, Kind};
use super::worker::Worker;
use crate::thread::code::{Inst, MemId, Reg, Space};
use std::sync::atomic::Ordering::Relaxed;
use warpsafe_ir::{AtomicOp, Category, ScalarType};

/// An access of one lane.
struct Access {
    tid: u32,
    pc: u32,
    kind: Kind,
}

/// Iterates the set bits of a lane mask.
#[inline(always)]
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

/// `dst = mem[offset]` for the lanes in `mask`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn load(
    ctx: &Ctx,
    w: &mut Worker,
    warp: usize,
    pc: u32,
    mask: u32,
    dst: Reg,
    mem: MemId,
    offset: Reg,
) {
    let base = warp * ctx.nregs;
    let offs = w.regs[base + offset as usize];
    let mut out = w.regs[base + dst as usize];
    let info = &ctx.mems[mem as usize];
    for lane in lanes(mask) {
        let tid = (warp * 32 + lane) as u32;
        let byte = offs[lane] as i64;
        let Some(idx) = info.index(byte) else {
            out[lane] = 0;
            oob(ctx, w, info, tid, pc, byte, "read");
            continue;
        };
        let a = Access {
            tid,
            pc,
            kind: Kind::Read,
        };
        out[lane] = match info.space {
            Space::Global => {
                let v = ctx.global[info.base][idx].load(Relaxed);
                if ctx.checks.race {
                    global_access(ctx, w, info, mem, idx, &a);
                }
                v
            }
            Space::Shared => {
                shared_access(ctx, w, info, idx, &a);
                w.shared[info.base + idx]
            }
            Space::Local => {
                let cell = tid as usize * ctx.local_cells + info.base + idx;
                if w.local_gen[cell] != w.gen && ctx.checks.uninit {
                    uninit(ctx, w, info, tid, pc, idx);
                }
                w.local[cell]
            }
        };
    }
    w.regs[base + dst as usize] = out;
}

/// `mem[offset] = src` for the lanes in `mask`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn store(
    ctx: &Ctx,
    w: &mut Worker,
    warp: usize,
    pc: u32,
    mask: u32,
    mem: MemId,
    offset: Reg,
    src: Reg,
) {
    let base = warp * ctx.nregs;
    let offs = w.regs[base + offset as usize];
    let vals = w.regs[base + src as usize];
    let info = &ctx.mems[mem as usize];
    for lane in lanes(mask) {
        let tid = (warp * 32 + lane) as u32;
        let byte = offs[lane] as i64;
        let Some(idx) = info.index(byte) else {
            oob(ctx, w, info, tid, pc, byte, "write");
            continue;
        };
        let a = Access {
            tid,
            pc,
            kind: Kind::Write,
        };
        match info.space {
            Space::Global => {
                ctx.global[info.base][idx].store(vals[lane], Relaxed);
                if ctx.checks.race {
                    global_access(ctx, w, info, mem, idx, &a);
                }
            }
            Space::Shared => {
                shared_access(ctx, w, info, idx, &a);
                w.shared[info.base + idx] = vals[lane];
            }
            Space::Local => {
                let cell = tid as usize * ctx.local_cells + info.base + idx;
                w.local_gen[cell] = w.gen;
                w.local[cell] = vals[lane];
            }
        }
    }
}

/// An atomic read-modify-write for the lanes in `mask`, in lane order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn atomic(
    ctx: &Ctx,
    w: &mut Worker,
    warp: usize,
    pc: u32,
    mask: u32,
    op: AtomicOp,
    ty: ScalarType,
    dst: Option<Reg>,
    mem: MemId,
    offset: Reg,
    value: Reg,
    compare: Option<Reg>,
) {
    let base = warp * ctx.nregs;
    let offs = w.regs[base + offset as usize];
    let vals = w.regs[base + value as usize];
    let cmps = compare
        .map(|c| w.regs[base + c as usize])
        .unwrap_or([0; 32]);
    let mut out = dst.map(|d| w.regs[base + d as usize]).unwrap_or([0; 32]);
    let info = &ctx.mems[mem as usize];
    for lane in lanes(mask) {
        let tid = (warp * 32 + lane) as u32;
        let byte = offs[lane] as i64;
        let Some(idx) = info.index(byte) else {
            out[lane] = 0;
            oob(ctx, w, info, tid, pc, byte, "atomic update");
            continue;
        };
        let a = Access {
            tid,
            pc,
            kind: Kind::Atomic,
        };
        let (v, c) = (vals[lane], cmps[lane]);
        out[lane] = match info.space {
            Space::Global => {
                let cell = &ctx.global[info.base][idx];
                let mut old = cell.load(Relaxed);
                loop {
                    let new = alu::atomic(op, ty, old, v, c);
                    match cell.compare_exchange_weak(old, new, Relaxed, Relaxed) {
                        Ok(_) => break,
                        Err(cur) => old = cur,
                    }
                }
                if ctx.checks.race {
                    global_access(ctx, w, info, mem, idx, &a);
                }
                old
            }
            Space::Shared => {
                shared_access(ctx, w, info, idx, &a);
                let old = w.shared[info.base + idx];
                w.shared[info.base + idx] = alu::atomic(op, ty, old, v, c);
                old
            }
            Space::Local => {
                let cell = tid as usize * ctx.local_cells + info.base + idx;
                let old = w.local[cell];
                w.local[cell] = alu::atomic(op, ty, old, v, c);
                w.local_gen[cell] = w.gen;
                old
            }
        };
    }
    if let Some(d) = dst {
        let row = &mut w.regs[base + d as usize];
        for lane in lanes(mask) {
            row[lane] = out[lane];
        }
    }
}

fn accessor<'a>(ctx: &Ctx, vc: &'a [[u32; 32]], epoch: u32, a: &Access) -> Accessor<'a> {
    Accessor {
        tid: a.tid,
        pc: a.pc,
        epoch,
        vc: &vc[a.tid as usize],
        lockstep: ctx.lockstep && ctx.insts.get(a.pc as usize).is_some_and(Inst::is_volatile),
    }
}

/// Race and summary bookkeeping of one global access.
#[inline(always)]
fn global_access(ctx: &Ctx, w: &mut Worker, info: &MemInfo, mem: MemId, idx: usize, a: &Access) {
    let cell = match &mut w.sparse_cells {
        Some(map) => map.entry((info.base as u32, idx)).or_default(),
        None => match w
            .global_cells
            .get_mut(info.base)
            .and_then(|c| c.get_mut(idx))
        {
            Some(c) => c,
            None => return,
        },
    };
    if cell.refresh(w.global_gen) {
        cell.touch = w.touched.len() as u32;
        w.touched.push(Touch {
            slot: info.base as u32,
            mem,
            idx: idx as u64,
            kinds: 0,
            sites: [(0, 0); 3],
        });
    }
    if let Some(t) = w.touched.get_mut(cell.touch as usize) {
        t.note(a.kind, a.tid, a.pc);
    }
    let acc = accessor(ctx, &w.vc, w.epoch, a);
    let conflict = cell_access(cell, &acc, a.kind, &mut w.side);
    if let Some(c) = conflict {
        race(ctx, w, info, idx, a, c);
    }
}

/// Uninitialised-read check and race bookkeeping of one shared access.
#[inline(always)]
fn shared_access(ctx: &Ctx, w: &mut Worker, info: &MemInfo, idx: usize, a: &Access) {
    let cell = &mut w.shared_cells[info.base + idx];
    cell.refresh(w.gen);
    let uninit_read = a.kind != Kind::Write && !cell.initialised();
    let conflict = if ctx.checks.race {
        let acc = accessor(ctx, &w.vc, w.epoch, a);
        cell_access(cell, &acc, a.kind, &mut w.side)
    } else {
        if a.kind != Kind::Read {
            cell.mark_init();
        }
        None
    };
    if uninit_read && ctx.checks.uninit {
        uninit(ctx, w, info, a.tid, a.pc, idx);
    }
    if let Some(c) = conflict {
        race(ctx, w, info, idx, a, c);
    }
}

#[inline(always)]
fn cell_access(
    cell: &mut Cell,
    acc: &Accessor,
    kind: Kind,
    side: &mut super::race::SideTable,
) -> Option<Conflict> {
    match kind {
        Kind::Read => cell.read(acc, side),
        Kind::Write => cell.write(acc, false, side),
        Kind::Atomic => cell.write(acc, true, side),
    }
}

fn race(ctx: &Ctx, w: &mut Worker, info: &MemInfo, idx: usize, a: &Access, c: Conflict) {
    let block = w.block;
    w.sink.report(
        ctx,
        Category::Race,
        ctx.severity(Category::Race),
        Party {
            block,
            tid: a.tid,
            pc: a.pc,
        },
        Some(Party {
            block,
            tid: c.tid,
            pc: c.pc,
        }),
        || {
            (
                format!(
                    "{}-{} race on {} `{}` [index {}] between thread {} and thread {} of block {}",
                    c.kind.name(),
                    a.kind.name(),
                    info.space.name(),
                    info.name,
                    idx,
                    ctx.thread_text(c.tid),
                    ctx.thread_text(a.tid),
                    coords(block)
                ),
                Some(info.location((idx as u64 * info.elem_size) as i64)),
            )
        },
    );
}

fn oob(ctx: &Ctx, w: &mut Worker, info: &MemInfo, tid: u32, pc: u32, byte: i64, what: &str) {
    if !ctx.checks.bounds {
        return;
    }
    let block = w.block;
    w.sink.report(
        ctx,
        Category::Oob,
        ctx.severity(Category::Oob),
        Party { block, tid, pc },
        None,
        || {
            let loc = info.location(byte);
            (
                format!(
                    "out-of-bounds {what} of {} `{}` at index {} (length {}) by thread {} of block {}",
                    info.space.name(),
                    info.name,
                    loc.index,
                    info.len,
                    ctx.thread_text(tid),
                    coords(block)
                ),
                Some(loc),
            )
        },
    );
}

fn uninit(ctx: &Ctx, w: &mut Worker, info: &MemInfo, tid: u32, pc: u32, idx: usize) {
    let block = w.block;
    w.sink.report(
        ctx,
        Category::Uninit,
        ctx.severity(Category::Uninit),
        Party { block, tid, pc },
        None,
        || {
            (
                format!(
                    "read of uninitialised {} `{}` [index {}] by thread {} of block {}",
                    info.space.name(),
                    info.name,
                    idx,
                    ctx.thread_text(tid),
                    coords(block)
                ),
                Some(info.location((idx as u64 * info.elem_size) as i64)),
            )
        },
    );
}
