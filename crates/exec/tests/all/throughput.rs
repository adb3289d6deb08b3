//! Interpreter speed on the naive 256×256 matmul (all checks on). Run with
//! `cargo test --release -p warpsafe-exec --test throughput -- --ignored --nocapture`.

use crate::common;

use common::*;
use warpsafe_exec::{compile, run_program, Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{ScalarType, Value};

#[test]
#[ignore = "timing; run in release"]
fn naive_matmul_256_throughput() {
    let n = 256usize;
    let mut rng = Rng(1);
    let a = rng.f32s(n * n);
    let b = rng.f32s(n * n);
    let p = compile(&naive_matmul()).unwrap();
    let cfg = LaunchConfig {
        grid: [16, 16, 1],
        block: [16, 16, 1],
        dynamic_shared_bytes: 0,
    };
    let mut times = vec![];
    for _ in 0..3 {
        let args = vec![
            Arg::Scalar(Value::U32(n as u32)),
            Arg::Buffer(Buffer::from_f32(&a)),
            Arg::Buffer(Buffer::from_f32(&b)),
            Arg::Buffer(Buffer::zeros(ScalarType::F32, n * n)),
        ];
        let out = run_program(&p, &cfg, args, &Options::default()).unwrap();
        assert!(out.findings.is_empty());
        let s = &out.stats;
        println!(
            "naive matmul 256: {} thread-instructions in {:.3} s = {:.1} M thread-instr/s ({} threads)",
            s.thread_instructions,
            s.seconds,
            s.thread_instructions as f64 / s.seconds / 1e6,
            rayon::current_num_threads()
        );
        times.push(s.seconds);
    }
    times.sort_by(f64::total_cmp);
    println!("median {:.3} s", times[1]);
}
