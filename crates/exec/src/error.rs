//! Errors a launch can fail with before or instead of running.

use crate::thread::lower::LowerError;
use thiserror::Error;

/// Why a kernel could not be compiled or launched. Bugs found while running are
/// [`Finding`](crate::Finding)s, not errors.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ExecError {
    /// The number of arguments differs from the number of parameters.
    #[error("kernel `{kernel}` takes {expected} argument(s) but {found} were given")]
    ArgCount {
        /// The kernel.
        kernel: String,
        /// Its parameter count.
        expected: usize,
        /// Arguments given.
        found: usize,
    },
    /// An argument does not fit its parameter (scalar for buffer, wrong type, …).
    #[error("argument for parameter `{param}` must be {expected}, found {found}")]
    ArgType {
        /// The parameter's name.
        param: String,
        /// What the parameter takes.
        expected: String,
        /// What was given.
        found: String,
    },
    /// Launch dimensions CUDA would reject.
    #[error("invalid launch configuration: {0}")]
    InvalidLaunch(String),
    /// The kernel declares an `extern __shared__` array but the launch gives no dynamic shared memory.
    #[error("`extern __shared__` array `{array}` needs dynamic shared memory, but the launch gives 0 bytes")]
    MissingDynamicShared {
        /// The array.
        array: String,
    },
    /// A contract expression could not be evaluated.
    #[error("cannot evaluate contract expression: {0}")]
    Contract(String),
    /// A block ran past the instruction budget of [`Options::max_block_instructions`](crate::Options).
    #[error("block {block:?} executed more than {limit} thread-instructions without finishing (an infinite loop?); raise the limit if the kernel is just long")]
    StepLimit {
        /// The block that hit the limit.
        block: [u32; 3],
        /// The budget.
        limit: u64,
    },
    /// The kernel could not be lowered to thread code.
    #[error(transparent)]
    Lower(#[from] LowerError),
}
