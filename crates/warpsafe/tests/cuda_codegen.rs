//! The CUDA C generated from every Rust example kernel: snapshots, and NVRTC compiles it
//! without warnings.

#[path = "../examples/common/mod.rs"]
mod common;

use common::kernels::*;
use warpsafe::ir::Kernel;

fn kernels() -> Vec<&'static Kernel> {
    vec![
        saxpy::ir(),
        vector_add::ir(),
        vector_square::ir(),
        scalar_mul::ir(),
        template_scale::ir(),
        matrix_transpose::ir(),
        matrix_transpose_tiled::ir(),
        matrix_mul::ir(),
        matrix_mul_tiled::ir(),
        exclusive_scan::ir(),
        dot_product::ir(),
        gauss_elim::ir(),
    ]
}

#[test]
fn generated_cuda_matches_snapshots() {
    for k in kernels() {
        let text = warpsafe_cuda::generate(k).expect("codegen");
        insta::assert_snapshot!(k.name.clone(), text);
    }
}

#[test]
fn generated_cuda_compiles_with_nvrtc_without_warnings() {
    warpsafe_cuda::nvrtc_path().expect("NVRTC must be installed (scripts/setup.sh)");
    for k in kernels() {
        let src = warpsafe_cuda::generate(k).expect("codegen");
        let out = warpsafe_cuda::compile_ptx(&src, &Default::default())
            .unwrap_or_else(|e| panic!("{}: {e}\n{src}", k.name));
        assert!(out.log.trim().is_empty(), "{}: {}", k.name, out.log);
        assert!(out.ptx.contains(".entry"), "{}", k.name);
    }
}
