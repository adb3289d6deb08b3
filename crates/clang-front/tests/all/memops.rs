//! `memcpy` and `memset` in device code, as kernels write them: copies of structs with
//! mixed field types, of float runs, `memset` of shared and local arrays and of a local
//! struct; run on the interpreter against the same copy in Rust. A copy one element too
//! long is an out-of-bounds access `verify` finds; what cannot be read element by element
//! is rejected at the call.

use crate::common;

use warpsafe_clang_front::Compiled;
use warpsafe_exec::{Arg, Buffer};
use warpsafe_verify::{Property, Verdict};

fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("memops", name, source)
}

/// 2 blocks of 32 threads.
const THREADS: usize = 64;

#[test]
fn memcpy_of_records_with_short_and_char_fields_copies_every_field() {
    // `struct { short id; char tag; }` is 4 bytes with one byte of padding: the record
    // memory is bytes, each field written back at its offset.
    let src = r#"
struct Item { short id; char tag; };
__global__ void copy_items(const Item *from, Item *to) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t % 2 == 0)
    __builtin_memcpy(&to[t], &from[t], 2 * sizeof(Item));
}
"#;
    let got = clang("copy_items.cu", src);
    let k = common::kernel(&got, "copy_items");
    let from: Vec<u8> = (0..THREADS * 4).map(|i| (i * 7 + 3) as u8).collect();
    let bufs = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_u8(&from)),
            Arg::Buffer(Buffer::from_u8(&vec![0; THREADS * 4])),
        ],
    );
    let to = bufs[1].to_u8();
    for (i, (&a, &b)) in from.iter().zip(&to).enumerate() {
        if i % 4 == 3 {
            continue; // padding: not part of any field
        }
        assert_eq!(a, b, "byte {i}");
    }
}

#[test]
fn a_byte_count_in_a_local_that_is_only_read_may_end_at_a_field_boundary() {
    // `struct { short x; short y; char z; }` is 6 bytes; 4 bytes are the fields `x` and `y`,
    // and `len` is never written after its initialiser.
    let src = r#"
struct Rec { short x; short y; char z; };
__global__ void head(const Rec *from, Rec *to) {
  size_t len = 4;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  memcpy(&to[t], &from[t], len);
}
__global__ void moved(const Rec *from, Rec *to) {
  size_t len = 4;
  len += 2;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  memcpy(&to[t], &from[t], len);
}
"#;
    let got = clang("head.cu", src);
    let (msg, at) = common::rejection(&got, src, "moved");
    assert!(msg.contains("not a compile-time constant"), "{msg}");
    assert_eq!(at, "len", "{msg}");
    let k = common::kernel(&got, "head");
    let from: Vec<u8> = (0..THREADS * 6).map(|i| (i * 5 + 1) as u8).collect();
    let bufs = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_u8(&from)),
            Arg::Buffer(Buffer::from_u8(&vec![0xee; THREADS * 6])),
        ],
    );
    let to = bufs[1].to_u8();
    for (i, &b) in to.iter().enumerate() {
        let want = if i % 6 < 4 { from[i] } else { 0xee };
        assert_eq!(b, want, "byte {i}");
    }
}

#[test]
fn memcpy_of_a_float_run_and_memset_of_ints_write_exact_values() {
    let src = r#"
__global__ void stage(const float *in, float *out, int *flags, unsigned short *marks) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  memcpy(out + 4 * t, in + 4 * t + 1, 3 * sizeof(float));
  memset(flags + 2 * t, 0xff, 2 * sizeof(int));
  memset(&marks[t], 1, sizeof(unsigned short));
}
"#;
    let got = clang("stage.cu", src);
    let k = common::kernel(&got, "stage");
    let input: Vec<f32> = (0..THREADS * 4 + 1).map(|i| i as f32 * 0.5).collect();
    let bufs = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_f32(&input)),
            Arg::Buffer(Buffer::from_f32(&vec![-7.0; THREADS * 4])),
            Arg::Buffer(Buffer::from_i32(&vec![5; THREADS * 2])),
            Arg::Buffer(Buffer::from_u16(&[0; THREADS])),
        ],
    );
    let out = bufs[1].to_f32();
    for t in 0..THREADS {
        assert_eq!(
            &out[4 * t..4 * t + 3],
            &input[4 * t + 1..4 * t + 4],
            "t {t}"
        );
        assert_eq!(
            out[4 * t + 3],
            -7.0,
            "t {t}: the fourth float is not copied"
        );
    }
    assert_eq!(bufs[2].to_i32(), vec![-1; THREADS * 2]);
    assert_eq!(bufs[3].to_u16(), vec![0x0101; THREADS]);
}

#[test]
fn memset_of_a_shared_array_and_of_a_local_struct_zero_every_element() {
    let src = r#"
struct Acc { float sum; int count; };
__global__ void tally(const float *x, float *sums, int *counts) {
  __shared__ float partial[32];
  if (threadIdx.x == 0)
    memset(partial, 0, sizeof(partial));
  __syncthreads();
  Acc a;
  memset(&a, 0, sizeof(a));
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (x[t] > 0.0f) { a.sum += x[t]; a.count++; }
  partial[threadIdx.x] += a.sum;
  __syncthreads();
  sums[t] = partial[threadIdx.x];
  counts[t] = a.count;
}
"#;
    let got = clang("tally.cu", src);
    let k = common::kernel(&got, "tally");
    let x: Vec<f32> = (0..THREADS).map(|i| (i as f32) - 20.0).collect();
    let bufs = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_f32(&x)),
            Arg::Buffer(Buffer::from_f32(&[9.0; THREADS])),
            Arg::Buffer(Buffer::from_i32(&[9; THREADS])),
        ],
    );
    let (sums, counts) = (bufs[1].to_f32(), bufs[2].to_i32());
    for t in 0..THREADS {
        let want = if x[t] > 0.0 { x[t] } else { 0.0 };
        assert_eq!(sums[t], want, "t {t}");
        assert_eq!(counts[t], i32::from(x[t] > 0.0), "t {t}");
    }
}

#[test]
fn a_copy_one_element_past_a_shared_tile_is_out_of_bounds_for_verify() {
    let src = r#"
//--blockDim=32 --gridDim=1
__global__ void load(const float *in, float *out) {
  __shared__ float tile[32 * 2];
  memcpy(&tile[threadIdx.x * 2], &in[threadIdx.x * 2], 3 * sizeof(float));
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
__global__ void load_ok(const float *in, float *out) {
  __shared__ float tile[32 * 2];
  memcpy(&tile[threadIdx.x * 2], &in[threadIdx.x * 2], 2 * sizeof(float));
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
"#;
    let got = clang("load.cu", src);
    let bad = common::verdict(common::kernel(&got, "load"), Property::Bounds);
    if common::z3_missing(&bad) {
        return;
    }
    assert!(matches!(bad, Verdict::Violated(_)), "{bad:?}");
    let ok = common::verdict(common::kernel(&got, "load_ok"), Property::Bounds);
    assert!(matches!(ok, Verdict::Verified), "{ok:?}");
}

#[test]
fn copies_that_are_not_element_wise_are_rejected_at_the_call() {
    let src = r#"
__global__ void varlen(float *a, const float *b, int n) {
  memcpy(a, b, n * sizeof(float));
}
__global__ void partial(int *a, const int *b) {
  memcpy(a + threadIdx.x * 2, b + threadIdx.x * 2, 5);
}
struct Pair { short x; short y; };
__global__ void cut_field(Pair *a, const Pair *b) {
  memcpy(a + threadIdx.x, b + threadIdx.x, 5);
}
__global__ void mixed(float *a, const int *b) {
  memcpy(a + threadIdx.x, b + threadIdx.x, sizeof(float));
}
__global__ void float_pattern(float *a) {
  memset(a + threadIdx.x, 1, sizeof(float));
}
__global__ void value_used(float *a, const float *b) {
  if (memcpy(a + threadIdx.x, b + threadIdx.x, sizeof(float)))
    a[0] = 1.0f;
}
__global__ void fine(float *a, const float *b) {
  memcpy(a + threadIdx.x, b + threadIdx.x, sizeof(float));
}
"#;
    let got = clang("rejected.cu", src);
    let cases = [
        ("varlen", "not a compile-time constant", "n * sizeof(float)"),
        ("partial", "not a whole number of elements", "memcpy("),
        ("cut_field", "cut inside a field", "memcpy("),
        ("mixed", "from `const int *` to `float *`", "memcpy("),
        ("float_pattern", "only byte 0", "memset("),
        ("value_used", "whose value is used", "memcpy("),
    ];
    for (kernel, says, at_start) in cases {
        let (msg, at) = common::rejection(&got, src, kernel);
        assert!(msg.contains(says), "{kernel}: {msg}");
        assert!(at.starts_with(at_start), "{kernel}: {at:?}");
    }
    common::kernel(&got, "fine");
}

#[test]
fn a_copy_with_a_null_pointer_is_a_bounds_finding_where_it_is_reached() {
    let src = r#"
//--blockDim=32 --gridDim=1
__global__ void null_dst(const int *b) {
  if (threadIdx.x == 3)
    __builtin_memcpy(0, b, sizeof(int));
}
__global__ void null_src(int *a) {
  memcpy(a, nullptr, sizeof(int));
}
__global__ void never(int *a) {
  if (threadIdx.x > 40)
    memcpy(a, nullptr, sizeof(int));
}
"#;
    let got = clang("null.cu", src);
    for name in ["null_dst", "null_src"] {
        let bad = common::verdict(common::kernel(&got, name), Property::Bounds);
        if common::z3_missing(&bad) {
            return;
        }
        match bad {
            Verdict::Violated(cx) => {
                assert!(
                    cx.message.contains("null pointer dereference"),
                    "{name}: {cx:?}"
                )
            }
            v => panic!("{name}: {v:?}"),
        }
    }
    let ok = common::verdict(common::kernel(&got, "never"), Property::Bounds);
    assert!(matches!(ok, Verdict::Verified), "{ok:?}");
}
