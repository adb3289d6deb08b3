//! Arbitrary values (`clock64()`, IR `Arbitrary`) in the interpreter: a new one in each
//! thread and each execution, deterministic across runs (so findings replay), and floats
//! kept finite.

use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options, Outcome};
use warpsafe_ir::{Kernel, ScalarType, Value};

fn kernel(src: &str) -> Kernel {
    let mut m = warpsafe_cuda_front::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    m.kernels.remove(0)
}

fn values(out: &Outcome, i: usize) -> Vec<Value> {
    match &out.args[i] {
        Arg::Buffer(b) => (0..b.len()).map(|j| b.get(j)).collect(),
        Arg::Scalar(_) => panic!("argument {i} is a scalar"),
    }
}

const DRAWS: &str = r#"
__global__ void k(long long* first, long long* second, float* f, bool* b)
{
    unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
    first[t] = clock64();
    second[t] = clock64();
    f[t] = __warpsafe_arbitrary_f32();
    b[t] = __warpsafe_arbitrary_bool();
}
"#;

fn draws() -> Outcome {
    let k = kernel(DRAWS);
    let n = 128;
    let args = vec![
        Arg::Buffer(Buffer::zeros(ScalarType::I64, n)),
        Arg::Buffer(Buffer::zeros(ScalarType::I64, n)),
        Arg::Buffer(Buffer::zeros(ScalarType::F32, n)),
        Arg::Buffer(Buffer::zeros(ScalarType::Bool, n)),
    ];
    let out = run(&k, &LaunchConfig::linear(2, 64), args, &Options::default()).expect("launch");
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    out
}

#[test]
fn each_thread_and_each_execution_draws_a_new_value() {
    let out = draws();
    let (first, second) = (values(&out, 0), values(&out, 1));
    let all: std::collections::BTreeSet<String> = first
        .iter()
        .chain(&second)
        .map(|v| format!("{v:?}"))
        .collect();
    assert_eq!(all.len(), 256, "every draw of every thread differs");
    let floats = values(&out, 2);
    assert!(floats.iter().all(|v| match v {
        Value::F32(x) => x.is_finite(),
        _ => false,
    }));
    let bools = values(&out, 3);
    assert!(bools.contains(&Value::Bool(true)) && bools.contains(&Value::Bool(false)));
}

#[test]
fn draws_replay_across_runs() {
    let (a, b) = (draws(), draws());
    for i in 0..4 {
        assert_eq!(
            format!("{:?}", values(&a, i)),
            format!("{:?}", values(&b, i))
        );
    }
}
