//! Buchberger's algorithm with Gebauer–Möller criteria and normal selection: the reference.

use crate::division::{normal_form, spoly};
use crate::f4::check_time;
use crate::field::Field;
use crate::interreduce::interreduce_naive;
use crate::monomial::MonoTable;
use crate::pairs::PairSet;
use crate::poly::HPoly;
use crate::system::{GroebnerError, Options, Stats};
use std::time::Instant;

/// Computes the reduced Gröbner basis of the nonzero monic `input` polynomials.
pub(crate) fn buchberger(
    input: Vec<HPoly>,
    table: &mut MonoTable,
    field: Field,
    opts: &Options,
    stats: &mut Stats,
) -> Result<Vec<HPoly>, GroebnerError> {
    let mut basis: Vec<HPoly> = Vec::new();
    let mut ps = PairSet::default();
    for f in input {
        ps.add(f.lm(), f.degree(table), table);
        basis.push(f);
    }
    let mut active = ps.active();
    let start = Instant::now();
    loop {
        check_time(start, opts)?;
        let t = Instant::now();
        let pair = ps.select_normal(table);
        stats.time.pairs += t.elapsed();
        let Some(pair) = pair else { break };
        stats.pairs_reduced += 1;
        stats.steps += 1;
        let t = Instant::now();
        let s = spoly(
            &basis[pair.i as usize],
            &basis[pair.j as usize],
            table,
            field,
        );
        stats.time.symbolic += t.elapsed();
        let t = Instant::now();
        let mut h = normal_form(s, &basis, &active, table, field);
        stats.time.sparse += t.elapsed();
        if table.overflow {
            return Err(GroebnerError::ExponentOverflow);
        }
        if h.is_zero() {
            stats.zero_reductions += 1;
            continue;
        }
        h.make_monic(field);
        let t = Instant::now();
        ps.add(h.lm(), pair.sugar.max(h.degree(table)), table);
        basis.push(h);
        active = ps.active();
        stats.time.pairs += t.elapsed();
    }
    stats.pairs_created = ps.created;
    let t = Instant::now();
    let kept: Vec<HPoly> = active.iter().map(|&g| basis[g].clone()).collect();
    let out = interreduce_naive(kept, table, field);
    stats.time.interreduce += t.elapsed();
    Ok(out)
}
