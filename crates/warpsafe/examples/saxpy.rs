//! `y = a * x + y` (grid-stride loop) on the CPU backend, checked against plain Rust.

#[path = "common/mod.rs"]
mod common;

use common::{kernels::saxpy, reference, rng::Rng};
use warpsafe::Backend;

fn main() {
    let n = 4000;
    let mut rng = Rng::new(1);
    let (x, y0) = (rng.f32s(n), rng.f32s(n));
    let mut y = y0.clone();
    let report = saxpy::launch(&Backend::cpu(), 8, 128, n as i32, 2.0, &x, &mut y).expect("launch");
    assert_eq!(y, reference::saxpy(2.0, &x, &y0));
    println!("saxpy: {n} elements match the reference; {report}");
}
