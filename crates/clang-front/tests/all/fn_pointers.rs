//! Function pointers to device functions with a known set of targets: template arguments,
//! a `switch` choosing one, `__device__` tables indexed by a value and by a constant, a
//! `__device__` pointer, local tables indexed by the thread, void functions with stores.
//! The interpreter's outputs equal Rust's; verify finds the race and the out-of-bounds
//! store of the twin whose odd threads store into the next element, and none in the
//! correct kernel; pointers whose targets are unknown are rejected by name and span.

use crate::common;

use common::z3_missing;

use std::path::Path;
use warpsafe_clang_front::{compile_file, Compiled, Options};
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options as RunOptions};
use warpsafe_ir::{Kernel, LengthSpec, Value};
use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};

const N: usize = 100;

fn fixture() -> (String, Compiled) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fn_pointers.cu");
    let src = std::fs::read_to_string(&path).expect("fixture");
    let c = compile_file(&path, &src, &Options::default()).unwrap_or_else(|e| panic!("{e:?}"));
    (src, c)
}

fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("fnptr", name, source)
}

fn kernel<'a>(c: &'a Compiled, prefix: &str) -> &'a Kernel {
    c.module
        .kernels
        .iter()
        .find(|k| k.name == prefix || k.name.starts_with(&format!("{prefix}_")))
        .unwrap_or_else(|| panic!("no kernel `{prefix}`; rejected: {:?}", c.rejected))
}

fn xs() -> Vec<f32> {
    (0..N).map(|i| (i % 13) as f32 - 4.0).collect()
}

fn ys() -> Vec<f32> {
    (0..N).map(|i| (i % 5) as f32 * 0.5 + 1.0).collect()
}

/// Runs `k` on 4 blocks of 32 threads over x, y (when it takes them), out and the scalars.
fn run_out(k: &Kernel, with_y: bool, scalars: &[i32]) -> Vec<f32> {
    let mut args = vec![Arg::Buffer(Buffer::from_f32(&xs()))];
    if with_y {
        args.push(Arg::Buffer(Buffer::from_f32(&ys())));
    }
    let out_at = args.len();
    args.push(Arg::Buffer(Buffer::from_f32(&[0.0; N])));
    args.push(Arg::Scalar(Value::I32(N as i32)));
    args.extend(scalars.iter().map(|s| Arg::Scalar(Value::I32(*s))));
    let out = run(
        k,
        &LaunchConfig::linear(4, 32),
        args,
        &RunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", k.name));
    assert!(out.findings.is_empty(), "{}: {:?}", k.name, out.findings);
    let Arg::Buffer(b) = &out.args[out_at] else {
        panic!("out is a buffer")
    };
    b.to_f32()
}

fn each(f: impl Fn(usize, f32, f32) -> f32) -> Vec<f32> {
    let (x, y) = (xs(), ys());
    (0..N).map(|i| f(i, x[i], y[i])).collect()
}

#[test]
fn the_interpreter_calls_the_chosen_functions() {
    let (_, c) = fixture();
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    assert_eq!(
        run_out(kernel(&c, "apply_tmpl"), true, &[]),
        each(|_, x, y| x * y)
    );
    let ops = [|x: f32, y: f32| x + y, |x, y| x * y, |x, y| x - y];
    for which in 0..4 {
        let op = ops[(which as usize).min(2)];
        assert_eq!(
            run_out(kernel(&c, "apply_switch"), true, &[which]),
            each(|_, x, y| op(x, y)),
            "switch {which}"
        );
        let op = ops[which as usize % 3];
        assert_eq!(
            run_out(kernel(&c, "apply_table"), true, &[which]),
            each(|_, x, y| op(x, y) + x * 2.0 + -y),
            "table {which}"
        );
    }
    assert_eq!(
        run_out(kernel(&c, "apply_local"), true, &[]),
        each(|i, x, y| if i % 32 % 2 == 0 { x + y } else { x - y })
    );
    assert_eq!(
        run_out(kernel(&c, "store_chosen"), false, &[]),
        each(|i, x, _| if i % 2 == 1 { 2.0 * x } else { x })
    );
}

fn verdict(k: &Kernel, p: Property) -> Verdict {
    let mut k = k.clone();
    // Every buffer holds n elements.
    let n = k.param_named("n").expect("n");
    for (i, q) in k.params.clone().iter().enumerate() {
        if matches!(q.kind, warpsafe_ir::ParamKind::Buffer { .. }) {
            k.contract.lengths.push(LengthSpec {
                param: warpsafe_ir::ParamId(i as u32),
                len: warpsafe_ir::Expr::new(
                    warpsafe_ir::ExprKind::Param(n),
                    warpsafe_ir::ScalarType::I32,
                )
                .cast(warpsafe_ir::ScalarType::U64),
            });
        }
    }
    let cfg = Config {
        block: DimSpec::Fixed([32, 1, 1]),
        grid: DimSpec::Fixed([4, 1, 1]),
        properties: vec![p],
        timeout: std::time::Duration::from_secs(60),
        ..Config::default()
    };
    verify(&k, &cfg).result(p).expect("checked").verdict.clone()
}

#[test]
fn verify_sees_through_the_dispatch() {
    let (_, c) = fixture();
    let ok = kernel(&c, "store_chosen");
    let race = verdict(ok, Property::Race);
    if z3_missing(&race) {
        eprintln!("z3 not installed: verdicts skipped");
        return;
    }
    assert!(matches!(race, Verdict::Verified), "{race:?}");
    let bounds = verdict(ok, Property::Bounds);
    assert!(matches!(bounds, Verdict::Verified), "{bounds:?}");
    for k in ["apply_switch", "apply_table", "apply_local"] {
        for p in [Property::Race, Property::Bounds] {
            let v = verdict(kernel(&c, k), p);
            assert!(matches!(v, Verdict::Verified), "{k} {p:?}: {v:?}");
        }
    }
    // Every pointer the kernels call is one of the targets: the dispatch's trap (an
    // assertion) never fires. Through a table verify does not know the table's contents
    // (a local array's elements): an unconfirmed `possible`, never `violated`.
    for k in ["apply_switch", "store_chosen"] {
        let v = verdict(kernel(&c, k), Property::Assert);
        assert!(matches!(v, Verdict::Verified), "{k} assert: {v:?}");
    }
    for k in ["apply_table", "apply_local"] {
        let v = verdict(kernel(&c, k), Property::Assert);
        assert!(
            matches!(v, Verdict::Verified | Verdict::Possible { .. }),
            "{k} assert: {v:?}"
        );
    }
    // A table index that may be negative reads before the table.
    let (src, _) = fixture();
    let signed = src.replace("(which & 0x7fffffff) % 3", "which % 3");
    assert_ne!(signed, src);
    let c2 = clang("fn_pointers_signed.cu", &signed);
    let v = verdict(kernel(&c2, "apply_table"), Property::Bounds);
    assert!(
        matches!(&v, Verdict::Violated(cx) if cx.message.contains("ops")),
        "{v:?}"
    );
    let bug = kernel(&c, "store_chosen_bug");
    let race = verdict(bug, Property::Race);
    assert!(matches!(race, Verdict::Violated(_)), "{race:?}");
    let bounds = verdict(bug, Property::Bounds);
    assert!(matches!(bounds, Verdict::Violated(_)), "{bounds:?}");
}

/// A file of one kernel `k` with `decls` before it and `body` in it.
fn one(decls: &str, body: &str) -> String {
    format!(
        "#include <cuda_runtime.h>\ntypedef float (*Fn)(float);\n\
         __device__ float twice(float a) {{ return 2.0f * a; }}\n\
         __device__ float half_of(float a) {{ return 0.5f * a; }}\n{decls}\n\
         __global__ void k(float* x, int which) {{\n{body}\n}}\n"
    )
}

#[test]
fn pointers_whose_targets_are_unknown_are_rejected_by_name() {
    let cases: [(&str, String, &str); 4] = [
        (
            "kernel parameter of a type no device function has",
            "#include <cuda_runtime.h>\ntypedef float (*Fn)(float, float);\n\
             __device__ float twice(float a) { return 2.0f * a; }\n\
             __global__ void k(float* x, Fn f) { x[threadIdx.x] = f(x[threadIdx.x], 1.0f); }\n"
                .to_string(),
            "function-pointer kernel parameter `f`",
        ),
        (
            "table written by the device",
            one(
                "__device__ Fn table[2] = {twice, half_of};",
                "    if (threadIdx.x == 0) table[0] = half_of;\n    \
                 x[threadIdx.x] = table[which & 1](x[threadIdx.x]);",
            ),
            "function pointer `table` is written",
        ),
        (
            "pointer set by the host",
            one(
                "__device__ Fn op = twice;\n\
                 void host_set() { Fn h; cudaMemcpyToSymbol(op, &h, sizeof(Fn)); }",
                "    x[threadIdx.x] = op(x[threadIdx.x]);",
            ),
            "function pointer `op` is written",
        ),
        (
            "no function of the type",
            one(
                "typedef int (*IntFn)(int);",
                "    IntFn g = (IntFn)0;\n    x[threadIdx.x] = g(which);",
            ),
            "no device function of that type has its address taken",
        ),
    ];
    for (what, src, want) in cases {
        let c = clang("unknown.cu", &src);
        let r = c
            .rejected
            .iter()
            .find(|r| r.kernel == "k")
            .unwrap_or_else(|| panic!("{what}: `k` accepted"));
        let e = &r.errors[0];
        assert!(e.message.contains(want), "{what}: {}", e.message);
        assert!(!e.span.is_dummy(), "{what}: the error has a span");
        let at = &src[e.span.lo as usize..e.span.hi as usize];
        assert!(!at.is_empty(), "{what}");
    }
}

#[test]
fn a_call_through_a_parenthesised_table_element_reads_the_table() {
    // The CUDA samples' FunctionPointers: `(*(blockFunction_table[op]))(…)`.
    let src = r#"
typedef float (*Fn)(float);
__device__ float twice(float v) { return 2.0f * v; }
__device__ float half_of(float v) { return 0.5f * v; }
__device__ Fn table[2] = {twice, half_of};
__global__ void paren(const float *x, float *out, int n, int which) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (*(table[which & 1]))(x[i]);
}
"#;
    let c = clang("paren.cu", src);
    let k = kernel(&c, "paren");
    for which in [0, 1] {
        let scale = if which == 0 { 2.0 } else { 0.5 };
        assert_eq!(
            run_out(k, false, &[which]),
            each(|_, x, _| scale * x),
            "which {which}"
        );
    }
}
