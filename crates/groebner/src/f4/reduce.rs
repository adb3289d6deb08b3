//! Reduction of an F4 matrix: the rows to reduce against the known pivots (sparse rows, dense
//! `u64` accumulators with delayed modular reduction), one by one or, in large fields, as random
//! linear combinations ([`reduce_random`]); an echelon form of what is left (the D block); and
//! reduced row echelon form through the dense elimination kernel.

use super::matrix::Matrix;
use super::symbolic::Row;
use crate::dense::{DenseBackend, DenseError};
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
    /// `floor(2^64 / p)`, for [`Acc::reduce`].
    magic: u64,
}

impl Acc {
    fn new(p: u32) -> Acc {
        let p = u64::from(p);
        Acc {
            p,
            fold: (1u64 << 63) / p * p,
            magic: (u128::from(u64::MAX) + 1).div_euclid(u128::from(p)) as u64,
        }
    }

    /// `x mod p`, by a multiplication: the quotient estimate `x * magic / 2^64` is at most one
    /// below the true quotient, so one subtraction corrects it.
    #[inline(always)]
    fn reduce(&self, x: u64) -> u64 {
        let q = ((u128::from(x) * u128::from(self.magic)) >> 64) as u64;
        let r = x - q * self.p;
        if r >= self.p {
            r - self.p
        } else {
            r
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
    for (&c, &v) in row.of(&mat.cols).iter().zip(cfs).skip(skip) {
        buf[c as usize] = u64::from(v);
        first = first.min(c as usize);
    }
    reduce_loaded::<FOLD>(buf, first, mat, polys, acc)
}

/// Reduces the row held in `buf` (entries below p, zero before column `first`) against the
/// pivot rows, leaving `buf` zeroed; returns the part in the D block, columns relative to
/// `npiv`.
fn reduce_loaded<const FOLD: bool>(
    buf: &mut [u64],
    first: usize,
    mat: &Matrix,
    polys: &[HPoly],
    acc: Acc,
) -> SparseRow {
    assert_eq!(buf.len(), mat.ncols);
    for c in first..mat.npiv {
        let x = buf[c];
        if x == 0 {
            continue;
        }
        buf[c] = 0;
        let v = acc.reduce(x);
        if v == 0 {
            continue;
        }
        let r = &mat.piv[c];
        let cols = &r.of(&mat.cols)[1..];
        let cfs = &polys[r.src as usize].cfs[1..];
        axpy::<FOLD>(buf, cols, cfs, acc.p - v, acc);
    }
    let mut out = SparseRow::default();
    for (c, x) in buf.iter_mut().enumerate().skip(mat.npiv.max(first)) {
        if *x != 0 {
            let v = acc.reduce(*x);
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

/// Consecutive random combinations that must reduce to zero before [`reduce_random`] stops:
/// the least `t` with `p^t >= 2^60`, or `None` when the field is too small for that to be cheap
/// (then the rows are reduced one by one).
pub(crate) fn random_rounds(p: u32) -> Option<usize> {
    let (mut t, mut q) = (1usize, u128::from(p));
    while q < 1 << 60 {
        q *= u128::from(p);
        t += 1;
    }
    (t <= 6).then_some(t)
}

/// A row echelon form (as [`echelon`] returns it) of the D-block parts of `rows` reduced
/// against the pivot rows, computed from random linear combinations of the rows.
///
/// Reduction is linear, so a combination of some rows with uniform coefficients reduces to a
/// uniform element of the space spanned by those rows reduced. While the rows found so far span
/// a proper subspace S of it, a combination lands in S (reduces to zero against them) with
/// probability at most 1/p; stopping after `rounds` such combinations in a row therefore misses
/// part of the space with probability at most `k * p^-rounds` for `k` combinations
/// (`p^-rounds <= 2^-60`). Most rows of an F4 matrix reduce to zero, so this reduces about
/// `rank + rounds` rows instead of all of them.
///
/// The rows are split into blocks, each combined on its own: a combination costs the entries of
/// its block, each block `rounds` extra reductions; `rank_hint` (the rank expected, e.g. the
/// previous matrix's) picks the number of blocks that balances the two. A block in which half
/// as many combinations as rows turn out independent has its rows reduced one by one instead,
/// which bounds the extra work.
pub(crate) fn reduce_random(
    mat: &Matrix,
    rows: &[&Row],
    polys: &[HPoly],
    field: Field,
    rounds: usize,
    seed: u64,
    rank_hint: usize,
) -> Vec<SparseRow> {
    let acc = Acc::new(field.p());
    let nb = mat.ncols - mat.npiv;
    let mut ech = Echelon::new(nb, field);
    let nnz: usize = rows.iter().map(|r| r.len as usize).sum();
    let reduction = mat.pivot_entries();
    let balance = (rank_hint * nnz) as f64 / (rounds * reduction.max(1)) as f64;
    let max_blocks = (rows.len() / (4 * rounds)).max(1);
    let nblocks = (balance.sqrt().round() as usize).clamp(1, max_blocks);
    let size = rows.len().div_ceil(nblocks);
    let batch = rayon::current_num_threads().max(1);
    let mut bufs: Vec<Vec<u64>> = (0..batch).map(|_| vec![0u64; mat.ncols]).collect();
    for (bi, block) in rows.chunks(size).enumerate() {
        let fold_rows = !acc.fits(block.len());
        let fold = !acc.fits(mat.npiv);
        let (mut zeros, mut found, mut k) = (0, 0, 0u64);
        while zeros < rounds {
            if 2 * found >= block.len() {
                for r in reduce_rows(mat, block, 0, polys, field) {
                    ech.insert(&r);
                }
                break;
            }
            let reduced: Vec<SparseRow> = bufs
                .par_iter_mut()
                .enumerate()
                .map(|(i, buf)| {
                    let id = (bi as u64) << 32 | (k + i as u64);
                    let mut rng = Rng::new(seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                    for row in block {
                        let a = rng.below(acc.p);
                        let cfs = &polys[row.src as usize].cfs;
                        if fold_rows {
                            axpy::<true>(buf, row.of(&mat.cols), cfs, a, acc);
                        } else {
                            axpy::<false>(buf, row.of(&mat.cols), cfs, a, acc);
                        }
                    }
                    for x in buf.iter_mut() {
                        if *x != 0 {
                            *x = acc.reduce(*x);
                        }
                    }
                    if fold {
                        reduce_loaded::<true>(buf, 0, mat, polys, acc)
                    } else {
                        reduce_loaded::<false>(buf, 0, mat, polys, acc)
                    }
                })
                .collect();
            k += batch as u64;
            for r in &reduced {
                if ech.insert(r) {
                    found += 1;
                    zeros = 0;
                } else {
                    zeros += 1;
                }
            }
        }
    }
    ech.rows
}

/// A small deterministic generator (xorshift64*) for the combination coefficients.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    /// A value in `[0, n)` (multiply-shift: off uniform by at most `n / 2^64`).
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        ((u128::from(x) * u128::from(n)) >> 64) as u64
    }
}

/// Row echelon form of the nonzero D rows (width `nb`): monic rows, each zero at the leading
/// columns of the rows before it, in the order found.
pub(crate) fn echelon(mut rows: Vec<SparseRow>, nb: usize, field: Field) -> Vec<SparseRow> {
    rows.retain(|r| !r.cols.is_empty());
    rows.sort_by_key(|r| (r.cols[0], r.cols.len()));
    let mut ech = Echelon::new(nb, field);
    for r in rows {
        ech.insert(&r);
    }
    ech.rows
}

/// A row echelon form built one row at a time: monic rows, each zero at the leading columns
/// of the rows before it.
struct Echelon {
    buf: Vec<u64>,
    pivot_of: Vec<u32>,
    rows: Vec<SparseRow>,
    field: Field,
    acc: Acc,
    fold: bool,
}

impl Echelon {
    /// An empty echelon form of width `nb`.
    fn new(nb: usize, field: Field) -> Echelon {
        let acc = Acc::new(field.p());
        Echelon {
            buf: vec![0; nb],
            pivot_of: vec![u32::MAX; nb],
            rows: Vec::new(),
            field,
            acc,
            fold: !acc.fits(nb),
        }
    }

    /// Reduces `row` (columns below the width, values in `[0, p)`) against the rows so far and
    /// keeps what is left, if anything; returns whether a row was added.
    fn insert(&mut self, row: &SparseRow) -> bool {
        if self.fold {
            self.insert_impl::<true>(row)
        } else {
            self.insert_impl::<false>(row)
        }
    }

    fn insert_impl<const FOLD: bool>(&mut self, row: &SparseRow) -> bool {
        let Some(&first) = row.cols.iter().min() else {
            return false;
        };
        let (acc, nb) = (self.acc, self.buf.len());
        let buf = &mut self.buf;
        for (&c, &v) in row.cols.iter().zip(&row.vals) {
            buf[c as usize] = u64::from(v);
        }
        let mut lead = None;
        for c in first as usize..nb {
            let x = buf[c];
            if x == 0 {
                continue;
            }
            let v = acc.reduce(x);
            if v == 0 {
                buf[c] = 0;
                continue;
            }
            let piv = self.pivot_of[c];
            if piv != u32::MAX {
                buf[c] = 0;
                let r = &self.rows[piv as usize];
                axpy::<FOLD>(buf, &r.cols[1..], &r.vals[1..], acc.p - v, acc);
            } else {
                buf[c] = v;
                lead.get_or_insert(c);
            }
        }
        let Some(lead) = lead else { return false };
        let inv = self.field.inv(buf[lead] as u32);
        let mut r = SparseRow::default();
        for (c, x) in buf.iter_mut().enumerate().skip(lead) {
            if *x != 0 {
                r.cols.push(c as u32);
                r.vals.push(self.field.mul(*x as u32, inv));
                *x = 0;
            }
        }
        self.pivot_of[lead] = self.rows.len() as u32;
        self.rows.push(r);
        true
    }
}

/// Reduced row echelon form of an echelon form from [`echelon`], through the dense kernel on
/// the columns that occur. Returns the rows and the dense block's shape.
pub(crate) fn dense_finish(
    ech: Vec<SparseRow>,
    field: Field,
    backend: &dyn DenseBackend,
) -> Result<(Vec<SparseRow>, (usize, usize)), DenseError> {
    let k = ech.len();
    if k <= 1 {
        let w = ech.first().map_or(0, |r| r.cols.len());
        return Ok((ech, (k, w)));
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
    backend.back_substitute(&mut mat, k, w, &leads, field.p())?;
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
    Ok((rows, (k, w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_bound_the_failure_probability() {
        assert_eq!(random_rounds(65521), Some(4));
        assert_eq!(random_rounds(2147483647), Some(2));
        assert_eq!(random_rounds(2), None);
        assert_eq!(random_rounds(101), None);
        for p in [1031u32, 65521, 1073741789, 2147483647] {
            let t = random_rounds(p).expect("large field");
            assert!(u128::from(p).pow(t as u32) >= 1 << 60);
        }
    }

    #[test]
    fn fast_reduction_matches_remainder() {
        for p in [2u32, 3, 65521, 1073741789, 2147483647] {
            let acc = Acc::new(p);
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            for v in [0, 1, u64::from(p) - 1, u64::from(p), u64::MAX, u64::MAX - 1] {
                assert_eq!(acc.reduce(v), v % u64::from(p));
            }
            for _ in 0..10_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                assert_eq!(acc.reduce(x), x % u64::from(p));
            }
        }
    }
}
