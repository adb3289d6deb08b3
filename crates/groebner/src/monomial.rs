//! Hashed monomials: every exponent vector lives once in a [`MonoTable`] and is named by a `u32`.
//!
//! The hash is linear in the exponents (`h(a*b) = h(a) + h(b)`), so products and quotients are
//! hashed without looking at the vector; a 32-bit divisibility mask filters divisor tests.
//! Exponent vectors are stored as `u64` words of four 16-bit lanes, so a product is formed and
//! compared with a candidate a word at a time.

use crate::order::{cmp_exps, Order};
use std::cmp::Ordering;

/// Whether adding the words `x` and `y` carries out of none of their 16-bit lanes.
#[inline(always)]
fn no_lane_carry(x: u64, y: u64) -> bool {
    let s = x.wrapping_add(y);
    ((x & y) | ((x | y) & !s)) & 0x8000_8000_8000_8000 == 0
}

/// A monomial: an index into a [`MonoTable`].
pub(crate) type Mon = u32;

const EMPTY: u32 = u32::MAX;

/// Arena and hash table of exponent vectors (16-bit exponents, 32-bit total degree).
pub(crate) struct MonoTable {
    n: usize,
    /// Words per exponent vector: `n` lanes, padded with zero lanes to a multiple of four.
    words: usize,
    order: Order,
    /// The exponent vectors, `words` words each.
    exps: Vec<u64>,
    deg: Vec<u32>,
    hash: Vec<u64>,
    mask: Vec<u32>,
    rnd: Vec<u64>,
    /// Open addressing: (monomial, low 32 bits of its hash), `EMPTY` when free.
    slots: Vec<(u32, u32)>,
    scratch: Vec<u16>,
    /// `scratch` packed into words.
    packed: Vec<u64>,
    /// Scratch of [`MonoTable::mul_row`].
    first: Vec<Mon>,
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
        let words = n.div_ceil(4);
        MonoTable {
            n,
            words,
            order,
            exps: Vec::new(),
            deg: Vec::new(),
            hash: Vec::new(),
            mask: Vec::new(),
            rnd,
            slots: vec![(EMPTY, 0); 1 << 12],
            scratch: vec![0; n],
            packed: vec![0; words],
            first: Vec::new(),
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
        let s = m as usize * self.words;
        let w = &self.exps[s..s + self.words];
        // SAFETY: `w` is `4 * words >= n` initialized 16-bit lanes: `u64` has no padding and
        // an alignment that suits `u16`, and the lanes live as long as `w`.
        let lanes = unsafe { std::slice::from_raw_parts(w.as_ptr().cast::<u16>(), 4 * w.len()) };
        &lanes[..self.n]
    }

    /// Packs `self.scratch` into `self.packed` (lanes in memory order, as [`MonoTable::exps`]
    /// reads them back).
    fn pack_scratch(&mut self) {
        for (k, w) in self.packed.iter_mut().enumerate() {
            let mut b = [0u8; 8];
            for j in 0..4 {
                let e = self.scratch.get(4 * k + j).copied().unwrap_or(0);
                b[2 * j..2 * j + 2].copy_from_slice(&e.to_ne_bytes());
            }
            *w = u64::from_ne_bytes(b);
        }
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

    /// The divisibility mask an exponent vector would have in the table.
    pub(crate) fn mask_of(&self, e: &[u16]) -> u32 {
        let mut mk = 0u32;
        for (bit, &(v, t)) in self.mask_bits.iter().enumerate() {
            if e[v] >= t {
                mk |= 1 << bit;
            }
        }
        mk
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
        self.pack_scratch();
        self.find_or_insert_packed(h)
    }

    /// Looks up `self.packed` (whose hash is `h`), inserting it when absent.
    #[inline]
    fn find_or_insert_packed(&mut self, h: u64) -> Mon {
        let mask = self.slots.len() - 1;
        let w = self.words;
        let mut i = self.slot_of(h);
        loop {
            let (id, hl) = self.slots[i];
            if id == EMPTY {
                break;
            }
            if hl == h as u32 {
                let s = id as usize * w;
                if self.exps[s..s + w]
                    .iter()
                    .zip(&self.packed)
                    .all(|(a, b)| a == b)
                {
                    return id;
                }
            }
            i = (i + 1) & mask;
        }
        self.insert_at(i, h)
    }

    /// Inserts `self.packed` (whose hash is `h`) at the free slot `i`.
    fn insert_at(&mut self, i: usize, h: u64) -> Mon {
        let id = self.deg.len() as Mon;
        self.exps.extend_from_slice(&self.packed);
        let e = self.exps(id);
        let deg = e.iter().map(|&x| u32::from(x)).sum();
        let mk = self.mask_of(e);
        self.deg.push(deg);
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

    /// The product `a * b`, formed a word at a time (lanes cannot carry into each other
    /// unless an exponent overflows, which is detected).
    #[inline(always)]
    pub(crate) fn mul(&mut self, a: Mon, b: Mon) -> Mon {
        let w = self.words;
        let (sa, sb) = (a as usize * w, b as usize * w);
        let (ea, eb) = (&self.exps[sa..sa + w], &self.exps[sb..sb + w]);
        let mut carry = 0u64;
        for ((p, &x), &y) in self.packed.iter_mut().zip(ea).zip(eb) {
            let s = x.wrapping_add(y);
            // Bit 15 of each lane: the carry out of that lane.
            carry |= (x & y) | ((x | y) & !s);
            *p = s;
        }
        if carry & 0x8000_8000_8000_8000 != 0 {
            self.overflow = true;
        }
        let h = self.hash[a as usize].wrapping_add(self.hash[b as usize]);
        self.find_or_insert_packed(h)
    }

    /// Appends `u * t` for every `t` of `ts` to `out`. The first probe of every product is
    /// loaded in a pass of its own, so the cache misses of the lookups overlap; products not
    /// found there go through [`MonoTable::mul`].
    pub(crate) fn mul_row(&mut self, u: Mon, ts: &[Mon], out: &mut Vec<Mon>) {
        let hu = self.hash[u as usize];
        let mut first = std::mem::take(&mut self.first);
        first.clear();
        first.extend(ts.iter().map(|&t| {
            let h = hu.wrapping_add(self.hash[t as usize]);
            let (id, hl) = self.slots[self.slot_of(h)];
            if id != EMPTY && hl == h as u32 {
                id
            } else {
                EMPTY
            }
        }));
        let w = self.words;
        let su = u as usize * w;
        for (&t, &id) in ts.iter().zip(&first) {
            if id != EMPTY {
                let (st, sc) = (t as usize * w, id as usize * w);
                let (eu, et, ec) = (
                    &self.exps[su..su + w],
                    &self.exps[st..st + w],
                    &self.exps[sc..sc + w],
                );
                // Equal words mean equal lanes without carries, as `ec` has none.
                if ec
                    .iter()
                    .zip(eu.iter().zip(et))
                    .all(|(&c, (&x, &y))| x.checked_add(y) == Some(c) && no_lane_carry(x, y))
                {
                    out.push(id);
                    continue;
                }
            }
            out.push(self.mul(u, t));
        }
        self.first = first;
    }

    /// The quotient `a / b`; `b` must divide `a`.
    pub(crate) fn div(&mut self, a: Mon, b: Mon) -> Mon {
        let w = self.words;
        let (sa, sb) = (a as usize * w, b as usize * w);
        for k in 0..w {
            // No lane borrows: every exponent of `b` is at most that of `a`.
            self.packed[k] = self.exps[sa + k] - self.exps[sb + k];
        }
        let h = self.hash[a as usize].wrapping_sub(self.hash[b as usize]);
        self.find_or_insert_packed(h)
    }

    /// The least common multiple.
    pub(crate) fn lcm(&mut self, a: Mon, b: Mon) -> Mon {
        for k in 0..self.n {
            self.scratch[k] = self.exps(a)[k].max(self.exps(b)[k]);
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
