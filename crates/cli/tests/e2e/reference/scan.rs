//! Per-block prefix sums: exclusive_scan (unsigned, 2 elements per thread), kogge_stone_scan
//! (inclusive) and blelloch_scan (exclusive, with block totals).

use super::Env;

/// Exclusive scan of each `2 * blockDim.x`-element segment of `g_idata`, wrapping `unsigned`
/// sums.
pub fn exclusive_scan(env: &mut Env) {
    let n = env.usize("n");
    let seg = 2 * env.block_x();
    let input = env.u32("g_idata").to_vec();
    let out = env.u32_mut("g_odata");
    for start in (0..n).step_by(seg) {
        let mut acc = 0u32;
        for i in start..(start + seg).min(n) {
            out[i] = acc;
            acc = acc.wrapping_add(input[i]);
        }
    }
}

/// Inclusive scan of each `blockDim.x`-element segment of `x` (elements below n).
pub fn kogge_stone_scan(env: &mut Env) {
    let n = env.usize("n");
    let seg = env.block_x();
    let x = env.f32("x").to_vec();
    let y = env.f32_mut("y");
    for start in (0..n).step_by(seg) {
        let mut acc = 0f64;
        for i in start..(start + seg).min(n) {
            acc += x[i] as f64;
            y[i] = acc as f32;
        }
    }
}

/// Exclusive scan of each `blockDim.x`-element segment of `x` (elements at or past n count as
/// zero) into `y` (below n), and each segment's total into `block_sums`.
pub fn blelloch_scan(env: &mut Env) {
    let n = env.usize("n");
    let seg = env.block_x();
    let blocks = env.grid_x();
    let x = env.f32("x").to_vec();
    let mut sums = vec![0f64; blocks];
    {
        let y = env.f32_mut("y");
        for (b, total) in sums.iter_mut().enumerate() {
            let mut acc = 0f64;
            for i in b * seg..((b + 1) * seg).min(n) {
                y[i] = acc as f32;
                acc += x[i] as f64;
            }
            *total = acc;
        }
    }
    let block_sums = env.f32_mut("block_sums");
    for (dst, total) in block_sums.iter_mut().zip(sums) {
        *dst = total as f32;
    }
}
