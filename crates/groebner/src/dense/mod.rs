//! The dense elimination step of F4: the `#[kernel]` [`gauss_elim`] launched through a
//! warpsafe backend.
//!
//! The default [`CpuBackend`] runs the kernel's body compiled as plain Rust, rows in parallel
//! (`warpsafe::Backend::native`); [`KernelBackend`] launches the same kernel on any warpsafe
//! backend (the checking interpreter, or CUDA, which compiles the kernel's generated CUDA C).
//! Whatever runs, it is the kernel whose IR [`contract`] hands to `warpsafe verify`.

mod kernel;

pub use kernel::{contract, gauss_elim};

/// Threads per block of an elimination launch (one thread per row).
const BLOCK: u32 = 64;

/// Why the dense step failed (a launch error of the backend, e.g. no CUDA device).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("dense elimination on {backend}: {message}")]
pub struct DenseError {
    /// The backend's name.
    pub backend: String,
    /// What went wrong.
    pub message: String,
}

/// A provider of the dense elimination step (the kernel on some warpsafe backend).
pub trait DenseBackend: Send + Sync {
    /// A short name for reports, e.g. `cpu`.
    fn name(&self) -> &str;

    /// One elimination step: every row of `mat` (row-major, `nrows` x `ncols`) subtracts
    /// `mat[row][pivot_col]` times `pivot_row`, modulo `p`. Entries must lie in `[0, p)`; the
    /// pivot row must be zero before `pivot_col` and 1 there, and must not be a row of `mat`.
    fn eliminate_rows(
        &self,
        mat: &mut [u32],
        nrows: usize,
        ncols: usize,
        pivot_row: &[u32],
        pivot_col: usize,
        p: u32,
    ) -> Result<(), DenseError>;

    /// Back substitution on a monic row echelon form in which row `t` (leading column
    /// `leads[t]`, increasing) is zero at the leading columns of all rows before it: afterwards
    /// each leading column is zero outside its own row (reduced row echelon form). The default
    /// runs one [`DenseBackend::eliminate_rows`] step per pivot, last pivot first, on the rows
    /// above it.
    fn back_substitute(
        &self,
        mat: &mut [u32],
        nrows: usize,
        ncols: usize,
        leads: &[usize],
        p: u32,
    ) -> Result<(), DenseError> {
        for t in (1..nrows).rev() {
            let (above, rest) = mat.split_at_mut(t * ncols);
            self.eliminate_rows(above, t, ncols, &rest[..ncols], leads[t], p)?;
        }
        Ok(())
    }
}

/// The kernel on the native CPU backend: its body as plain Rust, blocks of rows in parallel.
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
    ) -> Result<(), DenseError> {
        launch(
            &warpsafe::Backend::native(),
            "cpu",
            mat,
            nrows,
            ncols,
            pivot_row,
            pivot_col,
            p,
        )
    }
}

/// The kernel on any warpsafe backend: `warpsafe::Backend::cpu()` (the checking interpreter,
/// slow) or `warpsafe::Backend::cuda()` (a GPU; every step fails without one).
#[derive(Clone, Debug)]
pub struct KernelBackend {
    backend: warpsafe::Backend,
    name: String,
}

impl KernelBackend {
    /// Launches on `backend`, reported as `name`.
    pub fn new(backend: warpsafe::Backend, name: impl Into<String>) -> KernelBackend {
        KernelBackend {
            backend,
            name: name.into(),
        }
    }

    /// The kernel's generated CUDA C on a GPU (every step fails when there is none).
    pub fn cuda() -> KernelBackend {
        KernelBackend::new(warpsafe::Backend::cuda(), "cuda")
    }

    /// The kernel's IR in the checking interpreter, with overflow an error (slow; for tests).
    pub fn interpreter() -> KernelBackend {
        let backend = warpsafe::Backend::cpu().deny(warpsafe::ir::Category::Overflow);
        KernelBackend::new(backend, "interpreter")
    }
}

impl DenseBackend for KernelBackend {
    fn name(&self) -> &str {
        &self.name
    }

    fn eliminate_rows(
        &self,
        mat: &mut [u32],
        nrows: usize,
        ncols: usize,
        pivot_row: &[u32],
        pivot_col: usize,
        p: u32,
    ) -> Result<(), DenseError> {
        launch(
            &self.backend,
            &self.name,
            mat,
            nrows,
            ncols,
            pivot_row,
            pivot_col,
            p,
        )
    }
}

/// One launch of [`gauss_elim`] with a thread per row.
#[allow(clippy::too_many_arguments)]
fn launch(
    backend: &warpsafe::Backend,
    name: &str,
    mat: &mut [u32],
    nrows: usize,
    ncols: usize,
    pivot_row: &[u32],
    pivot_col: usize,
    p: u32,
) -> Result<(), DenseError> {
    let err = |message: String| DenseError {
        backend: name.to_string(),
        message,
    };
    if nrows == 0 || ncols == 0 {
        return Ok(());
    }
    let size = |x: usize| u32::try_from(x).map_err(|_| err(format!("{x} exceeds 2^32 - 1")));
    let (rows, cols, pcol) = (size(nrows)?, size(ncols)?, size(pivot_col)?);
    let len = nrows
        .checked_mul(ncols)
        .filter(|&l| l <= mat.len() && ncols <= pivot_row.len() && pivot_col < ncols)
        .ok_or_else(|| {
            err(format!(
                "bad shape {nrows}x{ncols}, pivot column {pivot_col}"
            ))
        })?;
    gauss_elim::launch(
        backend,
        rows.div_ceil(BLOCK),
        BLOCK,
        &mut mat[..len],
        &pivot_row[..ncols],
        rows,
        cols,
        pcol,
        p,
    )
    .map(|_| ())
    .map_err(|e| err(e.to_string()))
}

/// Sequential plain-Rust reference of one elimination step (every column, no shortcuts), for
/// differential tests.
pub fn eliminate_rows_reference(
    mat: &mut [u32],
    nrows: usize,
    ncols: usize,
    pivot_row: &[u32],
    pivot_col: usize,
    p: u32,
) {
    let p = u64::from(p);
    for row in mat[..nrows * ncols].chunks_mut(ncols) {
        let factor = u64::from(row[pivot_col]);
        for (x, &v) in row.iter_mut().zip(pivot_row) {
            let prod = factor * u64::from(v) % p;
            *x = ((u64::from(*x) + p - prod) % p) as u32;
        }
    }
}
