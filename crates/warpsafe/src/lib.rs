//! warpsafe: GPU kernels written in Rust, checked on the CPU and run on CUDA.
//!
//! `#[kernel]` turns a function in a restricted Rust subset into warpsafe IR and a typed
//! `launch` function. The CPU backend runs the IR in the warpsafe interpreter with every check
//! on (races, barrier divergence, out-of-bounds, uninitialised reads, overflow); the native
//! backend runs the kernel body compiled as plain Rust, blocks in parallel ([`native`]); the
//! CUDA backend runs it on a GPU.
//!
//! ```
//! use warpsafe::prelude::*;
//!
//! #[kernel]
//! fn saxpy(n: u32, alpha: f32, x: &[f32], y: &[f32], r: &mut [f32]) {
//!     let i = block_idx().x * block_dim().x + thread_idx().x;
//!     if i < n {
//!         r[i] = alpha * x[i] + y[i];
//!     }
//! }
//!
//! let n = 1000;
//! let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
//! let y = vec![1.0f32; n as usize];
//! let mut r = vec![0.0f32; n as usize];
//! let report = saxpy::launch(&Backend::cpu(), 4, 256, n, 2.0, &x, &y, &mut r).unwrap();
//! assert!(report.is_clean());
//! assert_eq!(r[10], 21.0);
//! assert!(saxpy::ir().to_string().contains("saxpy"));
//! ```
//!
//! What a kernel body may contain is described in [`dsl`] and in the `#[kernel]` docs, and so
//! are the `#[perm(...)]` permission annotations a kernel may carry ([`dsl`], "Permission
//! annotations"), which `warpsafe-perm` checks against the kernel's IR.

#![warn(missing_docs)]

extern crate self as warpsafe;

mod backend;
mod build;
mod dim;
pub mod dsl;
pub mod native;
mod report;
mod scalar;

#[doc(hidden)]
pub mod __private;

pub use backend::{Backend, Launched};
pub use build::{BuildError, BuildMessage};
pub use dim::Dim3;
pub use report::{Engine, LaunchError, Report};
pub use scalar::{Float, Int, Number, Scalar};
pub use warpsafe_exec as exec;
pub use warpsafe_ir as ir;
pub use warpsafe_macros::{kernel, kernel_fn};

/// The launch configuration for `grid` blocks of `block` threads, to pass to a kernel's
/// `launch_with` (set `dynamic_shared_bytes` for kernels that use [`dsl::dyn_shared`]).
pub fn launch_config(grid: impl Into<Dim3>, block: impl Into<Dim3>) -> exec::LaunchConfig {
    __private::config(grid, block)
}

/// Everything a kernel file needs: the attributes, the kernel language and the backends.
pub mod prelude {
    pub use crate::dsl::*;
    pub use crate::{kernel, kernel_fn, launch_config, Backend, Dim3, LaunchError, Report};
}
