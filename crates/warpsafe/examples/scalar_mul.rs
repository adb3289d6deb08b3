//! `x *= alpha` in per-thread chunks on the CPU backend, checked against plain Rust.

#[path = "common/mod.rs"]
mod common;

use common::{kernels::scalar_mul, reference, rng::Rng};
use warpsafe::Backend;

fn main() {
    let n = 4000;
    let x0 = Rng::new(3).f32s(n);
    let mut x = x0.clone();
    let report =
        scalar_mul::launch(&Backend::cpu(), 8, 128, &mut x, 3.0, n as i32, 4).expect("launch");
    assert_eq!(x, reference::scale(3.0, &x0));
    println!("scalar_mul: {n} elements match the reference; {report}");
}
