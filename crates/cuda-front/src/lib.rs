//! The CUDA-C frontend of warpsafe: reads the subset of CUDA C described in
//! `docs/cuda-subset.md` and lowers each `__global__` kernel to the warpsafe IR, with C's
//! implicit conversions made explicit, `__device__` helpers inlined, and the header
//! (`//--blockDim=…`, `//@ …`) turned into each kernel's contract.
//!
//! The pipeline is [`preprocess`] → [`parse`] → lowering → header → type check; [`compile`]
//! runs all of it. Every error carries the span of the offending source text, and no input
//! makes the frontend panic.
//!
//! ```
//! let src = r#"
//! //--blockDim=256 --gridDim=4
//! //@ len(x) = n
//! __global__ void scale(float* x, int n) {
//!     int i = blockIdx.x * blockDim.x + threadIdx.x;
//!     if (i < n) x[i] = 2.0f * x[i];
//! }
//! "#;
//! let module = warpsafe_cuda_front::compile(src).expect("compiles");
//! let k = module.kernel("scale").unwrap();
//! assert_eq!(k.contract.block_dim, Some([256, 1, 1]));
//! let text = k.to_string();
//! assert!(text.contains("let i_0: i32 = (i32)((blockIdx.x * blockDim.x) + threadIdx.x);"));
//! assert!(text.contains("x[i_0] = 2.0f * x[i_0];"));
//! ```

pub mod ast;
mod consteval;
mod error;
mod header;
mod header_init;
mod lexer;
mod lower;
mod parser;
mod preprocess;
mod texture_decl;
mod types;

pub use error::FrontError;
pub use texture_decl::{texture_decls, Address, TextureDecl};

use warpsafe_ir::{check_kernel, Module};

/// Runs the preprocessor and renders the resulting tokens as text separated by spaces
/// (for inspecting what macro expansion produced).
pub fn preprocess(source: &str) -> Result<String, FrontError> {
    let pp = preprocess::preprocess(source)?;
    let words: Vec<&str> = pp.tokens.iter().map(|t| t.text.as_str()).collect();
    Ok(words.join(" ").trim_end().to_string())
}

/// Preprocesses and parses `source` into a syntax tree (no lowering, no type checks).
pub fn parse(source: &str) -> Result<ast::TranslationUnit, FrontError> {
    let pp = preprocess::preprocess(source)?;
    parser::parse(pp.tokens)
}

/// Compiles CUDA-C source to an IR module: preprocess → parse → lower to IR → fill each
/// kernel's contract from the header → type-check every kernel.
pub fn compile(source: &str) -> Result<Module, Vec<FrontError>> {
    let pp = preprocess::preprocess(source).map_err(|e| vec![e])?;
    let tu = parser::parse(pp.tokens).map_err(|e| vec![e])?;
    finish(&tu, source, &pp.macros)
}

/// Compiles a syntax tree built by another parser (the clang frontend) from `source`: lowers
/// it to IR, fills each kernel's contract from the header lines of `source` (header
/// expressions see the object-like `#define`s of `source`), and type-checks every kernel.
pub fn compile_unit(tu: &ast::TranslationUnit, source: &str) -> Result<Module, Vec<FrontError>> {
    let macros = preprocess::preprocess(&preprocess::defines_only(source))
        .map(|pp| pp.macros)
        .unwrap_or_default();
    finish(tu, source, &macros)
}

fn finish(
    tu: &ast::TranslationUnit,
    source: &str,
    macros: &preprocess::Macros,
) -> Result<Module, Vec<FrontError>> {
    let globals = lower::file_constants(tu).map_err(|e| vec![e])?;
    let mut kernels = lower::lower_unit(tu)?;
    header::apply_header(source, macros, &globals, &mut kernels)?;
    let mut errors = Vec::new();
    for k in &kernels {
        if let Err(errs) = check_kernel(k) {
            errors.extend(errs.into_iter().map(|e| {
                FrontError::new(e.span, format!("internal type error: {}", e.message))
                    .with_note(format!("in kernel `{}`", k.name))
            }));
        }
    }
    if errors.is_empty() {
        Ok(Module { kernels })
    } else {
        Err(errors)
    }
}
