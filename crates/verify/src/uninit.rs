//! Uninitialised reads: every read of shared or local memory must be preceded, in barrier
//! order, by a write of that cell — by any thread of the block in an earlier barrier interval,
//! or by the reading thread itself earlier in its own execution. A violation is a read for
//! which *every* thread fails to have written the cell before: a universally quantified
//! second thread, whose writes count only when they are determined by its ids, the launch and
//! loop iterations whose summaries are exact (a write that depends on memory contents or
//! havocked state may not happen, so it never vouches for a cell).

use crate::launch::Launch;
use crate::obligation::{base, no_hazards, query, CexInfo, Obligation};
use crate::symexec::{Access, ThreadLog};
use crate::term::{SymKind, Term};
use crate::Property;
use warpsafe_ir::{Category, Kernel, MemRef};

mod witness;

/// One obligation per read of shared or local memory.
pub fn obligations(k: &Kernel, l: &Launch, logs: &[ThreadLog; 2], small: &Term) -> Vec<Obligation> {
    let mut out = vec![];
    for (i, r) in logs[0].accesses.iter().enumerate() {
        if r.write || r.atomic || matches!(r.mem, MemRef::Global(_)) {
            continue;
        }
        if r.pc.as_bool() == Some(false) {
            continue;
        }
        let all: Vec<(usize, &Access)> = logs[1]
            .accesses
            .iter()
            .enumerate()
            .filter(|(_, w)| w.write && w.mem == r.mem)
            .collect();
        let writes: Vec<(usize, &Access)> = all
            .iter()
            .copied()
            .filter(|(_, w)| vouches(w, &logs[1]))
            .collect();
        let partial = writes.len() < all.len();
        let covers = Term::or_all(writes.iter().map(|&(j, w)| covers(l, r, i, w, j)));
        let t2 = &l.threads[1];
        let bound: Vec<Term> = covers
            .free_syms()
            .into_iter()
            .filter(|s| crate::term::thread(s) == 2)
            .collect();
        let nobody_if = Term::and_all(t2.constraints.iter().cloned()).implies(&covers.not());
        // Instances of the quantifier at likely writers: implied by it, so sound to add, and
        // usually all the solver needs.
        let hints: Vec<Term> = witness::candidates(l, r, &writes, &bound)
            .iter()
            .map(|w| nobody_if.subst(&|s| w.get(&s.name).cloned()))
            .collect();
        let nobody = Term::forall(bound, nobody_if);
        let mut asserts = base(l, logs, 1);
        asserts.extend(hints);
        let refine = no_hazards(logs, 1, &[&r.pc, &r.flat]);
        let core = vec![r.pc.clone(), r.inb.clone(), nobody];
        asserts.extend(core.iter().cloned());
        let name = k.mem_name(r.mem).to_string();
        let mut q = query(format!("{}_uninit_{i}", k.name), asserts, small);
        q.refine = refine;
        out.push(Obligation {
            property: Property::Uninit,
            query: q,
            cex: CexInfo {
                category: Category::Uninit,
                what: format!("read of `{name}` before any thread wrote it"),
                threads: 1,
                spans: vec![r.span],
                address: Some((name, r.flat.clone())),
                core,
                partial,
                epochs: r.epoch.as_bv() != Some(0),
            },
        });
    }
    out
}

/// True when the write `w` of the second thread happens whenever its conditions say so: they
/// read no memory and no havocked state, and its loops' summaries are exact.
fn vouches(w: &Access, log: &ThreadLog) -> bool {
    [&w.pc, &w.flat, &w.epoch].iter().all(|t| {
        t.free_syms().iter().all(|s| match s.as_sym() {
            Some(x) => match x.kind {
                SymKind::Load | SymKind::Havoc => false,
                SymKind::Iter { .. } | SymKind::Exit { .. } => !log.inexact_iters.contains(&x.name),
                _ => true,
            },
            None => true,
        })
    })
}

/// The second thread's write as the quantifier sees it: its path condition, address and epoch.
/// A loop the writer left without synchronising only tells, in the path condition, where it
/// left: some iteration does once the loop ends, and a writer that never leaves it never
/// reaches the barrier the reader waits at (nor, being the reader, the read), so those facts
/// go. A synchronising loop is left at the same iteration by every thread of the block, so
/// its exit is the reader's.
fn writer_view(l: &Launch, r: &Access, w: &Access) -> (Term, Term, Term) {
    let reader = witness::reader_syms(l, r);
    let exit = |s: &Term, sync: bool| {
        s.as_sym().is_some_and(|x| {
            x.thread == 2 && matches!(x.kind, SymKind::Exit { sync: y } if y == sync)
        })
    };
    let same_exit = |t: &Term| {
        t.subst(&|s| match s.kind {
            SymKind::Exit { sync: true } if s.thread == 2 => {
                reader.get(&witness::counterpart(&s.name)).cloned()
            }
            _ => None,
        })
    };
    let (flat, epoch) = (same_exit(&w.flat), same_exit(&w.epoch));
    let mut used: Vec<String> = [&flat, &epoch]
        .iter()
        .flat_map(|t| t.free_syms())
        .filter_map(|s| s.as_sym().map(|x| x.name.clone()))
        .collect();
    let conjuncts: Vec<Term> = match &*w.pc.0 {
        crate::term::Node::App(crate::term::Op::And, xs, _) => xs.clone(),
        _ => vec![w.pc.clone()],
    };
    let exits_of = |c: &Term| -> Vec<String> {
        c.free_syms()
            .iter()
            .filter(|s| exit(s, false))
            .filter_map(|s| s.as_sym().map(|x| x.name.clone()))
            .collect()
    };
    // Exit symbols that a conjunct without exit facts also needs stay.
    for c in &conjuncts {
        if exits_of(c).is_empty() {
            used.extend(
                c.free_syms()
                    .iter()
                    .filter_map(|s| s.as_sym().map(|x| x.name.clone())),
            );
        }
    }
    let pc = Term::and_all(
        conjuncts
            .iter()
            .filter(|c| {
                let e = exits_of(c);
                e.is_empty() || e.iter().any(|x| used.contains(x))
            })
            .map(same_exit),
    );
    (pc, flat, epoch)
}

/// The second thread's write `w` (its `j`-th access) initialises the cell the first thread's
/// read `r` (its `i`-th access) reads, before the read.
fn covers(l: &Launch, r: &Access, i: usize, w: &Access, j: usize) -> Term {
    let (pc, flat, epoch) = writer_view(l, r, w);
    let [t1, t2] = &l.threads;
    let same_thread = Term::and_all(
        (0..3)
            .map(|d| t1.tid[d].eq(&t2.tid[d]))
            .chain((0..3).map(|d| t1.bid[d].eq(&t2.bid[d]))),
    );
    let earlier_here = same_thread
        .and(&epoch.eq(&r.epoch))
        .and(&program_order(r, i, w, j));
    let before = match r.mem {
        MemRef::Local(_) => same_thread.and(&program_order(r, i, w, j)),
        _ => l.same_block().and(&epoch.ult(&r.epoch).or(&earlier_here)),
    };
    Term::and_all([pc, flat.eq(&r.flat), before])
}

/// In one thread's execution, `w` (access `j`) comes before `r` (access `i`): an earlier
/// iteration of an enclosing loop they share, or the same iterations and an earlier place.
fn program_order(r: &Access, i: usize, w: &Access, j: usize) -> Term {
    let shared = r
        .iters
        .iter()
        .zip(&w.iters)
        .take_while(|((a, _), (b, _))| a == b)
        .count();
    let mut earlier = vec![];
    let mut equal_above = vec![];
    for ((_, kr), (_, kw)) in r.iters.iter().zip(&w.iters).take(shared) {
        earlier.push(Term::and_all(
            equal_above.iter().cloned().chain([kw.ult(kr)]),
        ));
        equal_above.push(kw.eq(kr));
    }
    if j < i {
        earlier.push(Term::and_all(equal_above));
    }
    Term::or_all(earlier)
}
