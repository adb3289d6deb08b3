//! Warp matrix functions (`nvcuda::wmma`) are not modelled yet: a kernel that uses them is
//! left out with an error naming `wmma` at the first fragment, and its neighbours are read.

use std::path::PathBuf;
use warpsafe_clang_front::{compile_file, Options};

const SRC: &str = r#"#include <mma.h>
using namespace nvcuda;

__global__ void tile_gemm(const half* a, const half* b, float* c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

__global__ void scale(float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] *= 2.0f;
}
"#;

#[test]
fn a_wmma_kernel_is_left_out_by_name_and_its_neighbour_is_read() {
    let dir = std::env::temp_dir().join(format!("warpsafe-wmma-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path: PathBuf = dir.join("wmma.cu");
    std::fs::write(&path, SRC).expect("writes");
    let c = compile_file(&path, SRC, &Options::default()).expect("reads");
    assert!(c.module.kernel("scale").is_some(), "{:?}", c.rejected);
    let r = c
        .rejected
        .iter()
        .find(|r| r.kernel == "tile_gemm")
        .expect("tile_gemm is left out");
    let e = &r.errors[0];
    assert!(
        e.message.contains("nvcuda::wmma") && e.message.contains("fragment `fa`"),
        "{}",
        e.message
    );
    let at = &SRC[e.span.lo as usize..e.span.hi as usize];
    assert!(at.contains("wmma::fragment<wmma::matrix_a"), "{at}");
}
