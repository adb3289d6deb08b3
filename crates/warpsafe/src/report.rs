//! What a launch reports, and why it can fail.

use crate::build::BuildError;
use std::fmt;
use warpsafe_exec::{ExecError, Finding, Severity, Stats};
use warpsafe_ir::Category;

/// Which engine ran a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The warpsafe interpreter, with every dynamic check.
    Cpu,
    /// A real GPU through CUDA (no checks).
    Cuda,
    /// The kernel body compiled as plain Rust, run once per thread (no checks).
    Native,
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Engine::Cpu => "cpu",
            Engine::Cuda => "cuda",
            Engine::Native => "native",
        })
    }
}

/// The result of a launch: which engine ran, why, and what the checks found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The kernel launched.
    pub kernel: String,
    /// The engine that ran it.
    pub engine: Engine,
    /// Why this engine ran (set by [`Backend::auto`](crate::Backend::auto)).
    pub reason: Option<String>,
    /// Findings of the CPU engine (empty for CUDA and native runs, which do not check).
    pub findings: Vec<Finding>,
    /// Counters of the CPU engine.
    pub stats: Option<Stats>,
}

impl Report {
    /// The error-severity findings.
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
    }

    /// The warning-severity findings.
    pub fn warnings(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
    }

    /// True when some finding has category `c`.
    pub fn has(&self, c: Category) -> bool {
        self.findings.iter().any(|f| f.category == c)
    }

    /// True when nothing at all was found.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// `Ok(self)` unless some finding is an error.
    pub fn into_result(self) -> Result<Report, LaunchError> {
        if self.errors().next().is_some() {
            Err(LaunchError::Findings(Box::new(self)))
        } else {
            Ok(self)
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} on {}", self.kernel, self.engine)?;
        if let Some(r) = &self.reason {
            write!(f, " ({r})")?;
        }
        if self.findings.is_empty() {
            return write!(f, ": no findings");
        }
        write!(f, ": {} finding(s)", self.findings.len())?;
        for x in &self.findings {
            let sev = match x.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            write!(f, "\n  {sev}[{}]: {}", x.category, x.message)?;
        }
        Ok(())
    }
}

/// Why a launch failed. Buffers passed as `&mut [T]` are copied back before findings are
/// reported, so they hold what the kernel wrote even for [`LaunchError::Findings`].
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// The kernel could not be recorded as IR.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The interpreter rejected the launch (bad dimensions, missing dynamic shared memory, …).
    #[error(transparent)]
    Exec(#[from] ExecError),
    /// The CUDA backend failed (no driver or device, compilation, driver error).
    #[error("CUDA: {0}")]
    Cuda(String),
    /// A thread of a native run failed (out-of-bounds index, division by zero, overflow in a
    /// debug build, …).
    #[error("native run: {0}")]
    Native(String),
    /// The run finished but the checks found errors (races, out-of-bounds, divergence, …).
    #[error("{0}")]
    Findings(Box<Report>),
    /// The engine returned buffers that do not match the arguments.
    #[error("internal: {0}")]
    Internal(String),
}

impl LaunchError {
    /// The report of a launch that ran but had error findings.
    pub fn report(&self) -> Option<&Report> {
        match self {
            LaunchError::Findings(r) => Some(r),
            _ => None,
        }
    }
}
