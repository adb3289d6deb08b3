//! Several staging stores of one shared array read as one. Real kernels unroll a vector load
//! by hand: `As[(4·c + 0)·S + r] = A[a + 0]; … As[(4·c + 3)·S + r] = A[a + 3];`. Statements
//! that differ only by `j·d` in their address and `j·e` in the addresses their values read, for
//! `j = 0 … n−1`, under one guard, in one phase and one loop nest, are the iterations of one
//! virtual loop `u ∈ [0, n)`: address `addr₀ + u·d`, value `v₀` reading at `a₀ + u·e`. The
//! witness writer of a read is then found in that loop like in any other.

use crate::congruence::matches;
use crate::encode::SharedEv;
use crate::exec::StoreEv;
use crate::poly::Poly;
use crate::term::{sym, uf, Sort, Term};
use warpsafe_terms::Node;

/// The merged writer and, per original statement, its iteration `j` of the virtual loop.
pub(crate) struct Merged {
    /// The statements as one event over the virtual counter.
    pub ev: SharedEv,
    /// The virtual loop's counter (a symbol of the witness).
    pub counter: Term,
    /// Each original statement's iteration.
    pub members: Vec<(*const SharedEv, i128)>,
}

/// Merges `writers` (at least two) into one virtual loop over `counter_name`, or says why not.
pub(crate) fn merge(writers: &[&SharedEv], counter_name: String) -> Result<Merged, String> {
    let first = writers.first().ok_or("no writer")?;
    let same_context = writers
        .iter()
        .all(|w| w.guard == first.guard && w.loops == first.loops && w.phase == first.phase);
    if !same_context {
        return Err("its stores differ in guard, loop or phase".into());
    }
    let addrs: Vec<&Term> = writers.iter().map(|w| &w.addr).collect();
    let (perm, stride) = evenly_spaced(&addrs)?;
    let order: Vec<&SharedEv> = perm.iter().map(|&i| writers[i]).collect();
    let base = order[0];
    let values: Vec<&Term> = order
        .iter()
        .map(|w| w.value.as_ref().ok_or("a store without a value"))
        .collect::<Result<_, _>>()?;
    let constant = |a: &Term, b: &Term| Poly::of(&b.sub(a)).and_then(|p| p.to_term().as_int());
    let first_args = int_args(values[0]);
    let second_args = int_args(values[1]);
    let strides: Vec<i128> = (first_args.len() == second_args.len())
        .then(|| {
            first_args
                .iter()
                .zip(&second_args)
                .map(|(a, b)| constant(a, b))
                .collect::<Option<_>>()
        })
        .flatten()
        .ok_or("its stored values differ by more than constant address shifts")?;
    for (j, v) in values.iter().enumerate() {
        let shifts = strides.iter().map(|e| Term::int(j as i128 * e));
        let shifted = shift_reads(values[0], &mut shifts.into_iter());
        let mut pairs = vec![];
        let same = shifted.is_some_and(|t| matches(&t, v, &mut pairs))
            && pairs.iter().all(|(a, b)| constant(a, b) == Some(0));
        if !same {
            return Err("its stored values are not evenly spaced reads".into());
        }
    }
    let u = sym(counter_name, Sort::Int);
    let n = order.len() as i128;
    let mut shifts = strides.iter().map(|e| u.mul(&Term::int(*e)));
    let value = shift_reads(values[0], &mut shifts).ok_or("cannot rebuild the stored value")?;
    let mut ev = base.clone();
    ev.addr = base.addr.add(&u.mul(&Term::int(stride)));
    ev.value = Some(value);
    ev.guard = ev.guard.and(&Term::int(0).le(&u)).and(&u.lt(&Term::int(n)));
    ev.loops.push((usize::MAX, u.clone()));
    let members = order
        .iter()
        .enumerate()
        .map(|(j, w)| (*w as *const SharedEv, j as i128))
        .collect();
    Ok(Merged {
        ev,
        counter: u,
        members,
    })
}

/// The order (by address) of stores whose addresses are `a₀ + j·d` for `j = 0 … n−1`, `d > 0`,
/// and `d`; or why they are not.
fn evenly_spaced(addrs: &[&Term]) -> Result<(Vec<usize>, i128), String> {
    let first = addrs.first().ok_or("no store")?;
    let mut order: Vec<(i128, usize)> = addrs
        .iter()
        .enumerate()
        .map(|(i, a)| {
            Poly::of(&a.sub(first))
                .and_then(|p| p.to_term().as_int())
                .map(|c| (c, i))
                .ok_or("its stores' addresses differ by more than a constant")
        })
        .collect::<Result<_, _>>()?;
    order.sort_by_key(|(c, _)| *c);
    let stride = order.get(1).map_or(0, |o| o.0 - order[0].0);
    let evenly = stride > 0
        && order
            .iter()
            .enumerate()
            .all(|(j, (c, _))| *c - order[0].0 == j as i128 * stride);
    if !evenly {
        return Err("its stores' addresses are not evenly spaced".into());
    }
    Ok((order.into_iter().map(|(_, i)| i).collect(), stride))
}

/// Global stores of one buffer that are the iterations of one virtual loop over `counter`
/// (evenly spaced addresses, one guard and loop nest): the event coverage reads its witness
/// from. Only the address, guard and loops are merged; each store's value is proved on its own.
pub(crate) fn merge_stores(stores: &[&StoreEv], counter: Term) -> Result<StoreEv, String> {
    let first = stores.first().ok_or("no store")?;
    if !stores
        .iter()
        .all(|s| s.guard == first.guard && s.loops == first.loops)
    {
        return Err("its stores differ in guard or loop".into());
    }
    let addrs: Vec<&Term> = stores.iter().map(|s| &s.addr).collect();
    let (perm, stride) = evenly_spaced(&addrs)?;
    let base = stores[perm[0]];
    let n = stores.len() as i128;
    let mut ev = base.clone();
    ev.addr = base.addr.add(&counter.mul(&Term::int(stride)));
    ev.guard = ev
        .guard
        .and(&Term::int(0).le(&counter))
        .and(&counter.lt(&Term::int(n)));
    ev.loops.push((usize::MAX, counter));
    Ok(ev)
}

/// The integer arguments of `v`'s function applications, outermost first, left to right.
fn int_args(v: &Term) -> Vec<Term> {
    fn walk(t: &Term, out: &mut Vec<Term>) {
        let call = matches!(t.node(), Node::Call(..));
        for x in t.children() {
            if call && x.sort() == Sort::Int {
                out.push(x.clone());
            } else {
                walk(x, out);
            }
        }
    }
    let mut out = vec![];
    walk(v, &mut out);
    out
}

/// `v` with the integer arguments of its function applications (in [`int_args`]'s order)
/// shifted by the next of `shifts`.
fn shift_reads(v: &Term, shifts: &mut dyn Iterator<Item = Term>) -> Option<Term> {
    match v.node() {
        Node::Call(f, xs) => {
            let mut args = vec![];
            for x in xs {
                args.push(if x.sort() == Sort::Int {
                    x.add(&shifts.next()?)
                } else {
                    shift_reads(x, shifts)?
                });
            }
            Some(uf(f.name.clone(), args, f.sort, f.range))
        }
        Node::App(op, xs, _) => {
            let args: Vec<Term> = xs
                .iter()
                .map(|x| shift_reads(x, shifts))
                .collect::<Option<_>>()?;
            Term::app(*op, &args)
        }
        _ => Some(v.clone()),
    }
}
