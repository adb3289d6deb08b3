//! Reductions: dot_product and the Harris family (one partial sum per block).

use super::Env;

/// `partial[b]` = sum of `x[i] * y[i]` over the `i < n` that block b's grid-stride loop visits:
/// those with `(i / blockDim.x) % gridDim.x == b`.
pub fn dot_product(env: &mut Env) {
    let n = env.usize("n");
    let (bd, gd) = (env.block_x(), env.grid_x());
    let x = env.f32("x").to_vec();
    let y = env.f32("y").to_vec();
    let mut sums = vec![0f64; gd];
    for i in 0..n {
        sums[(i / bd) % gd] += x[i] as f64 * y[i] as f64;
    }
    let partial = env.f32_mut("partial");
    for (dst, s) in partial.iter_mut().zip(sums) {
        *dst = s as f32;
    }
}

/// `g_odata[b]` = sum of `g_idata[i]` over `i < n` in block b's segment of `seg` elements.
fn segment_sums(env: &mut Env, seg: usize) {
    let n = env.usize("n");
    let gd = env.grid_x();
    let input = env.f32("g_idata").to_vec();
    let out = env.f32_mut("g_odata");
    for (b, dst) in out.iter_mut().enumerate().take(gd) {
        let lo = (b * seg).min(n);
        let hi = ((b + 1) * seg).min(n);
        *dst = input[lo..hi].iter().map(|&v| v as f64).sum::<f64>() as f32;
    }
}

/// One sum per `blockDim.x` elements (Harris kernels 1–3).
pub fn block_sums(env: &mut Env) {
    let seg = env.block_x();
    segment_sums(env, seg);
}

/// One sum per `2 * blockDim.x` elements (Harris kernels 4–5: first add during load).
pub fn double_block_sums(env: &mut Env) {
    let seg = 2 * env.block_x();
    segment_sums(env, seg);
}
