//! `C = A * B`, naive and tiled (two 16 x 16 shared tiles), on the CPU backend.

#[path = "common/mod.rs"]
mod common;

use common::kernels::{matrix_mul, matrix_mul_tiled};
use common::{reference, rng::Rng};
use warpsafe::Backend;

fn main() {
    let cpu = Backend::cpu();
    let n = 64;
    let mut rng = Rng::new(7);
    let (a, b) = (rng.f32s(n * n), rng.f32s(n * n));
    let want = reference::matrix_mul(&a, &b, n);
    let mut c = vec![0.0; n * n];
    let naive =
        matrix_mul::launch(&cpu, (4, 4), (16, 16), &a, &b, &mut c, n as i32).expect("naive");
    assert!(reference::close(&c, &want, 1e-5));
    println!("matrix_mul: {n}x{n} matches; {naive}");
    let mut c = vec![0.0; n * n];
    let tiled =
        matrix_mul_tiled::launch(&cpu, (4, 4), (16, 16), &a, &b, &mut c, n as i32).expect("tiled");
    assert!(reference::close(&c, &want, 1e-5));
    println!("matrix_mul_tiled: {n}x{n} matches; {tiled}");
}
