//! Errors that prevent a symbolic run or a comparison from starting.

use thiserror::Error;

/// Why a kernel could not be run symbolically or compared.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum EquivError {
    /// The kernel could not be lowered to thread code.
    #[error("{0}")]
    Compile(String),
    /// No block/grid dimensions in the header or the configuration.
    #[error("kernel `{0}` has no launch configuration: give --block/--grid or a `//--blockDim=… --gridDim=…` header")]
    MissingLaunch(String),
    /// An integer scalar parameter has no value.
    #[error("kernel `{kernel}`: integer parameter `{param}` needs a value (`//@ arg {param} = …` or --arg)")]
    MissingScalar {
        /// The kernel.
        kernel: String,
        /// The parameter.
        param: String,
    },
    /// A buffer has no length.
    #[error(
        "kernel `{kernel}`: buffer `{param}` needs a length (`//@ len({param}) = …` or --len)"
    )]
    MissingLen {
        /// The kernel.
        kernel: String,
        /// The buffer.
        param: String,
    },
    /// The launch is invalid or violates the kernel's preconditions.
    #[error("{0}")]
    Launch(String),
    /// The two kernels do not fit together (an output missing, a length mismatch, …).
    #[error("{0}")]
    Mismatch(String),
    /// The spec does not parse or does not fit the kernel.
    #[error("{0}")]
    Spec(crate::spec::SpecError),
    /// A CUDA source did not compile.
    #[error("{0}")]
    Source(String),
}
