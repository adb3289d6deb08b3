//! Nested records (`struct Body { float3 pos; float3 vel; }`, `struct Outer { Inner in;
//! float w; }`) through clang: flattened to their leaf scalars, memory of records is memory
//! of their one leaf type (leaf `l` of element `i` is scalar `i * leaves + l`). The lowered
//! kernels run on the interpreter and their outputs are compared with values computed here
//! in Rust; records whose leaves have different types, or whose C layout has padding, are
//! rejected with the record named and the span on the construct.

use crate::common;

use common::{kernel, rejection};
use warpsafe_clang_front::Compiled;
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options as RunOptions};
use warpsafe_ir::{Kernel, Value};

const N: usize = 64;

const SOURCE: &str = r#"
//--blockDim=32 --gridDim=2
#include <cuda_runtime.h>
struct Body { float3 pos; float3 vel; };
struct Inner { float a, b; };
struct Outer { Inner in; float w; };

__global__ void integrate(Body* b, float* speed, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Body me = b[i];
        me.pos.x += me.vel.x * dt;
        me.pos.y += me.vel.y * dt;
        me.pos.z += me.vel.z * dt;
        b[i].pos = me.pos;
        b[i].vel.z = b[i].vel.z * 0.5f;
        speed[i] = me.vel.x * me.vel.x + me.vel.y * me.vel.y;
    }
}

__device__ float weigh(Outer o, float k) {
    o.in.a *= k;
    return o.in.a + o.in.b * o.w;
}

__device__ Outer shifted(Outer o) {
    Outer r = o;
    r.in.b += 1.0f;
    return r;
}

__global__ void by_value(const Outer* src, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Outer o = src[i];
        Outer s = shifted(o);
        out[i] = weigh(s, 2.0f) + o.in.a;
    }
}

__global__ void reverse_block(const Outer* src, Outer* dst) {
    __shared__ Outer tile[32];
    int i = blockIdx.x * 32 + threadIdx.x;
    tile[threadIdx.x] = src[i];
    __syncthreads();
    Outer o = tile[31 - threadIdx.x];
    o.in.a += 1.0f;
    dst[i] = o;
    dst[i].in = Inner{o.w, o.in.b};
}

__global__ void braced(Outer* dst) {
    int i = blockIdx.x * 32 + threadIdx.x;
    Inner q = {1.0f, 2.0f};
    Outer o = {q, 3.0f};
    Outer p = {{4.0f, 5.0f}, 6.0f};
    if (i % 2 == 0) dst[i] = o; else dst[i] = p;
}
"#;

fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("nested", name, source)
}

/// Runs `k` on 2 blocks of 32 threads; every buffer argument's contents afterwards.
fn run_k(k: &Kernel, args: Vec<Arg>) -> Vec<Vec<f32>> {
    common::run_buffers(k, args)
        .iter()
        .map(Buffer::to_f32)
        .collect()
}

/// `n * per` distinct floats.
fn data(per: usize) -> Vec<f32> {
    (0..N * per).map(|j| (j % 17) as f32 * 0.25 - 1.0).collect()
}

#[test]
fn a_nested_record_parameter_is_read_and_written_by_inner_field() {
    let c = clang("integrate.cu", SOURCE);
    let k = kernel(&c, "integrate");
    assert!(k.to_string().contains("* 6"), "{k}");
    let b = data(6);
    let dt = 0.5f32;
    let got = run_k(
        k,
        vec![
            Arg::Buffer(Buffer::from_f32(&b)),
            Arg::Buffer(Buffer::from_f32(&[0.0; N])),
            Arg::Scalar(Value::I32(N as i32)),
            Arg::Scalar(Value::F32(dt)),
        ],
    );
    let mut want_b = b.clone();
    let mut want_speed = vec![0.0f32; N];
    for i in 0..N {
        let e = &mut want_b[i * 6..i * 6 + 6];
        for d in 0..3 {
            e[d] += e[3 + d] * dt;
        }
        e[5] *= 0.5;
        want_speed[i] = e[3] * e[3] + e[4] * e[4];
    }
    assert_eq!(got[0], want_b);
    assert_eq!(got[1], want_speed);
}

#[test]
fn a_sub_record_copy_stores_every_leaf_of_the_field() {
    let c = clang("subcopy.cu", SOURCE);
    let text = kernel(&c, "integrate").to_string();
    // `b[i].pos = me.pos` is three stores at leaves 0, 1, 2 of element i.
    for leaf in [
        "b[((i64)i_0) * 6ll] = ",
        "b[(((i64)i_0) * 6ll) + 1ll] = ",
        "b[(((i64)i_0) * 6ll) + 2ll] = ",
    ] {
        assert!(text.contains(leaf), "{leaf} in\n{text}");
    }
    // `vel.z` is leaf 3 + 2: the offsets are folded.
    assert!(text.contains("b[(((i64)i_0) * 6ll) + 5ll] = "), "{text}");
}

#[test]
fn a_nested_local_is_passed_to_and_returned_from_device_functions_by_value() {
    let c = clang("by_value.cu", SOURCE);
    let src = data(3);
    let got = run_k(
        kernel(&c, "by_value"),
        vec![
            Arg::Buffer(Buffer::from_f32(&src)),
            Arg::Buffer(Buffer::from_f32(&[0.0; N])),
            Arg::Scalar(Value::I32(N as i32)),
        ],
    );
    let want: Vec<f32> = (0..N)
        .map(|i| {
            let (a, b, w) = (src[i * 3], src[i * 3 + 1], src[i * 3 + 2]);
            (a * 2.0) + (b + 1.0) * w + a
        })
        .collect();
    assert_eq!(got[1], want);
    // The caller's record is copied, not changed, by the callee's `o.in.a *= k`.
    assert_eq!(got[0], src);
}

#[test]
fn a_shared_array_of_nested_records_holds_their_leaves() {
    let c = clang("reverse.cu", SOURCE);
    let k = kernel(&c, "reverse_block");
    assert!(k.to_string().contains("f32[96]"), "{k}");
    let src = data(3);
    let got = run_k(
        k,
        vec![
            Arg::Buffer(Buffer::from_f32(&src)),
            Arg::Buffer(Buffer::from_f32(&[0.0; N * 3])),
        ],
    );
    let mut want = vec![0.0f32; N * 3];
    for i in 0..N {
        let j = i / 32 * 32 + 31 - i % 32;
        let (_, b, w) = (src[j * 3] + 1.0, src[j * 3 + 1], src[j * 3 + 2]);
        want[i * 3..i * 3 + 3].copy_from_slice(&[w, b, w]);
    }
    assert_eq!(got[1], want);
}

#[test]
fn braced_initialisers_of_nested_records_set_every_leaf() {
    let c = clang("braced.cu", SOURCE);
    let got = run_k(
        kernel(&c, "braced"),
        vec![Arg::Buffer(Buffer::from_f32(&[0.0; N * 3]))],
    );
    let want: Vec<f32> = (0..N)
        .flat_map(|i| {
            if i % 2 == 0 {
                [1.0, 2.0, 3.0]
            } else {
                [4.0, 5.0, 6.0]
            }
        })
        .collect();
    assert_eq!(got[0], want);
}

#[test]
fn a_nested_record_with_leaves_of_different_types_is_laid_out_at_c_offsets() {
    // `float3 p` at bytes 0..12, 4 bytes of padding, `long long id` at 16..24: six `u32`.
    let src = r#"
#include <cuda_runtime.h>
struct Tag { float3 p; long long id; };
__global__ void tagged(Tag* t) { t[threadIdx.x].p.y = 0.5f; t[threadIdx.x].id = -1 - (long long)threadIdx.x; }
"#;
    let got = clang("mixed_nested.cu", src);
    let k = kernel(&got, "tagged");
    assert!(k.to_string().contains("t: &mut [u32]"), "{k}");
    let out = run(
        k,
        &LaunchConfig::linear(1, 32),
        vec![Arg::Buffer(Buffer::from_u32(&[3; 6 * 32]))],
        &RunOptions::default(),
    )
    .expect("runs");
    let Arg::Buffer(b) = &out.args[0] else {
        panic!("a buffer")
    };
    let t = b.to_u32();
    for i in 0..32 {
        let id = (-1 - i as i64) as u64;
        let want = [3, 0.5f32.to_bits(), 3, 3, id as u32, (id >> 32) as u32];
        assert_eq!(t[6 * i..6 * i + 6], want, "element {i}");
    }
}

#[test]
fn layouts_with_alignment_padding_follow_c() {
    let src = r#"
#include <cuda_runtime.h>
struct Tail { float4 p; float m; };
struct Gap { float m; float2 v; };
struct Packed { float2 a; float2 b; float4 c; };
__global__ void tail(Tail* t) { t[threadIdx.x].m = 1.0f; }
__global__ void gap(float* raw) { reinterpret_cast<Gap*>(raw)[threadIdx.x].v.y = 1.0f; }
__global__ void packed(Packed* p) { p[threadIdx.x].c.w = 1.0f; }
"#;
    let got = clang("padded.cu", src);
    // float4 then float: 20 bytes padded to 32 (the record's alignment is 16): leaf 4 of 8.
    let k = kernel(&got, "tail").to_string();
    assert!(
        k.contains("t[(((i64)threadIdx.x) * 8ll) + 4ll] = 1.0f"),
        "{k}"
    );
    // float, 4 bytes of padding, float2 at byte 8: `v.y` is float 3 of 4.
    let k = kernel(&got, "gap").to_string();
    assert!(
        k.contains("raw[(((i64)threadIdx.x) * 4ll) + 3ll] = 1.0f"),
        "{k}"
    );
    // float2, float2, float4: 8 + 8 + 16 bytes, no padding: `c.w` is leaf 7 of 8.
    let k = kernel(&got, "packed").to_string();
    assert!(
        k.contains("(((i64)threadIdx.x) * 8ll) + 7ll] = 1.0f"),
        "{k}"
    );
}

#[test]
fn an_array_field_of_a_record_in_memory_is_rejected_and_copied_in_locals() {
    let src = r#"
struct Inner { float a, b; };
struct Outer { Inner in; float w[2]; };
__global__ void in_memory(Outer* o) { o[threadIdx.x].w[1] = 1.0f; }
__global__ void local_copy(float* out) {
    Outer o;
    o.in.a = 1.0f; o.in.b = 2.0f; o.w[0] = 3.0f; o.w[1] = 4.0f;
    Outer p = o;
    out[threadIdx.x] = p.w[1] + p.in.a;
}
"#;
    let got = clang("array_field.cu", src);
    // Indexing an array field of a record in memory is not read yet: rejected at the access.
    let (msg, at) = rejection(&got, src, "in_memory");
    assert!(msg.contains("indexed"), "{msg}");
    assert!(at.contains("o[threadIdx.x]"), "{at:?}");
    let out = run(
        kernel(&got, "local_copy"),
        &LaunchConfig::linear(1, 32),
        vec![Arg::Buffer(Buffer::from_f32(&[0.0; 32]))],
        &RunOptions::default(),
    )
    .expect("runs");
    let Arg::Buffer(b) = &out.args[0] else {
        panic!("a buffer")
    };
    assert_eq!(b.to_f32(), vec![5.0; 32]);
}
