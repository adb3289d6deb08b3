//! Function pointers the host passes, and null function pointers, written as real code
//! writes them: a stencil operator chosen by the host (read with `cudaMemcpyFromSymbol` from
//! a `__device__` pointer), checked for every device function of its type, with a twin
//! whose one candidate reads out of bounds (also for candidates taking a record by
//! reference); a local operator left null on one path and
//! called only when set (by `if`, `?:` or `&&`), with twins that call it anyway; `run`
//! taking the operator as its number; and the precise rejections (no candidate, an integer
//! made a function pointer).

use super::common::*;

const STENCIL: &str = r#"//--blockDim=64 --gridDim=4
// verify: race=verified bounds=verified assert=verified exit=0
//@ len(x) = n
//@ len(y) = n
#include <cuda_runtime.h>
typedef float (*op_t)(const float *, int, int);

__device__ float same(const float *x, int i, int n) { return x[i]; }

__device__ float mean3(const float *x, int i, int n) {
    float l = i > 0 ? x[i - 1] : x[i];
    float r = i + 1 < n ? x[i + 1] : x[i];
    return (l + x[i] + r) / 3.0f;
}

// The host reads these to learn the operators' device addresses.
__device__ op_t d_same = same;
__device__ op_t d_mean3 = mean3;

__global__ void apply(const float *x, float *y, op_t op, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = op(x, i, n);
}

int main() {
    const int n = 256;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    op_t h_op;
    cudaMemcpyFromSymbol(&h_op, d_mean3, sizeof(op_t));
    apply<<<4, 64>>>(x, y, h_op, n);
    return 0;
}
"#;

#[test]
fn an_operator_the_host_passes_is_checked_for_every_candidate() {
    check("stencil", STENCIL);
    let out = warpsafe("verify", "stencil_note", STENCIL, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("`op` of `apply` is taken to point to one of: same (--arg op=1), mean3"),
        "{stderr}"
    );
    // `mean3` reads past the end when its right neighbour is not tested: only a candidate
    // no call in the file names shows the bug.
    let bug = twin(
        STENCIL,
        "float r = i + 1 < n ? x[i + 1] : x[i];",
        "float r = x[i + 1];",
    );
    check(
        "stencil_bug",
        &bug.replace("bounds=verified", "bounds=violated")
            .replace("exit=0", "exit=1"),
    );
}

const RACY: &str = r#"//--blockDim=64 --gridDim=1
// verify: race=verified bounds=verified exit=0
//@ len(y) = 64
#include <cuda_runtime.h>
typedef void (*update_t)(float *, int);
__device__ void set_own(float *y, int i) { y[i] = 1.0f; }
__device__ void clear_own(float *y, int i) { y[i] = 0.0f; }
__global__ void update(float *y, update_t f) {
    f(y, threadIdx.x);
}
"#;

#[test]
fn a_racy_candidate_is_a_race_of_the_kernel() {
    check("racy", RACY);
    let bug = twin(RACY, "y[i] = 0.0f;", "y[i / 2] = (float)i;");
    check(
        "racy_bug",
        &bug.replace("race=verified", "race=violated")
            .replace("exit=0", "exit=1"),
    );
}

const OPTIONAL: &str = r#"//--blockDim=64 --gridDim=2
// verify: race=verified bounds=verified assert=verified exit=0
//@ len(x) = n
#include <cuda_runtime.h>
typedef float (*op_t)(float);
__device__ float twice(float v) { return 2.0f * v; }
__device__ float halve(float v) { return 0.5f * v; }

__global__ void scale(float *x, int mode, int n) {
    op_t op = NULL;
    if (mode == 1)
        op = twice;
    else if (mode == 2)
        op = &halve;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && op != NULL)
        x[i] = op(x[i]);
}
"#;

#[test]
fn a_null_operator_is_called_only_when_set() {
    check("optional", OPTIONAL);
    for (name, test) in [
        ("optional_bool", "op"),
        ("optional_nullptr", "nullptr != op"),
    ] {
        check(name, &twin(OPTIONAL, "op != NULL", test));
    }
    let casts = twin(OPTIONAL, "op_t op = NULL;", "op_t op = (op_t)0;");
    check(
        "optional_casts",
        &twin(&casts, "op = twice;", "op = (op_t)twice;"),
    );
    // Calling it when `mode` chose none calls the null pointer.
    let bug = twin(OPTIONAL, "if (i < n && op != NULL)", "if (i < n)");
    check(
        "optional_bug",
        &bug.replace("assert=verified", "assert=violated")
            .replace("exit=0", "exit=1"),
    );
    // `f == 0` is a comparison of numbers, not a data pointer's test folded to false.
    let bug = twin(OPTIONAL, "op = NULL;", "op = 0;").replace(
        "if (i < n && op != NULL)",
        "if (i < n && (op == 0 || mode == 1))",
    );
    check(
        "optional_zero_bug",
        &bug.replace("assert=verified", "assert=violated")
            .replace("exit=0", "exit=1"),
    );
}

#[test]
fn an_optional_operator_is_tested_and_called_in_one_expression() {
    // `op ? op(v) : v` and `op && op(v)`: the call runs only where the test holds.
    let cond = twin(
        OPTIONAL,
        "if (i < n && op != NULL)\n        x[i] = op(x[i]);",
        "if (i < n)\n        x[i] = op ? op(x[i]) : x[i];",
    );
    check("optional_cond", &cond);
    let and = twin(
        OPTIONAL,
        "if (i < n && op != NULL)\n        x[i] = op(x[i]);",
        "if (i < n && op && op(x[i]) > 1.0f)\n        x[i] = 1.0f;",
    );
    check("optional_and", &and);
    let bug = twin(&cond, "op ? op(x[i])", "op || mode > 2 ? op(x[i])");
    check(
        "optional_cond_bug",
        &bug.replace("assert=verified", "assert=violated")
            .replace("exit=0", "exit=1"),
    );
    let bug = twin(&and, "op && op(x[i])", "mode > 2 && op(x[i])");
    check(
        "optional_and_bug",
        &bug.replace("assert=verified", "assert=violated")
            .replace("exit=0", "exit=1"),
    );
}

const FOLD: &str = r#"//--blockDim=32 --gridDim=1
// verify: race=verified bounds=verified assert=verified exit=0
//@ len(x) = 32
//@ len(out) = 32
#include <cuda_runtime.h>
struct acc { float sum; int count; };
typedef void (*fold_t)(acc &, const float *, int);
__device__ void plain(acc &a, const float *x, int i) { a.sum += x[i]; a.count += 1; }
__device__ void squared(acc &a, const float *x, int i) { a.sum += x[i] * x[i]; a.count += 1; }
__global__ void fold(const float *x, float *out, fold_t f) {
    acc a = {0.0f, 0};
    f(a, x, threadIdx.x);
    out[threadIdx.x] = a.sum / a.count;
}
"#;

#[test]
fn candidates_taking_a_record_by_reference_are_inlined() {
    check("fold", FOLD);
    let bug = twin(FOLD, "a.sum += x[i] * x[i];", "a.sum += x[i] * x[i + 1];");
    check(
        "fold_bug",
        &bug.replace("bounds=verified", "bounds=violated")
            .replace("exit=0", "exit=1"),
    );
}

#[test]
fn run_takes_the_operator_as_its_number() {
    let args = [
        "--buf",
        "x=random:256",
        "--buf",
        "y=zeros:256",
        "--arg",
        "n=256",
    ];
    let with = |op: &str| {
        let mut a = args.to_vec();
        a.extend(["--arg", op]);
        warpsafe("run", "stencil_run", STENCIL, &a)
    };
    let ok = with("op=2");
    let stderr = String::from_utf8_lossy(&ok.stderr);
    assert_eq!(ok.status.code(), Some(0), "{stderr}");
    let bad = with("op=3");
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("precondition"), "{stderr}");
    let none = warpsafe("run", "stencil_run_none", STENCIL, &args);
    let stderr = String::from_utf8_lossy(&none.stderr);
    assert_eq!(none.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--arg op="), "{stderr}");
}

#[test]
fn pointers_without_candidates_are_rejected_precisely() {
    let no_candidate = r#"//--blockDim=32 --gridDim=1
#include <cuda_runtime.h>
typedef float (*op2_t)(float, float);
__device__ float twice(float v) { return 2.0f * v; }
__global__ void k(float *x, op2_t f) { x[threadIdx.x] = f(x[threadIdx.x], 1.0f); }
"#;
    let out = warpsafe("verify", "no_candidate", no_candidate, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("function-pointer kernel parameter `f`")
            && stderr.contains("defines no `__device__` function of that type"),
        "{stderr}"
    );
    // The host may pass a library function's address the file reads into a pointer.
    let library = r#"//--blockDim=32 --gridDim=1
#include <cuda_runtime.h>
typedef float (*op_t)(float);
__device__ float twice(float v) { return 2.0f * v; }
__device__ op_t d_sin = sinf;
__global__ void k(float *x, op_t f) { x[threadIdx.x] = f(x[threadIdx.x]); }
"#;
    let out = warpsafe("verify", "library", library, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("takes the address of `sinf`"), "{stderr}");
    let made_up = twin(OPTIONAL, "op_t op = NULL;", "op_t op = (op_t)5;");
    let out = warpsafe("verify", "made_up", &made_up, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cast of `int` to `float (*)(float)`"),
        "{stderr}"
    );
}
