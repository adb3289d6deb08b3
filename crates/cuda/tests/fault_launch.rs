//! A launch that faults (an illegal address) on a GPU, where one is present: the next launch
//! in the same process either works or fails with the driver's error, never a panic. CUDA
//! documents such faults as sticky for the whole process, so this test has a binary of its own.

mod common;

use common::{args, first_buffer, scale};
use warpsafe_exec::LaunchConfig;

#[test]
fn a_launch_after_a_fault_works_or_names_the_driver_error_on_a_gpu() {
    if !warpsafe_cuda::device_available() {
        return;
    }
    let k = scale();
    let x = vec![1.0f32; 128];
    // 2^30 floats past a 128-float buffer: an illegal address on every device we know of.
    let cfg = LaunchConfig::linear(1, 128);
    let faulted = warpsafe_cuda::launch(&k, &cfg, args(&x, 1 << 30, 0.0)).is_err();
    match warpsafe_cuda::launch(&k, &cfg, args(&x, 0, 1.0)) {
        Ok(out) => assert_eq!(first_buffer(&out), vec![3.0f32; 128]),
        Err(e) => {
            assert!(faulted, "the first launch worked, the second failed: {e}");
            assert!(e.to_string().contains("CUDA_ERROR_ILLEGAL_ADDRESS"), "{e}");
        }
    }
}
