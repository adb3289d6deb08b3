//! `expf` in NVRTC's form: the lowering turns the range-reduction sequence into `exp`, only
//! when every constant is the expected one and the input is not redefined; run concretely, the
//! rewritten and the plain programs agree with Rust's `exp`. `__expf` stays `ex2.approx`.

use warpsafe_exec::thread::code::Inst;
use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options, Program};
use warpsafe_ir::{MathFn, ScalarType};

/// `y[tid] = expf(x[tid])`, as NVRTC 13 compiles it for sm_90; `{EXTRA}` goes before the last
/// stage.
const EXPF: &str = r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry e(
    .param .u64 e_param_0,
    .param .u64 e_param_1
)
{
    .reg .f32 %f<18>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<8>;

    ld.param.u64 %rd1, [e_param_0];
    ld.param.u64 %rd2, [e_param_1];
    cvta.to.global.u64 %rd3, %rd2;
    cvta.to.global.u64 %rd4, %rd1;
    mov.u32 %r1, %tid.x;
    mul.wide.s32 %rd5, %r1, 4;
    add.s64 %rd6, %rd4, %rd5;
    ld.global.nc.f32 %f1, [%rd6];
    mov.f32 %f2, 0f3F000000;
    mov.f32 %f3, 0f3BBB989D;
    fma.rn.f32 %f4, %f1, %f3, %f2;
    cvt.sat.f32.f32 %f5, %f4;
    mov.f32 %f6, 0f4B400001;
    mov.f32 %f7, 0f437C0000;
    fma.rm.f32 %f8, %f5, %f7, %f6;
    add.f32 %f9, %f8, 0fCB40007F;
    neg.f32 %f10, %f9;
    mov.f32 %f11, 0f3FB8AA3B;
    fma.rn.f32 %f12, %f1, %f11, %f10;
    mov.f32 %f13, 0f32A57060;
    fma.rn.f32 %f14, %f1, %f13, %f12;
    mov.b32 %r2, %f8;
    shl.b32 %r3, %r2, 23;
    mov.b32 %f15, %r3;
    ex2.approx.ftz.f32 %f16, %f14;
{EXTRA}
    mul.f32 %f17, %f16, %f15;
    add.s64 %rd7, %rd3, %rd5;
    st.global.f32 [%rd7], %f17;
    ret;
}
"#;

/// `y[tid] = __expf(x[tid])`.
const FAST: &str = r#"
.version 9.5
.target sm_90
.address_size 64

.visible .entry e(
    .param .u64 e_param_0,
    .param .u64 e_param_1
)
{
    .reg .f32 %f<4>;
    .reg .b32 %r<2>;
    .reg .b64 %rd<8>;

    ld.param.u64 %rd1, [e_param_0];
    ld.param.u64 %rd2, [e_param_1];
    cvta.to.global.u64 %rd3, %rd2;
    cvta.to.global.u64 %rd4, %rd1;
    mov.u32 %r1, %tid.x;
    mul.wide.s32 %rd5, %r1, 4;
    add.s64 %rd6, %rd4, %rd5;
    ld.global.nc.f32 %f1, [%rd6];
    mul.f32 %f2, %f1, 0f3FB8AA3B;
    ex2.approx.ftz.f32 %f3, %f2;
    add.s64 %rd7, %rd3, %rd5;
    st.global.f32 [%rd7], %f3;
    ret;
}
"#;

fn lower(text: &str) -> Program {
    let m = warpsafe_ptx::parse(text).expect("parses");
    warpsafe_ptx::lower(&m, None).expect("lowers")
}

fn expf(extra: &str) -> Program {
    lower(&EXPF.replace("{EXTRA}", extra))
}

fn exps(p: &Program, f: MathFn) -> usize {
    p.code()
        .insts
        .iter()
        .filter(|i| matches!(i, Inst::Math { f: g, .. } if *g == f))
        .count()
}

fn inputs() -> Vec<f32> {
    (0..64).map(|k| -12.0 + 0.37 * k as f32).collect()
}

fn run(p: &Program, xs: &[f32]) -> Vec<f32> {
    let args = vec![
        Arg::Buffer(Buffer::from_f32(xs)),
        Arg::Buffer(Buffer::zeros(ScalarType::F32, xs.len())),
    ];
    let cfg = LaunchConfig::linear(1, xs.len() as u32);
    let out = warpsafe_exec::run_program(p, &cfg, args, &Options::default()).expect("runs");
    assert!(out.findings.is_empty(), "{:#?}", out.findings);
    match &out.args[1] {
        Arg::Buffer(o) => o.to_f32(),
        other => panic!("not a buffer: {other:?}"),
    }
}

fn close_to_exp(xs: &[f32], ys: &[f32]) {
    for (&x, &y) in xs.iter().zip(ys) {
        let want = (x as f64).exp();
        assert!(
            ((y as f64) - want).abs() <= 1e-5 * want,
            "exp({x}) = {want}, got {y}"
        );
    }
}

#[test]
fn the_expf_sequence_becomes_exp_and_computes_it() {
    let p = expf("");
    assert_eq!(exps(&p, MathFn::Exp), 1);
    close_to_exp(&inputs(), &run(&p, &inputs()));
}

#[test]
fn fast_exp_stays_as_the_hardware_computes_it() {
    let p = lower(FAST);
    assert_eq!(exps(&p, MathFn::Exp), 0);
    assert_eq!(exps(&p, MathFn::Exp2), 1);
    close_to_exp(&inputs(), &run(&p, &inputs()));
}

#[test]
fn the_plain_lowering_of_the_bit_trick_computes_exp_too() {
    // A wrong log2e/256 stops the rewrite; the reduction is then only less balanced, and the
    // plain instructions (shift of the float's bits included) still compute exp(x).
    let p = lower(
        &EXPF
            .replace("{EXTRA}", "")
            .replace("0f3BBB989D", "0f3BBB989E"),
    );
    assert_eq!(exps(&p, MathFn::Exp), 0);
    close_to_exp(&inputs(), &run(&p, &inputs()));
}

#[test]
fn a_wrong_constant_or_a_redefined_input_stops_the_rewrite() {
    let bad_unbias = lower(
        &EXPF
            .replace("{EXTRA}", "")
            .replace("0fCB40007F", "0fCB40007E"),
    );
    assert_eq!(exps(&bad_unbias, MathFn::Exp), 0);
    // exp(x) would be wrong here: one less taken out of the exponent before `ex2` than put
    // back after it, the program computes e^x / 2, and does so concretely.
    let ys = run(&bad_unbias, &inputs());
    for (&x, &y) in inputs().iter().zip(&ys) {
        let want = 0.5 * (x as f64).exp();
        assert!(
            ((y as f64) - want).abs() <= 1e-5 * want,
            "{x}: {y} vs {want}"
        );
    }
    let redefined = expf("    add.f32 %f1, %f1, 0f3F800000;");
    assert_eq!(exps(&redefined, MathFn::Exp), 0);
    let clobbered = expf("    mov.f32 %f15, 0f3F800000;");
    assert_eq!(exps(&clobbered, MathFn::Exp), 0);
    let join = expf("$L__join:");
    assert_eq!(exps(&join, MathFn::Exp), 0);
}
