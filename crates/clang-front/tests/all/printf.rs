//! Device `printf` and calls of functions declared without a body: their arguments are
//! reads (which race like any other), their text is not memory anyone writes, and a default
//! argument is the prototype's.

use crate::common;

use warpsafe_verify::{Property, Verdict};

const SOURCE: &str = r#"//--blockDim=64 --gridDim=1
#include <cstdio>
__device__ unsigned int sad4(unsigned int a, unsigned int b, unsigned int c = 0);
__device__ int log_value(const char *tag, int v);

__global__ void report(int* data) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    printf("thread %d sees %d (%5.1f%%)\n", t, s[(t + 1) % 64], 100.0f * t / 64);
    data[t] = sad4(s[t], 3u) + log_value("value", s[t]);
}

__global__ void report_racy(int* data) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = data[t];
    printf("thread %d sees %d\n", t, s[(t + 1) % 64]);
}

__global__ void bodiless_racy(int* data) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = data[t];
    sad4(s[(t + 1) % 64], 1u);
}

__global__ void report_name(const char* name, int* data) {
    printf("%s: %d\n", name, data[threadIdx.x]);
}
"#;

#[test]
fn printf_arguments_are_reads_that_race() {
    let c = common::clang_in("printf", "report.cu", SOURCE);
    let k = common::kernel(&c, "report");
    assert!(
        c.notes.iter().any(|(_, n)| n.contains("`printf`")),
        "{:?}",
        c.notes
    );
    let v = common::verdict(k, Property::Race);
    if common::z3_missing(&v) {
        return;
    }
    assert!(matches!(v, Verdict::Verified), "{v:?}");
    for racy in ["report_racy", "bodiless_racy"] {
        let v = common::verdict(common::kernel(&c, racy), Property::Race);
        assert!(matches!(v, Verdict::Violated { .. }), "{racy}: {v:?}");
    }
}

#[test]
fn bodiless_calls_take_default_and_literal_arguments() {
    let c = common::clang_in("printf", "bodiless.cu", SOURCE);
    let k = common::kernel(&c, "report");
    let data: Vec<i32> = (0..64).collect();
    let out = warpsafe_exec::run(
        k,
        &warpsafe_exec::LaunchConfig::linear(1, 64),
        vec![warpsafe_exec::Arg::Buffer(warpsafe_exec::Buffer::from_i32(
            &data,
        ))],
        &warpsafe_exec::Options::default(),
    )
    .expect("runs");
    assert!(out.findings.is_empty(), "{:?}", out.findings);
}

#[test]
fn a_string_from_memory_is_rejected_at_its_argument() {
    let c = common::clang_in("printf", "name.cu", SOURCE);
    let (msg, text) = common::rejection(&c, SOURCE, "report_name");
    assert!(msg.contains("`%s`"), "{msg}");
    assert_eq!(text, "name");
}
