//! Verdicts: what was proved, what was refuted (with a replayable counterexample), what is
//! unknown and why.

use crate::Property;
use serde::Serialize;
use warpsafe_ir::{Category, Span, Value};

/// The outcome of verifying one kernel.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The kernel's name.
    pub kernel: String,
    /// One result per requested property, in request order.
    pub results: Vec<PropertyResult>,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// SMT queries sent to the solver.
    pub queries: usize,
}

impl Report {
    /// Process exit code for the CLI: 0 all verified, 1 any violated, 3 otherwise.
    pub fn exit_code(&self) -> i32 {
        if self
            .results
            .iter()
            .any(|r| matches!(r.verdict, Verdict::Violated(_)))
        {
            1
        } else if self
            .results
            .iter()
            .all(|r| matches!(r.verdict, Verdict::Verified))
        {
            0
        } else {
            3
        }
    }

    /// The result for property `p`, if it was checked.
    pub fn result(&self, p: Property) -> Option<&PropertyResult> {
        self.results.iter().find(|r| r.property == p)
    }
}

/// The verdict on one property.
#[derive(Clone, Debug, Serialize)]
pub struct PropertyResult {
    /// The property.
    pub property: Property,
    /// Verified, violated or unknown.
    pub verdict: Verdict,
    /// Solver seconds spent on this property's queries (summed over workers).
    pub seconds: f64,
    /// SMT queries sent for this property.
    pub queries: usize,
}

/// Verified, violated with a counterexample, or unknown with a reason.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
#[allow(clippy::large_enum_variant)]
pub enum Verdict {
    /// Holds for every launch the configuration and contract allow.
    Verified,
    /// Fails; the counterexample says how.
    Violated(Counterexample),
    /// Neither proved nor refuted.
    Unknown {
        /// Why (unsupported construct, solver timeout, …).
        reason: String,
        /// The construct responsible, if any.
        span: Option<Span>,
    },
}

/// A concrete launch exhibiting a violation.
#[derive(Clone, Debug, Serialize)]
pub struct Counterexample {
    /// The finding category (`race`, `divergence`, `oob`, `overflow`, `div-by-zero`).
    pub category: Category,
    /// A sentence naming the memory, the operation and the index.
    pub message: String,
    /// `blockDim`.
    pub block_dim: [u32; 3],
    /// `gridDim`.
    pub grid_dim: [u32; 3],
    /// The threads involved, as (`blockIdx`, `threadIdx`).
    pub threads: Vec<([u32; 3], [u32; 3])>,
    /// Scalar parameter values.
    pub params: Vec<(String, Value)>,
    /// Buffer lengths in elements.
    pub buffer_lens: Vec<(String, u64)>,
    /// Source spans of the operations involved.
    pub spans: Vec<Span>,
    /// The memory and element index involved, if any.
    pub address: Option<(String, i64)>,
    /// What the interpreter did with this launch, if replay was asked for.
    pub replay: Option<Replay>,
}

/// The result of running a counterexample's launch in the interpreter.
#[derive(Clone, Debug, Serialize)]
pub struct Replay {
    /// True when the interpreter reported a finding of the same category.
    pub reproduced: bool,
    /// What happened, in a sentence.
    pub note: String,
}
