//! Feeds arbitrary UTF-8 to the CUDA-C frontend: it must return errors, never panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|src: &str| {
    let _ = warpsafe_cuda_front::compile(src);
});
