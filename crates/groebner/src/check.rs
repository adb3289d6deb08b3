//! Independent checks of a result: the Gröbner basis property and reducedness.
//!
//! [`is_groebner_basis`] selects the critical pairs a theorem requires (see [`needed_pairs`])
//! and reduces all of them, together with the input polynomials, as one sparse F4-style matrix
//! against the basis ([`crate::checkmat`]): exact arithmetic over F_p, so a row reduces to zero
//! there exactly when its polynomial has a standard representation.

use crate::checkmat::{all_rows_reduce_to_zero, CheckRow};
use crate::field::{is_prime, Field};
use crate::monomial::{Mon, MonoTable};
use crate::poly::{HPoly, Poly};
use crate::system::{Basis, System};

fn intern_all(polys: &[Poly], table: &mut MonoTable, field: Field) -> Option<Vec<HPoly>> {
    let n = table.nvars();
    if polys
        .iter()
        .any(|p| p.terms.iter().any(|t| t.exps.len() != n))
    {
        return None;
    }
    Some(
        polys
            .iter()
            .map(|p| HPoly::from_poly(p, table, field))
            .collect(),
    )
}

/// The critical pairs `(i, j, lcm)` of the monic basis `g` whose S-polynomials must be shown to
/// have a standard representation; the others are implied by:
///
/// * Buchberger's first criterion: coprime leading monomials.
/// * The chain criterion in its strict form (Buchberger, "A criterion for detecting
///   unnecessary reductions in the construction of Gröbner bases", EUROSAM 1979; Cox–Little–
///   O'Shea, *Ideals, Varieties, and Algorithms*, ch. 2 §10): the pair `(i, j)` with
///   `T = lcm(lm_i, lm_j)` is implied when some `k` has `lm_k | T` and both `lcm(lm_i, lm_k)`
///   and `lcm(lm_j, lm_k)` are *proper* divisors of `T`. A basis is a Gröbner basis iff every
///   S-polynomial has a representation `sum c_l m_l g_l` with every `m_l lm_l < T` (an
///   lcm-representation); `S(i, j)` is a monomial combination of `S(i, k)` and `S(k, j)`, whose
///   lcms are strictly smaller than `T`, so by well-founded induction on `T` in the monomial
///   order (every pair with a smaller lcm is covered, checked or implied) it has one too. Only
///   strictly smaller lcms are relied on, so the argument never goes in a circle.
fn needed_pairs(g: &[HPoly], table: &mut MonoTable) -> Vec<(usize, usize, Mon)> {
    let lms: Vec<Mon> = g.iter().map(HPoly::lm).collect();
    let mut out = Vec::new();
    for j in 0..lms.len() {
        for i in 0..j {
            if table.coprime(lms[i], lms[j]) {
                continue;
            }
            let t = table.lcm(lms[i], lms[j]);
            let implied = (0..lms.len()).any(|k| {
                k != i
                    && k != j
                    && table.divides(lms[k], t)
                    && !table.lcm_is(lms[i], lms[k], t)
                    && !table.lcm_is(lms[j], lms[k], t)
            });
            if !implied {
                out.push((i, j, t));
            }
        }
    }
    out
}

/// Whether `basis` is a Gröbner basis containing the ideal of `input` (same variables, prime
/// and order): every input polynomial reduces to 0 modulo the basis and every S-polynomial of two
/// basis elements with non-coprime leading monomials reduces to 0 (up to the pairs that the
/// chain criterion implies, see `needed_pairs`). (That the basis elements lie in the input
/// ideal is not checked: it holds by construction.)
pub fn is_groebner_basis(input: &System, basis: &Basis) -> bool {
    if input.vars != basis.vars
        || input.prime != basis.prime
        || input.order != basis.order
        || !is_prime(u64::from(input.prime))
    {
        return false;
    }
    let field = Field::new(input.prime);
    let mut table = MonoTable::new(input.vars.len(), input.order);
    let Some(mut g) = intern_all(&basis.polys, &mut table, field) else {
        return false;
    };
    let Some(mut f) = intern_all(&input.polys, &mut table, field) else {
        return false;
    };
    g.retain(|p| !p.is_zero());
    for p in &mut g {
        p.make_monic(field);
    }
    f.retain(|p| !p.is_zero());
    let one = table.one();
    let nb = g.len();

    // Pairs grouped by lcm: within a group every generator is checked against the first one
    // (a star), which covers every pair of the group: S(x, y) = S(x, a) - S(y, a) when all
    // three share the lcm.
    let mut pairs = needed_pairs(&g, &mut table);
    pairs.sort_unstable_by_key(|&(i, j, t)| (t, i, j));
    let mut rows: Vec<CheckRow> = Vec::new();
    let mut k = 0;
    while k < pairs.len() {
        let t = pairs[k].2;
        let mut gens: Vec<usize> = Vec::new();
        while k < pairs.len() && pairs[k].2 == t {
            gens.push(pairs[k].0);
            gens.push(pairs[k].1);
            k += 1;
        }
        gens.sort_unstable();
        gens.dedup();
        for (n, &s) in gens.iter().enumerate() {
            let mult = table.div(t, g[s].lm());
            rows.push(CheckRow {
                mult,
                src: s,
                pivot: n == 0,
            });
        }
    }
    // Every input polynomial (indices after the basis), reduced as it is.
    let mut polys = g;
    for (n, p) in f.into_iter().enumerate() {
        rows.push(CheckRow {
            mult: one,
            src: nb + n,
            pivot: false,
        });
        polys.push(p);
    }
    if table.overflow {
        return false;
    }
    let ok = all_rows_reduce_to_zero(&rows, &polys, nb, &mut table, field);
    ok && !table.overflow
}
/// Whether `basis` is reduced: monic elements sorted by strictly increasing leading monomial,
/// terms sorted, and no term of any element divisible by the leading monomial of another.
pub fn is_reduced(basis: &Basis) -> bool {
    if !is_prime(u64::from(basis.prime)) {
        return false;
    }
    let field = Field::new(basis.prime);
    let mut table = MonoTable::new(basis.vars.len(), basis.order);
    let Some(g) = intern_all(&basis.polys, &mut table, field) else {
        return false;
    };
    for (k, (p, orig)) in g.iter().zip(&basis.polys).enumerate() {
        if p.is_zero() || p.cfs[0] != 1 || p.len() != orig.terms.len() {
            return false;
        }
        if p.to_poly(&table) != *orig {
            return false;
        }
        if k > 0 && table.cmp(g[k - 1].lm(), p.lm()) != std::cmp::Ordering::Less {
            return false;
        }
        for (j, q) in g.iter().enumerate() {
            if j != k && p.mons.iter().any(|&t| table.divides(q.lm(), t)) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::division::{normal_form, spoly};
    use crate::{bundled_systems, groebner, Algorithm, Options};

    /// The plain reference: every input and every non-coprime S-pair reduced by division.
    fn naive(input: &System, basis: &Basis) -> bool {
        let field = Field::new(input.prime);
        let mut table = MonoTable::new(input.vars.len(), input.order);
        let mut g = intern_all(&basis.polys, &mut table, field).expect("arity");
        let f = intern_all(&input.polys, &mut table, field).expect("arity");
        g.retain(|p| !p.is_zero());
        for p in &mut g {
            p.make_monic(field);
        }
        let all: Vec<usize> = (0..g.len()).collect();
        if f.into_iter()
            .any(|p| !normal_form(p, &g, &all, &mut table, field).is_zero())
        {
            return false;
        }
        for i in 0..g.len() {
            for j in i + 1..g.len() {
                if table.coprime(g[i].lm(), g[j].lm()) {
                    continue;
                }
                let s = spoly(&g[i], &g[j], &mut table, field);
                if !normal_form(s, &g, &all, &mut table, field).is_zero() {
                    return false;
                }
            }
        }
        true
    }

    /// Agrees with the naive checker on real bases, bases missing an element and bases with a
    /// perturbed tail coefficient, both against the system and against the candidate itself
    /// (where only the S-pairs decide).
    #[test]
    fn agrees_with_naive_reference() {
        for (name, sys) in bundled_systems() {
            if ![
                "cyclic4",
                "cyclic5",
                "katsura4",
                "katsura5",
                "twisted_cubic",
                "sparse4",
            ]
            .contains(&name.as_str())
            {
                continue;
            }
            let b = groebner(&sys, Algorithm::F4, &Options::default()).expect("basis");
            let mut cands = vec![b.clone()];
            for k in 0..b.polys.len() {
                let mut c = b.clone();
                c.polys.remove(k);
                cands.push(c);
                let mut c = b.clone();
                if let Some(t) = c.polys[k].terms.last_mut() {
                    t.coef = t.coef % (b.prime - 1) + 1;
                    cands.push(c);
                }
            }
            for c in &cands {
                assert_eq!(is_groebner_basis(&sys, c), naive(&sys, c), "{name}");
                let own = System {
                    vars: c.vars.clone(),
                    prime: c.prime,
                    order: c.order,
                    polys: c.polys.clone(),
                };
                assert_eq!(is_groebner_basis(&own, c), naive(&own, c), "{name} (own)");
            }
        }
    }
}
