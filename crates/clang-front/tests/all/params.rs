//! Parameters the front end reads in a narrower form than C++ declares them: a kernel's
//! pointer to pointer that the body never names (kept for a signature) is an opaque 64-bit
//! value, and a `const` reference to a scalar in an inlined helper names its argument.

use crate::common;

use warpsafe_exec::{Arg, Buffer};
use warpsafe_ir::Value;

const SOURCE: &str = r#"//--blockDim=32 --gridDim=2
__device__ void scale_pair(float2 &a, const float &c) {
    float2 t = {c * a.x, c * (a.y + 1.0f)};
    a = t;
}

__device__ void set_then_copy(float2 &a, const float &c) {
    a.x = 5.0f;
    a.y = c;
}

__global__ void keep_argv(char **argv, float2 *v, float c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 a = v[i];
    scale_pair(a, c);
    v[i] = a;
}

__global__ void alias(float2 *v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 a = v[i];
    set_then_copy(a, a.x);
    v[i] = a;
}

__global__ void use_argv(char **argv) {
    argv[0][threadIdx.x] = 'x';
}
"#;

fn run_on(kernel: &str, scalars: Vec<Arg>) -> Vec<f32> {
    let c = common::clang_in("params", &format!("{kernel}.cu"), SOURCE);
    let k = common::kernel(&c, kernel);
    let v: Vec<f32> = (0..128).map(|j| j as f32).collect();
    let mut args = scalars;
    args.insert(args.len().min(1), Arg::Buffer(Buffer::from_f32(&v)));
    let out = common::run_buffers(k, args);
    out[0].to_f32()
}

#[test]
fn an_unused_pointer_to_pointer_is_an_opaque_value() {
    let c = common::clang_in("params", "argv.cu", SOURCE);
    assert!(
        c.notes.iter().any(|(_, n)| n.contains("`argv`")),
        "{:?}",
        c.notes
    );
    let (msg, _) = common::rejection(&c, SOURCE, "use_argv");
    assert!(msg.contains("pointer to pointer"), "{msg}");
    let got = run_on(
        "keep_argv",
        vec![Arg::Scalar(Value::U64(0)), Arg::Scalar(Value::F32(2.0))],
    );
    for j in 0..64 {
        let (x, y) = ((2 * j) as f32, (2 * j + 1) as f32);
        assert_eq!((got[2 * j], got[2 * j + 1]), (2.0 * x, 2.0 * (y + 1.0)));
    }
}

#[test]
fn a_const_reference_sees_the_callees_writes() {
    // `set_then_copy(a, a.x)` writes a.x first; `c` names a.x, so a.y is 5 too (a copy
    // taken at the call would give the old a.x).
    let got = run_on("alias", vec![]);
    assert!(got.iter().all(|x| *x == 5.0), "{got:?}");
}
