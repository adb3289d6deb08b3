//! Laurent polynomials over atoms with exponential factors: the carrier of the normal form.
//!
//! A monomial is a product of atoms with integer exponents times `exp(e)` for an interned
//! polynomial `e` (the exponent; id 0 is the zero polynomial, i.e. no exponential factor), so
//! `exp(a)·exp(b) = exp(a + b)` and `exp(0) = 1` hold by construction.

use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Index of an interned atom.
pub type AtomId = u32;
/// Index of an interned polynomial (0 is the zero polynomial, 1 the constant one).
pub type PolyId = u32;
/// Index of an interned quotient.
pub type FracId = u32;

/// `Π atom^k · exp(exp)`, atoms sorted by id, exponents non-zero.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Mono {
    /// Atoms and their (possibly negative) exponents, sorted by atom.
    pub vars: Vars,
    /// The exponent polynomial of the exponential factor (0: none).
    pub exp: PolyId,
}

/// Atoms held in place (no allocation) by a [`Vars`] of few atoms.
const INLINE: usize = 3;

/// The atoms of a monomial with their exponents: a slice (`&vars[..]`) that keeps up to
/// three atoms in place and more on the heap. Most monomials have one to three atoms (a
/// scaled dot product's `scale·q·k` has three), and a polynomial of a hundred monomials would
/// otherwise make a hundred small allocations.
/// Compared, ordered and hashed as its slice.
#[derive(Clone)]
pub struct Vars(Repr);

#[derive(Clone)]
enum Repr {
    Inline(u8, [(AtomId, i32); INLINE]),
    Heap(Vec<(AtomId, i32)>),
}

impl Vars {
    /// No atoms.
    pub const fn new() -> Vars {
        Vars(Repr::Inline(0, [(0, 0); INLINE]))
    }

    /// Room for `n` atoms.
    pub fn with_capacity(n: usize) -> Vars {
        if n <= INLINE {
            Vars::new()
        } else {
            Vars(Repr::Heap(Vec::with_capacity(n)))
        }
    }

    /// Appends `v` (the caller keeps the atoms sorted).
    pub fn push(&mut self, v: (AtomId, i32)) {
        match &mut self.0 {
            Repr::Inline(n, a) if (*n as usize) < INLINE => {
                a[*n as usize] = v;
                *n += 1;
            }
            Repr::Inline(n, a) => {
                let mut h = Vec::with_capacity(*n as usize * 2);
                h.extend_from_slice(&a[..*n as usize]);
                h.push(v);
                self.0 = Repr::Heap(h);
            }
            Repr::Heap(h) => h.push(v),
        }
    }

    /// Appends every element of `s`.
    pub fn extend_from_slice(&mut self, s: &[(AtomId, i32)]) {
        for &v in s {
            self.push(v);
        }
    }
}

impl Default for Vars {
    fn default() -> Vars {
        Vars::new()
    }
}

impl std::ops::Deref for Vars {
    type Target = [(AtomId, i32)];
    fn deref(&self) -> &[(AtomId, i32)] {
        match &self.0 {
            Repr::Inline(n, a) => &a[..*n as usize],
            Repr::Heap(h) => h,
        }
    }
}

impl<'a> IntoIterator for &'a Vars {
    type Item = &'a (AtomId, i32);
    type IntoIter = std::slice::Iter<'a, (AtomId, i32)>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl FromIterator<(AtomId, i32)> for Vars {
    fn from_iter<I: IntoIterator<Item = (AtomId, i32)>>(iter: I) -> Vars {
        let iter = iter.into_iter();
        let mut v = Vars::with_capacity(iter.size_hint().0);
        for x in iter {
            v.push(x);
        }
        v
    }
}

impl From<Vec<(AtomId, i32)>> for Vars {
    fn from(v: Vec<(AtomId, i32)>) -> Vars {
        v.into_iter().collect()
    }
}

impl PartialEq for Vars {
    fn eq(&self, o: &Vars) -> bool {
        **self == **o
    }
}

impl Eq for Vars {}

impl PartialOrd for Vars {
    fn partial_cmp(&self, o: &Vars) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Vars {
    fn cmp(&self, o: &Vars) -> std::cmp::Ordering {
        (**self).cmp(&**o)
    }
}

impl std::hash::Hash for Vars {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (**self).hash(h)
    }
}

impl std::fmt::Debug for Vars {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Mono {
    /// The monomial `1`.
    pub fn unit() -> Mono {
        Mono::default()
    }

    /// True for the monomial `1`.
    pub fn is_unit(&self) -> bool {
        self.vars.is_empty() && self.exp == 0
    }

    /// The product of the atom parts (the exponential part is combined by the caller).
    pub fn mul_vars(a: &[(AtomId, i32)], b: &[(AtomId, i32)]) -> Vars {
        let mut out = Vars::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].0.cmp(&b[j].0) {
                std::cmp::Ordering::Less => {
                    out.push(a[i]);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    out.push(b[j]);
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    let k = a[i].1 + b[j].1;
                    if k != 0 {
                        out.push((a[i].0, k));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend_from_slice(&a[i..]);
        out.extend_from_slice(&b[j..]);
        out
    }
}

/// A polynomial: monomials with non-zero rational coefficients.
pub type Poly = BTreeMap<Mono, BigRational>;

/// `a · b`, skipping the gcd for integers (the common case).
#[inline]
pub fn mul_q(a: &BigRational, b: &BigRational) -> BigRational {
    if a.is_integer() && b.is_integer() {
        BigRational::from_integer(a.numer() * b.numer())
    } else if a.is_one() {
        b.clone()
    } else if b.is_one() {
        a.clone()
    } else {
        a * b
    }
}

/// `a += b`, skipping the gcd for integers.
#[inline]
pub fn add_q(a: &mut BigRational, b: &BigRational) {
    if a.is_integer() && b.is_integer() {
        *a = BigRational::from_integer(a.numer() + b.numer());
    } else {
        *a += b;
    }
}

/// Adds `c · m` to `p`, dropping a coefficient that cancels to zero.
pub fn add_term(p: &mut Poly, m: Mono, c: BigRational) {
    if c.is_zero() {
        return;
    }
    match p.entry(m) {
        std::collections::btree_map::Entry::Vacant(v) => {
            v.insert(c);
        }
        std::collections::btree_map::Entry::Occupied(mut o) => {
            add_q(o.get_mut(), &c);
            if o.get().is_zero() {
                o.remove();
            }
        }
    }
}

/// The polynomial of `terms` in any order: the coefficients of equal monomials added and
/// the zeros dropped, as [`add_term`] one term at a time would give, but sorted once and
/// built in one pass instead of searched for and inserted term by term.
pub fn from_terms(mut terms: Vec<(Mono, BigRational)>) -> Poly {
    terms.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<(Mono, BigRational)> = Vec::with_capacity(terms.len());
    for (m, c) in terms {
        match out.last_mut() {
            Some((last, acc)) if *last == m => add_q(acc, &c),
            _ => {
                if out.last().is_some_and(|(_, c)| c.is_zero()) {
                    out.pop();
                }
                out.push((m, c));
            }
        }
    }
    if out.last().is_some_and(|(_, c)| c.is_zero()) {
        out.pop();
    }
    out.into_iter().collect()
}

/// Adds `scale · q` to `p`.
pub fn add_scaled(p: &mut Poly, q: &Poly, scale: &BigRational) {
    let unit = scale.is_one();
    if unit && p.is_empty() {
        p.clone_from(q);
        return;
    }
    for (m, c) in q {
        add_term(p, m.clone(), if unit { c.clone() } else { mul_q(c, scale) });
    }
}

/// The constant polynomial `c`.
pub fn constant(c: BigRational) -> Poly {
    let mut p = Poly::new();
    add_term(&mut p, Mono::unit(), c);
    p
}

/// The constant value of `p`, if it has no atoms.
pub fn as_constant(p: &Poly) -> Option<BigRational> {
    match p.len() {
        0 => Some(BigRational::zero()),
        1 => p
            .iter()
            .next()
            .filter(|(m, _)| m.is_unit())
            .map(|(_, c)| c.clone()),
        _ => None,
    }
}
