//! Values nothing is known about: `clock()`/`clock64()`, a call of a function the file
//! declares without a body (GPUVerify's `int x = nondet();`), and cuRAND's device API (our
//! `<curand_kernel.h>` gives every generator an arbitrary output, and every call reads and
//! writes the state it is given). Kernels written the way real code is, each beside a buggy
//! twin; and the interpreter runs a cuRAND kernel whose outputs must lie in their ranges.

use super::common::*;

/// A Monte-Carlo estimate of pi with one generator state per thread, as cuRAND's guide
/// writes it (the states set up by an earlier kernel).
const MONTE_CARLO: &str = r#"#include <curand_kernel.h>
// verify: race=verified bounds=verified divergence=verified exit=0
// verify-args: --block 256 --grid 4096
//@ len(states) = gridDim.x * blockDim.x
//@ len(hits) = gridDim.x * blockDim.x
__global__ void setup(curandState *states, unsigned long long seed) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &states[id]);
}

__global__ void pi(curandState *states, unsigned int *hits, int trials) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int inside = 0;
    for (int i = 0; i < trials; i++) {
        float x = curand_uniform(&states[id]);
        float y = curand_uniform(&states[id]);
        if (x * x + y * y <= 1.0f)
            inside++;
    }
    hits[id] = inside;
}
"#;

#[test]
fn curand_with_a_state_per_thread_verifies() {
    check("monte_carlo", MONTE_CARLO);
}

#[test]
fn curand_on_a_shared_state_races() {
    // Every thread draws from (and so advances) the first state: cuRAND's states are not
    // thread-safe. curand_init on one state from every thread races too.
    let bug = twin(
        MONTE_CARLO,
        "&states[id]);\n        float y",
        "&states[0]);\n        float y",
    );
    let bug = twin(
        &bug,
        "curand_init(seed, id, 0, &states[id])",
        "curand_init(seed, id, 0, &states[0])",
    );
    check(
        "monte_carlo_shared",
        &bug.replace("race=verified", "race=violated")
            .replace("exit=0", "exit=1"),
    );
}

/// MTGP32: up to 256 threads of a block draw from the block's one state.
const MTGP32: &str = r#"#include <curand_kernel.h>
// verify: race=verified exit=0
// verify-args: --block 256 --grid 64
//@ len(states) = gridDim.x
//@ len(out) = gridDim.x * blockDim.x
__global__ void generate(curandStateMtgp32 *states, float *out) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    out[id] = curand_uniform(&states[blockIdx.x]);
}
"#;

#[test]
fn mtgp32_serves_256_threads_of_a_block() {
    check("mtgp32", MTGP32);
    // 512 threads on one state: threads t and t + 256 use the same word of it.
    let big = MTGP32.replace("--block 256", "--block 512");
    check(
        "mtgp32_512",
        &big.replace("race=verified", "race=violated")
            .replace("exit=0", "exit=1"),
    );
    // Every block on the first state.
    let shared = twin(MTGP32, "&states[blockIdx.x]", "&states[0]");
    check(
        "mtgp32_shared",
        &shared
            .replace("race=verified", "race=violated")
            .replace("exit=0", "exit=1"),
    );
}

/// CUDA's `clock` sample: thread 0 of each block stamps the start and the end.
const CLOCK: &str = r#"// verify: race=verified bounds=verified overflow=verified exit=0
//@ len(timer) = 2 * gridDim.x
//@ len(in) = n
//@ len(out) = n
__global__ void timed(const float *in, float *out, clock_t *timer, int n) {
    if (threadIdx.x == 0)
        timer[blockIdx.x] = clock();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
    __syncthreads();
    if (threadIdx.x == 0)
        timer[blockIdx.x + gridDim.x] = clock64();
}
"#;

#[test]
fn clock_timed_kernel_verifies_and_every_thread_stamping_races() {
    check("clock", CLOCK);
    // Every thread stamps its block's cell: the values differ, so this is no benign race.
    let bug = twin(
        CLOCK,
        "    if (threadIdx.x == 0)\n        timer[blockIdx.x] = clock();",
        "    timer[blockIdx.x] = clock();",
    );
    check(
        "clock_every_thread",
        &bug.replace("race=verified", "race=violated")
            .replace("exit=0", "exit=1"),
    );
}

/// GPUVerify's idiom for an unknown value: a function declared without a body.
const NONDET: &str = r#"// verify: race=verified bounds=verified exit=0
//@ len(table) = n
//@ len(out) = gridDim.x * blockDim.x
__device__ int nondet(void);
__global__ void lookup(const int *table, int *out, int n) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    int k = nondet();
    if (k >= 0 && k < n)
        out[id] = table[k];
}
"#;

#[test]
fn nondet_index_checked_verifies_and_unchecked_is_reported() {
    check("nondet", NONDET);
    // Without the check the index may be anything: reported (the solver's value is not
    // exact, but the interpreter's arbitrary value replays it out of bounds).
    let bug = twin(NONDET, "if (k >= 0 && k < n)\n        ", "");
    check(
        "nondet_unchecked",
        &bug.replace("bounds=verified", "bounds=violated")
            .replace("exit=0", "exit=1"),
    );
}

#[test]
fn nondet_loop_conditions_verify() {
    // GPUVerify's predication tests: loops whose conditions are unknown values.
    check(
        "nondet_loops",
        r#"// verify: race=verified divergence=verified exit=0
__device__ char nondet();
__global__ void foo(int *a) {
    while (nondet()) {
        while (nondet()) {
            a[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
        }
    }
}
"#,
    );
}

#[test]
fn a_bodiless_function_given_a_pointer_stays_rejected() {
    let f = file(
        "nondet_pointer",
        r#"__device__ int peek(int *p);
__global__ void k(int *a) { a[threadIdx.x] = peek(a); }
"#,
    );
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["verify", "--frontend", "clang"])
        .arg(&f)
        .output()
        .expect("warpsafe runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("declared without a body"), "{err}");
}

#[test]
fn curand_outputs_lie_in_their_ranges_when_run() {
    let f = file(
        "draw",
        r#"#include <curand_kernel.h>
__global__ void draw(curandState *states, float *u, double *d, float *g, unsigned int *r,
                     unsigned long long seed) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &states[id]);
    u[id] = curand_uniform(&states[id]);
    d[id] = curand_uniform_double(&states[id]);
    g[id] = curand_normal(&states[id]);
    r[id] = curand(&states[id]);
}
"#,
    );
    let out = f.with_file_name("out");
    let n = 128;
    // An XORWOW state is 12 words in the interpreter's memory (its double is two).
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["run", "--frontend", "clang"])
        .arg(&f)
        .args(["--block", "64", "--grid", "2", "--arg", "seed=7"])
        .args(["--buf", &format!("states=zeros:{}", 12 * n)])
        .args([
            "--buf",
            &format!("u=zeros:{n}"),
            "--buf",
            &format!("d=zeros:{n}"),
        ])
        .args([
            "--buf",
            &format!("g=zeros:{n}"),
            "--buf",
            &format!("r=zeros:{n}"),
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("warpsafe runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success() && text.contains("no findings"), "{text}");
    let bytes = |name: &str| std::fs::read(out.join(format!("{name}.bin"))).expect("output");
    let f32s: Vec<f32> = bytes("u")
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let f64s: Vec<f64> = bytes("d")
        .chunks(8)
        .map(|b| f64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
        .collect();
    let normals: Vec<f32> = bytes("g")
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let words: std::collections::BTreeSet<Vec<u8>> =
        bytes("r").chunks(4).map(|b| b.to_vec()).collect();
    assert_eq!(f32s.len(), n);
    assert!(f32s.iter().all(|&x| x > 0.0 && x <= 1.0), "{f32s:?}");
    assert!(f64s.iter().all(|&x| x > 0.0 && x <= 1.0), "{f64s:?}");
    assert!(normals.iter().all(|x| x.is_finite()), "{normals:?}");
    // A uniform sample of 128: its mean is near 1/2, and the threads' words differ.
    let mean = f32s.iter().sum::<f32>() / n as f32;
    assert!((0.3..0.7).contains(&mean), "mean {mean}");
    assert!(words.len() > n / 2, "{} distinct words", words.len());
}

/// cuRAND's guide: copy the state to a local, draw from the copy, store it back.
const LOCAL_STATE: &str = r#"//--blockDim=256 --gridDim=16
//@ len(states) = 4096
//@ len(out) = 4096
// verify: race=verified bounds=verified exit=0
#include <curand_kernel.h>
__global__ void draw(curandState *states, float *out) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState s = states[id];
    float x = curand_uniform(&s);
    float y = curand_normal(&s);
    states[id] = s;
    out[id] = x + y;
}
"#;

#[test]
fn curand_on_a_local_copy_of_the_state() {
    check("local_state", LOCAL_STATE);
    // Eight threads store their copies back to one state.
    let bug = twin(LOCAL_STATE, "states[id] = s;", "states[id % 8] = s;");
    check(
        "local_state_bug",
        &bug.replace(
            "race=verified bounds=verified exit=0",
            "race=violated exit=1",
        ),
    );
}
