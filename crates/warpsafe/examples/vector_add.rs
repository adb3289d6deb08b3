//! `c = a + b` on the CPU backend, checked against plain Rust.

#[path = "common/mod.rs"]
mod common;

use common::{kernels::vector_add, reference, rng::Rng};
use warpsafe::Backend;

fn main() {
    let n = 4000;
    let mut rng = Rng::new(1);
    let (a, b) = (rng.f32s(n), rng.f32s(n));
    let mut c = vec![0.0; n];
    let report =
        vector_add::launch(&Backend::cpu(), 16, 256, &a, &b, &mut c, n as i32).expect("launch");
    assert_eq!(c, reference::vector_add(&a, &b));
    println!("vector_add: {n} elements match the reference; {report}");
}
