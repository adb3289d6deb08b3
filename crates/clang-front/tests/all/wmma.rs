//! Warp matrix functions (`nvcuda::wmma`): our `<mma.h>` writes fill/load/mma/store in CUDA,
//! and those bodies are inlined like the user's device helpers (an empty body, like
//! `assert`'s, stays a builtin). Fragments are records of `num_elements` values per lane;
//! `frag.num_elements` reads the enumerator through the object. Also here: an enumerator of a
//! class template whose initialiser clang wraps in a cast had no value before (read as 0,
//! so a loop to it ran no iteration); it now has clang's value.

use crate::common;

use common::{clang_in, kernel, run_buffers};
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{StmtKind, F16};

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
    for (int i = 0; i < fc.num_elements; i++)
        fc.x[i] = 2.0f * fc.x[i];
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

__global__ void scale(float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] *= 2.0f;
}
"#;

fn walk_counts(k: &warpsafe_ir::Kernel) -> (usize, usize) {
    let (mut shuffles, mut syncwarps) = (0, 0);
    for s in &k.body {
        s.walk(&mut |x| match x.kind {
            StmtKind::Shuffle { .. } => shuffles += 1,
            StmtKind::SyncWarp { .. } => syncwarps += 1,
            _ => {}
        });
    }
    (shuffles, syncwarps)
}

#[test]
fn a_wmma_kernel_is_read_as_shuffles_and_warp_syncs_beside_its_neighbour() {
    let c = clang_in("wmma", "wmma.cu", SRC);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    kernel(&c, "scale");
    let k = kernel(&c, "tile_gemm");
    let (shuffles, syncwarps) = walk_counts(k);
    // mma_sync gathers each product's two operands with a shuffle in one loop; each of the
    // five operations first waits for the warp.
    assert_eq!((shuffles, syncwarps), (2, 5), "{k}");
}

fn halves(v: &[f32]) -> Vec<F16> {
    v.iter().map(|x| F16::from_f32(*x)).collect()
}

#[test]
fn a_tile_product_in_the_interpreter_is_the_matrix_product() {
    let c = clang_in("wmma", "wmma.cu", SRC);
    let k = kernel(&c, "tile_gemm");
    // A = i - j over 8 (row-major), B stored column-major with B[k][j] = (k + 2j) mod 5.
    let a: Vec<f32> = (0..256)
        .map(|p| ((p / 16) as f32 - (p % 16) as f32) / 8.0)
        .collect();
    let b: Vec<f32> = (0..256)
        .map(|p| (((p % 16) + 2 * (p / 16)) % 5) as f32)
        .collect();
    let args = vec![
        Arg::Buffer(Buffer::from_f16(&halves(&a))),
        Arg::Buffer(Buffer::from_f16(&halves(&b))),
        Arg::Buffer(Buffer::from_f32(&[0.0; 256])),
    ];
    let out = run(k, &LaunchConfig::linear(1, 32), args, &Options::default()).expect("runs");
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let Arg::Buffer(c) = &out.args[2] else {
        panic!("c is a buffer")
    };
    let got = c.to_f32();
    for i in 0..16 {
        for j in 0..16 {
            let want: f32 = 2.0 * (0..16).map(|k| a[i * 16 + k] * b[j * 16 + k]).sum::<f32>();
            assert_eq!(got[i * 16 + j], want, "C[{i}][{j}]");
        }
    }
}

const ENUMS: &str = r#"template <int N> struct Tile {
    enum { half_width = N / 2 };
    enum : unsigned { lanes = N * 4, last = lanes - 1 };
};

__global__ void fill(int* out)
{
    if (threadIdx.x + blockIdx.x > 0) return;
    for (int i = 0; i < Tile<16>::half_width; i++) out[i] = Tile<16>::lanes + i;
    out[8] = Tile<16>::last;
}
"#;

#[test]
fn class_template_enumerators_have_clangs_values() {
    let c = clang_in("wmma", "enums.cu", ENUMS);
    let k = kernel(&c, "fill");
    let out = run_buffers(k, vec![Arg::Buffer(Buffer::from_i32(&[0; 9]))]);
    assert_eq!(out[0].to_i32(), vec![64, 65, 66, 67, 68, 69, 70, 71, 63]);
}
