//! Races between blocks on global memory: each block summarises which global cells it read,
//! wrote and updated atomically; summaries are merged in block order after the blocks ran, so
//! the findings do not depend on how blocks were spread over threads.

use super::context::{coords, Ctx};
use super::findings::{Party, Sink};
use super::race::Kind;
use super::worker::DENSE_GLOBAL_LIMIT;
use std::collections::HashMap;
use warpsafe_ir::Category;

/// One global cell a block touched: kinds of access and the first site of each kind.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Touch {
    /// Global buffer slot (index into `Ctx::global`) and its `MemId`.
    pub slot: u32,
    pub mem: u32,
    pub idx: u64,
    pub kinds: u8,
    /// `(tid, pc)` of the first access of each [`Kind`] (by `Kind::slot`).
    pub sites: [(u32, u32); 3],
}

impl Touch {
    /// Notes an access of `kind` by `tid` at `pc`.
    #[inline(always)]
    pub fn note(&mut self, kind: Kind, tid: u32, pc: u32) {
        if self.kinds & kind.bit() == 0 {
            self.kinds |= kind.bit();
            self.sites[kind.slot()] = (tid, pc);
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Seen {
    kinds: u8,
    /// `(block, tid, pc)` of the first earlier-block access of each kind.
    sites: [(u64, u32, u32); 3],
}

/// What earlier blocks did to each global cell.
pub(crate) struct History {
    cells: Vec<Vec<Seen>>,
    /// Used instead of `cells` for launches with very large global buffers.
    sparse: Option<HashMap<(u32, u64), Seen>>,
}

impl History {
    /// Empty history for the launch's global buffers.
    pub fn new(ctx: &Ctx) -> History {
        let sparse = ctx.global.iter().map(Vec::len).sum::<usize>() > DENSE_GLOBAL_LIMIT;
        History {
            sparse: sparse.then(HashMap::new),
            cells: ctx
                .global
                .iter()
                .map(|g| {
                    if ctx.checks.race && !sparse {
                        vec![Seen::default(); g.len()]
                    } else {
                        Vec::new()
                    }
                })
                .collect(),
        }
    }

    /// Checks block `block`'s accesses against all earlier blocks, then records them.
    pub fn merge_block(&mut self, ctx: &Ctx, block: u64, touched: &[Touch], sink: &mut Sink) {
        let here = ctx.block_idx(block);
        for t in touched {
            let seen = match &mut self.sparse {
                Some(map) => map.entry((t.slot, t.idx)).or_default(),
                None => match self
                    .cells
                    .get_mut(t.slot as usize)
                    .and_then(|c| c.get_mut(t.idx as usize))
                {
                    Some(s) => s,
                    None => continue,
                },
            };
            'found: for x in Kind::ALL {
                if seen.kinds & x.bit() == 0 {
                    continue;
                }
                for y in Kind::ALL {
                    if t.kinds & y.bit() == 0 || !Kind::conflicts(x, y) {
                        continue;
                    }
                    let (ob, otid, opc) = seen.sites[x.slot()];
                    let (tid, pc) = t.sites[y.slot()];
                    let there = ctx.block_idx(ob);
                    let mem = &ctx.mems[t.mem as usize];
                    let byte = (t.idx * mem.elem_size) as i64;
                    sink.report(
                        ctx,
                        Category::Race,
                        ctx.severity(Category::Race),
                        Party {
                            block: here,
                            tid,
                            pc,
                        },
                        Some(Party {
                            block: there,
                            tid: otid,
                            pc: opc,
                        }),
                        || {
                            (
                                format!(
                                    "{}-{} race on global `{}` [index {}] between thread {} of block {} and thread {} of block {} (blocks run concurrently)",
                                    x.name(),
                                    y.name(),
                                    mem.name,
                                    t.idx,
                                    ctx.thread_text(otid),
                                    coords(there),
                                    ctx.thread_text(tid),
                                    coords(here)
                                ),
                                Some(mem.location(byte)),
                            )
                        },
                    );
                    break 'found;
                }
            }
            for k in Kind::ALL {
                if t.kinds & k.bit() != 0 && seen.kinds & k.bit() == 0 {
                    seen.kinds |= k.bit();
                    let (tid, pc) = t.sites[k.slot()];
                    seen.sites[k.slot()] = (block, tid, pc);
                }
            }
        }
    }
}
