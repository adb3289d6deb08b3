//! `%clock`, `%clock64` and `%globaltimer` read by `mov` are values nothing is known about
//! (thread code `Arbitrary`): the interpreter draws a new one in each thread and each read.

use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::ScalarType;

const CLOCK: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry stamp(
    .param .u64 stamp_param_0
)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<8>;

    ld.param.u64 %rd1, [stamp_param_0];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 16;
    add.s64 %rd4, %rd2, %rd3;
    mov.u64 %rd5, %clock64;
    st.global.u64 [%rd4], %rd5;
    mov.u64 %rd6, %globaltimer;
    st.global.u64 [%rd4+8], %rd6;
    ret;
}
"#;

#[test]
fn cycle_counters_are_arbitrary_values() {
    let m = warpsafe_ptx::parse(CLOCK).expect("parses");
    let prog = warpsafe_ptx::lower(&m, None).expect("lowers");
    let n = 64;
    let args = vec![Arg::Buffer(Buffer::zeros(ScalarType::U64, 2 * n))];
    let out = warpsafe_exec::run_program(
        &prog,
        &LaunchConfig::linear(1, n as u32),
        args,
        &Options::default(),
    )
    .expect("runs");
    assert!(out.findings.is_empty(), "{:#?}", out.findings);
    let Arg::Buffer(o) = &out.args[0] else {
        panic!("a buffer")
    };
    let words: std::collections::BTreeSet<String> =
        (0..o.len()).map(|i| format!("{:?}", o.get(i))).collect();
    assert_eq!(words.len(), 2 * n, "every read of every thread differs");
}
