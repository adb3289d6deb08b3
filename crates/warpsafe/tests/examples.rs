//! Every example kernel on the CPU backend against its plain-Rust reference, on random inputs
//! from several seeds; each run must also be free of findings.

#[path = "../examples/common/mod.rs"]
mod common;

use common::kernels::*;
use common::{reference, rng::Rng};
use warpsafe::ir::Category;
use warpsafe::{launch_config, Backend, Report};

const SEEDS: [u64; 3] = [11, 22, 33];

fn clean(r: Report) {
    assert!(r.is_clean(), "{r}");
}

#[test]
fn saxpy_vector_ops_and_scaling() {
    let cpu = Backend::cpu();
    for seed in SEEDS {
        let mut rng = Rng::new(seed);
        let n = rng.range(1, 4000) as usize;
        let (x, y0) = (rng.f32s(n), rng.f32s(n));

        let mut y = y0.clone();
        clean(saxpy::launch(&cpu, 8, 128, n as i32, 1.5, &x, &mut y).unwrap());
        assert_eq!(y, reference::saxpy(1.5, &x, &y0));

        let mut c = vec![0.0; n];
        clean(vector_add::launch(&cpu, 16, 256, &x, &y0, &mut c, n as i32).unwrap());
        assert_eq!(c, reference::vector_add(&x, &y0));

        let mut sq = x.clone();
        clean(vector_square::launch(&cpu, 16, 256, &mut sq, n as i32).unwrap());
        assert_eq!(sq, reference::vector_square(&x));

        let mut s = x.clone();
        clean(scalar_mul::launch(&cpu, 8, 128, &mut s, -2.0, n as i32, 4).unwrap());
        assert_eq!(s, reference::scale(-2.0, &x));

        let mut t = vec![0.0; n];
        clean(template_scale::launch(&cpu, 8, 128, &x, &mut t, 0.5, n as i32, 4).unwrap());
        assert_eq!(t, reference::scale(0.5, &x));
    }
}

#[test]
fn transposes() {
    let cpu = Backend::cpu();
    for seed in SEEDS {
        let mut rng = Rng::new(seed);
        let (rows, cols) = (rng.range(1, 48) as usize, rng.range(1, 64) as usize);
        let m = rng.f32s(rows * cols);
        let mut out = vec![0.0; rows * cols];
        clean(
            matrix_transpose::launch(
                &cpu,
                (4, 3),
                (16, 16),
                &m,
                &mut out,
                rows as i32,
                cols as i32,
            )
            .unwrap(),
        );
        assert_eq!(out, reference::transpose(&m, rows, cols));

        let (gx, gy) = (rng.range(1, 4) as u32, rng.range(1, 3) as u32);
        let (rows, cols) = (32 * gy as usize, 32 * gx as usize);
        let m = rng.f32s(rows * cols);
        let mut out = vec![0.0; rows * cols];
        clean(
            matrix_transpose_tiled::launch(
                &cpu,
                (gx, gy),
                (32, 8),
                &m,
                &mut out,
                rows as i32,
                cols as i32,
            )
            .unwrap(),
        );
        assert_eq!(out, reference::transpose(&m, rows, cols));
    }
}

#[test]
fn matrix_products() {
    let cpu = Backend::cpu();
    for seed in SEEDS {
        let mut rng = Rng::new(seed);
        let n = 16 * rng.range(1, 4) as usize;
        let (a, b) = (rng.f32s(n * n), rng.f32s(n * n));
        let want = reference::matrix_mul(&a, &b, n);
        let g = (n / 16) as u32;
        let mut c = vec![0.0; n * n];
        clean(matrix_mul::launch(&cpu, (g, g), (16, 16), &a, &b, &mut c, n as i32).unwrap());
        assert!(reference::close(&c, &want, 1e-5));
        let mut c = vec![0.0; n * n];
        clean(matrix_mul_tiled::launch(&cpu, (g, g), (16, 16), &a, &b, &mut c, n as i32).unwrap());
        assert!(reference::close(&c, &want, 1e-5));
    }
}

#[test]
fn scan_dot_and_elimination() {
    let cpu = Backend::cpu();
    for seed in SEEDS {
        let mut rng = Rng::new(seed);
        let block = 1u32 << rng.range(1, 8);
        let grid = rng.range(1, 5) as u32;
        let n = (2 * block * grid) as usize;
        let x = rng.u32s(n, u32::MAX);
        let mut out = vec![0; n];
        let mut cfg = launch_config(grid, block);
        cfg.dynamic_shared_bytes = 2 * block as u64 * 4;
        clean(exclusive_scan::launch_with(&cpu, &cfg, &x, &mut out, n as i32).unwrap());
        assert_eq!(out, reference::exclusive_scan(&x, 2 * block as usize));

        let n = rng.range(1, 4000) as usize;
        let (x, y) = (rng.f32s(n), rng.f32s(n));
        let mut partial = vec![0.0; 8];
        clean(dot_product::launch(&cpu, 8, 256, &x, &y, &mut partial, n as i32).unwrap());
        let got: f64 = partial.iter().map(|&p| p as f64).sum();
        let want = reference::dot(&x, &y);
        assert!(
            (got - want).abs() < 1e-3 * (1.0 + want.abs()),
            "{got} vs {want}"
        );

        let (nrows, ncols) = (rng.range(1, 256) as usize, rng.range(4, 64) as usize);
        let pcol = rng.range(0, ncols as i64) as usize;
        let mat0 = rng.u32s(nrows * ncols, P as u32);
        let mut pivot = rng.u32s(ncols, P as u32);
        pivot[pcol] = 1;
        let mut mat = mat0.clone();
        let strict = Backend::cpu().deny(Category::Overflow);
        clean(
            gauss_elim::launch(
                &strict,
                4,
                64,
                &mut mat,
                &pivot,
                nrows as i32,
                ncols as i32,
                pcol as i32,
            )
            .unwrap(),
        );
        assert_eq!(
            mat,
            reference::gauss_elim(&mat0, &pivot, nrows, ncols, pcol, P)
        );
    }
}

#[test]
fn helper_is_callable_on_the_host() {
    assert_eq!(mul_mod(65520, 65520), 1);
}
