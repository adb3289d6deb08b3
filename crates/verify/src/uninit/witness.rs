//! Likely writers of a read cell, as assignments of the quantified second thread's symbols to
//! terms over the reader's: the reader itself (same ids, same iterations of shared loops),
//! and the thread a write's address names when it is a mixed-radix number of the writer's
//! ids and iterations (`tile[ty + 8k][tx]` is written by `tx = col`, `ty = row % 8`,
//! `k = row / 8`). They are only candidates: the query checks them.

use crate::launch::Launch;
use crate::symexec::Access;
use crate::term::{Node, Op, Sym, Term};
use std::collections::HashMap;

/// A value for each quantified symbol (by name).
pub type Assignment = HashMap<String, Term>;

/// Candidate writers of the cell `r` reads, one assignment of `bound` each.
pub fn candidates(
    l: &Launch,
    r: &Access,
    writes: &[(usize, &Access)],
    bound: &[Term],
) -> Vec<Assignment> {
    let reader = reader_syms(l, r);
    let identity: Assignment = bound
        .iter()
        .filter_map(|b| {
            let s = b.as_sym()?;
            let v = reader
                .get(&counterpart(&s.name))
                .cloned()
                .filter(|t| t.sort() == s.sort)
                .or_else(|| Term::from_bits(s.sort, 0))?;
            Some((s.name.clone(), v))
        })
        .collect();
    let mut out = vec![identity.clone()];
    for (_, w) in writes {
        if let Some(a) = mixed_radix(w, r, bound, &identity) {
            out.push(a);
        }
    }
    out
}

/// The first thread's symbols by name: ids, and the symbols of the read's terms.
pub fn reader_syms(l: &Launch, r: &Access) -> HashMap<String, Term> {
    let t1 = &l.threads[0];
    let mut m = HashMap::new();
    let terms = t1
        .tid
        .iter()
        .chain(&t1.bid)
        .chain([&r.pc, &r.flat, &r.epoch])
        .chain(r.iters.iter().map(|(_, k)| k));
    for t in terms {
        for s in t.free_syms() {
            if let Some(x) = s.as_sym() {
                m.insert(x.name.clone(), s.clone());
            }
        }
    }
    m
}

/// The first thread's name for a second-thread symbol: both threads create their symbols in
/// the same order, named `prefix` + thread + suffix (`tid2_x` ↔ `tid1_x`, `k2_7` ↔ `k1_7`).
pub fn counterpart(name: &str) -> String {
    match name.find(|c: char| c.is_ascii_digit()) {
        Some(i) if name[i..].starts_with('2') => format!("{}1{}", &name[..i], &name[i + 1..]),
        _ => name.to_string(),
    }
}

/// Coefficients of the unknowns, by name, with the unknown's symbol.
type Coefficients = HashMap<String, (i128, Term)>;

/// `t` as `Σ cᵢ·uᵢ + rest` over the unknown symbols (coefficients as integers, `rest` a
/// 64-bit term free of unknowns); extensions and truncations are looked through, which is
/// fine for a candidate.
fn linear(t: &Term, unknown: &dyn Fn(&Sym) -> bool) -> Option<(Coefficients, Term)> {
    let free = || {
        t.free_syms()
            .iter()
            .all(|s| s.as_sym().is_none_or(|x| !unknown(x)))
    };
    if free() {
        return Some((HashMap::new(), t.zext_to(64)));
    }
    match &*t.0 {
        Node::Sym(s) => {
            let mut m = HashMap::new();
            m.insert(s.name.clone(), (1, t.clone()));
            Some((m, Term::bv(64, 0)))
        }
        Node::App(Op::Zext(_) | Op::Sext(_) | Op::Extract(_, 0), a, _) => linear(&a[0], unknown),
        Node::App(op @ (Op::Add | Op::Sub), a, _) => {
            let (mut x, rx) = linear(&a[0], unknown)?;
            let (y, ry) = linear(&a[1], unknown)?;
            let sign = if *op == Op::Add { 1 } else { -1 };
            for (n, (c, s)) in y {
                x.entry(n).or_insert((0, s)).0 += sign * c;
            }
            let rest = if *op == Op::Add {
                rx.add(&ry)
            } else {
                rx.sub(&ry)
            };
            Some((x, rest))
        }
        Node::App(op @ (Op::Mul | Op::Shl), a, _) => {
            let (v, c) = match (a[0].as_bv(), a[1].as_bv()) {
                (_, Some(c)) => (&a[0], c),
                (Some(c), None) if *op == Op::Mul => (&a[1], c),
                _ => return None,
            };
            let c = if *op == Op::Shl {
                1u128.checked_shl(c as u32)?
            } else {
                c
            };
            let c = i128::try_from(c).ok()?;
            let (mut x, r) = linear(v, unknown)?;
            for e in x.values_mut() {
                e.0 = e.0.checked_mul(c)?;
            }
            Some((x, r.mul(&Term::bv(64, c as u128))))
        }
        _ => None,
    }
}

/// The writer `w`'s address `a` read as a mixed-radix number of its unknowns (sorted by
/// coefficient, each below the next coefficient divided by its own), solved for the read's
/// address; the other unknowns as in `base`.
fn mixed_radix(w: &Access, r: &Access, bound: &[Term], base: &Assignment) -> Option<Assignment> {
    let names: Vec<&str> = bound
        .iter()
        .filter_map(|b| b.as_sym().map(|s| s.name.as_str()))
        .collect();
    // Blocks are the reader's: substitute them first.
    let same_block = w.flat.subst(&|s| {
        (s.name.starts_with("bid") && names.contains(&s.name.as_str()))
            .then(|| base.get(&s.name).cloned())
            .flatten()
    });
    let (coeffs, rest) = linear(&same_block, &|s| names.contains(&s.name.as_str()))?;
    let mut digits: Vec<(i128, Term, String)> = coeffs
        .into_iter()
        .filter(|(_, (c, _))| *c != 0)
        .map(|(n, (c, s))| (c, s, n))
        .collect();
    if digits.is_empty() || digits.iter().any(|(c, _, _)| *c < 0) {
        return None;
    }
    digits.sort_by_key(|d| d.0);
    let target = r.flat.zext_to(64).sub(&rest);
    let mut a = base.clone();
    for (i, (c, sym, name)) in digits.iter().enumerate() {
        let below = match digits.get(i + 1) {
            Some((next, _, _)) => target.urem(&Term::bv(64, *next as u128)),
            None => target.clone(),
        };
        let digit = below.udiv(&Term::bv(64, *c as u128));
        let w = sym.width();
        let v = if w >= 64 {
            digit.zext_to(w)
        } else {
            digit.extract(w - 1, 0)
        };
        a.insert(name.clone(), v);
    }
    Some(a)
}
