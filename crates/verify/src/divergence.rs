//! Barrier divergence: every `__syncthreads()` must be reached by all threads of a block or by
//! none, every grid barrier by all threads of the launch or by none, and every warp
//! collective by all lanes of its mask, in the same iteration of every enclosing
//! synchronising loop. Path conditions that the uniformity pass proves equal need no query;
//! the rest ask whether two threads of one block (of the grid, for a grid barrier; of one
//! warp for a collective) can disagree.

use crate::launch::Launch;
use crate::obligation::{base, query, CexInfo, Obligation};
use crate::symexec::{Access, SyncKind, ThreadLog};
use crate::term::Term;
use crate::uniform::{is_block_uniform, is_grid_uniform};
use crate::Property;
use std::collections::HashSet;
use warpsafe_ir::{Category, Kernel, MemRef};

/// One obligation per synchronisation point whose path condition is not obviously uniform.
///
/// With `equal_reads` (sound only once the race property is verified), two reads of one
/// address in the same barrier interval return the same value in both threads: with no
/// race, no thread writes that address in that interval. Without it, every read is an
/// arbitrary value per thread, so a condition fed by memory is never uniform.
pub fn obligations(
    k: &Kernel,
    l: &Launch,
    logs: &[ThreadLog; 2],
    small: &Term,
    equal_reads: bool,
) -> Vec<Obligation> {
    let mut out = vec![];
    for (i, (a, b)) in logs[0].syncs.iter().zip(&logs[1].syncs).enumerate() {
        let uniform = match a.kind {
            SyncKind::Grid => is_grid_uniform(&a.pc),
            _ => is_block_uniform(&a.pc),
        };
        if uniform {
            continue;
        }
        let mut asserts = base(l, logs, 2);
        let (scope, what) = match a.kind {
            SyncKind::Block => (
                l.same_block(),
                "`__syncthreads()` reached by only some threads of a block".to_string(),
            ),
            SyncKind::Grid => (
                Term::tt(),
                "grid barrier (`this_grid().sync()`) reached by only some threads of the grid"
                    .to_string(),
            ),
            SyncKind::Warp(m) => {
                let lane = |t: usize| l.threads[t].linear.bvand(&Term::bv(32, 31));
                let in_mask = |t: usize| {
                    Term::bv(32, 1)
                        .shl(&lane(t))
                        .bvand(&Term::bv(32, m as u128))
                        .ne(&Term::bv(32, 0))
                };
                (
                    l.same_warp().and(&in_mask(0)).and(&in_mask(1)),
                    format!("warp collective (mask {m:#x}) reached by only some lanes of its mask"),
                )
            }
        };
        let mut core = vec![scope];
        core.extend(a.iters.iter().zip(&b.iters).map(|(x, y)| x.eq(y)));
        core.push(a.pc.ne(&b.pc));
        asserts.extend(core.iter().cloned());
        asserts.extend(logs[0].exits.iter().chain(&logs[1].exits).cloned());
        if equal_reads {
            asserts.extend(same_reads(logs, &[&a.pc, &b.pc]));
        }
        out.push(Obligation {
            property: Property::Divergence,
            query: query(format!("{}_divergence_{i}", k.name), asserts, small),
            cex: CexInfo {
                category: Category::Divergence,
                what,
                threads: 2,
                spans: vec![a.span],
                address: None,
                core,
                partial: false,
                epochs: false,
            },
        });
    }
    out
}

/// For the reads the terms `roots` depend on (through values, addresses and path
/// conditions of other reads): thread 0's and thread 1's reads of one non-local address in
/// one barrier interval (and one interval between full-warp syncs) return the same value.
fn same_reads(logs: &[ThreadLog; 2], roots: &[&Term]) -> Vec<Term> {
    let name = |t: &Term| t.as_sym().map(|s| s.name.clone());
    let mut wanted: HashSet<String> = roots
        .iter()
        .flat_map(|t| t.free_syms())
        .filter_map(|t| name(&t))
        .collect();
    let reads: Vec<Vec<&Access>> = logs
        .iter()
        .map(|log| {
            log.accesses
                .iter()
                .filter(|a| !a.write && !matches!(a.mem, MemRef::Local(_)) && a.value.is_some())
                .collect()
        })
        .collect();
    let value = |a: &Access| a.value.as_ref().and_then(name);
    // Close over the reads whose values are wanted: their addresses and conditions count too.
    let mut relevant: Vec<&Access> = vec![];
    loop {
        let before = relevant.len();
        for a in reads.iter().flatten() {
            let hit = value(a).is_some_and(|v| wanted.contains(&v));
            if hit && !relevant.iter().any(|r| std::ptr::eq(*r, *a)) {
                relevant.push(a);
                for t in [&a.flat, &a.pc, &a.epoch, &a.wepoch, &a.gepoch] {
                    wanted.extend(t.free_syms().iter().filter_map(name));
                }
            }
        }
        if relevant.len() == before {
            break;
        }
    }
    let mut out = vec![];
    for x in reads[0]
        .iter()
        .filter(|a| relevant.iter().any(|r| std::ptr::eq(*r, **a)))
    {
        for y in reads[1]
            .iter()
            .filter(|a| relevant.iter().any(|r| std::ptr::eq(*r, **a)))
        {
            let (Some(vx), Some(vy)) = (&x.value, &y.value) else {
                continue;
            };
            if x.mem != y.mem || vx.sort() != vy.sort() {
                continue;
            }
            let same_place = Term::and_all([
                x.pc.clone(),
                y.pc.clone(),
                x.flat.eq(&y.flat),
                x.epoch.eq(&y.epoch),
                x.wepoch.eq(&y.wepoch),
                x.gepoch.eq(&y.gepoch),
            ]);
            out.push(same_place.implies(&vx.eq(vy)));
        }
    }
    out
}
