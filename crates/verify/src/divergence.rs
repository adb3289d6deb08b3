//! Barrier divergence: every `__syncthreads()` must be reached by all threads of a block or by
//! none, every grid barrier by all threads of the launch or by none, and every warp
//! collective by all lanes of its mask, in the same iteration of every enclosing
//! synchronising loop. Path conditions that the uniformity pass proves equal need no query;
//! the rest ask whether two threads of one block (of the grid, for a grid barrier; of one
//! warp for a collective) can disagree.

use crate::launch::Launch;
use crate::obligation::{base, query, same_reads, CexInfo, Obligation};
use crate::symexec::{SyncKind, ThreadLog};
use crate::term::Term;
use crate::uniform::{is_block_uniform, is_grid_uniform};
use crate::Property;
use warpsafe_ir::{Category, Kernel};

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
            asserts.extend(same_reads(logs, &[&a.pc, &b.pc], false));
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
