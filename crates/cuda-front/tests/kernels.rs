//! Lowering of realistic kernels: the printed IR and the IR structure.

use warpsafe_cuda_front::compile;
use warpsafe_ir::{check_kernel, Kernel, Stmt, StmtKind};

fn one(src: &str) -> Kernel {
    let m = match compile(src) {
        Ok(m) => m,
        Err(errs) => {
            for e in &errs {
                let at = src.get(e.span.range()).unwrap_or("?");
                eprintln!("error: {} at `{at}`", e.message);
            }
            panic!("compile failed");
        }
    };
    assert_eq!(m.kernels.len(), 1);
    let k = m.kernels.into_iter().next().unwrap();
    check_kernel(&k).expect("well typed");
    k
}

fn count(k: &Kernel, pred: &dyn Fn(&Stmt) -> bool) -> usize {
    let mut n = 0;
    for s in &k.body {
        s.walk(&mut |s| n += pred(s) as usize);
    }
    n
}

#[test]
fn tiled_matmul() {
    let src = r#"
#include <cuda_runtime.h>
#define TILE 16
//--blockDim=[16,16] --gridDim=[4,4]
//@ len(A) = n * n
//@ len(B) = n * n
//@ len(C) = n * n
//@ requires n % TILE == 0
//@ arg n = 64
__global__ void matmul(const float* __restrict__ A, const float* __restrict__ B, float* C, int n) {
    __shared__ float As[TILE][TILE + 1];
    __shared__ float Bs[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
"#;
    let k = one(src);
    let text = k.to_string();
    assert!(text.contains("shared As: f32[16][17];"), "{text}");
    assert!(text.contains("// blockDim = [16, 16, 1]"), "{text}");
    assert!(text.contains("requires (n % 16) == 0;"), "{text}");
    assert!(
        text.contains("As[ty_1][tx_0] = A[((row_2 * n) + (t_5 * 16)) + tx_0];"),
        "{text}"
    );
    assert!(
        text.contains("acc_4 = acc_4 + (As[ty_1][k_6] * Bs[k_6][tx_0]);"),
        "{text}"
    );
    assert_eq!(k.contract.lengths.len(), 3);
    assert_eq!(k.contract.defaults.len(), 1);
    assert_eq!(count(&k, &|s| matches!(s.kind, StmtKind::SyncThreads)), 2);
}

#[test]
fn harris_reduction_with_warp_unrolled_tail() {
    let src = r#"
__device__ void warpReduce(volatile float* s, int tid) {
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}
//@ shared_bytes = blockDim.x * sizeof(float)
__global__ void reduce(const float* in, float* out, unsigned int n) {
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) warpReduce(sdata, tid);
    if (tid == 0) out[blockIdx.x] = sdata[0];
}
"#;
    let k = one(src);
    let text = k.to_string();
    assert!(text.contains("extern shared sdata: f32[0];"), "{text}");
    assert!(k.shared[0].dynamic);
    assert!(
        text.contains("sdata[tid_4] = sdata[tid_4] + sdata[tid_4 + 32];"),
        "{text}"
    );
    assert!(text.contains("let tid_4: i32 = (i32)tid_0;"), "{text}");
    assert!(k.contract.dynamic_shared_bytes.is_some());
}

#[test]
fn pointer_with_offset() {
    let src = r#"
__global__ void rows(float* A, int n, int off) {
    float* p = A + off;
    int i = threadIdx.x;
    p[i] = p[i + 1] * 2.0f;
    p += n;
    *p = 1.0f;
    float* q = &A[3];
    q[0] = 0.0f;
}
"#;
    let k = one(src);
    let text = k.to_string();
    assert!(text.contains("let p_off_0: i64 = (i64)off;"), "{text}");
    assert!(
        text.contains("A[p_off_0 + ((i64)i_1)] = A[p_off_0 + ((i64)(i_1 + 1))] * 2.0f;"),
        "{text}"
    );
    assert!(text.contains("p_off_0 = p_off_0 + ((i64)n);"), "{text}");
    assert!(text.contains("A[p_off_0] = 1.0f;"), "{text}");
    assert!(text.contains("A[q_off_2] = 0.0f;"), "{text}");
}

#[test]
fn atomics_with_old_value_and_shuffles() {
    let src = r#"
__global__ void hist(unsigned int* bins, const int* keys, int* slots, float* sums) {
    int i = threadIdx.x;
    unsigned int old = atomicAdd(&bins[keys[i]], 1);
    slots[i] = old;
    atomicAdd(&sums[0], 1);
    int prev = atomicCAS(&slots[0], 0, i);
    float v = sums[i];
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o);
    if (prev == 0) sums[i] = v;
}
"#;
    let k = one(src);
    let text = k.to_string();
    assert!(
        text.contains("old_1 = atomicAdd(&bins[keys[i_0]], 1u);"),
        "{text}"
    );
    assert!(text.contains("atomicAdd(&sums[0], 1.0f);"), "{text}");
    assert!(
        text.contains("old_3 = atomicCAS(&slots[0], 0, i_0);"),
        "{text}"
    );
    assert!(
        text.contains("shfl_7 = __shfl_down_sync(4294967295u, v_5, (u32)o_6, 32u);"),
        "{text}"
    );
    assert_eq!(
        count(&k, &|s| matches!(s.kind, StmtKind::Shuffle { .. })),
        1
    );
}

#[test]
fn gpuverify_annotated_loop() {
    let src = r#"
//pass
//--blockDim=64 --gridDim=1
__global__ void evens(int* a, int n) {
    __requires(n > 0);
    int tid = threadIdx.x * 2;
    for (int i = tid; __invariant(i % 2 == 0), i < n; i += 2) {
        a[i] = 0;
    }
    __assert(tid % 2 == 0);
}
"#;
    let k = one(src);
    let text = k.to_string();
    assert!(text.contains("assume(n > 0);"), "{text}");
    // The invariant is checked at every evaluation of the loop head, before the guard.
    assert!(
        text.contains(
            "for (let i_1: i32 = tid_0; ; i_1 = i_1 + 2) {\n        assert((i_1 % 2) == 0);\n        if (!(i_1 < n)) {"
        ),
        "{text}"
    );
    assert!(text.contains("assert((tid_0 % 2) == 0);"), "{text}");
    assert_eq!(k.contract.block_dim, Some([64, 1, 1]));
}

#[test]
fn helper_with_early_return() {
    let src = r#"
__device__ int find(const int* a, int n, int key) {
    if (n <= 0) return -1;
    for (int i = 0; i < n; i++) {
        if (a[i] == key) return i;
    }
    return -1;
}
__device__ float clampf(float x) { return x < 0.0f ? 0.0f : x; }
__global__ void k(const int* a, int* out, float* f, int n) {
    int t = threadIdx.x;
    out[t] = find(a, n, t) + 1;
    f[t] = clampf(f[t]);
}
"#;
    let k = one(src);
    let text = k.to_string();
    assert!(text.contains("do {"), "{text}");
    assert!(text.contains("} while (false);"), "{text}");
    assert!(text.contains("done_"), "{text}");
    assert!(text.contains("if (done_"), "{text}");
    assert_eq!(count(&k, &|s| matches!(s.kind, StmtKind::Return)), 0);
}

#[test]
fn conversions_are_explicit() {
    let src = r#"
__global__ void conv(float* x, double* d, long long* l, unsigned n) {
    int i = threadIdx.x;
    unsigned u = i + n;
    long long big = i * 3ll;
    float f = x[i] * 2.0;
    double g = x[i] * 1.0f;
    bool b = i < 3;
    int c = (i < 3) + b;
    x[i] = f; d[i] = g; l[i] = big + u + c;
    int post = i++;
    l[0] = post;
}
"#;
    let k = one(src);
    let text = k.to_string();
    assert!(text.contains("let u_1: u32 = ((u32)i_0) + n;"), "{text}");
    assert!(
        text.contains("let big_2: i64 = ((i64)i_0) * 3ll;"),
        "{text}"
    );
    assert!(
        text.contains("let f_3: f32 = (f32)(((f64)x[i_0]) * 2.0);"),
        "{text}"
    );
    assert!(
        text.contains("let g_4: f64 = (f64)(x[i_0] * 1.0f);"),
        "{text}"
    );
    assert!(
        text.contains("let c_6: i32 = ((i32)(i_0 < 3)) + ((i32)b_5);"),
        "{text}"
    );
    assert!(text.contains("let old_7: i32 = i_0;"), "{text}");
    assert!(text.contains("let post_8: i32 = old_7;"), "{text}");
}

#[test]
fn side_effects_in_conditions_are_ordered() {
    let src = r#"
__global__ void q(int* a, int* cnt, int n) {
    int i = threadIdx.x;
    while (atomicAdd(&cnt[0], 1) < n) { a[i] += 1; }
    if (i > 0 && atomicAdd(&cnt[1], 1) > 3) a[0] = 1;
    int v = i > 2 ? atomicAdd(&cnt[2], 1) : 0;
    a[i] = v;
}
"#;
    let k = one(src);
    let text = k.to_string();
    assert!(text.contains("for (; ; ) {"), "{text}");
    assert!(text.contains("if (!(old_"), "{text}");
    assert!(text.contains("let logic_"), "{text}");
    assert!(text.contains("let cond_"), "{text}");
}

#[test]
fn transpose_and_scans_in_one_file() {
    let src = r#"
#include <cuda.h>
#define TILE_DIM 32
#define BLOCK_ROWS 8
const int N_ELEMS = 1024;
//--blockDim=[32,8]
//@ len(odata) = width * height
//@ len(idata) = width * height
extern "C" __global__ void transpose(float* odata, const float* idata, int width, int height) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void kogge_stone(float* data, int n) {
    __shared__ float buf[256];
    unsigned int t = threadIdx.x;
    buf[t] = t < n ? data[t] : 0.0f;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        float v = 0;
        if (t >= stride) v = buf[t - stride];
        __syncthreads();
        buf[t] += v;
        __syncthreads();
    }
    if (t < n) data[t] = buf[t];
}

__global__ void blelloch(int* g, int n) {
    extern __shared__ int temp[];
    int thid = threadIdx.x;
    int offset = 1;
    temp[2 * thid] = g[2 * thid];
    temp[2 * thid + 1] = g[2 * thid + 1];
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) { temp[n - 1] = 0; }
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    g[2 * thid] = temp[2 * thid];
    g[2 * thid + 1] = temp[2 * thid + 1] + N_ELEMS - N_ELEMS;
}
"#;
    let m = warpsafe_cuda_front::compile(src).expect("compiles");
    assert_eq!(m.kernels.len(), 3);
    for k in &m.kernels {
        check_kernel(k).expect("well typed");
        assert_eq!(k.contract.block_dim, Some([32, 8, 1]));
    }
    let t = m.kernel("transpose").unwrap();
    assert_eq!(t.contract.lengths.len(), 2);
    assert_eq!(m.kernel("blelloch").unwrap().contract.lengths.len(), 0);
    let text = m.kernel("blelloch").unwrap().to_string();
    assert!(
        text.contains("temp[bi_") && text.contains("+ 1024) - 1024"),
        "{text}"
    );
    let text = t.to_string();
    assert!(text.contains("tile[threadIdx.y + ((u32)j_"), "{text}");
}

#[test]
fn shared_scalars_local_arrays_and_casts() {
    let src = r#"
#define USE_FAST
__global__ void misc(float* out, const double* in, int n) {
    __shared__ int count;
    float acc[4] = {1.0f, 2.0f};
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    atomicAdd(&count, 1);
    __syncthreads();
#ifdef USE_FAST
    float s = __expf(static_cast<float>(in[0]));
#else
    float s = exp(in[0]);
#endif
    for (int i = 0; i < 4; ++i) acc[i] += s * (float)count;
    out[threadIdx.x] = fmaxf(acc[0], acc[3]) + sqrtf(2) + (float)sqrt(in[1]) + min(n, 3) + abs(-n);
}
"#;
    let k = one(src);
    let text = k.to_string();
    assert!(text.contains("shared count: i32[1];"), "{text}");
    assert!(text.contains("local acc: f32[4];"), "{text}");
    assert!(text.contains("acc[3] = 0.0f;"), "{text}");
    assert!(text.contains("count[0] = 0;"), "{text}");
    assert!(text.contains("atomicAdd(&count[0], 1);"), "{text}");
    assert!(text.contains("__expf.f32((f32)in[0])"), "{text}");
    assert!(text.contains("max(acc[0], acc[3])"), "{text}");
    assert!(text.contains("sqrt.f32(2.0f)"), "{text}");
    assert!(text.contains("(f32)sqrt.f64(in[1])"), "{text}");
    assert!(text.contains("min(n, 3)"), "{text}");
    assert!(text.contains("abs.i32(-n)"), "{text}");
}

#[test]
fn helper_pointer_params_bind_to_caller_offsets() {
    let src = r#"
__device__ void axpy(float* y, const float* x, float a, int i) { y[i] += a * x[i]; }
__device__ __forceinline__ float sum2(const float* p) { return p[0] + p[1]; }
__global__ void k(float* Y, const float* X, int n) {
    int row = blockIdx.x * n;
    axpy(Y + row, X + row, 2.0f, threadIdx.x);
    Y[row] = sum2(&X[row + 4]);
}
"#;
    let k = one(src);
    let text = k.to_string();
    assert!(text.contains("let y_off_1: i64 = (i64)row_0;"), "{text}");
    assert!(
        text.contains("let idx_5: i64 = y_off_1 + ((i64)i_4);"),
        "{text}"
    );
    assert!(
        text.contains("Y[idx_5] = Y[idx_5] + (a_3 * X[x_off_2 + ((i64)i_4)]);"),
        "{text}"
    );
    assert!(
        text.contains("sum2_ret_7 = X[p_off_6] + X[p_off_6 + 1ll];"),
        "{text}"
    );
}

#[test]
fn permission_annotations_are_left_to_the_permission_checker() {
    let plain = "//@ requires n == blockDim.x\n__global__ void k(int* a, int n)\n{\n    a[threadIdx.x] = 1;\n    __syncthreads();\n}\n";
    let annotated = "//@ requires n == blockDim.x\n//@ kernel requires Perm(a[0..n], 1)\n//@ thread requires Perm(a[tid], 1)\n__global__ void k(int* a, int n)\n{\n    a[threadIdx.x] = 1;\n    //@ barrier ensures Perm(a[tid], 1)\n    __syncthreads();\n}\n";
    let a = warpsafe_cuda_front::compile(plain).expect("compiles");
    let b = warpsafe_cuda_front::compile(annotated).expect("compiles with annotations");
    assert_eq!(a.kernels[0].to_string(), b.kernels[0].to_string());
    assert_eq!(
        a.kernels[0].contract.requires,
        b.kernels[0].contract.requires
    );
}
