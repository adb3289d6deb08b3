//! Errors a launch can fail with before or instead of running.

use crate::limits::ByteSize;
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
    /// The launch ran past its thread-instruction budget: one block past
    /// [`Options::max_block_instructions`](crate::Options), or all blocks together past
    /// [`Options::max_total_instructions`](crate::Options). Usually an infinite loop.
    #[error("{}", step_limit_text(*limit, block))]
    StepLimit {
        /// The block that ran past the per-block budget; `None` for the launch-wide budget.
        block: Option<[u32; 3]>,
        /// The budget, in thread-instructions.
        limit: u64,
    },
    /// The interpreter's memory estimate for the launch, even running one block at a time,
    /// is over [`Options::max_memory`](crate::Options).
    #[error(
        "the interpreter would need about {} for this launch ({} for buffers and race history, plus {} per running block), more than the memory limit of {}",
        ByteSize(*needed),
        ByteSize(*launch_bytes),
        ByteSize(*block_bytes),
        ByteSize(*limit)
    )]
    MemoryLimit {
        /// The estimate with one block running at a time, in bytes.
        needed: u64,
        /// The part held once per launch.
        launch_bytes: u64,
        /// The part held by each running block.
        block_bytes: u64,
        /// The limit, in bytes.
        limit: u64,
    },
    /// The kernel could not be lowered to thread code.
    #[error(transparent)]
    Lower(#[from] LowerError),
}

fn step_limit_text(limit: u64, block: &Option<[u32; 3]>) -> String {
    match block {
        Some([x, y, z]) => format!(
            "block ({x},{y},{z}) executed more than {limit} thread-instructions without finishing (an infinite loop?)"
        ),
        None => format!(
            "the launch needs more than {limit} thread-instructions in all (an infinite loop, or a launch too large for the budget)"
        ),
    }
}
