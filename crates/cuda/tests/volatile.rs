//! `volatile` survives the trip CUDA C → IR → CUDA C: memory the source reaches through a
//! `volatile` pointer (a helper's parameter, a kernel parameter, a cast) or declares
//! `volatile` is declared `volatile` in the generated code, and nothing else is.

use warpsafe_ir::{ArrayId, Kernel, MemRef, ParamId};

fn kernel(src: &str) -> Kernel {
    let mut m = warpsafe_cuda_front::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    m.kernels.remove(0)
}

const SRC: &str = r#"
__device__ void warp_step(volatile float* s, unsigned int t) { s[t] += s[t + 16]; }

__global__ void k(float* out, volatile int* flags, float* plain)
{
    __shared__ float cached[64];
    __shared__ float warp[64];
    volatile __shared__ unsigned int counter[1];
    unsigned int t = threadIdx.x;
    cached[t] = plain[t];
    warp[t] = plain[t];
    __syncthreads();
    if (t < 32) {
        warp_step(warp, t);
    }
    atomicAdd(&counter[0], 1u);
    atomicAdd((int*)&flags[0], 1);
    float* p = plain;
    ((volatile float*)p)[t] = cached[t];
    out[t] = warp[t];
}
"#;

#[test]
fn volatile_accesses_are_recorded_and_emitted() {
    let k = kernel(SRC);
    let mut v = k.contract.volatile.clone();
    v.sort_by_key(|m| format!("{m:?}"));
    let mut want = vec![
        MemRef::Global(ParamId(1)),
        MemRef::Global(ParamId(2)),
        MemRef::Shared(ArrayId(1)),
        MemRef::Shared(ArrayId(2)),
    ];
    want.sort_by_key(|m| format!("{m:?}"));
    assert_eq!(v, want);
    let text = warpsafe_cuda::generate(&k).expect("codegen");
    assert!(text.contains("float* __restrict__ out"), "{text}");
    assert!(text.contains("volatile int* __restrict__ flags"), "{text}");
    assert!(
        text.contains("volatile float* __restrict__ plain"),
        "{text}"
    );
    assert!(text.contains("    __shared__ float cached[64];"), "{text}");
    assert!(
        text.contains("volatile __shared__ float warp[64];"),
        "{text}"
    );
    assert!(
        text.contains("volatile __shared__ unsigned int counter[1];"),
        "{text}"
    );
    // Atomics take plain pointers.
    assert!(
        text.contains("atomicAdd((unsigned int*)&counter[0]"),
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

#[test]
fn kernels_without_volatile_are_unchanged() {
    let k = kernel(
        "__global__ void k(float* x) { __shared__ float s[32]; s[threadIdx.x] = x[threadIdx.x]; __syncthreads(); x[threadIdx.x] = s[31 - threadIdx.x]; }",
    );
    assert!(k.contract.volatile.is_empty());
    let text = warpsafe_cuda::generate(&k).expect("codegen");
    assert!(!text.contains("volatile"), "{text}");
    // The IR's JSON is unchanged too: the field is left out when empty.
    let json = serde_json::to_string(&k).expect("serialises");
    assert!(!json.contains("volatile"), "{json}");
}
