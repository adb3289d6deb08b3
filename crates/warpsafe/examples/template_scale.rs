//! `y = alpha * x`, several items per thread in the blocked layout, on the CPU backend.

#[path = "common/mod.rs"]
mod common;

use common::{kernels::template_scale, reference, rng::Rng};
use warpsafe::Backend;

fn main() {
    let n = 4000;
    let x = Rng::new(4).f32s(n);
    let mut y = vec![0.0; n];
    let report = template_scale::launch(&Backend::cpu(), 8, 128, &x, &mut y, 2.5, n as i32, 4)
        .expect("launch");
    assert_eq!(y, reference::scale(2.5, &x));
    println!("template_scale: {n} elements match the reference; {report}");
}
