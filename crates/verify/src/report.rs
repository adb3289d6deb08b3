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
    /// What every verdict of the report assumes about the launch beyond the contract (the
    /// dimensionality the kernel reads, say), each a sentence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<String>,
}

impl Report {
    /// Process exit code for the CLI: 0 all verified, 1 any violated, 3 otherwise (possible
    /// or unknown).
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
    /// What the verdict assumes beyond the contract (inferred buffer lengths, say), each a
    /// sentence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<String>,
}

impl PropertyResult {
    /// An `unknown` verdict that cost nothing.
    pub fn unknown(property: Property, reason: String, span: Option<Span>) -> PropertyResult {
        PropertyResult {
            property,
            verdict: Verdict::Unknown { reason, span },
            seconds: 0.0,
            queries: 0,
            assumptions: vec![],
        }
    }
}

/// Verified, violated with a confirmed counterexample, possibly violated (a counterexample
/// neither exact nor reproduced), or unknown with a reason.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
#[allow(clippy::large_enum_variant)]
pub enum Verdict {
    /// Holds for every launch the configuration and contract allow.
    Verified,
    /// Fails; the counterexample is exact or the interpreter reproduced it.
    Violated(Counterexample),
    /// The solver found a counterexample that depends on abstracted values (memory contents,
    /// summarised loops) and that the interpreter did not reproduce: it may be spurious.
    Possible {
        /// The unconfirmed counterexample.
        counterexample: Counterexample,
        /// Why it may be spurious.
        why: String,
    },
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
    /// True when the model is a real execution of the threads: it depends on no abstracted
    /// value (memory contents, havocked loop state, summarised iterations).
    pub exact: bool,
    /// The model compares barrier intervals after some barrier, which presupposes that
    /// barriers are not divergent.
    #[serde(skip)]
    pub epochs: bool,
}

impl Counterexample {
    /// True when the counterexample is exact or the interpreter reproduced it.
    pub fn confirmed(&self) -> bool {
        self.exact || self.replay.as_ref().is_some_and(|r| r.reproduced)
    }
}

/// The result of running a counterexample's launch in the interpreter.
#[derive(Clone, Debug, Serialize)]
pub struct Replay {
    /// True when the interpreter reported a finding of the same category.
    pub reproduced: bool,
    /// What happened, in a sentence.
    pub note: String,
}
