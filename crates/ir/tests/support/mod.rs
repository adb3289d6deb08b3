//! Helpers of the IR's integration tests.

pub mod spanned;
