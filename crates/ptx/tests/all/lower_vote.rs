//! `vote.sync` (ballot, all, any, uni; immediate and register masks; partial warps) and
//! barriers with a thread count, run in the interpreter against answers computed in Rust.

use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{Category, ScalarType};

/// Thread `t`: `p = x[t] & 1`; eight results at `out[8t..]`: full-mask ballot, all, any,
/// uni; then, for lanes 0..15 only, a ballot under the immediate mask 0xffff and `all` of
/// `!p` under the same mask in a register; then `uni` of a warp-uniform predicate.
const VOTE: &str = r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry vote(
    .param .u64 vote_param_0,
    .param .u64 vote_param_1
)
{
    .reg .pred %p<12>;
    .reg .b32 %r<32>;
    .reg .b64 %rd<16>;

    ld.param.u64 %rd1, [vote_param_0];
    ld.param.u64 %rd2, [vote_param_1];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.u32 %r2, [%rd6];
    and.b32 %r3, %r2, 1;
    setp.ne.s32 %p1, %r3, 0;
    mul.wide.u32 %rd7, %r1, 32;
    add.s64 %rd8, %rd4, %rd7;
    vote.sync.ballot.b32 %r4, %p1, -1;
    st.global.u32 [%rd8], %r4;
    vote.sync.all.pred %p2, %p1, -1;
    selp.u32 %r5, 1, 0, %p2;
    st.global.u32 [%rd8+4], %r5;
    vote.sync.any.pred %p3, %p1, -1;
    selp.u32 %r6, 1, 0, %p3;
    st.global.u32 [%rd8+8], %r6;
    vote.sync.uni.pred %p4, %p1, -1;
    selp.u32 %r7, 1, 0, %p4;
    st.global.u32 [%rd8+12], %r7;
    and.b32 %r8, %r1, 31;
    setp.ge.u32 %p5, %r8, 16;
    @%p5 bra $L__skip;
    vote.sync.ballot.b32 %r9, %p1, 65535;
    st.global.u32 [%rd8+16], %r9;
    mov.u32 %r10, 65535;
    vote.sync.all.pred %p6, !%p1, %r10;
    selp.u32 %r11, 1, 0, %p6;
    st.global.u32 [%rd8+20], %r11;
$L__skip:
    shr.u32 %r12, %r1, 5;
    setp.eq.s32 %p7, %r12, 0;
    vote.sync.uni.pred %p8, %p7, -1;
    selp.u32 %r13, 1, 0, %p8;
    st.global.u32 [%rd8+24], %r13;
    ret;
}
"#;

fn run_vote(xs: &[u32]) -> Vec<u32> {
    let m = warpsafe_ptx::parse(VOTE).expect("parses");
    let prog = warpsafe_ptx::lower(&m, None).expect("lowers");
    let n = xs.len();
    let args = vec![
        Arg::Buffer(Buffer::from_u32(xs)),
        Arg::Buffer(Buffer::zeros(ScalarType::U32, 8 * n)),
    ];
    let out = warpsafe_exec::run_program(
        &prog,
        &LaunchConfig::linear(1, n as u32),
        args,
        &Options::default(),
    )
    .expect("runs");
    assert!(out.findings.is_empty(), "{:#?}", out.findings);
    let Arg::Buffer(o) = &out.args[1] else {
        unreachable!()
    };
    o.to_u32()
}

/// What thread `t` should store, from the inputs of its warp.
fn expected(xs: &[u32], t: usize) -> [u32; 8] {
    let w = t / 32 * 32;
    let lanes: Vec<usize> = (w..xs.len().min(w + 32)).collect();
    let bit = |k: usize| xs[k] & 1;
    let ballot: u32 = lanes
        .iter()
        .map(|&k| bit(k) << (k - w))
        .fold(0, |a, b| a | b);
    let present: u32 = lanes.iter().map(|&k| 1u32 << (k - w)).fold(0, |a, b| a | b);
    let low = ballot & 0xffff;
    let in_low = t - w < 16;
    [
        ballot,
        (ballot == present) as u32,
        (ballot != 0) as u32,
        (ballot == 0 || ballot == present) as u32,
        if in_low { low } else { 0 },
        if in_low { (low == 0) as u32 } else { 0 },
        1,
        0,
    ]
}

#[test]
fn votes_agree_with_rust_on_full_and_partial_warps() {
    let mut seed = 7u32;
    let mut next = || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        seed >> 16
    };
    // Warp 0 random; warp 1 only 16 lanes (a partial warp), all odd: `all` holds there.
    let mut xs: Vec<u32> = (0..32).map(|_| next()).collect();
    xs.extend((0..16).map(|k| 2 * k + 1));
    let out = run_vote(&xs);
    for t in 0..xs.len() {
        assert_eq!(out[8 * t..8 * t + 8], expected(&xs, t), "thread {t}");
    }
    // Everything even in warp 0: `any` fails, `uni` holds, the masked `all(!p)` holds.
    let xs: Vec<u32> = (0..32).map(|k| 2 * k).collect();
    let out = run_vote(&xs);
    for t in 0..xs.len() {
        assert_eq!(out[8 * t..8 * t + 8], expected(&xs, t), "thread {t}");
    }
}

fn counted_barrier(count: &str) -> String {
    format!(
        r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry counted(
    .param .u64 counted_param_0
)
{{
    .reg .b32 %r<10>;
    .reg .b64 %rd<8>;
    .shared .align 4 .b8 s[256];

    ld.param.u64 %rd1, [counted_param_0];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 2;
    mov.u32 %r3, s;
    add.s32 %r4, %r3, %r2;
    st.shared.u32 [%r4], %r1;
    mov.u32 %r8, %ntid.x;
    bar.sync 1, {count};
    xor.b32 %r5, %r2, 4;
    add.s32 %r6, %r3, %r5;
    ld.shared.u32 %r7, [%r6];
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.global.u32 [%rd4], %r7;
    ret;
}}
"#
    )
}

#[test]
fn barrier_counts_must_cover_the_block() {
    let run = |count: &str, threads: u32| {
        let m = warpsafe_ptx::parse(&counted_barrier(count)).expect("parses");
        let prog = warpsafe_ptx::lower(&m, None).expect("lowers");
        let args = vec![Arg::Buffer(Buffer::zeros(
            ScalarType::U32,
            threads as usize,
        ))];
        warpsafe_exec::run_program(
            &prog,
            &LaunchConfig::linear(1, threads),
            args,
            &Options::default(),
        )
        .expect("runs")
    };
    // The whole block (64 threads): a plain block barrier, neighbours swap values.
    let out = run("64", 64);
    assert!(out.findings.is_empty(), "{:#?}", out.findings);
    let Arg::Buffer(o) = &out.args[0] else {
        unreachable!()
    };
    assert_eq!(o.to_u32(), (0..64u32).map(|t| t ^ 1).collect::<Vec<_>>());
    // A count in a register that holds the block size works too; one that does not is an
    // `assert` finding (`s` is at offset 0, so %r3 = 0).
    let out = run("%r8", 64);
    assert!(out.findings.is_empty(), "{:#?}", out.findings);
    let out = run("%r3", 64);
    assert!(
        out.findings.iter().any(|f| f.category == Category::Assert),
        "{:#?}",
        out.findings
    );
    // A count smaller than the block is reported at the barrier, not silently accepted.
    let out = run("32", 64);
    assert!(
        out.findings.iter().any(|f| f.category == Category::Assert),
        "{:#?}",
        out.findings
    );
}

/// `activemask.b32` under a lane guard, and `bar.red.popc.u32` / `bar.red.and.pred` /
/// `bar.red.or.pred` (`__syncthreads_count/_and/_or`) over `p = x[t] & 1`.
const RED: &str = r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry red(
    .param .u64 red_param_0,
    .param .u64 red_param_1
)
{
    .reg .pred %p<8>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<16>;

    ld.param.u64 %rd1, [red_param_0];
    ld.param.u64 %rd2, [red_param_1];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.u32 %r2, [%rd6];
    and.b32 %r3, %r2, 1;
    setp.ne.s32 %p1, %r3, 0;
    mul.wide.u32 %rd7, %r1, 16;
    add.s64 %rd8, %rd4, %rd7;
    mov.u32 %r4, 0;
    and.b32 %r8, %r1, 31;
    setp.ge.u32 %p5, %r8, 8;
    @%p5 bra $L__skip;
    activemask.b32 %r4;
$L__skip:
    st.global.u32 [%rd8], %r4;
    bar.red.popc.u32 %r5, 0, %p1;
    st.global.u32 [%rd8+4], %r5;
    bar.red.and.pred %p2, 0, !%p1;
    selp.u32 %r6, 1, 0, %p2;
    st.global.u32 [%rd8+8], %r6;
    bar.red.or.pred %p3, 0, %p1;
    selp.u32 %r7, 1, 0, %p3;
    st.global.u32 [%rd8+12], %r7;
    ret;
}
"#;

#[test]
fn activemask_and_barrier_reductions_match_rust() {
    let m = warpsafe_ptx::parse(RED).expect("parses");
    let prog = warpsafe_ptx::lower(&m, None).expect("lowers");
    for xs in [
        (0..64u32).map(|t| t * 7 % 5).collect::<Vec<_>>(),
        vec![2; 64],
        vec![1; 64],
    ] {
        let args = vec![
            Arg::Buffer(Buffer::from_u32(&xs)),
            Arg::Buffer(Buffer::zeros(ScalarType::U32, 4 * xs.len())),
        ];
        let out = warpsafe_exec::run_program(
            &prog,
            &LaunchConfig::linear(1, xs.len() as u32),
            args,
            &Options::default(),
        )
        .expect("runs");
        assert!(out.findings.is_empty(), "{:?}", out.findings);
        let Arg::Buffer(b) = &out.args[1] else {
            panic!("a buffer")
        };
        let got = b.to_u32();
        let count = xs.iter().filter(|&&x| x & 1 != 0).count() as u32;
        for t in 0..xs.len() {
            let active = if t % 32 < 8 { 0xff } else { 0 };
            let want = [active, count, u32::from(count == 0), u32::from(count > 0)];
            assert_eq!(got[4 * t..4 * t + 4], want, "thread {t}");
        }
    }
}
