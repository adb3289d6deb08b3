//! Column ordering of an F4 matrix: pivot columns first (the A|B rows of Faugère–Lachartre),
//! then the others (the D block), each part by decreasing monomial.

use super::symbolic::{Marks, Row, Symbolic};
use crate::monomial::{Mon, MonoTable};
use crate::poly::HPoly;

/// An F4 matrix with rows rewritten to column indices.
pub(crate) struct Matrix {
    /// Number of pivot columns; columns `npiv..ncols` form the D block.
    pub(crate) npiv: usize,
    /// Number of columns.
    pub(crate) ncols: usize,
    /// The monomial of every column.
    pub(crate) col_mon: Vec<Mon>,
    /// `piv[c]` is the pivot row whose leading column is `c` (`c < npiv`).
    pub(crate) piv: Vec<Row>,
    /// `tails[c]`: the tail of `piv[c]` packed as `column << 32 | coefficient`, one stream for
    /// the reduction loop.
    pub(crate) tails: Vec<Vec<u64>>,
    /// Rows to reduce.
    pub(crate) todo: Vec<Row>,
    /// Leading column of each pivot row, in the order the rows were pushed.
    pub(crate) pushed_leads: Vec<u32>,
}

/// Orders the columns and rewrites every row to column indices.
pub(crate) fn build(
    sym: Symbolic,
    polys: &[HPoly],
    table: &MonoTable,
    marks: &mut Marks,
) -> Matrix {
    let gen = marks.gen;
    let (mut left, mut right): (Vec<Mon>, Vec<Mon>) = sym
        .mons
        .iter()
        .partition(|&&m| marks.pivot[m as usize] == gen);
    left.sort_unstable_by(|&a, &b| table.cmp(b, a));
    right.sort_unstable_by(|&a, &b| table.cmp(b, a));
    let npiv = left.len();
    let mut col_mon = left;
    col_mon.extend(right);
    for (c, &m) in col_mon.iter().enumerate() {
        marks.col[m as usize] = c as u32;
    }
    let ncols = col_mon.len() as u32;
    let remap = |mut r: Row| {
        for c in &mut r.cols {
            *c = marks.col[*c as usize];
            // Every monomial of a row is in `sym.mons`; `reduce` relies on this bound.
            assert!(*c < ncols);
        }
        r
    };
    let mut slots: Vec<Option<Row>> = (0..npiv).map(|_| None).collect();
    let mut pushed_leads = Vec::with_capacity(sym.pivots.len());
    for r in sym.pivots {
        let r = remap(r);
        let lead = r.cols[0];
        pushed_leads.push(lead);
        slots[lead as usize] = Some(r);
    }
    let piv: Vec<Row> = slots
        .into_iter()
        .map(|r| r.expect("one pivot row per pivot column"))
        .collect();
    let tails = piv
        .iter()
        .map(|r| {
            let cfs = &polys[r.src as usize].cfs;
            r.cols[1..]
                .iter()
                .zip(&cfs[1..])
                .map(|(&c, &v)| u64::from(c) << 32 | u64::from(v))
                .collect()
        })
        .collect();
    let todo = sym.todo.into_iter().map(remap).collect();
    Matrix {
        npiv,
        ncols: col_mon.len(),
        col_mon,
        piv,
        tails,
        todo,
        pushed_leads,
    }
}
