//! CUDA for warpsafe: IR → readable CUDA C, NVRTC compilation to PTX with an on-disk cache,
//! and GPU launches through the CUDA driver.
//!
//! The generated code's types are exactly the IR's: every operator is applied to operands of
//! one declared type, casts are explicit, and shifts and atomics are spelled so that their
//! meaning matches the IR's (wrapping integers, shift amounts past the width giving zero).
//! NVRTC is loaded at run time from the PyPI wheel `nvidia-cuda-nvrtc`; where it (or a GPU)
//! is missing, calls return errors that say so — nothing panics.
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

mod cache;
mod codegen;
mod gpu;
mod locate;
mod nvrtc;

pub use codegen::{generate, uses_grid_sync, CodegenError};
pub use gpu::{check_contract, device_available, launch, CudaError};
pub use nvrtc::{
    compile as compile_ptx, library_path as nvrtc_path, version as nvrtc_version, CompileOptions,
    Compiled, NvrtcError,
};
