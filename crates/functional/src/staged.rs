//! Barrier-phased kernels that stage data through shared memory: the obligations that let a
//! shared read stand for the value one other thread of the block wrote before a barrier.
//!
//! The thread's phase (barriers passed, [`exec`](crate)) orders its accesses. With
//!
//! - **uniform barriers**: any two threads of a block reach the same barriers (each barrier's
//!   condition is the same for both, at the same iterations), so all threads are in phase `p`
//!   between the block's `p`-th and `p+1`-th barrier;
//! - **no shared race**: two distinct threads of a block never access one element in the same
//!   phase unless both read;
//!
//! a read `L` of element `a` in phase `p_L` sees the last write to `a` in an earlier phase, or
//! in the same phase by the same thread. The proof names that write: the one store `W` to the
//! array, executed by a *witness* thread of the same block read off `a` by mixed-radix
//! decomposition ([`coverage`](crate)), at the iterations `L` is in for the loops both share.
//! It shows that the witness runs `W` at `a` in a phase before `p_L`, and that no write to `a`
//! by any thread of the block falls between the two (a write in the witness's phase by
//! another thread, or in `p_L` by a thread other than the reader, is a race, excluded above).
//! The read's symbol is then defined as `W`'s value at the witness — a premise of the value
//! obligations only, never of the obligations this argument rests on.

use crate::congruence::StagedDef;
use crate::coverage::{chain_over, decompose, Chain};
use crate::encode::SharedEv;
use crate::exec::Events;
use crate::poly::Poly;
use crate::prove::Builder;
use crate::term::{Op, Term, TermExt};
use crate::writers::merge;

/// `n` renamed with `suffix` when `keep` says it is a per-thread symbol to rename.
fn renamer<'a>(
    suffix: String,
    keep: impl Fn(&str) -> bool + 'a,
) -> impl Fn(&str) -> Option<String> + 'a {
    move |n: &str| (!keep(n)).then(|| format!("{n}{suffix}"))
}

/// Where the writer's address is one coordinate `x` (`x = target − offset`), its value's
/// `x div c` and `x mod c` in the reader's terms: `target − offset` split into the monomials
/// whose coefficients `c` divides (`c·Q`) and the rest (`R`), so `x div c = Q` and
/// `x mod c = R` when `0 ≤ R < c` — each an obligation before it is used. Without these the
/// solver meets `(x div c)·K` against the reader's `Q·K` and gives up.
fn split_digits(ch: &Chain, target: &Term, value: &Term) -> Vec<(Term, Term)> {
    let [link] = ch.links.as_slice() else {
        return vec![];
    };
    if link.pair.is_some() || link.coef.terms != Poly::constant(1).terms {
        return vec![];
    }
    let Some(e) = Poly::of(&target.sub(&ch.offset)) else {
        return vec![];
    };
    let mut out = vec![];
    let mut seen = std::collections::BTreeSet::new();
    visit(value, &mut |t: &Term| {
        let Some((op @ (Op::Div | Op::Mod), [x, c])) = t.as_app() else {
            return;
        };
        let Some(cv) = c.as_int().filter(|&v| v > 0) else {
            return;
        };
        if *x != link.x || !seen.insert(t.smt()) {
            return;
        }
        let (mut q, mut r) = (Poly::constant(0), Poly::constant(0));
        for (m, &k) in &e.terms {
            let mut one = Poly {
                atoms: e.atoms.clone(),
                ..Poly::default()
            };
            if k % cv == 0 {
                one.terms.insert(m.clone(), k / cv);
                q = q.add(&one).unwrap_or_default();
            } else {
                one.terms.insert(m.clone(), k);
                r = r.add(&one).unwrap_or_default();
            }
        }
        let split = if op == Op::Div { q } else { r };
        out.push((t.clone(), split.to_term()));
    });
    out
}

/// The constant part of an address.
fn offset(addr: &Term) -> Option<i128> {
    let p = Poly::of(addr)?;
    Some(p.terms.get(&vec![]).copied().unwrap_or(0))
}

/// The writer whose address's constant offset is the greatest not past the read's, when the
/// writers' offsets differ.
fn nearest_below<'a>(writers: &[&'a SharedEv], read: &Term) -> Option<&'a SharedEv> {
    let at = offset(read)?;
    let mut offsets: Vec<(i128, &SharedEv)> = writers
        .iter()
        .map(|w| offset(&w.addr).map(|o| (o, *w)))
        .collect::<Option<_>>()?;
    offsets.sort_by_key(|(o, _)| *o);
    if offsets.windows(2).any(|p| p[0].0 == p[1].0) {
        return None;
    }
    offsets
        .into_iter()
        .rev()
        .find(|(o, _)| *o <= at)
        .map(|(_, w)| w)
}

/// Calls `f` on every subterm of `t` (shared subterms once per occurrence).
fn visit(t: &Term, f: &mut dyn FnMut(&Term)) {
    f(t);
    for c in t.children().iter() {
        visit(c, f);
    }
}

/// Is `n` a symbol of one thread's execution (its thread ids, iterations, trip counts,
/// accumulators, shared reads)? Block ids are shared by the block.
fn per_thread(ev: &Events, n: &str) -> bool {
    n.starts_with("tid_") || ev.iter_syms.contains(n)
}

impl Builder<'_> {
    /// The obligations of barrier-phased shared-memory staging, and the definitions of the
    /// shared reads' values (kept for the value obligations).
    pub(crate) fn staged(&mut self) -> Result<(), String> {
        if self.events.shared.is_empty() && self.events.barriers.is_empty() {
            return Ok(());
        }
        self.uniform_barriers();
        self.shared_bounds();
        self.shared_races();
        self.staged_reads()
    }

    /// Facts of a second thread of the same block, renamed by `ren`.
    fn other_in_block(&self, ren: &dyn Fn(&str) -> Option<String>) -> Vec<Term> {
        let mut p: Vec<Term> = self
            .launch
            .thread_facts()
            .iter()
            .map(|f| f.rename(ren))
            .collect();
        p.extend(self.events.defs.iter().map(|d| d.rename(ren)));
        p
    }

    /// `threadIdx` differs between the thread and its renamed copy.
    fn tid_differs(&self, ren: &dyn Fn(&str) -> Option<String>) -> Term {
        let l = self.launch;
        Term::or_all((0..l.dims).map(|d| l.tid[d].eq(&l.tid[d].rename(ren)).not()))
    }

    fn uniform_barriers(&mut self) {
        let ev = self.events;
        let keep = |n: &str| !per_thread(ev, n) || ev.counters.contains(n);
        let ren = renamer("_u".into(), keep);
        let mut pending = vec![];
        for b in &self.events.barriers {
            let mut premises = self.premises(&[]);
            premises.extend(self.other_in_block(&ren));
            let what = format!(
                "every thread of a block reaches the barrier ({}) at the same iterations, or none does",
                self.line(b.span)
            );
            pending.push((what, premises, b.guard.eq(&b.guard.rename(&ren))));
        }
        for (what, premises, goal) in pending {
            self.push("divergence", "smt", what, premises, goal);
        }
    }

    fn shared_bounds(&mut self) {
        let shared = self.events.shared.clone();
        for s in &shared {
            let what = format!(
                "the {} of shared `{}` ({}) is within its extents",
                if s.value.is_some() { "write" } else { "read" },
                self.shared_name(s),
                self.line(s.span)
            );
            let premises = self.premises(std::slice::from_ref(&s.guard));
            self.push("bounds", "smt", what, premises, s.in_bounds.clone());
        }
    }

    fn shared_name(&self, s: &SharedEv) -> &str {
        &self.kernel.shared[s.arr.0 as usize].name
    }

    fn shared_races(&mut self) {
        let ev = self.events;
        let ren = renamer("_c".into(), |n| !per_thread(ev, n));
        let shared = self.events.shared.clone();
        for (i, a) in shared.iter().enumerate() {
            for b in shared.iter().skip(i).filter(|b| b.arr == a.arr) {
                if a.value.is_none() && b.value.is_none() {
                    continue;
                }
                let mut premises = self.premises(&[a.guard.clone(), b.guard.rename(&ren)]);
                premises.extend(self.other_in_block(&ren));
                premises.push(self.tid_differs(&ren));
                premises.push(a.phase.eq(&b.phase.rename(&ren)));
                let what = format!(
                    "shared `{}`: two threads of a block never access one element between the same barriers ({}, {})",
                    self.shared_name(a),
                    self.line(a.span),
                    self.line(b.span)
                );
                let goal = a.addr.eq(&b.addr.rename(&ren)).not();
                self.push("race", "smt", what, premises, goal);
            }
        }
    }

    fn staged_reads(&mut self) -> Result<(), String> {
        let shared = self.events.shared.clone();
        for (j, l) in shared.iter().enumerate() {
            let Some(sym) = &l.sym else { continue };
            let name = self.shared_name(l).to_string();
            let writers: Vec<&SharedEv> = shared
                .iter()
                .filter(|s| s.arr == l.arr && s.value.is_some())
                .collect();
            let merged;
            // The witness's statement, and per statement writing the array, when the witness
            // write is that statement's (the virtual iteration of merged statements).
            let (w, members): (&SharedEv, Vec<(*const SharedEv, Term)>) = match writers.as_slice() {
                [w] => (*w, vec![(*w as *const SharedEv, Term::tt())]),
                [] => return Err(format!("shared `{name}` is read but never written")),
                _ => match merge(&writers, format!("vs{j}_w")) {
                    Ok(m) => {
                        merged = m;
                        let m = merged
                            .members
                            .iter()
                            .map(|(p, i)| (*p, merged.counter.eq(&Term::int(*i))))
                            .collect();
                        (&merged.ev, m)
                    }
                    Err(e) => {
                        // Statements writing disjoint parts of the array (two tiles in one
                        // `extern __shared__` buffer): the one at the greatest offset not past
                        // the read's. The obligations below check the choice.
                        let w = nearest_below(&writers, &l.addr).ok_or_else(|| {
                            format!(
                                "shared `{name}` is written by several statements that do not read as one loop: {e}"
                            )
                        })?;
                        (w, vec![(w as *const SharedEv, Term::tt())])
                    }
                },
            };
            let common = l
                .loops
                .iter()
                .zip(&w.loops)
                .take_while(|(x, y)| x.0 == y.0)
                .count();
            let fixed: Vec<String> = w.loops[..common].iter().map(|(_, t)| t.smt()).collect();
            let ev = self.events;
            let keep = |n: &str| !per_thread(ev, n) || fixed.iter().any(|f| f == n);
            let ren_w = renamer(format!("_w{j}"), keep);
            let mut coords: Vec<(Term, usize)> = (0..self.launch.dims)
                .map(|d| (self.launch.tid[d].rename(&ren_w), d))
                .collect();
            coords.extend(
                w.loops[common..]
                    .iter()
                    .map(|(_, t)| (t.rename(&ren_w), usize::MAX)),
            );
            let ch = chain_over(self.launch, &w.addr.rename(&ren_w), &coords).map_err(|e| {
                format!(
                    "the writer of shared `{name}` ({}) is not read off the address: {e}",
                    self.line(w.span)
                )
            })?;
            let (radices, base, mut digits) = decompose(&ch, &l.addr);
            for d in 0..self.launch.dims {
                // A thread id the address does not depend on: the reader's own will do.
                let own = &self.launch.tid[d];
                let w_id = own.rename(&ren_w);
                if !ch.links.iter().any(|k| k.x.mentions(&w_id.smt())) {
                    digits.push(w_id.eq(own));
                }
            }
            let read = self.premises(std::slice::from_ref(&l.guard));
            let at = format!("the read of shared `{name}` ({})", self.line(l.span));
            // The read is within the array's extents (its own obligation): a bound on the
            // most significant digit may rest on it.
            let mut in_bounds = read.clone();
            in_bounds.push(l.in_bounds.clone());
            for r in &radices {
                let what = format!("{at}: the writer's radix holds: {}", r.smt());
                self.push("staging", "smt", what, in_bounds.clone(), r.clone());
            }
            let what = format!("{at}: the element is at or past the writer's offset");
            self.push("staging", "smt", what, read.clone(), Term::int(0).le(&base));

            let mut witness = digits;
            witness.extend(self.events.defs.iter().map(|d| d.rename(&ren_w)));
            let w_phase = w.phase.rename(&ren_w);
            let ranges: Vec<Term> = self
                .launch
                .thread_ranges()
                .iter()
                .map(|f| f.rename(&ren_w))
                .collect();
            let mut premises = read.clone();
            premises.extend(witness.iter().cloned());
            let goal = Term::and_all(ranges.iter().cloned())
                .and(&w.guard.rename(&ren_w))
                .and(&w_phase.lt(&l.phase));
            let what = format!(
                "{at}: a thread of the block writes the element ({}) before an earlier barrier",
                self.line(w.span)
            );
            self.push("staging", "smt", what, premises, goal);

            let ren_x = renamer(format!("_x{j}"), |n| !per_thread(ev, n));
            for w2 in &writers {
                let x_phase = w2.phase.rename(&ren_x);
                let mut premises = read.clone();
                premises.extend(witness.iter().cloned());
                premises.extend(self.other_in_block(&ren_x));
                premises.push(w2.guard.rename(&ren_x));
                premises.push(w2.addr.rename(&ren_x).eq(&l.addr));
                premises.push(w_phase.le(&x_phase));
                premises.push(x_phase.le(&l.phase));
                let l_ = self.launch;
                let tid_x = |d: usize| l_.tid[d].rename(&ren_x);
                let differs = |other: &dyn Fn(usize) -> Term| {
                    Term::or_all((0..l_.dims).map(|d| tid_x(d).eq(&other(d)).not()))
                };
                let by_other_writer = x_phase
                    .eq(&w_phase)
                    .and(&differs(&|d| l_.tid[d].rename(&ren_w)));
                let by_other_reader = x_phase.eq(&l.phase).and(&differs(&|d| l_.tid[d].clone()));
                let itself = match members.iter().find(|(p, _)| std::ptr::eq(*p, *w2)) {
                    Some((_, iteration)) => Term::and_all(
                        (0..l_.dims)
                            .map(|d| tid_x(d).eq(&l_.tid[d].rename(&ren_w)))
                            .chain(
                                w2.loops
                                    .iter()
                                    .map(|(_, t)| t.rename(&ren_x).eq(&t.rename(&ren_w))),
                            ),
                    )
                    .and(iteration),
                    None => Term::bool(false),
                };
                let what = format!(
                    "{at}: no write ({}) to the element falls between the witness's write and the read",
                    self.line(w2.span)
                );
                let goal = by_other_writer.or(&by_other_reader).or(&itself);
                self.push("staging", "smt", what, premises, goal);
            }
            let Some(value) = &w.value else { continue };
            let value = value.rename(&ren_w);
            let mut facts = witness.clone();
            for (atom, split) in split_digits(&ch, &l.addr, &value) {
                let mut premises = read.clone();
                premises.extend(witness.iter().cloned());
                let what = format!("{at}: the writer's {} is {}", atom.smt(), split.smt());
                let fact = atom.eq(&split);
                self.push("staging", "smt", what, premises, fact.clone());
                facts.push(fact);
            }
            self.staged.push(StagedDef {
                sym: sym.clone(),
                guard: l.guard.clone(),
                facts,
                value,
            });
        }
        Ok(())
    }
}
