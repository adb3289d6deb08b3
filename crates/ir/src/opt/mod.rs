//! IR-to-IR optimisation for execution: removes the overhead of unoptimised kernels (counted
//! loops over template constants, register arrays indexed by loop counters, constant
//! sub-expressions) before the kernel is lowered to thread code.
//!
//! Every transformation is exact for the engines that run thread code: the optimised kernel
//! writes the same bits to every buffer and reports the same findings (same spans, threads
//! and indices) as the original; copied statements keep their original spans. What could
//! change an outcome is left alone: signed overflow, division by zero and wide shifts are not
//! folded, floats are not folded, loops with barriers, collectives, `break`, `continue` or
//! `return` are not unrolled, and a local array keeps its memory unless every access has a
//! constant in-bounds index and every read follows a write of its element.
//!
//! The result is meant for lowering, not for the verifiers: a variable may be set by several
//! `let`s (copies of a loop body) or by none (an array element), which [`crate::check_kernel`]
//! rejects.
//!
//! ```
//! use warpsafe_ir::{opt, BinOp, Expr, KernelBuilder, MemRef, ScalarType};
//!
//! let mut b = KernelBuilder::new("square");
//! let y = b.buffer_param("y", ScalarType::I32, true);
//! let four = b.let_("four", Expr::binary(BinOp::Add, Expr::i32(2), Expr::i32(2)));
//! let square = Expr::binary(BinOp::Mul, b.var(four), b.var(four));
//! b.store(MemRef::Global(y), vec![Expr::i32(0)], square);
//! let fast = opt::optimize(&b.finish());
//! assert!(fast.to_string().contains("y[0] = 16;"));
//! ```

mod dead;
mod fold;
mod propagate;
mod scalarize;
mod unroll;
mod visit;

pub use unroll::UnrollLimits;

use crate::Kernel;

/// `kernel` with constants propagated and folded, counted loops unrolled within the default
/// [`UnrollLimits`], and local arrays with constant indices replaced by variables.
pub fn optimize(kernel: &Kernel) -> Kernel {
    optimize_with(kernel, UnrollLimits::default())
}

/// [`optimize`] with explicit unrolling limits.
pub fn optimize_with(kernel: &Kernel, limits: UnrollLimits) -> Kernel {
    let mut k = kernel.clone();
    propagate::propagate(&mut k.body, &k.vars);
    unroll::unroll(&mut k.body, &k.vars, limits);
    propagate::propagate(&mut k.body, &k.vars);
    scalarize::scalarize(&mut k);
    propagate::propagate(&mut k.body, &k.vars);
    dead::remove_dead_constants(&mut k.body, k.vars.len());
    k
}
