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
//! ```
//! use warpsafe_ir::{opt, BinOp, Expr, KernelBuilder, MemRef, ScalarType};
//!
//! let mut b = KernelBuilder::new("sum4");
//! let y = b.buffer_param("y", ScalarType::I32, true);
//! let s = b.let_("s", Expr::i32(0));
//! b.for_range("i", Expr::i32(0), Expr::i32(4), Expr::i32(1), |b, i| {
//!     let next = Expr::binary(BinOp::Add, b.var(s), i);
//!     b.assign(s, next);
//! });
//! b.store(MemRef::Global(y), vec![Expr::i32(0)], b.var(s));
//! let fast = opt::optimize(&b.finish());
//! assert!(!fast.to_string().contains("for"));
//! assert!(fast.to_string().contains("y[0] = 6;"));
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
