//! Data races: for each pair of logged accesses to the same shared array or global buffer (one
//! by each thread, at least one a write, not both atomic), can both happen at the same element
//! without a barrier (same block, same barrier epoch, and — within one warp — the same
//! warp-sync epoch) or from different blocks (global memory) without a grid barrier between
//! them (same grid epoch)? Race verdicts are about in-bounds accesses (out-of-bounds ones are
//! the bounds property's findings).
//!
//! Two plain writes of one value (`*done = 1` by every thread, `out[0] = s[0]` after a
//! barrier) are a benign race, tolerated as GPUVerify does by default (the report says so);
//! `--strict-races` reports them too. Two writes of one constant need no query; writes of
//! computed values are compared only when a first pass finds a race ([`Benign::Values`]).

use crate::launch::Launch;
use crate::obligation::{base, no_hazards, own_reads, query, same_reads, CexInfo, Obligation};
use crate::symexec::{Access, ThreadLog};
use crate::term::Term;
use crate::Property;
use warpsafe_ir::{Category, Kernel, MemRef};

/// The condition under which the two accesses are unordered by synchronisation. Under the
/// lock-step model (`lockstep`, for memory the source reaches through `volatile`) lanes of one
/// warp are ordered; a non-`volatile` access in warp-synchronous code may be kept in a
/// register by the compiler, so it races like without lock-step.
fn unordered(l: &Launch, a: &Access, b: &Access, lockstep: bool) -> Term {
    let same_block = l.same_block();
    let same_warp = l.same_warp();
    let warp_ok = if lockstep {
        same_warp.not()
    } else {
        same_warp.not().or(&a.wepoch.eq(&b.wepoch))
    };
    let in_block = same_block.and(&a.epoch.eq(&b.epoch)).and(&warp_ok);
    match a.mem {
        MemRef::Global(_) => same_block.not().and(&a.gepoch.eq(&b.gepoch)).or(&in_block),
        _ => in_block,
    }
}

fn kind(a: &Access) -> &'static str {
    match (a.atomic, a.write) {
        (true, _) => "atomic",
        (false, true) => "write",
        (false, false) => "read",
    }
}

/// Which writes of one value to a cell by two threads are tolerated as a benign race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Benign {
    /// None (`--strict-races`).
    Strict,
    /// Two writes of one integer or boolean constant (`*found = true`, `x[0] = 0`): such a
    /// pair needs no query.
    Constants,
    /// Also writes of computed integers (in the refined pass): the query asks for different
    /// values, given what reads tell ([`Mode::refined`]). A copy that oversteps its element
    /// (`memcpy` of two records per thread, from global memory) stays a race.
    Values,
}

/// How the pairs of accesses are asked about.
#[derive(Clone, Copy, Debug)]
pub struct Mode {
    /// Lanes of a warp run in lock-step for memory reached through `volatile`.
    pub lockstep: bool,
    /// Which same-value writes are tolerated.
    pub benign: Benign,
    /// The second pass, after a first found a race: a thread's reads of one address in one
    /// barrier interval agree ([`own_reads`]), and so do two threads' reads of one address of
    /// shared memory in one interval ([`same_reads`]: a value broadcast through shared
    /// memory; reads of global memory stay arbitrary per thread, as in GPUVerify's default).
    pub refined: bool,
}

/// Two plain writes of one constant: a race between them is benign unless `strict`.
fn same_constant(a: &Access, b: &Access, benign: Benign) -> bool {
    if benign == Benign::Strict || !plain_writes(a, b) {
        return false;
    }
    let constant = |t: &Term| {
        t.as_bv()
            .map(Some)
            .or_else(|| t.as_bool().map(|v| Some(v as u128)))
    };
    match (a.stored.as_ref(), b.stored.as_ref()) {
        (Some(x), Some(y)) => matches!((constant(x), constant(y)), (Some(p), Some(q)) if p == q),
        _ => false,
    }
}

fn plain_writes(a: &Access, b: &Access) -> bool {
    a.write && b.write && !a.atomic && !b.atomic
}

/// The values two plain writes store, when [`Benign::Values`] compares them.
fn compared<'a>(a: &'a Access, b: &'a Access, benign: Benign) -> Option<(&'a Term, &'a Term)> {
    if benign != Benign::Values || !plain_writes(a, b) {
        return None;
    }
    match (a.stored.as_ref(), b.stored.as_ref()) {
        (Some(x), Some(y)) if x.sort() == y.sort() => Some((x, y)),
        _ => None,
    }
}

/// True when `logs` hold two writes of one constant to one memory, so the report must say
/// that they are tolerated.
pub fn tolerates_benign(logs: &[ThreadLog; 2], benign: Benign) -> bool {
    logs[0].accesses.iter().any(|a| {
        logs[1].accesses.iter().any(|b| {
            a.mem == b.mem && !matches!(a.mem, MemRef::Local(_)) && same_constant(a, b, benign)
        })
    })
}

/// One obligation per pair of accesses that could race.
/// `None` when the run's `deadline` passes before every pair is built (a kernel with
/// thousands of accesses to one memory): the property cannot be decided in the budget.
#[allow(clippy::too_many_arguments)]
pub fn obligations(
    k: &Kernel,
    l: &Launch,
    logs: &[ThreadLog; 2],
    mode: Mode,
    small: &Term,
    deadline: Option<std::time::Instant>,
) -> Option<Vec<Obligation>> {
    let acc1 = &logs[0].accesses;
    let acc2 = &logs[1].accesses;
    let mut out = vec![];
    for (i, a) in acc1.iter().enumerate() {
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return None;
        }
        for (j, b) in acc2.iter().enumerate().skip(i) {
            if a.mem != b.mem || matches!(a.mem, MemRef::Local(_)) {
                continue;
            }
            if !a.write && !b.write || a.atomic && b.atomic || same_constant(a, b, mode.benign) {
                continue;
            }
            let same = a.flat.eq(&b.flat);
            if same.as_bool() == Some(false) {
                continue;
            }
            let unord = unordered(l, a, b, mode.lockstep && k.is_volatile(a.mem));
            if unord.as_bool() == Some(false) {
                continue;
            }
            let mut asserts = base(l, logs, 2);
            let refine = no_hazards(logs, 2, &[&a.pc, &b.pc, &a.flat, &b.flat]);
            // Races on cells outside the memory are the bounds property's findings: a race
            // counterexample is one the interpreter can show.
            let mut core = vec![
                a.pc.clone(),
                b.pc.clone(),
                a.inb.clone(),
                b.inb.clone(),
                same,
                unord,
            ];
            if let Some((x, y)) = compared(a, b, mode.benign) {
                core.push(x.ne(y));
            }
            if mode.refined {
                let roots: Vec<&Term> = core.iter().collect();
                asserts.extend(own_reads(logs, &roots, &|_| false));
                asserts.extend(same_reads(logs, &roots, true));
            }
            asserts.extend(core.iter().cloned());
            let name = k.mem_name(a.mem).to_string();
            let mut q = query(format!("{}_race_{i}_{j}", k.name), asserts, small);
            q.refine = refine;
            out.push(Obligation {
                property: Property::Race,
                query: q,
                cex: CexInfo {
                    category: Category::Race,
                    what: format!("data race on `{name}`: {} and {}", kind(a), kind(b)),
                    threads: 2,
                    spans: vec![a.span, b.span],
                    address: Some((name, a.flat.clone())),
                    core,
                    partial: false,
                    epochs: [a, b]
                        .iter()
                        .any(|x| x.epoch.as_bv() != Some(0) || x.gepoch.as_bv() != Some(0)),
                },
            });
        }
    }
    Some(out)
}
