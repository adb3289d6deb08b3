//! Kernels written the way GPUVerify's test suite and annotated benchmarks write them (our
//! own kernels in those idioms): `-D` macros on the flag line, `synchronize(g)`, launches
//! beyond CUDA's limits, loop invariants over access sets, a helper's precondition, benign
//! write-write races, texture references the host binds, pre-CUDA-9 warp functions. Each
//! beside a buggy twin where the idiom has one.

use super::common::*;

const MACRO: &str = r#"//pass
//--blockDim=64 --gridDim=4 -DWIDTH=256 --no-inline
// verify: race=verified bounds=verified exit=0
//@ len(out) = 1024
__global__ void rows(int *out) {
    for (int i = threadIdx.x; i < WIDTH; i += blockDim.x)
        out[blockIdx.x * WIDTH + i] = i;
}
"#;

#[test]
fn macros_on_the_flag_line_reach_the_preprocessor() {
    check("macro", MACRO);
    // Rows of 128 in buffers of 4 * 256: blocks overlap nowhere, but the last rows of a
    // block spill into the next one's when the stride is the wrong macro.
    let bug = twin(
        MACRO,
        "out[blockIdx.x * WIDTH + i]",
        "out[blockIdx.x * 128 + i]",
    );
    check(
        "macro_bug",
        &bug.replace("race=verified", "race=violated")
            .replace("exit=0", "exit=1"),
    );
}

const GROUPS: &str = r#"//pass
//--blockDim=32 --gridDim=1
// verify: race=verified exit=0
//@ len(a) = 33
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void shift(int *a) {
    thread_block b = this_thread_block();
    int v = a[threadIdx.x + 1];
    synchronize(b);
    a[threadIdx.x] = v;
}
"#;

#[test]
fn synchronize_of_a_group_is_its_barrier() {
    check("groups", GROUPS);
    let bug = twin(GROUPS, "    synchronize(b);\n", "");
    check(
        "groups_bug",
        &bug.replace("race=verified", "race=violated")
            .replace("exit=0", "exit=1"),
    );
}

#[test]
fn a_launch_beyond_cudas_limits_is_verified_as_given_with_a_note() {
    let src = "//pass\n//--blockDim=[64,64] --gridDim=2\n\
               __global__ void k(int *a) { a[(blockIdx.x * 64 + threadIdx.y) * 64 + threadIdx.x] = 1; }\n";
    let out = verify("limits", src, &["--property", "race", "--format", "json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("4096 threads") && stderr.contains("verified as given"),
        "{stderr}"
    );
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(json.contains("\"verdict\": \"verified\""), "{json}");
    assert_eq!(out.status.code(), Some(0));
}

const HINTS: &str = r#"//pass
//--blockDim=64 --gridDim=1
//@ len(a) = 64
__global__ void fill(int *a) {
    for (int i = 0;
         __invariant(__write_implies(a, __write_offset_bytes(a) / sizeof(int) == threadIdx.x)),
         i < 4; i++) {
        a[threadIdx.x] = i;
    }
    __assert(__implies(threadIdx.x < 64, true));
}
"#;

#[test]
fn an_untranslatable_loop_invariant_is_a_hint_left_out_with_a_note() {
    let out = verify("hints", HINTS, &["--property", "race,assert"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("not checked: `__invariant` uses `__write_implies`"),
        "{text}"
    );
    assert!(text.contains("assert      verified"), "{text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
    // An assertion over the other thread's value is a claim: unchecked, assert is unknown.
    let claim = twin(
        HINTS,
        "__assert(__implies(threadIdx.x < 64, true));",
        "__assert(__other_int(threadIdx.x) != threadIdx.x);",
    );
    let out = verify("claims", &claim, &["--property", "race,assert"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("assert      unknown"), "{text}");
}

const NO_ACCESS: &str = r#"//pass
//--blockDim=64 --gridDim=1
//@ len(p) = 64
__global__ void fill(volatile int *p, int *q) {
    __assert(__no_read(p));
    __requires(__no_write(p) && __no_read(q));
    p[threadIdx.x] = threadIdx.x;
    __assert(__all(threadIdx.x < 64));
}
"#;

#[test]
fn no_access_yet_holds_before_any_statement_names_the_buffer() {
    // GPUVerify's misc2: `__no_read(p)` as the kernel's first statement.
    let out = verify("no_read", NO_ACCESS, &["--property", "race,assert"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("assert      verified"), "{text}");
    assert!(!text.contains("not checked"), "{text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
    // After a statement that reads `p`, the claim is not one we decide: assert is unknown.
    let late = twin(
        NO_ACCESS,
        "    __assert(__no_read(p));\n",
        "    int v = p[threadIdx.x];\n    __assert(__no_read(p) || v == 0);\n",
    );
    let out = verify("no_read_late", &late, &["--property", "race,assert"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("unknown: `__assert` uses `__no_read`"),
        "{text}"
    );
    assert!(text.contains("assert      unknown"), "{text}");
    // A helper called inside the kernel's first annotation reads `p` itself: its own
    // `__no_read(p)` is not decided (it is false there).
    let helper = twin(
        &twin(
            NO_ACCESS,
            "__assert(__no_read(p));",
            "__assert(first(p) * 0 == 0);",
        ),
        "__global__ void fill",
        "__device__ int first(volatile int *p) {\n    int v = p[threadIdx.x];\n    \
         __assert(__no_read(p));\n    return v;\n}\n__global__ void fill",
    );
    let out = verify("no_read_helper", &helper, &["--property", "assert"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("assert      unknown"), "{text}");
    // `__all(e)` as the whole assertion is `e` in every thread (GPUVerify's test_all).
    let half = twin(
        NO_ACCESS,
        "__all(threadIdx.x < 64)",
        "__all(threadIdx.x < 32)",
    );
    let out = verify("all_half", &half, &["--property", "assert"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("assert      VIOLATED"), "{text}");
    assert_eq!(out.status.code(), Some(1), "{text}");
}

const POST: &str = r#"//pass
//--blockDim=64 --gridDim=1
//@ len(p) = 65
__device__ int *at(int *p) {
    __ensures(__implies(__enabled(), __return_val_ptr() == p));
    return p;
}
__device__ int next(int x) {
    __ensures(__return_val_int() == x + 1);
    return x + 1;
}
__global__ void k(int *p) {
    at(p)[threadIdx.x] = next(threadIdx.x);
}
"#;

#[test]
fn a_helpers_postcondition_is_checked_where_it_returns() {
    // GPUVerify's pointertests test5/test6: `__return_val_ptr()` in a helper's `__ensures`.
    let out = verify("post", POST, &["--property", "race,assert"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("assert      verified"), "{text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
    for (from, to) in [
        ("return p;", "return p + 1;"),
        ("return x + 1;", "return x + 2;"),
    ] {
        let bug = twin(POST, from, to);
        let out = verify("post_bug", &bug, &["--property", "assert"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("assert      VIOLATED"), "{to}: {text}");
    }
    // A parameter the helper assigns: its value at entry is not kept, so no verdict.
    let assigned = twin(POST, "    return x + 1;", "    x = x + 1;\n    return x;");
    let out = verify("post_assigned", &assigned, &["--property", "assert"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("assert      unknown"), "{text}");
}

const HELPER: &str = r#"//pass
//--blockDim=64 --gridDim=1
// verify: assert=verified race=verified exit=0
//@ len(v) = 64
__device__ void twice(float *v, unsigned index) {
    __requires(index == threadIdx.x);
    v[index] = v[index] * 2.0f;
}
__global__ void k(float *v) { twice(v, threadIdx.x); }
"#;

#[test]
fn a_helpers_precondition_is_checked_at_the_call() {
    check("helper", HELPER);
    // The caller breaks it: before, the precondition was assumed and hid the race.
    let bug = twin(
        HELPER,
        "twice(v, threadIdx.x);",
        "twice(v, threadIdx.x / 2);",
    );
    check(
        "helper_bug",
        &bug.replace(
            "assert=verified race=verified exit=0",
            "assert=violated race=violated exit=1",
        ),
    );
}

const FLAG: &str = r#"//pass
//--blockDim=64 --gridDim=4
//@ len(x) = 256
//@ len(found) = 1
__global__ void any_negative(const int *x, bool *found) {
    if (x[blockIdx.x * blockDim.x + threadIdx.x] < 0)
        *found = true;
}
"#;

#[test]
fn writes_of_one_value_are_a_benign_race_unless_strict() {
    let out = verify("flag", FLAG, &["--property", "race"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("race        verified"), "{text}");
    assert!(text.contains("tolerated as a benign race"), "{text}");
    let out = verify(
        "flag_strict",
        FLAG,
        &["--property", "race", "--strict-races"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("race        verified") && text.contains("data race on `found`"),
        "{text}"
    );
    // Different values: a race however the flag is read.
    let bug = twin(FLAG, "*found = true;", "*found = threadIdx.x & 1;");
    let out = verify("flag_bug", &bug, &["--property", "race"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("data race on `found`"), "{text}");
}

/// A block sum the way the CUDA samples' `sum` kernels end it: every thread stores the
/// total it read after the last barrier.
const SAME_VALUE: &str = r#"//pass
//--gridDim=1 --blockDim=32
typedef unsigned int clock_t;
__global__ void sum(clock_t *d_clocks, int N) {
    __shared__ clock_t s_clocks[32];
    clock_t my_sum = 0;
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        my_sum += d_clocks[i];
    s_clocks[threadIdx.x] = my_sum;
    __syncthreads();
    for (int i = 16; i > 0; i /= 2) {
        if (threadIdx.x < i)
            s_clocks[threadIdx.x] += s_clocks[threadIdx.x + i];
        __syncthreads();
    }
    d_clocks[0] = s_clocks[0];
}
"#;

fn race_text(name: &str, text: &str, extra: &[&str]) -> String {
    let mut args = vec!["--property", "race"];
    args.extend_from_slice(extra);
    let out = verify(name, text, &args);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn writes_of_one_computed_value_are_a_benign_race_unless_strict() {
    // Every thread reads `s_clocks[0]` in the same barrier interval, so all store one value.
    let text = race_text("same_value", SAME_VALUE, &[]);
    assert!(text.contains("race        verified"), "{text}");
    assert!(text.contains("two writes of one value"), "{text}");
    let text = race_text("same_value_strict", SAME_VALUE, &["--strict-races"]);
    assert!(text.contains("data race on `d_clocks`"), "{text}");
    // A value computed from the thread index that is the same for every thread of the block.
    let shifted = twin(SAME_VALUE, "= s_clocks[0];", "= threadIdx.x / 32u;");
    let text = race_text("same_value_index", &shifted, &[]);
    assert!(text.contains("race        verified"), "{text}");
    // Buggy twins: each thread's own partial sum; a value only some threads define; a read
    // the write of thread 0 races with (its premise, reads that agree, does not hold).
    let own = twin(SAME_VALUE, "= s_clocks[0];", "= s_clocks[threadIdx.x];");
    let text = race_text("same_value_own", &own, &[]);
    assert!(
        text.contains("data race on `d_clocks`: write and write"),
        "{text}"
    );
    let some = twin(
        SAME_VALUE,
        "d_clocks[0] = s_clocks[0];",
        "clock_t v; if (threadIdx.x == 0) v = 0; d_clocks[0] = v;",
    );
    let text = race_text("same_value_undefined", &some, &[]);
    assert!(
        text.contains("data race on `d_clocks`: write and write"),
        "{text}"
    );
    let reset = twin(
        SAME_VALUE,
        "d_clocks[0] = s_clocks[0];",
        "clock_t v = s_clocks[0]; if (threadIdx.x == 0) s_clocks[0] = 0; d_clocks[0] = v;",
    );
    let text = race_text("same_value_reset", &reset, &[]);
    assert!(text.contains("data race on `s_clocks`"), "{text}");
}

/// One pass of a blocked transitive closure (Floyd–Warshall over a tile): a thread writes its
/// own cell at step `k` only while that cell is still 0 and the row's cell `k` is not, so
/// the owner of the row's cell `k` (which would read its own cell twice, once as each) never
/// writes it at step `k`, when the others read it.
const CLOSURE: &str = r#"//pass
//--blockDim=[16,16] --gridDim=[1,1]
//@ len(graph) = 256 * 256
#define B 16
__global__ void closure_tile(unsigned *graph, int pass) {
    __requires(pass >= 0 && pass < 16);
    __shared__ unsigned tile[B][B];
    int y = pass * B + threadIdx.y, x = pass * B + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = graph[y * 256 + x];
    __syncthreads();
    for (int k = 0; k < B; ++k) {
        if (tile[threadIdx.y][threadIdx.x] == 0) {
            if (tile[threadIdx.y][k] != 0 && tile[k][threadIdx.x] != 0)
                tile[threadIdx.y][threadIdx.x] = pass * B + k + 2;
        }
        __syncthreads();
    }
    graph[y * 256 + x] = tile[threadIdx.y][threadIdx.x];
}
"#;

#[test]
fn a_threads_reads_of_one_cell_in_one_interval_agree() {
    let text = race_text("closure", CLOSURE, &[]);
    assert!(text.contains("race        verified"), "{text}");
    // Without the check of its own cell, the owner of cell k rewrites it while its row reads.
    let racy = twin(
        CLOSURE,
        "if (tile[threadIdx.y][threadIdx.x] == 0) {",
        "if (true) {",
    );
    let text = race_text("closure_racy", &racy, &[]);
    assert!(text.contains("data race on `tile`"), "{text}");
}

/// Thread 0 picks the nearest hit into a `__shared__` index; after the barrier the thread it
/// names, and only that one, writes the pixel (a ray tracer's per-pixel block).
const WINNER: &str = r#"//pass
//--blockDim=[32,1] --gridDim=[64,64]
//@ len(result) = 64 * 64
//@ len(hits) = 32
__global__ void shade(unsigned *result, const float *hits) {
    __shared__ float t[32];
    __shared__ int nearest;
    unsigned tid = threadIdx.x;
    t[tid] = hits[tid] + blockIdx.x;
    __syncthreads();
    if (tid == 0) {
        float best = t[0];
        nearest = 0;
        for (int i = 1; i < 32; i++)
            if (t[i] > 0.0f && t[i] < best) { best = t[i]; nearest = i; }
    }
    __syncthreads();
    if (tid == nearest)
        result[blockIdx.y * 64 + blockIdx.x] = tid;
}
"#;

#[test]
fn a_value_broadcast_through_shared_memory_is_one_value() {
    let text = race_text("winner", WINNER, &[]);
    assert!(text.contains("race        verified"), "{text}");
    // Every thread from the winner on writes the pixel.
    let racy = twin(WINNER, "if (tid == nearest)", "if (tid >= nearest)");
    let text = race_text("winner_racy", &racy, &[]);
    assert!(text.contains("data race on `result`"), "{text}");
}

/// A result computed through a function pointer, stored, and checked by reading it back.
const READ_BACK: &str = r#"//pass
//--blockDim=1024 --gridDim=1
//@ len(v) = 1024
typedef int (*op_t)(int);
__device__ int twice(int i) { return 2 * i; }
__device__ int half(int i) { return i / 2; }
__global__ void apply(int *v) {
    unsigned tid = threadIdx.x;
    op_t f = (tid != 0) ? twice : half;
    v[tid] = f(tid);
    __assert(__implies(tid != 0, v[tid] == 2 * tid));
}
"#;

fn assert_text(name: &str, text: &str) -> String {
    let out = verify(name, text, &["--property", "race", "--property", "assert"]);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_thread_reads_back_what_it_wrote_in_the_interval() {
    let text = assert_text("read_back", READ_BACK);
    assert!(text.contains("race        verified"), "{text}");
    assert!(text.contains("assert      verified"), "{text}");
    // The wrong expectation fails, and the interpreter shows it.
    let wrong = twin(READ_BACK, "v[tid] == 2 * tid)", "v[tid] == 2 * tid + 1)");
    let text = assert_text("read_back_wrong", &wrong);
    assert!(text.contains("assert      VIOLATED"), "{text}");
    // A neighbour overwrites the cell in the same interval: a race, and the assertion is
    // not verified on a value the race may change.
    let clobbered = twin(
        READ_BACK,
        "    v[tid] = f(tid);\n",
        "    v[tid] = f(tid);\n    v[(tid + 1) % 1024] = 0;\n",
    );
    let text = assert_text("read_back_clobbered", &clobbered);
    assert!(text.contains("data race on `v`"), "{text}");
    assert!(!text.contains("assert      verified"), "{text}");
}

const TEXTURE: &str = r#"//pass
//--gridDim=[4,8] --blockDim=[16,8]
// verify: race=verified bounds=verified exit=0
//@ len(out) = 64 * 64
texture<float, 2, cudaReadModeElementType> img;
__global__ void halve(float *out, int width, int height) {
    __requires(width == 64);
    __requires(height == 64);
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    out[y * width + x] = 0.5f * tex2D(img, x + 0.5f, y + 0.5f);
}
"#;

#[test]
fn a_texture_reference_the_host_binds_is_read_at_any_extents() {
    check("texture", TEXTURE);
    let bug = twin(TEXTURE, "out[y * width + x]", "out[x]");
    check(
        "texture_bug",
        &bug.replace("race=verified", "race=violated")
            .replace("exit=0", "exit=1"),
    );
}

const SHUFFLE: &str = r#"//pass
//--blockDim=32 --gridDim=1
// verify: race=verified divergence=verified exit=0
// verify-args: --property race,divergence
//@ len(a) = 32
__global__ void sum(int *a) {
    int v = a[threadIdx.x];
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down(v, d);
    if (threadIdx.x == 0) a[0] = v;
}
"#;

#[test]
fn pre_cuda_9_shuffles_are_read() {
    check("shuffle", SHUFFLE);
}

const AXIOM: &str = r#"//pass
//--blockDim=64 --gridDim=4
// verify: race=verified exit=0
// verify-args: --property race
//@ len(a) = 65
__axiom(blockIdx.x == 2);
__global__ void only_block_two(int *a) {
    if (blockIdx.x != 2)
        a[0] = threadIdx.x;
    a[1 + threadIdx.x] = blockIdx.x;
}
"#;

#[test]
fn a_file_scope_axiom_is_assumed_by_every_kernel() {
    check("axiom", AXIOM);
    let bug = twin(AXIOM, "__axiom(blockIdx.x == 2);\n", "");
    check(
        "axiom_bug",
        &bug.replace("race=verified exit=0", "race=violated exit=1"),
    );
}

const UNSET: &str = r#"//xfail:BOOGIE_ERROR
//--blockDim=2 --gridDim=1
// verify: race=violated exit=1
// verify-args: --property race
//@ len(out) = 64
struct Pair { short x, y; };
__global__ void copy_unset(Pair *out) {
    Pair fresh;
    out[42] = fresh;
}
"#;

#[test]
fn a_copy_of_an_unset_local_is_no_benign_race() {
    // The interpreter reads an unset local as 0 in every thread; real threads may hold
    // different values, so only constants written as such are benign.
    check("unset", UNSET);
}

const ENABLED: &str = r#"//pass
//--blockDim=64 --gridDim=4
// verify: assert=verified exit=0
__device__ void step(int x) {
    __requires(__implies(__enabled(), x > 0 & x <= 64));
}
__global__ void doubling() {
    int d = 1;
    while (__invariant(d >= 1 & d <= 64), d < 64) {
        step(d);
        d <<= 1;
    }
}
"#;

#[test]
fn enabled_holds_for_the_thread_evaluating_an_annotation() {
    check("enabled", ENABLED);
    // One less, the helper's precondition fails at the first call.
    let bug = twin(ENABLED, "step(d);", "step(d - 1);");
    check(
        "enabled_bug",
        &bug.replace("assert=verified exit=0", "assert=violated exit=1"),
    );
}

const UNANNOTATED_GLOBAL: &str = r#"//pass
//--blockDim=64 --gridDim=2
// verify: race=verified bounds=verified exit=0
//@ len(out) = 128
typedef unsigned int uint;
struct params {
    unsigned scale;
    unsigned offset;
};

params p;
int hits[2];

__device__ uint apply(params q, uint x) { return q.scale * x + q.offset; }

__global__ void scaled(uint *out) {
    uint i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = apply(p, i);
    if (threadIdx.x == 0)
        hits[blockIdx.x] = 1;
}
"#;

#[test]
fn an_unannotated_file_scope_variable_is_the_devices_in_gpuverify_form() {
    // clang's CUDA takes `params p;` for a host variable and refuses its use in a kernel;
    // GPUVerify's dialect (a file whose first line is `//pass` or `//xfail:`) reads it as a
    // `__device__` one.
    check("unannotated_global", UNANNOTATED_GLOBAL);
    // Every block's thread 0 writes one cell: a race between blocks.
    let bug = twin(
        UNANNOTATED_GLOBAL,
        "hits[blockIdx.x] = 1;",
        "hits[0] = blockIdx.x;",
    );
    check(
        "unannotated_global_bug",
        &bug.replace("race=verified", "race=violated")
            .replace("exit=0", "exit=1"),
    );
    // Outside GPUVerify's form the file is plain CUDA, where the variable is the host's.
    let plain = UNANNOTATED_GLOBAL.replacen("//pass\n", "// a plain CUDA file\n", 1);
    let out = verify("unannotated_global_plain", &plain, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("reference to __host__ variable"),
        "{stderr}"
    );
}

const MEMORY_CHECKS: &str = r#"//pass
//--blockDim=32 --gridDim=1
// verify: race=verified bounds=verified assert=verified exit=0
//@ len(in) = 32
//@ len(out) = 32
struct pair {
    short x;
    short y;
};

__constant__ int scale[32];
__device__ int table[32];

__global__ void copy(pair *in, pair *out) {
    if (threadIdx.x >= 32)
        memcpy(0, &in[threadIdx.x], sizeof(pair));
    memcpy(&out[threadIdx.x], &in[threadIdx.x], sizeof(pair));
    table[threadIdx.x] = scale[threadIdx.x];
}
"#;

#[test]
fn a_null_copy_and_a_write_to_constant_memory_are_bounds_findings() {
    // GPUVerify's tests of `memcpy(0, …)` and of writes to `__constant__` memory expect an
    // error; the calls are findings where they are reached (here: never).
    check("memory_checks", MEMORY_CHECKS);
    let violated = |s: String| {
        s.replace("bounds=verified", "bounds=violated")
            .replace("exit=0", "exit=1")
    };
    let null = twin(
        MEMORY_CHECKS,
        "if (threadIdx.x >= 32)",
        "if (threadIdx.x >= 31)",
    );
    check("memory_checks_bug_null", &violated(null));
    let written = twin(
        MEMORY_CHECKS,
        "table[threadIdx.x] = scale[threadIdx.x];",
        "scale[threadIdx.x] = table[threadIdx.x];",
    );
    let written = violated(written);
    check("memory_checks_bug_constant", &written);
    let out = verify("memory_checks_message", &written, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("write to read-only memory"), "{stdout}");
    assert!(
        stdout.contains("replay in the interpreter: reproduced"),
        "{stdout}"
    );
}

const SORTED_INDEX: &str = r#"//pass
//--blockDim=64 --gridDim=4
// verify: race=verified exit=0
//@ len(index) = 256
//@ len(out) = 256
__global__ void scatter(const unsigned *index, float *out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    __requires(index[i] == i);
    out[index[i]] = 2.0f * i;
}
"#;

#[test]
fn a_precondition_on_read_only_memory_holds_for_later_reads_of_it() {
    // The particles sample's collideD: `__requires(gridParticleIndex[tid] == tid)`, then a
    // write at `gridParticleIndex[tid]`. Memory nothing writes holds one value per address,
    // so the second read of `index[i]` is the first's.
    check("sorted_index", SORTED_INDEX);
    // Each thread reads its neighbour's slot, which only the neighbour's precondition fixes:
    // a race over arbitrary memory, but every replay's data breaks the preconditions, so it
    // is not confirmed (`possible`, never `violated`).
    let next = twin(SORTED_INDEX, "out[index[i]]", "out[index[(i + 1) % 256]]");
    let out = verify("sorted_index_next", &next, &["--property", "race"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(text.contains("POSSIBLE"), "{text}");
    assert!(text.contains("an assumption of the kernel"), "{text}");
}
