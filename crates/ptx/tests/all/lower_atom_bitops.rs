//! PTX `atom`/`red` with `.and`, `.or`, `.xor` (`.b32`, `.b64`) and `.inc`, `.dec` (`.u32`)
//! lower to the interpreter's atomics with PTX's (= CUDA's) semantics, checked against Rust;
//! the forms PTX does not define are errors naming the operation.

use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::ScalarType;

const BITOPS: &str = r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry bits(
    .param .u64 bits_param_0,
    .param .u64 bits_param_1,
    .param .u64 bits_param_2
)
{
    .reg .b32 %r<16>;
    .reg .b64 %rd<16>;

    ld.param.u64 %rd1, [bits_param_0];
    ld.param.u64 %rd2, [bits_param_1];
    ld.param.u64 %rd3, [bits_param_2];
    cvta.to.global.u64 %rd4, %rd1;
    cvta.to.global.u64 %rd5, %rd2;
    cvta.to.global.u64 %rd6, %rd3;
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 31;
    mov.u32 %r3, 1;
    shl.b32 %r4, %r3, %r2;
    atom.global.or.b32 %r5, [%rd4], %r4;
    not.b32 %r6, %r4;
    red.global.and.b32 [%rd4+4], %r6;
    atom.global.xor.b32 %r7, [%rd4+8], %r4;
    atom.global.inc.u32 %r8, [%rd4+12], 5;
    atom.global.dec.u32 %r9, [%rd4+16], 9;
    mov.b64 %rd7, 1;
    shl.b64 %rd8, %rd7, %r1;
    atom.global.or.b64 %rd9, [%rd5], %rd8;
    mul.wide.u32 %rd10, %r1, 8;
    add.s64 %rd11, %rd6, %rd10;
    st.global.u32 [%rd11], %r8;
    st.global.u32 [%rd11+4], %r9;
    ret;
}
"#;

fn inc(old: u32, v: u32) -> u32 {
    if old >= v {
        0
    } else {
        old + 1
    }
}

fn dec(old: u32, v: u32) -> u32 {
    if old == 0 || old > v {
        v
    } else {
        old - 1
    }
}

#[test]
fn atom_and_or_xor_inc_dec_compute_like_cuda() {
    let m = warpsafe_ptx::parse(BITOPS).expect("parses");
    let p = warpsafe_ptx::lower(&m, None).expect("lowers");
    let n = 64usize;
    let (xor0, inc0, dec0) = (0x1234_5678u32, 0u32, 3u32);
    let args = vec![
        Arg::Buffer(Buffer::from_u32(&[0, u32::MAX, xor0, inc0, dec0])),
        Arg::Buffer(Buffer::from_u64(&[0])),
        Arg::Buffer(Buffer::zeros(ScalarType::U32, 2 * n)),
    ];
    let out = warpsafe_exec::run_program(
        &p,
        &LaunchConfig::linear(1, n as u32),
        args,
        &Options::default(),
    )
    .expect("runs");
    assert!(out.findings.is_empty(), "{:#?}", out.findings);
    let buf = |i: usize| match &out.args[i] {
        Arg::Buffer(b) => b.clone(),
        Arg::Scalar(_) => unreachable!(),
    };
    let cells = buf(0).to_u32();
    // Every bit of the 32 is or-ed in (twice), and-ed out, and flipped twice.
    let (mut inc_end, mut dec_end) = (inc0, dec0);
    let (mut inc_olds, mut dec_olds) = (vec![], vec![]);
    for _ in 0..n {
        inc_olds.push(inc_end);
        dec_olds.push(dec_end);
        inc_end = inc(inc_end, 5);
        dec_end = dec(dec_end, 9);
    }
    assert_eq!(cells, [u32::MAX, 0, xor0, inc_end, dec_end]);
    assert_eq!(buf(1).to_u64(), [u64::MAX]);
    // All threads use the same bound, so the old values are the counter's sequence in some
    // order of the threads.
    let olds = buf(2).to_u32();
    let mut got_inc: Vec<u32> = (0..n).map(|t| olds[2 * t]).collect();
    let mut got_dec: Vec<u32> = (0..n).map(|t| olds[2 * t + 1]).collect();
    got_inc.sort_unstable();
    got_dec.sort_unstable();
    inc_olds.sort_unstable();
    dec_olds.sort_unstable();
    assert_eq!(got_inc, inc_olds);
    assert_eq!(got_dec, dec_olds);
}

fn lower_err(body: &str) -> String {
    let text = format!(
        ".version 9.5\n.target sm_90\n.address_size 64\n\n.visible .entry k(\n    .param .u64 k_param_0\n)\n{{\n    .reg .b32 %r<8>;\n    .reg .f32 %f<4>;\n    .reg .b64 %rd<8>;\n    ld.param.u64 %rd1, [k_param_0];\n    cvta.to.global.u64 %rd2, %rd1;\n{body}\n    ret;\n}}\n"
    );
    let m = warpsafe_ptx::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    match warpsafe_ptx::lower(&m, None) {
        Ok(_) => panic!("lowering should fail:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn forms_ptx_does_not_define_are_errors() {
    let e = lower_err("    atom.global.inc.s32 %r1, [%rd2], 5;");
    assert!(e.contains("atomicInc is not defined on i32"), "{e}");
    let e = lower_err("    atom.global.dec.u64 %rd3, [%rd2], 5;");
    assert!(e.contains("atomicDec is not defined on u64"), "{e}");
    let e = lower_err("    atom.global.or.f32 %f1, [%rd2], %f2;");
    assert!(e.contains("atomicOr is not defined on f32"), "{e}");
}
