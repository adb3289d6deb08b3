//! Records in memory whose leaves have different types of one size (`struct Particle {
//! float3 pos; float mass; int id; }`) through clang: memory of `u32` (or `u64`), each leaf
//! converted at its access (a float leaf by bit reinterpretation, an integer leaf by an
//! integer cast of the same bits). The lowered kernels run on the interpreter and their
//! outputs are compared with values computed here in Rust; what cannot be expressed this way
//! (an atomic on, or a pointer to, a converted leaf) and records mixing 4- and 8-byte leaves
//! are rejected with their span.

use crate::common;

use common::{kernel, rejection};
use warpsafe_clang_front::Compiled;
use warpsafe_exec::{Arg, Buffer};
use warpsafe_ir::{Kernel, Value};

const N: usize = 64;

const SOURCE: &str = r#"
//--blockDim=32 --gridDim=2
#include <cuda_runtime.h>
struct Particle { float3 pos; float mass; int id; };

__global__ void step(Particle* p, const float* scale, float* out, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].mass += dt;
        p[i].pos.x = p[i].pos.x * scale[p[i].id];
        p[i].id = p[i].id + 1;
        p[i].id += 1;
        p[i].id++;
        ++p[i].pos.y;
        out[i] = p[i].mass + p[i].pos.z;
    }
}

__global__ void copy_in(const Particle* p, float* out, int* ids, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Particle q = p[i];
        q.mass *= 2.0f;
        out[i] = q.pos.x + q.pos.y + q.pos.z + q.mass;
        ids[i] = q.id - 1;
    }
}

__global__ void reverse_block(const Particle* src, Particle* dst) {
    __shared__ Particle tile[32];
    int t = threadIdx.x;
    int i = blockIdx.x * 32 + t;
    tile[t].pos.x = src[i].pos.x;
    tile[t].pos.y = src[i].pos.y;
    tile[t].pos.z = src[i].pos.z;
    tile[t].mass = src[i].mass;
    tile[t].id = src[i].id;
    __syncthreads();
    const Particle* from = &tile[31 - t];
    dst[i].pos.x = from->pos.x;
    dst[i].pos.y = from->pos.y;
    dst[i].pos.z = from->pos.z;
    dst[i].mass = from->mass + 1.0f;
    dst[i].id = from->id * 2;
}
"#;

fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("mixed", name, source)
}

/// Runs `k` on 2 blocks of 32 threads; every buffer argument afterwards.
fn run_k(k: &Kernel, args: Vec<Arg>) -> Vec<Buffer> {
    common::run_buffers(k, args)
}

/// A particle as Rust sees it: three floats, a float, an int.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Particle {
    pos: [f32; 3],
    mass: f32,
    id: i32,
}

fn particles() -> Vec<Particle> {
    (0..N)
        .map(|i| Particle {
            pos: [i as f32 * 0.5, 1.0 - i as f32, (i % 7) as f32 * 0.25],
            mass: 1.0 + (i % 5) as f32,
            id: ((i * 7) % N) as i32,
        })
        .collect()
}

/// The particles' memory: five `u32` per particle, floats by their bits.
fn words(ps: &[Particle]) -> Vec<u32> {
    ps.iter()
        .flat_map(|p| {
            [
                p.pos[0].to_bits(),
                p.pos[1].to_bits(),
                p.pos[2].to_bits(),
                p.mass.to_bits(),
                p.id as u32,
            ]
        })
        .collect()
}

fn unwords(w: &[u32]) -> Vec<Particle> {
    w.chunks(5)
        .map(|c| Particle {
            pos: [
                f32::from_bits(c[0]),
                f32::from_bits(c[1]),
                f32::from_bits(c[2]),
            ],
            mass: f32::from_bits(c[3]),
            id: c[4] as i32,
        })
        .collect()
}

#[test]
fn a_mixed_record_parameter_is_memory_of_u32_read_and_written_by_field() {
    let c = clang("step.cu", SOURCE);
    let k = kernel(&c, "step");
    let text = k.to_string();
    assert!(text.contains("p: &mut [u32]"), "{text}");
    // `p[i].mass += dt` reads, reinterprets, adds and writes back leaf 3 of element i.
    assert!(
        text.contains("bits.u32(bits.f32(p[(((i64)i_0) * 5ll) + 3ll]) + dt)"),
        "{text}"
    );
    let ps = particles();
    let scale: Vec<f32> = (0..N).map(|j| j as f32 * 0.5).collect();
    let dt = 0.25f32;
    let got = run_k(
        k,
        vec![
            Arg::Buffer(Buffer::from_u32(&words(&ps))),
            Arg::Buffer(Buffer::from_f32(&scale)),
            Arg::Buffer(Buffer::from_f32(&[0.0; N])),
            Arg::Scalar(Value::I32(N as i32)),
            Arg::Scalar(Value::F32(dt)),
        ],
    );
    let mut want = ps.clone();
    let mut want_out = vec![0.0f32; N];
    for (w, o) in want.iter_mut().zip(&mut want_out) {
        w.mass += dt;
        w.pos[0] *= scale[w.id as usize];
        w.id += 3;
        w.pos[1] += 1.0;
        *o = w.mass + w.pos[2];
    }
    assert_eq!(unwords(&got[0].to_u32()), want);
    assert_eq!(got[2].to_f32(), want_out);
}

#[test]
fn a_whole_mixed_record_is_copied_into_a_local_leaf_by_leaf() {
    let c = clang("copy_in.cu", SOURCE);
    let ps = particles();
    let got = run_k(
        kernel(&c, "copy_in"),
        vec![
            Arg::Buffer(Buffer::from_u32(&words(&ps))),
            Arg::Buffer(Buffer::from_f32(&[0.0; N])),
            Arg::Buffer(Buffer::from_i32(&[0; N])),
            Arg::Scalar(Value::I32(N as i32)),
        ],
    );
    let want: Vec<f32> = ps
        .iter()
        .map(|p| p.pos[0] + p.pos[1] + p.pos[2] + p.mass * 2.0)
        .collect();
    assert_eq!(got[1].to_f32(), want);
    let ids: Vec<i32> = ps.iter().map(|p| p.id - 1).collect();
    assert_eq!(got[2].to_i32(), ids);
    // The source is read, not changed, by the local's `q.mass *= 2`.
    assert_eq!(unwords(&got[0].to_u32()), ps);
}

#[test]
fn a_shared_array_of_mixed_records_holds_their_leaves_as_u32() {
    let c = clang("reverse.cu", SOURCE);
    let k = kernel(&c, "reverse_block");
    assert!(k.to_string().contains("u32[160]"), "{k}");
    let ps = particles();
    let got = run_k(
        k,
        vec![
            Arg::Buffer(Buffer::from_u32(&words(&ps))),
            Arg::Buffer(Buffer::from_u32(&vec![0; N * 5])),
        ],
    );
    let want: Vec<Particle> = (0..N)
        .map(|i| {
            let p = ps[i / 32 * 32 + 31 - i % 32];
            Particle {
                mass: p.mass + 1.0,
                id: p.id * 2,
                ..p
            }
        })
        .collect();
    assert_eq!(unwords(&got[1].to_u32()), want);
}

#[test]
fn a_record_of_doubles_and_long_longs_is_memory_of_u64() {
    let src = r#"
struct Cell { double w; long long key; };
__global__ void bump(Cell* c, double* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i].w = c[i].w * 2.0;
    c[i].key -= 3;
    out[i] = c[i].w + (double)c[i].key;
}
"#;
    let c = clang("cell.cu", src);
    let k = kernel(&c, "bump");
    assert!(k.to_string().contains("c: &mut [u64]"), "{k}");
    let cells: Vec<u64> = (0..64)
        .flat_map(|i| [(i as f64 * 1.5 - 7.0).to_bits(), (i as i64 - 20) as u64])
        .collect();
    let got = run_k(
        k,
        vec![
            Arg::Buffer(Buffer::from_u64(&cells)),
            Arg::Buffer(Buffer::from_f64(&[0.0; N])),
        ],
    );
    let mut want = cells.clone();
    let mut want_out = vec![0.0f64; N];
    for i in 0..N {
        let w = f64::from_bits(cells[2 * i]) * 2.0;
        let key = cells[2 * i + 1] as i64 - 3;
        want[2 * i] = w.to_bits();
        want[2 * i + 1] = key as u64;
        want_out[i] = w + key as f64;
    }
    assert_eq!(got[0].to_u64(), want);
    assert_eq!(got[1].to_f64(), want_out);
}

#[test]
fn an_atomic_on_a_float_leaf_of_a_mixed_record_is_rejected_by_name() {
    let src = r#"
#include <cuda_runtime.h>
struct Particle { float3 pos; float mass; int id; };
__global__ void deposit(Particle* p, float v) {
    atomicAdd(&p[threadIdx.x % 4].mass, v);
}
__global__ void pointer(Particle* p, float* out) {
    float* m = &p[threadIdx.x].mass;
    out[threadIdx.x] = *m;
}
"#;
    let got = clang("atomic.cu", src);
    for name in ["deposit", "pointer"] {
        let (msg, at) = rejection(&got, src, name);
        assert!(
            msg.contains("field `mass` of record `Particle`"),
            "{name}: {msg}"
        );
        assert!(msg.contains("`unsigned int`"), "{name}: {msg}");
        assert!(at.contains("&p[threadIdx.x"), "{name}: {at:?}");
    }
}

#[test]
fn a_record_mixing_4_and_8_byte_leaves_is_memory_of_u32_at_c_offsets() {
    // `struct Wide { float f; double d; }`: `f` at byte 0, 4 bytes of padding, `d` at byte 8
    // (two little-endian words); 16 bytes, four `u32` per element.
    let src = r#"
struct Wide { float f; double d; };
__global__ void wide(Wide* w) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    w[i].f = 1.5f;
    w[i].d = -2.25 * i;
}
"#;
    let got = clang("wide.cu", src);
    let k = kernel(&got, "wide");
    assert!(k.to_string().contains("w: &mut [u32]"), "{k}");
    let bufs = run_k(k, vec![Arg::Buffer(Buffer::from_u32(&[7; 4 * N]))]);
    let w = bufs[0].to_u32();
    for i in 0..N {
        let d = (-2.25 * i as f64).to_bits();
        assert_eq!(w[4 * i], 1.5f32.to_bits(), "element {i}");
        assert_eq!(w[4 * i + 1], 7, "padding of element {i} is not written");
        assert_eq!(w[4 * i + 2], d as u32, "element {i}");
        assert_eq!(w[4 * i + 3], (d >> 32) as u32, "element {i}");
    }
}

#[test]
fn records_whose_leaves_share_one_type_keep_their_memory_type() {
    let src = r#"
#include <cuda_runtime.h>
struct Body { float3 pos; float mass; };
__global__ void k(Body* b) { b[threadIdx.x].mass += 1.0f; }
"#;
    let c = clang("uniform.cu", src);
    let text = kernel(&c, "k").to_string();
    assert!(text.contains("b: &mut [f32]"), "{text}");
    assert!(!text.contains("bits."), "{text}");
}

#[test]
fn a_whole_record_stored_into_mixed_memory_converts_every_leaf() {
    // `out[i] = q` and `out[i].pos = q.pos`: leaf by leaf, each converted to the words.
    let src = r#"
//--blockDim=32 --gridDim=2
#include <cuda_runtime.h>
struct Particle { float3 pos; float mass; int id; };
__global__ void copy(const Particle* p, Particle* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Particle q = p[i];
    q.mass = q.mass * 2.0f;
    out[i] = q;
    out[i].pos = p[i].pos;
}
"#;
    let c = clang("store.cu", src);
    let ps = particles();
    let got = run_k(
        kernel(&c, "copy"),
        vec![
            Arg::Buffer(Buffer::from_u32(&words(&ps))),
            Arg::Buffer(Buffer::from_u32(&vec![0; N * 5])),
        ],
    );
    let want: Vec<Particle> = ps
        .iter()
        .map(|p| Particle {
            mass: p.mass * 2.0,
            ..*p
        })
        .collect();
    assert_eq!(unwords(&got[1].to_u32()), want);
}
