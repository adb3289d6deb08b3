//! All-sizes proofs for barrier-phased scans and reductions within a block.
//!
//! Two engines, one report:
//!
//! - **The interval abstraction** ([`check_size`], [`sweep`]): every thread of a block runs
//!   the kernel's IR in lock-step with each input element `x[k]` replaced by the summary
//!   `[k, k]`; the kernel's `+` may only combine adjacent summaries (`[a, b] ⊕ [b+1, c] =
//!   [a, c]`), the literal `0` is the empty summary, and every shared access is checked for
//!   races against the other threads since the last barrier. When the outputs equal the
//!   spec's summaries, the kernel is race-free and correct at that size for every
//!   associative operator with that identity. Kernels that combine strided elements (tree
//!   reductions with sequential addressing) are checked with disjoint index sets instead,
//!   which covers every commutative associative operator.
//! - **Induction** ([`induction`]): the abstract run at several sizes records each shared
//!   cell's summary at every barrier-loop head; a fitter generalises them into a candidate
//!   invariant over (cell, loop variable, N) from a small library of shapes, and z3 proves,
//!   for symbolic N (up to 2^15, beyond CUDA's 1024-thread blocks), thread and loop
//!   variable, that it holds on entry, is preserved by one iteration without races (two
//!   symbolic threads), and implies the spec on exit. A candidate that z3 does not prove is
//!   discarded: the verdict is then the bounded one.
//!
//! Scope: one block (`blockIdx.x = 0`, `n = blockDim.x`) in the induction; the bounded sweep
//! also runs two blocks with the last one partial. Shared arrays declared with the header's
//! block size scale with the block size, and every integer parameter is the element count
//! `n`. The claims are partial correctness: the loops' termination is not proved.
//!
//! ```
//! use warpsafe_equiv::Spec;
//! use warpsafe_induct::{check_size, SizeVerdict};
//!
//! let src = r#"
//! //--blockDim=8 --gridDim=1
//! //@ len(x) = n
//! //@ len(y) = n
//! __global__ void scan(const float* x, float* y, int n) {
//!     __shared__ float s[8];
//!     int t = threadIdx.x;
//!     s[t] = x[t];
//!     __syncthreads();
//!     for (int d = 1; d < blockDim.x; d *= 2) {
//!         float v = s[t];
//!         if (t >= d) v = s[t - d] + v;
//!         __syncthreads();
//!         s[t] = v;
//!         __syncthreads();
//!     }
//!     y[t] = s[t];
//! }"#;
//! let k = warpsafe_cuda_front::compile(src).unwrap().kernels.remove(0);
//! let spec = Spec::parse("y[i] = sum(k < i + 1, x[k]) for i < n").unwrap();
//! assert!(matches!(check_size(&k, Some(&spec), 100, 1), SizeVerdict::Proved { .. }));
//! ```

mod bounded;
mod confirm;
pub mod contract;
mod failure;
pub mod induction;
mod inputs;
mod machine;
mod outcome;
mod summary;
mod target;

pub use bounded::{
    check_launch, check_size, sweep, sweep_in, Scope, SizeFailure, SizeVerdict, Sweep,
    PARTIAL_BLOCK_BOUND,
};
pub use confirm::{confirm, input_value, Counterexample};
pub use failure::{Failure, FailureKind};
pub use machine::{run_abstract, AbsLaunch, AbsResult, HeadSnapshot, Val};
pub use outcome::{Method, Obligation, Outcome, SizeDomain, Verdict};
pub use summary::{Mode, Summary};

use contract::{admits, Admits};
use induction::Sizes;
use std::time::Instant;
use warpsafe_equiv::Spec;
use warpsafe_ir::Kernel;

/// Settings of [`prove_all_sizes_with`].
#[derive(Clone, Debug)]
pub struct Options {
    /// The largest block size the abstraction sweeps.
    pub bound: u32,
    /// Blocks per launch in the sweep.
    pub grid: u32,
    /// Whether to attempt the all-sizes induction.
    pub induction: bool,
    /// Per-query z3 timeout in milliseconds.
    pub smt_timeout_ms: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            bound: 1024,
            grid: 1,
            induction: true,
            smt_timeout_ms: 10_000,
        }
    }
}

/// Proves `kernel` race-free and (with a spec) functionally correct for every block size
/// with the default [`Options`]: the abstraction at every block size CUDA can launch (up to
/// 1024), then induction for every size.
pub fn prove_all_sizes(kernel: &Kernel, spec: Option<&Spec>) -> Outcome {
    prove_all_sizes_with(kernel, spec, &Options::default())
}

/// [`prove_all_sizes`] with explicit options.
///
/// The contract's `requires` are honoured: the sweep first checks the kernel family at every
/// block size (shared arrays of the header's block size scale with it); a failure at a
/// launch the contract rejects is no refutation, and the proof is then redone for the
/// launches the contract admits, with the preconditions listed among the assumptions.
pub fn prove_all_sizes_with(kernel: &Kernel, spec: Option<&Spec>, opts: &Options) -> Outcome {
    let t0 = Instant::now();
    let int_scalars = kernel
        .params
        .iter()
        .filter(|p| matches!(p.kind, warpsafe_ir::ParamKind::Scalar(t) if t.is_int()))
        .count();
    if int_scalars > 1 {
        return Outcome {
            kernel: kernel.name.clone(),
            verdict: Verdict::Unknown {
                reason: "more than one integer parameter: both engines set every integer \
                         parameter to the element count n"
                    .into(),
            },
            operators: String::new(),
            assumptions: vec![],
            obligations: vec![],
            seconds: t0.elapsed().as_secs_f64(),
        };
    }
    let run = Run {
        kernel,
        spec,
        opts,
        t0,
    };
    let sw = sweep(kernel, spec, opts.bound, opts.grid);
    if let Some(f) = &sw.pow2_failure {
        if let Admits::No(req) = admits(kernel, &f.launch()) {
            return run.within_contract(f, &req);
        }
    }
    run.finish(sw, Sizes::ALL, vec![])
}

/// One call of [`prove_all_sizes_with`].
struct Run<'a> {
    kernel: &'a Kernel,
    spec: Option<&'a Spec>,
    opts: &'a Options,
    t0: Instant,
}

impl Run<'_> {
    fn done(
        &self,
        verdict: Verdict,
        obligations: Vec<Obligation>,
        operators: String,
        assumptions: Vec<String>,
    ) -> Outcome {
        Outcome {
            kernel: self.kernel.name.clone(),
            verdict,
            operators,
            assumptions,
            obligations,
            seconds: self.t0.elapsed().as_secs_f64(),
        }
    }

    /// The proof redone for the launches the contract admits, after the family failed at
    /// `outside` (where `req` is false).
    fn within_contract(&self, outside: &SizeFailure, req: &str) -> Outcome {
        let mut assumptions = contract::describe(self.kernel);
        assumptions.push(format!(
            "outside the contract the kernel fails (blockDim.x = {}, gridDim.x = {}, n = {}: {}; \
             {req} is false there): only the launches the contract admits are checked",
            outside.size,
            outside.grid,
            outside.n,
            describe(&outside.verdict)
        ));
        let Some((lo, hi)) = contract::admitted_range(self.kernel, induction::MAX_N as u32) else {
            let reason = format!(
                "the contract admits no launch the engines check (one block of N ≤ {} \
                 threads, every integer parameter = N)",
                induction::MAX_N
            );
            return self.done(
                Verdict::Unknown { reason },
                vec![],
                String::new(),
                assumptions,
            );
        };
        let sw = sweep_in(
            self.kernel,
            self.spec,
            self.opts.bound,
            self.opts.grid,
            Scope::Contract,
        );
        self.finish(sw, Sizes { lo, hi }, assumptions)
    }

    /// The verdict from a sweep over block sizes and, when it passed, the induction over
    /// `sizes`.
    fn finish(&self, sw: Sweep, sizes: Sizes, assumptions: Vec<String>) -> Outcome {
        let (kernel, spec, opts) = (self.kernel, self.spec, self.opts);
        let mut obligations = vec![];
        if let Some(f) = &sw.pow2_failure {
            let verdict = failed_verdict(kernel, spec, f, &mut obligations, sw.seconds);
            return self.done(verdict, obligations, String::new(), assumptions);
        }
        if sw.sizes == 0 {
            let reason = format!(
                "the contract admits no block size up to {} that the abstraction checks",
                sw.bound
            );
            return self.done(
                Verdict::Unknown { reason },
                vec![],
                String::new(),
                assumptions,
            );
        }
        let what = if spec.is_some() {
            "race freedom, barrier uniformity, functional correctness"
        } else {
            "race freedom, barrier uniformity (no spec: functional correctness not checked)"
        };
        let domain = if sw.other_failure.is_some() {
            SizeDomain::PowersOfTwo
        } else {
            SizeDomain::All
        };
        let admitted = match sw.scope {
            Scope::Family => "",
            Scope::Contract => " the contract admits",
        };
        let top = match sw.scope {
            Scope::Family => sw.bound,
            Scope::Contract => sw.bound.min(sizes.hi),
        };
        let sizes_text = match domain {
            SizeDomain::All => format!("every block size 1..={top}{admitted}"),
            SizeDomain::PowersOfTwo => {
                format!("every power-of-two block size ≤ {top}{admitted}")
            }
        } + &format!(
            " (one full block; and two blocks, the last one element short, up to {})",
            sw.bound.min(PARTIAL_BLOCK_BOUND)
        );
        obligations.push(Obligation {
            name: what.to_string(),
            method: Method::Abstraction,
            holds: Some(true),
            detail: sizes_text,
            seconds: sw.seconds,
        });
        if let Some(f) = &sw.other_failure {
            let outside = match admits(kernel, &f.launch()) {
                Admits::No(req) => format!(" — outside the contract ({req} is false there)"),
                _ => String::new(),
            };
            obligations.push(Obligation {
                name: "sizes that are not powers of two".into(),
                method: Method::Abstraction,
                holds: Some(false),
                detail: format!("block size {}: {}{outside}", f.size, describe(&f.verdict)),
                seconds: 0.0,
            });
        }
        let operators = operators(sw.mode, sw.swapped);
        let exhaustive = sw.scope == Scope::Contract && opts.grid == 1 && sizes.hi <= sw.bound;
        if exhaustive {
            obligations.push(Obligation {
                name: "every block size the contract admits".into(),
                method: Method::Abstraction,
                holds: Some(true),
                detail: format!(
                    "the contract's requires, evaluated at every block size N ≤ {}, admit none \
                     above {}: the abstraction above checked them all",
                    induction::MAX_N,
                    sizes.hi
                ),
                seconds: 0.0,
            });
            return self.done(
                Verdict::ProvedAllSizes { domain },
                obligations,
                operators,
                assumptions,
            );
        }
        let why_not_all = if !opts.induction {
            "induction not requested".to_string()
        } else {
            let r = induction::prove(kernel, spec, domain, sw.mode, sizes, opts.smt_timeout_ms);
            obligations.extend(r.obligations);
            match r.failure {
                None => {
                    return self.done(
                        Verdict::ProvedAllSizes { domain },
                        obligations,
                        operators,
                        assumptions,
                    )
                }
                Some(reason) => reason,
            }
        };
        self.done(
            Verdict::ProvedUpTo {
                bound: sw.bound,
                domain,
                why_not_all,
            },
            obligations,
            operators,
            assumptions,
        )
    }
}

fn describe(v: &SizeVerdict) -> String {
    match v {
        SizeVerdict::Proved { .. } => "proved".into(),
        SizeVerdict::Failed(f) => f.to_string(),
        SizeVerdict::BadSpec(m) => format!("spec outside the abstraction: {m}"),
    }
}

fn failed_verdict(
    k: &Kernel,
    spec: Option<&Spec>,
    failure: &SizeFailure,
    obligations: &mut Vec<Obligation>,
    seconds: f64,
) -> Verdict {
    let (size, v) = (failure.size, &failure.verdict);
    let reason = describe(v);
    let bug = matches!(v, SizeVerdict::Failed(f) if f.kind.is_bug());
    obligations.push(Obligation {
        name: "abstract run".into(),
        method: Method::Abstraction,
        holds: if bug { Some(false) } else { None },
        detail: format!(
            "blockDim.x = {size}, gridDim.x = {}, n = {}: {reason}",
            failure.grid, failure.n
        ),
        seconds,
    });
    if matches!(v, SizeVerdict::BadSpec(_)) {
        return Verdict::Unknown { reason };
    }
    match admits(k, &failure.launch()) {
        Admits::Yes => {}
        Admits::No(why) => {
            return Verdict::Unknown {
                reason: format!(
                    "block size {size}: {reason}; not a refutation: the contract excludes this \
                     launch ({why} is false there)"
                ),
            }
        }
        Admits::Unknown(why) => {
            return Verdict::Unknown {
                reason: format!(
                    "block size {size}: {reason}; not a refutation: whether the contract admits \
                     this launch is not known ({why})"
                ),
            }
        }
    }
    let t = Instant::now();
    let cex = if size <= 1024 {
        confirm(k, spec, size, failure.grid, failure.n)
    } else {
        None
    };
    obligations.push(Obligation {
        name: "concrete replay".into(),
        method: Method::Bounded,
        holds: cex.as_ref().map(|_| false),
        detail: cex
            .as_ref()
            .map_or("the interpreter did not show a failure".into(), |c| {
                c.message.clone()
            }),
        seconds: t.elapsed().as_secs_f64(),
    });
    let span = match v {
        SizeVerdict::Failed(f) if !f.span.is_dummy() => Some(f.span),
        _ => None,
    };
    if bug || cex.is_some() {
        Verdict::Refuted {
            size,
            reason,
            span,
            counterexample: cex,
        }
    } else {
        Verdict::Unknown {
            reason: format!("block size {size}: {reason}"),
        }
    }
}

fn operators(mode: Mode, swapped: bool) -> String {
    match (mode, swapped) {
        (Mode::Interval, false) => "every associative operator (identity written as 0)".into(),
        (Mode::Interval, true) => "every commutative associative operator; only adjacent segments are combined, some right operand first".into(),
        (Mode::Commutative, _) => "every commutative associative operator".into(),
    }
}
