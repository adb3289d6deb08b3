//! Launches through the driver API: `cuModuleGetFunction(&f, mod, "vector_add")` names a
//! kernel of the file by its symbol, and `cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem,
//! stream, args, nullptr)` (or `cuLaunchCooperativeKernel`) gives what `<<<…>>>` gives:
//! shapes, scalar defaults, and buffer lengths through `cuMemAlloc(&dptr, bytes)` of the
//! `CUdeviceptr`s in `void *args[]`. End to end: a vector add verified under its host
//! launch, its twin (C allocated one element short) out of bounds, the interpreter's sums
//! equal to Rust's; a handle assigned twice, a computed or unknown name, a C++ kernel named
//! by its plain name, or an `extra` array give no facts.

use crate::common;

use common::{default_of, kernel, len_of, verdict, z3_missing};
use warpsafe_clang_front::Compiled;
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options as RunOptions};
use warpsafe_ir::{Kernel, Value};
use warpsafe_verify::{Property, Verdict};

fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("driver-api", name, source)
}

/// The 1-based line of byte offset `at` in `source`.
fn line(source: &str, at: u32) -> usize {
    source[..at as usize].matches('\n').count() + 1
}

/// A vector add launched only through the driver API. `GETS` assigns the handle `f`,
/// `C_BYTES` is the size of C's allocation, `LAUNCH` the launch call.
const VECTOR_ADD: &str = r#"#include <cstdio>
#include <cuda.h>

extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void scale(float* x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

#define CU_CHECK(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) { \
    fprintf(stderr, "driver error %d at line %d\n", (int)r_, __LINE__); return 1; } } while (0)

int main()
{
    int n = 1000;
    const int threads = 128;
    size_t bytes = n * sizeof(float);
    float h_a[1000], h_b[1000], h_c[1000];
    for (int i = 0; i < n; ++i) { h_a[i] = i; h_b[i] = 2 * i; }
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    CU_CHECK(cuInit(0));
    CU_CHECK(cuDeviceGet(&dev, 0));
    CU_CHECK(cuCtxCreate(&ctx, 0, dev));
    CU_CHECK(cuModuleLoad(&mod, "vector_add.ptx"));
GETS
    CUdeviceptr d_a, d_b, d_c;
    CU_CHECK(cuMemAlloc(&d_a, bytes));
    CU_CHECK(cuMemAlloc(&d_b, bytes));
    CU_CHECK(cuMemAlloc(&d_c, C_BYTES));
    CU_CHECK(cuMemcpyHtoD(d_a, h_a, bytes));
    CU_CHECK(cuMemcpyHtoD(d_b, h_b, bytes));
    void* args[] = {&d_a, &d_b, &d_c, &n};
    unsigned blocks = (n + threads - 1) / threads;
    LAUNCH
    CU_CHECK(cuCtxSynchronize());
    CU_CHECK(cuMemcpyDtoH(h_c, d_c, bytes));
    CU_CHECK(cuMemFree(d_a));
    CU_CHECK(cuMemFree(d_b));
    CU_CHECK(cuMemFree(d_c));
    printf("%f\n", h_c[n - 1]);
    return 0;
}
"#;

const GET: &str = r#"    CU_CHECK(cuModuleGetFunction(&f, mod, "vector_add"));"#;
const LAUNCH: &str =
    "CU_CHECK(cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, 0, args, nullptr));";

fn vector_add(gets: &str, c_bytes: &str, launch: &str) -> String {
    VECTOR_ADD
        .replace("GETS", gets)
        .replace("C_BYTES", c_bytes)
        .replace("LAUNCH", launch)
}

fn has_no_launch_facts(k: &Kernel) {
    assert_eq!(k.contract.block_dim, None);
    assert_eq!(k.contract.grid_dim, None);
    assert!(k.contract.lengths.is_empty(), "{:?}", k.contract.lengths);
    assert!(k.contract.defaults.is_empty(), "{:?}", k.contract.defaults);
}

#[test]
fn a_driver_launch_gives_shapes_lengths_and_the_scalar() {
    let src = vector_add(GET, "bytes", LAUNCH);
    let c = clang("vector_add_driver.cu", &src);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let k = kernel(&c, "vector_add");
    assert_eq!(k.contract.block_dim, Some([128, 1, 1]));
    assert_eq!(k.contract.grid_dim, Some([8, 1, 1]));
    assert_eq!(default_of(k, "n"), Some(Value::I32(1000)));
    for b in ["a", "b", "c"] {
        assert_eq!(len_of(k, b), Some(1000), "len({b})");
    }
    // The other kernel is not launched: it gets nothing.
    has_no_launch_facts(kernel(&c, "scale"));
    // The notes stand at the launch and the allocations, and name them.
    let launch_line = line(&src, src.find("cuLaunchKernel(f").expect("launch") as u32);
    let grid = c
        .launch_notes
        .iter()
        .find(|(_, n)| n.starts_with("grid"))
        .expect("a grid note");
    assert_eq!(line(&src, grid.0.lo), launch_line, "{grid:?}");
    let (at, note) = c
        .launch_notes
        .iter()
        .find(|(_, n)| n.starts_with("len(c)"))
        .expect("a note for len(c)");
    assert_eq!(
        line(&src, at.lo),
        line(&src, src.find("cuMemAlloc(&d_c").expect("alloc") as u32)
    );
    assert_eq!(
        note,
        &format!(
            "len(c) of `vector_add` = n (cuMemAlloc of 4000 bytes; the launch on line \
             {launch_line} passes n = 1000)"
        )
    );
}

#[test]
fn a_cooperative_driver_launch_counts_the_same() {
    let launch = "CU_CHECK(cuLaunchCooperativeKernel(f, blocks, 1, 1, threads, 1, 1, 0, 0, args));";
    let c = clang("vector_add_coop.cu", &vector_add(GET, "bytes", launch));
    let k = kernel(&c, "vector_add");
    assert_eq!(k.contract.block_dim, Some([128, 1, 1]));
    assert_eq!(k.contract.grid_dim, Some([8, 1, 1]));
    assert_eq!(len_of(k, "c"), Some(1000));
    assert_eq!(default_of(k, "n"), Some(Value::I32(1000)));
}

#[test]
fn the_vector_add_verifies_and_its_short_twin_is_out_of_bounds() {
    let c = clang("vector_add_ok.cu", &vector_add(GET, "bytes", LAUNCH));
    let k = kernel(&c, "vector_add");
    let bounds = verdict(k, Property::Bounds);
    if z3_missing(&bounds) {
        eprintln!("z3 not installed: verdicts skipped");
        return;
    }
    assert!(matches!(bounds, Verdict::Verified), "{bounds:?}");
    let race = verdict(k, Property::Race);
    assert!(matches!(race, Verdict::Verified), "{race:?}");
    // C allocated one element short of what the launch covers: thread n - 1 writes past it.
    let c = clang(
        "vector_add_short.cu",
        &vector_add(GET, "(n - 1) * sizeof(float)", LAUNCH),
    );
    let k = kernel(&c, "vector_add");
    assert_eq!(len_of(k, "c"), Some(999));
    let bounds = verdict(k, Property::Bounds);
    assert!(matches!(bounds, Verdict::Violated(_)), "{bounds:?}");
}

#[test]
fn the_interpreter_runs_the_vector_add_under_its_driver_launch() {
    let c = clang("vector_add_run.cu", &vector_add(GET, "bytes", LAUNCH));
    let k = kernel(&c, "vector_add");
    let n = len_of(k, "a").expect("len(a)") as usize;
    let [gx, _, _] = k.contract.grid_dim.expect("grid");
    let [bx, _, _] = k.contract.block_dim.expect("block");
    let a: Vec<f32> = (0..n).map(|i| (i as f32) * 0.25 - 7.0).collect();
    let b: Vec<f32> = (0..n).map(|i| ((i * 13) % 17) as f32 * 1.5).collect();
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&a)),
        Arg::Buffer(Buffer::from_f32(&b)),
        Arg::Buffer(Buffer::from_f32(&vec![0.0; n])),
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
    let Arg::Buffer(got) = &out.args[2] else {
        panic!("c is a buffer")
    };
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(got.to_f32(), want);
}

#[test]
fn a_handle_not_fixed_to_one_kernel_gives_no_facts() {
    let cases = [
        // Assigned twice (even to the same name).
        format!("{GET}\n{GET}"),
        // A computed name.
        r#"    const char* name = "vector_add";
    CU_CHECK(cuModuleGetFunction(&f, mod, name));"#
            .to_string(),
        // A name that is no kernel of the file.
        r#"    CU_CHECK(cuModuleGetFunction(&f, mod, "vectorAdd"));"#.to_string(),
        // Assigned by the module call and by hand.
        format!("{GET}\n    CUfunction g = f;\n    f = g;"),
        // Assigned only after the launch (the launch reads an unset handle).
        String::new(),
    ];
    for (i, gets) in cases.iter().enumerate() {
        let mut src = vector_add(gets, "bytes", LAUNCH);
        if gets.is_empty() {
            src = src.replace(
                "    CU_CHECK(cuCtxSynchronize());",
                &format!("{GET}\n    CU_CHECK(cuCtxSynchronize());"),
            );
        }
        let c = clang(&format!("vector_add_nofacts{i}.cu"), &src);
        assert!(c.rejected.is_empty(), "case {i}: {:?}", c.rejected);
        let k = kernel(&c, "vector_add");
        assert_eq!(k.contract.block_dim, None, "case {i}");
        assert_eq!(k.contract.grid_dim, None, "case {i}");
        assert!(k.contract.lengths.is_empty(), "case {i}");
        assert!(k.contract.defaults.is_empty(), "case {i}");
    }
}

#[test]
fn arguments_through_extra_give_no_facts() {
    let launch = "void* extra[] = {nullptr};\n    \
                  CU_CHECK(cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, 0, args, extra));";
    let c = clang("vector_add_extra.cu", &vector_add(GET, "bytes", launch));
    has_no_launch_facts(kernel(&c, "vector_add"));
}

#[test]
fn a_cpp_kernel_is_found_by_its_mangled_name_only() {
    // `scale` has C++ linkage: the driver finds it as `_Z5scalePffi`, not as `scale`.
    let src = |name: &str| {
        vector_add(
            &format!(r#"    CU_CHECK(cuModuleGetFunction(&f, mod, "{name}"));"#),
            "bytes",
            "void* sargs[] = {&d_c, &s, &n};\n    \
             CU_CHECK(cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, 0, sargs, NULL));",
        )
        .replace(
            "    int n = 1000;",
            "    int n = 1000;\n    float s = 2.0f;",
        )
    };
    let c = clang("scale_plain.cu", &src("scale"));
    has_no_launch_facts(kernel(&c, "scale"));
    let c = clang("scale_mangled.cu", &src("_Z5scalePffi"));
    let k = kernel(&c, "scale");
    assert_eq!(k.contract.block_dim, Some([128, 1, 1]));
    assert_eq!(k.contract.grid_dim, Some([8, 1, 1]));
    assert_eq!(len_of(k, "x"), Some(1000));
    assert_eq!(default_of(k, "s"), Some(Value::F32(2.0)));
    assert_eq!(default_of(k, "n"), Some(Value::I32(1000)));
    has_no_launch_facts(kernel(&c, "vector_add"));
}
