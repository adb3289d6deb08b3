//! The native backend against the checking interpreter and plain Rust: the same outputs for
//! every barrier-free example kernel, a fall-back for kernels that need a block to run together,
//! and errors (not panics) for threads that fail.

#[path = "../examples/common/mod.rs"]
mod common;

use common::kernels::*;
use common::{reference, rng::Rng};
use warpsafe::prelude::*;
use warpsafe::Engine;

const SEEDS: [u64; 3] = [5, 6, 7];

#[test]
fn vector_kernels_agree_with_the_interpreter_and_plain_rust() {
    let (cpu, native) = (Backend::cpu(), Backend::native());
    for seed in SEEDS {
        let mut rng = Rng::new(seed);
        let n = rng.range(1, 5000) as usize;
        let (x, y0) = (rng.f32s(n), rng.f32s(n));
        let blocks = (n as u32).div_ceil(128);

        let (mut a, mut b) = (y0.clone(), y0.clone());
        let r = saxpy::launch(&native, blocks, 128, n as i32, 1.5, &x, &mut a).unwrap();
        assert_eq!(r.engine, Engine::Native);
        saxpy::launch(&cpu, blocks, 128, n as i32, 1.5, &x, &mut b).unwrap();
        assert_eq!(a, b);
        assert_eq!(a, reference::saxpy(1.5, &x, &y0));

        let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
        vector_add::launch(&native, blocks, 128, &x, &y0, &mut a, n as i32).unwrap();
        vector_add::launch(&cpu, blocks, 128, &x, &y0, &mut b, n as i32).unwrap();
        assert_eq!(a, b);
        assert_eq!(a, reference::vector_add(&x, &y0));

        let mut a = x.clone();
        vector_square::launch(&native, blocks, 128, &mut a, n as i32).unwrap();
        assert_eq!(a, reference::vector_square(&x));

        let mut a = x.clone();
        let b4 = (n as u32).div_ceil(64 * 4);
        scalar_mul::launch(&native, b4, 64, &mut a, -2.0, n as i32, 4).unwrap();
        assert_eq!(a, reference::scale(-2.0, &x));

        let mut a = vec![0.0; n];
        template_scale::launch(&native, b4, 64, &x, &mut a, 0.5, n as i32, 4).unwrap();
        assert_eq!(a, reference::scale(0.5, &x));
    }
}

#[test]
fn two_dimensional_launches_and_helpers() {
    let native = Backend::native();
    for seed in SEEDS {
        let mut rng = Rng::new(seed);
        let (rows, cols) = (rng.range(1, 48) as usize, rng.range(1, 64) as usize);
        let m = rng.f32s(rows * cols);
        let mut out = vec![0.0; rows * cols];
        matrix_transpose::launch(
            &native,
            (4, 3),
            (16, 16),
            &m,
            &mut out,
            rows as i32,
            cols as i32,
        )
        .unwrap();
        assert_eq!(out, reference::transpose(&m, rows, cols));

        let n = rng.range(1, 40) as usize;
        let (a, b) = (rng.f32s(n * n), rng.f32s(n * n));
        let (mut c, mut d) = (vec![0.0; n * n], vec![0.0; n * n]);
        let g = (n as u32).div_ceil(16);
        matrix_mul::launch(&native, (g, g), (16, 16), &a, &b, &mut c, n as i32).unwrap();
        matrix_mul::launch(&Backend::cpu(), (g, g), (16, 16), &a, &b, &mut d, n as i32).unwrap();
        assert_eq!(c, d);

        // `gauss_elim` calls the `#[kernel_fn]` `mul_mod`.
        let (nrows, ncols, pcol) = (rng.range(1, 300) as usize, rng.range(1, 50) as usize, 0);
        let mat0 = rng.u32s(nrows * ncols, P as u32);
        let mut pivot = rng.u32s(ncols, P as u32);
        pivot[pcol] = 1;
        let mut mat = mat0.clone();
        let (rows32, cols32) = (nrows as i32, ncols as i32);
        let blocks = (nrows as u32).div_ceil(64);
        gauss_elim::launch(&native, blocks, 64, &mut mat, &pivot, rows32, cols32, 0).unwrap();
        assert_eq!(
            mat,
            reference::gauss_elim(&mat0, &pivot, nrows, ncols, pcol, P)
        );
    }
}

#[kernel_fn]
fn bump(out: &mut [u32], seen: &[u32], i: u32) {
    out[i] += seen[i] * 2;
    out[i] <<= 1;
}

#[kernel]
fn buffers_everywhere(x: &[u32], out: &mut [u32], total: &mut [u64]) {
    let i = block_idx().x * block_dim().x + thread_idx().x;
    if (i as u64) < out.len() {
        out[i] = x[i] + 1;
        bump(out, &x, i);
        if i == 0 {
            total[0] = x.len() + out.len() + lane_id() as u64 + grid_dim().x as u64;
        }
    }
}

#[test]
fn writable_buffers_in_helpers_compound_assignment_and_len() {
    let x: Vec<u32> = (0..100).collect();
    let mut outs = [vec![0u32; 100], vec![0u32; 100]];
    let mut totals = [vec![0u64; 1], vec![0u64; 1]];
    for (k, backend) in [Backend::native(), Backend::cpu()].iter().enumerate() {
        buffers_everywhere::launch(backend, 4, 32, &x, &mut outs[k], &mut totals[k]).unwrap();
    }
    assert_eq!(outs[0], outs[1]);
    assert_eq!(totals[0], totals[1]);
    let want: Vec<u32> = x.iter().map(|&v| (3 * v + 1) * 2).collect();
    assert_eq!(outs[0], want);
    assert_eq!(totals[0], vec![204]);
}

#[test]
fn kernels_with_shared_memory_fall_back_to_the_interpreter() {
    let mut rng = Rng::new(1);
    let (x, y) = (rng.f32s(1024), rng.f32s(1024));
    let mut partial = vec![0.0; 4];
    let r = dot_product::launch(&Backend::native(), 4, 256, &x, &y, &mut partial, 1024).unwrap();
    assert_eq!(r.engine, Engine::Cpu);
    let why = r.reason.unwrap_or_default();
    assert!(why.contains("cannot run natively"), "{why}");
    let total: f64 = partial.iter().map(|&v| v as f64).sum();
    assert!((total - reference::dot(&x, &y)).abs() < 1e-2 * reference::dot(&x, &y).abs().max(1.0));
}

#[kernel]
fn off_by_one(x: &mut [f32], n: u32) {
    let i = thread_idx().x;
    if i <= n {
        x[i] = 1.0;
    }
}

#[test]
fn a_failing_thread_is_an_error() {
    let mut x = vec![0.0f32; 8];
    let e = off_by_one::launch(&Backend::native(), 1, 32, &mut x, 8).unwrap_err();
    assert!(matches!(e, LaunchError::Native(_)), "{e}");
    assert!(e.to_string().contains("out of bounds"), "{e}");
    // Launch limits are CUDA's, as in the interpreter.
    let e = off_by_one::launch(&Backend::native(), 0, 32, &mut x, 8).unwrap_err();
    assert!(matches!(e, LaunchError::Exec(_)), "{e}");
    let e = off_by_one::launch(&Backend::native(), 1, 2048, &mut x, 8).unwrap_err();
    assert!(matches!(e, LaunchError::Exec(_)), "{e}");
}

#[test]
fn builtins_outside_a_kernel_still_panic() {
    assert!(std::panic::catch_unwind(thread_idx).is_err());
}

#[kernel]
fn strided_with_local_array(x: &[i32], out: &mut [i32], n: u32) {
    let t = thread_idx().x;
    let mut acc = [0i32; 4];
    for i in (t..n).step_by(block_dim().x) {
        acc[i % 4] += x[i];
    }
    assert_kernel(acc[0] >= 0);
    out[t] = acc[0] - acc[1] + acc[2] - acc[3];
}

#[test]
fn step_by_local_arrays_and_assertions_agree() {
    let x: Vec<i32> = (0..1000).map(|i| (i * 37) % 101).collect();
    let (mut a, mut b) = (vec![0; 64], vec![0; 64]);
    strided_with_local_array::launch(&Backend::native(), 1, 64, &x, &mut a, 1000).unwrap();
    strided_with_local_array::launch(&Backend::cpu(), 1, 64, &x, &mut b, 1000).unwrap();
    assert_eq!(a, b);
    // A failing assertion is an error on both backends.
    let neg: Vec<i32> = x.iter().map(|v| -v - 1).collect();
    let e = strided_with_local_array::launch(&Backend::native(), 1, 64, &neg, &mut a, 1000);
    assert!(matches!(e, Err(LaunchError::Native(_))), "{e:?}");
    let e = strided_with_local_array::launch(&Backend::cpu(), 1, 64, &neg, &mut b, 1000);
    assert!(matches!(e, Err(LaunchError::Findings(_))), "{e:?}");
}
