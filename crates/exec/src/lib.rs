//! The warpsafe execution engine: thread code and a concrete interpreter with dynamic checks.
//!
//! A [`Kernel`](warpsafe_ir::Kernel) is lowered ([`compile`]) to thread code — flat
//! per-thread instructions over typed registers, the form every frontend shares — and run
//! ([`run`], [`run_program`]) on a launch configuration and arguments. Warps execute in SIMT
//! lock-step with min-pc reconvergence; blocks run in parallel. A kernel with a grid barrier
//! (`this_grid().sync()`) runs as a cooperative launch: every block stays alive and runs up to
//! each grid barrier before any block goes past it. While running, the interpreter
//! checks for data races (happens-before over barriers and warp syncs, within and between
//! blocks), barrier divergence, out-of-bounds accesses, uninitialised shared/local reads,
//! division by zero, signed overflow and failed assertions, and reports them as [`Finding`]s.
//!
//! ```
//! use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options};
//! use warpsafe_ir::{BinOp, Dim, Expr, KernelBuilder, MemRef, ScalarType, Value};
//!
//! // y[i] = x[i] + y[i] for i < n
//! let mut b = KernelBuilder::new("vector_add");
//! let n = b.scalar_param("n", ScalarType::U32);
//! let x = b.buffer_param("x", ScalarType::F32, false);
//! let y = b.buffer_param("y", ScalarType::F32, true);
//! let i = b.let_("i", b.global_index(Dim::X));
//! b.if_(Expr::binary(BinOp::Lt, b.var(i), b.param(n)), |b| {
//!     let sum = Expr::binary(
//!         BinOp::Add,
//!         b.load(MemRef::Global(x), vec![b.var(i)]),
//!         b.load(MemRef::Global(y), vec![b.var(i)]),
//!     );
//!     b.store(MemRef::Global(y), vec![b.var(i)], sum);
//! });
//! let kernel = b.finish();
//!
//! let args = vec![
//!     Arg::Scalar(Value::U32(100)),
//!     Arg::Buffer(Buffer::from_f32(&vec![1.0; 100])),
//!     Arg::Buffer(Buffer::from_f32(&vec![2.0; 100])),
//! ];
//! let out = run(&kernel, &LaunchConfig::linear(4, 32), args, &Options::default()).unwrap();
//! assert!(out.findings.is_empty());
//! let Arg::Buffer(y) = &out.args[2] else { unreachable!() };
//! assert_eq!(y.to_f32(), vec![3.0; 100]);
//! ```

mod contract;
mod error;
mod interp;
mod launch;
mod limits;
mod options;
mod program;
mod report;
pub mod thread;

pub use contract::eval_contract_expr;
pub use error::ExecError;
pub use interp::collective::source_lane as shuffle_source_lane;
pub use interp::footprint::{estimate_memory, MemoryEstimate};
pub use interp::{run, run_program};
pub use launch::{Arg, Buffer, LaunchConfig};
pub use limits::{default_memory_limit, ByteSize};
pub use options::{Checks, Options};
pub use program::{compile, thread_code_text, Program};
pub use report::{Finding, Location, Outcome, Severity, Site, Stats};
pub use thread::code::Space;
pub use thread::lower::LowerError;
