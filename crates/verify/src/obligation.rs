//! A proof obligation: one SMT query whose satisfiability means a property is violated,
//! together with what is needed to turn a model into a counterexample.

use crate::smt::Query;
use crate::symexec::{Access, ThreadLog};
use crate::term::Term;
use crate::Property;
use std::collections::HashSet;
use warpsafe_ir::{Category, MemRef, Span};

/// A query and how to explain a model of it.
#[derive(Clone, Debug)]
pub struct Obligation {
    /// The property it belongs to.
    pub property: Property,
    /// The query (watch terms are filled in by the model module).
    pub query: Query,
    /// What a model means.
    pub cex: CexInfo,
}

/// How to explain a model.
#[derive(Clone, Debug)]
pub struct CexInfo {
    /// Finding category.
    pub category: Category,
    /// What goes wrong, without the concrete values.
    pub what: String,
    /// 1 for single-thread properties, 2 for races and divergence.
    pub threads: usize,
    /// Source positions involved.
    pub spans: Vec<Span>,
    /// Memory name and element index term, if any.
    pub address: Option<(String, Term)>,
    /// The obligation's own conditions (path conditions, addresses, the bad condition):
    /// a model is an exact execution when none of them depends on an abstracted value.
    pub core: Vec<Term>,
    /// The query leaves out something that could rule the model out (a write the uninit
    /// check cannot vouch for, say): no model is exact.
    pub partial: bool,
    /// The query compares barrier epochs after some barrier: a model is a real execution
    /// only if barriers are not divergent.
    pub epochs: bool,
}

/// The assumptions of a query about `threads` (1 or 2) threads: CUDA limits and the contract,
/// the threads' id ranges and `__assume`s, and (for two) that they differ.
pub fn base(l: &crate::launch::Launch, logs: &[ThreadLog; 2], threads: usize) -> Vec<Term> {
    let mut v = l.assumptions.clone();
    for (th, log) in l.threads.iter().zip(logs).take(threads) {
        v.extend(th.constraints.iter().cloned());
        v.extend(log.assumes.iter().cloned());
    }
    if threads == 2 {
        v.push(l.distinct());
        v.extend(l.pair_facts.iter().cloned());
    }
    v
}

/// The absence of every arithmetic hazard of the first `threads` threads: race and bounds
/// verdicts are about executions the overflow property has not already flagged.
/// Only hazards whose condition speaks about symbols of `core` are kept (the others cannot
/// matter much and would slow the solver down); dropping assumptions is always sound.
pub fn no_hazards(logs: &[ThreadLog; 2], threads: usize, core: &[&Term]) -> Vec<Term> {
    let mut syms = HashSet::new();
    for c in core {
        for s in c.free_syms() {
            if let Some(x) = s.as_sym() {
                syms.insert(x.name.clone());
            }
        }
    }
    logs.iter()
        .take(threads)
        .flat_map(|l| l.hazards.iter())
        .filter(|h| h.syms.iter().all(|x| syms.contains(x)))
        .map(|h| h.absent.clone())
        .collect()
}

/// A query named `name` over `assertions`, with small-model hints.
pub fn query(name: String, assertions: Vec<Term>, small: &Term) -> Query {
    Query {
        name,
        assertions,
        watch: vec![],
        small: Some(small.clone()),
        refine: vec![],
        cheap: false,
    }
}

/// For the reads the terms `roots` depend on (through values, addresses and path
/// conditions of other reads): thread 0's and thread 1's reads of one non-local address in
/// one barrier interval (and one interval between full-warp syncs) return the same value.
///
/// Sound only where no read races with a write (no thread writes that address in that
/// interval, nor a thread of another block in that grid interval): facts for queries whose
/// verdict stands only once the race property is verified. `shared_only` keeps the facts of
/// reads of shared memory.
pub fn same_reads(logs: &[ThreadLog; 2], roots: &[&Term], shared_only: bool) -> Vec<Term> {
    let reads: Vec<Vec<&Access>> = logs
        .iter()
        .map(|log| {
            log.accesses
                .iter()
                .filter(|a| {
                    let kept = match a.mem {
                        MemRef::Local(_) => false,
                        MemRef::Global(_) => !shared_only,
                        MemRef::Shared(_) => true,
                    };
                    kept && !a.write && a.value.is_some()
                })
                .collect()
        })
        .collect();
    let relevant = relevant_reads(&reads, roots);
    let mut out = vec![];
    for x in reads[0].iter().filter(|a| relevant.contains(&ptr(a))) {
        for y in reads[1].iter().filter(|a| relevant.contains(&ptr(a))) {
            let (Some(vx), Some(vy)) = (&x.value, &y.value) else {
                continue;
            };
            if x.mem != y.mem || vx.sort() != vy.sort() {
                continue;
            }
            out.push(same_place(x, y).implies(&vx.eq(vy)));
        }
    }
    out
}

/// Most facts [`own_reads`] states for one query.
const OWN_READS: usize = 4096;

/// For the reads the terms `roots` depend on: a read of a non-local address by a thread
/// returns what the thread last read there or wrote there (a plain write of a known value),
/// when that was in the same barrier interval, in one stretch of code without loops, with no
/// other write of the thread's own to that address between. Memories `skip` names are left
/// out (`volatile` memory under `--warp-sync`, where lanes of a warp write in lock-step).
///
/// Sound where no read races with a write and no two writes of different values race
/// (another thread's write in between races with the read or with the thread's write), so
/// only for queries whose verdict stands once the race property is verified, or for the race
/// property itself: in an execution where the facts fail, the first write that breaks one
/// races, and that race is a model of its own obligation with the facts kept (each read's
/// value is its own free symbol).
pub fn own_reads(
    logs: &[ThreadLog; 2],
    roots: &[&Term],
    skip: &dyn Fn(MemRef) -> bool,
) -> Vec<Term> {
    let reads: Vec<Vec<&Access>> = logs
        .iter()
        .map(|log| {
            log.accesses
                .iter()
                .filter(|a| !matches!(a.mem, MemRef::Local(_)) && !a.write && a.value.is_some())
                .collect()
        })
        .collect();
    let relevant = relevant_reads(&reads, roots);
    let mut out = vec![];
    for log in logs {
        let acc = &log.accesses;
        for (i, x) in acc.iter().enumerate() {
            let source = match (x.write, x.atomic) {
                _ if matches!(x.mem, MemRef::Local(_)) || skip(x.mem) => None,
                (true, false) => x.stored.as_ref(),
                (false, _) if relevant.contains(&ptr(&x)) => x.value.as_ref(),
                _ => None,
            };
            let Some(vx) = source else { continue };
            let mut unwritten = vec![];
            for y in &acc[i + 1..] {
                if y.region != x.region || y.iters.len() != x.iters.len() {
                    break;
                }
                if y.mem != x.mem {
                    continue;
                }
                if y.write {
                    unwritten.push(y.pc.and(&y.flat.eq(&x.flat)).not());
                    continue;
                }
                let Some(vy) = &y.value else { continue };
                if !relevant.contains(&ptr(&y)) || vx.sort() != vy.sort() {
                    continue;
                }
                let mut place = vec![same_place(x, y)];
                place.extend(unwritten.iter().cloned());
                out.push(Term::and_all(place).implies(&vx.eq(vy)));
                if out.len() >= OWN_READS {
                    return out;
                }
            }
        }
    }
    out
}

fn ptr(a: &&Access) -> *const Access {
    *a as *const Access
}

/// Both accesses happen, in bounds, at one address, in one barrier interval (and one
/// interval between full-warp syncs and grid barriers).
fn same_place(x: &Access, y: &Access) -> Term {
    Term::and_all([
        x.pc.clone(),
        y.pc.clone(),
        x.inb.clone(),
        y.inb.clone(),
        x.flat.eq(&y.flat),
        x.epoch.eq(&y.epoch),
        x.wepoch.eq(&y.wepoch),
        x.gepoch.eq(&y.gepoch),
    ])
}

/// The reads among `reads` whose values the terms `roots` depend on, through values,
/// addresses and conditions of other such reads.
fn relevant_reads(reads: &[Vec<&Access>], roots: &[&Term]) -> HashSet<*const Access> {
    let name = |t: &Term| t.as_sym().map(|s| s.name.clone());
    let mut wanted: HashSet<String> = roots
        .iter()
        .flat_map(|t| t.free_syms())
        .filter_map(|t| name(&t))
        .collect();
    let value = |a: &Access| a.value.as_ref().and_then(name);
    let mut relevant: HashSet<*const Access> = HashSet::new();
    loop {
        let before = relevant.len();
        for a in reads.iter().flatten() {
            let hit = value(a).is_some_and(|v| wanted.contains(&v));
            if hit && relevant.insert(ptr(a)) {
                for t in [&a.flat, &a.pc, &a.epoch, &a.wepoch, &a.gepoch] {
                    wanted.extend(t.free_syms().iter().filter_map(name));
                }
            }
        }
        if relevant.len() == before {
            break;
        }
    }
    relevant
}
