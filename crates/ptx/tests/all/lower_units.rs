//! Lowering hand-written PTX without a source signature: pointer parameters found by use,
//! element types from accesses, and the less common instructions checked against Rust.

use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{ParamKind, ScalarType, Value};

const FEATURES: &str = r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry feat(
    .param .u64 feat_param_0,
    .param .u64 feat_param_1,
    .param .u64 feat_param_2,
    .param .u32 feat_param_3
)
{
    .reg .pred %p<4>;
    .reg .f32 %f<8>;
    .reg .b32 %r<24>;
    .reg .b64 %rd<24>;
    .shared .align 16 .b8 buf[512];

    ld.param.u64 %rd1, [feat_param_0];
    ld.param.u64 %rd2, [feat_param_1];
    ld.param.u64 %rd3, [feat_param_2];
    ld.param.u32 %r1, [feat_param_3];
    cvta.to.global.u64 %rd4, %rd1;
    cvta.to.global.u64 %rd5, %rd2;
    cvta.to.global.u64 %rd6, %rd3;
    mov.u32 %r2, %tid.x;
    mul.wide.u32 %rd7, %r2, 16;
    add.s64 %rd8, %rd5, %rd7;
    ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd8];
    add.f32 %f5, %f1, %f2;
    add.f32 %f5, %f5, %f3;
    add.f32 %f5, %f5, %f4;
    cvt.rmi.s32.f32 %r3, %f5;
    mul.wide.u32 %rd9, %r2, 64;
    add.s64 %rd10, %rd4, %rd9;
    cvt.s64.s32 %rd11, %r3;
    st.global.u64 [%rd10], %rd11;
    cvt.u64.u32 %rd12, %r2;
    mul.lo.s64 %rd13, %rd12, -7046029254386353131;
    cvt.u64.u32 %rd14, %r1;
    add.s64 %rd13, %rd13, %rd14;
    mul.hi.u64 %rd15, %rd13, -4417276706812531889;
    st.global.u64 [%rd10+8], %rd15;
    mul.lo.s32 %r4, %r2, -1640531535;
    popc.b32 %r5, %r4;
    cvt.u64.u32 %rd16, %r5;
    st.global.u64 [%rd10+16], %rd16;
    and.b32 %r6, %r2, 1;
    setp.eq.s32 %p1, %r6, 1;
    setp.lt.and.f32 %p2, %f1, %f2, %p1;
    selp.u64 %rd17, 7, 9, %p2;
    st.global.u64 [%rd10+24], %rd17;
    atom.global.add.u32 %r7, [%rd6], 1;
    red.global.add.u32 [%rd6], 2;
    shl.b32 %r8, %r2, 3;
    mov.u32 %r9, buf;
    add.s32 %r10, %r9, %r8;
    st.shared.v2.u32 [%r10], {%r2, %r1};
    ld.shared.u32 %r11, [%r10+4];
    mul.hi.s32 %r12, %r11, -1000000;
    cvt.s64.s32 %rd18, %r12;
    @!%p1 st.global.u64 [%rd10+32], %rd18;
    bfi.b32 %r20, %r2, %r4, 6, 26;
    cvt.u64.u32 %rd20, %r20;
    st.global.u64 [%rd10+40], %rd20;
    ret;
}
"#;

#[test]
fn standalone_kernel_infers_buffers_and_computes_like_rust() {
    let m = warpsafe_ptx::parse(FEATURES).expect("parses");
    let p = warpsafe_ptx::lower(&m, None).expect("lowers");
    let kinds: Vec<ParamKind> = p.kernel().params.iter().map(|q| q.kind).collect();
    assert_eq!(
        kinds,
        [
            ParamKind::Buffer {
                elem: ScalarType::U64,
                writable: true
            },
            ParamKind::Buffer {
                elem: ScalarType::F32,
                writable: false
            },
            ParamKind::Buffer {
                elem: ScalarType::U32,
                writable: true
            },
            ParamKind::Scalar(ScalarType::U32),
        ]
    );
    let n = 64usize;
    let k = 12345u32;
    let input: Vec<f32> = (0..4 * n).map(|i| (i as f32 * 0.37).sin() * 5.0).collect();
    let args = vec![
        Arg::Buffer(Buffer::zeros(ScalarType::U64, 8 * n)),
        Arg::Buffer(Buffer::from_f32(&input)),
        Arg::Buffer(Buffer::zeros(ScalarType::U32, 1)),
        Arg::Scalar(Value::U32(k)),
    ];
    let out = warpsafe_exec::run_program(
        &p,
        &LaunchConfig::linear(1, n as u32),
        args,
        &Options::default(),
    )
    .expect("runs");
    assert!(out.findings.is_empty(), "{:#?}", out.findings);
    let Arg::Buffer(o) = &out.args[0] else {
        unreachable!()
    };
    let o = o.to_u64();
    let Arg::Buffer(c) = &out.args[2] else {
        unreachable!()
    };
    assert_eq!(c.to_u32(), [3 * n as u32]);
    for t in 0..n {
        let f = &input[4 * t..4 * t + 4];
        let sum = ((f[0] + f[1]) + f[2]) + f[3];
        assert_eq!(
            o[8 * t],
            sum.floor() as i32 as i64 as u64,
            "floor, thread {t}"
        );
        let x = (t as u64)
            .wrapping_mul(-7046029254386353131i64 as u64)
            .wrapping_add(k as u64);
        let hi = ((x as u128 * (-4417276706812531889i64 as u64) as u128) >> 64) as u64;
        assert_eq!(o[8 * t + 1], hi, "mul.hi.u64, thread {t}");
        let pop = (t as u32).wrapping_mul(-1640531535i32 as u32).count_ones();
        assert_eq!(o[8 * t + 2], pop as u64, "popc, thread {t}");
        let sel = if f[0] < f[1] && t % 2 == 1 { 7 } else { 9 };
        assert_eq!(o[8 * t + 3], sel, "setp.and/selp, thread {t}");
        let hi32 = if t % 2 == 0 {
            (((k as i32 as i64) * -1_000_000) >> 32) as i32 as i64 as u64
        } else {
            0
        };
        assert_eq!(o[8 * t + 4], hi32, "mul.hi.s32 under @!p, thread {t}");
        let b = (t as u32).wrapping_mul(-1640531535i32 as u32);
        let bfi = (b & 0x3f) | ((t as u32) << 6);
        assert_eq!(
            o[8 * t + 5],
            bfi as u64,
            "bfi.b32 (pos 6, len 26), thread {t}"
        );
    }
}

fn kernel(body: &str, regs: &str) -> String {
    format!(
        ".version 9.5\n.target sm_90\n.address_size 64\n\n.visible .entry k(\n    .param .u64 k_param_0\n)\n{{\n{regs}\n{body}\n}}\n"
    )
}

fn lower_err(body: &str) -> warpsafe_ptx::LowerError {
    let text = kernel(
        body,
        "    .reg .pred %p<4>;\n    .reg .f32 %f<4>;\n    .reg .b32 %r<8>;\n    .reg .b64 %rd<8>;\n    .shared .align 8 .b8 s[64];",
    );
    let m = warpsafe_ptx::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    match warpsafe_ptx::lower(&m, None) {
        Ok(_) => panic!("lowering should fail:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn unsupported_constructs_are_errors_naming_instruction_and_line() {
    let e = lower_err("    vote.all.pred %p1, %p2;\n    ret;");
    assert!(e.message.contains("vote"), "{e}");
    assert_eq!(e.line, 14, "{e}");
    let e = lower_err("    div.rz.s32 %r1, %r2, %r3;\n    ret;");
    assert!(e.message.contains("div.rz.s32"), "{e}");
    let e = lower_err("    bra $L__nowhere;");
    assert!(e.message.contains("$L__nowhere"), "{e}");
    // A pointer loaded from memory has no provenance warpsafe can follow.
    let e = lower_err(
        "    ld.param.u64 %rd1, [k_param_0];\n    ld.global.u64 %rd2, [%rd1];\n    ld.global.f32 %f1, [%rd2];\n    ret;",
    );
    assert!(e.message.contains("cannot tell which buffer"), "{e}");
    assert_eq!(e.line, 16, "{e}");
    let e = lower_err(
        "    mov.u32 %r1, s;\n    st.shared.u32 [%r1], %r2;\n    st.shared.u64 [%r1+8], %rd1;\n    ret;",
    );
    assert!(e.message.contains("8-byte"), "{e}");
    let e = lower_err("    bar.sync %r1;\n    ret;");
    assert!(e.message.contains("barrier number"), "{e}");
    let e = lower_err("    cvt.rni.f32.f64 %f1, %f2;\n    ret;");
    assert!(e.message.contains("rni"), "{e}");
    let e = lower_err("    mul.sat.s32 %r1, %r2, %r3;\n    ret;");
    assert!(e.message.contains("mul.sat.s32"), "{e}");
    let e = lower_err("    add.s32 %r1, %r9, 1;\n    ret;");
    assert!(e.message.contains("%r9"), "{e}");
    let e = lower_err("    add.f16x2 %r1, %r2, %r3;\n    ret;");
    assert!(e.message.contains("f16x2"), "{e}");
}

#[test]
fn dynamic_shared_and_local_depot_lower_to_allocations() {
    let text = r#"
.version 9.5
.target sm_90
.address_size 64
.extern .shared .align 16 .b8 dyn[];

.visible .entry k(
    .param .u64 k_param_0
)
{
    .local .align 4 .b8 __local_depot0[16];
    .reg .b64 %SP;
    .reg .b64 %SPL;
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;

    mov.u64 %SPL, __local_depot0;
    ld.param.u64 %rd1, [k_param_0];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 2;
    mov.u32 %r3, dyn;
    add.s32 %r4, %r3, %r2;
    st.shared.u32 [%r4], %r1;
    bar.sync 0;
    ld.shared.u32 %r5, [dyn];
    add.u64 %rd3, %SPL, 4;
    st.local.u32 [%rd3], %r5;
    ld.local.u32 %r6, [%SPL+4];
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd5, %rd2, %rd4;
    add.s32 %r7, %r6, %r1;
    st.global.u32 [%rd5], %r7;
    ret;
}
"#;
    let m = warpsafe_ptx::parse(text).expect("parses");
    let p = warpsafe_ptx::lower(&m, None).expect("lowers");
    assert!(p.kernel().shared.iter().any(|a| a.dynamic));
    let mut cfg = LaunchConfig::linear(1, 32);
    cfg.dynamic_shared_bytes = 128;
    let args = vec![Arg::Buffer(Buffer::zeros(ScalarType::U32, 32))];
    let out = warpsafe_exec::run_program(&p, &cfg, args, &Options::default()).expect("runs");
    assert!(out.findings.is_empty(), "{:#?}", out.findings);
    let Arg::Buffer(b) = &out.args[0] else {
        unreachable!()
    };
    assert_eq!(b.to_u32(), (0..32).collect::<Vec<u32>>());
    // Too little dynamic shared memory: thread 31 writes past the end.
    cfg.dynamic_shared_bytes = 64;
    let args = vec![Arg::Buffer(Buffer::zeros(ScalarType::U32, 32))];
    let out = warpsafe_exec::run_program(&p, &cfg, args, &Options::default()).expect("runs");
    assert!(out
        .findings
        .iter()
        .any(|f| f.category == warpsafe_ir::Category::Oob));
}
