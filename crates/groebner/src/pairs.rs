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

struct Cand {
    g: u32,
    lcm: Mon,
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
        let mut cands: Vec<Cand> = Vec::new();
        for g in 0..h {
            if self.redundant[g] {
                continue;
            }
            let lcm = table.lcm(self.lms[g], lm);
            let deg = table.deg(lcm);
            let sg = self.sugar[g] + deg - table.deg(self.lms[g]);
            let sh = sugar + deg - table.deg(lm);
            cands.push(Cand {
                g: g as u32,
                lcm,
                deg,
                sugar: sg.max(sh),
                coprime: table.coprime(self.lms[g], lm),
            });
        }
        cands.sort_by_key(|a| (a.deg, a.lcm, a.g));
        // Criterion M: drop pairs whose lcm is a proper multiple of another new pair's lcm.
        // Divisibility is transitive, so testing against the survivors suffices.
        let mut minimal: Vec<usize> = Vec::new();
        for (k, c) in cands.iter().enumerate() {
            let dominated = minimal.iter().any(|&q| {
                let d = &cands[q];
                d.deg < c.deg && table.divides(d.lcm, c.lcm)
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
            while e < minimal.len() && cands[minimal[e]].lcm == cands[minimal[k]].lcm {
                e += 1;
            }
            if !minimal[k..e].iter().any(|&q| cands[q].coprime) {
                let c = &cands[minimal[k]];
                self.pairs.push(Pair {
                    i: c.g,
                    j: h as u32,
                    lcm: c.lcm,
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
    /// For grevlex, every pair of minimal lcm degree (normal strategy); for lex, where the
    /// degree says little about the size of the reductions, the pairs of smallest lcm.
    pub(crate) fn select_batch(&mut self, table: &MonoTable) -> (Vec<Pair>, u32) {
        let lex_min = match table.order() {
            Order::Grevlex => None,
            Order::Lex => self
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
