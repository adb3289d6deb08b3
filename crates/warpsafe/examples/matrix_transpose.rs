//! Matrix transpose, naive and tiled (32 x 33 shared tile), on the CPU backend.

#[path = "common/mod.rs"]
mod common;

use common::kernels::{matrix_transpose, matrix_transpose_tiled};
use common::{reference, rng::Rng};
use warpsafe::Backend;

fn main() {
    let cpu = Backend::cpu();
    let (rows, cols) = (48, 64);
    let m = Rng::new(5).f32s(rows * cols);
    let mut out = vec![0.0; rows * cols];
    let naive = matrix_transpose::launch(
        &cpu,
        (4, 3),
        (16, 16),
        &m,
        &mut out,
        rows as i32,
        cols as i32,
    )
    .expect("naive launch");
    assert_eq!(out, reference::transpose(&m, rows, cols));
    println!("matrix_transpose: {rows}x{cols} matches; {naive}");

    let (rows, cols) = (64, 96);
    let m = Rng::new(6).f32s(rows * cols);
    let mut out = vec![0.0; rows * cols];
    let tiled = matrix_transpose_tiled::launch(
        &cpu,
        (3, 2),
        (32, 8),
        &m,
        &mut out,
        rows as i32,
        cols as i32,
    )
    .expect("tiled launch");
    assert_eq!(out, reference::transpose(&m, rows, cols));
    println!("matrix_transpose_tiled: {rows}x{cols} matches; {tiled}");
}
