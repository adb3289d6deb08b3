//! `bfe`, `clz` and `brev` run in the interpreter as the PTX ISA's pseudo-code defines them,
//! on edge and random inputs.

use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::ScalarType;

/// Thread `t`: `a = x[t]`, `pos = p[t]` (low byte), `len = p[t] >> 8` (low byte); nine
/// results at `out[9t..]` (the last a `bfe` with immediate position and length).
const BITS: &str = r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry bits(
    .param .u64 bits_param_0,
    .param .u64 bits_param_1,
    .param .u64 bits_param_2
)
{
    .reg .b32 %r<24>;
    .reg .b64 %rd<32>;

    ld.param.u64 %rd1, [bits_param_0];
    ld.param.u64 %rd2, [bits_param_1];
    ld.param.u64 %rd3, [bits_param_2];
    cvta.to.global.u64 %rd4, %rd1;
    cvta.to.global.u64 %rd5, %rd2;
    cvta.to.global.u64 %rd6, %rd3;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd7, %r1, 8;
    add.s64 %rd8, %rd4, %rd7;
    ld.global.u64 %rd9, [%rd8];
    add.s64 %rd10, %rd5, %rd7;
    ld.global.u64 %rd11, [%rd10];
    mul.wide.u32 %rd12, %r1, 72;
    add.s64 %rd13, %rd6, %rd12;
    cvt.u32.u64 %r2, %rd9;
    cvt.u32.u64 %r3, %rd11;
    shr.u32 %r4, %r3, 8;
    bfe.u32 %r5, %r2, %r3, %r4;
    cvt.u64.u32 %rd14, %r5;
    st.global.u64 [%rd13], %rd14;
    bfe.s32 %r6, %r2, %r3, %r4;
    cvt.s64.s32 %rd15, %r6;
    st.global.u64 [%rd13+8], %rd15;
    bfe.u64 %rd16, %rd9, %r3, %r4;
    st.global.u64 [%rd13+16], %rd16;
    bfe.s64 %rd17, %rd9, %r3, %r4;
    st.global.u64 [%rd13+24], %rd17;
    clz.b32 %r7, %r2;
    cvt.u64.u32 %rd18, %r7;
    st.global.u64 [%rd13+32], %rd18;
    clz.b64 %r8, %rd9;
    cvt.u64.u32 %rd19, %r8;
    st.global.u64 [%rd13+40], %rd19;
    brev.b32 %r9, %r2;
    cvt.u64.u32 %rd20, %r9;
    st.global.u64 [%rd13+48], %rd20;
    brev.b64 %rd21, %rd9;
    st.global.u64 [%rd13+56], %rd21;
    bfe.s32 %r10, %r2, 4, 12;
    cvt.s64.s32 %rd22, %r10;
    st.global.u64 [%rd13+64], %rd22;
    ret;
}
"#;

/// The PTX ISA's `bfe` pseudo-code, bit by bit.
fn bfe(a: u64, b: u32, c: u32, msb: u32, signed: bool) -> u64 {
    let bit = |k: u32| (a >> k) & 1;
    let (pos, len) = (b & 0xff, c & 0xff);
    let sbit = if !signed || len == 0 {
        0
    } else {
        bit((pos + len - 1).min(msb))
    };
    let mut d = 0u64;
    for i in 0..=msb {
        let v = if i < len && pos + i <= msb {
            bit(pos + i)
        } else {
            sbit
        };
        d |= v << i;
    }
    d
}

fn expected(x: u64, p: u64) -> [u64; 9] {
    let (a, b) = (x as u32, p as u32);
    let (pos, len) = (b, b >> 8);
    [
        bfe(a as u64, pos, len, 31, false),
        bfe(a as u64, pos, len, 31, true) as u32 as i32 as i64 as u64,
        bfe(x, pos, len, 63, false),
        bfe(x, pos, len, 63, true),
        a.leading_zeros() as u64,
        x.leading_zeros() as u64,
        a.reverse_bits() as u64,
        x.reverse_bits(),
        bfe(a as u64, 4, 12, 31, true) as u32 as i32 as i64 as u64,
    ]
}

#[test]
fn bit_field_instructions_compute_as_the_isa_says() {
    let mut xs: Vec<u64> = vec![
        0,
        1,
        u64::MAX,
        0x8000_0000,
        0x8000_0000_0000_0000,
        0xdead_beef,
    ];
    let mut ps: Vec<u64> = vec![0x0800, 0x2000, 0x0404, 0x1f01, 0x0120, 0x201f];
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed ^ (seed >> 31)
    };
    while xs.len() < 96 {
        xs.push(next() >> (next() % 64));
        // Positions and lengths around and past the widths, and the full 0..=255 byte range.
        let (pos, len) = (next() % 80, next() % 80);
        let p = if xs.len().is_multiple_of(5) {
            next()
        } else {
            pos | len << 8
        };
        ps.push(p);
    }
    let m = warpsafe_ptx::parse(BITS).expect("parses");
    let prog = warpsafe_ptx::lower(&m, None).expect("lowers");
    let n = xs.len();
    let args = vec![
        Arg::Buffer(Buffer::from_u64(&xs)),
        Arg::Buffer(Buffer::from_u64(&ps)),
        Arg::Buffer(Buffer::zeros(ScalarType::U64, 9 * n)),
    ];
    let out = warpsafe_exec::run_program(
        &prog,
        &LaunchConfig::linear(1, n as u32),
        args,
        &Options::default(),
    )
    .expect("runs");
    assert!(out.findings.is_empty(), "{:#?}", out.findings);
    let Arg::Buffer(o) = &out.args[2] else {
        unreachable!()
    };
    let o = o.to_u64();
    let names = [
        "bfe.u32",
        "bfe.s32",
        "bfe.u64",
        "bfe.s64",
        "clz.b32",
        "clz.b64",
        "brev.b32",
        "brev.b64",
        "bfe.s32 (immediates)",
    ];
    for t in 0..n {
        let want = expected(xs[t], ps[t]);
        for k in 0..9 {
            assert_eq!(
                o[9 * t + k],
                want[k],
                "{}: x = {:#x}, p = {:#x}",
                names[k],
                xs[t],
                ps[t]
            );
        }
    }
}
