//! Division and remainder by constants in NVRTC's magic-number form: the lowering turns the
//! sequences into exact `div`/`rem` only when the magic constant is proved, and the program
//! computes what Rust's `/` and `%` do on edge and random inputs either way.

use warpsafe_exec::thread::code::{BinaryOp, Inst};
use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options, Program};
use warpsafe_ir::ScalarType;

/// Per thread: `x = in[tid]` (u64), twelve results `out[12 * tid ..]`.
const DIVS: &str = r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry divs(
    .param .u64 divs_param_0,
    .param .u64 divs_param_1
)
{
    .reg .b32 %r<40>;
    .reg .b64 %rd<60>;

    ld.param.u64 %rd1, [divs_param_0];
    ld.param.u64 %rd2, [divs_param_1];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd5, %r1, 8;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.u64 %rd7, [%rd6];
    mul.wide.u32 %rd8, %r1, 96;
    add.s64 %rd9, %rd4, %rd8;
    mul.hi.u64 %rd10, %rd7, 2635249153387078803;
    sub.s64 %rd11, %rd7, %rd10;
    shr.u64 %rd12, %rd11, 1;
    add.s64 %rd13, %rd12, %rd10;
    shr.u64 %rd14, %rd13, 2;
    st.global.u64 [%rd9], %rd14;
    mul.hi.u64 %rd15, %rd7, -3689348814741910323;
    shr.u64 %rd16, %rd15, 3;
    mul.lo.s64 %rd17, %rd16, 10;
    sub.s64 %rd18, %rd7, %rd17;
    st.global.u64 [%rd9+8], %rd18;
    mul.hi.u64 %rd19, %rd7, 4223091239536077;
    sub.s64 %rd20, %rd7, %rd19;
    shr.u64 %rd21, %rd20, 1;
    add.s64 %rd22, %rd21, %rd19;
    shr.u64 %rd23, %rd22, 15;
    mul.lo.s64 %rd24, %rd23, 65521;
    sub.s64 %rd25, %rd24, %rd7;
    st.global.u64 [%rd9+16], %rd25;
    cvt.u32.u64 %r2, %rd7;
    mul.wide.u32 %rd26, %r2, 613566757;
    shr.u64 %rd27, %rd26, 32;
    cvt.u32.u64 %r3, %rd27;
    sub.s32 %r4, %r2, %r3;
    shr.u32 %r5, %r4, 1;
    add.s32 %r6, %r5, %r3;
    shr.u32 %r7, %r6, 2;
    mul.wide.u32 %rd28, %r2, -858993459;
    shr.u64 %rd29, %rd28, 35;
    cvt.u32.u64 %r8, %rd29;
    mul.lo.s32 %r9, %r8, 10;
    sub.s32 %r10, %r2, %r9;
    cvt.u64.u32 %rd30, %r7;
    st.global.u64 [%rd9+24], %rd30;
    cvt.u64.u32 %rd31, %r10;
    st.global.u64 [%rd9+32], %rd31;
    mul.hi.s32 %r11, %r2, -1840700269;
    add.s32 %r12, %r11, %r2;
    shr.u32 %r13, %r12, 31;
    shr.s32 %r14, %r12, 2;
    add.s32 %r15, %r14, %r13;
    mul.hi.s32 %r16, %r2, 1717986919;
    shr.u32 %r17, %r16, 31;
    shr.s32 %r18, %r16, 2;
    add.s32 %r19, %r18, %r17;
    mul.lo.s32 %r20, %r19, 10;
    sub.s32 %r21, %r2, %r20;
    mul.hi.s32 %r22, %r2, -1717986919;
    shr.u32 %r23, %r22, 31;
    shr.s32 %r24, %r22, 1;
    add.s32 %r25, %r24, %r23;
    mul.hi.s32 %r26, %r2, 1431655766;
    shr.u32 %r27, %r26, 31;
    add.s32 %r28, %r26, %r27;
    cvt.s64.s32 %rd32, %r15;
    st.global.u64 [%rd9+40], %rd32;
    cvt.s64.s32 %rd33, %r21;
    st.global.u64 [%rd9+48], %rd33;
    cvt.s64.s32 %rd34, %r25;
    st.global.u64 [%rd9+56], %rd34;
    cvt.s64.s32 %rd35, %r28;
    st.global.u64 [%rd9+64], %rd35;
    mul.hi.s64 %rd36, %rd7, 5270498306774157605;
    shr.u64 %rd37, %rd36, 63;
    shr.s64 %rd38, %rd36, 1;
    add.s64 %rd39, %rd38, %rd37;
    st.global.u64 [%rd9+72], %rd39;
    mul.hi.s64 %rd40, %rd7, 7378697629483820647;
    shr.u64 %rd41, %rd40, 63;
    shr.s64 %rd42, %rd40, 2;
    add.s64 %rd43, %rd42, %rd41;
    mul.lo.s64 %rd44, %rd43, 10;
    sub.s64 %rd45, %rd7, %rd44;
    st.global.u64 [%rd9+80], %rd45;
    mad.lo.s64 %rd46, %rd23, -65521, %rd7;
    st.global.u64 [%rd9+88], %rd46;
    ret;
}
"#;

/// What each of the twelve outputs should be, computed in Rust.
fn expected(x: u64) -> [u64; 12] {
    let (w, s, l) = (x as u32, x as u32 as i32, x as i64);
    [
        x / 7,
        x % 10,
        (x % 65521).wrapping_neg(),
        (w / 7) as u64,
        (w % 10) as u64,
        (s / 7) as i64 as u64,
        (s % 10) as i64 as u64,
        (s / -5) as i64 as u64,
        (s / 3) as i64 as u64,
        (l / 7) as u64,
        (l % 10) as u64,
        x % 65521,
    ]
}

fn inputs() -> Vec<u64> {
    let mut xs = vec![
        0,
        1,
        6,
        7,
        9,
        10,
        65520,
        65521,
        65522,
        i32::MAX as u64,
        1 << 31,
        u32::MAX as u64 - 1,
        u32::MAX as u64,
        1 << 32,
        i64::MAX as u64,
        i64::MIN as u64,
        u64::MAX,
        u64::MAX - 1,
        (-7i64) as u64,
        (-5i32) as u32 as u64,
        (-10i32) as u32 as u64,
        (-65521i64) as u64,
    ];
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    while xs.len() < 64 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        xs.push(seed ^ (seed >> 29));
    }
    xs
}

fn lower(text: &str) -> Program {
    let m = warpsafe_ptx::parse(text).expect("parses");
    warpsafe_ptx::lower(&m, None).expect("lowers")
}

fn run(p: &Program, xs: &[u64], per_thread: usize) -> Vec<u64> {
    let args = vec![
        Arg::Buffer(Buffer::from_u64(xs)),
        Arg::Buffer(Buffer::zeros(ScalarType::U64, per_thread * xs.len())),
    ];
    let cfg = LaunchConfig::linear(1, xs.len() as u32);
    let out = warpsafe_exec::run_program(p, &cfg, args, &Options::default()).expect("runs");
    assert!(out.findings.is_empty(), "{:#?}", out.findings);
    let Arg::Buffer(o) = &out.args[1] else {
        unreachable!()
    };
    o.to_u64()
}

fn count(p: &Program, op: BinaryOp) -> usize {
    p.code()
        .insts
        .iter()
        .filter(|i| matches!(i, Inst::Binary { op: o, .. } if *o == op))
        .count()
}

#[test]
fn magic_sequences_become_exact_division_and_remainder() {
    let p = lower(DIVS);
    // Every remainder pattern (u64 ×3, u32, i32, i64) became one `rem`.
    assert_eq!(count(&p, BinaryOp::Rem), 6);
    // Every quotient: u64 ×3, u32 ×2 (one in a 64-bit register, then narrowed), i32 ×4, i64 ×2.
    assert!(
        count(&p, BinaryOp::Div) >= 11,
        "{}",
        count(&p, BinaryOp::Div)
    );
    let xs = inputs();
    let out = run(&p, &xs, 12);
    for (t, &x) in xs.iter().enumerate() {
        assert_eq!(out[12 * t..12 * t + 12], expected(x), "x = {x}");
    }
}

#[test]
fn a_wrong_magic_is_not_rewritten_and_computes_what_it_says() {
    // One less in the u64 x / 7 magic: no longer a division by 7 for every input.
    let good = lower(DIVS);
    let bad = lower(&DIVS.replace("2635249153387078803", "2635249153387078802"));
    assert_eq!(count(&bad, BinaryOp::Div) + 1, count(&good, BinaryOp::Div));
    let xs = inputs();
    let out = run(&bad, &xs, 12);
    let literal = |x: u64| {
        let hi = ((x as u128 * 2635249153387078802u128) >> 64) as u64;
        (((x - hi) >> 1) + hi) >> 2
    };
    let mut differs = false;
    for (t, &x) in xs.iter().enumerate() {
        assert_eq!(out[12 * t], literal(x), "x = {x}");
        assert_eq!(out[12 * t + 1..12 * t + 12], expected(x)[1..], "x = {x}");
        differs |= literal(x) != x / 7;
    }
    assert!(differs, "the wrong magic should be wrong for some input");
}

/// A kernel computing `x % 10` from the magic sequence with `extra` inserted after the
/// `mul.hi`.
fn rem10(extra: &str) -> String {
    format!(
        r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry rem10(
    .param .u64 rem10_param_0,
    .param .u64 rem10_param_1
)
{{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<20>;

    ld.param.u64 %rd1, [rem10_param_0];
    ld.param.u64 %rd2, [rem10_param_1];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd5, %r1, 8;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.u64 %rd7, [%rd6];
    add.s64 %rd9, %rd4, %rd5;
    mul.hi.u64 %rd15, %rd7, -3689348814741910323;
{extra}
    shr.u64 %rd16, %rd15, 3;
    mul.lo.s64 %rd17, %rd16, 10;
    sub.s64 %rd18, %rd7, %rd17;
    st.global.u64 [%rd9], %rd18;
    ret;
}}
"#
    )
}

#[test]
fn a_redefined_operand_or_a_join_point_stops_the_rewrite() {
    let xs = inputs();
    let plain = lower(&rem10(""));
    assert_eq!(count(&plain, BinaryOp::Rem), 1);
    let out = run(&plain, &xs, 1);
    for (t, &x) in xs.iter().enumerate() {
        assert_eq!(out[t], x % 10);
    }
    // `x` changes between the multiply-high and the subtraction: the result is no remainder.
    let p = lower(&rem10("    add.s64 %rd7, %rd7, 1;"));
    assert_eq!(count(&p, BinaryOp::Rem), 0);
    assert_eq!(count(&p, BinaryOp::Div), 0);
    let out = run(&p, &xs, 1);
    for (t, &x) in xs.iter().enumerate() {
        let q = (((x as u128 * 0xCCCC_CCCC_CCCC_CCCDu128) >> 64) as u64) >> 3;
        assert_eq!(out[t], x.wrapping_add(1).wrapping_sub(q.wrapping_mul(10)));
    }
    // The quotient register is written under a guard: it may not hold the quotient.
    let p = lower(&rem10(
        "    setp.eq.s64 %p1, %rd7, 3;\n    @%p1 mov.u64 %rd15, 1000;",
    ));
    assert_eq!(count(&p, BinaryOp::Rem), 0);
    // A label may be reached from elsewhere with other register values.
    let p = lower(&rem10("$L__join:"));
    assert_eq!(count(&p, BinaryOp::Rem), 0);
    let out = run(&p, &xs, 1);
    for (t, &x) in xs.iter().enumerate() {
        assert_eq!(out[t], x % 10);
    }
}

/// Per thread: `x = (i32) in[tid]`, `out[2 * tid] = x / 16` and `out[2 * tid + 1] = x / 2`
/// (as i64 bits) in NVRTC's form for a signed division by a power of two: the sign bit
/// shifted down to a bias, added, and an arithmetic shift.
const POW2: &str = r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry pow2(
    .param .u64 pow2_param_0,
    .param .u64 pow2_param_1
)
{
    .reg .b32 %r<20>;
    .reg .b64 %rd<20>;

    ld.param.u64 %rd1, [pow2_param_0];
    ld.param.u64 %rd2, [pow2_param_1];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd5, %r1, 8;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.u64 %rd7, [%rd6];
    cvt.u32.u64 %r2, %rd7;
    mul.wide.u32 %rd8, %r1, 16;
    add.s64 %rd9, %rd4, %rd8;
    shr.s32 %r3, %r2, 31;
    shr.u32 %r4, %r3, 28;
    add.s32 %r5, %r2, %r4;
    shr.s32 %r6, %r5, 4;
    cvt.s64.s32 %rd10, %r6;
    st.global.u64 [%rd9], %rd10;
    shr.u32 %r7, %r2, 31;
    shr.s32 %r8, %r2, 31;
    shr.u32 %r9, %r8, 31;
    add.s32 %r10, %r2, %r9;
    shr.s32 %r11, %r10, 1;
    cvt.s64.s32 %rd11, %r11;
    st.global.u64 [%rd9+8], %rd11;
    ret;
}
"#;

#[test]
fn a_signed_division_by_a_power_of_two_becomes_exact_division() {
    let p = lower(POW2);
    assert_eq!(count(&p, BinaryOp::Div), 2);
    let mut xs = inputs();
    xs.extend([
        0,
        1,
        15,
        16,
        17,
        (-1i64) as u64,
        (-15i64) as u64,
        (-16i64) as u64,
    ]);
    xs.extend([(-17i64) as u64, i32::MIN as u32 as u64, i32::MAX as u64]);
    let out = run(&p, &xs, 2);
    for (t, &x) in xs.iter().enumerate() {
        let x = x as u32 as i32;
        assert_eq!(out[2 * t] as i64, i64::from(x / 16), "x = {x}");
        assert_eq!(out[2 * t + 1] as i64, i64::from(x / 2), "x = {x}");
    }
    // A bias of the wrong width (2^3 − 1 before a shift by 4) is no division.
    let bad = lower(&POW2.replace("shr.u32 %r4, %r3, 28;", "shr.u32 %r4, %r3, 29;"));
    assert_eq!(count(&bad, BinaryOp::Div), 1);
}
