//! Atomic counters: memory whose every update is an `atomicAdd` (or every one an
//! `atomicSub`) of a non-zero constant and that nothing writes plainly. Fetch-and-add on such
//! a cell returns strictly increasing (decreasing) values, so two atomics of different threads
//! on one cell return different values — the slot-allocation idiom
//! `slot = atomicAdd(count, 1); out[slot] = …` writes distinct elements. This holds as long
//! as the counter does not wrap around, which the report states.

use crate::symexec::ThreadLog;
use crate::term::Term;
use warpsafe_ir::{AtomicOp, Kernel, MemRef, StmtKind};

/// The memories of `k` that are atomic counters.
pub fn counters(k: &Kernel) -> Vec<MemRef> {
    let mut seen: Vec<(MemRef, Option<AtomicOp>, bool)> = vec![];
    let mut note =
        |mem: MemRef, op: Option<AtomicOp>| match seen.iter_mut().find(|(m, _, _)| *m == mem) {
            Some(e) => {
                e.2 &= op.is_some() && e.1 == op;
            }
            None => seen.push((mem, op, op.is_some())),
        };
    for s in &k.body {
        s.walk(&mut |st| match &st.kind {
            StmtKind::Store { mem, .. } => note(*mem, None),
            StmtKind::Atomic { op, mem, value, .. } => {
                let positive = value
                    .as_const()
                    .and_then(|v| v.as_i128())
                    .is_some_and(|c| c > 0);
                let counting = matches!(op, AtomicOp::Add | AtomicOp::Sub) && positive;
                note(*mem, counting.then_some(*op));
            }
            _ => {}
        });
    }
    seen.into_iter().filter(|e| e.2).map(|e| e.0).collect()
}

/// For two threads' logs: atomics on one cell of a counter return different values.
pub fn distinct_results(logs: &[ThreadLog; 2], counters: &[MemRef]) -> Vec<Term> {
    let mut out = vec![];
    for a in logs[0].accesses.iter().filter(|a| a.atomic) {
        if !counters.contains(&a.mem) {
            continue;
        }
        for b in logs[1]
            .accesses
            .iter()
            .filter(|b| b.atomic && b.mem == a.mem)
        {
            let (Some(va), Some(vb)) = (&a.value, &b.value) else {
                continue;
            };
            if va.sort() != vb.sort() {
                continue;
            }
            let same = Term::and_all([a.pc.clone(), b.pc.clone(), a.flat.eq(&b.flat)]);
            out.push(same.implies(&va.ne(vb)));
        }
    }
    out
}
