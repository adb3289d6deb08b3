//! Reduction of an F4 matrix: the rows to reduce against the known pivots (sparse rows, dense
//! `u64` accumulators with delayed modular reduction), an echelon form of what is left (the D
//! block), and reduced row echelon form through the dense elimination kernel.

use super::matrix::Matrix;
use super::symbolic::Row;
use crate::dense::DenseBackend;
use crate::field::Field;
use crate::poly::HPoly;
use rayon::prelude::*;

/// A sparse row: increasing column indices and nonzero values in `[1, p)`.
#[derive(Clone, Debug, Default)]
pub(crate) struct SparseRow {
    pub(crate) cols: Vec<u32>,
    pub(crate) vals: Vec<u32>,
}

/// How accumulators stay below 2^64.
#[derive(Clone, Copy)]
struct Acc {
    p: u64,
    /// The largest multiple of p not above 2^63, subtracted when an entry reaches 2^63.
    fold: u64,
}

impl Acc {
    fn new(p: u32) -> Acc {
        let p = u64::from(p);
        Acc {
            p,
            fold: (1u64 << 63) / p * p,
        }
    }

    /// Whether `hits` products below p^2 can be added to a residue without overflow, so
    /// entries are reduced only when read.
    fn fits(&self, hits: usize) -> bool {
        let sq = u128::from(self.p - 1) * u128::from(self.p - 1);
        sq * (hits as u128 + 1) + u128::from(self.p) < u128::from(u64::MAX)
    }
}

/// `buf[cols[k]] += f * vals[k]`; with `FOLD`, entries are kept below 2^63 branch-free.
///
/// `buf` must be exactly as wide as the matrix whose row `cols` is: every column index of a
/// row of a [`Matrix`] is below `ncols` (asserted when the matrix is built) and every column of
/// an echelon row is below the D width `nb` (it comes from a D column of `reduce_row`).
#[inline(always)]
fn axpy<const FOLD: bool>(buf: &mut [u64], cols: &[u32], vals: &[u32], f: u64, acc: Acc) {
    let n = cols.len().min(vals.len());
    debug_assert!(cols.iter().all(|&c| (c as usize) < buf.len()));
    let ptr = buf.as_mut_ptr();
    for k in 0..n {
        // SAFETY: `k < n` bounds both slices; `cols[k] < buf.len()` by the invariant above.
        unsafe {
            let c = *cols.get_unchecked(k) as usize;
            let x = *ptr.add(c) + f * u64::from(*vals.get_unchecked(k));
            *ptr.add(c) = if FOLD {
                x - (acc.fold & 0u64.wrapping_sub(x >> 63))
            } else {
                x
            };
        }
    }
}

/// [`axpy`] over a packed tail (`column << 32 | value`), same invariant on the columns.
#[inline(always)]
fn axpy_packed<const FOLD: bool>(buf: &mut [u64], tail: &[u64], f: u64, acc: Acc) {
    debug_assert!(tail.iter().all(|&e| ((e >> 32) as usize) < buf.len()));
    let ptr = buf.as_mut_ptr();
    for &e in tail {
        // SAFETY: the column `e >> 32` is below `buf.len()` (see `axpy`).
        unsafe {
            let c = (e >> 32) as usize;
            let x = *ptr.add(c) + f * (e & 0xffff_ffff);
            *ptr.add(c) = if FOLD {
                x - (acc.fold & 0u64.wrapping_sub(x >> 63))
            } else {
                x
            };
        }
    }
}

/// Reduces one row (skipping its first `skip` entries) against the pivot rows; returns the
/// part in the D block, columns relative to `npiv`.
fn reduce_row<const FOLD: bool>(
    buf: &mut [u64],
    row: &Row,
    skip: usize,
    mat: &Matrix,
    polys: &[HPoly],
    acc: Acc,
) -> SparseRow {
    assert_eq!(buf.len(), mat.ncols);
    let cfs = &polys[row.src as usize].cfs;
    let mut first = mat.ncols;
    for (&c, &v) in row.cols.iter().zip(cfs).skip(skip) {
        buf[c as usize] = u64::from(v);
        first = first.min(c as usize);
    }
    for c in first..mat.npiv {
        let x = buf[c];
        if x == 0 {
            continue;
        }
        buf[c] = 0;
        let v = x % acc.p;
        if v == 0 {
            continue;
        }
        axpy_packed::<FOLD>(buf, &mat.tails[c], acc.p - v, acc);
    }
    let mut out = SparseRow::default();
    for (c, x) in buf.iter_mut().enumerate().skip(mat.npiv.max(first)) {
        if *x != 0 {
            let v = *x % acc.p;
            *x = 0;
            if v != 0 {
                out.cols.push((c - mat.npiv) as u32);
                out.vals.push(v as u32);
            }
        }
    }
    out
}

/// Reduces `rows` (each without its first `skip` entries) against the pivot rows of `mat`, in
/// parallel; returns their D-block parts in the same order (possibly empty).
pub(crate) fn reduce_rows(
    mat: &Matrix,
    rows: &[&Row],
    skip: usize,
    polys: &[HPoly],
    field: Field,
) -> Vec<SparseRow> {
    let acc = Acc::new(field.p());
    let fold = !acc.fits(mat.npiv);
    rows.par_iter()
        .with_min_len(8)
        .map_init(
            || vec![0u64; mat.ncols],
            |buf, row| {
                if fold {
                    reduce_row::<true>(buf, row, skip, mat, polys, acc)
                } else {
                    reduce_row::<false>(buf, row, skip, mat, polys, acc)
                }
            },
        )
        .collect()
}

/// Row echelon form of the nonzero D rows (width `nb`): monic rows, each zero at the leading
/// columns of the rows before it, in the order found.
pub(crate) fn echelon(mut rows: Vec<SparseRow>, nb: usize, field: Field) -> Vec<SparseRow> {
    rows.retain(|r| !r.cols.is_empty());
    rows.sort_by_key(|r| (r.cols[0], r.cols.len()));
    let acc = Acc::new(field.p());
    if acc.fits(nb) {
        echelon_impl::<false>(rows, nb, field, acc)
    } else {
        echelon_impl::<true>(rows, nb, field, acc)
    }
}

fn echelon_impl<const FOLD: bool>(
    rows: Vec<SparseRow>,
    nb: usize,
    field: Field,
    acc: Acc,
) -> Vec<SparseRow> {
    let mut buf = vec![0u64; nb];
    let mut pivot_of = vec![u32::MAX; nb];
    let mut out: Vec<SparseRow> = Vec::new();
    for row in rows {
        for (&c, &v) in row.cols.iter().zip(&row.vals) {
            buf[c as usize] = u64::from(v);
        }
        let first = row.cols[0] as usize;
        let mut lead = None;
        for c in first..nb {
            let x = buf[c];
            if x == 0 {
                continue;
            }
            let v = x % acc.p;
            if v == 0 {
                buf[c] = 0;
                continue;
            }
            let piv = pivot_of[c];
            if piv != u32::MAX {
                buf[c] = 0;
                let r = &out[piv as usize];
                axpy::<FOLD>(&mut buf, &r.cols[1..], &r.vals[1..], acc.p - v, acc);
            } else {
                buf[c] = v;
                lead.get_or_insert(c);
            }
        }
        let Some(lead) = lead else { continue };
        let inv = field.inv(buf[lead] as u32);
        let mut r = SparseRow::default();
        for (c, x) in buf.iter_mut().enumerate().skip(lead) {
            if *x != 0 {
                r.cols.push(c as u32);
                r.vals.push(field.mul(*x as u32, inv));
                *x = 0;
            }
        }
        pivot_of[lead] = out.len() as u32;
        out.push(r);
    }
    out
}

/// Reduced row echelon form of an echelon form from [`echelon`], through the dense kernel on
/// the columns that occur. Returns the rows and the dense block's shape.
pub(crate) fn dense_finish(
    ech: Vec<SparseRow>,
    field: Field,
    backend: &dyn DenseBackend,
) -> (Vec<SparseRow>, (usize, usize)) {
    let k = ech.len();
    if k <= 1 {
        let w = ech.first().map_or(0, |r| r.cols.len());
        return (ech, (k, w));
    }
    let mut used: Vec<u32> = ech.iter().flat_map(|r| r.cols.iter().copied()).collect();
    used.sort_unstable();
    used.dedup();
    let w = used.len();
    let pos = |c: u32| used.binary_search(&c).expect("column of a row is used");
    let mut mat = vec![0u32; k * w];
    let mut leads = Vec::with_capacity(k);
    for (t, r) in ech.iter().enumerate() {
        for (&c, &v) in r.cols.iter().zip(&r.vals) {
            mat[t * w + pos(c)] = v;
        }
        leads.push(pos(r.cols[0]));
    }
    backend.back_substitute(&mut mat, k, w, &leads, field.p());
    let rows = (0..k)
        .map(|t| {
            let mut r = SparseRow::default();
            for (j, &v) in mat[t * w..(t + 1) * w].iter().enumerate() {
                if v != 0 {
                    r.cols.push(used[j]);
                    r.vals.push(v);
                }
            }
            r
        })
        .collect();
    (rows, (k, w))
}
