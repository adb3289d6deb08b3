//! The PTX frontend of warpsafe: a line-oriented, hand-written parser for the PTX that NVRTC
//! emits, producing a typed syntax tree that prints back as valid PTX.
//!
//! Verifying PTX means trusting no source-to-assembly compiler: the code checked is the code
//! that runs. Unsupported instructions are reported as errors naming the instruction and line.
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
//! # Ok::<(), warpsafe_ptx::ParseError>(())
//! ```

mod ast;
mod error;
mod lexer;
mod parse;
mod print;

pub use ast::{
    Function, Immediate, Instruction, Item, Module, Operand, Pred, RegDecl, Space, VarDecl,
};
pub use error::ParseError;
pub use parse::parse;
