//! A grid barrier becomes the generated `ws_grid_sync()`, NVRTC compiles it (block barriers,
//! fences and the global atomics of the arrival count), and on a GPU (where one is present)
//! the cooperative launch of a cross-block exchange gives the values Rust computes.

use warpsafe_exec::{Arg, Buffer, LaunchConfig};
use warpsafe_ir::{BinOp, Dim, Expr, Kernel, KernelBuilder, MemRef, ScalarType, Value};

/// `x[i] = i; grid sync; y[i] = x[(i + 1) % n]` for `i < n`.
fn exchange() -> Kernel {
    let mut b = KernelBuilder::new("exchange");
    let x = b.buffer_param("x", ScalarType::F32, true);
    let y = b.buffer_param("y", ScalarType::F32, true);
    let n = b.scalar_param("n", ScalarType::U32);
    let i = b.let_("i", b.global_index(Dim::X));
    let inside = Expr::binary(BinOp::Lt, b.var(i), b.param(n));
    b.if_(inside.clone(), |b| {
        let v = b.var(i).cast(ScalarType::F32);
        b.store(MemRef::Global(x), vec![b.var(i)], v);
    });
    b.sync_grid();
    b.if_(inside, |b| {
        let next = Expr::binary(
            BinOp::Rem,
            Expr::binary(BinOp::Add, b.var(i), Expr::u32(1)),
            b.param(n),
        );
        let v = b.load(MemRef::Global(x), vec![next]);
        b.store(MemRef::Global(y), vec![b.var(i)], v);
    });
    b.finish()
}

#[test]
fn a_grid_barrier_is_generated_and_compiles_with_nvrtc() {
    let k = exchange();
    assert!(warpsafe_cuda::uses_grid_sync(&k));
    let text = warpsafe_cuda::generate(&k).expect("codegen");
    assert!(text.contains("    ws_grid_sync();\n"), "{text}");
    assert!(text.contains("extern \"C\" __device__ __noinline__ void ws_grid_sync()"));
    if warpsafe_cuda::nvrtc_path().is_err() {
        return;
    }
    let out = warpsafe_cuda::compile_ptx(&text, &Default::default())
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(
        out.log.trim().is_empty(),
        "NVRTC warnings:\n{}\n{text}",
        out.log
    );
    // One function the kernel calls (the PTX road reads the call as the grid barrier).
    for p in [
        ".func ws_grid_sync",
        "ws_grid_sync, ",
        "bar.sync",
        "membar.gl",
        "atom.global.add.u32",
        "atom.global.exch.b32",
    ] {
        assert!(
            out.ptx.contains(p),
            "{p} missing from the PTX:\n{}",
            out.ptx
        );
    }
}

#[test]
fn a_kernel_without_a_grid_barrier_has_no_grid_prelude() {
    let mut b = KernelBuilder::new("plain");
    let x = b.buffer_param("x", ScalarType::F32, true);
    b.store(MemRef::Global(x), vec![Expr::u32(0)], Expr::f32(1.0));
    b.sync_threads();
    let k = b.finish();
    assert!(!warpsafe_cuda::uses_grid_sync(&k));
    let text = warpsafe_cuda::generate(&k).expect("codegen");
    assert!(!text.contains("ws_grid"), "{text}");
}

#[test]
fn a_cooperative_launch_exchanges_values_across_blocks_on_a_gpu() {
    if !warpsafe_cuda::device_available() {
        return;
    }
    let k = exchange();
    for (blocks, block, n) in [(4u32, 128u32, 512usize), (8, 64, 500), (2, 32, 64)] {
        let args = vec![
            Arg::Buffer(Buffer::from_f32(&vec![-1.0; n])),
            Arg::Buffer(Buffer::from_f32(&vec![-1.0; n])),
            Arg::Scalar(Value::U32(n as u32)),
        ];
        // Twice: the barrier's state must be ready again after a launch.
        for _ in 0..2 {
            let out = warpsafe_cuda::launch(&k, &LaunchConfig::linear(blocks, block), args.clone())
                .unwrap_or_else(|e| panic!("{e}"));
            let Arg::Buffer(y) = &out[1] else {
                panic!("y is a buffer");
            };
            let want: Vec<f32> = (0..n).map(|i| ((i + 1) % n) as f32).collect();
            assert_eq!(y.to_f32(), want, "{blocks}x{block}");
        }
    }
}

#[test]
fn a_grid_too_large_to_be_resident_is_refused_on_a_gpu() {
    if !warpsafe_cuda::device_available() {
        return;
    }
    let n = 1 << 22;
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&vec![0.0; n])),
        Arg::Buffer(Buffer::from_f32(&vec![0.0; n])),
        Arg::Scalar(Value::U32(n as u32)),
    ];
    let err = warpsafe_cuda::launch(&exchange(), &LaunchConfig::linear(1 << 16, 64), args)
        .expect_err("65536 blocks cannot all be resident");
    assert!(
        err.to_string().contains("must be resident at once"),
        "{err}"
    );
}
