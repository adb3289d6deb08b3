//! C++ the subset parser never read, through clang: each kernel must lower to the same IR as
//! its hand-written C twin (clang instantiated the templates, resolved the overloads and
//! folded the constants), and a construct we do not model rejects only its own kernel.

use crate::common;
use std::path::PathBuf;
use warpsafe_clang_front::{compile_file, Compiled, Options};
use warpsafe_exec::{Arg, Buffer};
use warpsafe_verify::{Property, Verdict};

/// Writes `source` to a fresh file and reads it through clang.
fn clang(name: &str, source: &str, opts: &Options) -> Compiled {
    let dir = std::env::temp_dir().join(format!("warpsafe-cpp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, source).expect("writes");
    compile_file(&path, source, opts).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// The IR of the one kernel `name` of `cpp` through clang equals that of `c` through the
/// subset parser.
fn same_ir(cpp: &str, c: &str, kernel: &str) {
    let got = clang(&format!("{kernel}.cu"), cpp, &Options::default());
    assert!(got.rejected.is_empty(), "rejected: {:?}", got.rejected);
    let want = warpsafe_cuda_front::compile(c).unwrap_or_else(|e| panic!("C twin: {e:?}"));
    let (a, b) = (
        got.module.kernel(kernel).expect("clang kernel").to_string(),
        want.kernel(kernel).expect("subset kernel").to_string(),
    );
    assert_eq!(a, b, "C++:\n{a}\nC:\n{b}");
}

#[test]
fn templates_constexpr_enums_default_arguments_and_namespaces() {
    let cpp = r#"
//--blockDim=128 --gridDim=4
#include <cuda_runtime.h>
namespace util {
template <typename T>
__device__ __forceinline__ T scaled(T v, T k = T(2)) { return v * k; }
}
enum class Mode { Copy, Scale };
constexpr int kExtra = 3;
template <int BLOCK, Mode M>
__global__ void __launch_bounds__(BLOCK) scale(const float* __restrict__ x, float* __restrict__ y, int n) {
    __shared__ float s[BLOCK + kExtra];
    const auto i = blockIdx.x * BLOCK + threadIdx.x;
    s[threadIdx.x] = x[i];
    __syncthreads();
    if (M == Mode::Scale) {
        y[i] = util::scaled(s[(threadIdx.x + 1) % BLOCK]);
    }
}
template __global__ void scale<128, Mode::Scale>(const float*, float*, int);
"#;
    let c = r#"
//--blockDim=128 --gridDim=4
__device__ float scaled(float v, float k) { return v * k; }
__global__ void scale(const float* __restrict__ x, float* __restrict__ y, int n) {
    __shared__ float s[128 + 3];
    const unsigned int i = blockIdx.x * 128 + threadIdx.x;
    s[threadIdx.x] = x[i];
    __syncthreads();
    if (1 == 1) {
        y[i] = scaled(s[(threadIdx.x + 1) % 128], (float)2);
    }
}
"#;
    same_ir(cpp, c, "scale");
}

#[test]
fn cooperative_groups_become_barriers_and_shuffles() {
    let cpp = r#"
//--blockDim=64 --gridDim=1
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void sum(const float* in, float* out) {
    cg::thread_block block = cg::this_thread_block();
    __shared__ float s[64];
    s[block.thread_rank()] = in[block.thread_rank()];
    block.sync();
    auto tile = cg::tiled_partition<32>(block);
    float v = s[block.thread_rank()];
    v += tile.shfl_down(v, 16);
    if (tile.thread_rank() == 0) out[block.thread_rank() / 32] = v;
}
"#;
    let c = r#"
//--blockDim=64 --gridDim=1
__global__ void sum(const float* in, float* out) {
    __shared__ float s[64];
    s[threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)] = in[threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)];
    __syncthreads();
    float v = s[threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)];
    v += __shfl_down_sync(4294967295u, v, 16, 32u);
    if ((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u == 0) out[(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32] = v;
}
"#;
    same_ir(cpp, c, "sum");
}

#[test]
fn macros_from_the_command_line_and_user_headers() {
    let dir = std::env::temp_dir().join(format!("warpsafe-cpp-inc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("tile.cuh"),
        "#pragma once\n__device__ inline int clampi(int v, int hi) { return v < hi ? v : hi; }\n",
    )
    .expect("writes header");
    let cpp = "//--blockDim=32 --gridDim=1\n#include \"tile.cuh\"\n__global__ void k(int* a) { a[clampi(threadIdx.x, WIDTH)] = 1; }\n";
    let opts = Options {
        defines: vec!["WIDTH=16".into()],
        include_dirs: vec![dir],
    };
    let got = clang("with_header.cu", cpp, &opts);
    let k = got.module.kernel("k").expect("kernel read");
    assert!(k.to_string().contains("16"), "{k}");
    // Without -D the macro is unknown: the kernel is rejected with clang's message and span.
    let without = clang(
        "without_define.cu",
        &cpp.replace(
            "#include \"tile.cuh\"",
            "__device__ inline int clampi(int v, int hi) { return v < hi ? v : hi; }",
        ),
        &Options::default(),
    );
    assert!(without.module.kernels.is_empty());
    let why = &without.rejected[0].errors[0];
    assert!(why.message.contains("WIDTH"), "{why:?}");
    assert!(!why.span.is_dummy());
}

#[test]
fn one_unsupported_kernel_does_not_cost_its_neighbours() {
    let src = r#"
//--blockDim=32 --gridDim=1
struct Pair { float a; float* next; };
__global__ void uses_struct(Pair* p) { p[threadIdx.x].a = 1.0f; }
__global__ void plain(float* x) { x[threadIdx.x] = 2.0f; }
__global__ void uses_asm(int* x) { asm volatile("cp.async.wait_all;"); x[threadIdx.x] = 0; }
int main() { float* d; cudaMalloc(&d, 128); plain<<<1, 32>>>(d); return undeclared_host_thing; }
"#;
    let got = clang("mixed.cu", src, &Options::default());
    assert!(got.module.kernel("plain").is_some());
    let names: Vec<&str> = got.rejected.iter().map(|r| r.kernel.as_str()).collect();
    assert_eq!(names, ["uses_struct", "uses_asm"]);
    for r in &got.rejected {
        let e = &r.errors[0];
        assert!(e.message.starts_with("unsupported"), "{e:?}");
        assert!(
            src[e.span.range()].contains(if r.kernel == "uses_asm" {
                "asm"
            } else {
                "Pair"
            }),
            "{:?} → {:?}",
            e,
            &src[e.span.range()]
        );
    }
    assert!(got
        .host_errors
        .iter()
        .any(|e| e.message.contains("undeclared_host_thing")));
}

#[test]
fn switch_is_an_if_chain_and_fall_through_is_rejected() {
    let cpp = r#"
//--blockDim=32 --gridDim=1
__global__ void sw(int* a, int mode) {
    switch (mode) {
    case 0:
    case 1: a[threadIdx.x] = 1; break;
    case 2: { a[threadIdx.x] = 2; break; }
    default: a[threadIdx.x] = 3;
    }
}
"#;
    let c = r#"
//--blockDim=32 --gridDim=1
__global__ void sw(int* a, int mode) {
    {
        int __switch0 = mode;
        if (__switch0 == 0 || __switch0 == 1) { a[threadIdx.x] = 1; }
        else if (__switch0 == 2) { { a[threadIdx.x] = 2; break_placeholder; } }
        else { a[threadIdx.x] = 3; }
    }
}
"#;
    // A `break` nested in a block ends its group too, but is not at the group's end: it is
    // rejected rather than guessed at.
    let got = clang("switch_nested_break.cu", cpp, &Options::default());
    assert_eq!(got.rejected.len(), 1, "{:?}", got.rejected);
    assert!(got.rejected[0].errors[0]
        .message
        .contains("`break` out of a `switch`"));
    let flat = cpp.replace(
        "case 2: { a[threadIdx.x] = 2; break; }",
        "case 2: a[threadIdx.x] = 2; break;",
    );
    let c = c.replace(
        "{ { a[threadIdx.x] = 2; break_placeholder; } }",
        "{ a[threadIdx.x] = 2; }",
    );
    same_ir(&flat, &c, "sw");
    let fall = flat.replace(
        "case 2: a[threadIdx.x] = 2; break;",
        "case 2: a[threadIdx.x] = 2;",
    );
    let got = clang("switch_fall.cu", &fall, &Options::default());
    let e = &got.rejected[0].errors[0];
    assert!(e.message.contains("fall-through"), "{e:?}");
}

#[test]
fn references_are_pointers_to_what_they_bind() {
    let cpp = r#"
//--blockDim=32 --gridDim=1
__device__ void add(float& acc, float v) { acc += v; }
__global__ void refs(float* out) {
    __shared__ float s[32];
    float& mine = s[threadIdx.x];
    mine = 0.0f;
    add(mine, 1.0f);
    __syncthreads();
    out[threadIdx.x] = s[31 - threadIdx.x];
}
"#;
    let c = r#"
//--blockDim=32 --gridDim=1
__device__ void add(float* acc, float v) { *acc += v; }
__global__ void refs(float* out) {
    __shared__ float s[32];
    float* mine = &s[threadIdx.x];
    *mine = 0.0f;
    add(mine, 1.0f);
    __syncthreads();
    out[threadIdx.x] = s[31 - threadIdx.x];
}
"#;
    same_ir(cpp, c, "refs");
}

#[test]
fn constant_arrays_are_read_only_buffers_of_their_extent() {
    let cpp = r#"
//--blockDim=32 --gridDim=1
__constant__ float weights[8];
__constant__ float grid2d[4][2];
__global__ void weigh(float* x) { x[threadIdx.x] *= weights[threadIdx.x % 8]; }
__global__ void plain(float* x) { x[threadIdx.x] = 0.0f; }
__global__ void two_d(float* x) { x[threadIdx.x] = grid2d[threadIdx.x % 4][1]; }
"#;
    let got = clang("constant.cu", cpp, &Options::default());
    let k = got.module.kernel("weigh").expect("weigh");
    let w = k
        .param_named("weights")
        .expect("a buffer for the __constant__ array");
    let len = k
        .contract
        .lengths
        .iter()
        .find(|l| l.param == w)
        .expect("its length");
    assert_eq!(len.len, warpsafe_ir::Expr::u64(8));
    assert!(got
        .module
        .kernel("plain")
        .expect("plain")
        .param_named("weights")
        .is_none());
    // A two-dimensional one is one buffer, row-major: `grid2d[i][1]` reads element 2i + 1.
    assert!(got.rejected.is_empty(), "{:?}", got.rejected);
    let k = got.module.kernel("two_d").expect("two_d");
    let g = k.param_named("grid2d").expect("a buffer for grid2d");
    let len = k.contract.lengths.iter().find(|l| l.param == g);
    assert_eq!(len.expect("its length").len, warpsafe_ir::Expr::u64(8));
    let ir = k.to_string();
    assert!(ir.contains("* 2") && ir.contains("+ 1"), "{ir}");
}

#[test]
fn vector_types_and_structs_are_scalarised() {
    let cpp = r#"
//--blockDim=64 --gridDim=1
//@ len(ps) = 64
struct P { float x, y; };
__global__ void k(const float* __restrict__ A, float* C, P* ps) {
    __shared__ float4 t[64];
    float4 a = reinterpret_cast<const float4*>(&A[4])[threadIdx.x];
    float4 b = make_float4(1.f, 2.f, 3.f, 4.f);
    t[threadIdx.x] = a;
    reinterpret_cast<float4*>(C)[threadIdx.x] = b;
    __syncthreads();
    ps[threadIdx.x].y = a.x + t[63 - threadIdx.x].w;
    P q = ps[threadIdx.x];
    (ps + threadIdx.x)->x = q.y;
}
"#;
    let c = r#"
//--blockDim=64 --gridDim=1
//@ len(ps) = 64 * 2
__global__ void k(const float* __restrict__ A, float* C, float* ps) {
    __shared__ float t[256];
    float a__x = A[4LL + (long long)threadIdx.x * 4LL];
    float a__y = A[4LL + (long long)threadIdx.x * 4LL + 1LL];
    float a__z = A[4LL + (long long)threadIdx.x * 4LL + 2LL];
    float a__w = A[4LL + (long long)threadIdx.x * 4LL + 3LL];
    float b__x = 1.f;
    float b__y = 2.f;
    float b__z = 3.f;
    float b__w = 4.f;
    t[(long long)threadIdx.x * 4LL] = a__x;
    t[(long long)threadIdx.x * 4LL + 1LL] = a__y;
    t[(long long)threadIdx.x * 4LL + 2LL] = a__z;
    t[(long long)threadIdx.x * 4LL + 3LL] = a__w;
    C[(long long)threadIdx.x * 4LL] = b__x;
    C[(long long)threadIdx.x * 4LL + 1LL] = b__y;
    C[(long long)threadIdx.x * 4LL + 2LL] = b__z;
    C[(long long)threadIdx.x * 4LL + 3LL] = b__w;
    __syncthreads();
    ps[(long long)threadIdx.x * 2LL + 1LL] = a__x + t[(long long)(63 - threadIdx.x) * 4LL + 3LL];
    float q__x = ps[(long long)threadIdx.x * 2LL];
    float q__y = ps[(long long)threadIdx.x * 2LL + 1LL];
    ps[(long long)threadIdx.x * 2LL] = q__y;
}
"#;
    let got = clang("records.cu", cpp, &Options::default());
    assert!(got.rejected.is_empty(), "rejected: {:?}", got.rejected);
    let want = warpsafe_cuda_front::compile(c).unwrap_or_else(|e| panic!("C twin: {e:?}"));
    let (a, b) = (
        got.module.kernels[0].to_string(),
        want.kernels[0].to_string(),
    );
    // The header's length counts records: two floats each.
    assert!(a.contains("requires len(ps) == 64ull * 2ull;"), "{a}");
    let body = |t: &str| -> String { t.lines().filter(|l| !l.contains("len(ps)")).collect() };
    assert_eq!(body(&a), body(&b), "C++:\n{a}\nC:\n{b}");
}

#[test]
fn records_with_mixed_fields_in_memory_are_read_and_pointer_fields_rejected_with_their_span() {
    let src = r#"
struct Mixed { float f; long long i; };
__global__ void k(Mixed* m) { m[threadIdx.x].f = 1.0f; }
struct Node { float v; Node* next; };
__global__ void j(Node* n) { n[threadIdx.x].v = 1.0f; }
"#;
    let got = clang("mixed_record.cu", src, &Options::default());
    assert!(got.module.kernel("k").is_some());
    let names: Vec<&str> = got.rejected.iter().map(|r| r.kernel.as_str()).collect();
    assert_eq!(names, ["j"]);
    let e = &got.rejected[0].errors[0];
    assert!(e.message.contains("pointer field `next`"), "{e:?}");
    assert!(
        src[e.span.range()].contains("Node"),
        "{:?}",
        &src[e.span.range()]
    );
}

#[test]
fn launches_in_host_code_give_the_shape_when_nothing_else_does() {
    let src = r#"
#include <cuda_runtime.h>
template <int B> __global__ void k(float* x, int n) { if (threadIdx.x < n) x[threadIdx.x] = 0; }
__global__ void j(float* x) { x[threadIdx.x + blockDim.x * blockIdx.x] = 0; }
__global__ void twice(float* x) { x[threadIdx.x] = 1; }
int main() {
    float* d; int n = 1000;
    cudaMalloc(&d, n * sizeof(float));
    dim3 block(16, 16);
    const int threads = 2 * 64;
    k<128><<<(n + 127) / 128, threads>>>(d, n);
    j<<<dim3(4, 2), block, 64>>>(d);
    twice<<<1, 32>>>(d);
    twice<<<1, 64>>>(d);
    return 0;
}
"#;
    let got = clang("launches.cu", src, &Options::default());
    let k = got.module.kernel("k").expect("k");
    assert_eq!(k.contract.block_dim, Some([128, 1, 1]));
    assert_eq!(
        k.contract.grid_dim,
        Some([8, 1, 1]),
        "n keeps its initialiser 1000: (1000 + 127) / 128 blocks"
    );
    let j = got.module.kernel("j").expect("j");
    assert_eq!(j.contract.block_dim, Some([16, 16, 1]));
    assert_eq!(j.contract.grid_dim, Some([4, 2, 1]));
    let t = got.module.kernel("twice").expect("twice");
    assert_eq!(t.contract.block_dim, None, "two launches disagree");
    assert!(
        got.launch_notes
            .iter()
            .any(|(s, n)| n.contains("block [16, 16, 1] of `j`")
                && src[s.range()].starts_with("j<<<"))
    );
}

#[test]
fn small_integers_and_half_precision_keep_their_types() {
    let src = r#"
//--blockDim=64 --gridDim=1
#include <cuda_fp16.h>
__global__ void haxpy(const __half* __restrict__ x, __half* y, float a, int n) {
    int i = threadIdx.x;
    if (i < n) {
        __half ah = __float2half(a);
        y[i] = ah * x[i] + y[i];
        float f = __half2float(y[i]);
        y[i] = f;
    }
}
__global__ void hist(const unsigned char* data, unsigned int* h, int n) {
    int i = threadIdx.x;
    if (i < n) atomicAdd(&h[data[i]], 1u);
    short s = 40000;
    h[0] = s;
}
"#;
    let got = clang("small_types.cu", src, &Options::default());
    assert!(got.rejected.is_empty(), "{:?}", got.rejected);
    let haxpy = got.module.kernel("haxpy").expect("haxpy").to_string();
    assert!(
        haxpy.contains("kernel haxpy(x: &[f16], y: &mut [f16], a: f32, n: i32)"),
        "{haxpy}"
    );
    assert!(
        haxpy.contains("y[i_0] = (ah_1 * x[i_0]) + y[i_0];"),
        "{haxpy}"
    );
    assert!(haxpy.contains("y[i_0] = (f16)f_2;"), "{haxpy}");
    let hist = got.module.kernel("hist").expect("hist").to_string();
    assert!(
        hist.contains("atomicAdd(&h[(i32)data[i_0]], 1u);"),
        "{hist}"
    );
    assert!(hist.contains("let s_1: i16 = -25536i16;"), "{hist}");
}

#[test]
fn library_idioms_scalar_constants_null_checks_and_record_pointers() {
    let cpp = r#"
//--blockDim=32 --gridDim=1
#include <algorithm>
__constant__ float scale;
__global__ void lib(const float* __restrict__ in, float* out, int n) {
    if (in == nullptr || !out) return;
    const float4* in4 = reinterpret_cast<const float4*>(in);
    float4 v = in4[threadIdx.x];
    int last = std::min((int)threadIdx.x, n - 1);
    out[last] = __saturatef(v.y * scale) + __fdividef(v.x, 2.0f);
}
"#;
    let c = r#"
//--blockDim=32 --gridDim=1
__global__ void lib(const float* __restrict__ in, float* out, int n, const float* scale) {
    if (false || !true) return;
    const float* in4 = in;
    float v__x = in4[(long long)threadIdx.x * 4LL];
    float v__y = in4[(long long)threadIdx.x * 4LL + 1LL];
    float v__z = in4[(long long)threadIdx.x * 4LL + 2LL];
    float v__w = in4[(long long)threadIdx.x * 4LL + 3LL];
    int last = min((int)threadIdx.x, n - 1);
    out[last] = fminf(fmaxf(v__y * scale[0], 0.0f), 1.0f) + v__x / 2.0f;
}
"#;
    let got = clang("library.cu", cpp, &Options::default());
    assert!(got.rejected.is_empty(), "{:?}", got.rejected);
    let want = warpsafe_cuda_front::compile(c).unwrap_or_else(|e| panic!("C twin: {e:?}"));
    let (a, b) = (
        got.module.kernels[0].to_string(),
        want.kernels[0].to_string(),
    );
    // The constant's buffer has its one element.
    assert!(a.contains("requires len(scale) == 1ull;"), "{a}");
    let body = |t: &str| -> String { t.lines().filter(|l| !l.contains("len(scale)")).collect() };
    assert_eq!(body(&a), body(&b), "C++:\n{a}\nC:\n{b}");
    // A step of a pointer to records is a step of whole records: 4 floats per `float4`.
    let bumped = cpp.replace(
        "float4 v = in4[threadIdx.x];",
        "in4 += 1; float4 v = in4[threadIdx.x];",
    );
    let got = clang("bumped.cu", &bumped, &Options::default());
    assert!(got.rejected.is_empty(), "{:?}", got.rejected);
    let a = got.module.kernels[0].to_string();
    assert!(a.contains("in4_off_0 = in4_off_0 + 4ll;"), "{a}");
    assert!(
        a.contains("let v__y_2: f32 = in[in4_off_0 + ((((i64)threadIdx.x) * 4ll) + 1ll)];"),
        "{a}"
    );
}

#[test]
fn the_samples_shared_memory_class_is_dynamic_shared_memory() {
    let cpp = r#"
//--blockDim=128 --gridDim=2
//@ shared_bytes = blockDim.x * 4
template <class T> struct SharedMemory {
    __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
};
template <class T> __global__ void reduce0(const T *in, T *out) {
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = sdata[blockDim.x - 1];
}
template __global__ void reduce0<float>(const float *, float *);
"#;
    let c = r#"
//--blockDim=128 --gridDim=2
//@ shared_bytes = blockDim.x * 4
__global__ void reduce0(const float *in, float *out) {
    extern __shared__ float sdata__smem[];
    float *sdata = sdata__smem;
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = sdata[blockDim.x - 1];
}
"#;
    same_ir(cpp, c, "reduce0");
}

#[test]
fn cg_reduce_is_a_butterfly_of_tile_shuffles() {
    let cpp = r#"
//--blockDim=64 --gridDim=1
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void tile_max(const int* in, int* out) {
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int m = cg::reduce(tile, in[threadIdx.x], cg::greater<int>());
    if (tile.thread_rank() == 0) out[threadIdx.x / 32] = m;
}
"#;
    let c = r#"
//--blockDim=64 --gridDim=1
__global__ void tile_max(const int* in, int* out) {
    int m;
    m = in[threadIdx.x];
    for (int __reduce0 = 16; __reduce0 > 0; __reduce0 >>= 1)
        m = max(m, __shfl_xor_sync(4294967295u, m, __reduce0, 32u));
    if ((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u == 0) out[threadIdx.x / 32] = m;
}
"#;
    same_ir(cpp, c, "tile_max");
}

#[test]
fn helpers_read_the_file_scope_arrays_their_kernel_is_given() {
    let cpp = r#"
//--blockDim=32 --gridDim=1
__constant__ int N, M;
__constant__ float taps[4];
__device__ float tap(const float* a, int i) { return a[i % N] * taps[i & 3]; }
__device__ float twice(const float* a, int i) { return tap(a, i) + tap(a, i + M); }
__global__ void filter(const float* a, float* b) { b[threadIdx.x] = twice(a, threadIdx.x); }
"#;
    let got = clang("helper_globals.cu", cpp, &Options::default());
    assert!(got.rejected.is_empty(), "rejected: {:?}", got.rejected);
    let k = got.module.kernel("filter").expect("filter");
    for g in ["N", "M", "taps"] {
        assert!(k.param_named(g).is_some(), "no buffer for `{g}`:\n{k}");
    }
    let ir = k.to_string();
    assert!(
        ir.contains("taps["),
        "the helper's read of `taps` is lost:\n{ir}"
    );
}

#[test]
fn records_in_dynamic_shared_memory_are_its_scalars() {
    let src = r#"
//--blockDim=32 --gridDim=2
//@ shared_bytes = blockDim.x * 16
__global__ void reverse(float4 *out, const float4 *in) {
    extern __shared__ float4 tile[];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * 32 + t];
    __syncthreads();
    float4 v = tile[31 - t];
    v.x += 1.0f;
    out[blockIdx.x * 32 + t] = v;
}
"#;
    let got = clang("dyn_records.cu", src, &Options::default());
    assert!(got.rejected.is_empty(), "{:?}", got.rejected);
    let k = &got.module.kernels[0];
    assert!(k.to_string().contains("extern shared tile: f32[0];"), "{k}");
    let inp: Vec<f32> = (0..256).map(|i| i as f32 * 0.5).collect();
    let out = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_f32(&[0.0; 256])),
            Arg::Buffer(Buffer::from_f32(&inp)),
        ],
    );
    let want: Vec<f32> = (0..64)
        .flat_map(|i| {
            let j = i / 32 * 32 + 31 - i % 32;
            let mut v = inp[4 * j..4 * j + 4].to_vec();
            v[0] += 1.0;
            v
        })
        .collect();
    assert_eq!(out[0].to_f32(), want);
    // Half the bytes the records need: the upper threads' stores are out of bounds.
    let small = src.replace("blockDim.x * 16", "blockDim.x * 8");
    let got = clang("dyn_records_small.cu", &small, &Options::default());
    let v = common::verdict(&got.module.kernels[0], Property::Bounds);
    if !common::z3_missing(&v) {
        assert!(matches!(v, Verdict::Violated(_)), "{v:?}");
    }
}

#[test]
fn an_inlined_call_right_of_a_short_circuit_runs_only_when_reached() {
    let src = r#"
//--blockDim=32 --gridDim=2
struct P2 { float x, y; };
__device__ bool inside(P2 p, int *hits) {
    atomicAdd(hits, 1);
    return p.x * p.x + p.y * p.y < 1.0f;
}
__global__ void classify(const float *xs, const float *ys, int *out, int *hits) {
    int i = blockIdx.x * 32 + threadIdx.x;
    P2 p;
    p.x = xs[i];
    p.y = ys[i];
    if (p.x > 0.0f && inside(p, hits)) out[i] = 1; else out[i] = 0;
    out[i] += (p.y > 0.0f || inside(p, hits)) ? 10 : 0;
}
"#;
    let got = clang("short_circuit.cu", src, &Options::default());
    assert!(got.rejected.is_empty(), "{:?}", got.rejected);
    let xs: Vec<f32> = (0..64).map(|i| (i as f32 - 31.5) / 40.0).collect();
    let ys: Vec<f32> = (0..64)
        .map(|i| ((i * 7 % 64) as f32 - 31.5) / 40.0)
        .collect();
    let out = common::run_buffers(
        &got.module.kernels[0],
        vec![
            Arg::Buffer(Buffer::from_f32(&xs)),
            Arg::Buffer(Buffer::from_f32(&ys)),
            Arg::Buffer(Buffer::from_i32(&[0; 64])),
            Arg::Buffer(Buffer::from_i32(&[0])),
        ],
    );
    let inside = |x: f32, y: f32| x * x + y * y < 1.0;
    let mut hits = 0;
    let want: Vec<i32> = (0..64)
        .map(|i| {
            let (x, y) = (xs[i], ys[i]);
            let mut o = 0;
            if x > 0.0 {
                hits += 1;
                o = inside(x, y) as i32;
            }
            if y > 0.0 {
                o += 10;
            } else {
                hits += 1;
                o += 10 * inside(x, y) as i32;
            }
            o
        })
        .collect();
    assert_eq!(out[2].to_i32(), want);
    assert_eq!(
        out[3].to_i32(),
        vec![hits],
        "the call runs only where it is reached"
    );
}

#[test]
fn a_record_assignment_used_as_a_value_assigns_then_reads() {
    let src = r#"
//--blockDim=32 --gridDim=2
struct V3 { float x, y, z; };
__device__ V3 sub(V3 a, V3 b) { V3 r; r.x = a.x - b.x; r.y = a.y - b.y; r.z = a.z - b.z; return r; }
__device__ float dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__global__ void dist2(const float *p, float *out) {
    int i = blockIdx.x * 32 + threadIdx.x;
    V3 a;
    a.x = p[3 * i];
    a.y = p[3 * i + 1];
    a.z = p[3 * i + 2];
    V3 b = {1.0f, 2.0f, 3.0f};
    V3 tmp;
    out[i] = dot(tmp = sub(a, b), tmp) + tmp.x;
}
"#;
    let got = clang("assign_value.cu", src, &Options::default());
    assert!(got.rejected.is_empty(), "{:?}", got.rejected);
    let p: Vec<f32> = (0..192).map(|i| (i % 17) as f32 * 0.25).collect();
    let out = common::run_buffers(
        &got.module.kernels[0],
        vec![
            Arg::Buffer(Buffer::from_f32(&p)),
            Arg::Buffer(Buffer::from_f32(&[0.0; 64])),
        ],
    );
    let want: Vec<f32> = (0..64)
        .map(|i| {
            let d = [p[3 * i] - 1.0, p[3 * i + 1] - 2.0, p[3 * i + 2] - 3.0];
            d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[0]
        })
        .collect();
    assert_eq!(out[1].to_f32(), want);
}

#[test]
fn a_global_array_of_a_typedef_scalar_is_a_buffer() {
    // The alias is known once the whole file is walked: the table was an unknown identifier.
    let src = r#"
//--blockDim=32 --gridDim=1
typedef unsigned int uint;
__constant__ uint tb[4][8];
__global__ void k(uint *out) { out[threadIdx.x] = tb[threadIdx.x % 4][threadIdx.x % 8]; }
"#;
    let got = clang("typedef_global.cu", src, &Options::default());
    assert!(got.rejected.is_empty(), "{:?}", got.rejected);
    let text = got.module.kernels[0].to_string();
    assert!(text.contains("k(out: &mut [u32], tb: &[u32])"), "{text}");
    assert!(text.contains("requires len(tb) == 32ull;"), "{text}");
}
