//! The PTX frontend of warpsafe: a line-oriented, hand-written parser for the PTX that NVRTC
//! emits, producing a typed syntax tree that prints back as valid PTX, and a lowering of that
//! tree to warpsafe's thread code, so the checking interpreter runs PTX kernels.
//!
//! Verifying PTX means trusting no source-to-assembly compiler: the code checked is the code
//! that runs. Unsupported instructions are reported as errors naming the instruction and line.
//! Lowering gives pointers provenance: each pointer parameter is a global buffer, each
//! `.shared`/`.local` variable an allocation, and every load and store resolves to
//! (allocation, byte offset, width) — see [`lower`] and [`lower_with`].
//!
//! ```
//! use warpsafe_ptx::{parse, Item, Operand};
//!
//! let ptx = r#"
//! .version 9.5
//! .target sm_90
//! .address_size 64
//!
//! .visible .entry scale(
//!     .param .u64 scale_param_0
//! )
//! {
//!     .reg .f32 %f<3>;
//!     .reg .b32 %r<2>;
//!     .reg .b64 %rd<5>;
//!
//!     ld.param.u64 %rd1, [scale_param_0];
//!     cvta.to.global.u64 %rd2, %rd1;
//!     mov.u32 %r1, %tid.x;
//!     mul.wide.u32 %rd3, %r1, 4;
//!     add.s64 %rd4, %rd2, %rd3;
//!     ld.global.f32 %f1, [%rd4];
//!     mul.f32 %f2, %f1, 0f40000000; // times 2.0
//!     st.global.f32 [%rd4], %f2;
//!     ret;
//! }
//! "#;
//! let module = parse(ptx)?;
//! let kernel = &module.functions[0];
//! assert!(kernel.is_entry);
//! assert_eq!(kernel.params[0].name, "scale_param_0");
//! let Item::Instr(mov) = &kernel.body[2] else { unreachable!() };
//! assert_eq!(mov.operands[1], Operand::Reg("%tid.x".into()));
//! // Printing gives PTX that parses back to the same module.
//! assert_eq!(parse(&module.to_string())?, module);
//!
//! // Lowered, it runs on the interpreter: `scale_param_0` is found to be an f32 buffer.
//! use warpsafe_exec::{run_program, Arg, Buffer, LaunchConfig, Options};
//! let program = warpsafe_ptx::lower(&module, None)?;
//! let args = vec![Arg::Buffer(Buffer::from_f32(&[1.0, 2.0, 3.0]))];
//! let out = run_program(&program, &LaunchConfig::linear(1, 3), args, &Options::default())?;
//! assert!(out.findings.is_empty());
//! let Arg::Buffer(x) = &out.args[0] else { unreachable!() };
//! assert_eq!(x.to_f32(), [2.0, 4.0, 6.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod ast;
mod error;
mod lexer;
mod lift;
mod lower;
mod parse;
mod print;
mod snippet;

pub use ast::{
    Function, Immediate, Instruction, Item, Module, Operand, Pred, RegDecl, Space, VarDecl,
};
pub use error::ParseError;
pub use lift::{lift, LiftError};
pub use lower::{lower, lower_with, LowerError, LowerOptions, GRID_BARRIER_FUNCTION};
pub use parse::parse;
pub use snippet::parse_statements;
