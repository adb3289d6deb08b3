//! Findings and results do not depend on whether blocks run in parallel.

use crate::common;

use common::*;
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{ScalarType, Value};

#[test]
fn parallel_and_sequential_runs_agree() {
    let mut rng = Rng(99);
    let n = 4000usize;
    let x = rng.i32s(n, 1000);
    let blocks = n.div_ceil(256) as u32;
    let cases = [
        (block_reduce(false), LaunchConfig::linear(blocks, 256)),
        (block_reduce(true), LaunchConfig::linear(blocks, 256)),
    ];
    for (k, cfg) in cases {
        let args = || {
            vec![
                Arg::Scalar(Value::U32(n as u32 + 100)),
                Arg::Buffer(Buffer::from_i32(&x)),
                Arg::Buffer(Buffer::zeros(ScalarType::I32, blocks as usize)),
            ]
        };
        let par = run(&k, &cfg, args(), &Options::default()).unwrap();
        let seq_opts = Options {
            parallel: false,
            ..Options::default()
        };
        let seq = run(&k, &cfg, args(), &seq_opts).unwrap();
        assert_eq!(par.findings, seq.findings);
        assert_eq!(par.args, seq.args);
        assert_eq!(par.stats.thread_instructions, seq.stats.thread_instructions);
        assert_eq!(par.stats.barriers, seq.stats.barriers);
    }
    let hist = || {
        vec![
            Arg::Scalar(Value::U32(n as u32)),
            Arg::Scalar(Value::U32(8)),
            Arg::Buffer(Buffer::from_u32(&(0..n as u32).collect::<Vec<_>>())),
            Arg::Buffer(Buffer::zeros(ScalarType::U32, 8)),
            Arg::Buffer(Buffer::zeros(ScalarType::U32, 64)),
        ]
    };
    let cfg = LaunchConfig::linear(32, 128);
    let par = run(&histogram(true), &cfg, hist(), &Options::default()).unwrap();
    let seq = run(
        &histogram(true),
        &cfg,
        hist(),
        &Options {
            parallel: false,
            ..Options::default()
        },
    )
    .unwrap();
    assert!(!par.findings.is_empty());
    assert_eq!(par.findings, seq.findings);
}
