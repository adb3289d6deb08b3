//! Inter-reduction of a Gröbner basis into the reduced one: keep minimal leading monomials,
//! reduce every tail, sort by increasing leading monomial.

use crate::division::normal_form;
use crate::f4::reduce_tails;
use crate::field::Field;
use crate::monomial::MonoTable;
use crate::poly::HPoly;

/// Monic copies of the elements whose leading monomial no other element's divides (one per
/// leading monomial), sorted by increasing leading monomial.
pub(crate) fn minimal(mut polys: Vec<HPoly>, table: &MonoTable, field: Field) -> Vec<HPoly> {
    polys.retain(|p| !p.is_zero());
    polys.sort_by(|a, b| table.cmp(a.lm(), b.lm()));
    let mut out: Vec<HPoly> = Vec::new();
    for mut p in polys {
        if out.iter().any(|q| table.divides(q.lm(), p.lm())) {
            continue;
        }
        p.make_monic(field);
        out.push(p);
    }
    out
}

/// The reduced basis from a Gröbner basis, by polynomial division (reference path).
pub(crate) fn interreduce_naive(
    polys: Vec<HPoly>,
    table: &mut MonoTable,
    field: Field,
) -> Vec<HPoly> {
    let g = minimal(polys, table, field);
    let mut out = Vec::with_capacity(g.len());
    for k in 0..g.len() {
        let others: Vec<usize> = (0..g.len()).filter(|&i| i != k).collect();
        let tail = HPoly {
            mons: g[k].mons[1..].to_vec(),
            cfs: g[k].cfs[1..].to_vec(),
        };
        let r = normal_form(tail, &g, &others, table, field);
        let mut p = HPoly {
            mons: vec![g[k].lm()],
            cfs: vec![1],
        };
        p.mons.extend(r.mons);
        p.cfs.extend(r.cfs);
        out.push(p);
    }
    out
}

/// The reduced basis from a Gröbner basis, by one sparse matrix reduction (F4 path).
pub(crate) fn interreduce_matrix(
    polys: Vec<HPoly>,
    table: &mut MonoTable,
    field: Field,
) -> Vec<HPoly> {
    let g = minimal(polys, table, field);
    reduce_tails(g, table, field)
}
