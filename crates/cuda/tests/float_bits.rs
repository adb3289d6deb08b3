//! Bit reinterpretations (`MathFn::Bits`) are emitted as CUDA's `__float_as_int` family
//! (`__double_as_longlong` for 64 bits, a C cast between same-width integers and halves),
//! and NVRTC (where installed) compiles the result without a warning.

use warpsafe_ir::Kernel;

fn kernel(src: &str) -> Kernel {
    let mut m = warpsafe_cuda_front::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    m.kernels.remove(0)
}

const SRC: &str = r#"
__global__ void exponent_bits(const float* x, const double* d, unsigned int* e, float* y,
                              long long* q, double* back, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) {
        unsigned int b = __float_as_uint(x[t]);
        e[t] = (b >> 23) & 0xffu;
        int r = (int)((b & 0x807fffffu) | (127u << 23));
        y[t] = __int_as_float(r) + __uint_as_float(b) * (float)__float_as_int(x[t]);
        long long bits = __double_as_longlong(d[t]);
        q[t] = bits;
        back[t] = __longlong_as_double(bits + 1);
    }
}
"#;

#[test]
fn reinterpretations_are_emitted_as_the_intrinsics_and_compile() {
    let k = kernel(SRC);
    let text = warpsafe_cuda::generate(&k).expect("codegen");
    for f in [
        "__float_as_uint(",
        "__int_as_float(",
        "__uint_as_float(",
        "__float_as_int(",
        "__double_as_longlong(",
        "__longlong_as_double(",
    ] {
        assert!(text.contains(f), "{f} missing:\n{text}");
    }
    if warpsafe_cuda::nvrtc_path().is_ok() {
        let out = warpsafe_cuda::compile_ptx(&text, &Default::default())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert!(
            out.log.trim().is_empty(),
            "NVRTC warnings:\n{}\n{text}",
            out.log
        );
        // A reinterpretation is a register move, never a conversion.
        assert!(!out.ptx.contains("cvt.rn.f32.u32"), "{}", out.ptx);
    }
}

#[test]
fn unsigned_and_half_reinterpretations_compile() {
    use warpsafe_ir::{BinOp, Expr, ScalarType as T, StmtKind, Value, F16};
    // Every kind of same-width pair renders to C that NVRTC accepts: the sum of each
    // reinterpretation, widened to u64, is stored.
    let mut k = kernel("__global__ void k(unsigned long long* o) { o[0] = 1ull; }");
    let pairs = [
        (Value::F64(1.5), T::U64),
        (Value::U64(7), T::F64),
        (Value::I32(-1), T::U32),
        (Value::U16(0x3c00), T::F16),
        (Value::F16(F16::from_f64(2.0)), T::I16),
    ];
    let sum = pairs
        .into_iter()
        .map(|(v, to)| Expr::constant(v).bits_as(to).cast(T::U64))
        .reduce(|a, b| Expr::binary(BinOp::Add, a, b))
        .expect("pairs");
    let StmtKind::Store { value, .. } = &mut k.body[0].kind else {
        panic!("the first statement is the store: {:?}", k.body[0].kind)
    };
    *value = sum;
    let text = warpsafe_cuda::generate(&k).expect("codegen");
    assert!(text.contains("__longlong_as_double((long long)"), "{text}");
    assert!(
        text.contains("((unsigned long long)__double_as_longlong("),
        "{text}"
    );
    if warpsafe_cuda::nvrtc_path().is_ok() {
        let out = warpsafe_cuda::compile_ptx(&text, &Default::default())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert!(
            out.log.trim().is_empty(),
            "NVRTC warnings:\n{}\n{text}",
            out.log
        );
    }
}
