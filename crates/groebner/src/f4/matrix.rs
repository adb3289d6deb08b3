//! Column ordering of an F4 matrix: pivot columns first (the A|B rows of Faugère–Lachartre),
//! then the others (the D block), each part by decreasing monomial.

use super::symbolic::{Marks, Row, Symbolic};
use crate::monomial::{Mon, MonoTable};

/// An F4 matrix with rows rewritten to column indices.
pub(crate) struct Matrix {
    /// Number of pivot columns; columns `npiv..ncols` form the D block.
    pub(crate) npiv: usize,
    /// Number of columns.
    pub(crate) ncols: usize,
    /// The monomial of every column.
    pub(crate) col_mon: Vec<Mon>,
    /// The column indices of all rows (see [`Row`]).
    pub(crate) cols: Vec<u32>,
    /// `piv[c]` is the pivot row whose leading column is `c` (`c < npiv`).
    pub(crate) piv: Vec<Row>,
    /// Rows to reduce.
    pub(crate) todo: Vec<Row>,
    /// Leading column of each pivot row, in the order the rows were pushed.
    pub(crate) pushed_leads: Vec<u32>,
}

impl Matrix {
    /// Entries in all pivot rows: about the work of reducing a dense row.
    pub(crate) fn pivot_entries(&self) -> usize {
        self.piv.iter().map(|r| r.len as usize).sum()
    }
}

/// Orders the columns and rewrites every row to column indices.
pub(crate) fn build(sym: Symbolic, table: &MonoTable, marks: &mut Marks) -> Matrix {
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
    let mut cols = sym.cols;
    for c in &mut cols {
        *c = marks.col[*c as usize];
        // Every monomial of a row is in `sym.mons`; `reduce` relies on this bound.
        assert!(*c < ncols);
    }
    let mut piv: Vec<Row> = vec![
        Row {
            start: 0,
            len: 0,
            src: u32::MAX
        };
        npiv
    ];
    let mut pushed_leads = Vec::with_capacity(sym.pivots.len());
    for r in sym.pivots {
        let lead = r.of(&cols)[0];
        pushed_leads.push(lead);
        piv[lead as usize] = r;
    }
    assert!(
        piv.iter().all(|r| r.src != u32::MAX),
        "one pivot row per pivot column"
    );
    let todo = sym.todo;
    Matrix {
        npiv,
        ncols: col_mon.len(),
        col_mon,
        cols,
        piv,
        todo,
        pushed_leads,
    }
}
