//! Plain-Rust references for the example kernels.

/// `a * x + y`.
pub fn saxpy(a: f32, x: &[f32], y: &[f32]) -> Vec<f32> {
    x.iter().zip(y).map(|(x, y)| a * x + y).collect()
}

/// `a + b`.
pub fn vector_add(a: &[f32], b: &[f32]) -> Vec<f32> {
    a.iter().zip(b).map(|(a, b)| a + b).collect()
}

/// `x²`.
pub fn vector_square(x: &[f32]) -> Vec<f32> {
    x.iter().map(|v| v * v).collect()
}

/// `alpha * x`.
pub fn scale(alpha: f32, x: &[f32]) -> Vec<f32> {
    x.iter().map(|v| v * alpha).collect()
}

/// The transpose of a `rows x cols` row-major matrix.
pub fn transpose(m: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut out = vec![0.0; rows * cols];
    for y in 0..rows {
        for x in 0..cols {
            out[x * rows + y] = m[y * cols + x];
        }
    }
    out
}

/// `a * b` for `n x n` row-major matrices (sums in ascending `k`).
pub fn matrix_mul(a: &[f32], b: &[f32], n: usize) -> Vec<f32> {
    let mut c = vec![0.0; n * n];
    for r in 0..n {
        for col in 0..n {
            let mut s = 0.0f32;
            for k in 0..n {
                s += a[r * n + k] * b[k * n + col];
            }
            c[r * n + col] = s;
        }
    }
    c
}

/// Exclusive prefix sums of consecutive segments of `seg` elements (wrapping, as `i32`).
pub fn exclusive_scan(x: &[u32], seg: usize) -> Vec<u32> {
    let mut out = vec![0; x.len()];
    for (chunk_in, chunk_out) in x.chunks(seg).zip(out.chunks_mut(seg)) {
        let mut acc = 0u32;
        for (i, o) in chunk_in.iter().zip(chunk_out) {
            *o = acc;
            acc = acc.wrapping_add(*i);
        }
    }
    out
}

/// `x · y` in `f64`.
pub fn dot(x: &[f32], y: &[f32]) -> f64 {
    x.iter().zip(y).map(|(a, b)| *a as f64 * *b as f64).sum()
}

/// The F4 elimination step: every row minus `row[pcol]` times the pivot row, mod `p`.
pub fn gauss_elim(
    mat: &[u32],
    pivot: &[u32],
    nrows: usize,
    ncols: usize,
    pcol: usize,
    p: u64,
) -> Vec<u32> {
    let mut out = mat.to_vec();
    for r in 0..nrows {
        let f = mat[r * ncols + pcol] as u64;
        for c in 0..ncols {
            let prod = f * pivot[c] as u64 % p;
            out[r * ncols + c] = ((out[r * ncols + c] as u64 + p - prod) % p) as u32;
        }
    }
    out
}

/// True when `a` and `b` agree to a relative tolerance.
pub fn close(a: &[f32], b: &[f32], tol: f32) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= tol * (1.0 + x.abs().max(y.abs())))
}
