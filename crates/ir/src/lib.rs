//! The warpsafe kernel IR: what a kernel is, independent of where it came from.
//!
//! Frontends (CUDA C, the `#[kernel]` macro) produce a [`Kernel`]; the interpreter, code
//! generator and verifiers consume it. The IR is plain data: structured, explicitly typed
//! (every [`Expr`] carries its [`ScalarType`]; operands of an operator share one type and
//! frontends insert the casts C leaves implicit), with a [`Span`] on every node, and
//! serialisable as JSON.
//!
//! ```
//! use warpsafe_ir::{check_kernel, BinOp, Dim, Expr, KernelBuilder, MemRef, ScalarType};
//!
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
//! check_kernel(&kernel).expect("well typed");
//! assert!(kernel.to_string().contains("y[i_0] = x[i_0] + y[i_0];"));
//! ```

mod builder;
mod category;
mod expr;
mod half;
mod init;
mod kernel;
pub mod opt;
mod print;
mod span;
mod stmt;
mod typeck;
mod types;
mod value;

pub use builder::KernelBuilder;
pub use category::Category;
pub use expr::{BinOp, Builtin, Dim, Expr, ExprKind, LogicOp, MathFn, MemRef, UnOp};
pub use half::F16;
pub use init::{named_constant, BufferInit, InitNumber};
pub use kernel::{
    ArrayDecl, ArrayId, Contract, Kernel, LengthSpec, Module, Param, ParamId, ParamKind,
    UncheckedAnnotation, VarDecl, VarId,
};
pub use span::{SourceFile, Span};
pub use stmt::{AtomicOp, Block, BlockVoteKind, Check, ShuffleKind, Stmt, StmtKind, VoteKind};
pub use typeck::{check_kernel, TypeError};
pub use types::ScalarType;
pub use value::Value;
