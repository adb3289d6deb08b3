//! Pointers the way kernels use them, read through clang: a pointer declared first and
//! assigned later, chosen in a branch or by `?:` among several buffers, swapped between two
//! shared buffers, pointing at a scalar local (`&x`), returned by a helper, or held in a
//! `__shared__` variable; a null pointer is rejected. Each kernel beside a buggy twin; plus
//! an interpreter run that checks writes through aliasing pointers land where C++ says.

use super::common::*;

const BRANCH: &str = r#"//--blockDim=64 --gridDim=1
//@ len(even) = 32
//@ len(odd) = 32
//@ len(in) = 64
// verify: race=verified bounds=verified assert=verified
#include <cuda_runtime.h>
__global__ void split(int *even, int *odd, const int *in) {
    int *dst;
    if (threadIdx.x % 2 == 0)
        dst = even;
    else
        dst = odd;
    dst[threadIdx.x / 2] = in[threadIdx.x];
}
"#;

#[test]
fn pointer_chosen_in_a_branch() {
    check("branch", BRANCH);
    // Both branches pick the same buffer: threads 0 and 1 write even[0].
    let bug = twin(BRANCH, "dst = odd;", "dst = even;");
    check("branch_bug", &bug.replace("race=verified", "race=violated"));
}

const LATER: &str = r#"//--blockDim=32 --gridDim=4
//@ len(data) = 128
// verify: race=verified bounds=verified
#include <cuda_runtime.h>
__global__ void rows(float *data, int width) {
    __requires(width == 32);
    float *row;
    row = data + blockIdx.x * width;
    row[threadIdx.x] = 2.0f * row[threadIdx.x];
}
"#;

#[test]
fn pointer_declared_then_assigned() {
    check("later", LATER);
    // The row offset is forgotten: every block scales the same row.
    let bug = twin(LATER, "row = data + blockIdx.x * width;", "row = data;");
    check("later_bug", &bug.replace("race=verified", "race=violated"));
}

const COND: &str = r#"//--blockDim=64 --gridDim=1
//@ len(out) = 64
// verify: race=verified bounds=verified
#include <cuda_runtime.h>
__global__ void halves(float *out) {
    __shared__ float lo[32];
    __shared__ float hi[32];
    unsigned t = threadIdx.x;
    float *slot = t < 32 ? lo : hi;
    slot[t % 32] = (float)t;
    __syncthreads();
    out[t] = (t < 32 ? hi : lo)[t % 32];
}
"#;

#[test]
fn pointer_chosen_by_a_conditional() {
    check("cond", COND);
    // Half the index range: threads 0 and 16 write lo[0].
    let bug = twin(COND, "slot[t % 32]", "slot[t % 16]");
    check("cond_bug", &bug.replace("race=verified", "race=violated"));
}

const PINGPONG: &str = r#"//--blockDim=64 --gridDim=1
//@ len(out) = 64
//@ len(in) = 64
// verify: race=!violated
#include <cuda_runtime.h>
__global__ void smooth(float *out, const float *in) {
    __shared__ float bufA[64];
    __shared__ float bufB[64];
    unsigned t = threadIdx.x;
    bufA[t] = in[t];
    __syncthreads();
    float *src = bufA;
    float *dst = bufB;
    for (int it = 0; it < 4; ++it) {
        dst[t] = 0.5f * (src[t] + src[(t + 1) % 64]);
        __syncthreads();
        float *tmp = src;
        src = dst;
        dst = tmp;
    }
    out[t] = src[t];
}
"#;

#[test]
fn double_buffering_swaps_two_shared_buffers() {
    check("pingpong", PINGPONG);
    // Without the barrier, a thread overwrites the buffer its neighbour still reads.
    let bug = twin(
        PINGPONG,
        "        __syncthreads();\n        float *tmp",
        "        float *tmp",
    );
    check(
        "pingpong_bug",
        &bug.replace("race=!violated", "race=violated"),
    );
}

const NULLP: &str = r#"//--blockDim=32 --gridDim=1
//@ len(a) = 32
//@ len(b) = 32
#include <cuda_runtime.h>
__global__ void pick(int *a, int *b, int mode) {
    int *p = 0;
    if (mode == 1)
        p = a;
    else
        p = b;
    if (p != 0)
        p[threadIdx.x] = mode;
}
"#;

#[test]
fn a_null_pointer_is_rejected_with_its_span() {
    // The clang front end folds `p != 0` as if pointers were never null, so a pointer that
    // may be null is rejected where the null value appears, not verified on a wrong branch.
    let d = dir("nullp");
    let f = d.join("nullp.cu");
    std::fs::write(&f, NULLP).expect("kernel written");
    let out = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["verify", "--frontend", "clang"])
        .arg(&f)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("null pointer"), "{stderr}");
    assert!(stderr.contains("nullp.cu:6"), "{stderr}");
}

const ADDR: &str = r#"//--blockDim=32 --gridDim=2
//@ len(out) = 64
// verify: race=verified bounds=verified assert=verified
#include <cuda_runtime.h>
__device__ void accumulate(int *acc, int v) { *acc += v; }
__global__ void sums(int *out) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int total = 0;
    for (int k = 0; k < 4; ++k)
        accumulate(&total, tid + k);
    out[tid] = total;
}
"#;

#[test]
fn address_of_a_local_scalar() {
    check("addr", ADDR);
    // Every thread of a block stores its sum in the same cell.
    let bug = twin(ADDR, "out[tid] = total;", "out[blockIdx.x] = total;");
    check("addr_bug", &bug.replace("race=verified", "race=violated"));
}

const RET: &str = r#"//--blockDim=16 --gridDim=4
//@ len(m) = 64
// verify: race=verified bounds=verified
#include <cuda_runtime.h>
__device__ float *row_of(float *m, int r, int w) { return m + r * w; }
__global__ void scale_rows(float *m) {
    float *row = row_of(m, blockIdx.x, 16);
    row[threadIdx.x] *= 3.0f;
}
"#;

#[test]
fn helper_returning_a_pointer() {
    check("ret", RET);
    // The row stride is lost: rows of neighbouring blocks overlap.
    let bug = twin(RET, "return m + r * w;", "return m + r;");
    check("ret_bug", &bug.replace("race=verified", "race=violated"));
}

const SHARED_PTR: &str = r#"//--blockDim=64 --gridDim=1
//@ len(a) = 64
// verify: race=verified
#include <cuda_runtime.h>
__global__ void stage(float *a) {
    __shared__ float *src;
    __shared__ float tile[64];
    if (threadIdx.x == 0)
        src = a;
    __syncthreads();
    tile[threadIdx.x] = src[threadIdx.x];
}
"#;

#[test]
fn pointer_held_in_shared_memory() {
    check("shptr", SHARED_PTR);
    // Read before the barrier: thread 0's write of `src` races with the others' reads.
    let bug = twin(SHARED_PTR, "    __syncthreads();\n", "");
    check("shptr_bug", &bug.replace("race=verified", "race=violated"));
    // Every thread writes the pointer: a write-write race on the pointer cell itself, of one
    // value, so benign unless races are strict.
    let all = twin(SHARED_PTR, "    if (threadIdx.x == 0)\n", "");
    check("shptr_all", &all);
    let strict = all.replacen(
        "// verify:",
        "// verify-args: --strict-races\n// verify:",
        1,
    );
    check(
        "shptr_all_strict",
        &strict.replace("race=verified", "race=violated"),
    );
}

/// Runs `kernel` with the buffers `bufs` (`name=zeros:N`); the words written to `name`.
fn run_words(name: &str, kernel: &str, bufs: &[&str], read: &str) -> Vec<i32> {
    let d = dir(name);
    let file = d.join("k.cu");
    std::fs::write(&file, kernel).expect("kernel written");
    let out = d.join("out");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpsafe"));
    cmd.args(["run", "--frontend", "clang"]).arg(&file);
    for b in bufs {
        cmd.arg("--buf").arg(b);
    }
    let r = cmd.arg("--out").arg(&out).output().expect("runs");
    assert!(
        r.status.success(),
        "{}{}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
    words(&out, read)
}

fn words(out: &Path, name: &str) -> Vec<i32> {
    let bytes = std::fs::read(out.join(format!("{name}.bin"))).expect("output written");
    bytes
        .chunks(4)
        .map(|b| i32::from_le_bytes(b.try_into().expect("4 bytes")))
        .collect()
}

#[test]
fn writes_through_aliases_land_in_the_variable() {
    let kernel = r#"//--blockDim=8 --gridDim=1
#include <cuda_runtime.h>
__device__ void bump(int *c, int by) { *c += by; }
__device__ int *larger(int *x, int *y) { return *x > *y ? x : y; }
__global__ void alias(int *out) {
    int t = threadIdx.x;
    int a = t, b = 10;
    int *p;
    p = &a;
    *p = *p * 3;          // a = 3t
    bump(&b, t);          // b = 10 + t
    int *q = larger(&a, &b);
    *q += 100;            // the larger of a and b gains 100
    int *r;
    if (t % 2) r = &a; else r = &b;
    r[0] -= 1;            // odd: a - 1, even: b - 1
    out[3 * t] = a;
    out[3 * t + 1] = b;
    out[3 * t + 2] = *q;
}
"#;
    let got = run_words("alias", kernel, &["out=zeros:24"], "out");
    let mut want = vec![];
    for t in 0..8i32 {
        let (mut a, mut b) = (3 * t, 10 + t);
        let a_larger = a > b;
        if a_larger {
            a += 100
        } else {
            b += 100
        }
        if t % 2 == 1 {
            a -= 1
        } else {
            b -= 1
        }
        want.extend([a, b, if a_larger { a } else { b }]);
    }
    assert_eq!(got, want);
}

const OUT_PARAMS: &str = r#"//--blockDim=64 --gridDim=4
//@ len(a) = 256
// verify: race=verified bounds=verified
__device__ void coords(int *row, int *col) {
    *row = blockIdx.x;
    *col = threadIdx.x;
}
__global__ void fill(float *a) {
    int r, c;
    coords(&r, &c);
    a[r * 64 + c] = 1.0f;
}
"#;

#[test]
fn values_a_helper_returns_through_pointers_to_locals_are_known() {
    // Verify read `r` and `c` back as unknown memory: a possible race and a possible
    // out-of-bounds write on every out-parameter helper.
    check("out_params", OUT_PARAMS);
    let bug = twin(OUT_PARAMS, "*row = blockIdx.x;", "*row = 0;");
    check(
        "out_params_bug",
        &bug.replace("race=verified", "race=violated"),
    );
}

const OUT_PARAM_BRANCH: &str = r#"//--blockDim=64 --gridDim=1
//@ len(a) = 128
// verify: race=verified bounds=verified
__device__ void set(int *p, int v) { *p = v; }
__global__ void spread(float *a) {
    int slot;
    if (threadIdx.x < 32)
        set(&slot, threadIdx.x);
    else
        set(&slot, threadIdx.x + 64);
    a[slot] = 1.0f;
}
"#;

#[test]
fn a_local_set_through_a_pointer_in_both_branches_is_their_merge() {
    check("out_param_branch", OUT_PARAM_BRANCH);
    // Threads 0 and 32 both write a[0].
    let bug = twin(
        OUT_PARAM_BRANCH,
        "set(&slot, threadIdx.x + 64);",
        "set(&slot, threadIdx.x - 32);",
    );
    check(
        "out_param_branch_bug",
        &bug.replace("race=verified", "race=violated"),
    );
}

const CELL_IN_LOOP: &str = r#"//--blockDim=64 --gridDim=1
//@ len(a) = 64
__global__ void reset(float *a, int n) {
    int slot;
    int *p = &slot;
    *p = threadIdx.x;
    for (int i = 0; i < n; i++)
        *p = (*p + 1) % 64;
    a[*p] = 1.0f;
}
"#;

/// The race line `warpsafe verify` prints for `text`.
fn race_line(name: &str, text: &str) -> String {
    let f = dir(name).join(format!("{name}.cu"));
    std::fs::write(&f, text).expect("kernel written");
    let out = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["verify", "--frontend", "clang", "--property", "race"])
        .arg(&f)
        .output()
        .expect("warpsafe runs");
    let out = String::from_utf8_lossy(&out.stdout).into_owned();
    out.lines()
        .find(|l| l.trim_start().starts_with("race "))
        .unwrap_or_else(|| panic!("{name}: no race line in\n{out}"))
        .to_string()
}

#[test]
fn a_local_a_loop_stores_to_is_not_known_after_it() {
    // After n steps every thread holds a distinct slot: no race. The loop's values are
    // summarised, so the verifier cannot tell (possible), but never calls it violated.
    let good = race_line("cell_in_loop", CELL_IN_LOOP);
    assert!(!good.contains("VIOLATED"), "{good}");
    // The twin resets the slot in the loop: every thread writes a[0] once n > 0. A value
    // kept from before the loop (threadIdx.x) would have called it race-free.
    let bug = twin(CELL_IN_LOOP, "*p = (*p + 1) % 64;", "*p = 0;");
    let bad = race_line("cell_in_loop_bug", &bug);
    assert!(!bad.contains("verified"), "{bad}");
}

const RECORD_OUT_PARAM: &str = r#"//--blockDim=64 --gridDim=4
//@ len(a) = 256
// verify: race=verified bounds=verified
struct Pt { int x, y; };
__device__ void where(Pt *p) { p->x = blockIdx.x; p->y = threadIdx.x; }
__device__ int flat(const Pt *p) { return p->x * 64 + p->y; }
__global__ void fill(float *a) {
    Pt q;
    where(&q);
    a[flat(&q)] = 1.0f;
}
"#;

#[test]
fn a_pointer_to_a_local_record_is_that_record() {
    // `&q` of a local struct handed to helpers (an out-parameter, a const view): rejected as
    // "unknown identifier `q`" before.
    check("record_out_param", RECORD_OUT_PARAM);
    let bug = twin(RECORD_OUT_PARAM, "p->x = blockIdx.x;", "p->x = 0;");
    check(
        "record_out_param_bug",
        &bug.replace("race=verified", "race=violated"),
    );
}
