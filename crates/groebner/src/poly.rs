//! Polynomials: the public, self-contained [`Poly`] and the internal hashed form `HPoly`.

use crate::field::Field;
use crate::monomial::{Mon, MonoTable};
use crate::order::{cmp_exps, Order};
use std::fmt::Write;

/// A term: a nonzero coefficient in `[1, p)` times the monomial with exponent vector `exps`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Term {
    /// The coefficient, a residue modulo the system's prime.
    pub coef: u32,
    /// One exponent per variable, in the order the variables were declared.
    pub exps: Vec<u16>,
}

/// A polynomial over F_p: terms with distinct monomials and nonzero coefficients, sorted by
/// decreasing monomial (in the order it was produced for).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Poly {
    /// The terms, leading term first.
    pub terms: Vec<Term>,
}

impl Poly {
    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// Total degree (0 for the zero polynomial).
    pub fn degree(&self) -> u32 {
        self.terms
            .iter()
            .map(|t| t.exps.iter().map(|&e| u32::from(e)).sum())
            .max()
            .unwrap_or(0)
    }

    /// Sorts the terms by decreasing monomial in `order`.
    pub fn sort(&mut self, order: Order) {
        let deg = |e: &[u16]| e.iter().map(|&x| u32::from(x)).sum::<u32>();
        self.terms
            .sort_by(|a, b| cmp_exps(order, &b.exps, deg(&b.exps), &a.exps, deg(&a.exps)));
    }

    /// Writes the polynomial in the text format, e.g. `x^2*y + 65520*z + 3`.
    pub fn to_text(&self, vars: &[String]) -> String {
        if self.terms.is_empty() {
            return "0".to_string();
        }
        let mut s = String::new();
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 {
                s.push_str(" + ");
            }
            let mut factors = Vec::new();
            if t.coef != 1 || t.exps.iter().all(|&e| e == 0) {
                factors.push(t.coef.to_string());
            }
            for (v, &e) in t.exps.iter().enumerate() {
                let name = vars.get(v).map(String::as_str).unwrap_or("?");
                match e {
                    0 => {}
                    1 => factors.push(name.to_string()),
                    _ => factors.push(format!("{name}^{e}")),
                }
            }
            let _ = write!(s, "{}", factors.join("*"));
        }
        s
    }
}

/// A polynomial over hashed monomials: parallel vectors, leading term first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct HPoly {
    pub(crate) mons: Vec<Mon>,
    pub(crate) cfs: Vec<u32>,
}

impl HPoly {
    /// Interns a public polynomial, sorting and combining terms in the table's order.
    pub(crate) fn from_poly(p: &Poly, table: &mut MonoTable, field: Field) -> HPoly {
        let mut terms: Vec<(Mon, u32)> = p
            .terms
            .iter()
            .map(|t| (table.intern(&t.exps), field.reduce(u64::from(t.coef))))
            .collect();
        terms.sort_by(|a, b| table.cmp(b.0, a.0));
        let mut out = HPoly::default();
        for (m, c) in terms {
            if out.mons.last() == Some(&m) {
                let last = out.cfs.last_mut().expect("parallel vectors");
                *last = field.add(*last, c);
            } else {
                out.mons.push(m);
                out.cfs.push(c);
            }
        }
        out.retain_nonzero();
        out
    }

    /// Drops zero coefficients.
    pub(crate) fn retain_nonzero(&mut self) {
        let mut k = 0;
        for i in 0..self.mons.len() {
            if self.cfs[i] != 0 {
                self.mons[k] = self.mons[i];
                self.cfs[k] = self.cfs[i];
                k += 1;
            }
        }
        self.mons.truncate(k);
        self.cfs.truncate(k);
    }

    /// The public form.
    pub(crate) fn to_poly(&self, table: &MonoTable) -> Poly {
        Poly {
            terms: self
                .mons
                .iter()
                .zip(&self.cfs)
                .map(|(&m, &c)| Term {
                    coef: c,
                    exps: table.exps(m).to_vec(),
                })
                .collect(),
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.mons.is_empty()
    }

    pub(crate) fn len(&self) -> usize {
        self.mons.len()
    }

    /// Total degree (maximum over the terms).
    pub(crate) fn degree(&self, table: &MonoTable) -> u32 {
        self.mons.iter().map(|&m| table.deg(m)).max().unwrap_or(0)
    }

    /// Leading monomial; the polynomial must be nonzero.
    pub(crate) fn lm(&self) -> Mon {
        self.mons[0]
    }

    /// Scales so that the leading coefficient is 1.
    pub(crate) fn make_monic(&mut self, field: Field) {
        if let Some(&lc) = self.cfs.first() {
            if lc != 1 {
                let inv = field.inv(lc);
                for c in &mut self.cfs {
                    *c = field.mul(*c, inv);
                }
            }
        }
    }
}
