//! Warp votes and barrier reductions in the two-thread abstraction: a vote's result is an
//! unknown value (lanes of one warp in one mask see the same ballot, whose bit for a lane is
//! that lane's predicate), a vote is a warp collective (all lanes of its mask must reach it)
//! and `__syncthreads_count/_and/_or` are barriers whose result is the same in every thread
//! of the block.

use warpsafe_ir::Kernel;
use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};

fn kernel(src: &str) -> Kernel {
    let mut m = warpsafe_cuda_front::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    m.kernels.remove(0)
}

fn check(src: &str, props: Vec<Property>) -> Vec<Verdict> {
    let cfg = Config {
        block: DimSpec::Fixed([128, 1, 1]),
        grid: DimSpec::Fixed([2, 1, 1]),
        properties: props,
        replay: false,
        // Verdicts, not speed: the ballot-rank race query takes 3.4 s alone and timed out at
        // the default 10 s under a loaded parallel test run.
        timeout: std::time::Duration::from_secs(60),
        ..Config::default()
    };
    verify(&kernel(src), &cfg)
        .results
        .into_iter()
        .map(|r| r.verdict)
        .collect()
}

const POPC: &str = r#"
__device__ unsigned int popc(unsigned int v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0f0f0f0fu;
    return (v * 0x01010101u) >> 24;
}
"#;

fn aggregated(update: &str) -> String {
    format!(
        r#"{POPC}
__global__ void k(const int* keys, unsigned int* counter, unsigned int* slot, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x % 32u;
    bool match = i < n && keys[i] > 0;
    unsigned int votes = __ballot_sync(0xffffffffu, match);
    unsigned int base = 0u;
    if (lane == 0u) {{
        {update}
    }}
    base = __shfl_sync(0xffffffffu, base, 0);
    slot[i] = base + popc(votes & ((1u << lane) - 1u));
}}
"#
    )
}

#[test]
fn warp_aggregated_atomic_is_race_free_and_its_plain_twin_races() {
    let ok = aggregated("base = atomicAdd(&counter[0], popc(votes));");
    let v = check(&ok, vec![Property::Race, Property::Divergence]);
    assert!(matches!(v[0], Verdict::Verified), "{:?}", v[0]);
    assert!(matches!(v[1], Verdict::Verified), "{:?}", v[1]);
    let bad = aggregated("base = counter[0]; counter[0] = base + popc(votes);");
    let v = check(&bad, vec![Property::Race]);
    assert!(matches!(v[0], Verdict::Violated(_)), "{:?}", v[0]);
}

#[test]
fn ballot_ranks_give_distinct_slots() {
    // Each matching lane writes at its rank among the warp's matching lanes: race-free only
    // because the two lanes see the same ballot and their own bits in it.
    let src = format!(
        r#"{POPC}
__global__ void k(const int* keys, int* out, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x % 32u;
    bool match = i < n && keys[i] > 0;
    unsigned int votes = __ballot_sync(0xffffffffu, match);
    if (match) {{
        out[(i / 32) * 32 + (int)popc(votes & ((1u << lane) - 1u))] = i;
    }}
}}
"#
    );
    let v = check(&src, vec![Property::Race]);
    assert!(matches!(v[0], Verdict::Verified), "{:?}", v[0]);
}

#[test]
fn full_mask_ballot_under_a_lane_guard_is_divergent() {
    let src = |guard: &str| {
        format!(
            r#"
__global__ void k(unsigned int* out)
{{
    unsigned int t = threadIdx.x;
    if ({guard}) {{
        out[t] = __ballot_sync(0xffffffffu, t % 2u == 0u);
    }}
}}
"#
        )
    };
    let v = check(&src("threadIdx.x < 16u"), vec![Property::Divergence]);
    assert!(matches!(v[0], Verdict::Violated(_)), "{:?}", v[0]);
    let v = check(&src("blockDim.x > 16u"), vec![Property::Divergence]);
    assert!(matches!(v[0], Verdict::Verified), "{:?}", v[0]);
}

#[test]
fn branching_on_a_barrier_count_around_a_barrier_is_not_divergent() {
    let src = r#"
__global__ void k(const int* x, int* out)
{
    __shared__ int s[128];
    unsigned int t = threadIdx.x;
    int c = __syncthreads_count(x[blockIdx.x * blockDim.x + t] > 0);
    int any = __syncthreads_or(x[t] > 0);
    if (c > 3 && any != 0) {
        s[t] = c;
        __syncthreads();
        out[blockIdx.x * blockDim.x + t] = s[127 - t];
    }
}
"#;
    let v = check(src, vec![Property::Divergence, Property::Race]);
    assert!(matches!(v[0], Verdict::Verified), "{:?}", v[0]);
    assert!(matches!(v[1], Verdict::Verified), "{:?}", v[1]);
    // A per-thread condition around the same barrier is divergent.
    let bad = src.replace("c > 3 && any != 0", "x[t] > 3");
    let v = check(&bad, vec![Property::Divergence]);
    assert!(!matches!(v[0], Verdict::Verified), "{:?}", v[0]);
}
