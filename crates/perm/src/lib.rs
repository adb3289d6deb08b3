//! The warpsafe permission checker: fractional-permission annotations
//! (`//@ thread requires Perm(a[tid], 1)`, `//@ barrier ensures …`) on CUDA-C kernels.
//!
//! The annotation language (extraction from `//@` comments with byte spans, parsing, error
//! reporting), exact permission arithmetic, C integer semantics as SMT terms, a z3 driver,
//! and [`check`]: symbolic execution of one arbitrary thread between top-level barriers,
//! with the obligations access coverage, barrier redistribution, split/combine, functional
//! postconditions and barrier uniformity (see `docs/permissions.md` for exactly what is
//! checked and what is reported `unknown`).
//!
//! ```
//! let src = "//@ thread requires Perm(a[tid], 1/2)\n__global__ void k(int* a) {}\n";
//! let ex = warpsafe_perm::extract(src).expect("annotations parse");
//! assert_eq!(ex.annotations.len(), 1);
//! assert_eq!(ex.annotations[0].kind, warpsafe_perm::AnnotKind::ThreadRequires);
//! assert!(!ex.frontend_source.contains("Perm"));
//! ```

mod arith;
mod check;
mod error;
mod extract;
mod frac;
mod parse;
mod solver;
mod syntax;
mod term;

pub use arith::{c_div, c_rem, convert, in_type, sort_of, wrap};
pub use check::{
    check, check_attributes, check_kernel, check_named, Obligation, Report, Verdict, ASSUMPTIONS,
};
pub use error::PermError;
pub use extract::{annotation, extract, Extracted};
pub use frac::{Frac, Share};
pub use parse::parse_formula;
pub use solver::{Sat, Solver};
pub use syntax::{AnnotKind, Annotation, SpecExpr, SpecIndex, SpecKind, SpecOp};
pub use term::{int_sym, linear_in, tid, Sort, Term};
