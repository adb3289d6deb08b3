//! Errors that stop a permission check before any obligation is decided.

use warpsafe_ir::Span;

/// A malformed annotation, a kernel the frontend rejects, or a file without kernels.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PermError {
    /// An annotation that does not parse or does not make sense where it is.
    #[error("{message}")]
    Annotation {
        /// What is wrong.
        message: String,
        /// The offending annotation text.
        span: Span,
    },
    /// The CUDA-C frontend rejected the source.
    #[error("{message}")]
    Frontend {
        /// The frontend's message.
        message: String,
        /// Where.
        span: Span,
    },
    /// The file defines no `__global__` kernel.
    #[error("no `__global__` kernel in the file")]
    NoKernel,
    /// The file defines no kernel of the name asked for.
    #[error("no kernel `{name}` (kernels: {have})")]
    NoKernelNamed {
        /// The name asked for.
        name: String,
        /// The file's kernels, comma-separated.
        have: String,
    },
}

impl PermError {
    /// An annotation error at `span`.
    pub fn annotation(span: Span, message: impl Into<String>) -> PermError {
        PermError::Annotation {
            message: message.into(),
            span,
        }
    }

    /// The source span the error points at, if any.
    pub fn span(&self) -> Option<Span> {
        match self {
            PermError::Annotation { span, .. } | PermError::Frontend { span, .. } => Some(*span),
            PermError::NoKernel | PermError::NoKernelNamed { .. } => None,
        }
    }
}
