//! Reports of `equiv` and `prove`: verdict names, exit codes, counterexamples as tensors.

use crate::finding::Finding;
use crate::replay::Replay;
use crate::symexec::{SymOutcome, SymStats};
use serde::Serialize;
use warpsafe_algebra::SymValue;
use warpsafe_exec::LaunchConfig;

/// A run of one kernel as the report shows it.
#[derive(Clone, Debug, Serialize)]
pub struct KernelRun {
    /// The kernel's name.
    pub name: String,
    /// The launch that ran.
    pub launch: LaunchConfig,
    /// Findings of the symbolic run.
    pub findings: Vec<Finding>,
    /// Counters.
    pub stats: SymStats,
    /// Buffers that started as a constant (`--init`, `//@ init`) instead of input symbols.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub init: Vec<crate::BufferStart>,
}

impl KernelRun {
    pub(crate) fn of(o: &SymOutcome) -> KernelRun {
        KernelRun {
            name: o.kernel.clone(),
            launch: o.launch,
            findings: o.findings.clone(),
            stats: o.stats.clone(),
            init: o.starts.clone(),
        }
    }
}

/// Per output buffer: how its elements compared.
#[derive(Clone, Debug, Default, Serialize)]
pub struct OutputSummary {
    /// The buffer.
    pub name: String,
    /// Its length.
    pub elements: u64,
    /// Elements compared.
    pub compared: u64,
    /// Elements proved equal.
    pub equal: u64,
    /// Elements refuted.
    pub different: u64,
    /// Elements neither proved nor refuted.
    pub unknown: u64,
    /// Elements not compared (written by only one side when single blocks ran).
    pub skipped: u64,
}

/// Elements proved equal by evaluation at random points of a prime field (Schwartz–Zippel):
/// two different polynomials agree at all of them only with a small probability.
#[derive(Clone, Debug, Serialize)]
pub struct IdentityTest {
    /// Elements so proved.
    pub elements: u64,
    /// Points per element.
    pub points: u32,
    /// The prime (drawn at random in [2^61, 2^62)).
    pub prime: u64,
    /// The seed the prime and the points were drawn from.
    pub seed: u64,
    /// log₂ of a bound on the probability that any of these elements is not equal after all
    /// (the per-element bounds summed).
    pub error_log2: f64,
}

impl IdentityTest {
    /// One line for reports.
    pub fn text(&self) -> String {
        format!(
            "{} element(s) equal by evaluation at {} random point(s) mod the prime {} \
             (Schwartz-Zippel, seed {}): a wrong `equal` has probability below 2^{:.0} \
             (--exact decides by canonical forms)",
            self.elements,
            self.points,
            self.prime,
            self.seed,
            self.error_log2.ceil()
        )
    }
}

/// Values of one input tensor in a counterexample (the elements the differing outputs read).
#[derive(Clone, Debug, Serialize)]
pub struct TensorValues {
    /// Buffer or scalar name.
    pub name: String,
    /// `(index, exact value, float value)`; a scalar has the index 0.
    pub entries: Vec<(u64, String, f64)>,
}

/// A concrete input on which the two sides differ at one output element.
#[derive(Clone, Debug, Serialize)]
pub struct Counterexample {
    /// The output buffer.
    pub buffer: String,
    /// The element index.
    pub index: u64,
    /// The reference's (or spec's) value there.
    pub expected: String,
    /// The kernel's (optimised kernel's) value there.
    pub actual: String,
    /// The expected value as a term.
    pub expected_term: String,
    /// The actual value as a term.
    pub actual_term: String,
    /// The inputs, grouped into tensors; every other input element takes its value from
    /// `seed` (`warpsafe_algebra::Assignment`).
    pub inputs: Vec<TensorValues>,
    /// Seed of the assignment.
    pub seed: u64,
    /// True when the values were computed exactly (no transcendental functions).
    pub exact: bool,
    /// Both sides run concretely in the interpreter on this input (IEEE floats): the values
    /// that make the verdict `different`.
    pub replay: Option<Replay>,
}

pub(crate) fn tensors(values: &[SymValue]) -> Vec<TensorValues> {
    let mut out: Vec<TensorValues> = Vec::new();
    for v in values {
        let entry = (v.index.unwrap_or(0), v.exact.clone(), v.value);
        match out.iter_mut().find(|t| t.name == v.name) {
            Some(t) => t.entries.push(entry),
            None => out.push(TensorValues {
                name: v.name.clone(),
                entries: vec![entry],
            }),
        }
    }
    for t in &mut out {
        t.entries.sort_by_key(|e| e.0);
    }
    out
}

/// The verdict of a comparison: `equal`, `different`, `unknown`, or the category of a finding
/// in either kernel (`race`, `divergence`, `oob`, `uninit`, …).
pub(crate) fn verdict_of(findings: &[&Finding], different: bool, unknown: bool) -> &'static str {
    if let Some(f) = findings.iter().find(|f| f.issue.is_error()) {
        return f.kind;
    }
    if different {
        return "different";
    }
    if unknown || findings.iter().any(|f| f.issue.is_incomplete()) {
        return "unknown";
    }
    "equal"
}

/// The exit code for a verdict name: 0 equal, 3 unknown, 1 otherwise.
pub fn exit_code(verdict: &str) -> i32 {
    match verdict {
        "equal" => 0,
        "unknown" => 3,
        _ => 1,
    }
}
