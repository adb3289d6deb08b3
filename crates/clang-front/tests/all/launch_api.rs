//! Launches through the runtime API: `cudaLaunchKernel((void *)k, grid, block, args, shmem,
//! stream)` and `cudaLaunchCooperativeKernel(…)`, whose kernel arguments are the variables
//! an argument array `void *args[] = {&a, &b}` points to, give what `<<<…>>>` launches give
//! (shapes, buffer lengths, scalar defaults, the dynamic shared-memory size). Taking `&a`
//! for that array is not a write of `a`; an array used for anything else, a slot of another
//! type than its parameter, or a count that differs gives no argument. End to end: a
//! cooperative-groups grid sum verified under its host launch, its twins (no grid barrier;
//! a partials buffer one block short) violated, and the interpreter's total equal to Rust's.

use crate::common;

use common::{default_of, kernel, len_of, verdict, z3_missing};
use warpsafe_clang_front::Compiled;
use warpsafe_exec::{eval_contract_expr, run, Arg, Buffer, LaunchConfig, Options as RunOptions};
use warpsafe_ir::Value;
use warpsafe_verify::{Property, Verdict};

fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("launch-api", name, source)
}

/// A grid-wide sum in the style of the cooperative-groups samples: per-block tree sums,
/// a grid barrier, block 0 folds the partials. Host code launches it cooperatively.
const GRID_SUM: &str = r#"#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

constexpr int kThreads = 128;

__device__ void tree_sum(cg::thread_block block, float* s)
{
    for (unsigned stride = block.size() / 2; stride > 0; stride >>= 1) {
        if (block.thread_rank() < stride) s[block.thread_rank()] += s[block.thread_rank() + stride];
        block.sync();
    }
}

__global__ void grid_sum(const float* __restrict__ in, float* partials, float* total, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ float s[kThreads];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        v += in[i];
    s[threadIdx.x] = v;
    block.sync();
    tree_sum(block, s);
    if (threadIdx.x == 0) partials[blockIdx.x] = s[0];
    GRID_SYNC
    if (grid.thread_rank() == 0) {
        float t = 0.0f;
        for (int b = 0; b < gridDim.x; ++b) t += partials[b];
        *total = t;
    }
}

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s\n", cudaGetErrorString(e_)); return 1; } } while (0)

int main()
{
    int n = 3000;
    const int blocks = 8;
    float *d_in, *d_partials, *d_total;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_partials, PARTIALS * sizeof(float)));
    CHECK(cudaMalloc(&d_total, sizeof(float)));
    void* args[] = {&d_in, &d_partials, &d_total, &n};
    CHECK(cudaLaunchCooperativeKernel((void*)grid_sum, dim3(blocks), dim3(kThreads), args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    return 0;
}
"#;

fn grid_sum(sync: bool, partials: &str) -> String {
    GRID_SUM
        .replace("GRID_SYNC", if sync { "grid.sync();" } else { "" })
        .replace("PARTIALS", partials)
}

#[test]
fn a_cooperative_launch_gives_shapes_lengths_and_arguments() {
    let src = grid_sum(true, "blocks");
    let c = clang("grid_sum.cu", &src);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let k = kernel(&c, "grid_sum");
    assert_eq!(k.contract.block_dim, Some([128, 1, 1]));
    assert_eq!(k.contract.grid_dim, Some([8, 1, 1]));
    // `&n` only fills the argument array: `n` keeps its value and the length of `in`
    // follows the parameter it is passed to.
    assert_eq!(default_of(k, "n"), Some(Value::I32(3000)));
    assert_eq!(len_of(k, "in"), Some(3000));
    assert_eq!(len_of(k, "partials"), Some(8));
    assert_eq!(len_of(k, "total"), Some(1));
    let note = c
        .launch_notes
        .iter()
        .map(|(_, n)| n.as_str())
        .find(|n| n.starts_with("len(in)"))
        .expect("a note for len(in)");
    assert!(
        note.contains("= n") && note.contains("passes n = 3000"),
        "{note}"
    );
}

#[test]
fn the_grid_sum_verifies_and_its_twins_are_violated() {
    let c = clang("grid_sum_ok.cu", &grid_sum(true, "blocks"));
    let k = kernel(&c, "grid_sum");
    let race = verdict(k, Property::Race);
    if z3_missing(&race) {
        eprintln!("z3 not installed: verdicts skipped");
        return;
    }
    assert!(matches!(race, Verdict::Verified), "{race:?}");
    let bounds = verdict(k, Property::Bounds);
    assert!(matches!(bounds, Verdict::Verified), "{bounds:?}");
    // No grid barrier: block 0 reads partials[b] while block b writes it.
    let c = clang("grid_sum_nosync.cu", &grid_sum(false, "blocks"));
    let race = verdict(kernel(&c, "grid_sum"), Property::Race);
    assert!(matches!(race, Verdict::Violated(_)), "{race:?}");
    // A partials buffer one block short: the last block stores past its end.
    let c = clang("grid_sum_short.cu", &grid_sum(true, "(blocks - 1)"));
    let k = kernel(&c, "grid_sum");
    assert_eq!(len_of(k, "partials"), Some(7));
    let bounds = verdict(k, Property::Bounds);
    assert!(matches!(bounds, Verdict::Violated(_)), "{bounds:?}");
}

#[test]
fn the_interpreter_runs_the_grid_sum_under_its_host_launch() {
    let c = clang("grid_sum_run.cu", &grid_sum(true, "blocks"));
    let k = kernel(&c, "grid_sum");
    let n = len_of(k, "in").expect("len(in)") as usize;
    let [gx, _, _] = k.contract.grid_dim.expect("grid");
    let [bx, _, _] = k.contract.block_dim.expect("block");
    // Small integers: every order of the sums is exact in f32.
    let input: Vec<f32> = (0..n).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&input)),
        Arg::Buffer(Buffer::from_f32(&vec![0.0; gx as usize])),
        Arg::Buffer(Buffer::from_f32(&[0.0])),
        Arg::Scalar(default_of(k, "n").expect("default")),
    ];
    let out = run(
        k,
        &LaunchConfig::linear(gx, bx),
        args,
        &RunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let Arg::Buffer(partials) = &out.args[1] else {
        panic!("partials is a buffer")
    };
    let Arg::Buffer(total) = &out.args[2] else {
        panic!("total is a buffer")
    };
    let stride = (gx * bx) as usize;
    let want_partials: Vec<f32> = (0..gx as usize)
        .map(|b| {
            (0..bx as usize)
                .flat_map(|t| (b * bx as usize + t..n).step_by(stride))
                .map(|i| input[i])
                .sum()
        })
        .collect();
    assert_eq!(partials.to_f32(), want_partials);
    assert_eq!(total.to_f32(), vec![input.iter().sum::<f32>()]);
}

/// A kernel with dynamic shared memory launched by `cudaLaunchKernel` from a `main` whose
/// statements before the launch are `body`.
fn staged(body: &str, launch_args: &str) -> String {
    format!(
        r#"#include <cstdio>
#include <cuda_runtime.h>
__global__ void stage(const float* in, float* out, int n, float scale)
{{
    extern __shared__ float buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] * scale : 0.0f;
    __syncthreads();
    if (i < n) out[i] = buf[blockDim.x - 1 - threadIdx.x];
}}
int main(int argc, char** argv)
{{
    int n = 1000;
    float scale = 0.5f;
    int threads = 256;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
{body}
    cudaLaunchKernel((const void*)&stage, dim3(4), dim3(threads), {launch_args}, threads * sizeof(float), 0);
    return 0;
}}
"#
    )
}

#[test]
fn a_plain_launch_gives_the_shared_size_and_float_arguments() {
    let src = staged("    void* args[] = {&d_in, &d_out, &n, &scale};", "args");
    let c = clang("stage.cu", &src);
    let k = kernel(&c, "stage");
    assert_eq!(k.contract.block_dim, Some([256, 1, 1]));
    assert_eq!(k.contract.grid_dim, Some([4, 1, 1]));
    assert_eq!(default_of(k, "n"), Some(Value::I32(1000)));
    assert_eq!(default_of(k, "scale"), Some(Value::F32(0.5)));
    assert_eq!(len_of(k, "in"), Some(1000));
    let bytes = k
        .contract
        .dynamic_shared_bytes
        .as_ref()
        .expect("shared_bytes from the fifth argument");
    let v = eval_contract_expr(k, bytes, &|_| None, &|_| None, &LaunchConfig::linear(1, 1))
        .expect("constant");
    assert_eq!(v.as_i128(), Some(1024));
    let b = verdict(k, Property::Bounds);
    if z3_missing(&b) {
        return;
    }
    assert!(matches!(b, Verdict::Verified), "{b:?}");
}

#[test]
fn argument_arrays_that_do_not_fix_the_arguments_give_none() {
    let none = |what: &str, src: String, scalars: &[&str], buffers: &[&str]| {
        let c = clang("stage_none.cu", &src);
        let k = kernel(&c, "stage");
        // The shapes do not depend on the arguments.
        assert_eq!(k.contract.block_dim, Some([256, 1, 1]), "{what}");
        for s in scalars {
            assert_eq!(default_of(k, s), None, "{what}: arg {s}");
        }
        for b in buffers {
            assert_eq!(len_of(k, b), None, "{what}: len({b})");
        }
    };
    // The array is written after its initialiser: its slots may point anywhere.
    none(
        "array written",
        staged(
            "    int m = 7;\n    void* args[] = {&d_in, &d_out, &n, &scale};\n    args[2] = &m;",
            "args",
        ),
        &["n", "scale"],
        &["in", "out"],
    );
    // The array escapes to another function that may write through it.
    none(
        "array passed elsewhere",
        staged(
            "    void* args[] = {&d_in, &d_out, &n, &scale};\n    printf(\"%p\", (void*)args);",
            "args",
        ),
        &["n", "scale"],
        &["in", "out"],
    );
    // A slot of another type than its parameter: the kernel reads other bytes.
    none(
        "slot of another type",
        staged(
            "    long long n2 = 1000;\n    double s2 = 0.5;\n    \
             void* args[] = {&d_in, &d_out, &n2, &s2};",
            "args",
        ),
        &["n", "scale"],
        &[],
    );
    // Fewer slots than parameters.
    none(
        "count differs",
        staged("    void* args[] = {&d_in, &d_out, &n};", "args"),
        &["n", "scale"],
        &["in", "out"],
    );
    // A slot that is not the address of a variable gives nothing for that parameter only.
    let src = staged(
        "    float* p = &scale;\n    void* args[] = {&d_in, &d_out, &n, p};",
        "args",
    );
    let c = clang("stage_ptr.cu", &src);
    let k = kernel(&c, "stage");
    assert_eq!(default_of(k, "scale"), None);
    assert_eq!(default_of(k, "n"), Some(Value::I32(1000)));
    // `&n` taken elsewhere still makes `n` unknown.
    none(
        "address taken for scanf",
        staged(
            "    scanf(\"%d\", &n);\n    void* args[] = {&d_in, &d_out, &n, &scale};",
            "args",
        ),
        &["n"],
        &["in"],
    );
}
