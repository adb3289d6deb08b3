//! Exact symbolic execution of a thread block, equivalence of kernels and spec proofs.
//!
//! [`run_symbolic`] runs a kernel's thread code (the same code the interpreter runs) with a
//! concrete launch and thread ids and symbolic data: every input element is a fresh symbol,
//! floats are reals, integers that depend only on the launch stay machine integers. It mirrors
//! the interpreter's schedule (SIMT warps, warp collectives, block barriers) and reports races
//! (exact happens-before), divergence, out-of-bounds and uninitialised reads. A branch on input
//! data runs both sides under their conditions and merges them (`if (s > m) m = s` is
//! `max(m, s)`); an address that depends on input data (a gather, a histogram, SpMV's
//! `x[col[j]]`) is run on symbolic memory when it can be shown inside its buffer: a load is a
//! chain of selects over the cells it may name, a store or an atomic updates each of them under
//! `index == k`. What cannot be run so (an address not shown in bounds, a branch whose sides
//! cannot both run) is a "not structured" finding, never concretised.
//! [`equiv`] compares two kernels' output terms element by element with `warpsafe-algebra`
//! (every block's outputs by default); a difference is `different` only when both kernels,
//! run concretely in the interpreter on the counterexample's input, differ too
//! ([`Replay`]), and memory and time are budgets ([`Limits`]) that end in `unknown`;
//! [`prove_spec`] compares a kernel with a [`Spec`]. [`run_symbolic_program`] and
//! [`equiv_programs`] take already-compiled programs, e.g. PTX lowered by `warpsafe-ptx`, so a
//! kernel can be compared with the PTX a compiler made of it (translation validation).
//!
//! ```
//! use warpsafe_equiv::{equiv_sources, prove_spec, kernel_from_source, EquivConfig, ExecConfig, Spec};
//!
//! let naive = r#"
//! //--blockDim=8 --gridDim=1
//! //@ len(x) = 8
//! //@ len(out) = 1
//! __global__ void total(const float* x, float* out) {
//!     if (threadIdx.x == 0) {
//!         float s = 0.0f;
//!         for (int i = 0; i < 8; i++) s += x[i];
//!         out[0] = s;
//!     }
//! }"#;
//! let tree = r#"
//! //--blockDim=8 --gridDim=1
//! //@ len(x) = 8
//! //@ len(out) = 1
//! __global__ void total(const float* x, float* out) {
//!     __shared__ float s[8];
//!     s[threadIdx.x] = x[threadIdx.x];
//!     __syncthreads();
//!     for (int k = 4; k > 0; k /= 2) {
//!         if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
//!         __syncthreads();
//!     }
//!     if (threadIdx.x == 0) out[0] = s[0];
//! }"#;
//! let report = equiv_sources(naive, tree, &EquivConfig::default()).unwrap();
//! assert_eq!(report.verdict, "equal");
//!
//! let spec = Spec::parse("out[0] = sum(i < 8, x[i])").unwrap();
//! let k = kernel_from_source(tree, None).unwrap();
//! assert_eq!(prove_spec(&k, &spec, &ExecConfig::default()).unwrap().verdict, "equal");
//! ```
mod bench;
mod block;
mod budget;
mod compare;
mod cond;
mod config;
mod equiv;
mod error;
mod field;
mod field_check;
mod finding;
mod ifconv;
mod interval;
mod launch;
mod prove;
mod replay;
mod report;
mod sequence;
mod shadow;
mod source;
mod spec;
mod step;
mod symexec;
mod symmem;
mod value;

pub use bench::{
    bench_equiv, bench_equiv_with, bench_table, BenchPair, BenchRow, Loader, BENCH_PAIRS,
};
pub use budget::{peak_resident_bytes, reset_peak_resident, resident_bytes, Limits, Spent};
pub use config::{BlockSel, BufferStart, ExecConfig};
pub use equiv::{equiv, equiv_programs, equiv_stages, EquivConfig, EquivReport, Phases};
pub use error::EquivError;
pub use finding::{Finding, Issue, Place};
pub use prove::{prove_spec, SpecReport};
pub use replay::Replay;
pub use report::{exit_code, Counterexample, IdentityTest, KernelRun, OutputSummary, TensorValues};
pub use sequence::Stage;
pub use source::{equiv_sources, kernel_from_source};
pub use spec::{
    Equation, Expr as SpecExpr, ExprKind as SpecExprKind, Range, Reduce, Spec, SpecError, SpecSpan,
};
pub use symexec::{run_symbolic, run_symbolic_program, SymBuffer, SymOutcome, SymStats};
