//! Launches in a row on one GPU (where one is present): the context and the loaded function
//! are reused, every launch still sees its own arguments, and launches from several threads
//! work (the context is made current on each).

mod common;

use common::{args, first_buffer, scale};
use warpsafe_exec::LaunchConfig;

#[test]
fn repeated_launches_each_see_their_own_arguments_on_a_gpu() {
    if !warpsafe_cuda::device_available() {
        return;
    }
    let k = scale();
    let mut x: Vec<f32> = (0..256).map(|i| i as f32).collect();
    for round in 0..300 {
        let out =
            warpsafe_cuda::launch(&k, &LaunchConfig::linear(2, 128), args(&x, 0, round as f32))
                .unwrap_or_else(|e| panic!("round {round}: {e}"));
        let want: Vec<f32> = x.iter().map(|v| v * 2.0 + round as f32).collect();
        let got = first_buffer(&out);
        assert_eq!(got, want, "round {round}");
        // Keep the values small and exact.
        x = got.iter().map(|v| v % 1024.0).collect();
    }
}

#[test]
fn launches_from_other_threads_use_the_same_device_on_a_gpu() {
    if !warpsafe_cuda::device_available() {
        return;
    }
    let k = scale();
    let x = vec![1.0f32; 256];
    for t in 0..4 {
        let (k, x) = (k.clone(), x.clone());
        let out = std::thread::spawn(move || {
            warpsafe_cuda::launch(&k, &LaunchConfig::linear(2, 128), args(&x, 0, t as f32))
        })
        .join()
        .expect("the launching thread does not panic")
        .unwrap_or_else(|e| panic!("thread {t}: {e}"));
        assert_eq!(first_buffer(&out), vec![2.0 + t as f32; 256], "thread {t}");
    }
}
