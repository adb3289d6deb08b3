//! Warp votes (`__ballot_sync`, `__any_sync`, `__all_sync`), `__activemask` and the barrier
//! reductions (`__syncthreads_count/_and/_or`) in the interpreter: a vote-based stream
//! compaction against a Rust reference, the active mask under divergence, and a vote whose
//! mask names lanes that never arrive (a divergence).

use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options, Outcome};
use warpsafe_ir::{Category, Kernel, ScalarType, Value};

fn kernel(src: &str) -> Kernel {
    let mut m = warpsafe_cuda_front::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    m.kernels.remove(0)
}

fn buf(out: &Outcome, i: usize) -> &Buffer {
    match &out.args[i] {
        Arg::Buffer(b) => b,
        Arg::Scalar(_) => panic!("argument {i} is a scalar"),
    }
}

const COMPACT: &str = r#"
__device__ unsigned int popc(unsigned int v)
{
    unsigned int c = 0u;
    while (v != 0u) {
        c += v & 1u;
        v = v >> 1;
    }
    return c;
}

__global__ void compact(const int* keys, int key, int* out_idx, unsigned int* warp_counts,
                        int* flags, int* block_stats, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x % 32u;
    int warp = i / 32;
    bool match = i < n && keys[i] == key;
    unsigned int votes = __ballot_sync(0xffffffffu, match);
    int any = __any_sync(0xffffffffu, match);
    int all = __all_sync(0xffffffffu, match);
    unsigned int below = (1u << lane) - 1u;
    if (match) {
        out_idx[warp * 32 + (int)popc(votes & below)] = i;
    }
    if (lane == 0u) {
        warp_counts[warp] = popc(votes);
        flags[2 * warp] = any;
        flags[2 * warp + 1] = all;
    }
    int count = __syncthreads_count(match);
    int every = __syncthreads_and(match);
    int some = __syncthreads_or(match);
    if (threadIdx.x == 0u) {
        block_stats[3 * blockIdx.x] = count;
        block_stats[3 * blockIdx.x + 1] = every;
        block_stats[3 * blockIdx.x + 2] = some;
    }
}
"#;

fn compact_case(keys: &[i32], key: i32, blocks: u32, block: u32) {
    let threads = (blocks * block) as usize;
    let n = keys.len();
    assert!(threads >= n && threads.is_multiple_of(32));
    let warps = threads / 32;
    let k = kernel(COMPACT);
    let args = vec![
        Arg::Buffer(Buffer::from_i32(keys)),
        Arg::Scalar(Value::I32(key)),
        Arg::Buffer(Buffer::from_i32(&vec![-1; threads])),
        Arg::Buffer(Buffer::zeros(ScalarType::U32, warps)),
        Arg::Buffer(Buffer::from_i32(&vec![-1; 2 * warps])),
        Arg::Buffer(Buffer::from_i32(&vec![-1; 3 * blocks as usize])),
        Arg::Scalar(Value::I32(n as i32)),
    ];
    let out = run(
        &k,
        &LaunchConfig::linear(blocks, block),
        args,
        &Options::default(),
    )
    .expect("launch");
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    // The reference: each warp's matches, packed in lane order at the warp's segment.
    let matches = |i: usize| i < n && keys[i] == key;
    let mut want_idx = vec![-1; threads];
    let mut want_counts = vec![0u32; warps];
    let mut want_flags = vec![0; 2 * warps];
    for w in 0..warps {
        let lanes: Vec<usize> = (w * 32..w * 32 + 32).filter(|&i| matches(i)).collect();
        for (r, &i) in lanes.iter().enumerate() {
            want_idx[w * 32 + r] = i as i32;
        }
        want_counts[w] = lanes.len() as u32;
        want_flags[2 * w] = i32::from(!lanes.is_empty());
        want_flags[2 * w + 1] = i32::from(lanes.len() == 32);
    }
    let mut want_stats = vec![];
    for b in 0..blocks as usize {
        let c = (b * block as usize..(b + 1) * block as usize)
            .filter(|&i| matches(i))
            .count();
        want_stats.extend([c as i32, i32::from(c == block as usize), i32::from(c > 0)]);
    }
    assert_eq!(buf(&out, 2).to_i32(), want_idx);
    assert_eq!(buf(&out, 3).to_u32(), want_counts);
    assert_eq!(buf(&out, 4).to_i32(), want_flags);
    assert_eq!(buf(&out, 5).to_i32(), want_stats);
}

#[test]
fn vote_compaction_matches_the_reference() {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        s.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    for &(n, blocks, block, range) in &[(1000, 4, 256, 3), (200, 2, 128, 1), (96, 1, 96, 2)] {
        let keys: Vec<i32> = (0..n).map(|_| (next() % range) as i32).collect();
        compact_case(&keys, 0, blocks, block);
    }
    // Every lane matches (all = 1) and none does (any = 0).
    compact_case(&[7; 64], 7, 1, 64);
    compact_case(&[7; 64], 8, 1, 64);
}

#[test]
fn activemask_is_the_lanes_executing_together() {
    let k = kernel(
        r#"
__global__ void k(unsigned int* out)
{
    unsigned int t = threadIdx.x;
    if (t % 32u < 12u) {
        out[t] = __activemask();
    } else {
        out[t] = __activemask();
    }
}
"#,
    );
    let args = vec![Arg::Buffer(Buffer::zeros(ScalarType::U32, 64))];
    let out = run(&k, &LaunchConfig::linear(1, 64), args, &Options::default()).expect("launch");
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let want: Vec<u32> = (0..64)
        .map(|t| {
            if t % 32 < 12 {
                0x0000_0fff
            } else {
                0xffff_f000
            }
        })
        .collect();
    assert_eq!(buf(&out, 0).to_u32(), want);
}

#[test]
fn a_full_mask_ballot_under_a_lane_guard_diverges() {
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
    let args = || vec![Arg::Buffer(Buffer::zeros(ScalarType::U32, 32))];
    let bad = run(
        &kernel(&src("t < 16u")),
        &LaunchConfig::linear(1, 32),
        args(),
        &Options::default(),
    )
    .expect("launch");
    let f = bad.of(Category::Divergence).next().expect("a divergence");
    assert!(f.message.contains("__ballot_sync"), "{}", f.message);
    let ok = run(
        &kernel(&src("t < 64u")),
        &LaunchConfig::linear(1, 32),
        args(),
        &Options::default(),
    )
    .expect("launch");
    assert!(ok.findings.is_empty(), "{:?}", ok.findings);
    assert_eq!(buf(&ok, 0).to_u32(), vec![0x5555_5555; 32]);
}
