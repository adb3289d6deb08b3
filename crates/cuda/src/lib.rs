//! CUDA C generation from the warpsafe IR.
//!
//! The output is readable `extern "C" __global__` CUDA C whose types are exactly the IR's:
//! every operator is applied to operands of one declared type, casts are explicit, and
//! shifts and atomics are spelled so that their meaning matches the IR's (wrapping integers,
//! shift amounts past the width giving zero).
//!
//! ```
//! use warpsafe_ir::{BinOp, Dim, Expr, KernelBuilder, MemRef, ScalarType};
//! let mut b = KernelBuilder::new("scale");
//! let x = b.buffer_param("x", ScalarType::F32, true);
//! let i = b.let_("i", b.global_index(Dim::X));
//! let v = Expr::binary(BinOp::Mul, b.load(MemRef::Global(x), vec![b.var(i)]), Expr::f32(2.0));
//! b.store(MemRef::Global(x), vec![b.var(i)], v);
//! let cuda = warpsafe_cuda::generate(&b.finish()).unwrap();
//! assert!(cuda.contains("extern \"C\" __global__ void scale(float* __restrict__ x)"));
//! assert!(cuda.contains("x[i_0] = (x[i_0] * 2.0f);"));
//! ```

mod codegen;

pub use codegen::{generate, CodegenError};
