//! Why an abstract run did not establish correctness.

use crate::Summary;
use serde::Serialize;
use std::fmt;
use warpsafe_ir::Span;

/// What stopped an abstract run, with the source position where it happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Failure {
    /// What went wrong.
    pub kind: FailureKind,
    /// The statement or expression involved.
    pub span: Span,
}

/// The kinds of [`Failure`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum FailureKind {
    /// Two threads touched one cell between the same barriers, at least one writing.
    Race {
        /// The memory's name.
        array: String,
        /// The flattened element index.
        index: u64,
        /// The two threads.
        threads: [u32; 2],
    },
    /// A barrier reached by only some threads of the block.
    Divergence {
        /// Threads that arrived.
        arrived: u32,
        /// Threads in the block.
        block: u32,
    },
    /// The operator combined summaries that are not adjacent (or not disjoint).
    BadCombination {
        /// Left operand.
        left: Summary,
        /// Right operand.
        right: Summary,
    },
    /// An input-derived value was used other than as an operand of the scan operator.
    OperatorMisuse(String),
    /// An index outside the memory's extent.
    OutOfBounds {
        /// The memory's name.
        array: String,
        /// The offending index.
        index: i64,
    },
    /// A read of memory nothing wrote.
    Uninitialised {
        /// The memory's name.
        array: String,
        /// The flattened element index.
        index: u64,
    },
    /// An output element differs from the spec.
    WrongOutput {
        /// The output buffer.
        buffer: String,
        /// The element index.
        index: u64,
        /// What the spec asks for.
        expected: Summary,
        /// What the kernel computed (`None` when it is not a summary).
        got: Option<Summary>,
    },
    /// The kernel takes its data from another input buffer than the spec names.
    WrongInput {
        /// The input buffer the spec names.
        spec: String,
        /// The input buffer the kernel reads.
        kernel: String,
    },
    /// A construct outside what the abstraction handles.
    Unsupported(String),
}

impl FailureKind {
    /// True for failures that show a bug at this size (rather than a limit of the
    /// abstraction): races, divergence, bad accesses, and outputs that combine a different
    /// set of inputs than the spec (which some integer input tells apart under `+`).
    pub fn is_bug(&self) -> bool {
        match self {
            FailureKind::Race { .. }
            | FailureKind::Divergence { .. }
            | FailureKind::OutOfBounds { .. }
            | FailureKind::Uninitialised { .. } => true,
            FailureKind::WrongOutput { got, .. } => got.is_some(),
            _ => false,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            FailureKind::Race {
                array,
                index,
                threads,
            } => write!(
                f,
                "data race on {array}[{index}] between threads {} and {}",
                threads[0], threads[1]
            ),
            FailureKind::Divergence { arrived, block } => write!(
                f,
                "barrier divergence: {arrived} of {block} threads reach __syncthreads()"
            ),
            FailureKind::BadCombination { left, right } => {
                write!(f, "combines {left} with {right}, which are not adjacent")
            }
            FailureKind::OperatorMisuse(m) => write!(f, "input-derived value {m}"),
            FailureKind::OutOfBounds { array, index } => {
                write!(f, "out-of-bounds access {array}[{index}]")
            }
            FailureKind::Uninitialised { array, index } => {
                write!(f, "read of uninitialised {array}[{index}]")
            }
            FailureKind::WrongOutput {
                buffer,
                index,
                expected,
                got,
            } => match got {
                Some(g) => write!(f, "{buffer}[{index}] combines inputs {g}, the spec asks for {expected}"),
                None => write!(f, "{buffer}[{index}] is not a combination of inputs, the spec asks for {expected}"),
            },
            FailureKind::WrongInput { spec, kernel } => write!(
                f,
                "the kernel reads its data from `{kernel}`, the spec from `{spec}`"
            ),
            FailureKind::Unsupported(m) => write!(f, "unsupported: {m}"),
        }
    }
}
