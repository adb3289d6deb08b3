//! Gaps of the PTX road found on nvcc 13.0 output (`nvcc -ptx -O3 -arch=sm_80`) of the
//! test kernels, closed, each on a small hand-written module in nvcc's style: a register
//! written both as a float and as the integer of its width (a float read through a `.u32`
//! element), a ballot (whose shuffle lowering wrote one register as a predicate and as a word;
//! now the thread code's own vote), registers of inline `asm` blocks, and
//! a `__constant__` array, a buffer parameter of the source kernel but a module-scope
//! `.const` variable of the PTX. Each is lowered under its source signature and lifted; the
//! PTX program and the lifted IR run on the interpreter with the same outputs, clean on the
//! correct kernel and with the bug found on its buggy twin.

use warpsafe_exec::{compile, run_program, Arg, Buffer, LaunchConfig, Options, Outcome, Program};
use warpsafe_ir::{Category, Kernel, Value};

fn signature(cu: &str) -> Kernel {
    warpsafe_cuda_front::compile(cu)
        .unwrap_or_else(|e| panic!("{e:?}"))
        .kernels[0]
        .clone()
}

fn lower(ptx: &str, sig: &Kernel) -> Result<Program, warpsafe_ptx::LowerError> {
    let module = warpsafe_ptx::parse(ptx).unwrap_or_else(|e| panic!("{e}\n{ptx}"));
    warpsafe_ptx::lower_with(
        &module,
        &warpsafe_ptx::LowerOptions {
            entry: None,
            signature: Some(sig),
            source: Some(ptx),
        },
    )
}

fn run(p: &Program, launch: &LaunchConfig, args: &[Arg]) -> Outcome {
    run_program(p, launch, args.to_vec(), &Options::default()).expect("runs")
}

/// Lowers and lifts `ptx`, runs both forms and checks they agree (outputs bit for bit, and
/// finding categories); returns the PTX program's outcome.
fn both(ptx: &str, sig: &Kernel, launch: LaunchConfig, args: Vec<Arg>) -> Outcome {
    let program = lower(ptx, sig).unwrap_or_else(|e| panic!("lowers: {e}"));
    let lifted = warpsafe_ptx::lift(&program).unwrap_or_else(|e| panic!("lifts: {e}"));
    let lifted = compile(&lifted).expect("the lifted IR lowers");
    let a = run(&program, &launch, &args);
    let b = run(&lifted, &launch, &args);
    for (i, (x, y)) in a.args.iter().zip(&b.args).enumerate() {
        if let (Arg::Buffer(x), Arg::Buffer(y)) = (x, y) {
            assert_eq!(x.data, y.data, "buffer #{i} differs");
        }
    }
    let cats = |o: &Outcome| {
        let mut c: Vec<Category> = o.findings.iter().map(|f| f.category).collect();
        c.sort_by_key(|c| format!("{c:?}"));
        c.dedup();
        c
    };
    assert_eq!(cats(&a), cats(&b), "findings differ");
    a
}

fn has(o: &Outcome, c: Category) -> bool {
    o.findings.iter().any(|f| f.category == c)
}

fn out(o: &Outcome, k: usize) -> Vec<u64> {
    match &o.args[k] {
        Arg::Buffer(b) => b.data.clone(),
        a => panic!("argument {k} is {a:?}"),
    }
}

const PICK_CU: &str = r#"
//@ len(in) = n
//@ len(out) = n
__global__ void pick(const unsigned* in, float* out, int n, float dflt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = (i & 1) ? dflt : __uint_as_float(in[i]);
        out[i] = v + v;
    }
}
"#;

/// `%f2` is written by `mov.f32` from the float parameter and by an `.f32` load of the
/// `unsigned` buffer (whose element type the load's value takes): one register, f32 and u32.
const PICK_PTX: &str = r#"
.version 9.0
.target sm_80
.address_size 64

	// .globl	_Z4pickPKjPfif

.visible .entry _Z4pickPKjPfif(
	.param .u64 _Z4pickPKjPfif_param_0,
	.param .u64 _Z4pickPKjPfif_param_1,
	.param .u32 _Z4pickPKjPfif_param_2,
	.param .f32 _Z4pickPKjPfif_param_3
)
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<4>;
	.reg .b32 	%r<7>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [_Z4pickPKjPfif_param_0];
	ld.param.u64 	%rd2, [_Z4pickPKjPfif_param_1];
	ld.param.u32 	%r1, [_Z4pickPKjPfif_param_2];
	ld.param.f32 	%f1, [_Z4pickPKjPfif_param_3];
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.s32 	%r5, %r2, %r3, %r4;
	setp.ge.s32 	%p1, %r5, %r1;
	@%p1 bra 	$L__BB0_4;

	and.b32  	%r6, %r5, 1;
	setp.ne.s32 	%p2, %r6, 0;
	cvta.to.global.u64 	%rd3, %rd1;
	mul.wide.s32 	%rd4, %r5, 4;
	mov.f32 	%f2, %f1;
	@%p2 bra 	$L__BB0_3;

	add.s64 	%rd5, %rd3, %rd4;
	ld.global.nc.f32 	%f2, [%rd5];

$L__BB0_3:
	cvta.to.global.u64 	%rd6, %rd2;
	add.s64 	%rd7, %rd6, %rd4;
	add.f32 	%f3, %f2, %f2;
	st.global.f32 	[%rd7], %f3;

$L__BB0_4:
	ret;

}
"#;

#[test]
fn a_register_written_as_float_and_as_word_holds_the_bits() {
    let sig = signature(PICK_CU);
    let n = 6usize;
    let xs: Vec<f32> = (0..n).map(|i| i as f32 * 1.5 - 2.0).collect();
    let args = || {
        vec![
            Arg::Buffer(Buffer {
                elem: warpsafe_ir::ScalarType::U32,
                data: xs.iter().map(|x| u64::from(x.to_bits())).collect(),
            }),
            Arg::Buffer(Buffer::from_f32(&[0.0; 6])),
            Arg::Scalar(Value::I32(n as i32)),
            Arg::Scalar(Value::F32(0.25)),
        ]
    };
    let o = both(PICK_PTX, &sig, LaunchConfig::linear(1, 8), args());
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    let want: Vec<u64> = (0..n)
        .map(|i| {
            let v = if i % 2 == 1 { 0.25 } else { xs[i] };
            u64::from((v + v).to_bits())
        })
        .collect();
    assert_eq!(out(&o, 1), want);

    // The twin lets thread n through (`i <= n`): it reads `in[n]` and writes `out[n]`.
    let buggy = PICK_PTX.replace("setp.ge.s32 \t%p1", "setp.gt.s32 \t%p1");
    assert_ne!(buggy, PICK_PTX);
    let o = both(&buggy, &sig, LaunchConfig::linear(1, 8), args());
    assert!(has(&o, Category::Oob), "{:?}", o.findings);
}

const BALLOT_CU: &str = r#"
//@ len(x) = 32
//@ len(mask) = 1
//@ requires blockDim.x == 32
__global__ void positives(const int* x, unsigned* mask) {
    unsigned b = __ballot_sync(0xffffffffu, x[threadIdx.x] > 0);
    if (threadIdx.x == 0) mask[0] = b;
}
"#;

const BALLOT_PTX: &str = r#"
.version 9.0
.target sm_80
.address_size 64

	// .globl	_Z9positivesPKiPj

.visible .entry _Z9positivesPKiPj(
	.param .u64 _Z9positivesPKiPj_param_0,
	.param .u64 _Z9positivesPKiPj_param_1
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<7>;

	ld.param.u64 	%rd1, [_Z9positivesPKiPj_param_0];
	ld.param.u64 	%rd2, [_Z9positivesPKiPj_param_1];
	cvta.to.global.u64 	%rd3, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.nc.u32 	%r2, [%rd5];
	setp.gt.s32 	%p1, %r2, 0;
	mov.u32 	%r3, -1;
	vote.sync.ballot.b32 	%r4, %p1, %r3;
	setp.ne.s32 	%p2, %r1, 0;
	@%p2 bra 	$L__BB0_2;

	cvta.to.global.u64 	%rd6, %rd2;
	st.global.u32 	[%rd6], %r4;

$L__BB0_2:
	ret;

}
"#;

#[test]
fn a_ballot_lifts_and_its_racy_twin_is_found() {
    let sig = signature(BALLOT_CU);
    let xs: Vec<i32> = (0..32).map(|i| if i % 3 == 0 { 5 } else { -i }).collect();
    let args = || {
        vec![
            Arg::Buffer(Buffer {
                elem: warpsafe_ir::ScalarType::I32,
                data: xs.iter().map(|&v| u64::from(v as u32)).collect(),
            }),
            Arg::Buffer(Buffer {
                elem: warpsafe_ir::ScalarType::U32,
                data: vec![0],
            }),
        ]
    };
    let o = both(BALLOT_PTX, &sig, LaunchConfig::linear(1, 32), args());
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    let mask = (0..32).filter(|&i| xs[i] > 0).fold(0u64, |m, i| m | 1 << i);
    assert_eq!(out(&o, 1), vec![mask]);

    // The twin lets lanes 0 and 1 both store: a race on `mask[0]`.
    let buggy = BALLOT_PTX.replace("setp.ne.s32 \t%p2, %r1, 0", "setp.gt.u32 \t%p2, %r1, 1");
    assert_ne!(buggy, BALLOT_PTX);
    let o = both(&buggy, &sig, LaunchConfig::linear(1, 32), args());
    assert!(has(&o, Category::Race), "{:?}", o.findings);
}

const CONV_CU: &str = r#"
//@ len(in) = n
//@ len(out) = n
//@ len(filter) = 3
__global__ void conv(const float* in, float* out, int n, const float* filter) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0.0f;
        for (int k = 0; k < 3; ++k) s += filter[k] * in[i];
        out[i] = s;
    }
}
"#;

/// nvcc's form of `__constant__ float filter[3]` read by a kernel of three parameters.
const CONV_PTX: &str = r#"
.version 9.0
.target sm_80
.address_size 64

	// .globl	_Z4convPKfPfi
.const .align 4 .b8 filter[12];

.visible .entry _Z4convPKfPfi(
	.param .u64 _Z4convPKfPfi_param_0,
	.param .u64 _Z4convPKfPfi_param_1,
	.param .u32 _Z4convPKfPfi_param_2
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<9>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [_Z4convPKfPfi_param_0];
	ld.param.u64 	%rd2, [_Z4convPKfPfi_param_1];
	ld.param.u32 	%r2, [_Z4convPKfPfi_param_2];
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %ctaid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r4, %r3, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;

	cvta.to.global.u64 	%rd3, %rd1;
	mul.wide.s32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.nc.f32 	%f1, [%rd5];
	ld.const.f32 	%f2, [filter];
	fma.rn.f32 	%f3, %f2, %f1, 0f00000000;
	ld.const.f32 	%f4, [filter+4];
	fma.rn.f32 	%f5, %f4, %f1, %f3;
	ld.const.f32 	%f6, [filter+8];
	fma.rn.f32 	%f7, %f6, %f1, %f5;
	cvta.to.global.u64 	%rd6, %rd2;
	add.s64 	%rd7, %rd6, %rd4;
	st.global.f32 	[%rd7], %f7;

$L__BB0_2:
	ret;

}
"#;

#[test]
fn a_constant_array_is_the_source_parameter_of_its_name() {
    let sig = signature(CONV_CU);
    assert_eq!(sig.params.len(), 4);
    let args = || {
        vec![
            Arg::Buffer(Buffer::from_f32(&[1.0, 2.0, 3.0, 4.0])),
            Arg::Buffer(Buffer::from_f32(&[0.0; 4])),
            Arg::Scalar(Value::I32(4)),
            Arg::Buffer(Buffer::from_f32(&[0.5, 0.25, 2.0])),
        ]
    };
    let o = both(CONV_PTX, &sig, LaunchConfig::linear(1, 4), args());
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    let want: Vec<u64> = [1.0f32, 2.0, 3.0, 4.0]
        .iter()
        .map(|&x| {
            let s = 0.5f32.mul_add(x, 0.0);
            let s = 0.25f32.mul_add(x, s);
            u64::from(2.0f32.mul_add(x, s).to_bits())
        })
        .collect();
    assert_eq!(out(&o, 1), want);
    let program = lower(CONV_PTX, &sig).expect("lowers");
    assert_eq!(program.kernel().params[3].name, "filter");

    // The twin reads one element past the filter: found, against the PTX variable's size.
    let buggy = CONV_PTX.replace("[filter+8]", "[filter+12]");
    let o = both(&buggy, &sig, LaunchConfig::linear(1, 4), args());
    assert!(has(&o, Category::Oob), "{:?}", o.findings);

    // A variable whose declared size is not the contract's length is refused.
    let short = CONV_PTX.replace("filter[12]", "filter[8]");
    let e = lower(&short, &sig).expect_err("sizes differ");
    assert!(e.to_string().contains("filter"), "{e}");
    // A source parameter that names no module variable is refused.
    let renamed = CONV_PTX.replace("filter", "weights");
    let e = lower(&renamed, &sig).expect_err("no variable");
    assert!(e.to_string().contains("4 in its signature"), "{e}");
}

const ENDS_CU: &str = r#"
//@ len(x) = 64
//@ len(out) = 4
//@ requires blockDim.x == 64
__global__ void ends(const unsigned* x, unsigned* out) {
    unsigned lane = threadIdx.x % 32;
    unsigned w = threadIdx.x / 32;
    if (lane == 0) out[2 * w] = x[threadIdx.x];
    if (lane == 31) out[2 * w + 1] = x[threadIdx.x];
}
"#;

/// Two inline `asm` blocks, each declaring its own predicate `p` (written without `%`), as
/// nvcc passes `{ .reg .pred p; setp.eq.u32 p, %1, 0; selp.u32 %0, 1, 0, p; }` through.
const ENDS_PTX: &str = r#"
.version 9.0
.target sm_80
.address_size 64

	// .globl	_Z4endsPKjPj

.visible .entry _Z4endsPKjPj(
	.param .u64 _Z4endsPKjPj_param_0,
	.param .u64 _Z4endsPKjPj_param_1
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<9>;
	.reg .b64 	%rd<12>;

	ld.param.u64 	%rd1, [_Z4endsPKjPj_param_0];
	ld.param.u64 	%rd2, [_Z4endsPKjPj_param_1];
	cvta.to.global.u64 	%rd3, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.nc.u32 	%r2, [%rd5];
	// begin inline asm
	mov.u32 %r3, %laneid;
	// end inline asm
	// begin inline asm
	{
	.reg .pred p;
	setp.eq.u32 p, %r3, 0;
	selp.u32 %r4, 1, 0, p;
	}
	// end inline asm
	// begin inline asm
	{
	.reg .pred p;
	setp.eq.u32 p, %r3, 31;
	selp.u32 %r5, 1, 0, p;
	}
	// end inline asm
	shr.u32 	%r6, %r1, 5;
	shl.b32 	%r7, %r6, 1;
	setp.eq.s32 	%p1, %r4, 0;
	@%p1 bra 	$L__BB0_2;

	mul.wide.u32 	%rd6, %r7, 4;
	cvta.to.global.u64 	%rd7, %rd2;
	add.s64 	%rd8, %rd7, %rd6;
	st.global.u32 	[%rd8], %r2;

$L__BB0_2:
	setp.eq.s32 	%p2, %r5, 0;
	@%p2 bra 	$L__BB0_4;

	add.s32 	%r8, %r7, 1;
	mul.wide.u32 	%rd9, %r8, 4;
	cvta.to.global.u64 	%rd10, %rd2;
	add.s64 	%rd11, %rd10, %rd9;
	st.global.u32 	[%rd11], %r2;

$L__BB0_4:
	ret;

}
"#;

#[test]
fn inline_asm_blocks_declare_registers_of_their_own() {
    let sig = signature(ENDS_CU);
    let xs: Vec<u64> = (0..64).map(|i| 1000 + i * 7).collect();
    let args = || {
        vec![
            Arg::Buffer(Buffer {
                elem: warpsafe_ir::ScalarType::U32,
                data: xs.clone(),
            }),
            Arg::Buffer(Buffer {
                elem: warpsafe_ir::ScalarType::U32,
                data: vec![0; 4],
            }),
        ]
    };
    let o = both(ENDS_PTX, &sig, LaunchConfig::linear(1, 64), args());
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    assert_eq!(out(&o, 1), vec![xs[0], xs[31], xs[32], xs[63]]);

    // The twin's second block lets lanes 30 and 31 store: a race on `out[2w + 1]`.
    let buggy = ENDS_PTX.replace("setp.eq.u32 p, %r3, 31", "setp.hs.u32 p, %r3, 30");
    assert_ne!(buggy, ENDS_PTX);
    let o = both(&buggy, &sig, LaunchConfig::linear(1, 64), args());
    assert!(has(&o, Category::Race), "{:?}", o.findings);

    // Each block's test decides its own stores: lane 1 instead of lane 0 moves only the
    // first of each pair.
    let swapped = ENDS_PTX.replace("setp.eq.u32 p, %r3, 0", "setp.eq.u32 p, %r3, 1");
    let o = both(&swapped, &sig, LaunchConfig::linear(1, 64), args());
    assert_eq!(out(&o, 1), vec![xs[1], xs[31], xs[33], xs[63]]);
}
