//! Buffers without a declared length (no `len(x)` contract): instead of an out-of-bounds
//! alarm at length 1, the weakest length requirement the kernel's accesses impose, inferred
//! from candidates (parameters, launch extents, the guards of the accesses, the largest index
//! a thread can form) and checked by SMT: a candidate is *sufficient* when no launch makes an
//! access reach it, and the report prints the smallest sufficient ones (`needs len(out) >=
//! gridDim.x * blockDim.x`). With `--strict-bounds` the length stays a free value, as before.

use crate::eval::SVal;
use crate::launch::Launch;
use crate::obligation::{base, no_hazards, query};
use crate::smt::{Answer, SolverPool};
use crate::symexec::{Access, ThreadLog};
use crate::term::{Node, Op, SymKind, Term};
use rayon::prelude::*;
use std::collections::HashMap;
use std::time::Instant;
use warpsafe_ir::{Kernel, MemRef, ParamKind, Span};

mod sample;

/// What the accesses of one undeclared buffer need.
#[derive(Clone, Debug)]
pub enum Need {
    /// `len ≥ len_term` suffices and nothing smaller does (among the candidates).
    Length {
        /// The requirement (`u64`).
        term: Term,
        /// How it reads in the source's terms.
        text: String,
    },
    /// No candidate bounds the accesses (a data-dependent index, say).
    Unbounded {
        /// Why.
        reason: String,
        /// The first access.
        span: Span,
    },
}

/// The longest a product candidate's check may take: past it the candidate is left out
/// (a requirement without it is still proved, only perhaps less tight).
const PRODUCT_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// A length candidate: its value (`u64`) and how it is written.
struct Candidate {
    term: Term,
    text: String,
    /// A product of two parameters (`n * m`): nonlinear, so its check may be slow.
    product: bool,
}

/// How the inference asks the solver: on `pool`, `jobs` queries at a time, and by `until`
/// (its share of the run's budget: a query asked later is `unknown`, which leaves a
/// candidate unproved, never a requirement too small).
#[derive(Clone, Copy)]
pub struct Solving<'a> {
    /// The run's solvers.
    pub pool: &'a SolverPool,
    /// Queries at once.
    pub jobs: usize,
    /// When the inference's share of the budget ends.
    pub until: Option<Instant>,
}

/// Per buffer parameter without a declared length that the kernel accesses: what it needs.
pub fn infer(
    k: &Kernel,
    l: &Launch,
    logs: &[ThreadLog; 2],
    solving: Solving,
) -> Vec<(usize, Need)> {
    let declared: Vec<usize> = k
        .contract
        .lengths
        .iter()
        .map(|s| s.param.0 as usize)
        .collect();
    let names = display_names(k, l);
    let mut out = vec![];
    for (p, param) in k.params.iter().enumerate() {
        if !matches!(param.kind, ParamKind::Buffer { .. }) || declared.contains(&p) {
            continue;
        }
        let accesses: Vec<&Access> = logs[0]
            .accesses
            .iter()
            .filter(|a| a.mem == MemRef::Global(warpsafe_ir::ParamId(p as u32)))
            .filter(|a| a.pc.as_bool() != Some(false))
            .collect();
        let Some(first) = accesses.first() else {
            continue;
        };
        let cands = candidates(k, l, &accesses, &names);
        let need =
            decide(k, l, logs, solving, &accesses, cands).unwrap_or_else(|| Need::Unbounded {
                reason: format!(
                    "no length requirement of `{}` in terms of the parameters and the launch \
                     bounds its accesses (declare one with `//@ len({}) = …`)",
                    param.name, param.name
                ),
                span: first.span,
            });
        out.push((p, need));
    }
    out
}

/// The smallest sufficient candidates, combined with `min` when incomparable.
fn decide(
    k: &Kernel,
    l: &Launch,
    logs: &[ThreadLog; 2],
    solving: Solving,
    accesses: &[&Access],
    cands: Vec<Candidate>,
) -> Option<Need> {
    let Solving { pool, jobs, until } = solving;
    let small = l.small(k);
    let run = |work: &(dyn Fn() -> Vec<bool> + Sync)| match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
    {
        Ok(tp) => tp.install(work),
        Err(_) => work(),
    };
    // `Ok` when no access reaches the candidate; else the largest index a launch the solver
    // found reaches, when it tells one.
    let probe = |c: &Candidate| -> Result<(), Option<u128>> {
        let mut asserts = base(l, logs, 1);
        let core: Vec<&Term> = accesses.iter().flat_map(|a| [&a.pc, &a.flat]).collect();
        asserts.extend(no_hazards(logs, 1, &core));
        let reaching: Vec<Term> = accesses
            .iter()
            .map(|a| Term::and_all([a.pc.clone(), a.nonneg.clone(), c.term.ule(&a.flat)]))
            .collect();
        asserts.push(Term::or_all(reaching.iter().cloned()));
        let mut q = query(format!("{}_len", k.name), asserts, &small);
        q.watch = accesses
            .iter()
            .zip(&reaching)
            .map(|(a, r)| Term::ite(r, &a.flat, &Term::bv(a.flat.width(), 0)))
            .collect();
        let answer = if c.product {
            pool.check_for(&q, PRODUCT_LIMIT, until)
        } else {
            pool.check_until(&q, until)
        };
        match answer {
            Answer::Unsat => Ok(()),
            Answer::Sat(values) => Err(values.into_iter().flatten().max()),
            Answer::Unknown(_) => Err(None),
        }
    };
    let sufficient = |c: &Candidate| probe(c).is_ok();
    // Candidates some sampled launch reaches are not sufficient: no query for them.
    let samples = sample::launches(l, 24);
    let cands: Vec<Candidate> = cands
        .into_iter()
        .filter(|c| !samples.iter().any(|s| s.reaches(accesses, &c.term)))
        .collect();
    // `a ≤ b` in every launch: no sample refutes it and the solver proves it.
    let at_most_in_every_launch = |a: &Candidate, b: &Candidate| {
        let refuted = samples
            .iter()
            .any(|s| matches!((s.value(&a.term), s.value(&b.term)), (Some(x), Some(y)) if x > y));
        if refuted {
            return false;
        }
        let mut asserts = l.assumptions.clone();
        asserts.push(b.term.ult(&a.term));
        let q = query(format!("{}_len_order", k.name), asserts, &small);
        matches!(pool.check_until(&q, until), Answer::Unsat)
    };
    // Products of parameters are checked after the rest, and not at all when an earlier
    // sufficient candidate is at most them in every launch: such a product is never one of
    // the minimal candidates chosen below, sufficient or not (and its nonlinear check is the
    // slow one).
    let plain: Vec<bool> = run(&|| {
        cands
            .par_iter()
            .map(|c| !c.product && sufficient(c))
            .collect()
    });
    let ok: Vec<bool> = run(&|| {
        (0..cands.len())
            .into_par_iter()
            .map(|j| {
                let b = &cands[j];
                if !b.product {
                    return plain[j];
                }
                let dominated = (0..j).any(|i| plain[i] && at_most_in_every_launch(&cands[i], b));
                !dominated && sufficient(b)
            })
            .collect()
    });
    let good: Vec<&Candidate> = cands
        .iter()
        .zip(ok)
        .filter(|(_, s)| *s)
        .map(|(c, _)| c)
        .collect();
    if good.is_empty() {
        return None;
    }
    // At a launch fixed by the header every candidate is a number, and the one sufficient may
    // be a type's bound (2^31, from a loop counter's guard) far above the largest index: the
    // least sufficient number, by bisection below it, is the requirement.
    let tightest = good
        .iter()
        .all(|c| c.term.as_bv().is_some())
        .then(|| good.iter().filter_map(|c| c.term.as_bv()).min())
        .flatten()
        .map(|hi| {
            let reached = samples.iter().filter_map(|s| s.largest_reached(accesses));
            least_sufficient(reached.max().unwrap_or(0), hi, &|n| probe(&number(n)))
        });
    let tight_candidate;
    let good: Vec<&Candidate> = match tightest {
        Some(n) if good.iter().all(|c| c.term.as_bv() != Some(n)) => {
            tight_candidate = number(n);
            vec![&tight_candidate]
        }
        _ => good,
    };
    // `le[i][j]`: candidate i is at most candidate j in every launch.
    let pairs: Vec<(usize, usize)> = (0..good.len())
        .flat_map(|i| {
            (0..good.len())
                .filter(move |&j| j != i)
                .map(move |j| (i, j))
        })
        .collect();
    let at_most = |&(i, j): &(usize, usize)| at_most_in_every_launch(good[i], good[j]);
    let le_list = run(&|| pairs.par_iter().map(&at_most).collect());
    let le: HashMap<(usize, usize), bool> = pairs.into_iter().zip(le_list).collect();
    let leq = |i: usize, j: usize| i == j || le.get(&(i, j)).copied().unwrap_or(false);
    // Minimal elements, the first of each class of equal candidates.
    let minimal: Vec<usize> = (0..good.len())
        .filter(|&i| (0..good.len()).all(|j| !(leq(j, i) && (!leq(i, j) || j < i))))
        .collect();
    let mut chosen = minimal.iter().map(|&i| good[i]);
    let first = chosen.next()?;
    let (mut term, mut parts) = (first.term.clone(), vec![first.text.clone()]);
    for c in chosen {
        term = Term::ite(&c.term.ult(&term), &c.term, &term);
        parts.push(c.text.clone());
    }
    let text = if parts.len() == 1 {
        parts.remove(0)
    } else {
        format!("min({})", parts.join(", "))
    };
    Some(Need::Length { term, text })
}

/// The length `n` as a candidate.
fn number(n: u128) -> Candidate {
    Candidate {
        product: false,
        term: Term::bv(64, n),
        text: n.to_string(),
    }
}

/// The least `n` in `lo + 1..=hi` that `probe` finds sufficient (`Ok`), given that `hi` is,
/// that no `n ≤ lo` is (a sampled launch reaches index `lo`), and that every number above a
/// sufficient one is sufficient too. `lo + 1` is tried first: the largest sampled index is
/// often the largest of all. An insufficient probe may tell an index a launch reaches
/// (`Err(Some(x))`, `x ≥ n`): no length up to `x` suffices, so the bisection jumps above it.
fn least_sufficient(lo: u128, hi: u128, probe: &dyn Fn(u128) -> Result<(), Option<u128>>) -> u128 {
    let mut hi = hi;
    let mut lo = lo.min(hi.saturating_sub(1));
    let mut first = true;
    // Invariant: `lo` is not sufficient (or 0), `hi` is.
    while hi - lo > 1 {
        let mid = if first { lo + 1 } else { lo + (hi - lo) / 2 };
        first = false;
        match probe(mid) {
            Ok(()) => hi = mid,
            Err(reached) => lo = reached.map_or(mid, |x| x.clamp(mid, hi - 1)),
        }
    }
    hi
}

/// Source names of the launch-wide symbols.
fn display_names(k: &Kernel, l: &Launch) -> HashMap<String, String> {
    let mut names = HashMap::new();
    let comps = ["x", "y", "z"];
    for (d, c) in comps.iter().enumerate() {
        for (t, prefix) in [(&l.bdim[d], "blockDim"), (&l.gdim[d], "gridDim")] {
            for s in t.free_syms() {
                if let Some(sym) = s.as_sym() {
                    names.insert(sym.name.clone(), format!("{prefix}.{c}"));
                }
            }
        }
    }
    for (i, p) in k.params.iter().enumerate() {
        if let Some(t) = l.params.get(i).and_then(SVal::term) {
            if let Some(sym) = t.as_sym() {
                names.insert(sym.name.clone(), p.name.clone());
            }
        }
    }
    names
}

/// The value of `t` as a `u64` length (a negative signed value counts as 0).
fn as_len(t: &Term, signed: bool) -> Term {
    let x = t.ext_to(64, signed);
    if signed {
        Term::ite(&t.slt(&Term::bv(t.width(), 0)), &Term::bv(64, 0), &x)
    } else {
        x
    }
}

fn candidates(
    k: &Kernel,
    l: &Launch,
    accesses: &[&Access],
    names: &HashMap<String, String>,
) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = vec![];
    let mut push = |term: Term, text: Option<String>, product: bool| {
        if let Some(text) = text {
            if !out.iter().any(|c| c.term.same(&term)) {
                out.push(Candidate {
                    term,
                    text,
                    product,
                });
            }
        }
    };
    let show_t = |t: &Term| show(t, names).map(|(s, _)| s);
    // Integer scalar parameters, and their pairwise products (a matrix of n * n).
    let params: Vec<(Term, String)> = k
        .params
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match (&p.kind, l.params.get(i)) {
            (ParamKind::Scalar(ty), Some(SVal::Int { t, .. })) if ty.is_int() => {
                Some((as_len(t, ty.is_signed()), p.name.clone()))
            }
            _ => None,
        })
        .collect();
    for (t, n) in &params {
        push(t.clone(), Some(n.clone()), false);
    }
    // Launch extents: threads along x, and in the dimensions the kernel reads.
    let dims = k.launch_dims_read();
    let ext = |d: usize| l.bdim[d].zext_to(64).mul(&l.gdim[d].zext_to(64));
    let ext_text = |d: usize| {
        let c = ["x", "y", "z"][d];
        Some(format!("gridDim.{c} * blockDim.{c}"))
    };
    push(ext(0), ext_text(0), false);
    if dims == 2 {
        push(
            ext(0).mul(&ext(1)),
            Some("gridDim.x * blockDim.x * gridDim.y * blockDim.y".into()),
            false,
        );
    }
    push(l.bdim[0].zext_to(64), show_t(&l.bdim[0]), false);
    push(l.gdim[0].zext_to(64), show_t(&l.gdim[0]), false);
    for (i, (a, na)) in params.iter().enumerate() {
        for (b, nb) in &params[i..] {
            push(a.mul(b), Some(format!("{na} * {nb}")), true);
        }
    }
    // Bounds from the accesses' guards, and the largest index a thread forms.
    for a in accesses {
        let mut bounds = vec![];
        guard_bounds(&a.pc, &mut bounds);
        for (b, len, inclusive) in bounds {
            let t = if inclusive {
                len.add(&Term::bv(64, 1))
            } else {
                len
            };
            let text = show_t(&b).map(|s| if inclusive { format!("{s} + 1") } else { s });
            push(t, text, false);
        }
        let th = &l.threads[0];
        let top = a.flat.subst(&|s| {
            let which = |ids: &[Term; 3], lim: &[Term; 3]| {
                ids.iter().zip(lim).find_map(|(id, lim)| {
                    let sym = id.free_syms().into_iter().next()?;
                    (sym.as_sym()?.name == s.name).then(|| {
                        let w = s.sort.width();
                        lim.sub(&Term::bv(32, 1))
                            .zext_to(w.max(32))
                            .extract(w - 1, 0)
                    })
                })
            };
            which(&th.tid, &l.bdim).or_else(|| which(&th.bid, &l.gdim))
        });
        if only_launch(&top) {
            let t = top.add(&Term::bv(64, 1));
            push(t.clone(), show_t(&t), false);
        }
    }
    out
}

/// True when `t` depends on launch-wide values only.
fn only_launch(t: &Term) -> bool {
    t.free_syms()
        .iter()
        .all(|s| s.as_sym().is_some_and(|x| x.kind == SymKind::Shared))
}

/// Upper bounds `x < B` (or `x ≤ B`, flagged) that the path condition `pc` states, with `B`
/// launch-wide, as `u64` lengths.
fn guard_bounds(pc: &Term, out: &mut Vec<(Term, Term, bool)>) {
    match &*pc.0 {
        Node::App(Op::And, xs, _) => xs.iter().for_each(|x| guard_bounds(x, out)),
        Node::App(op @ (Op::Ult | Op::Slt | Op::Ule | Op::Sle), xs, _)
            if xs.len() == 2 && only_launch(&xs[1]) && !only_launch(&xs[0]) =>
        {
            let len = as_len(&xs[1], matches!(op, Op::Slt | Op::Sle));
            out.push((xs[1].clone(), len, matches!(op, Op::Ule | Op::Sle)));
        }
        _ => {}
    }
}

/// `t` in the source's terms, with its precedence (1 sums, 2 products, 3 atoms); `None` for
/// anything but arithmetic over named launch values and constants.
fn show(t: &Term, names: &HashMap<String, String>) -> Option<(String, u8)> {
    match &*t.0 {
        Node::Bv(_, v) => Some((v.to_string(), 3)),
        Node::Sym(s) => names.get(&s.name).map(|n| (n.clone(), 3)),
        Node::App(Op::Zext(_) | Op::Sext(_) | Op::Extract(_, 0), a, _) => show(&a[0], names),
        Node::App(op @ (Op::Add | Op::Sub | Op::Mul | Op::Udiv | Op::Urem), a, _) => {
            let (prec, sym) = match op {
                Op::Add => (1, "+"),
                Op::Sub => (1, "-"),
                Op::Mul => (2, "*"),
                Op::Udiv => (2, "/"),
                _ => (2, "%"),
            };
            let (x, px) = show(&a[0], names)?;
            let (y, py) = show(&a[1], names)?;
            let x = if px < prec { format!("({x})") } else { x };
            let y = if py < prec || (py == prec && *op != Op::Add && *op != Op::Mul) {
                format!("({y})")
            } else {
                y
            };
            Some((format!("{x} {sym} {y}"), prec))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::least_sufficient;
    use std::cell::Cell;

    /// The least sufficient length is found from any true floor, with and without the
    /// solver telling reached indices, and the floor's successor costs one probe.
    #[test]
    fn least_sufficient_finds_the_threshold() {
        for threshold in [1u128, 2, 7, 1000, 4_259_840] {
            for floor in [0, threshold / 2, threshold - 1] {
                for tells in [false, true] {
                    let probes = Cell::new(0);
                    let probe = |n: u128| {
                        probes.set(probes.get() + 1);
                        if n >= threshold {
                            Ok(())
                        } else {
                            Err(tells.then_some((n + threshold) / 2))
                        }
                    };
                    let got = least_sufficient(floor, 1 << 31, &probe);
                    assert_eq!(got, threshold, "floor {floor}, tells {tells}");
                    if floor + 1 == threshold {
                        assert_eq!(probes.get(), 1);
                    }
                }
            }
        }
    }
}
