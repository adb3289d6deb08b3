//! Element-wise vector kernels: vector_add, vector_square, saxpy, scalar_mul, template_scale.

use super::Env;

/// `c[i] = a[i] + b[i]` for `i < n`.
pub fn vector_add(env: &mut Env) {
    let n = env.usize("n");
    let a = env.f32("a").to_vec();
    let b = env.f32("b").to_vec();
    let c = env.f32_mut("c");
    for i in 0..n {
        c[i] = a[i] + b[i];
    }
}

/// `x[i] = x[i] * x[i]` for `i < n`.
pub fn vector_square(env: &mut Env) {
    let n = env.usize("n");
    for v in &mut env.f32_mut("x")[..n] {
        *v *= *v;
    }
}

/// `y[i] = a * x[i] + y[i]` for `i < n`.
pub fn saxpy(env: &mut Env) {
    let n = env.usize("n");
    let a = env.float("a");
    let x = env.f32("x").to_vec();
    let y = env.f32_mut("y");
    for i in 0..n {
        y[i] += a * x[i];
    }
}

/// `x[i] = x[i] * alpha` for `i < n`.
pub fn scalar_mul(env: &mut Env) {
    let n = env.usize("n");
    let alpha = env.float("alpha");
    for v in &mut env.f32_mut("x")[..n] {
        *v *= alpha;
    }
}

/// `y[i] = alpha * x[i]` for `i < n`.
pub fn template_scale(env: &mut Env) {
    let n = env.usize("n");
    let alpha = env.float("alpha");
    let x = env.f32("x").to_vec();
    let y = env.f32_mut("y");
    for i in 0..n {
        y[i] = alpha * x[i];
    }
}
