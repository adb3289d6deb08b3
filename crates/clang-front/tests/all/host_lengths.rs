//! Host code read for what it says about a launch: the `cudaMalloc` sizes of the pointers a
//! launch passes give buffer lengths, constant scalar arguments give `//@ arg` defaults and
//! the third launch parameter gives the dynamic shared-memory size, when every launch agrees
//! and the header says nothing. Every case where host code does not fix the value (a
//! pointer reassigned or offset, a size read from `argv`, launches that disagree, an
//! allocation in a loop) gives nothing. End to end: `tests/real/vector_add.cu` without its
//! header verifies bounds under the host lengths, and its twin whose `cudaMalloc` is one
//! element short is refuted.

use crate::common;

use common::{default_of, kernel, verdict, z3_missing};
use std::path::Path;
use warpsafe_clang_front::Compiled;
use warpsafe_exec::{eval_contract_expr, run, Arg, Buffer, LaunchConfig, Options as RunOptions};
use warpsafe_ir::{Kernel, ParamKind, Value};
use warpsafe_verify::{Property, Verdict};

/// Writes `source` to a fresh file and reads it through clang.
fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("host", name, source)
}

/// The length of buffer `name` with the scalar parameters at the values given (or else at
/// their defaults).
fn len_at(k: &Kernel, name: &str, scalars: &[(&str, i64)]) -> Option<u64> {
    let id = k.param_named(name).expect("parameter");
    let l = k.contract.lengths.iter().find(|l| l.param == id)?;
    let scalar = |p: warpsafe_ir::ParamId| {
        let pname = &k.param(p).name;
        match scalars.iter().find(|(n, _)| n == pname) {
            Some((_, v)) => match k.param(p).kind {
                ParamKind::Scalar(ty) => Some(Value::from_i128(ty, i128::from(*v))),
                ParamKind::Buffer { .. } => None,
            },
            None => default_of(k, pname),
        }
    };
    let v = eval_contract_expr(k, &l.len, &scalar, &|_| None, &LaunchConfig::linear(1, 1))
        .unwrap_or_else(|e| panic!("len({name}): {e}"));
    Some(v.as_i128().expect("integer") as u64)
}

fn has_len(k: &Kernel, name: &str) -> bool {
    let id = k.param_named(name).expect("parameter");
    k.contract.lengths.iter().any(|l| l.param == id)
}

/// The 1-based line of a byte offset.
fn line(src: &str, offset: u32) -> usize {
    src[..offset as usize].matches('\n').count() + 1
}

/// The note of `c` that contains `text`, with its line.
fn note(c: &Compiled, src: &str, text: &str) -> (usize, String) {
    c.launch_notes
        .iter()
        .find(|(_, n)| n.contains(text))
        .map(|(s, n)| (line(src, s.lo), n.clone()))
        .unwrap_or_else(|| panic!("no note with `{text}`: {:?}", c.launch_notes))
}

const SAMPLES: &str = r#"#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) exit(1); } while (0)

__global__ void vectorAdd(const float *A, const float *B, float *C, int numElements)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < numElements) C[i] = A[i] + B[i];
}

__global__ void fill(double *out, int count, float value)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < count) out[i] = value;
}

int main(void)
{
    int numElements = 50000;
    size_t size = numElements * sizeof(float);
    float *d_A = NULL, *d_B = NULL, *d_C = NULL;
    CHECK(cudaMalloc((void **)&d_A, size));
    CHECK(cudaMalloc((void **)&d_B, size));
    CHECK(cudaMallocManaged(&d_C, size));
    int threadsPerBlock = 256;
    int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
    vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, numElements);
    double *d_out;
    const float v = -2.5f;
    cudaMalloc(&d_out, 1024 * sizeof(double));
    fill<<<4, 256>>>(d_out, 1000, v);
    for (int i = 0; i < numElements; ++i) { }
    return 0;
}
"#;

#[test]
fn cuda_malloc_sizes_give_lengths_and_constant_arguments_give_defaults() {
    let c = clang("samples.cu", SAMPLES);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let k = kernel(&c, "vectorAdd");
    assert_eq!(k.contract.block_dim, Some([256, 1, 1]));
    assert_eq!(k.contract.grid_dim, Some([196, 1, 1]));
    assert_eq!(default_of(k, "numElements"), Some(Value::I32(50000)));
    for b in ["A", "B", "C"] {
        // `size` is `numElements * sizeof(float)` with `numElements` passed as the
        // parameter of that name: the length follows the parameter.
        assert_eq!(len_at(k, b, &[]), Some(50000), "len({b}) at the default");
        assert_eq!(len_at(k, b, &[("numElements", 77)]), Some(77), "len({b})");
    }
    let (at, text) = note(&c, SAMPLES, "len(A) of `vectorAdd`");
    assert_eq!(at, 24, "the note is at the cudaMalloc: {text}");
    assert!(
        text.contains("= numElements")
            && text.contains("cudaMalloc of 200000 bytes")
            && text.contains("line 29 passes numElements = 50000"),
        "{text}"
    );
    let (at, text) = note(&c, SAMPLES, "arg numElements");
    assert_eq!((at, text.contains("= 50000")), (29, true), "{text}");

    // A constant size over a parameter of another element type; a literal argument.
    let f = kernel(&c, "fill");
    assert_eq!(len_at(f, "out", &[("count", 5)]), Some(1024));
    assert_eq!(default_of(f, "count"), Some(Value::I32(1000)));
    assert_eq!(default_of(f, "value"), Some(Value::F32(-2.5)));
    let (_, text) = note(&c, SAMPLES, "len(out) of `fill`");
    assert!(text.contains("= 1024 (cudaMalloc of 8192 bytes"), "{text}");
}

#[test]
fn the_interpreter_runs_with_the_host_lengths_and_defaults() {
    let src = SAMPLES
        .replace("int numElements = 50000;", "int numElements = 1000;")
        .replace("int threadsPerBlock = 256;", "int threadsPerBlock = 128;");
    let c = clang("samples_small.cu", &src);
    let k = kernel(&c, "vectorAdd");
    assert_eq!(k.contract.grid_dim, Some([8, 1, 1]));
    let n = len_at(k, "A", &[]).expect("len(A)") as usize;
    assert_eq!(n, 1000);
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| 3.0 - i as f32).collect();
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&a)),
        Arg::Buffer(Buffer::from_f32(&b)),
        Arg::Buffer(Buffer::from_f32(&vec![0.0; n])),
        Arg::Scalar(default_of(k, "numElements").expect("default")),
    ];
    let out = run(
        k,
        &LaunchConfig::linear(8, 128),
        args,
        &RunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let Arg::Buffer(got) = &out.args[2] else {
        panic!("C is a buffer")
    };
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(got.to_f32(), want);
}

/// `vectorAdd` launched from a `main` whose body around the launch is `body`.
fn launched(body: &str) -> String {
    format!(
        r#"#include <cstdlib>
#include <cstdio>
#include <cuda_runtime.h>
__global__ void vectorAdd(const float *A, const float *B, float *C, int numElements)
{{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < numElements) C[i] = A[i] + B[i];
}}
int main(int argc, char **argv)
{{
    float *d_A, *d_B, *d_C;
{body}
    return 0;
}}
"#
    )
}

#[test]
fn what_host_code_does_not_fix_gives_nothing() {
    let alloc = "    int n = 4096;\n    size_t bytes = n * sizeof(float);\n    \
                 cudaMalloc(&d_A, bytes); cudaMalloc(&d_B, bytes); cudaMalloc(&d_C, bytes);\n";
    let cases: [(&str, String, &[&str]); 8] = [
        (
            "pointer reassigned",
            format!("{alloc}    d_A = d_B;\n    vectorAdd<<<16, 256>>>(d_A, d_B, d_C, n);"),
            &["A"],
        ),
        (
            "pointer bumped",
            format!("{alloc}    d_B += 4;\n    vectorAdd<<<16, 256>>>(d_A, d_B, d_C, n);"),
            &["B"],
        ),
        (
            "offset pointer",
            format!("{alloc}    vectorAdd<<<16, 256>>>(d_A + 4, d_B, d_C, n);"),
            &["A"],
        ),
        (
            "size from argv",
            "    int m = atoi(argv[1]);\n    cudaMalloc(&d_A, m * sizeof(float));\n    \
             cudaMalloc(&d_B, m * sizeof(float)); cudaMalloc(&d_C, m * sizeof(float));\n    \
             vectorAdd<<<16, 256>>>(d_A, d_B, d_C, m);"
                .to_string(),
            &["A", "B", "C"],
        ),
        (
            "size variable written after its initialiser",
            "    int n = 4096;\n    size_t bytes = n * sizeof(float);\n    bytes *= 2;\n    \
             cudaMalloc(&d_A, bytes); cudaMalloc(&d_B, bytes); cudaMalloc(&d_C, bytes);\n    \
             vectorAdd<<<16, 256>>>(d_A, d_B, d_C, n);"
                .to_string(),
            &["A", "B", "C"],
        ),
        (
            "count read through its address",
            "    int n = 4096;\n    scanf(\"%d\", &n);\n    \
             cudaMalloc(&d_A, n * sizeof(float)); cudaMalloc(&d_B, 64); cudaMalloc(&d_C, 64);\n    \
             vectorAdd<<<16, 256>>>(d_A, d_B, d_C, n);"
                .to_string(),
            &["A"],
        ),
        (
            "allocated in a loop",
            format!(
                "{alloc}    for (int r = 0; r < 2; ++r) {{ cudaFree(d_C); cudaMalloc(&d_C, (r + 1) * 64); }}\n    \
                 vectorAdd<<<16, 256>>>(d_A, d_B, d_C, n);"
            ),
            &["C"],
        ),
        (
            "two launches that disagree",
            format!(
                "{alloc}    float *d_D; cudaMalloc(&d_D, 128 * sizeof(float));\n    \
                 vectorAdd<<<16, 256>>>(d_A, d_B, d_C, n);\n    \
                 vectorAdd<<<16, 256>>>(d_A, d_B, d_D, n);"
            ),
            &["C"],
        ),
    ];
    for (what, body, none) in cases {
        let src = launched(&body);
        let c = clang("nothing.cu", &src);
        let k = kernel(&c, "vectorAdd");
        for b in ["A", "B", "C"] {
            assert_eq!(
                has_len(k, b),
                !none.contains(&b),
                "{what}: len({b}) = {:?}; notes {:?}",
                len_at(k, b, &[]),
                c.launch_notes
            );
        }
        if !none.contains(&"A") {
            assert_eq!(len_at(k, "A", &[]), Some(4096), "{what}");
        }
    }
    // The value of `n` is not known after `scanf`: no default either.
    let c = clang(
        "scanf.cu",
        &launched(
            "    int n = 4096;\n    scanf(\"%d\", &n);\n    \
             vectorAdd<<<16, 256>>>(d_A, d_B, d_C, n);",
        ),
    );
    assert_eq!(default_of(kernel(&c, "vectorAdd"), "numElements"), None);
    // Launches that pass different counts: no default.
    let c = clang(
        "counts.cu",
        &launched(
            "    vectorAdd<<<16, 256>>>(d_A, d_B, d_C, 100);\n    \
             vectorAdd<<<16, 256>>>(d_A, d_B, d_C, 200);",
        ),
    );
    assert_eq!(default_of(kernel(&c, "vectorAdd"), "numElements"), None);
}

#[test]
fn the_header_wins_over_host_code() {
    let src = format!(
        "//@ len(A) = 10\n//@ arg numElements = 7\n{}",
        launched(
            "    int n = 4096;\n    cudaMalloc(&d_A, n * sizeof(float)); \
             cudaMalloc(&d_B, n * sizeof(float)); cudaMalloc(&d_C, 64);\n    \
             vectorAdd<<<16, 256>>>(d_A, d_B, d_C, n);"
        )
    );
    let c = clang("header.cu", &src);
    let k = kernel(&c, "vectorAdd");
    assert_eq!(len_at(k, "A", &[]), Some(10));
    assert_eq!(default_of(k, "numElements"), Some(Value::I32(7)));
    // B's length follows the parameter; C's allocation of 64 bytes is 16 floats.
    assert_eq!(len_at(k, "B", &[]), Some(7));
    assert_eq!(len_at(k, "C", &[]), Some(16));
    assert!(!c.launch_notes.iter().any(|(_, n)| n.contains("len(A)")));
}

const SHARED: &str = r#"#include <cuda_runtime.h>
__global__ void stage(const float *in, float *out)
{
    extern __shared__ float tile[];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}
int main()
{
    float *d_in, *d_out;
    const int threads = 64;
    cudaMalloc(&d_in, threads * sizeof(float));
    cudaMalloc(&d_out, threads * sizeof(float));
    stage<<<1, threads, SMEM>>>(d_in, d_out);
    return 0;
}
"#;

#[test]
fn the_third_launch_parameter_sizes_dynamic_shared_memory() {
    let whole = SHARED.replace("SMEM", "threads * sizeof(float)");
    let c = clang("shared.cu", &whole);
    let k = kernel(&c, "stage");
    let bytes = k
        .contract
        .dynamic_shared_bytes
        .as_ref()
        .expect("shared_bytes");
    let v = eval_contract_expr(k, bytes, &|_| None, &|_| None, &LaunchConfig::linear(1, 1))
        .expect("constant");
    assert_eq!(v.as_i128(), Some(256));
    let (_, text) = note(&c, &whole, "shared_bytes of `stage`");
    assert!(text.contains("= 256"), "{text}");
    let ok = verdict(k, Property::Bounds);
    if z3_missing(&ok) {
        eprintln!("z3 not installed: verdicts skipped");
        return;
    }
    assert!(matches!(ok, Verdict::Verified), "{ok:?}");
    // A launch that gives one float too few: the last thread stores past the array.
    let short = SHARED.replace("SMEM", "(threads - 1) * sizeof(float)");
    let c = clang("shared_short.cu", &short);
    let v = verdict(kernel(&c, "stage"), Property::Bounds);
    assert!(matches!(v, Verdict::Violated(_)), "{v:?}");
    // The header's size wins.
    let header = format!("//@ shared_bytes = 1024\n{whole}");
    let c = clang("shared_header.cu", &header);
    let k = kernel(&c, "stage");
    let bytes = k
        .contract
        .dynamic_shared_bytes
        .as_ref()
        .expect("shared_bytes");
    let v = eval_contract_expr(k, bytes, &|_| None, &|_| None, &LaunchConfig::linear(1, 1))
        .expect("constant");
    assert_eq!(v.as_i128(), Some(1024));
}

/// `tests/real/vector_add.cu` with its header lines (`//…` before the first `#include`)
/// removed.
fn real_vector_add_without_header() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/real/vector_add.cu");
    let text = std::fs::read_to_string(&path).expect("tests/real/vector_add.cu");
    let start = text.find("#include").expect("an include");
    assert!(
        text[..start].contains("//@ len(A)"),
        "the corpus file states its lengths in its header; this test removes them"
    );
    text[start..].to_string()
}

#[test]
fn real_vector_add_verifies_bounds_under_host_lengths_and_its_short_twin_does_not() {
    let src = real_vector_add_without_header();
    let c = clang("vector_add_nohdr.cu", &src);
    let k = kernel(&c, "vectorAdd");
    assert_eq!(k.contract.block_dim, Some([256, 1, 1]));
    assert_eq!(k.contract.grid_dim, Some([196, 1, 1]));
    for b in ["A", "B", "C"] {
        assert_eq!(len_at(k, b, &[]), Some(50000), "len({b})");
    }
    let malloc_line = src
        .lines()
        .position(|l| l.contains("cudaMalloc((void **)&d_C"))
        .expect("d_C's cudaMalloc")
        + 1;
    let (at, text) = note(&c, &src, "len(C) of `vectorAdd`");
    assert_eq!(at, malloc_line, "{text}");
    assert!(text.contains("cudaMalloc of 200000 bytes"), "{text}");
    let v = verdict(k, Property::Bounds);
    if z3_missing(&v) {
        eprintln!("z3 not installed: verdicts skipped");
        return;
    }
    assert!(matches!(v, Verdict::Verified), "{v:?}");
    let race = verdict(k, Property::Race);
    assert!(matches!(race, Verdict::Verified), "{race:?}");

    let short = src.replace(
        "cudaMalloc((void **)&d_C, size)",
        "cudaMalloc((void **)&d_C, size - sizeof(float))",
    );
    assert_ne!(short, src);
    let c = clang("vector_add_short.cu", &short);
    let k = kernel(&c, "vectorAdd");
    assert_eq!(len_at(k, "C", &[]), Some(49999));
    let v = verdict(k, Property::Bounds);
    assert!(matches!(v, Verdict::Violated(_)), "{v:?}");
}
