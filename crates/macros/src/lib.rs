//! The `#[kernel]` and `#[kernel_fn]` attributes of warpsafe (use them through the `warpsafe`
//! crate, which documents the kernel language).
//!
//! A kernel body is translated into code that *records* IR when run (the approach of CubeCL's
//! `#[cube]`), plus a second copy compiled as ordinary Rust against `warpsafe::dsl` so that rustc
//! type-checks it. Constructs outside the subset are compile errors pointing at the construct.

mod context;
mod expr;
mod helper;
mod intrinsics;
mod kernel;
mod launch;
mod native;
mod shadow;
mod signature;
mod span;
mod stmt;
mod types;

use proc_macro::TokenStream;

/// Turns a function written in the kernel subset of Rust into a module of the same name with
/// `ir()`, `try_ir()`, `source_file()`, `launch(&backend, grid, block, args…)`,
/// `launch_with(&backend, &cfg, args…)` and `native(args…)` (the body as plain Rust, one
/// thread's run, which `Backend::native()` calls for every thread).
///
/// Parameters: scalars (`bool`, `i32`, `u32`, `i64`, `u64`, `f32`, `f64`) by value, `&[T]`
/// (read-only buffer) and `&mut [T]` (written buffer, copied back after the launch).
///
/// Body: `let`/`let mut` (optionally typed), assignment and compound assignment, arithmetic,
/// bitwise, comparison and short-circuit operators, `as` casts, literals (unsuffixed ones take
/// their type from their uses, as in Rust), `if`/`else` (also as a value), `for i in a..b`,
/// `for i in (a..b).step_by(s)`, `while`, `loop`, `break`, `continue`, `return`, indexing
/// `a[i]`/`a[i][j]` with any integer type, `const` items and Rust constants from outside, the
/// builtins, arrays, collectives and math of `warpsafe::dsl`, the methods `abs sqrt exp exp2 ln
/// log2 log10 sin cos tan tanh floor ceil round trunc powf mul_add min max clamp len`, and calls
/// to `#[kernel_fn]` helpers. The body is also compiled as plain Rust against `warpsafe::dsl`,
/// so rustc checks its types. Anything else is a compile error at the construct.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    kernel::expand(attr.into(), item.into())
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}

/// Marks a helper callable from kernels; each call is inlined into the calling kernel's IR.
#[proc_macro_attribute]
pub fn kernel_fn(attr: TokenStream, item: TokenStream) -> TokenStream {
    helper::expand(attr.into(), item.into())
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}
