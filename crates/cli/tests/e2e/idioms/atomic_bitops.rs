//! `atomicAnd/Or/Xor/Inc/Dec` through `warpsafe verify`: a visited bitmap set with `atomicOr`
//! (and flags cleared with `atomicAnd`, toggled with `atomicXor`) is race-free, its twin with a
//! plain `|=` races; a ring-buffer index taken with `atomicInc` (and a stack top with
//! `atomicDec`) is race-free and in bounds when the slot is checked, and a plain write to the
//! slot is not shown race-free (two threads get one slot once the index wraps).
//!
//! Each kernel is read by both front ends: `subset` (the C-subset parser) and `auto` (clang when
//! it is installed).

use super::common::*;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpsafe-bitops-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Writes `text` as `name.cu` and checks its `// verify:` lines with each front end.
fn check(name: &str, text: &str) {
    let f = dir(name).join(format!("{name}.cu"));
    std::fs::write(&f, text).expect("kernel written");
    for frontend in ["subset", "auto"] {
        if let Err(e) = corpus::check(&f, &["--frontend", frontend]) {
            panic!("{name} ({frontend}): {e}");
        }
    }
}

const BITMAP: &str = r#"//--blockDim=128 --gridDim=4
//@ len(edges) = 512
//@ len(visited) = 16
//@ len(flags) = 4
// verify: race=verified bounds=verified
__global__ void mark(const unsigned *edges, unsigned *visited, int *flags) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = edges[i] % 512;
    atomicOr(&visited[v / 32], 1u << (v % 32));
    atomicAnd(&flags[i % 4], ~(1 << (threadIdx.x % 32)));
    atomicXor(&flags[(i + 1) % 4], 1 << (v % 31));
}
"#;

#[test]
fn bitmap_set_with_atomic_or_is_race_free() {
    check("bitmap", BITMAP);
    // A plain read-modify-write of the word: two threads whose vertices share a word race.
    let bug = twin(
        BITMAP,
        "atomicOr(&visited[v / 32], 1u << (v % 32));",
        "visited[v / 32] |= 1u << (v % 32);",
    );
    check(
        "bitmap_plain",
        &bug.replace("race=verified", "race=violated"),
    );
}

const RING: &str = r#"//--blockDim=64 --gridDim=2
//@ len(head) = 1
//@ len(ring) = 16
//@ len(in) = 128
// verify: race=verified bounds=verified
__global__ void push(unsigned *head, unsigned *ring, const unsigned *in) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned slot = atomicInc(&head[0], 15u);
    if (slot < 16)
        atomicExch(&ring[slot], in[i]);
}
"#;

const STACK: &str = r#"//--blockDim=64 --gridDim=2
//@ len(top) = 1
//@ len(stack) = 16
//@ len(out) = 128
// verify: race=verified bounds=verified
__global__ void pop(unsigned *top, unsigned *stack, unsigned *out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned t = atomicDec(&top[0], 15u);
    out[i] = t < 16 ? atomicExch(&stack[t], 0u) : 0u;
}
"#;

#[test]
fn ring_buffer_index_with_atomic_inc_is_verified() {
    check("ring", RING);
    // The slot an atomicInc returns repeats once the index wraps (128 threads, 16 slots):
    // a plain store there is not race-free.
    let plain = twin(
        RING,
        "atomicExch(&ring[slot], in[i]);",
        "ring[slot] = in[i];",
    );
    check(
        "ring_plain",
        &plain.replace("race=verified", "race=!verified"),
    );
    // The old value is whatever the index held first (the launch does not set it), so the
    // slot must be checked: without the check the store is not shown in bounds.
    let unchecked = twin(RING, "if (slot < 16)\n", "");
    check(
        "ring_unchecked",
        &unchecked.replace("bounds=verified", "bounds=!verified"),
    );
    check("stack", STACK);
}
