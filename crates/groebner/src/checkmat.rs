//! The reduction engine of the checker: chosen multiples of polynomials, reduced all at once as
//! the rows of one sparse F4-style matrix against multiples of the basis.
//!
//! Symbolic preprocessing adds, for every monomial of the matrix that some basis leading
//! monomial divides, one pivot row `q * g` with that leading monomial (masks filter the
//! divisor search). A row then reduces to zero exactly when the polynomial it stands for (for
//! an S-polynomial row: the row minus the pivot row of its lcm) equals a combination of the
//! basis with every term's leading monomial at most (below the lcm for S-polynomials) the
//! row's leading monomial; a nonzero remainder has a term no basis leading monomial divides.
//! Arithmetic is exact modulo p.

use crate::field::Field;
use crate::monomial::{Mon, MonoTable};
use crate::poly::HPoly;
use rayon::prelude::*;

/// The row `mult * polys[src]`; with `pivot`, it is the pivot row of its leading monomial (the
/// first generator of an S-pair group), otherwise a row that must reduce to zero.
pub(crate) struct CheckRow {
    pub(crate) mult: Mon,
    pub(crate) src: usize,
    pub(crate) pivot: bool,
}

const NONE: u32 = u32::MAX;

struct Builder {
    /// Every monomial of every row, each once.
    mons: Vec<Mon>,
    /// Per monomial: whether it is in `mons`.
    seen: Vec<bool>,
    /// Per monomial: the pivot row whose leading monomial it is, or `NONE`.
    pivot_of: Vec<u32>,
    /// Pivot rows and rows to reduce: monomials and source polynomial.
    pivots: Vec<(Vec<Mon>, usize)>,
    todo: Vec<(Vec<Mon>, usize)>,
}

impl Builder {
    fn push(&mut self, mult: Mon, src: usize, pivot: bool, polys: &[HPoly], table: &mut MonoTable) {
        let mons: Vec<Mon> = polys[src]
            .mons
            .iter()
            .map(|&t| table.mul(mult, t))
            .collect();
        if self.seen.len() < table.len() {
            let n = table.len().next_power_of_two();
            self.seen.resize(n, false);
            self.pivot_of.resize(n, NONE);
        }
        for &m in &mons {
            if !self.seen[m as usize] {
                self.seen[m as usize] = true;
                self.mons.push(m);
            }
        }
        let lead = mons[0] as usize;
        if pivot && self.pivot_of[lead] == NONE {
            self.pivot_of[lead] = self.pivots.len() as u32;
            self.pivots.push((mons, src));
        } else {
            self.todo.push((mons, src));
        }
    }
}

/// Whether every row of `rows` reduces to zero against the basis `polys[..nb]` (nonzero and
/// monic); `polys[nb..]` are further polynomials that rows may refer to (never reducers).
pub(crate) fn all_rows_reduce_to_zero(
    rows: &[CheckRow],
    polys: &[HPoly],
    nb: usize,
    table: &mut MonoTable,
    field: Field,
) -> bool {
    let mut b = Builder {
        mons: Vec::new(),
        seen: Vec::new(),
        pivot_of: Vec::new(),
        pivots: Vec::new(),
        todo: Vec::new(),
    };
    for r in rows {
        if polys[r.src].is_zero() {
            continue;
        }
        b.push(r.mult, r.src, r.pivot, polys, table);
    }
    if b.todo.is_empty() {
        return true;
    }
    // Symbolic preprocessing: a reducer for every reducible monomial without a pivot row.
    let reducers: Vec<(u32, Mon, usize)> = polys[..nb]
        .iter()
        .enumerate()
        .map(|(g, p)| (table.mask(p.lm()), p.lm(), g))
        .collect();
    let mut k = 0;
    while k < b.mons.len() {
        let m = b.mons[k];
        k += 1;
        if b.pivot_of[m as usize] != NONE {
            continue;
        }
        let mm = !table.mask(m);
        let hit = reducers
            .iter()
            .find(|&&(mask, lm, _)| mask & mm == 0 && table.divides(lm, m))
            .map(|&(_, lm, g)| (lm, g));
        if let Some((lm, g)) = hit {
            let q = table.div(m, lm);
            b.push(q, g, true, polys, table);
        }
        if table.overflow {
            return false;
        }
    }
    // Columns by decreasing monomial: a pivot row's tail lies right of its leading column.
    let mut cols = b.mons;
    cols.sort_unstable_by(|&x, &y| table.cmp(y, x));
    let ncols = cols.len();
    let mut col_of = vec![0u32; table.len()];
    for (c, &m) in cols.iter().enumerate() {
        col_of[m as usize] = c as u32;
    }
    // tails[c]: the tail of the pivot row of column c, packed as `column << 32 | coefficient`.
    let mut tails: Vec<Vec<u64>> = vec![Vec::new(); ncols];
    let mut is_pivot = vec![false; ncols];
    for (mons, src) in &b.pivots {
        let c = col_of[mons[0] as usize] as usize;
        is_pivot[c] = true;
        tails[c] = mons[1..]
            .iter()
            .zip(&polys[*src].cfs[1..])
            .map(|(&m, &v)| u64::from(col_of[m as usize]) << 32 | u64::from(v))
            .collect();
    }
    let todo: Vec<(Vec<u32>, usize)> = b
        .todo
        .into_iter()
        .map(|(mons, src)| (mons.iter().map(|&m| col_of[m as usize]).collect(), src))
        .collect();
    let red = Reducer {
        ncols,
        tails: &tails,
        is_pivot: &is_pivot,
        p: u64::from(field.p()),
        fold: (1u64 << 63) / u64::from(field.p()) * u64::from(field.p()),
    };
    todo.par_iter()
        .with_min_len(4)
        .map_init(
            || vec![0u64; ncols],
            |buf, (row, src)| red.reduces_to_zero(buf, row, &polys[*src].cfs),
        )
        .all(|z| z)
}

struct Reducer<'a> {
    ncols: usize,
    tails: &'a [Vec<u64>],
    is_pivot: &'a [bool],
    p: u64,
    /// The largest multiple of p not above 2^63: entries stay below 2^63 (each added product
    /// is below p^2 < 2^62), subtracted branch-free when an entry reaches 2^63.
    fold: u64,
}

impl Reducer<'_> {
    /// Whether the row (columns `row`, coefficients `cfs`) reduces to zero; leaves `buf`
    /// (`ncols` wide) all zero.
    fn reduces_to_zero(&self, buf: &mut [u64], row: &[u32], cfs: &[u32]) -> bool {
        assert_eq!(buf.len(), self.ncols);
        for (&c, &v) in row.iter().zip(cfs) {
            buf[c as usize] = u64::from(v);
        }
        let first = row.first().map_or(self.ncols, |&c| c as usize);
        for c in first..self.ncols {
            let x = buf[c];
            if x == 0 {
                continue;
            }
            buf[c] = 0;
            let v = x % self.p;
            if v == 0 {
                continue;
            }
            if !self.is_pivot[c] {
                // No later pivot row touches column c: the remainder is nonzero.
                buf[c..].fill(0);
                return false;
            }
            let f = self.p - v;
            for &e in &self.tails[c] {
                let t = (e >> 32) as usize;
                let y = buf[t] + f * (e & 0xffff_ffff);
                buf[t] = y - (self.fold & 0u64.wrapping_sub(y >> 63));
            }
        }
        true
    }
}
