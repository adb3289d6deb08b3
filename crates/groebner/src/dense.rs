//! The dense elimination step of F4, written as a GPU kernel.
//!
//! [`eliminate_rows`] mirrors `examples/kernels/gauss_elim.cu` line for line: one logical thread
//! per row, entries stored as `u32` residues in `[0, p)` (the kernel's `unsigned int*`),
//! products formed in 64 bits, and
//! `mat[row*ncols+col] = (mat[row*ncols+col] + p - factor * pivot_row[col] % p) % p` with
//! `factor = mat[row*ncols+pivot_col]` read before the column loop. The only difference is that
//! `p` is a parameter (the `.cu` file fixes `P = 65521`); keeping the semantics identical is what
//! makes the kernel proved race-free, in-bounds and overflow-free by `warpsafe verify` the one
//! that runs here. Natively the threads are rayon tasks over rows; a GPU backend replaces the
//! whole step through [`DenseBackend`].

use rayon::prelude::*;

/// Rows per rayon task: below this a launch is not worth splitting.
const ROWS_PER_TASK: usize = 16;

/// A provider of the dense elimination step (the CPU kernel, or a GPU launch of the same kernel).
pub trait DenseBackend: Send + Sync {
    /// A short name for reports, e.g. `cpu`.
    fn name(&self) -> &str;

    /// One elimination step: every row of `mat` (row-major, `nrows` x `ncols`) subtracts
    /// `mat[row][pivot_col]` times `pivot_row`, modulo `p`. Entries must lie in `[0, p)`, the
    /// pivot row must have a 1 in `pivot_col`, and it must not be one of the rows of `mat`.
    fn eliminate_rows(
        &self,
        mat: &mut [u32],
        nrows: usize,
        ncols: usize,
        pivot_row: &[u32],
        pivot_col: usize,
        p: u32,
    );

    /// Back substitution on a monic row echelon form in which row `t` (leading column
    /// `leads[t]`) is zero at the leading columns of all rows before it: afterwards each
    /// leading column is zero outside its own row (reduced row echelon form). The default runs
    /// one [`DenseBackend::eliminate_rows`] step per pivot, last pivot first, on the rows above it.
    fn back_substitute(
        &self,
        mat: &mut [u32],
        nrows: usize,
        ncols: usize,
        leads: &[usize],
        p: u32,
    ) {
        for t in (1..nrows).rev() {
            let (above, rest) = mat.split_at_mut(t * ncols);
            self.eliminate_rows(above, t, ncols, &rest[..ncols], leads[t], p);
        }
    }
}

/// The kernel run on the CPU, rows in parallel with rayon.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuBackend;

impl DenseBackend for CpuBackend {
    fn name(&self) -> &str {
        "cpu"
    }

    fn eliminate_rows(
        &self,
        mat: &mut [u32],
        nrows: usize,
        ncols: usize,
        pivot_row: &[u32],
        pivot_col: usize,
        p: u32,
    ) {
        eliminate_rows(mat, nrows, ncols, pivot_row, pivot_col, p);
    }
}

/// One thread of the kernel: the body of `gauss_elim` for one row.
#[inline(always)]
fn thread_body(row: &mut [u32], pivot_row: &[u32], pivot_col: usize, p: u64) {
    let factor = u64::from(row[pivot_col]);
    for col in 0..row.len() {
        let prod = factor * u64::from(pivot_row[col]) % p;
        row[col] = ((u64::from(row[col]) + p - prod) % p) as u32;
    }
}

/// [`thread_body`] with the prime known at compile time (the same arithmetic; the compiler
/// replaces the divisions by multiplications).
#[inline(always)]
fn thread_body_const<const P: u64>(row: &mut [u32], pivot_row: &[u32], pivot_col: usize) {
    thread_body(row, pivot_row, pivot_col, P);
}

/// The elimination kernel (see the module documentation): all `nrows` rows of `mat`, in
/// parallel, subtract `mat[row][pivot_col]` times `pivot_row`, modulo `p`.
///
/// # Panics
/// If `mat` holds fewer than `nrows * ncols` entries, `pivot_row` fewer than `ncols`, or
/// `pivot_col >= ncols` (the kernel's preconditions `len(mat) = nrows * ncols`,
/// `len(pivot_row) = ncols`, `pcol < ncols`).
pub fn eliminate_rows(
    mat: &mut [u32],
    nrows: usize,
    ncols: usize,
    pivot_row: &[u32],
    pivot_col: usize,
    p: u32,
) {
    if nrows == 0 || ncols == 0 {
        return;
    }
    assert!(mat.len() >= nrows * ncols && pivot_row.len() >= ncols && pivot_col < ncols);
    let pivot_row = &pivot_row[..ncols];
    let rows = mat[..nrows * ncols]
        .par_chunks_mut(ncols)
        .with_min_len(ROWS_PER_TASK);
    if p == 65521 {
        rows.for_each(|row| thread_body_const::<65521>(row, pivot_row, pivot_col));
    } else {
        let p = u64::from(p);
        rows.for_each(|row| thread_body(row, pivot_row, pivot_col, p));
    }
}

/// Sequential reference of [`eliminate_rows`], used by the differential tests.
pub fn eliminate_rows_reference(
    mat: &mut [u32],
    nrows: usize,
    ncols: usize,
    pivot_row: &[u32],
    pivot_col: usize,
    p: u32,
) {
    let p = u64::from(p);
    for row in 0..nrows {
        let factor = u64::from(mat[row * ncols + pivot_col]);
        for col in 0..ncols {
            let prod = factor * u64::from(pivot_row[col]) % p;
            mat[row * ncols + col] = ((u64::from(mat[row * ncols + col]) + p - prod) % p) as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn kernel_matches_naive_elimination() {
        let mut s = 0x1234_5678_9abc_def1u64;
        for &p in &[65521u32, 2, 7, 2147483647, 1073741789] {
            for _ in 0..20 {
                let nrows = (rng(&mut s) % 70) as usize;
                let ncols = 1 + (rng(&mut s) % 40) as usize;
                let pcol = (rng(&mut s) as usize) % ncols;
                let mut mat: Vec<u32> = (0..nrows * ncols)
                    .map(|_| (rng(&mut s) % u64::from(p)) as u32)
                    .collect();
                let mut piv: Vec<u32> = (0..ncols)
                    .map(|_| (rng(&mut s) % u64::from(p)) as u32)
                    .collect();
                piv[pcol] = 1;
                let before = mat.clone();
                let mut expect = mat.clone();
                eliminate_rows_reference(&mut expect, nrows, ncols, &piv, pcol, p);
                eliminate_rows(&mut mat, nrows, ncols, &piv, pcol, p);
                assert_eq!(mat, expect);
                // Independent check in exact integer arithmetic: row - factor * pivot mod p.
                for r in 0..nrows {
                    let f = i128::from(before[r * ncols + pcol]);
                    for c in 0..ncols {
                        let want = (i128::from(before[r * ncols + c]) - f * i128::from(piv[c]))
                            .rem_euclid(i128::from(p));
                        assert_eq!(i128::from(mat[r * ncols + c]), want);
                    }
                    assert_eq!(mat[r * ncols + pcol], 0);
                }
            }
        }
    }
}
