//! Unions in memory through clang (`union UByte4 { unsigned uival; unsigned char ubval[4]; }`
//! as a `__shared__` array, as AES kernels stage their blocks): every member lies on the
//! union's own units, so a member written is the bytes another member reads. The lowered
//! kernels run on the interpreter against values computed here in Rust (little-endian, as
//! CUDA lays them out), races through different members are found. A union variable is a
//! local array of its units; a union as one value per member (a kernel's by-value parameter,
//! a braced initialiser) is rejected with its span.

use crate::common;

use common::{kernel, rejection, verdict, z3_missing};
use warpsafe_clang_front::Compiled;
use warpsafe_exec::{Arg, Buffer};
use warpsafe_verify::{Property, Verdict};

const N: usize = 64;

const SOURCE: &str = r#"
//--blockDim=32 --gridDim=2
typedef unsigned int uint;
typedef unsigned char uchar;
union UByte4 {
    uint uival;
    uchar ubval[4];
};
typedef union UByte4 Word;

struct Tagged {
    float w;
    union {
        int i;
        float f;
    } v;
};

__device__ uint byte_of(const Word *p, int k) { return p->ubval[k]; }

// Each thread stages its word, then assembles a word from bytes of its neighbours' words.
__global__ void shuffle(uint *out, const uint *in) {
    __shared__ UByte4 stage[32];
    uint t = threadIdx.x;
    uint i = blockIdx.x * 32 + t;
    stage[t].uival = in[i];
    __syncthreads();
    __shared__ Word mixed[32];
    mixed[t].ubval[0] = stage[(t + 1) % 32].ubval[3];
    mixed[t].ubval[1] = stage[t].ubval[2] ^ 0x5a;
    mixed[t].ubval[2] = byte_of(&stage[(t + 31) % 32], 1);
    mixed[t].ubval[3] = stage[t].ubval[0];
    out[i] = mixed[t].uival;
}

// The same exchange without the barrier: a word written through `uival` races with the bytes
// other threads read through `ubval`.
__global__ void shuffle_nosync(uint *out, const uint *in) {
    __shared__ UByte4 stage[32];
    uint t = threadIdx.x;
    stage[t].uival = in[blockIdx.x * 32 + t];
    out[blockIdx.x * 32 + t] = stage[(t + 1) % 32].ubval[3];
}

// A float written through one member of a union inside a record, read back as an int.
__global__ void tagged(Tagged *rec, int *bits) {
    uint i = blockIdx.x * 32 + threadIdx.x;
    rec[i].v.f = rec[i].w * 2.0f;
    bits[i] = rec[i].v.i;
}

// Union variables: a copy of a union in memory, bytes changed through one member, the word
// read through the other; a vector and its components (`float4` and `float[4]`) indexed by
// a variable.
__global__ void locals(uint *out, const float4 *v, float *pick) {
    __shared__ UByte4 stage[32];
    uint t = threadIdx.x;
    uint i = blockIdx.x * 32 + t;
    stage[t].uival = out[i];
    UByte4 r = stage[t];
    r.ubval[t % 4] ^= 0xff;
    Word w;
    w = r;
    out[i] = w.uival;
    union {
        float4 vec;
        float lane[4];
    } u;
    u.vec = v[i];
    pick[i] = u.lane[(t + 1) % 4] - u.lane[t % 4];
}

__global__ void by_value(UByte4 w, uint *out) { out[threadIdx.x] = w.uival; }

__global__ void braced(uint *out) {
    UByte4 r = {7u};
    out[threadIdx.x] = r.ubval[0];
}
"#;

fn clang(name: &str) -> Compiled {
    common::clang_in("unions", name, SOURCE)
}

fn input() -> Vec<u32> {
    (0..N as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0x0102_0304)
        .collect()
}

#[test]
fn a_shared_union_array_is_one_byte_memory_that_every_member_reads() {
    let c = clang("shuffle.cu");
    let k = kernel(&c, "shuffle");
    // 32 unions of 4 bytes: the word member and the byte array share the same 128 bytes.
    assert!(k.to_string().contains("u8[128]"), "{k}");
    let inp = input();
    let got = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_u32(&[0; N])),
            Arg::Buffer(Buffer::from_u32(&inp)),
        ],
    );
    let want: Vec<u32> = (0..N)
        .map(|i| {
            let (b, t) = (i / 32 * 32, i % 32);
            let word = |j: usize| inp[b + j].to_le_bytes();
            u32::from_le_bytes([
                word((t + 1) % 32)[3],
                word(t)[2] ^ 0x5a,
                word((t + 31) % 32)[1],
                word(t)[0],
            ])
        })
        .collect();
    assert_eq!(got[0].to_u32(), want);
}

#[test]
fn a_race_between_members_of_a_union_is_found_and_the_barrier_removes_it() {
    let c = clang("race.cu");
    let racy = verdict(kernel(&c, "shuffle_nosync"), Property::Race);
    if z3_missing(&racy) {
        return;
    }
    assert!(matches!(racy, Verdict::Violated(_)), "{racy:?}");
    let fixed = verdict(kernel(&c, "shuffle"), Property::Race);
    assert!(matches!(fixed, Verdict::Verified), "{fixed:?}");
}

#[test]
fn a_union_inside_a_record_shares_its_word_between_float_and_int() {
    let c = clang("tagged.cu");
    let k = kernel(&c, "tagged");
    let words: Vec<u32> = (0..N)
        .flat_map(|i| [(i as f32 * 0.75).to_bits(), 0])
        .collect();
    let got = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_u32(&words)),
            Arg::Buffer(Buffer::from_i32(&[0; N])),
        ],
    );
    let want: Vec<i32> = (0..N).map(|i| (i as f32 * 1.5).to_bits() as i32).collect();
    assert_eq!(got[1].to_i32(), want);
}

#[test]
fn a_union_variable_is_a_local_array_of_its_units() {
    let c = clang("locals.cu");
    let k = kernel(&c, "locals");
    let inp = input();
    let vecs: Vec<f32> = (0..4 * N).map(|j| (j * j % 37) as f32 * 0.5).collect();
    let got = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_u32(&inp)),
            Arg::Buffer(Buffer::from_f32(&vecs)),
            Arg::Buffer(Buffer::from_f32(&[0.0; N])),
        ],
    );
    let want: Vec<u32> = (0..N)
        .map(|i| {
            let mut b = inp[i].to_le_bytes();
            b[i % 4] ^= 0xff;
            u32::from_le_bytes(b)
        })
        .collect();
    assert_eq!(got[0].to_u32(), want);
    let picks: Vec<f32> = (0..N)
        .map(|i| vecs[4 * i + (i + 1) % 4] - vecs[4 * i + i % 4])
        .collect();
    assert_eq!(got[2].to_f32(), picks);
}

#[test]
fn a_union_as_one_value_per_member_is_rejected_with_its_span() {
    let c = clang("values.cu");
    let (msg, at) = rejection(&c, SOURCE, "by_value");
    assert!(
        msg.contains("the union `UByte4` as one value per member"),
        "{msg}"
    );
    assert_eq!(at, "UByte4 w");
    let (msg, _) = rejection(&c, SOURCE, "braced");
    assert!(msg.contains("union"), "{msg}");
    // Their neighbours are read.
    assert!(c.module.kernel("shuffle").is_some());
    assert!(c.module.kernel("locals").is_some());
}

const LOCAL_RECORDS: &str = r#"
//--blockDim=32 --gridDim=2
struct Pair { int a; int b; };
__global__ void local_records(int *out) {
    struct { int lo; int hi; } span;
    span.lo = threadIdx.x;
    span.hi = span.lo * 3;
    // Its own `Pair`, not the file's: the name is taken, so the kernel is rejected.
    struct Pair { float x; } q;
    q.x = 1.0f;
    out[blockIdx.x * 32 + threadIdx.x] = span.hi - span.lo;
}
__global__ void local_union_bits(const float *in, unsigned *out) {
    union Bits { float f; unsigned u; } b;
    b.f = in[blockIdx.x * 32 + threadIdx.x];
    out[blockIdx.x * 32 + threadIdx.x] = b.u >> 23;
}
"#;

#[test]
fn records_a_function_body_defines_are_read_unless_their_name_is_taken() {
    let c = common::clang_in("unions", "local_records.cu", LOCAL_RECORDS);
    let (msg, _) = rejection(&c, LOCAL_RECORDS, "local_records");
    assert!(msg.contains("Pair"), "{msg}");
    let inp: Vec<f32> = (0..N).map(|i| (i as f32 - 20.0) * 1.75).collect();
    let got = common::run_buffers(
        kernel(&c, "local_union_bits"),
        vec![
            Arg::Buffer(Buffer::from_f32(&inp)),
            Arg::Buffer(Buffer::from_u32(&[0; N])),
        ],
    );
    let want: Vec<u32> = inp.iter().map(|f| f.to_bits() >> 23).collect();
    assert_eq!(got[1].to_u32(), want);
}
