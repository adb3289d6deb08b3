//! The lifting preserves meaning: NVRTC's PTX of a kernel, run as thread code, and the IR
//! lifted from that thread code, run by the interpreter, write the same outputs and find
//! the same bugs. Kernels in the idioms the lifting must handle: grid-stride loops,
//! unrolled tiled loops with pointer bumps, double-buffered shared memory, early returns,
//! a tree reduction and an out-of-bounds twin.

use warpsafe_exec::{compile, run_program, Arg, Buffer, LaunchConfig, Options, Outcome, Program};
use warpsafe_ir::{Kernel, StmtKind, Value};

fn nvrtc() -> bool {
    let ok = warpsafe_cuda::nvrtc_path().is_ok();
    if !ok {
        eprintln!("note: NVRTC not found; lifting tests skipped");
    }
    ok
}

/// The PTX program of the only kernel of `src`, and the IR lifted from it.
fn both(src: &str) -> (Program, Kernel) {
    let kernel = warpsafe_cuda_front::compile(src).expect("parses").kernels[0].clone();
    let cuda = warpsafe_cuda::generate(&kernel).expect("codegen");
    let ptx = warpsafe_cuda::compile_ptx(&cuda, &Default::default())
        .expect("NVRTC")
        .ptx;
    let module = warpsafe_ptx::parse(&ptx).expect("PTX parses");
    let program = warpsafe_ptx::lower_with(
        &module,
        &warpsafe_ptx::LowerOptions {
            entry: Some(&kernel.name),
            signature: Some(&kernel),
            source: Some(&ptx),
        },
    )
    .expect("lowers");
    let lifted = warpsafe_ptx::lift(&program).unwrap_or_else(|e| panic!("lifts: {e}"));
    (program, lifted)
}

fn floats(n: usize, seed: u32) -> Vec<f32> {
    (0..n)
        .map(|i| ((i as u32).wrapping_mul(2654435761).wrapping_add(seed) % 1000) as f32 / 250.0)
        .collect()
}

fn run(p: &Program, launch: &LaunchConfig, args: &[Arg]) -> Outcome {
    run_program(p, launch, args.to_vec(), &Options::default()).expect("runs")
}

/// Runs both forms on `args` and compares outputs (bit for bit) and finding categories.
fn same_behaviour(src: &str, launch: LaunchConfig, args: Vec<Arg>) -> Outcome {
    let (ptx, lifted) = both(src);
    let lifted_program = compile(&lifted).expect("the lifted IR lowers");
    let a = run(&ptx, &launch, &args);
    let b = run(&lifted_program, &launch, &args);
    for (i, (x, y)) in a.args.iter().zip(&b.args).enumerate() {
        match (x, y) {
            (Arg::Buffer(x), Arg::Buffer(y)) => assert_eq!(
                x.to_f32(),
                y.to_f32(),
                "buffer #{i} differs between the PTX and the lifted IR"
            ),
            (Arg::Scalar(_), Arg::Scalar(_)) => {}
            _ => panic!("argument kinds differ"),
        }
    }
    let cats = |o: &Outcome| {
        let mut c: Vec<String> = o.findings.iter().map(|f| f.category.to_string()).collect();
        c.sort();
        c.dedup();
        c
    };
    assert_eq!(cats(&a), cats(&b), "findings differ");
    a
}

const GRID_STRIDE: &str = r#"
__global__ void saxpy(int n, float a, const float* x, float* y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}
"#;

#[test]
fn grid_stride_loop() {
    if !nvrtc() {
        return;
    }
    let n = 1000;
    let args = vec![
        Arg::Scalar(Value::I32(n as i32)),
        Arg::Scalar(Value::F32(2.5)),
        Arg::Buffer(Buffer::from_f32(&floats(n, 1))),
        Arg::Buffer(Buffer::from_f32(&floats(n, 2))),
    ];
    let out = same_behaviour(GRID_STRIDE, LaunchConfig::linear(3, 64), args);
    assert!(out.findings.is_empty());
    let Arg::Buffer(y) = &out.args[3] else {
        panic!("y is a buffer")
    };
    let want: Vec<f32> = floats(n, 1)
        .iter()
        .zip(floats(n, 2))
        .map(|(x, y)| 2.5 * x + y)
        .collect();
    // NVRTC fuses `a * x[i] + y[i]` into one fma: equal up to the last bit.
    for (got, want) in y.to_f32().iter().zip(&want) {
        assert!(
            (got - want).abs() <= 1e-5 * want.abs().max(1.0),
            "{got} vs {want}"
        );
    }
}

const TREE_REDUCE: &str = r#"
__global__ void block_sum(const float* x, float* partial, int n)
{
    __shared__ float cache[128];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    cache[tid] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            cache[tid] += cache[tid + s];
        }
        __syncthreads();
    }
    if (tid != 0) {
        return;
    }
    partial[blockIdx.x] = cache[0];
}
"#;

#[test]
fn tree_reduction_with_early_return() {
    if !nvrtc() {
        return;
    }
    let n = 500;
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&floats(n, 3))),
        Arg::Buffer(Buffer::from_f32(&[0.0; 4])),
        Arg::Scalar(Value::I32(n as i32)),
    ];
    let out = same_behaviour(TREE_REDUCE, LaunchConfig::linear(4, 128), args);
    assert!(out.findings.is_empty());
    let Arg::Buffer(p) = &out.args[1] else {
        panic!("partial is a buffer")
    };
    let total: f32 = p.to_f32().iter().sum();
    let want: f32 = floats(n, 3).iter().sum();
    assert!(
        (total - want).abs() < 1e-2 * want.abs().max(1.0),
        "{total} vs {want}"
    );
}

const TILED: &str = r#"
#define TILE 8
__global__ void matmul(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            sum += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    C[row * n + col] = sum;
}
"#;

#[test]
fn tiled_matmul_with_unrolled_inner_loop() {
    if !nvrtc() {
        return;
    }
    let n = 16;
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&floats(n * n, 4))),
        Arg::Buffer(Buffer::from_f32(&floats(n * n, 5))),
        Arg::Buffer(Buffer::from_f32(&vec![0.0; n * n])),
        Arg::Scalar(Value::I32(n as i32)),
    ];
    let launch = LaunchConfig {
        grid: [2, 2, 1],
        block: [8, 8, 1],
        dynamic_shared_bytes: 0,
    };
    let out = same_behaviour(TILED, launch, args);
    assert!(out.findings.is_empty());
}

const DOUBLE_BUFFER: &str = r#"
__global__ void scan(const float* x, float* y, int n)
{
    __shared__ float buf[2 * 64];
    int tid = threadIdx.x;
    int pout = 0;
    int pin = 1;
    buf[tid] = tid < n ? x[tid] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        float v = buf[pin * 64 + tid];
        if (tid >= offset) {
            v += buf[pin * 64 + tid - offset];
        }
        buf[pout * 64 + tid] = v;
        __syncthreads();
    }
    if (tid < n) {
        y[tid] = buf[pout * 64 + tid];
    }
}
"#;

#[test]
fn double_buffered_scan() {
    if !nvrtc() {
        return;
    }
    let n = 50;
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&floats(n, 6))),
        Arg::Buffer(Buffer::from_f32(&vec![0.0; n])),
        Arg::Scalar(Value::I32(n as i32)),
    ];
    let out = same_behaviour(DOUBLE_BUFFER, LaunchConfig::linear(1, 64), args);
    assert!(out.findings.is_empty());
}

#[test]
fn an_out_of_bounds_twin_is_found_by_both() {
    if !nvrtc() {
        return;
    }
    // `<=` reads one element past the end.
    let src = GRID_STRIDE.replace("i < n;", "i <= n;");
    let n = 100;
    let args = vec![
        Arg::Scalar(Value::I32(n as i32)),
        Arg::Scalar(Value::F32(1.0)),
        Arg::Buffer(Buffer::from_f32(&floats(n, 7))),
        Arg::Buffer(Buffer::from_f32(&floats(n, 8))),
    ];
    let out = same_behaviour(&src, LaunchConfig::linear(2, 64), args);
    assert!(
        out.findings.iter().any(|f| f.category.to_string() == "oob"),
        "{:?}",
        out.findings
    );
}

#[test]
fn loops_are_recovered_as_loops() {
    if !nvrtc() {
        return;
    }
    let (_, lifted) = both(TREE_REDUCE);
    let mut loops = 0;
    let mut returns = 0;
    for s in &lifted.body {
        s.walk(&mut |x| match x.kind {
            StmtKind::DoWhile { .. } | StmtKind::For { .. } | StmtKind::While { .. } => loops += 1,
            StmtKind::Return => returns += 1,
            _ => {}
        });
    }
    assert_eq!(loops, 1, "{lifted}");
    assert_eq!(returns, 1, "{lifted}");
}

const WARP_SHUFFLE_BITS: &str = r#"
__global__ void warp_sum(const float* x, float* sums, unsigned int* expo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    if (threadIdx.x % 32 == 0) {
        sums[i / 32] = v;
        expo[i / 32] = __float_as_uint(v) >> 23;
    }
}
"#;

#[test]
fn a_float_shuffle_moves_bits_between_float_and_integer_registers() {
    if !nvrtc() {
        return;
    }
    // NVRTC shuffles a float as `mov.b32 %r, %f; shfl.sync.down.b32; mov.b32 %f, %r`: the
    // lifting reads those moves as bit reinterpretations (issue 17), exactly.
    let n = 100;
    let x = floats(n, 7);
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&x)),
        Arg::Buffer(Buffer::from_f32(&[0.0; 4])),
        Arg::Buffer(Buffer::from_u32(&[0; 4])),
        Arg::Scalar(Value::I32(n as i32)),
    ];
    let (_, lifted) = both(WARP_SHUFFLE_BITS);
    assert!(
        lifted.to_string().contains("bits."),
        "no reinterpretation in the lifted IR:\n{lifted}"
    );
    let out = same_behaviour(WARP_SHUFFLE_BITS, LaunchConfig::linear(1, 128), args);
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let (Arg::Buffer(s), Arg::Buffer(e)) = (&out.args[1], &out.args[2]) else {
        panic!("sums and exponents are buffers")
    };
    let (sums, expo) = (s.to_f32(), e.to_u32());
    for w in 0..4 {
        let want: f32 = x[(w * 32).min(n)..((w + 1) * 32).min(n)].iter().sum();
        assert!((sums[w] - want).abs() < 1e-3 * want.abs().max(1.0), "{w}");
        assert_eq!(expo[w], sums[w].to_bits() >> 23, "warp {w}");
    }
}

const UP_SWEEP: &str = r#"
__global__ void up_sweep(const unsigned* x, unsigned* y)
{
    __shared__ unsigned temp[256];
    int tid = threadIdx.x;
    int m = 2 * blockDim.x;
    temp[2 * tid] = x[2 * tid];
    temp[2 * tid + 1] = x[2 * tid + 1];
    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            temp[offset * (2 * tid + 2) - 1] += temp[offset * (2 * tid + 1) - 1];
        }
        offset *= 2;
    }
    __syncthreads();
    y[2 * tid] = temp[2 * tid];
    y[2 * tid + 1] = temp[2 * tid + 1];
}
"#;

/// NVRTC rotates the halving loop so that it tests the old counter (`f = d > 3; d >>= 1;
/// … while (f)`); the lifted loop tests the new one, and computes the same.
#[test]
fn a_rotated_halving_loop_tests_its_counter() {
    if !nvrtc() {
        return;
    }
    let x: Vec<u32> = (0..256).map(|i| (i * 7 + 3) % 101).collect();
    let args = vec![
        Arg::Buffer(Buffer::from_u32(&x)),
        Arg::Buffer(Buffer::from_u32(&[0; 256])),
    ];
    let out = same_behaviour(UP_SWEEP, LaunchConfig::linear(1, 128), args);
    assert!(out.findings.is_empty());
    let (_, lifted) = both(UP_SWEEP);
    let mut flag_tests = 0;
    for s in &lifted.body {
        s.walk(&mut |x| {
            if let StmtKind::DoWhile { cond, .. } = &x.kind {
                flag_tests += usize::from(matches!(cond.kind, warpsafe_ir::ExprKind::Var(_)));
            }
        });
    }
    assert_eq!(flag_tests, 0, "a loop still tests a flag");
}

const CHUNKS: &str = r#"
__global__ void scale(float* x, int n, int per_thread)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int begin = t * per_thread;
    int end = min(begin + per_thread, n);
    for (int i = begin; i < end; ++i) {
        x[i] *= 3.0f;
    }
}
"#;

/// A loop NVRTC unrolls by four, with a remainder loop counting down to zero.
#[test]
fn an_unrolled_loop_and_its_remainder() {
    if !nvrtc() {
        return;
    }
    for per_thread in [1, 3, 4, 7] {
        let n = 100;
        let args = vec![
            Arg::Buffer(Buffer::from_f32(&floats(n, 7))),
            Arg::Scalar(Value::I32(n as i32)),
            Arg::Scalar(Value::I32(per_thread)),
        ];
        let out = same_behaviour(CHUNKS, LaunchConfig::linear(1, 32), args);
        assert!(out.findings.is_empty());
    }
}

/// The signed additions in the lifted IR of the stores' values.
fn signed_sums_stored(k: &Kernel) -> usize {
    let mut n = 0;
    for s in &k.body {
        s.walk(&mut |s| {
            if let StmtKind::Store { value, .. } = &s.kind {
                value.walk(&mut |e| {
                    if let warpsafe_ir::ExprKind::Binary(warpsafe_ir::BinOp::Add, ..) = &e.kind {
                        n += usize::from(e.ty.is_signed());
                    }
                });
            }
        });
    }
    n
}

/// NVRTC's `add.s32` of two loaded values is the same instruction for `unsigned` and `int`
/// elements: the lifting reads it unsigned where the source adds memory contents only as
/// `unsigned` (no signed overflow to report), and keeps it signed for the `int` twin.
#[test]
fn sums_of_unsigned_contents_stay_unsigned() {
    if !nvrtc() {
        return;
    }
    let src = |t: &str, extra: &str| {
        format!(
            "__global__ void sum({t}* a, const {t}* b, int n)\n{{\n    int i = blockIdx.x * \
             blockDim.x + threadIdx.x;\n    if (i < n) {{\n        {extra}a[i] = a[i] + b[i] + 3;\n    }}\n}}\n"
        )
    };
    let (_, unsigned) = both(&src("unsigned", ""));
    assert_eq!(signed_sums_stored(&unsigned), 0, "{unsigned:?}");
    let (_, int) = both(&src("int", ""));
    assert!(signed_sums_stored(&int) > 0, "{int:?}");
    // One signed operation on contents anywhere in the source keeps every one signed.
    let (_, mixed) = both(&src(
        "unsigned",
        "int d = (int)b[i] * 2; a[0] = (unsigned)d; ",
    ));
    assert!(signed_sums_stored(&mixed) > 0, "{mixed:?}");
}
