//! Differential tests: kernels run by the interpreter against plain-Rust references on
//! random inputs.

use crate::common;

use common::*;
use warpsafe_exec::{Arg, Buffer, LaunchConfig};
use warpsafe_ir::Value;

#[test]
fn vector_add_matches_reference() {
    let mut rng = Rng(7);
    for n in [1usize, 31, 32, 33, 100, 1000] {
        let x = rng.f32s(n);
        let y = rng.f32s(n);
        let args = vec![
            Arg::Scalar(Value::U32(n as u32)),
            Arg::Buffer(Buffer::from_f32(&x)),
            Arg::Buffer(Buffer::from_f32(&y)),
        ];
        let grid = n.div_ceil(64) as u32;
        let out = go(&vector_add(false), LaunchConfig::linear(grid, 64), args);
        assert!(out.findings.is_empty(), "{:?}", out.findings);
        let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
        assert_eq!(buffer(&out, 2).to_f32(), want);
    }
}

#[test]
fn shared_reduction_with_barriers_in_a_loop() {
    let mut rng = Rng(11);
    let n = 1000usize;
    let x = rng.i32s(n, 1000);
    let blocks = n.div_ceil(256);
    let args = vec![
        Arg::Scalar(Value::U32(n as u32)),
        Arg::Buffer(Buffer::from_i32(&x)),
        Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::I32, blocks)),
    ];
    let out = go(
        &block_reduce(true),
        LaunchConfig::linear(blocks as u32, 256),
        args,
    );
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let want: Vec<i32> = x.chunks(256).map(|c| c.iter().sum()).collect();
    assert_eq!(buffer(&out, 2).to_i32(), want);
    assert_eq!(out.stats.barriers, blocks as u64 * 9);
}

#[test]
fn tiled_matmul_matches_reference() {
    let mut rng = Rng(3);
    let n = 48usize;
    let a = rng.f32s(n * n);
    let b = rng.f32s(n * n);
    let args = vec![
        Arg::Scalar(Value::U32(n as u32)),
        Arg::Buffer(Buffer::from_f32(&a)),
        Arg::Buffer(Buffer::from_f32(&b)),
        Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::F32, n * n)),
    ];
    let g = (n / 16) as u32;
    let cfg = LaunchConfig {
        grid: [g, g, 1],
        block: [16, 16, 1],
        dynamic_shared_bytes: 0,
    };
    let out = go(&tiled_matmul(), cfg, args);
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let c = buffer(&out, 3).to_f32();
    for r in 0..n {
        for col in 0..n {
            let mut s = 0f32;
            for t in 0..n / 16 {
                for k in 0..16 {
                    let kk = t * 16 + k;
                    s += a[r * n + kk] * b[kk * n + col];
                }
            }
            assert_eq!(c[r * n + col], s, "C[{r}][{col}]");
        }
    }
}

#[test]
fn loop_kernel_naive_matmul_matches_reference() {
    let mut rng = Rng(5);
    let n = 20usize;
    let a = rng.f32s(n * n);
    let b = rng.f32s(n * n);
    let args = vec![
        Arg::Scalar(Value::U32(n as u32)),
        Arg::Buffer(Buffer::from_f32(&a)),
        Arg::Buffer(Buffer::from_f32(&b)),
        Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::F32, n * n)),
    ];
    let cfg = LaunchConfig {
        grid: [1, 1, 1],
        block: [20, 20, 1],
        dynamic_shared_bytes: 0,
    };
    let out = go(&naive_matmul(), cfg, args);
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let c = buffer(&out, 3).to_f32();
    for r in 0..n {
        for col in 0..n {
            let s = (0..n).fold(0f32, |s, k| s + a[r * n + k] * b[k * n + col]);
            assert_eq!(c[r * n + col], s);
        }
    }
}

#[test]
fn histogram_with_atomics_matches_reference() {
    let mut rng = Rng(13);
    let n = 5000usize;
    let bins = 17u32;
    let x: Vec<u32> = (0..n).map(|_| rng.next() as u32).collect();
    let args = vec![
        Arg::Scalar(Value::U32(n as u32)),
        Arg::Scalar(Value::U32(bins)),
        Arg::Buffer(Buffer::from_u32(&x)),
        Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::U32, bins as usize)),
        Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::U32, 64)),
    ];
    let out = go(&histogram(false), LaunchConfig::linear(40, 128), args);
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let mut want = vec![0u32; bins as usize];
    for v in &x {
        want[(v % bins) as usize] += 1;
    }
    assert_eq!(buffer(&out, 3).to_u32(), want);
}

#[test]
fn shuffle_reduction_matches_reference() {
    let mut rng = Rng(17);
    let n = 256usize;
    let x = rng.i32s(n, 100_000);
    let args = vec![
        Arg::Buffer(Buffer::from_i32(&x)),
        Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::I32, n / 32)),
    ];
    let out = go(&shuffle_reduce(), LaunchConfig::linear(2, 128), args);
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let want: Vec<i32> = x.chunks(32).map(|c| c.iter().sum()).collect();
    assert_eq!(buffer(&out, 1).to_i32(), want);
}
