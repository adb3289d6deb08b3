//! The example kernels, written with `#[kernel]`. Signatures follow the CUDA-C versions in
//! `examples/kernels/*.cu` (same parameter order and types), so both can run on the same inputs.

use warpsafe::prelude::*;

/// `y[i] = a * x[i] + y[i]` with a grid-stride loop.
#[kernel]
pub fn saxpy(n: i32, a: f32, x: &[f32], y: &mut [f32]) {
    let mut i = (block_idx().x * block_dim().x + thread_idx().x) as i32;
    while i < n {
        y[i] = a * x[i] + y[i];
        i += (block_dim().x * grid_dim().x) as i32;
    }
}

/// `c[i] = a[i] + b[i]`, one thread per element.
#[kernel]
pub fn vector_add(a: &[f32], b: &[f32], c: &mut [f32], n: i32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as i32;
    if i < n {
        c[i] = a[i] + b[i];
    }
}

/// `x[i] = x[i]²` in place.
#[kernel]
pub fn vector_square(x: &mut [f32], n: i32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as i32;
    if i < n {
        let v = x[i];
        x[i] = v * v;
    }
}

/// `x[i] *= alpha`, a contiguous chunk of `per_thread` elements per thread, clipped to `n`.
#[kernel]
pub fn scalar_mul(x: &mut [f32], alpha: f32, n: i32, per_thread: i32) {
    let t = (block_idx().x * block_dim().x + thread_idx().x) as i32;
    let begin = t * per_thread;
    let end = (begin + per_thread).min(n);
    for i in begin..end {
        x[i] *= alpha;
    }
}

/// `y[i] = alpha * x[i]`, `items` per thread in the blocked layout of CUB-style kernels.
#[kernel]
pub fn template_scale(x: &[f32], y: &mut [f32], alpha: f32, n: i32, items: i32) {
    let tile = (block_idx().x * block_dim().x) as i32 * items;
    for j in 0..items {
        let i = tile + j * block_dim().x as i32 + thread_idx().x as i32;
        if i < n {
            y[i] = alpha * x[i];
        }
    }
}

/// Naive transpose: `out (cols x rows) = transpose(input (rows x cols))`.
#[kernel]
pub fn matrix_transpose(input: &[f32], out: &mut [f32], rows: i32, cols: i32) {
    let x = (block_idx().x * block_dim().x + thread_idx().x) as i32;
    let y = (block_idx().y * block_dim().y + thread_idx().y) as i32;
    if x < cols && y < rows {
        out[x * rows + y] = input[y * cols + x];
    }
}

/// Side of the transpose tile.
pub const TILE_DIM: u32 = 32;
/// Rows of the tile each 32 x 8 block moves per step.
pub const BLOCK_ROWS: u32 = 8;

/// Tiled transpose through a 32 x 33 shared tile (one column of padding against bank conflicts).
#[kernel]
pub fn matrix_transpose_tiled(input: &[f32], out: &mut [f32], rows: i32, cols: i32) {
    let tile = shared2::<f32, { TILE_DIM as usize }, { TILE_DIM as usize + 1 }>();
    let mut x = (block_idx().x * TILE_DIM + thread_idx().x) as i32;
    let mut y = (block_idx().y * TILE_DIM + thread_idx().y) as i32;
    for j in (0..TILE_DIM).step_by(BLOCK_ROWS as usize) {
        tile[thread_idx().y + j][thread_idx().x] = input[(y + j as i32) * cols + x];
    }
    sync_threads();
    x = (block_idx().y * TILE_DIM + thread_idx().x) as i32;
    y = (block_idx().x * TILE_DIM + thread_idx().y) as i32;
    for j in (0..TILE_DIM).step_by(BLOCK_ROWS as usize) {
        out[(y + j as i32) * rows + x] = tile[thread_idx().x][thread_idx().y + j];
    }
}

/// Naive `C = A * B` (n x n), one dot product per thread.
#[kernel]
pub fn matrix_mul(a: &[f32], b: &[f32], c: &mut [f32], n: i32) {
    let row = (block_idx().y * block_dim().y + thread_idx().y) as i32;
    let col = (block_idx().x * block_dim().x + thread_idx().x) as i32;
    if row < n && col < n {
        let mut sum = 0.0;
        for k in 0..n {
            sum += a[row * n + k] * b[k * n + col];
        }
        c[row * n + col] = sum;
    }
}

/// Side of the matrix-multiplication tiles.
pub const TILE: i32 = 16;

/// Tiled `C = A * B` through two 16 x 16 shared tiles; two barriers per phase.
#[kernel]
pub fn matrix_mul_tiled(a: &[f32], b: &[f32], c: &mut [f32], n: i32) {
    let a_s = shared2::<f32, 16, 16>();
    let b_s = shared2::<f32, 16, 16>();
    let tx = thread_idx().x as i32;
    let ty = thread_idx().y as i32;
    let row = block_idx().y as i32 * TILE + ty;
    let col = block_idx().x as i32 * TILE + tx;
    let mut sum = 0.0f32;
    for t in 0..n / TILE {
        a_s[ty][tx] = a[row * n + t * TILE + tx];
        b_s[ty][tx] = b[(t * TILE + ty) * n + col];
        sync_threads();
        for k in 0..TILE {
            sum += a_s[ty][k] * b_s[k][tx];
        }
        sync_threads();
    }
    c[row * n + col] = sum;
}

/// Work-efficient (Blelloch) exclusive scan of each block's `2 * block_dim().x` unsigned integers
/// (wrapping sums), in
/// dynamic shared memory (launch with `2 * block_dim().x * 4` bytes).
#[kernel]
pub fn exclusive_scan(g_idata: &[u32], g_odata: &mut [u32], n: i32) {
    let temp = dyn_shared::<u32>();
    let tid = thread_idx().x as i32;
    let m = 2 * block_dim().x as i32;
    let base = block_idx().x as i32 * m;
    requires(base + m <= n);
    temp[2 * tid] = g_idata[base + 2 * tid];
    temp[2 * tid + 1] = g_idata[base + 2 * tid + 1];

    let mut offset = 1;
    let mut d = m >> 1;
    while d > 0 {
        sync_threads();
        if tid < d {
            let ai = offset * (2 * tid + 1) - 1;
            let bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
        d >>= 1;
    }

    if tid == 0 {
        temp[m - 1] = 0;
    }

    let mut d = 1;
    while d < m {
        offset >>= 1;
        sync_threads();
        if tid < d {
            let ai = offset * (2 * tid + 1) - 1;
            let bi = offset * (2 * tid + 2) - 1;
            let t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
        d *= 2;
    }
    sync_threads();

    g_odata[base + 2 * tid] = temp[2 * tid];
    g_odata[base + 2 * tid + 1] = temp[2 * tid + 1];
}

/// Dot product, first stage: grid-stride products, a shared-memory tree per block, one partial
/// sum per block (the host adds the partials).
#[kernel]
pub fn dot_product(x: &[f32], y: &[f32], partial: &mut [f32], n: i32) {
    let cache = shared::<f32, 256>();
    let tid = thread_idx().x;
    let mut temp = 0.0;
    let mut i = (block_idx().x * block_dim().x + tid) as i32;
    while i < n {
        temp += x[i] * y[i];
        i += (block_dim().x * grid_dim().x) as i32;
    }
    cache[tid] = temp;
    sync_threads();

    let mut s = block_dim().x / 2;
    while s > 0 {
        if tid < s {
            cache[tid] += cache[tid + s];
        }
        sync_threads();
        s >>= 1;
    }

    if tid == 0 {
        partial[block_idx().x] = cache[0];
    }
}

/// The prime of the F4 field, the largest below 2^16.
pub const P: u64 = 65521;

/// `a * b mod p` with 64-bit intermediates (a helper, inlined into kernels; also callable on
/// the host).
#[kernel_fn]
pub fn mul_mod(a: u64, b: u64) -> u64 {
    a * b % P
}

/// One F4 elimination step over F_p: row `r` subtracts `mat[r][pcol]` times the pivot row,
/// modulo p; one thread per row.
#[kernel]
pub fn gauss_elim(mat: &mut [u32], pivot_row: &[u32], nrows: i32, ncols: i32, pcol: i32) {
    let row = (block_idx().x * block_dim().x + thread_idx().x) as i32;
    if row >= nrows {
        return;
    }
    let factor = mat[row * ncols + pcol] as u64;
    for col in 0..ncols {
        let prod = mul_mod(factor, pivot_row[col] as u64);
        mat[row * ncols + col] = ((mat[row * ncols + col] as u64 + P - prod) % P) as u32;
    }
}
