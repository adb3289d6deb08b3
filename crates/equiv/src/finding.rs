//! Findings of the symbolic executor: the foundation's categories plus the reasons a run
//! cannot be exact (a data-dependent branch or address: "not a structured CTA").

use serde::Serialize;
use warpsafe_ir::{Category, Span};

/// What a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Issue {
    /// A bug of one of the foundation's categories (`race`, `divergence`, `oob`, …).
    Bug(Category),
    /// A branch, address or warp mask depends on input data: the CTA is not structured,
    /// and the run cannot go on exactly.
    NotStructured,
    /// An operation the real-number model has no meaning for.
    Unsupported,
    /// The block ran past its instruction budget.
    StepLimit,
    /// The check's memory or time budget ran out (`--max-memory`, `--timeout`).
    Budget,
}

impl Issue {
    /// The stable name: a category name, `not-structured`, `unsupported`, `step-limit` or
    /// `budget`.
    pub fn name(self) -> &'static str {
        match self {
            Issue::Bug(c) => c.name(),
            Issue::NotStructured => "not-structured",
            Issue::Unsupported => "unsupported",
            Issue::StepLimit => "step-limit",
            Issue::Budget => "budget",
        }
    }

    /// The category, for bugs.
    pub fn category(self) -> Option<Category> {
        match self {
            Issue::Bug(c) => Some(c),
            _ => None,
        }
    }

    /// True when the run stopped short of the kernel's end for a reason other than a bug (its
    /// outputs are then not final, so they prove nothing and refute nothing by themselves).
    pub fn is_incomplete(self) -> bool {
        matches!(
            self,
            Issue::NotStructured | Issue::Unsupported | Issue::StepLimit | Issue::Budget
        )
    }

    /// True for bugs that make a kernel wrong (every category but the warnings `overflow`).
    pub fn is_error(self) -> bool {
        matches!(self, Issue::Bug(c) if !c.is_warning_by_default())
    }
}

/// A thread at a source position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Place {
    /// `blockIdx`.
    pub block: [u32; 3],
    /// `threadIdx`.
    pub thread: [u32; 3],
    /// The instruction's source span.
    pub span: Span,
    /// 1-based source line, when the source text is known.
    pub line: Option<usize>,
}

/// One finding of a symbolic run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// What kind.
    pub issue: Issue,
    /// The stable name of `issue`.
    pub kind: &'static str,
    /// A complete sentence.
    pub message: String,
    /// Where it happened.
    pub at: Place,
    /// The other party (earlier access of a race, other thread of a divergence).
    pub other: Option<Place>,
}

impl Finding {
    /// Fills in source lines from the kernel's source text.
    pub fn set_lines(&mut self, source: &str) {
        let line = |s: Span| {
            (!s.is_dummy()).then(|| {
                let end = (s.lo as usize).min(source.len());
                source[..end].bytes().filter(|&b| b == b'\n').count() + 1
            })
        };
        self.at.line = line(self.at.span);
        if let Some(o) = &mut self.other {
            o.line = line(o.span);
        }
    }
}
