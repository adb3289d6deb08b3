//! Concrete launches that rule candidates out before any solver call: a candidate length
//! that some valid launch's access reaches is not sufficient, and a candidate larger than
//! another at some valid launch is not the smaller one. Only refutations are drawn from
//! samples; what survives is still proved by the solver.

use crate::eval::SVal;
use crate::launch::Launch;
use crate::replay::Rng;
use crate::symexec::Access;
use crate::term::{Sym, SymKind, Term};
use std::collections::HashMap;

/// A valid launch: a value for every launch-wide symbol and the first thread's ids.
pub struct Sample(HashMap<String, u128>);

impl Sample {
    /// `t` at this launch, when it depends on nothing else.
    pub fn value(&self, t: &Term) -> Option<u128> {
        t.subst(&|s: &Sym| {
            self.0
                .get(&s.name)
                .and_then(|v| Term::from_bits(s.sort, *v))
        })
        .as_bv()
    }

    /// The truth of `t` at this launch, when it depends on nothing else.
    pub fn truth(&self, t: &Term) -> Option<bool> {
        t.subst(&|s: &Sym| {
            self.0
                .get(&s.name)
                .and_then(|v| Term::from_bits(s.sort, *v))
        })
        .as_bool()
    }

    /// The largest index an access reaches at this launch.
    pub fn largest_reached(&self, accesses: &[&Access]) -> Option<u128> {
        accesses
            .iter()
            .filter(|a| self.truth(&a.pc) == Some(true) && self.truth(&a.nonneg) == Some(true))
            .filter_map(|a| self.value(&a.flat))
            .max()
    }

    /// True when some access reaches index `len` or beyond at this launch.
    pub fn reaches(&self, accesses: &[&Access], len: &Term) -> bool {
        let Some(n) = self.value(len) else {
            return false;
        };
        accesses.iter().any(|a| {
            self.truth(&a.pc) == Some(true)
                && self.truth(&a.nonneg) == Some(true)
                && self.value(&a.flat).is_some_and(|i| i >= n)
        })
    }
}

/// One of `xs`, drawn from `rng`.
fn pick(rng: &mut Rng, xs: &[u128]) -> u128 {
    xs[(rng.next() % xs.len() as u64) as usize]
}

/// Up to `n` launches that satisfy the launch assumptions free of buffer lengths, with the
/// first thread at the last or a random place of its block and grid.
pub fn launches(l: &Launch, n: usize) -> Vec<Sample> {
    let dims: [u128; 6] = [1, 2, 3, 32, 64, 256];
    // The largest values let guards such as `i < n` pass for every thread of a fixed grid,
    // so that the last thread shows the largest index.
    let values: [u128; 12] = [
        0,
        1,
        2,
        3,
        7,
        31,
        64,
        100,
        1000,
        4096,
        0x7fff_ffff,
        0x7fff_ffff_ffff_ffff,
    ];
    let mut rng = Rng(0x243f_6a88_85a3_08d3);
    let syms = |ts: &[Term]| -> Vec<(String, u32)> {
        ts.iter()
            .flat_map(|t| t.free_syms())
            .filter_map(|s| s.as_sym().map(|x| (x.name.clone(), x.sort.width())))
            .collect()
    };
    let launch_dims = syms(&[l.bdim.clone(), l.gdim.clone()].concat());
    let params: Vec<(String, u32)> = l
        .params
        .iter()
        .filter_map(SVal::term)
        .filter_map(|t| t.as_sym().map(|x| (x.name.clone(), x.sort.width())))
        .collect();
    let checkable: Vec<&Term> = l
        .assumptions
        .iter()
        .filter(|a| {
            a.free_syms().iter().all(|s| {
                s.as_sym()
                    .is_some_and(|x| x.kind == SymKind::Shared && !x.name.starts_with("len"))
            })
        })
        .collect();
    // Parameters the launch fixes (`w == 1024`) take that value, in every sample.
    let mut pinned = vec![];
    for a in &l.assumptions {
        crate::launch::fixed_symbols(a, &mut pinned);
    }
    let t1 = &l.threads[0];
    let mut out = vec![];
    for _ in 0..n * 4 {
        if out.len() >= n {
            break;
        }
        let mut m: HashMap<String, u128> = HashMap::new();
        for (name, _) in &launch_dims {
            m.insert(name.clone(), pick(&mut rng, &dims));
        }
        for (name, w) in &params {
            let v = pick(&mut rng, &values);
            m.insert(
                name.clone(),
                if *w >= 128 { v } else { v & ((1u128 << w) - 1) },
            );
        }
        m.extend(pinned.iter().cloned());
        let s = Sample(m);
        if !checkable.iter().all(|a| s.truth(a) == Some(true)) {
            continue;
        }
        let mut m = s.0;
        let last = rng.next().is_multiple_of(2);
        for (ids, lims) in [(&t1.tid, &l.bdim), (&t1.bid, &l.gdim)] {
            for (id, lim) in ids.iter().zip(lims) {
                let Some(lim) = Sample(m.clone()).value(lim) else {
                    continue;
                };
                for sym in id.free_syms() {
                    if let Some(x) = sym.as_sym() {
                        let v = if last || lim == 0 {
                            lim.saturating_sub(1)
                        } else {
                            rng.next() as u128 % lim
                        };
                        m.insert(x.name.clone(), v);
                    }
                }
            }
        }
        out.push(Sample(m));
    }
    out
}
