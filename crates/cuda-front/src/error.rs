//! Frontend errors: a message, the source span it points at, and an optional note.

use warpsafe_ir::Span;

/// A frontend error with the span (byte range in the original source text) it points at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct FrontError {
    /// What is wrong.
    pub message: String,
    /// Where, in the original source text.
    pub span: Span,
    /// Extra context (for example the macro or helper involved).
    pub note: Option<String>,
}

impl FrontError {
    /// An error at `span` without a note.
    pub fn new(span: Span, message: impl Into<String>) -> FrontError {
        FrontError {
            message: message.into(),
            span,
            note: None,
        }
    }

    /// Attaches a note.
    pub fn with_note(mut self, note: impl Into<String>) -> FrontError {
        self.note = Some(note.into());
        self
    }
}

/// The result type used throughout the frontend.
pub type Result<T, E = FrontError> = std::result::Result<T, E>;

/// Shorthand for returning an error at `span`.
pub(crate) fn err<T>(span: Span, message: impl Into<String>) -> Result<T> {
    Err(FrontError::new(span, message))
}
