//! The spec language of `warpsafe prove --spec` (and of `functional` and `induct`), parsed and
//! then evaluated against tiny kernels by `prove_spec`.

use std::sync::OnceLock;
use warpsafe_equiv::{kernel_from_source, prove_spec, EquivError, ExecConfig, Spec, SpecReport};

/// Seed files and directories, relative to the repository root.
pub const SEEDS: &[&str] = &[
    "examples/specs",
    "examples/equiv",
    "examples/induct",
    "fuzz/seeds/spec",
];

/// Extensions of seed files found in the seed directories.
pub const EXTENSIONS: &[&str] = &["spec"];

/// The libFuzzer dictionary, relative to the repository root.
pub const DICTIONARY: &str = "fuzz/dict/spec.dict";

/// One-block kernels with the buffer and scalar names of the seed specs (`x`, `y`, `a`, `n`;
/// `A`, `B`, `C`; integer `in`, `out`), a few threads each, so that evaluating a spec against
/// them is cheap.
const KERNELS: &[&str] = &[
    r#"//--blockDim=4 --gridDim=1
//@ arg n = 4
//@ len(x) = n
//@ len(y) = n
__global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}"#,
    r#"//--blockDim=[2,2] --gridDim=1
//@ arg n = 2
//@ len(A) = n * n
//@ len(B) = n * n
//@ len(C) = n * n
__global__ void matrix_mul(const float* A, const float* B, float* C, int n) {
    int row = threadIdx.y;
    int col = threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}"#,
    r#"//--blockDim=4 --gridDim=1
//@ arg n = 4
//@ len(in) = n
//@ len(out) = n
__global__ void scan(const int* in, int* out, int n) {
    int s = 0;
    for (int k = 0; k <= threadIdx.x; ++k) s += in[k] % 7;
    out[threadIdx.x] = s;
}"#,
];

/// [`prove_spec`] against one compiled kernel (a closure: the fuzz crate does not name the
/// IR crate's `Kernel`).
type Prover = Box<dyn Fn(&Spec, &ExecConfig) -> Result<SpecReport, EquivError> + Send + Sync>;

/// The [`KERNELS`], compiled once.
fn provers() -> &'static [Prover] {
    static P: OnceLock<Vec<Prover>> = OnceLock::new();
    P.get_or_init(|| {
        KERNELS
            .iter()
            .map(|src| {
                let k = kernel_from_source(src, None).expect("fuzz kernel compiles");
                Box::new(move |s: &Spec, c: &ExecConfig| prove_spec(&k, s, c)) as Prover
            })
            .collect()
    })
}

/// Parses `src` as a spec and proves each tiny kernel against it; errors and every equation
/// must point inside `src`. The outcome is the parse error, else each kernel's verdict or
/// error.
pub fn run(src: &str) -> Result<(), String> {
    let inside = |lo: usize, hi: usize| lo <= hi && hi <= src.len();
    let spec = match Spec::parse(src) {
        Ok(spec) => spec,
        Err(e) => {
            assert!(
                inside(e.span.lo, e.span.hi),
                "span {}..{} of `{}` is outside the {}-byte input",
                e.span.lo,
                e.span.hi,
                e.message,
                src.len()
            );
            return Err(e.message);
        }
    };
    for eq in &spec.equations {
        assert!(
            inside(eq.span.lo, eq.span.hi),
            "equation span {}..{} outside the {}-byte input",
            eq.span.lo,
            eq.span.hi,
            src.len()
        );
    }
    // A small budget: a spec of millions of steps is an error here, in milliseconds.
    let cfg = ExecConfig {
        max_block_instructions: 1 << 14,
        parallel: false,
        ..ExecConfig::default()
    };
    let mut outcomes = Vec::new();
    for prove in provers() {
        match prove(&spec, &cfg) {
            Ok(r) => outcomes.push(r.verdict.to_string()),
            Err(EquivError::Spec(e)) => {
                assert!(
                    inside(e.span.lo, e.span.hi),
                    "span {}..{} of `{}` is outside the {}-byte input",
                    e.span.lo,
                    e.span.hi,
                    e.message,
                    src.len()
                );
                outcomes.push(e.message);
            }
            Err(e) => outcomes.push(e.to_string()),
        }
    }
    Err(outcomes.join("; "))
}
