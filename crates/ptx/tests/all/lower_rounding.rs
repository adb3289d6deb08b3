//! `cvt.rni` (round to nearest integer, ties to even) and the `.sat` modifier, run in the
//! interpreter against Rust's `round_ties_even`, clamps and saturating arithmetic.

use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::ScalarType;

/// Thread `t` reads `x = f[t]` (f32), `y = g[t]` (f64), `a = i[t]`, `b = j[t]` (s32) and
/// writes ten 64-bit results at `out[10t..]`.
const ROUND: &str = r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry round(
    .param .u64 round_param_0,
    .param .u64 round_param_1,
    .param .u64 round_param_2,
    .param .u64 round_param_3,
    .param .u64 round_param_4
)
{
    .reg .f32 %f<16>;
    .reg .f64 %fd<8>;
    .reg .b32 %r<24>;
    .reg .b64 %rd<40>;

    ld.param.u64 %rd1, [round_param_0];
    ld.param.u64 %rd2, [round_param_1];
    ld.param.u64 %rd3, [round_param_2];
    ld.param.u64 %rd4, [round_param_3];
    ld.param.u64 %rd5, [round_param_4];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd6, %r1, 4;
    mul.wide.u32 %rd7, %r1, 8;
    add.s64 %rd8, %rd1, %rd6;
    ld.global.f32 %f1, [%rd8];
    add.s64 %rd9, %rd2, %rd7;
    ld.global.f64 %fd1, [%rd9];
    add.s64 %rd10, %rd3, %rd6;
    ld.global.u32 %r2, [%rd10];
    add.s64 %rd11, %rd4, %rd6;
    ld.global.u32 %r3, [%rd11];
    mul.wide.u32 %rd12, %r1, 80;
    add.s64 %rd13, %rd5, %rd12;
    cvt.rni.s32.f32 %r4, %f1;
    cvt.s64.s32 %rd14, %r4;
    st.global.u64 [%rd13], %rd14;
    cvt.rni.f32.f32 %f2, %f1;
    mov.b32 %r5, %f2;
    cvt.u64.u32 %rd15, %r5;
    st.global.u64 [%rd13+8], %rd15;
    cvt.rni.f64.f64 %fd2, %fd1;
    mov.b64 %rd16, %fd2;
    st.global.u64 [%rd13+16], %rd16;
    add.sat.f32 %f3, %f1, 0f3E800000;
    mov.b32 %r6, %f3;
    cvt.u64.u32 %rd17, %r6;
    st.global.u64 [%rd13+24], %rd17;
    fma.rn.sat.f32 %f4, %f1, 0f3F000000, 0f3F000000;
    mov.b32 %r7, %f4;
    cvt.u64.u32 %rd18, %r7;
    st.global.u64 [%rd13+32], %rd18;
    cvt.sat.f32.f32 %f5, %f1;
    mov.b32 %r8, %f5;
    cvt.u64.u32 %rd19, %r8;
    st.global.u64 [%rd13+40], %rd19;
    add.sat.s32 %r9, %r2, %r3;
    cvt.s64.s32 %rd20, %r9;
    st.global.u64 [%rd13+48], %rd20;
    sub.sat.s32 %r10, %r2, %r3;
    cvt.s64.s32 %rd21, %r10;
    st.global.u64 [%rd13+56], %rd21;
    cvt.sat.u32.s32 %r11, %r2;
    cvt.u64.u32 %rd22, %r11;
    st.global.u64 [%rd13+64], %rd22;
    cvt.sat.s32.u32 %r12, %r3;
    cvt.s64.s32 %rd23, %r12;
    st.global.u64 [%rd13+72], %rd23;
    ret;
}
"#;

/// `[0, 1]` clamp with NaN sent to +0.
fn sat(v: f32) -> f32 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}

fn expected(x: f32, y: f64, a: i32, b: i32) -> [u64; 10] {
    [
        x.round_ties_even() as i32 as i64 as u64,
        x.round_ties_even().to_bits() as u64,
        y.round_ties_even().to_bits(),
        sat(x + 0.25).to_bits() as u64,
        sat(x.mul_add(0.5, 0.5)).to_bits() as u64,
        sat(x).to_bits() as u64,
        a.saturating_add(b) as i64 as u64,
        a.saturating_sub(b) as i64 as u64,
        a.max(0) as u32 as u64,
        (b as u32).min(i32::MAX as u32) as u64,
    ]
}

#[test]
fn integral_rounding_and_saturation_match_rust() {
    let mut xs: Vec<f32> = vec![
        0.5,
        1.5,
        2.5,
        -0.5,
        -1.5,
        -2.5,
        0.499_999_97,
        -0.3,
        8_388_609.0,
        8_388_608.5,
        1e10,
        -1e10,
        3e9,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -0.0,
        0.0,
        1.0,
        0.75,
        -0.25,
    ];
    let mut ys: Vec<f64> = vec![0.5, 1.5, 2.5, -0.5, -2.5, 4_503_599_627_370_497.0, -0.2];
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    while xs.len() < 64 {
        let r = next();
        xs.push(((r % 20_000) as f32 - 10_000.0) / 8.0 + (r >> 40) as f32 / 1e8);
    }
    while ys.len() < xs.len() {
        let r = next();
        ys.push(((r % 40_000) as f64 - 20_000.0) / 4.0);
    }
    let mut is = vec![i32::MAX, i32::MIN, -1, 0, 5, i32::MIN, i32::MAX];
    let mut js = vec![1, -1, i32::MIN, -7, i32::MAX, 1, -1];
    while is.len() < xs.len() {
        is.push(next() as i32);
        js.push((next() >> 32) as i32);
    }
    let n = xs.len();
    let m = warpsafe_ptx::parse(ROUND).expect("parses");
    let prog = warpsafe_ptx::lower(&m, None).expect("lowers");
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&xs)),
        Arg::Buffer(Buffer::from_f64(&ys)),
        Arg::Buffer(Buffer::from_u32(
            &is.iter().map(|&v| v as u32).collect::<Vec<_>>(),
        )),
        Arg::Buffer(Buffer::from_u32(
            &js.iter().map(|&v| v as u32).collect::<Vec<_>>(),
        )),
        Arg::Buffer(Buffer::zeros(ScalarType::U64, 10 * n)),
    ];
    let out = warpsafe_exec::run_program(
        &prog,
        &LaunchConfig::linear(1, n as u32),
        args,
        &Options::default(),
    )
    .expect("runs");
    assert!(out.findings.is_empty(), "{:#?}", out.findings);
    let Arg::Buffer(o) = &out.args[4] else {
        unreachable!()
    };
    let o = o.to_u64();
    let names = [
        "cvt.rni.s32.f32",
        "cvt.rni.f32.f32",
        "cvt.rni.f64.f64",
        "add.sat.f32",
        "fma.rn.sat.f32",
        "cvt.sat.f32.f32",
        "add.sat.s32",
        "sub.sat.s32",
        "cvt.sat.u32.s32",
        "cvt.sat.s32.u32",
    ];
    for t in 0..n {
        let want = expected(xs[t], ys[t], is[t], js[t]);
        for k in 0..10 {
            assert_eq!(
                o[10 * t + k],
                want[k],
                "{}: x = {:?}, y = {:?}, a = {}, b = {}",
                names[k],
                xs[t],
                ys[t],
                is[t],
                js[t]
            );
        }
    }
}
