//! Hashed monomials: every exponent vector lives once in a [`MonoTable`] and is named by a `u32`.
//!
//! The hash is linear in the exponents (`h(a*b) = h(a) + h(b)`), so products and quotients are
//! hashed without looking at the vector; a 32-bit divisibility mask filters divisor tests.

use crate::order::{cmp_exps, Order};
use std::cmp::Ordering;

/// A monomial: an index into a [`MonoTable`].
pub(crate) type Mon = u32;

const EMPTY: u32 = u32::MAX;

/// Arena and hash table of exponent vectors (16-bit exponents, 32-bit total degree).
pub(crate) struct MonoTable {
    n: usize,
    order: Order,
    exps: Vec<u16>,
    deg: Vec<u32>,
    hash: Vec<u64>,
    mask: Vec<u32>,
    rnd: Vec<u64>,
    /// Open addressing: (monomial, low 32 bits of its hash), `EMPTY` when free.
    slots: Vec<(u32, u32)>,
    scratch: Vec<u16>,
    /// (variable, threshold) for each bit of the divisibility mask.
    mask_bits: Vec<(usize, u16)>,
    /// Set when a product exceeded the exponent range; callers turn it into an error.
    pub(crate) overflow: bool,
}

impl MonoTable {
    /// An empty table for `n` variables compared in `order`.
    pub(crate) fn new(n: usize, order: Order) -> MonoTable {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let rnd = (0..n)
            .map(|_| {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            })
            .collect();
        let mut mask_bits = Vec::new();
        if let Some(per) = 32usize.checked_div(n) {
            let per = per.max(1);
            for v in 0..n.min(32) {
                for k in 0..per {
                    mask_bits.push((v, 1u16 << k.min(15)));
                }
            }
        }
        MonoTable {
            n,
            order,
            exps: Vec::new(),
            deg: Vec::new(),
            hash: Vec::new(),
            mask: Vec::new(),
            rnd,
            slots: vec![(EMPTY, 0); 1 << 12],
            scratch: vec![0; n],
            mask_bits,
            overflow: false,
        }
    }

    /// Number of variables.
    pub(crate) fn nvars(&self) -> usize {
        self.n
    }

    /// The monomial order.
    pub(crate) fn order(&self) -> Order {
        self.order
    }

    /// Number of distinct monomials stored.
    pub(crate) fn len(&self) -> usize {
        self.deg.len()
    }

    /// Exponent vector of `m`.
    #[inline]
    pub(crate) fn exps(&self, m: Mon) -> &[u16] {
        let s = m as usize * self.n;
        &self.exps[s..s + self.n]
    }

    /// Total degree of `m`.
    #[inline]
    pub(crate) fn deg(&self, m: Mon) -> u32 {
        self.deg[m as usize]
    }

    /// Divisibility mask of `m`.
    #[inline]
    pub(crate) fn mask(&self, m: Mon) -> u32 {
        self.mask[m as usize]
    }

    /// Interns an exponent vector.
    pub(crate) fn intern(&mut self, e: &[u16]) -> Mon {
        self.scratch.copy_from_slice(e);
        let h = self.hash_of_scratch();
        self.find_or_insert(h)
    }

    /// The monomial 1.
    pub(crate) fn one(&mut self) -> Mon {
        let zero = vec![0u16; self.n];
        self.intern(&zero)
    }

    fn hash_of_scratch(&self) -> u64 {
        self.scratch
            .iter()
            .zip(&self.rnd)
            .fold(0u64, |h, (&e, &r)| {
                h.wrapping_add(r.wrapping_mul(u64::from(e)))
            })
    }

    #[inline]
    fn slot_of(&self, h: u64) -> usize {
        ((h ^ (h >> 32)) as usize) & (self.slots.len() - 1)
    }

    /// Looks up `self.scratch` (whose hash is `h`), inserting it when absent.
    fn find_or_insert(&mut self, h: u64) -> Mon {
        let mask = self.slots.len() - 1;
        let mut i = self.slot_of(h);
        loop {
            let (id, hl) = self.slots[i];
            if id == EMPTY {
                break;
            }
            if hl == h as u32 && self.hash[id as usize] == h && self.exps(id) == &self.scratch[..] {
                return id;
            }
            i = (i + 1) & mask;
        }
        let id = self.deg.len() as Mon;
        self.exps.extend_from_slice(&self.scratch);
        self.deg
            .push(self.scratch.iter().map(|&e| u32::from(e)).sum());
        let mut mk = 0u32;
        for (bit, &(v, t)) in self.mask_bits.iter().enumerate() {
            if self.scratch[v] >= t {
                mk |= 1 << bit;
            }
        }
        self.mask.push(mk);
        self.hash.push(h);
        self.slots[i] = (id, h as u32);
        if self.deg.len() * 2 > self.slots.len() {
            self.grow();
        }
        id
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        self.slots = vec![(EMPTY, 0); size];
        for id in 0..self.deg.len() {
            let mut i = self.slot_of(self.hash[id]);
            while self.slots[i].0 != EMPTY {
                i = (i + 1) & (size - 1);
            }
            self.slots[i] = (id as u32, self.hash[id] as u32);
        }
    }

    /// The product `a * b`.
    #[inline]
    pub(crate) fn mul(&mut self, a: Mon, b: Mon) -> Mon {
        let n = self.n;
        let (sa, sb) = (a as usize * n, b as usize * n);
        let mut big = 0u32;
        for k in 0..n {
            let s = u32::from(self.exps[sa + k]) + u32::from(self.exps[sb + k]);
            big |= s;
            self.scratch[k] = s as u16;
        }
        if big > u32::from(u16::MAX) {
            self.overflow = true;
        }
        let h = self.hash[a as usize].wrapping_add(self.hash[b as usize]);
        self.find_or_insert(h)
    }

    /// The quotient `a / b`; `b` must divide `a`.
    pub(crate) fn div(&mut self, a: Mon, b: Mon) -> Mon {
        let n = self.n;
        let (sa, sb) = (a as usize * n, b as usize * n);
        for k in 0..n {
            self.scratch[k] = self.exps[sa + k] - self.exps[sb + k];
        }
        let h = self.hash[a as usize].wrapping_sub(self.hash[b as usize]);
        self.find_or_insert(h)
    }

    /// The least common multiple.
    pub(crate) fn lcm(&mut self, a: Mon, b: Mon) -> Mon {
        let n = self.n;
        let (sa, sb) = (a as usize * n, b as usize * n);
        for k in 0..n {
            self.scratch[k] = self.exps[sa + k].max(self.exps[sb + k]);
        }
        let h = self.hash_of_scratch();
        self.find_or_insert(h)
    }

    /// Whether `a` divides `b`.
    #[inline]
    pub(crate) fn divides(&self, a: Mon, b: Mon) -> bool {
        if self.mask[a as usize] & !self.mask[b as usize] != 0 {
            return false;
        }
        self.exps(a).iter().zip(self.exps(b)).all(|(x, y)| x <= y)
    }

    /// Whether `a` and `b` share no variable.
    pub(crate) fn coprime(&self, a: Mon, b: Mon) -> bool {
        self.exps(a)
            .iter()
            .zip(self.exps(b))
            .all(|(&x, &y)| x == 0 || y == 0)
    }

    /// Whether `lcm(a, b) == c`, without interning the lcm.
    pub(crate) fn lcm_is(&self, a: Mon, b: Mon, c: Mon) -> bool {
        let (ea, eb, ec) = (self.exps(a), self.exps(b), self.exps(c));
        (0..self.n).all(|k| ea[k].max(eb[k]) == ec[k])
    }

    /// Compares two monomials in the table's order.
    #[inline]
    pub(crate) fn cmp(&self, a: Mon, b: Mon) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        cmp_exps(
            self.order,
            self.exps(a),
            self.deg(a),
            self.exps(b),
            self.deg(b),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashing_products_and_division() {
        let mut t = MonoTable::new(3, Order::Grevlex);
        let a = t.intern(&[1, 2, 0]);
        let b = t.intern(&[0, 1, 3]);
        let ab = t.mul(a, b);
        assert_eq!(t.exps(ab), &[1, 3, 3]);
        assert_eq!(t.intern(&[1, 3, 3]), ab);
        assert_eq!(t.div(ab, b), a);
        assert!(t.divides(a, ab) && !t.divides(ab, a));
        let l = t.lcm(a, b);
        assert_eq!(t.exps(l), &[1, 2, 3]);
        assert!(t.lcm_is(a, b, l));
        for i in 0..5000u16 {
            t.intern(&[i % 7, i / 7, i % 3]);
        }
        assert_eq!(t.intern(&[1, 2, 0]), a);
        assert_eq!(t.cmp(ab, a), Ordering::Greater);
    }
}
