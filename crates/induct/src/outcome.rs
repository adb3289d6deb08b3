//! What `prove --all-sizes` reports: a verdict and, per obligation, the method that settled it.

use crate::confirm::Counterexample;
use serde::Serialize;
use warpsafe_ir::Span;

/// Which block sizes a verdict covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SizeDomain {
    /// Every block size.
    All,
    /// Every power-of-two block size (the kernel fails on some other size).
    PowersOfTwo,
}

/// The overall answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "verdict")]
pub enum Verdict {
    /// Race-free and functionally correct for every size in `domain`, by induction.
    ProvedAllSizes {
        /// The sizes covered.
        domain: SizeDomain,
    },
    /// Race-free and functionally correct for every size in `domain` up to `bound`.
    ProvedUpTo {
        /// The largest block size covered.
        bound: u32,
        /// The sizes covered.
        domain: SizeDomain,
        /// Why there is no all-sizes proof.
        why_not_all: String,
    },
    /// Wrong at a concrete size.
    Refuted {
        /// The block size.
        size: u32,
        /// What the abstract run found.
        reason: String,
        /// Where in the source it happened (`None` for wrong outputs).
        span: Option<Span>,
        /// The concrete replay, when the interpreter confirms it.
        counterexample: Option<Counterexample>,
    },
    /// Neither proved nor refuted.
    Unknown {
        /// Why.
        reason: String,
    },
}

/// How an obligation was settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// SMT induction over the barrier loop with symbolic size, thread and loop variable.
    Induction,
    /// The interval abstraction run at every size up to a bound.
    Abstraction,
    /// The concrete interpreter on integer inputs.
    Bounded,
}

/// One proof obligation and how it ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Obligation {
    /// What is claimed (e.g. "race freedom").
    pub name: String,
    /// How it was settled (or attempted).
    pub method: Method,
    /// True when it holds, false when refuted, `None` when not settled.
    pub holds: Option<bool>,
    /// The sizes it covers, the operator class, or why it failed.
    pub detail: String,
    /// Seconds taken.
    pub seconds: f64,
}

/// The result of [`prove_all_sizes`](crate::prove_all_sizes).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// The kernel's name.
    pub kernel: String,
    /// The answer.
    pub verdict: Verdict,
    /// Which operators the functional proof covers.
    pub operators: String,
    /// What the verdict assumes of the launch (the contract's preconditions, when the proof
    /// is restricted to the launches they admit).
    pub assumptions: Vec<String>,
    /// Every obligation attempted, in order.
    pub obligations: Vec<Obligation>,
    /// Seconds in total.
    pub seconds: f64,
}

impl Outcome {
    /// A one-line verdict for tables: `✓ all sizes`, `✓ sizes ≤ B`, `✗ …` or `? …`.
    pub fn short(&self) -> String {
        let dom = |d: &SizeDomain| match d {
            SizeDomain::All => "",
            SizeDomain::PowersOfTwo => " (powers of two)",
        };
        match &self.verdict {
            Verdict::ProvedAllSizes { domain } => format!("✓ all sizes{}", dom(domain)),
            Verdict::ProvedUpTo { bound, domain, .. } => {
                format!("✓ sizes ≤ {bound}{}", dom(domain))
            }
            Verdict::Refuted { size, reason, .. } => format!("✗ at size {size}: {reason}"),
            Verdict::Unknown { reason } => format!("? {reason}"),
        }
    }
}
