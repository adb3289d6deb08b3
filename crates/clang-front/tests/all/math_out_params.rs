//! Math API functions that return through pointers (`sincosf`, `__sincosf`, `sincos`) write
//! the two values the single functions compute: each is run beside `sinf`/`cosf` on the
//! same inputs and must agree to the bit, and a result pointer into shared memory races like
//! any store.

use crate::common;

use warpsafe_exec::{Arg, Buffer};
use warpsafe_verify::{Property, Verdict};

const SOURCE: &str = r#"//--blockDim=64 --gridDim=1
#include <cuda_runtime.h>
__global__ void rotate(const float* angle, float2* dir, float* direct, double* wide) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s, c;
    sincosf(angle[i], &s, &c);
    dir[i] = make_float2(c, s);
    float fs, fc;
    __sincosf(angle[i] * 0.5f, &fs, &fc);
    direct[3 * i] = fs - __sinf(angle[i] * 0.5f);
    direct[3 * i + 1] = fc - __cosf(angle[i] * 0.5f);
    direct[3 * i + 2] = s - sinf(angle[i]) + (c - cosf(angle[i]));
    double ds, dc;
    sincos((double)angle[i], &ds, &dc);
    wide[i] = ds * ds + dc * dc;
}

__global__ void shared_out(const float* angle, float* out) {
    __shared__ float s[64], c[64];
    int t = threadIdx.x;
    sincosf(angle[t], &s[t], &c[t]);
    __syncthreads();
    out[t] = s[63 - t] * c[t];
}

__global__ void shared_out_racy(const float* angle, float* out) {
    __shared__ float s[64], c[64];
    int t = threadIdx.x;
    sincosf(angle[t], &s[t], &c[t]);
    out[t] = s[63 - t] * c[t];
}
"#;

#[test]
fn sincos_writes_what_sin_and_cos_compute() {
    let c = common::clang_in("math_out", "rotate.cu", SOURCE);
    let k = common::kernel(&c, "rotate");
    let angle: Vec<f32> = (0..64).map(|j| j as f32 * 0.37 - 11.0).collect();
    let out = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_f32(&angle)),
            Arg::Buffer(Buffer::from_f32(&[0.0; 128])),
            Arg::Buffer(Buffer::from_f32(&[1.0; 192])),
            Arg::Buffer(Buffer::from_f64(&[0.0; 64])),
        ],
    );
    let dir = out[1].to_f32();
    let direct = out[2].to_f32();
    let wide = out[3].to_f64();
    for (j, a) in angle.iter().enumerate() {
        assert_eq!(dir[2 * j], a.cos(), "cos of {a}");
        assert_eq!(dir[2 * j + 1], a.sin(), "sin of {a}");
        assert_eq!(&direct[3 * j..3 * j + 3], &[0.0, 0.0, 0.0], "angle {a}");
        assert!(
            (wide[j] - 1.0).abs() < 1e-12,
            "sin² + cos² of {a}: {}",
            wide[j]
        );
    }
}

#[test]
fn results_in_shared_memory_race_without_the_barrier() {
    let c = common::clang_in("math_out", "shared.cu", SOURCE);
    let v = common::verdict(common::kernel(&c, "shared_out"), Property::Race);
    if common::z3_missing(&v) {
        return;
    }
    assert!(matches!(v, Verdict::Verified), "{v:?}");
    let v = common::verdict(common::kernel(&c, "shared_out_racy"), Property::Race);
    assert!(matches!(v, Verdict::Violated { .. }), "{v:?}");
}
