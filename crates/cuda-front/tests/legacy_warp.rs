//! Pre-CUDA-9 warp functions without a mask (`__shfl_down(v, d)`, `__any(p)`, and `any(p)` as
//! old SDK samples declare it) are the `_sync` functions over the whole warp.

use warpsafe_cuda_front::compile;

fn ir(body: &str) -> String {
    let src = format!("__global__ void k(int* a, int n) {{\n{body}\n}}\n");
    match compile(&src) {
        Ok(m) => m.kernels.iter().map(|k| k.to_string()).collect(),
        Err(e) => panic!("{body}: {e:?}"),
    }
}

#[test]
fn legacy_shuffles_and_votes_are_the_sync_forms_over_the_whole_warp() {
    let pairs = [
        (
            "a[threadIdx.x] = __shfl_down(a[threadIdx.x], 1);",
            "a[threadIdx.x] = __shfl_down_sync(0xffffffffu, a[threadIdx.x], 1);",
        ),
        (
            "a[threadIdx.x] = __shfl_xor(n, 4, 16);",
            "a[threadIdx.x] = __shfl_xor_sync(0xffffffffu, n, 4, 16);",
        ),
        (
            "a[threadIdx.x] = __any(a[threadIdx.x] > n);",
            "a[threadIdx.x] = __any_sync(0xffffffffu, a[threadIdx.x] > n);",
        ),
        (
            "a[threadIdx.x] = all(a[threadIdx.x] > n);",
            "a[threadIdx.x] = __all_sync(0xffffffffu, a[threadIdx.x] > n);",
        ),
    ];
    for (legacy, modern) in pairs {
        assert_eq!(ir(legacy), ir(modern), "{legacy}");
    }
}

#[test]
fn a_helper_of_the_file_named_like_a_legacy_vote_is_called_as_written() {
    let src = "__device__ int any(int x) { return x + 1; }\n\
               __global__ void k(int* a) { a[threadIdx.x] = any(a[threadIdx.x]); }\n";
    let m = compile(src).expect("compiles");
    let text = m.kernels[0].to_string();
    assert!(
        !text.contains("vote") && !text.contains("any_sync"),
        "{text}"
    );
}
