//! Coverage: every element of a spec's domain is written by some thread. The witness thread is
//! read off the store's address by mixed-radix decomposition: the address must be
//! `offset + Σ c_m · x_m` over coordinates `x_m` (thread ids, block ids, loop iterations, or
//! `blockIdx·blockDim + threadIdx` pairs) whose coefficients form a chain `c_1 = 1`,
//! `c_{m+1} = c_m · B_m`. For every target `a ≥ offset` and radices `B_m ≥ 1` there is exactly
//! one `x` with `a = offset + Σ c_m x_m` and `0 ≤ x_m < B_m` (the last unbounded) — the division
//! theorem — so coverage reduces to a quantifier-free query: that `x` is a real thread at a
//! real iteration, and the store's condition holds there.

use crate::exec::StoreEv;
use crate::launch::Launch;
use crate::poly::Poly;
use crate::term::{Op, Sort, Term};

/// A store's address as a mixed-radix number: `offset + Σ coef_m · x_m`, each coefficient the
/// previous one times the radix.
#[derive(Debug)]
pub struct Chain {
    /// The part without coordinates.
    pub offset: Term,
    /// Coordinates from the least significant.
    pub links: Vec<Link>,
    /// A bound `target − offset` must stay below: where the most significant digit is a
    /// `tid mod c` (no radix above it), below `c` only for targets under `c ·` its coefficient.
    pub limit: Option<Term>,
}

/// One digit of a [`Chain`].
#[derive(Debug)]
pub struct Link {
    /// The coordinate in the thread's symbols (`blockIdx·blockDim + threadIdx` for a pair).
    pub x: Term,
    /// Its coefficient.
    pub coef: Poly,
    /// `coef_{m+1} / coef_m` (none for the most significant digit).
    pub radix: Option<Term>,
    /// When the radix is `P div k` (a symbolic coefficient over a constant one): that it is
    /// exact, `k · radix = P`, which must be proved before the chain is used.
    pub exact: Option<Term>,
    /// The thread-id dimensions it determines (both ids for a pair; `threadIdx` or `blockIdx`
    /// alone determines half of one, reported as `d` and `d + 3`).
    pub ids: Vec<usize>,
    /// For a pair: (blockIdx, threadIdx, blockDim) of its dimension.
    pub pair: Option<(Term, Term, Term)>,
}

impl Chain {
    /// True when the digits determine the thread: every used dimension's ids appear.
    pub fn determines_thread(&self, launch: &Launch) -> bool {
        let one = Term::int(1);
        (0..launch.dims).all(|d| {
            let has = |i: usize| self.links.iter().any(|l| l.ids.contains(&i));
            (has(d) || launch.bdim[d] == one) && (has(d + 3) || launch.gdim[d] == one)
        })
    }

    /// The digits of `addr` in this chain's radices (most significant last), if `addr − offset`
    /// splits by the coefficients.
    pub fn digits(&self, addr: &Term) -> Option<Vec<Term>> {
        let mut rest = Poly::of(&crate::poly::flatten_divmod(addr).sub(&self.offset))?;
        let mut out = vec![];
        for l in self.links.iter().rev() {
            let (q, r) = rest.divmod_monomial(&l.coef)?;
            out.push(q.to_term());
            rest = r;
        }
        if !rest.terms.is_empty() {
            return None;
        }
        out.reverse();
        Some(out)
    }
}

/// The mixed-radix form of `store`'s address, or why it has none.
pub fn chain(launch: &Launch, store: &StoreEv) -> Result<Chain, String> {
    let mut names: Vec<(Term, usize)> = vec![];
    for d in 0..launch.dims {
        names.push((launch.tid[d].clone(), d));
        names.push((launch.bid[d].clone(), d + 3));
    }
    names.extend(store.loops.iter().map(|(_, t)| (t.clone(), usize::MAX)));
    chain_over(launch, &store.addr, &names)
}

/// The id of a [`Part`] coordinate (it determines no thread id alone).
const PART: usize = usize::MAX - 1;

/// A coordinate that is a digit of a thread id `x`: `(x mod hi) div lo` (`x div lo` without
/// `hi`, `x mod hi` when `lo = 1`), `lo` dividing `hi` — a thread index split into a row and a
/// column, or into warp and lane and each of those again.
struct Part {
    /// Index of the atom in the coordinate list.
    at: usize,
    /// The dimension of the thread id.
    dim: usize,
    /// The digit's place value.
    lo: i128,
    /// The modulus above it (none for the most significant digit).
    hi: Option<i128>,
}

impl Part {
    /// The digit's range where `hi` bounds it.
    fn bounded_range(&self) -> Option<i128> {
        self.hi.map(|h| h / self.lo)
    }
}

/// `(x, lo, hi)` when `atom` is `x div lo`, `x mod hi` or `(x mod hi) div lo` with positive
/// constants, `lo` dividing `hi`.
fn digit_of(atom: &Term) -> Option<(&Term, i128, Option<i128>)> {
    let positive = |c: &Term| c.as_int().filter(|&c| c > 0);
    match atom.as_app()? {
        (Op::Mod, [x, c]) => Some((x, 1, Some(positive(c)?))),
        (Op::Div, [inner, b]) => {
            let b = positive(b)?;
            match inner.as_app() {
                Some((Op::Mod, [x, a])) => {
                    let a = positive(a)?;
                    (a % b == 0).then_some((x, b, Some(a)))
                }
                _ => Some((inner, b, None)),
            }
        }
        _ => None,
    }
}

/// The mixed-radix form of `addr` over the coordinates `names` (each with the thread-id
/// dimension it determines: `d` for `threadIdx`, `d + 3` for `blockIdx`, `usize::MAX` for an
/// iteration), or why it has none. A thread id may also enter as digits (`tid div c`,
/// `tid mod c`, `(tid mod a) div b`: disjoint places, never beside the id itself, nested
/// divisions by constants first put in that form); each is a coordinate whose every digit
/// some thread id realises — a bounded digit is kept within its range — and digits covering
/// every place together determine the id.
pub fn chain_over(launch: &Launch, addr: &Term, names: &[(Term, usize)]) -> Result<Chain, String> {
    let p = Poly::of(&crate::poly::flatten_divmod(addr))
        .ok_or("the address has an overflowing coefficient")?;
    let mut names: Vec<(Term, usize)> = names.to_vec();
    let mut parts: Vec<Part> = vec![];
    for atom in p.atoms.values() {
        let Some((x, lo, hi)) = digit_of(atom) else {
            continue;
        };
        let Some(&(_, dim)) = names.iter().find(|(n, id)| n == x && *id < 3) else {
            continue;
        };
        parts.push(Part {
            at: names.len(),
            dim,
            lo,
            hi,
        });
        names.push((atom.clone(), PART));
    }
    let mut rest = p;
    let mut coefs: Vec<(Term, usize, Poly, usize)> = vec![];
    for (at, (x, id)) in names.iter().enumerate() {
        let key = x.smt();
        let (coef, r) = rest
            .split(&key)
            .ok_or("a coordinate occurs squared in the address")?;
        if names.iter().any(|(n, _)| coef.contains(&n.smt())) {
            return Err("the address multiplies two coordinates".into());
        }
        if !coef.terms.is_empty() {
            coefs.push((x.clone(), *id, coef, at));
        }
        rest = r;
    }
    let offset = rest.to_term();
    if let Some((x, _)) = names.iter().find(|(x, _)| offset.mentions(&x.smt())) {
        // The digits would not exist for every target: `x` also occurs inside an atom.
        return Err(format!(
            "the address uses {} other than as a multiple (inside a division, a remainder or a function)",
            x.smt()
        ));
    }
    let in_use = |at: usize| coefs.iter().any(|c| c.3 == at);
    let parts: Vec<Part> = parts.into_iter().filter(|q| in_use(q.at)).collect();
    for q in &parts {
        let whole = names.iter().position(|(_, id)| *id == q.dim);
        // Places must not overlap, or the digits could ask for a thread no id is: each
        // modulus must divide every higher place.
        let clash = parts.iter().any(|o| {
            o.at != q.at
                && o.dim == q.dim
                && (o.lo == q.lo || (o.lo > q.lo && q.hi.is_none_or(|h| o.lo % h != 0)))
        });
        if whole.is_some_and(in_use) || clash {
            return Err("the address splits a thread id in more than one way".into());
        }
    }
    let part_of = |at: usize| parts.iter().find(|q| q.at == at);
    // The size of a thread coordinate's range, when the address pairs it with a block id.
    let size = |x: &Term, at: usize| -> Option<Term> {
        match part_of(at) {
            Some(q) => match q.bounded_range() {
                Some(r) => Some(Term::int(r)),
                None => {
                    let b = launch.bdim[q.dim].as_int()?;
                    (b % q.lo == 0).then(|| Term::int(b / q.lo))
                }
            },
            None => (0..launch.dims)
                .find(|&d| launch.tid[d] == *x)
                .map(|d| launch.bdim[d].clone()),
        }
    };
    let mut links: Vec<Link> = vec![];
    let mut used = vec![false; coefs.len()];
    for ti in 0..coefs.len() {
        let (x, _, coef, at) = &coefs[ti];
        let Some(s) = size(x, *at) else { continue };
        let bids: Vec<usize> = match part_of(*at) {
            Some(_) => (0..launch.dims).collect(),
            None => (0..launch.dims).filter(|&d| launch.tid[d] == *x).collect(),
        };
        let sp = Poly::of(&s).ok_or("bad blockDim")?;
        let bi = (0..coefs.len()).find(|&bi| {
            !used[bi]
                && bids.iter().any(|&e| coefs[bi].0 == launch.bid[e])
                && coef.mul(&sp).as_ref() == Some(&coefs[bi].2)
        });
        let Some(bi) = bi else { continue };
        let bid = coefs[bi].0.clone();
        let e = (0..launch.dims)
            .find(|&e| launch.bid[e] == bid)
            .unwrap_or(0);
        // A part determines its thread id only beside the other part (`settle_parts`).
        let d = part_of(*at).map_or(coefs[ti].1, |_| PART);
        links.push(Link {
            x: bid.mul(&s).add(x),
            coef: coef.clone(),
            radix: None,
            exact: None,
            ids: vec![d, e + 3],
            pair: Some((bid, x.clone(), s)),
        });
        used[ti] = true;
        used[bi] = true;
    }
    for (i, (x, id, c, _)) in coefs.into_iter().enumerate() {
        if !used[i] {
            links.push(Link {
                x,
                coef: c,
                radix: None,
                exact: None,
                ids: vec![id],
                pair: None,
            });
        }
    }
    let mut links = order(links)?;
    for i in 0..links.len().saturating_sub(1) {
        let next = &links[i + 1].coef;
        match next.div_exact(&links[i].coef) {
            Some(b) => links[i].radix = Some(b.to_term()),
            None => {
                let k = constant_of(&links[i].coef)
                    .ok_or("the address's coefficients do not form a mixed-radix chain")?;
                let p = next.to_term();
                let b = p.div(&Term::int(k));
                links[i].exact = Some(Term::int(k).mul(&b).eq(&p));
                links[i].radix = Some(b);
            }
        }
    }
    let limit = settle_parts(&mut links, &parts, &names)?;
    Ok(Chain {
        offset,
        links,
        limit,
    })
}

/// Checks that every bounded digit of a thread id (`tid mod c`, `(tid mod a) div b`) stays in
/// its range (else no thread realises it) — for the most significant digit, the
/// [`Chain::limit`] it returns — and marks a thread id as determined where its digits cover
/// every place.
fn settle_parts(
    links: &mut [Link],
    parts: &[Part],
    names: &[(Term, usize)],
) -> Result<Option<Term>, String> {
    let mut limit = None;
    let link_of = |q: &Part| {
        let atom = &names[q.at].0;
        links
            .iter()
            .position(|l| l.x == *atom || l.pair.as_ref().is_some_and(|(_, u, _)| u == atom))
    };
    for q in parts {
        let (Some(r), Some(i)) = (q.bounded_range(), link_of(q)) else {
            continue;
        };
        let top = constant_of(&links[i].coef).filter(|_| i + 1 == links.len());
        if let (None, None, Some(k)) = (&links[i].pair, &links[i].radix, top) {
            limit = Some(Term::int(r.saturating_mul(k)));
        } else if links[i].pair.is_none() {
            let fits = links[i]
                .radix
                .as_ref()
                .and_then(|x| x.as_int())
                .is_some_and(|x| x <= r);
            if !fits {
                return Err(format!(
                    "a thread-id digit of range {r} is a digit of the address with a larger range"
                ));
            }
        }
    }
    let mut whole = vec![];
    let mut dims: Vec<usize> = parts.iter().map(|q| q.dim).collect();
    dims.sort_unstable();
    dims.dedup();
    for d in dims {
        let mut mine: Vec<&Part> = parts.iter().filter(|q| q.dim == d).collect();
        mine.sort_by_key(|q| q.lo);
        let covers = mine.first().is_some_and(|q| q.lo == 1)
            && mine.last().is_some_and(|q| q.hi.is_none())
            && mine.windows(2).all(|w| w[0].hi == Some(w[1].lo));
        let at: Option<Vec<usize>> = mine.iter().map(|q| link_of(q)).collect();
        if let (true, Some(at)) = (covers, at) {
            whole.push((at, d));
        }
    }
    for (at, d) in whole {
        for &k in &at {
            links[k].ids.retain(|&x| x != PART);
        }
        links[at[0]].ids.push(d);
    }
    Ok(limit)
}

/// The quantifier-free obligations that show one store covers a target address.
#[derive(Debug)]
pub struct Witness {
    /// What the radices must satisfy: at least 1, and exact where symbolic.
    pub radices: Vec<Term>,
    /// The target minus the offset, which must be non-negative.
    pub base: Term,
    /// Constraints that define the witness coordinates (premises of `goal`).
    pub defs: Vec<Term>,
    /// What must hold of the witness: it is a thread of the launch, and the store happens.
    pub goal: Term,
}

/// Builds the witness for `target` (an element index) and `store`, or says why there is none.
pub fn witness(launch: &Launch, store: &StoreEv, target: &Term) -> Result<Witness, String> {
    let ch = chain(launch, store)?;
    let (radices, base, mut defs) = decompose(&ch, target);
    for id in launch.tid.iter().chain(&launch.bid) {
        // An id the address does not depend on: the witness takes 0, always in range.
        if id.as_int().is_none() && !ch.links.iter().any(|l| l.x.mentions(&id.smt())) {
            defs.push(id.eq(&Term::int(0)));
        }
    }
    let goal = Term::and_all(launch.thread_ranges()).and(&store.guard);
    Ok(Witness {
        radices,
        base,
        defs,
        goal,
    })
}

/// The digits of `target` in `ch`: what the radices must satisfy (at least 1, exact), the
/// part above the offset that must be non-negative, and the constraints that make the chain's
/// coordinates those digits (a pair coordinate gets a fresh symbol `cov_gI` for its global
/// index).
pub fn decompose(ch: &Chain, target: &Term) -> (Vec<Term>, Term, Vec<Term>) {
    let mut defs = vec![];
    let mut radices = vec![];
    let mut sum = Term::int(0);
    for (i, l) in ch.links.iter().enumerate() {
        let x = match &l.pair {
            Some((bid, tid, bd)) => {
                let g = crate::term::sym(format!("cov_g{i}"), Sort::Int);
                defs.push(g.eq(&bid.mul(bd).add(tid)));
                defs.push(Term::int(0).le(tid).and(&tid.lt(bd)));
                defs.push(Term::int(0).le(bid));
                g
            }
            None => l.x.clone(),
        };
        sum = sum.add(&l.coef.to_term().mul(&x));
        defs.push(Term::int(0).le(&x));
        if let Some(b) = &l.radix {
            defs.push(x.lt(b));
            let mut fact = Term::int(1).le(b);
            if let Some(e) = &l.exact {
                fact = fact.and(e);
            }
            radices.push(fact);
        }
    }
    let base = target.sub(&ch.offset);
    defs.push(base.eq(&sum));
    if let Some(limit) = &ch.limit {
        radices.push(base.lt(limit));
    }
    (radices, base, defs)
}

/// The value of a constant polynomial.
fn constant_of(p: &Poly) -> Option<i128> {
    match p.terms.len() {
        0 => Some(0),
        1 => p.terms.get(&vec![]).copied(),
        _ => None,
    }
    .filter(|&k| k > 0)
}

/// Orders links so that each coefficient divides the next, starting at 1. After a constant
/// coefficient `k` may come a symbolic one that every remaining coefficient is a multiple of
/// (`N` after `4`): its radix `N div k` must then be shown exact ([`Link::exact`]).
fn order(mut coords: Vec<Link>) -> Result<Vec<Link>, String> {
    let one = Poly::constant(1);
    let Some(first) = coords.iter().position(|c| c.coef.terms == one.terms) else {
        return Err("no coordinate steps the address by 1".into());
    };
    let mut out = vec![coords.remove(first)];
    // `a` is a multiple of `b`: exactly, or `b` a constant and `a` symbolic (then the radix's
    // exactness is an obligation).
    let multiple = |a: &Poly, b: &Poly| {
        a.div_exact(b).is_some() || (constant_of(b).is_some() && constant_of(a).is_none())
    };
    while !coords.is_empty() {
        let cur = &out[out.len() - 1].coef;
        let pick = coords.iter().position(|c| {
            multiple(&c.coef, cur)
                && coords
                    .iter()
                    .all(|o| std::ptr::eq(o, c) || multiple(&o.coef, &c.coef))
        });
        let Some(i) = pick else {
            return Err("the address's coefficients do not form a mixed-radix chain".into());
        };
        out.push(coords.remove(i));
    }
    Ok(out)
}
