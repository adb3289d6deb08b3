//! Dot product (shared-memory tree per block, partial sums added on the host), on the CPU backend.

#[path = "common/mod.rs"]
mod common;

use common::{kernels::dot_product, reference, rng::Rng};
use warpsafe::Backend;

fn main() {
    let (n, grid) = (4000, 8);
    let mut rng = Rng::new(9);
    let (x, y) = (rng.f32s(n), rng.f32s(n));
    let mut partial = vec![0.0f32; grid];
    let report = dot_product::launch(
        &Backend::cpu(),
        grid as u32,
        256,
        &x,
        &y,
        &mut partial,
        n as i32,
    )
    .expect("launch");
    let got: f64 = partial.iter().map(|&p| p as f64).sum();
    let want = reference::dot(&x, &y);
    assert!(
        (got - want).abs() < 1e-3 * (1.0 + want.abs()),
        "{got} vs {want}"
    );
    println!("dot_product: {got:.4} (reference {want:.4}); {report}");
}
