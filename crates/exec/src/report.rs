//! What a run reports: the buffers after the run, findings and statistics.

use crate::{Arg, Space};
use serde::Serialize;
use warpsafe_ir::{Category, Span};

/// The result of running a kernel.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// The arguments after the run (buffers hold what the kernel wrote).
    pub args: Vec<Arg>,
    /// Bugs found, deduplicated by category and sites, in block then thread order.
    pub findings: Vec<Finding>,
    /// Counters and time.
    pub stats: Stats,
}

impl Outcome {
    /// True when some finding has severity [`Severity::Error`].
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// The findings of category `c`.
    pub fn of(&self, c: Category) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.category == c)
    }
}

/// One bug found at run time: the first occurrence at a site (pair), with how often it recurred.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// What kind of bug.
    pub category: Category,
    /// Error or warning.
    pub severity: Severity,
    /// A complete sentence describing the first occurrence.
    pub message: String,
    /// The thread and source position of the (later) access or event.
    pub at: Site,
    /// The other party: the earlier access of a race, the other thread of a divergence.
    pub other: Option<Site>,
    /// The memory cell involved, if any.
    pub location: Option<Location>,
    /// How many times this category and site pair occurred.
    pub count: u64,
}

/// A thread and a source position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Site {
    /// `blockIdx`.
    pub block: [u32; 3],
    /// `threadIdx`.
    pub thread: [u32; 3],
    /// Source span of the instruction.
    pub span: Span,
}

/// A memory cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    /// Source name of the buffer or array.
    pub memory: String,
    /// Its memory space.
    pub space: Space,
    /// Byte offset from the start of the allocation.
    pub byte_offset: i64,
    /// Element index (byte offset / element size).
    pub index: i64,
}

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A bug.
    Error,
    /// Suspicious but possibly intended (overflow unless denied, a failed assumption).
    Warning,
}

/// Counters of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Instructions executed, summed over threads.
    pub thread_instructions: u64,
    /// Blocks run.
    pub blocks: u64,
    /// Threads run.
    pub threads: u64,
    /// Block barriers released (summed over blocks).
    pub barriers: u64,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
}
