//! Blelloch exclusive scan per block in dynamic shared memory, on the CPU backend.

#[path = "common/mod.rs"]
mod common;

use common::{kernels::exclusive_scan, reference, rng::Rng};
use warpsafe::{launch_config, Backend};

fn main() {
    let (grid, block) = (8u32, 128u32);
    let n = (2 * block * grid) as usize;
    let x = Rng::new(8).u32s(n, u32::MAX);
    let mut out = vec![0; n];
    let mut cfg = launch_config(grid, block);
    cfg.dynamic_shared_bytes = 2 * block as u64 * 4;
    let report =
        exclusive_scan::launch_with(&Backend::cpu(), &cfg, &x, &mut out, n as i32).expect("launch");
    assert_eq!(out, reference::exclusive_scan(&x, 2 * block as usize));
    println!(
        "exclusive_scan: {n} elements in segments of {} match; {report}",
        2 * block
    );
}
