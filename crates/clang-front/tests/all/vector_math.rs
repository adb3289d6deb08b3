//! Vector arithmetic through our `helper_math.h` (and GPUVerify's preamble, which gives it to
//! files in its test form): `float4 * float`, `make_float3(float4)`, `normalize(a - b) * s`,
//! compound assignments, device functions returning records by value, records chosen by
//! `?:`. The lowered kernels run on the interpreter and their outputs are compared with
//! values computed here in Rust; verdicts of a correct kernel and a racy twin; what still
//! cannot be read is rejected with its name and span.

use crate::common;

use common::{kernel, rejection, verdict, z3_missing};
use warpsafe_clang_front::Compiled;
use warpsafe_exec::{Arg, Buffer};
use warpsafe_ir::{Kernel, Value};
use warpsafe_verify::{Property, Verdict};

const N: usize = 64;

fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("vector_math", name, source)
}

/// Runs `k` on 2 blocks of 32 threads; every buffer argument afterwards.
fn run_k(k: &Kernel, args: Vec<Arg>) -> Vec<Buffer> {
    common::run_buffers(k, args)
}

fn floats(per: usize, seed: usize) -> Vec<f32> {
    (0..N * per)
        .map(|j| ((j * 7 + seed) % 23) as f32 * 0.25 - 2.5)
        .collect()
}

fn close(got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-5 * w.abs().max(1.0),
            "element {i}: got {g}, want {w}"
        );
    }
}

const ARITH: &str = r#"
//--blockDim=32 --gridDim=2
#include "helper_math.h"
__global__ void arith(const float4* in, float4* out, int2* iout, int n, float s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 a = in[i];
        float4 b = a * s + make_float4(1.0f);
        b -= 0.5f * a;
        b /= 2;
        float3 c = make_float3(b) + make_float3(a.w, a.z, a.y);
        out[i] = make_float4(c, dot(a, b));
        int2 q = make_int2(i, -i) * 3 + make_int2(1);
        q += make_int2(make_float2(a));
        iout[i] = -q;
    }
}
"#;

#[test]
fn operators_and_factories_compute_component_by_component() {
    let c = clang("arith.cu", ARITH);
    let input = floats(4, 3);
    let s = 1.5f32;
    let got = run_k(
        kernel(&c, "arith"),
        vec![
            Arg::Buffer(Buffer::from_f32(&input)),
            Arg::Buffer(Buffer::from_f32(&[0.0; N * 4])),
            Arg::Buffer(Buffer::from_i32(&[0; N * 2])),
            Arg::Scalar(Value::I32(N as i32)),
            Arg::Scalar(Value::F32(s)),
        ],
    );
    let mut want = vec![0.0f32; N * 4];
    let mut want_i = vec![0i32; N * 2];
    for i in 0..N {
        let a = &input[i * 4..i * 4 + 4];
        let mut b = [0.0f32; 4];
        for k in 0..4 {
            b[k] = a[k] * s + 1.0;
            b[k] -= 0.5 * a[k];
            b[k] /= 2.0;
        }
        let c = [b[0] + a[3], b[1] + a[2], b[2] + a[1]];
        let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        want[i * 4..i * 4 + 4].copy_from_slice(&[c[0], c[1], c[2], d]);
        let q = [
            i as i32 * 3 + 1 + a[0] as i32,
            -(i as i32) * 3 + 1 + a[1] as i32,
        ];
        want_i[i * 2] = -q[0];
        want_i[i * 2 + 1] = -q[1];
    }
    assert_eq!(got[1].to_f32(), want);
    assert_eq!(got[2].to_i32(), want_i);
}

const GEOMETRY: &str = r#"
//--blockDim=32 --gridDim=2
#include <helper_math.h>
__global__ void geometry(const float3* p, const float3* q, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float3 a = p[i], b = q[i];
        float3 d = normalize(a - b) * 2.0f;
        float3 x = cross(a, b);
        float3 r = reflect(a, make_float3(0.0f, 1.0f, 0.0f));
        float3 l = lerp(a, b, 0.25f);
        float3 c = clamp(a, -0.5f, 0.5f);
        float3 f = fracf(a) + floorf(b) + fminf(a, b) - fmaxf(a, b);
        float* o = &out[i * 16];
        o[0] = d.x; o[1] = d.y; o[2] = d.z;
        o[3] = x.x; o[4] = x.y; o[5] = x.z;
        o[6] = r.y; o[7] = l.x; o[8] = l.z;
        o[9] = c.x; o[10] = c.z; o[11] = f.x; o[12] = f.y;
        o[13] = length(b);
        o[14] = smoothstep(-1.0f, 1.0f, a.x);
        o[15] = dot(fabs(a - b), make_float3(1.0f));
    }
}
"#;

#[test]
fn geometry_functions_match_their_definitions() {
    let c = clang("geometry.cu", GEOMETRY);
    let p = floats(3, 1);
    let q = floats(3, 10);
    let got = run_k(
        kernel(&c, "geometry"),
        vec![
            Arg::Buffer(Buffer::from_f32(&p)),
            Arg::Buffer(Buffer::from_f32(&q)),
            Arg::Buffer(Buffer::from_f32(&[0.0; N * 16])),
            Arg::Scalar(Value::I32(N as i32)),
        ],
    );
    let mut want = vec![0.0f32; N * 16];
    for i in 0..N {
        let a = [p[i * 3], p[i * 3 + 1], p[i * 3 + 2]];
        let b = [q[i * 3], q[i * 3 + 1], q[i * 3 + 2]];
        let o = &mut want[i * 16..i * 16 + 16];
        let e = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
        let len_e = (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).sqrt();
        for k in 0..3 {
            o[k] = e[k] / len_e * 2.0;
        }
        o[3] = a[1] * b[2] - a[2] * b[1];
        o[4] = a[2] * b[0] - a[0] * b[2];
        o[5] = a[0] * b[1] - a[1] * b[0];
        o[6] = a[1] - 2.0 * a[1];
        o[7] = a[0] + 0.25 * (b[0] - a[0]);
        o[8] = a[2] + 0.25 * (b[2] - a[2]);
        o[9] = a[0].clamp(-0.5, 0.5);
        o[10] = a[2].clamp(-0.5, 0.5);
        let f = |k: usize| (a[k] - a[k].floor()) + b[k].floor() + a[k].min(b[k]) - a[k].max(b[k]);
        o[11] = f(0);
        o[12] = f(1);
        o[13] = (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]).sqrt();
        let y = ((a[0] + 1.0) / 2.0).clamp(0.0, 1.0);
        o[14] = y * y * (3.0 - 2.0 * y);
        o[15] = e[0].abs() + e[1].abs() + e[2].abs();
    }
    close(&got[2].to_f32(), &want);
}

const CALLS: &str = r#"
//--blockDim=32 --gridDim=2
#include "helper_math.h"
__device__ float2 cmul(float2 a, float2 b) {
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__device__ float2 twist(float t) { return make_float2(t, -t); }
__device__ float4 pick(const float4* p, int i, bool c) { return c ? p[i] : make_float4(0.0f); }
__device__ float4 scaled(float4 v, float s) {
    float4 r = v * s;
    if (s > 1.0f) return r + make_float4(1.0f);
    return r;
}
__global__ void calls(const float2* z, const float4* p, float2* out, float4* sel, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = cmul(cmul(z[i], twist(0.5f)), z[(i + 1) % n]);
        sel[i] = (i % 2 == 0) ? p[i] : p[n - 1 - i];
        float4 t = pick(p, i, i % 3 == 0);
        sel[i] += scaled(t, i % 4 == 0 ? 2.0f : 0.5f);
    }
}
"#;

#[test]
fn records_returned_by_value_chosen_by_conditionals_and_passed_as_temporaries() {
    let c = clang("calls.cu", CALLS);
    let z = floats(2, 5);
    let p = floats(4, 2);
    let got = run_k(
        kernel(&c, "calls"),
        vec![
            Arg::Buffer(Buffer::from_f32(&z)),
            Arg::Buffer(Buffer::from_f32(&p)),
            Arg::Buffer(Buffer::from_f32(&[0.0; N * 2])),
            Arg::Buffer(Buffer::from_f32(&[0.0; N * 4])),
            Arg::Scalar(Value::I32(N as i32)),
        ],
    );
    let cmul = |a: [f32; 2], b: [f32; 2]| [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
    let mut want = vec![0.0f32; N * 2];
    let mut want_sel = vec![0.0f32; N * 4];
    for i in 0..N {
        let zi = [z[i * 2], z[i * 2 + 1]];
        let j = (i + 1) % N;
        let r = cmul(cmul(zi, [0.5, -0.5]), [z[j * 2], z[j * 2 + 1]]);
        want[i * 2..i * 2 + 2].copy_from_slice(&r);
        let from = if i % 2 == 0 { i } else { N - 1 - i };
        let s = if i % 4 == 0 { 2.0f32 } else { 0.5 };
        for k in 0..4 {
            let t = if i % 3 == 0 { p[i * 4 + k] } else { 0.0 };
            let mut sc = t * s;
            if s > 1.0 {
                sc += 1.0;
            }
            want_sel[i * 4 + k] = p[from * 4 + k] + sc;
        }
    }
    assert_eq!(got[2].to_f32(), want);
    assert_eq!(got[3].to_f32(), want_sel);
}

const ALIASING: &str = r#"
//--blockDim=32 --gridDim=2
#include "helper_math.h"
__global__ void aliasing(float3* v, const float3* w, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float3 a = v[i];
        a = make_float3(a.y, a.z, a.x);
        a = cross(a, w[i]);
        float2 s = make_float2(a.x, a.y);
        s += make_float2(s.y, s.x);
        s *= s.x;
        v[i] = make_float3(s, a.z);
    }
}
"#;

#[test]
fn an_assignment_reads_every_old_component_before_it_writes_one() {
    let c = clang("aliasing.cu", ALIASING);
    let v = floats(3, 4);
    let w = floats(3, 9);
    let got = run_k(
        kernel(&c, "aliasing"),
        vec![
            Arg::Buffer(Buffer::from_f32(&v)),
            Arg::Buffer(Buffer::from_f32(&w)),
            Arg::Scalar(Value::I32(N as i32)),
        ],
    );
    let mut want = vec![0.0f32; N * 3];
    for i in 0..N {
        let a0 = [v[i * 3 + 1], v[i * 3 + 2], v[i * 3]];
        let b = [w[i * 3], w[i * 3 + 1], w[i * 3 + 2]];
        let a = [
            a0[1] * b[2] - a0[2] * b[1],
            a0[2] * b[0] - a0[0] * b[2],
            a0[0] * b[1] - a0[1] * b[0],
        ];
        let mut s = [a[0], a[1]];
        s = [s[0] + s[1], s[1] + s[0]];
        let k = s[0];
        s = [s[0] * k, s[1] * k];
        want[i * 3..i * 3 + 3].copy_from_slice(&[s[0], s[1], a[2]]);
    }
    assert_eq!(got[0].to_f32(), want);
}

const DECLARATORS: &str = r#"
//--blockDim=32 --gridDim=2
#include "helper_math.h"
__global__ void declarators(const float3* p, float3* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float3 a(p[i]), m(a + make_float3(1.0f, 2.0f, 3.0f)), k(normalize(m - a) * 14.0f);
        out[i] = k * dot(k, m) + m;
    }
}
"#;

#[test]
fn each_declarator_follows_what_the_ones_before_it_declare() {
    // `k`'s initial value needs statements of its own that read `m`: they come after `m`.
    let c = clang("declarators.cu", DECLARATORS);
    let p = floats(3, 8);
    let got = run_k(
        kernel(&c, "declarators"),
        vec![
            Arg::Buffer(Buffer::from_f32(&p)),
            Arg::Buffer(Buffer::from_f32(&[0.0; N * 3])),
            Arg::Scalar(Value::I32(N as i32)),
        ],
    );
    let mut want = vec![0.0f32; N * 3];
    let len = 14.0f32.sqrt();
    for i in 0..N {
        let m = [p[i * 3] + 1.0, p[i * 3 + 1] + 2.0, p[i * 3 + 2] + 3.0];
        let k = [1.0 / len * 14.0, 2.0 / len * 14.0, 3.0 / len * 14.0];
        let d = k[0] * m[0] + k[1] * m[1] + k[2] * m[2];
        for j in 0..3 {
            want[i * 3 + j] = k[j] * d + m[j];
        }
    }
    close(&got[1].to_f32(), &want);
}

/// A kernel in GPUVerify's test form: no `#include`, the preamble gives the operators.
const GPUVERIFY: &str = r#"//pass
//--blockDim=32 --gridDim=2
__device__ float4 fminf(float4, float4);
__global__ void box(float4* od, const float4* id, int r) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 t = id[i] * r;
    t += make_float4(0.5f);
    od[i] = fminf(t * 2.0, make_float4(make_float3(t), 1.0f));
}
"#;

#[test]
fn gpuverify_test_form_files_get_the_vector_operators() {
    let c = clang("gv_box.cu", GPUVERIFY);
    let id = floats(4, 6);
    let got = run_k(
        kernel(&c, "box"),
        vec![
            Arg::Buffer(Buffer::from_f32(&[0.0; N * 4])),
            Arg::Buffer(Buffer::from_f32(&id)),
            Arg::Scalar(Value::I32(3)),
        ],
    );
    let mut want = vec![0.0f32; N * 4];
    for i in 0..N {
        for k in 0..4 {
            let t = id[i * 4 + k] * 3.0 + 0.5;
            let other = if k == 3 { 1.0 } else { t };
            want[i * 4 + k] = ((t as f64 * 2.0) as f32).min(other);
        }
    }
    assert_eq!(got[0].to_f32(), want);
}

#[test]
fn outside_gpuverify_form_the_operators_are_the_users_own() {
    // Without the test-form line nothing declares `float4 * int`: clang's error, named.
    let plain = GPUVERIFY.replacen("//pass\n", "", 1);
    let path = std::env::temp_dir().join(format!("warpsafe-vm-plain-{}.cu", std::process::id()));
    std::fs::write(&path, &plain).expect("writes");
    let err = match warpsafe_clang_front::compile_file(&path, &plain, &Default::default()) {
        Err(e) => format!("{e:?}"),
        Ok(c) => format!("{:?}", c.rejected),
    };
    assert!(err.contains("invalid operands"), "{err}");
    // A file with its own operators (no helper_math.h) keeps them: inlined as user code.
    let own = r#"
//--blockDim=32 --gridDim=2
__device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y - b.y); }
__global__ void own(float2* o, const float2* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = a[i] + a[i];
}
"#;
    let c = clang("own_ops.cu", own);
    let a = floats(2, 0);
    let got = run_k(
        kernel(&c, "own"),
        vec![
            Arg::Buffer(Buffer::from_f32(&[0.0; N * 2])),
            Arg::Buffer(Buffer::from_f32(&a)),
        ],
    );
    let want: Vec<f32> = (0..N * 2)
        .map(|j| if j % 2 == 0 { a[j] + a[j] } else { 0.0 })
        .collect();
    assert_eq!(got[0].to_f32(), want);
}

const RACE: &str = r#"
//--blockDim=32 --gridDim=2
#include "helper_math.h"
__global__ void blur(const float4* in, float4* out, float w) {
    __shared__ float4 tile[34];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    tile[t + 1] = in[i] * w;
    if (t == 0) tile[0] = make_float4(0.0f);
    if (t == 31) tile[33] = make_float4(0.0f);
    __syncthreads();
    out[i] = (tile[t] + tile[t + 1] + tile[t + 2]) / 3.0f;
}
"#;

#[test]
fn a_vector_stencil_is_race_free_and_its_twin_without_the_barrier_is_not() {
    let c = clang("blur.cu", RACE);
    let v = verdict(kernel(&c, "blur"), Property::Race);
    if z3_missing(&v) {
        return;
    }
    assert!(matches!(v, Verdict::Verified), "{v:?}");
    let bug = RACE.replace("    __syncthreads();\n", "");
    let c = clang("blur_bug.cu", &bug);
    let v = verdict(kernel(&c, "blur"), Property::Race);
    assert!(matches!(v, Verdict::Violated(_)), "{v:?}");
}

#[test]
fn what_cannot_be_read_is_rejected_with_its_name_and_span() {
    // A vector compound assignment in a loop's update has no place for its statements.
    let src = r#"
//--blockDim=32 --gridDim=1
#include "helper_math.h"
__global__ void walk(float2* o, float2 step) {
    float2 p = make_float2(0.0f);
    for (int k = 0; k < 4; k++, p += step) o[threadIdx.x] = p;
}
"#;
    let c = clang("walk.cu", src);
    let (msg, at) = rejection(&c, src, "walk");
    assert!(msg.contains("compound assignment"), "{msg}");
    assert!(at.contains("p += step"), "{at}");
}
