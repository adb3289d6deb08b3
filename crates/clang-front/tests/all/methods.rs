//! Member functions of user classes, constructors, user operators, functors and lambdas
//! through clang: each is inlined over its object (what a method writes lands in the object
//! itself), lowering to the IR of a hand-written C twin; what is not modelled is rejected
//! with the construct named, costing only its own kernel.

use std::path::PathBuf;
use warpsafe_clang_front::{compile_file, Compiled, Options};

fn clang(name: &str, source: &str) -> Compiled {
    let dir = std::env::temp_dir().join(format!("warpsafe-methods-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, source).expect("writes");
    compile_file(&path, source, &Options::default()).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

fn same_ir(cpp: &str, c: &str, kernel: &str) {
    let got = clang(&format!("{kernel}.cu"), cpp);
    assert!(got.rejected.is_empty(), "rejected: {:?}", got.rejected);
    let want = warpsafe_cuda_front::compile(c).unwrap_or_else(|e| panic!("C twin: {e:?}"));
    let (a, b) = (
        got.module.kernel(kernel).expect("clang kernel").to_string(),
        want.kernel(kernel).expect("subset kernel").to_string(),
    );
    assert_eq!(a, b, "C++:\n{a}\nC:\n{b}");
}

/// The message of the one rejected kernel `kernel`.
fn rejection(got: &Compiled, kernel: &str) -> String {
    let r = got
        .rejected
        .iter()
        .find(|r| r.kernel == kernel)
        .unwrap_or_else(|| panic!("`{kernel}` not rejected: {:?}", got.rejected));
    r.errors
        .iter()
        .map(|e| e.message.clone())
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn a_method_that_changes_its_object_writes_the_object() {
    let cpp = r#"
//--blockDim=64 --gridDim=2
#include <cuda_runtime.h>
struct Acc {
    float s;
    __device__ void add(float v) { s += v; }
    __device__ float get() const { return s; }
};
__global__ void k(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { Acc a{0.f}; a.add(x[i]); a.add(1.f); y[i] = a.get(); }
}
"#;
    let c = r#"
//--blockDim=64 --gridDim=2
__global__ void k(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a__s = 0.0f;
        float v__i1 = x[i];
        a__s += v__i1;
        a__s += 1.0f;
        y[i] = a__s;
    }
}
"#;
    same_ir(cpp, c, "k");
}

#[test]
fn a_functor_passed_to_a_template_is_its_operator() {
    let cpp = r#"
//--blockDim=32 --gridDim=1
struct Sum { __device__ float operator()(float a, float b) const { return a + b; } };
template <class Op> __device__ float fold(float a, float b, Op op) { return op(a, b); }
__global__ void f(const float *x, float *y) {
    y[threadIdx.x] = fold(x[threadIdx.x], 1.0f, Sum());
}
"#;
    let c = r#"
//--blockDim=32 --gridDim=1
__global__ void f(const float *x, float *y) {
    float a__i2 = x[threadIdx.x];
    float ret__i2 = a__i2 + 1.0f;
    y[threadIdx.x] = ret__i2;
}
"#;
    same_ir(cpp, c, "f");
}

#[test]
fn members_through_pointers_arrays_and_this_reach_memory() {
    let cpp = r#"
//--blockDim=32 --gridDim=1
struct P { float a, b; __device__ void scale(float k) { a *= k; this->b = a + b; } };
__global__ void g(P *p) {
    p[threadIdx.x].scale(2.0f);
    (p + 32)->scale(3.0f);
}
"#;
    let c = r#"
//--blockDim=32 --gridDim=1
__global__ void g(float *p) {
    p[(long long)threadIdx.x * 2LL] *= 2.0f;
    p[(long long)threadIdx.x * 2LL + 1LL] = p[(long long)threadIdx.x * 2LL] + p[(long long)threadIdx.x * 2LL + 1LL];
    p[64] *= 3.0f;
    p[64 + 1] = p[64] + p[64 + 1];
}
"#;
    same_ir(cpp, c, "g");
}

#[test]
fn constructors_static_members_and_shared_records() {
    let src = r#"
//--blockDim=64 --gridDim=1
template <int N> struct Tile {
    static constexpr int kSize = N * 2;
    struct Storage { float v[kSize]; int flag; };
    Storage& st;
    int base = 3;
    __device__ explicit Tile(Storage& s) : st(s) {}
    __device__ void put(int i, float x) { st.v[i] = x + base; }
    __device__ float at(int i) const { return st.v[i]; }
    __device__ static int size() { return kSize; }
};
__global__ void t(float *out) {
    __shared__ Tile<64>::Storage storage;
    Tile<64> tile(storage);
    tile.put(threadIdx.x, 1.0f);
    __syncthreads();
    out[threadIdx.x] = tile.at(Tile<64>::size() - 1 - threadIdx.x);
}
"#;
    let got = clang("tile.cu", src);
    assert!(got.rejected.is_empty(), "rejected: {:?}", got.rejected);
    let ir = got.module.kernel("t").expect("kernel").to_string();
    assert!(ir.contains("shared storage__v: f32[128]"), "{ir}");
    assert!(
        ir.contains("storage__v[threadIdx.x] = 1.0f + ((f32)tile__base"),
        "{ir}"
    );
}

#[test]
fn lambdas_capture_by_copy_and_by_reference() {
    let cpp = r#"
//--blockDim=32 --gridDim=1
__global__ void l(const int *x, int *y) {
    int k = 3;
    int total = 0;
    auto add = [&] __device__ (int v) { total += v * k; };
    add(x[threadIdx.x]);
    add(1);
    y[threadIdx.x] = total;
}
"#;
    let c = r#"
//--blockDim=32 --gridDim=1
__global__ void l(const int *x, int *y) {
    int k = 3;
    int total = 0;
    int v__i3 = x[threadIdx.x];
    total += v__i3 * k;
    total += 1 * k;
    y[threadIdx.x] = total;
}
"#;
    same_ir(cpp, c, "l");
}

#[test]
fn what_is_not_modelled_is_rejected_by_name() {
    let src = r#"
//--blockDim=32 --gridDim=1
struct Q {
    int n;
    __device__ bool bump() { n++; return n > 2; }
    __device__ int find(const int *x, int k) const {
        for (int j = 0; j < n; j++) if (x[j] == k) return j;
        return -1;
    }
    __device__ int down(int d) { return d == 0 ? 0 : down(d - 1); }
};
__global__ void lazy(int *y, int n) {
    Q q{0};
    if (n > 0 && q.bump()) y[0] = 1;
}
__global__ void early(const int *x, int *y) {
    Q q{4};
    y[threadIdx.x] = q.find(x, 7);
}
__global__ void recursive(int *y) {
    Q q{0};
    y[threadIdx.x] = q.down(3);
}
__global__ void floats(const float *x, unsigned *y) {
    y[threadIdx.x] = __match_any_sync(0xffffffffu, x[threadIdx.x]);
}
__global__ void fine(int *y) {
    Q q{1};
    q.bump();
    y[threadIdx.x] = q.n;
}
"#;
    let got = clang("rejects.cu", src);
    assert!(got.module.kernel("fine").is_some(), "{:?}", got.rejected);
    // A member call right of `&&` runs in a branch of its own (only where `n > 0`).
    assert!(got.module.kernel("lazy").is_some(), "{:?}", got.rejected);
    assert!(rejection(&got, "early").contains("`return` inside a loop"));
    assert!(rejection(&got, "recursive").contains("recursive call to `down`"));
    assert!(rejection(&got, "floats").contains("floating value"));
    for r in &got.rejected {
        assert!(
            r.errors.iter().all(|e| !e.span.is_dummy()),
            "{}: {:?}",
            r.kernel,
            r.errors
        );
    }
}
