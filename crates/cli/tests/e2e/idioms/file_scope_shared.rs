//! What real kernels declare outside the kernel: `__shared__` variables at file scope (the
//! CUDA samples' SobelFilter writes `extern __shared__ unsigned char LocalBlock[];`, dct8x8
//! `__shared__ float CurBlockLocal1[64];`), each the block's own shared memory as if declared
//! in the kernel, also when a helper names it; and records passed by value with array fields
//! (PyTorch's `TensorInfo` with `sizes[]` and `strides[]`, a list of buffers `float *out[3]`).
//! Each correct kernel has a buggy twin.

use super::common::*;

const TILE: &str = r#"//--blockDim=64 --gridDim=4
// verify: race=verified bounds=verified exit=0
//@ len(in) = 256
//@ len(out) = 256
//@ shared_bytes = 64
__shared__ float tile[64];
extern __shared__ unsigned char scratch[];

__device__ float neighbour(int t) { return tile[(t + 1) % 64]; }

__global__ void rotate(const float *in, float *out) {
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * 64 + t];
    scratch[t] = (unsigned char)t;
    __syncthreads();
    out[blockIdx.x * 64 + t] = neighbour(t) + scratch[63 - t];
}
"#;

#[test]
fn file_scope_shared_variables_are_the_blocks_shared_memory() {
    let ok = verify("file_shared", TILE, &[]);
    let text = String::from_utf8_lossy(&ok.stdout);
    assert_eq!(ok.status.code(), Some(0), "{text}");
    // Without the barrier, a thread reads its neighbour's cell as the neighbour writes it.
    let bug = twin(TILE, "    __syncthreads();\n", "");
    let racy = verify("file_shared_bug", &bug, &[]);
    let text = String::from_utf8_lossy(&racy.stdout);
    assert_eq!(racy.status.code(), Some(1), "{text}");
    assert!(text.contains("data race on `tile`"), "{text}");
}

const TENSOR: &str = r#"//--blockDim=64 --gridDim=[2,3]
// verify: race=verified divergence=verified
struct TensorInfo {
    const float *data;
    unsigned sizes[4];
    unsigned strides[4];
    int dims;
};
struct Batch {
    float *out[3];
    int n;
};
__global__ void gather(TensorInfo in, Batch b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.n)
        return;
    int dims = in.dims < 1 ? 1 : in.dims < 4 ? in.dims : 4;
    unsigned rest = i, off = 0;
    for (int d = dims - 1; d >= 0; d--) {
        unsigned size = in.sizes[d] > 0 ? in.sizes[d] : 1;
        off += (rest % size) * in.strides[d];
        rest /= size;
    }
    b.out[blockIdx.y][i] = in.data[off];
}
"#;

#[test]
fn array_fields_of_by_value_parameters_are_element_parameters() {
    check("tensor_info", TENSOR);
    // Rows 0 and 2 of blocks pick the same buffer: two blocks write one element.
    let shared = twin(TENSOR, "b.out[blockIdx.y][i]", "b.out[blockIdx.y % 2][i]");
    check(
        "tensor_info_bug_slot",
        &shared.replace("race=verified", "race=violated"),
    );
    // Row 2 picks a fourth buffer of three.
    let past = twin(TENSOR, "b.out[blockIdx.y][i]", "b.out[blockIdx.y + 1][i]");
    let out = verify("tensor_info_bug_past", &past, &["--property", "bounds"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("index out of bounds"), "{text}");
}

#[test]
fn two_file_scope_shared_arrays_of_a_header_are_two_arrays() {
    // Declarations in a header share no span of the main file: they must stay apart (the
    // dct8x8 sample's `CurBlockLocal1` and `CurBlockLocal2`).
    let d = dir("header_shared");
    std::fs::write(
        d.join("tiles.h"),
        "__shared__ float first[64];\n__shared__ float second[64];\n",
    )
    .expect("header written");
    let k = d.join("k.cu");
    std::fs::write(
        &k,
        "//--blockDim=64 --gridDim=1\n#include \"tiles.h\"\n\
         __global__ void two(float *out) {\n\
         \x20   first[threadIdx.x] = 1.0f;\n\
         \x20   second[(threadIdx.x + 1) % 64] = 2.0f;\n\
         \x20   __syncthreads();\n\
         \x20   out[threadIdx.x] = first[threadIdx.x] + second[threadIdx.x];\n}\n",
    )
    .expect("kernel written");
    let out = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["verify", "--frontend", "clang", "--property", "race"])
        .arg(&k)
        .output()
        .expect("warpsafe runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let _ = std::fs::remove_dir_all(&d);
    assert_eq!(out.status.code(), Some(0), "{text}");
}
