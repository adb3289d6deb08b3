//! Critical pairs and the Gebauer–Möller installation of a new basis element.

use crate::monomial::{Mon, MonoTable};
use crate::order::Order;
use std::cmp::Ordering;

/// A critical pair of basis elements `i < j` with the lcm of their leading monomials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pair {
    pub(crate) i: u32,
    pub(crate) j: u32,
    pub(crate) lcm: Mon,
    pub(crate) deg: u32,
    /// Sugar degree: the degree the S-polynomial would have with homogenized inputs.
    pub(crate) sugar: u32,
}

/// The pair set together with the leading monomials of the basis and their redundancy flags.
#[derive(Default)]
pub(crate) struct PairSet {
    pub(crate) pairs: Vec<Pair>,
    /// Leading monomial of every basis element, in insertion order.
    pub(crate) lms: Vec<Mon>,
    /// `redundant[g]`: a later element's leading monomial divides `lms[g]`.
    pub(crate) redundant: Vec<bool>,
    /// Sugar degree of every basis element.
    pub(crate) sugar: Vec<u32>,
    /// Pairs that survived the criteria.
    pub(crate) created: usize,
}

/// A candidate pair with a new element; its lcm is kept as an exponent vector (at `off` in a
/// shared buffer) and interned only if the pair survives the criteria.
struct Cand {
    g: u32,
    off: u32,
    /// A hash of the lcm: sorting by it puts equal lcms next to each other.
    key: u64,
    mask: u32,
    deg: u32,
    sugar: u32,
    coprime: bool,
}

impl PairSet {
    /// Installs a new basis element with leading monomial `lm` and sugar degree `sugar`
    /// (Gebauer–Möller update) and returns its index.
    pub(crate) fn add(&mut self, lm: Mon, sugar: u32, table: &mut MonoTable) -> usize {
        let h = self.lms.len();
        // Chain criterion on the old pairs.
        let lms = &self.lms;
        self.pairs.retain(|p| {
            !(table.divides(lm, p.lcm)
                && !table.lcm_is(lms[p.i as usize], lm, p.lcm)
                && !table.lcm_is(lms[p.j as usize], lm, p.lcm))
        });
        // New pairs with every non-redundant element.
        let n = table.nvars();
        let mut exps: Vec<u16> = Vec::with_capacity(h * n);
        let mut cands: Vec<Cand> = Vec::new();
        let dlm = table.deg(lm);
        for g in 0..h {
            if self.redundant[g] {
                continue;
            }
            let off = exps.len();
            let (eg, eh) = (table.exps(self.lms[g]), table.exps(lm));
            exps.extend(eg.iter().zip(eh).map(|(&x, &y)| x.max(y)));
            let e = &exps[off..];
            let deg: u32 = e.iter().map(|&x| u32::from(x)).sum();
            let sg = self.sugar[g] + deg - table.deg(self.lms[g]);
            let sh = sugar + deg - dlm;
            let key = e.iter().fold(0u64, |k, &x| {
                (k ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3)
            });
            cands.push(Cand {
                g: g as u32,
                off: off as u32,
                key,
                mask: table.mask_of(e),
                deg,
                sugar: sg.max(sh),
                coprime: eg.iter().zip(eh).all(|(&x, &y)| x == 0 || y == 0),
            });
        }
        let lcm_of = |c: &Cand| &exps[c.off as usize..c.off as usize + n];
        cands.sort_unstable_by_key(|c| (c.deg, c.key, c.g));
        // Criterion M: drop pairs whose lcm is a proper multiple of another new pair's lcm.
        // Divisibility is transitive, so testing against the survivors suffices.
        let mut minimal: Vec<usize> = Vec::new();
        for (k, c) in cands.iter().enumerate() {
            let dominated = minimal.iter().any(|&q| {
                let d = &cands[q];
                d.deg < c.deg
                    && d.mask & !c.mask == 0
                    && lcm_of(d).iter().zip(lcm_of(c)).all(|(x, y)| x <= y)
            });
            if !dominated {
                minimal.push(k);
            }
        }
        // Criterion F (one pair per lcm; none if one of them is coprime) and the product
        // criterion.
        let mut k = 0;
        while k < minimal.len() {
            let mut e = k + 1;
            while e < minimal.len() && lcm_of(&cands[minimal[e]]) == lcm_of(&cands[minimal[k]]) {
                e += 1;
            }
            if !minimal[k..e].iter().any(|&q| cands[q].coprime) {
                let c = &cands[minimal[k]];
                let lcm = table.intern(lcm_of(c));
                self.pairs.push(Pair {
                    i: c.g,
                    j: h as u32,
                    lcm,
                    deg: c.deg,
                    sugar: c.sugar,
                });
                self.created += 1;
            }
            k = e;
        }
        for g in 0..h {
            if !self.redundant[g] && table.divides(lm, self.lms[g]) {
                self.redundant[g] = true;
            }
        }
        self.lms.push(lm);
        self.redundant.push(false);
        self.sugar.push(sugar);
        h
    }

    /// Indices of the non-redundant basis elements.
    pub(crate) fn active(&self) -> Vec<usize> {
        (0..self.lms.len())
            .filter(|&g| !self.redundant[g])
            .collect()
    }

    /// Removes and returns the pairs of the next F4 step, sorted by lcm, and their sugar.
    /// For grevlex, every pair of minimal lcm degree (normal strategy); for lex and block
    /// orders, where the degree says little about the size of the reductions, the pairs of
    /// smallest lcm.
    pub(crate) fn select_batch(&mut self, table: &MonoTable) -> (Vec<Pair>, u32) {
        let lex_min = match table.order() {
            Order::Grevlex => None,
            Order::Lex | Order::Block(_) => self
                .pairs
                .iter()
                .map(|p| p.lcm)
                .min_by(|&a, &b| table.cmp(a, b)),
        };
        let Some(d) = self.pairs.iter().map(|p| p.deg).min() else {
            return (Vec::new(), 0);
        };
        let (mut sel, rest): (Vec<Pair>, Vec<Pair>) = self
            .pairs
            .iter()
            .partition(|p| lex_min.map_or(p.deg == d, |m| p.lcm == m));
        self.pairs = rest;
        sel.sort_by(|a, b| table.cmp(a.lcm, b.lcm).then((a.i, a.j).cmp(&(b.i, b.j))));
        let sugar = sel.iter().map(|p| p.sugar).max().unwrap_or(d);
        (sel, sugar)
    }

    /// Removes and returns the pair with the smallest lcm (normal selection).
    pub(crate) fn select_normal(&mut self, table: &MonoTable) -> Option<Pair> {
        let best = (0..self.pairs.len()).min_by(|&a, &b| {
            let (pa, pb) = (&self.pairs[a], &self.pairs[b]);
            match table.cmp(pa.lcm, pb.lcm) {
                Ordering::Equal => (pa.i, pa.j).cmp(&(pb.i, pb.j)),
                o => o,
            }
        })?;
        Some(self.pairs.swap_remove(best))
    }
}
