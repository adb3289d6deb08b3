//! Faugère's F4: pairs of minimal degree are reduced together as one sparse matrix.
//!
//! One step: select pairs ([`crate::pairs`]), build rows and reducers ([`symbolic`], which
//! copies pivot rows met in earlier matrices), order the columns pivots-first ([`matrix`]),
//! reduce ([`reduce`]: the rows against the pivots — in a large field, random combinations of
//! them, since most reduce to zero — then the D block to reduced echelon form with the dense
//! kernel of [`crate::dense`], launched natively by default), and install the new elements.

mod matrix;
mod reduce;
mod symbolic;

use crate::field::Field;
use crate::interreduce::interreduce_matrix;
use crate::monomial::MonoTable;
use crate::pairs::PairSet;
use crate::poly::HPoly;
use crate::system::{GroebnerError, Options, Round, Stats};
use std::time::Instant;
use symbolic::{Marks, Reducers, Row, Symbolic};

/// Matrices with fewer rows to reduce than this reduce them one by one; larger ones through
/// random linear combinations where the field is large enough ([`reduce::reduce_random`]).
const RANDOM_MIN_ROWS: usize = 24;

/// Computes the reduced Gröbner basis of the nonzero monic `input` polynomials.
pub(crate) fn f4(
    input: Vec<HPoly>,
    table: &mut MonoTable,
    field: Field,
    opts: &Options,
    stats: &mut Stats,
) -> Result<Vec<HPoly>, GroebnerError> {
    let min_rows = if opts.random_combinations {
        RANDOM_MIN_ROWS
    } else {
        usize::MAX
    };
    f4_with(input, table, field, opts, stats, min_rows)
}

/// [`f4`], reducing matrices with at least `random_min_rows` rows to reduce through random
/// combinations (where the field allows it).
fn f4_with(
    input: Vec<HPoly>,
    table: &mut MonoTable,
    field: Field,
    opts: &Options,
    stats: &mut Stats,
    random_min_rows: usize,
) -> Result<Vec<HPoly>, GroebnerError> {
    let mut polys: Vec<HPoly> = Vec::new();
    let mut ps = PairSet::default();
    let mut marks = Marks::default();
    for f in input {
        ps.add(f.lm(), f.degree(table), table);
        polys.push(f);
    }
    let start = Instant::now();
    let mut last_rank = 0;
    loop {
        check_time(start, opts)?;
        let round_start = Instant::now();
        let t = Instant::now();
        let (sel, sugar) = ps.select_batch(table);
        stats.time.pairs += t.elapsed();
        if sel.is_empty() {
            break;
        }
        stats.pairs_reduced += sel.len();
        stats.steps += 1;

        let t = Instant::now();
        let reducers = Reducers::new(&ps.active(), &polys, table);
        let sym = symbolic::preprocess(&sel, &polys, &reducers, table, &mut marks);
        if table.overflow {
            return Err(GroebnerError::ExponentOverflow);
        }
        let mat = matrix::build(sym, table, &mut marks);
        let nrows = mat.npiv + mat.todo.len();
        stats.matrix_rows += nrows;
        if nrows * mat.ncols > stats.max_matrix.0 * stats.max_matrix.1 {
            stats.max_matrix = (nrows, mat.ncols);
        }
        stats.time.symbolic += t.elapsed();

        let t = Instant::now();
        let todo: Vec<&Row> = mat.todo.iter().collect();
        let nb = mat.ncols - mat.npiv;
        let ech = match reduce::random_rounds(field.p()) {
            Some(rounds) if todo.len() >= random_min_rows => {
                let seed = 0x5EED_0000 ^ stats.steps as u64;
                reduce::reduce_random(&mat, &todo, &polys, field, rounds, seed, last_rank)
            }
            _ => {
                let lower = reduce::reduce_rows(&mat, &todo, 0, &polys, field);
                reduce::echelon(lower, nb, field)
            }
        };
        stats.time.sparse += t.elapsed();

        let t = Instant::now();
        stats.zero_reductions += mat.todo.len() - ech.len();
        last_rank = ech.len();
        let (rows, shape) = reduce::dense_finish(ech, field, opts.dense.as_ref())?;
        if shape.0 * shape.1 > stats.max_dense.0 * stats.max_dense.1 {
            stats.max_dense = shape;
        }
        stats.time.dense += t.elapsed();

        let t = Instant::now();
        let mut new: Vec<HPoly> = rows
            .into_iter()
            .map(|r| HPoly {
                mons: r
                    .cols
                    .iter()
                    .map(|&c| mat.col_mon[mat.npiv + c as usize])
                    .collect(),
                cfs: r.vals,
            })
            .collect();
        new.sort_by(|a, b| table.cmp(a.lm(), b.lm()));
        let added = new.len();
        for h in new {
            ps.add(h.lm(), sugar.max(h.degree(table)), table);
            polys.push(h);
        }
        stats.time.pairs += t.elapsed();
        if let Some(hook) = &opts.on_round {
            hook(&Round {
                step: stats.steps,
                degree: sugar,
                pairs: sel.len(),
                matrix: (nrows, mat.ncols),
                new: added,
                pending: ps.pairs.len(),
                time: round_start.elapsed(),
            });
        }
    }
    stats.pairs_created = ps.created;
    let t = Instant::now();
    let kept: Vec<HPoly> = ps.active().into_iter().map(|g| polys[g].clone()).collect();
    let out = interreduce_matrix(kept, table, field);
    stats.time.interreduce += t.elapsed();
    if table.overflow {
        return Err(GroebnerError::ExponentOverflow);
    }
    Ok(out)
}

/// Fails with [`GroebnerError::TimeLimit`] once `opts.time_limit` has passed since `start`.
pub(crate) fn check_time(start: Instant, opts: &Options) -> Result<(), GroebnerError> {
    match opts.time_limit {
        Some(l) if start.elapsed() > l => Err(GroebnerError::TimeLimit(l)),
        _ => Ok(()),
    }
}

/// Reduces the tail of every element of a minimal monic basis `g` (sorted by increasing leading
/// monomial) against the others, with one matrix: the reduced basis, in the same order.
pub(crate) fn reduce_tails(g: Vec<HPoly>, table: &mut MonoTable, field: Field) -> Vec<HPoly> {
    if g.is_empty() {
        return g;
    }
    let mut marks = Marks::default();
    let mut sym = Symbolic::new(&mut marks);
    let one = table.one();
    for k in 0..g.len() {
        sym.push_row(one, k, &g, table, &mut marks, true);
    }
    let all: Vec<usize> = (0..g.len()).collect();
    let reducers = Reducers::new(&all, &g, table);
    sym.close(&reducers, &g, table, &mut marks);
    let mat = matrix::build(sym, table, &mut marks);
    let rows: Vec<&Row> = mat.pushed_leads[..g.len()]
        .iter()
        .map(|&c| &mat.piv[c as usize])
        .collect();
    let tails = reduce::reduce_rows(&mat, &rows, 1, &g, field);
    g.iter()
        .zip(tails)
        .map(|(p, t)| {
            let mut out = HPoly {
                mons: vec![p.lm()],
                cfs: vec![1],
            };
            out.mons
                .extend(t.cols.iter().map(|&c| mat.col_mon[mat.npiv + c as usize]));
            out.cfs.extend(t.vals);
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::Poly;
    use crate::system::System;
    use crate::systems::{cyclic, katsura};

    fn basis(sys: &System, random_min_rows: usize) -> Vec<Poly> {
        let field = Field::new(sys.prime);
        let mut table = MonoTable::new(sys.vars.len(), sys.order);
        let input: Vec<HPoly> = sys
            .polys
            .iter()
            .map(|p| {
                let mut h = HPoly::from_poly(p, &mut table, field);
                h.make_monic(field);
                h
            })
            .filter(|h| !h.is_zero())
            .collect();
        let mut stats = Stats::default();
        let opts = Options::default();
        let out =
            f4_with(input, &mut table, field, &opts, &mut stats, random_min_rows).expect("basis");
        out.iter().map(|p| p.to_poly(&table)).collect()
    }

    #[test]
    fn random_combinations_give_the_exact_basis() {
        for p in [65521u32, 1073741789, 2147483647] {
            for mut sys in [cyclic(5), cyclic(6), katsura(5), katsura(6)] {
                sys.prime = p;
                let exact = basis(&sys, usize::MAX);
                assert_eq!(basis(&sys, 1), exact, "p = {p}");
                assert_eq!(basis(&sys, RANDOM_MIN_ROWS), exact, "p = {p}");
            }
        }
    }
}
