//! Records the way real kernels use them, read through clang: arrays of structs with `short`
//! and `char` fields (byte-addressed memory), `__align__`ed structs (padding), whole-struct
//! copies, derived-to-base access, structs passed by value holding structs with pointers,
//! struct copies passed to a `__device__` function declared without a body. Each correct kernel has a buggy twin; verdicts are stated in the
//! corpus format (`corpus/mod.rs`) and checked by `warpsafe verify --frontend clang`.

use super::common::*;

/// (file name, source) of every kernel.
const KERNELS: &[(&str, &str)] = &[
    // Two threads write different bytes of one struct: no race, since races are on bytes.
    (
        "byte_halves.cu",
        r#"//--blockDim=64 --gridDim=1
// verify: race=verified
struct Flags { char lo; char hi; short count; };
__global__ void mark(Flags *f) {
  unsigned t = threadIdx.x;
  if (t % 2 == 0) f[t / 2].lo = 1; else f[t / 2].hi = 2;
}
"#,
    ),
    (
        "byte_halves_bug_same_byte.cu",
        r#"//--blockDim=64 --gridDim=1
// verify: race=violated
struct Flags { char lo; char hi; short count; };
__global__ void mark(Flags *f) {
  unsigned t = threadIdx.x;
  if (t % 2 == 0) f[t / 2].lo = 1; else f[t / 2].lo = 2;
}
"#,
    ),
    // A `short` and a `char` beside each other: one thread writes the short, its neighbour
    // the char right after it.
    (
        "short_char_neighbours.cu",
        r#"//--blockDim=64 --gridDim=1
// verify: race=verified
typedef struct { short id; char tag; } item_t;
__global__ void fill(item_t *items) {
  unsigned t = threadIdx.x;
  if (t % 2 == 0) items[t / 2].id = (short)t; else items[t / 2].tag = 'x';
}
"#,
    ),
    (
        "short_char_neighbours_bug_overlap.cu",
        r#"//--blockDim=64 --gridDim=1
// verify: race=violated
typedef struct { short id; char tag; } item_t;
__global__ void fill(item_t *items) {
  unsigned t = threadIdx.x;
  if (t % 2 == 0) items[t / 2].id = (short)t; else items[t / 2].id = 7;
}
"#,
    ),
    // `__align__(32)` pads each record to 32 bytes.
    (
        "aligned_pairs.cu",
        r#"//--blockDim=32 --gridDim=4
// verify: race=verified
typedef struct __align__(32) { unsigned tid, bid; } slot_t;
__global__ void stamp(slot_t *s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i].tid = threadIdx.x;
  s[i].bid = blockIdx.x;
}
"#,
    ),
    (
        "aligned_pairs_bug_block_index.cu",
        r#"//--blockDim=32 --gridDim=4
// verify: race=violated
typedef struct __align__(32) { unsigned tid, bid; } slot_t;
__global__ void stamp(slot_t *s) {
  s[threadIdx.x].tid = threadIdx.x;
  s[threadIdx.x].bid = blockIdx.x;
}
"#,
    ),
    // A whole-struct copy from one array of structs to another.
    (
        "struct_copy.cu",
        r#"//--blockDim=64 --gridDim=2
// verify: race=verified
struct Rec { short a; char b; char c; float w; };
__global__ void copy(const Rec *in, Rec *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
"#,
    ),
    (
        "struct_copy_bug_one_slot.cu",
        r#"//--blockDim=64 --gridDim=2
// verify: race=violated
struct Rec { short a; char b; char c; float w; };
__global__ void copy(const Rec *in, Rec *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[blockIdx.x] = in[i];
}
"#,
    ),
    // A derived struct's base fields, reached through the base.
    (
        "derived_base.cu",
        r#"//--blockDim=64 --gridDim=1
// verify: race=verified
struct Base { int key; };
struct Node : Base { int value; };
__global__ void set(Node *nodes) {
  unsigned i = threadIdx.x;
  Base &b = nodes[i];
  b.key = (int)i;
  nodes[i].value = 2 * (int)i;
}
"#,
    ),
    (
        "derived_base_bug_shared_key.cu",
        r#"//--blockDim=64 --gridDim=1
// verify: race=violated
struct Base { int key; };
struct Node : Base { int value; };
__global__ void set(Node *nodes) {
  unsigned i = threadIdx.x;
  Base &b = nodes[0];
  b.key = (int)i;
  nodes[i].value = 2 * (int)i;
}
"#,
    ),
    // A struct passed by value whose field is a struct holding the output pointer.
    (
        "nested_by_value.cu",
        r#"//--blockDim=64 --gridDim=2
// verify: race=verified
struct Args { struct { float *out; } dst; int scale; };
__global__ void scale(Args a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  a.dst.out[i] = (float)(a.scale * (int)i);
}
"#,
    ),
    (
        "nested_by_value_bug_thread_only.cu",
        r#"//--blockDim=64 --gridDim=2
// verify: race=violated
struct Args { struct { float *out; } dst; int scale; };
__global__ void scale(Args a) {
  a.dst.out[threadIdx.x] = (float)a.scale;
}
"#,
    ),
];

#[test]
fn record_idioms_get_their_expected_verdicts() {
    check_all("records", KERNELS);
}
