//! `x = x²` in place on the CPU backend, checked against plain Rust.

#[path = "common/mod.rs"]
mod common;

use common::{kernels::vector_square, reference, rng::Rng};
use warpsafe::Backend;

fn main() {
    let n = 4000;
    let x0 = Rng::new(2).f32s(n);
    let mut x = x0.clone();
    let report = vector_square::launch(&Backend::cpu(), 16, 256, &mut x, n as i32).expect("launch");
    assert_eq!(x, reference::vector_square(&x0));
    println!("vector_square: {n} elements match the reference; {report}");
}
