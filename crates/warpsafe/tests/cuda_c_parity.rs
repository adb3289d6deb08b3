//! The Rust (`#[kernel]`) and CUDA-C (`examples/kernels/*.cu`) versions of each shared kernel,
//! run on identical random inputs, must leave identical buffers.

#[path = "../examples/common/mod.rs"]
mod common;

use common::kernels::*;
use common::rng::Rng;
use warpsafe::exec::{Arg, Buffer, LaunchConfig};
use warpsafe::ir::{Kernel, Value};
use warpsafe::{launch_config, Backend};

fn cuda_kernel(file: &str) -> Kernel {
    let path = format!(
        "{}/../../examples/kernels/{file}.cu",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let module = warpsafe_cuda_front::compile(&src).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    module.kernels.into_iter().next().expect("a kernel")
}

fn same_outputs(file: &str, rust: &Kernel, cfg: LaunchConfig, args: Vec<Arg>) {
    let c = cuda_kernel(file);
    assert_eq!(c.params.len(), rust.params.len(), "{file}: parameter count");
    let cpu = Backend::cpu();
    let a = cpu
        .launch_kernel(rust, &cfg, args.clone())
        .expect("rust kernel");
    let b = cpu.launch_kernel(&c, &cfg, args).expect("cuda-c kernel");
    assert!(a.report.errors().next().is_none(), "{}", a.report);
    assert!(b.report.errors().next().is_none(), "{}", b.report);
    assert_eq!(a.args, b.args, "{file}: outputs differ");
}

fn f32s(rng: &mut Rng, n: usize) -> Arg {
    Arg::Buffer(Buffer::from_f32(&rng.f32s(n)))
}

fn int(v: i32) -> Arg {
    Arg::Scalar(Value::I32(v))
}

fn float(v: f32) -> Arg {
    Arg::Scalar(Value::F32(v))
}

#[test]
fn elementwise_kernels_agree() {
    for seed in [1, 2, 3] {
        let mut r = Rng::new(seed);
        let n = 4000;
        let lin = |g: u32, b: u32| launch_config(g, b);
        same_outputs(
            "saxpy",
            saxpy::ir(),
            lin(8, 128),
            vec![int(n as i32), float(2.0), f32s(&mut r, n), f32s(&mut r, n)],
        );
        same_outputs(
            "vector_add",
            vector_add::ir(),
            lin(16, 256),
            vec![
                f32s(&mut r, n),
                f32s(&mut r, n),
                f32s(&mut r, n),
                int(n as i32),
            ],
        );
        same_outputs(
            "vector_square",
            vector_square::ir(),
            lin(16, 256),
            vec![f32s(&mut r, n), int(n as i32)],
        );
        same_outputs(
            "scalar_mul",
            scalar_mul::ir(),
            lin(8, 128),
            vec![f32s(&mut r, n), float(3.0), int(n as i32), int(4)],
        );
        same_outputs(
            "template_scale",
            template_scale::ir(),
            lin(8, 128),
            vec![
                f32s(&mut r, n),
                f32s(&mut r, n),
                float(2.5),
                int(n as i32),
                int(4),
            ],
        );
    }
}

#[test]
fn matrix_kernels_agree() {
    for seed in [4, 5] {
        let mut r = Rng::new(seed);
        let (rows, cols) = (48, 64);
        same_outputs(
            "matrix_transpose",
            matrix_transpose::ir(),
            launch_config((4, 3), (16, 16)),
            vec![
                f32s(&mut r, rows * cols),
                f32s(&mut r, rows * cols),
                int(rows as i32),
                int(cols as i32),
            ],
        );
        let (rows, cols) = (64, 96);
        same_outputs(
            "matrix_transpose_tiled",
            matrix_transpose_tiled::ir(),
            launch_config((3, 2), (32, 8)),
            vec![
                f32s(&mut r, rows * cols),
                f32s(&mut r, rows * cols),
                int(rows as i32),
                int(cols as i32),
            ],
        );
        let n = 64;
        for (file, k) in [
            ("matrix_mul", matrix_mul::ir()),
            ("matrix_mul_tiled", matrix_mul_tiled::ir()),
        ] {
            same_outputs(
                file,
                k,
                launch_config((4, 4), (16, 16)),
                vec![
                    f32s(&mut r, n * n),
                    f32s(&mut r, n * n),
                    f32s(&mut r, n * n),
                    int(n as i32),
                ],
            );
        }
    }
}

#[test]
fn scan_dot_and_elimination_agree() {
    for seed in [6, 7] {
        let mut r = Rng::new(seed);
        let n = 2048;
        let mut cfg = launch_config(8, 128);
        cfg.dynamic_shared_bytes = 2 * 128 * 4;
        same_outputs(
            "exclusive_scan",
            exclusive_scan::ir(),
            cfg,
            vec![
                Arg::Buffer(Buffer::from_u32(&r.u32s(n, u32::MAX))),
                Arg::Buffer(Buffer::from_u32(&vec![0; n])),
                int(n as i32),
            ],
        );
        let n = 4000;
        same_outputs(
            "dot_product",
            dot_product::ir(),
            launch_config(8, 256),
            vec![
                f32s(&mut r, n),
                f32s(&mut r, n),
                f32s(&mut r, 8),
                int(n as i32),
            ],
        );
        let (nrows, ncols) = (256, 64);
        let mut pivot = r.u32s(ncols, P as u32);
        pivot[3] = 1;
        same_outputs(
            "gauss_elim",
            gauss_elim::ir(),
            launch_config(4, 64),
            vec![
                Arg::Buffer(Buffer::from_u32(&r.u32s(nrows * ncols, P as u32))),
                Arg::Buffer(Buffer::from_u32(&pivot)),
                int(nrows as i32),
                int(ncols as i32),
                int(3),
            ],
        );
    }
}
