//! One F4 elimination step over F_65521 (64-bit intermediates), on the CPU backend with
//! overflow denied, checked against plain Rust.

#[path = "common/mod.rs"]
mod common;

use common::kernels::{gauss_elim, P};
use common::{reference, rng::Rng};
use warpsafe::ir::Category;
use warpsafe::Backend;

fn main() {
    let (nrows, ncols, pcol) = (256usize, 64usize, 3usize);
    let mut rng = Rng::new(10);
    let mat0 = rng.u32s(nrows * ncols, P as u32);
    let mut pivot = rng.u32s(ncols, P as u32);
    pivot[pcol] = 1;
    let mut mat = mat0.clone();
    let backend = Backend::cpu().deny(Category::Overflow);
    let report = gauss_elim::launch(
        &backend,
        4,
        64,
        &mut mat,
        &pivot,
        nrows as i32,
        ncols as i32,
        pcol as i32,
    )
    .expect("launch");
    assert_eq!(
        mat,
        reference::gauss_elim(&mat0, &pivot, nrows, ncols, pcol, P)
    );
    assert!((0..nrows).all(|r| mat[r * ncols + pcol] == 0));
    println!("gauss_elim: {nrows}x{ncols} over F_{P}: column {pcol} eliminated; {report}");
}
