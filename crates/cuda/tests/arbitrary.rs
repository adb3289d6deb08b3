//! Arbitrary values (`clock()`, `clock64()`, `__warpsafe_arbitrary_*()`, IR `Arbitrary`) are
//! emitted as the cycle counter, a value as good as any other (any value refines
//! "arbitrary"), of every scalar type, and NVRTC (where installed) compiles the result.

use warpsafe_ir::Kernel;

fn kernel(src: &str) -> Kernel {
    let mut m = warpsafe_cuda_front::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    m.kernels.remove(0)
}

const SRC: &str = r#"
__global__ void k(long long* t, unsigned int* u, float* f, double* d, unsigned char* c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    t[2 * i] = clock();
    t[2 * i + 1] = clock64();
    u[i] = __warpsafe_arbitrary_u32();
    f[i] = __warpsafe_arbitrary_f32();
    d[i] = __warpsafe_arbitrary_f64();
    c[i] = __warpsafe_arbitrary_u8();
}
"#;

#[test]
fn arbitrary_values_are_the_cycle_counter() {
    let k = kernel(SRC);
    let text = warpsafe_cuda::generate(&k).expect("codegen");
    for f in [
        "(long long)clock64()",
        "(unsigned int)clock64()",
        "(float)clock64()",
        "(double)clock64()",
        "(unsigned char)clock64()",
    ] {
        assert!(text.contains(f), "{f} missing:\n{text}");
    }
    if warpsafe_cuda::nvrtc_path().is_ok() {
        let out = warpsafe_cuda::compile_ptx(&text, &Default::default())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert!(out.ptx.contains("%clock64"), "no clock64 read in the PTX");
    }
}
