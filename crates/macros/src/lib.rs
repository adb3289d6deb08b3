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
mod perm;
mod shadow;
mod signature;
mod span;
mod stmt;
mod types;

use proc_macro::TokenStream;

/// Turns a function written in the kernel subset of Rust into a module of the same name with
/// `ir()`, `try_ir()`, `source_file()`, `permissions()`, `launch(&backend, grid, block, args…)`,
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
///
/// Permission annotations (checked by `warpsafe_perm::check_attributes`; the formula language
/// is that of the CUDA-C `//@` annotations, `docs/permissions.md`) are `#[perm(key =
/// "formula", …)]` attributes, each with one or more pairs:
///
/// - on the function, written *after* `#[kernel]` (before it, rustc rejects the unknown
///   attribute): `kernel_requires`, `kernel_ensures`, `thread_requires`, `thread_ensures`;
/// - on a `sync_threads();` statement: `barrier_requires`, `barrier_ensures`;
/// - on a `for`, `while` or `loop` statement: `invariant`.
///
/// ```ignore
/// #[kernel]
/// #[perm(kernel_requires = "Perm(a[0..blockDim.x], 1)")]
/// #[perm(thread_requires = "Perm(a[tid], 1)", thread_ensures = "Perm(a[tid], 1)")]
/// fn shift(a: &mut [i32]) {
///     let tid = thread_idx().x;
///     let v = a[tid];
///     #[perm(barrier_ensures = "Perm(a[tid], 1)")]
///     sync_threads();
///     a[tid] = v + 1;
/// }
/// ```
///
/// The macro removes them before reading the body, so they change neither the IR nor the
/// generated code, and lists them in the module's `permissions()`: the checker's keywords
/// (`"thread requires"`, …), the formula, and the byte offset of the formula text in
/// `source_file()`, measured as the IR's spans are. A wrong key, a value that is not a string
/// literal (or contains escape sequences, which would break the offsets), a barrier key on
/// anything but `sync_threads();`, an `invariant` on anything but a loop, and any `#[perm]` in
/// a `#[kernel_fn]` helper are compile errors at the attribute.
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
