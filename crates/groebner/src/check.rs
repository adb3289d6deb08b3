//! Independent checks of a result: the Gröbner basis property and reducedness.

use crate::division::{normal_form, spoly};
use crate::field::{is_prime, Field};
use crate::monomial::MonoTable;
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

/// Whether `basis` is a Gröbner basis containing the ideal of `input` (same variables, prime
/// and order): every input polynomial reduces to 0 modulo the basis and every S-polynomial of two
/// basis elements with non-coprime leading monomials reduces to 0. (That the basis elements lie
/// in the input ideal is not checked: it holds by construction.)
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
    let Some(f) = intern_all(&input.polys, &mut table, field) else {
        return false;
    };
    g.retain(|p| !p.is_zero());
    for p in &mut g {
        p.make_monic(field);
    }
    let all: Vec<usize> = (0..g.len()).collect();
    for p in f {
        if !normal_form(p, &g, &all, &mut table, field).is_zero() {
            return false;
        }
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
    !table.overflow
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
