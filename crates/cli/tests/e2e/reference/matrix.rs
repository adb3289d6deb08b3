//! Matrix kernels: transposes (naive and tiled) and products (naive and tiled).

use super::Env;

/// `out` (cols x rows) = transpose of `in` (rows x cols), both row-major.
pub fn matrix_transpose(env: &mut Env) {
    let rows = env.usize("rows");
    let cols = env.usize("cols");
    let input = env.f32("in").to_vec();
    let out = env.f32_mut("out");
    for r in 0..rows {
        for c in 0..cols {
            out[c * rows + r] = input[r * cols + c];
        }
    }
}

/// `C = A * B` for square n x n row-major matrices (sums in `f64`).
pub fn matrix_mul(env: &mut Env) {
    let n = env.usize("n");
    let a = env.f32("A").to_vec();
    let b = env.f32("B").to_vec();
    let c = env.f32_mut("C");
    for row in 0..n {
        for col in 0..n {
            let sum: f64 = (0..n)
                .map(|k| a[row * n + k] as f64 * b[k * n + col] as f64)
                .sum();
            c[row * n + col] = sum as f32;
        }
    }
}
