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
    pub vars: Vec<(AtomId, i32)>,
    /// The exponent polynomial of the exponential factor (0: none).
    pub exp: PolyId,
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
    pub fn mul_vars(a: &[(AtomId, i32)], b: &[(AtomId, i32)]) -> Vec<(AtomId, i32)> {
        let mut out = Vec::with_capacity(a.len() + b.len());
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

/// Adds `scale · q` to `p`.
pub fn add_scaled(p: &mut Poly, q: &Poly, scale: &BigRational) {
    let unit = scale.is_one();
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
