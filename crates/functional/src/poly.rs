//! Integer polynomials over atoms (symbols and non-polynomial subterms): the normal form used
//! to canonicalise buffer addresses and to read off how an address is built from thread and
//! iteration coordinates.

use crate::term::{Op, Sort, Term};
use std::collections::BTreeMap;

/// A monomial: atom keys, sorted, with repetition for powers.
pub type Monomial = Vec<String>;

/// `Σ coefficient · monomial`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Poly {
    /// Non-zero coefficients by monomial.
    pub terms: BTreeMap<Monomial, i128>,
    /// The term behind each atom key.
    pub atoms: BTreeMap<String, Term>,
}

impl Poly {
    /// The constant `c`.
    pub fn constant(c: i128) -> Poly {
        let mut p = Poly::default();
        if c != 0 {
            p.terms.insert(vec![], c);
        }
        p
    }

    /// The normal form of an integer term, or `None` when a coefficient overflows.
    pub fn of(t: &Term) -> Option<Poly> {
        if let Some(v) = t.as_int() {
            return Some(Poly::constant(v));
        }
        match t.as_app() {
            Some((Op::Add, [a, b])) => Poly::of(a)?.add(&Poly::of(b)?)?.fold_divmod(),
            Some((Op::Sub, [a, b])) => Poly::of(a)?.add(&Poly::of(b)?.scale(-1)?)?.fold_divmod(),
            Some((Op::Neg, [a])) => Poly::of(a)?.scale(-1),
            Some((Op::Mul, [a, b])) => Poly::of(a)?.mul(&Poly::of(b)?),
            _ => {
                let key = t.smt();
                let mut p = Poly::default();
                p.terms.insert(vec![key.clone()], 1);
                p.atoms.insert(key, t.clone());
                Some(p)
            }
        }
    }

    /// `self + o`.
    pub fn add(&self, o: &Poly) -> Option<Poly> {
        let mut r = self.clone();
        r.atoms
            .extend(o.atoms.iter().map(|(k, v)| (k.clone(), v.clone())));
        for (m, c) in &o.terms {
            let e = r.terms.entry(m.clone()).or_insert(0);
            *e = e.checked_add(*c)?;
            if *e == 0 {
                r.terms.remove(m);
            }
        }
        Some(r)
    }

    /// `k · self`.
    pub fn scale(&self, k: i128) -> Option<Poly> {
        let mut r = self.clone();
        if k == 0 {
            r.terms.clear();
            return Some(r);
        }
        for c in r.terms.values_mut() {
            *c = c.checked_mul(k)?;
        }
        Some(r)
    }

    /// `self · o`.
    pub fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut r = Poly {
            atoms: self.atoms.clone(),
            ..Poly::default()
        };
        r.atoms
            .extend(o.atoms.iter().map(|(k, v)| (k.clone(), v.clone())));
        for (m1, c1) in &self.terms {
            for (m2, c2) in &o.terms {
                let mut m = m1.clone();
                m.extend(m2.iter().cloned());
                m.sort();
                let e = r.terms.entry(m.clone()).or_insert(0);
                *e = e.checked_add(c1.checked_mul(*c2)?)?;
                if *e == 0 {
                    r.terms.remove(&m);
                }
            }
        }
        Some(r)
    }

    /// Rewrites `k·c·(x div c) + k·(x mod c)` to `k·x` (SMT-LIB's `div` and `mod` satisfy
    /// `x = c·(x div c) + (x mod c)` for every `c ≠ 0`): a thread id split into a row and a
    /// column (`tid / 32`, `tid % 32`) and put back together reads as the id again.
    fn fold_divmod(self) -> Option<Poly> {
        let mut p = self;
        loop {
            let found = p.terms.iter().find_map(|(m, &k)| {
                let [key] = m.as_slice() else { return None };
                let (Op::Mod, [x, c]) = p.atoms.get(key)?.as_app()? else {
                    return None;
                };
                let cv = c.as_int().filter(|&v| v != 0)?;
                let div_key = x.div(c).smt();
                let want = k.checked_mul(cv)?;
                (p.terms.get(&vec![div_key.clone()]) == Some(&want))
                    .then(|| (key.clone(), div_key, k, x.clone()))
            });
            let Some((mod_key, div_key, k, x)) = found else {
                return Some(p);
            };
            p.terms.remove(&vec![mod_key]);
            p.terms.remove(&vec![div_key]);
            p = p.add(&Poly::of(&x)?.scale(k)?)?;
        }
    }

    /// True when some monomial contains `atom`.
    pub fn contains(&self, atom: &str) -> bool {
        self.terms.keys().any(|m| m.iter().any(|a| a == atom))
    }

    /// Splits off the monomials containing `atom` (exactly once): `self = atom · coef + rest`.
    /// `None` when `atom` occurs squared.
    pub fn split(&self, atom: &str) -> Option<(Poly, Poly)> {
        let mut coef = Poly {
            atoms: self.atoms.clone(),
            ..Poly::default()
        };
        let mut rest = coef.clone();
        for (m, c) in &self.terms {
            let n = m.iter().filter(|a| *a == atom).count();
            match n {
                0 => {
                    rest.terms.insert(m.clone(), *c);
                }
                1 => {
                    let mut m2 = m.clone();
                    let pos = m2.iter().position(|a| a == atom)?;
                    m2.remove(pos);
                    coef.terms.insert(m2, *c);
                }
                _ => return None,
            }
        }
        Some((coef, rest))
    }

    /// `self / d` when `d` is a single monomial (with coefficient) dividing every monomial.
    pub fn div_exact(&self, d: &Poly) -> Option<Poly> {
        if d.terms.len() != 1 {
            return None;
        }
        let (dm, dc) = d.terms.iter().next()?;
        let mut r = Poly {
            atoms: self.atoms.clone(),
            ..Poly::default()
        };
        for (m, c) in &self.terms {
            if c % dc != 0 {
                return None;
            }
            let mut m2 = m.clone();
            for a in dm {
                let pos = m2.iter().position(|x| x == a)?;
                m2.remove(pos);
            }
            r.terms.insert(m2, c / dc);
        }
        Some(r)
    }

    /// Splits into the part divisible by the monomial `d` (divided) and the rest:
    /// `self = d · q + r`, with no monomial of `r` divisible by `d`.
    pub fn divmod_monomial(&self, d: &Poly) -> Option<(Poly, Poly)> {
        if d.terms.len() != 1 {
            return None;
        }
        let mut q = Poly {
            atoms: self.atoms.clone(),
            ..Poly::default()
        };
        let mut r = q.clone();
        for (m, c) in &self.terms {
            let one = Poly {
                terms: [(m.clone(), *c)].into_iter().collect(),
                atoms: self.atoms.clone(),
            };
            match one.div_exact(d) {
                Some(x) => q = q.add(&x)?,
                None => r = r.add(&one)?,
            }
        }
        Some((q, r))
    }

    /// The polynomial as a term, monomials in a canonical order.
    pub fn to_term(&self) -> Term {
        let mut acc: Option<Term> = None;
        for (m, c) in &self.terms {
            let mut t = Term::int(*c);
            for a in m {
                let atom = self
                    .atoms
                    .get(a)
                    .cloned()
                    .unwrap_or_else(|| crate::term::sym(a.clone(), Sort::Int));
                t = t.mul(&atom);
            }
            acc = Some(match acc {
                None => t,
                Some(s) => s.add(&t),
            });
        }
        acc.unwrap_or_else(|| Term::int(0))
    }
}

/// The canonical form of an integer term (itself when it is not a polynomial).
pub fn canon(t: &Term) -> Term {
    if t.sort() != Sort::Int {
        return t.clone();
    }
    Poly::of(t).map_or_else(|| t.clone(), |p| p.to_term())
}

/// `t` with nested divisions and remainders by positive constants in the digit form
/// `(x mod a) div b`: `(x div a) div b = x div (a·b)`, `(x div a) mod b = (x mod (a·b)) div a`,
/// and `(x mod a) mod b = x mod b` where `b` divides `a` (floor division: all integers `x`).
pub fn flatten_divmod(t: &Term) -> Term {
    let kids: Vec<Term> = t.children().iter().map(flatten_divmod).collect();
    let Some((op, _)) = t.as_app() else {
        return t.clone();
    };
    let positive = |c: &Term| c.as_int().filter(|&c| c > 0);
    if let (Op::Div | Op::Mod, [x, b]) = (op, kids.as_slice()) {
        if let (Some(b), Some((inner, [y, a]))) = (positive(b), x.as_app()) {
            if let Some(a) = positive(a) {
                let ab = a.checked_mul(b);
                match (op, inner, ab) {
                    (Op::Div, Op::Div, Some(ab)) => return y.div(&Term::int(ab)),
                    (Op::Mod, Op::Div, Some(ab)) => {
                        return y.modulo(&Term::int(ab)).div(&Term::int(a))
                    }
                    (Op::Mod, Op::Mod, _) if a % b == 0 => return y.modulo(&Term::int(b)),
                    _ => {}
                }
            }
        }
    }
    Term::app(op, &kids).unwrap_or_else(|| t.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::sym;

    #[test]
    fn nested_divisions_become_digits() {
        let x = sym("tid_x", Sort::Int);
        let c = |v| Term::int(v);
        // warp = tid / 32, lane = tid % 32; warp / 2, warp % 2, lane / 4, lane % 4
        let warp = x.div(&c(32));
        let lane = x.modulo(&c(32));
        assert_eq!(flatten_divmod(&warp.div(&c(2))), x.div(&c(64)));
        assert_eq!(
            flatten_divmod(&warp.modulo(&c(2))),
            x.modulo(&c(64)).div(&c(32))
        );
        assert_eq!(flatten_divmod(&lane.modulo(&c(4))), x.modulo(&c(4)));
        assert_eq!(flatten_divmod(&lane.div(&c(4))), lane.div(&c(4)));
        // Not a divisor: left alone.
        let odd = x.modulo(&c(6)).modulo(&c(4));
        assert_eq!(flatten_divmod(&odd), odd);
    }
}
