//! Warp votes, `__activemask` and the barrier reductions survive the trip CUDA C → IR →
//! CUDA C as the CUDA intrinsics, and NVRTC (where installed) compiles the result.

use warpsafe_ir::Kernel;

fn kernel(src: &str) -> Kernel {
    let mut m = warpsafe_cuda_front::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    m.kernels.remove(0)
}

const SRC: &str = r#"
__global__ void k(const int* keys, unsigned int* ballots, int* flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool match = i < n && keys[i] > 0;
    unsigned int votes = __ballot_sync(0xffffffffu, match);
    int any = __any_sync(0xffffffffu, match);
    int all = __all_sync(0xffffffffu, keys[i % n]);
    unsigned int active = __activemask();
    int count = __syncthreads_count(match);
    int every = __syncthreads_and(match);
    int some = __syncthreads_or(i);
    ballots[2 * i] = votes;
    ballots[2 * i + 1] = active;
    flags[5 * i] = any;
    flags[5 * i + 1] = all;
    flags[5 * i + 2] = count;
    flags[5 * i + 3] = every;
    flags[5 * i + 4] = some;
}
"#;

#[test]
fn votes_are_emitted_as_the_intrinsics() {
    let k = kernel(SRC);
    let text = warpsafe_cuda::generate(&k).expect("codegen");
    for f in [
        "__ballot_sync(",
        "__any_sync(",
        "__all_sync(",
        "__activemask()",
        "__syncthreads_count(",
        "__syncthreads_and(",
        "__syncthreads_or(",
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
        for p in ["vote.sync.ballot.b32", "activemask.b32", "bar.red.popc.u32"] {
            assert!(out.ptx.contains(p), "{p} missing from the PTX");
        }
    }
}
