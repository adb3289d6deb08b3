//! The integration tests of `perm`, one module per subject, in one test binary (one
//! link instead of one per file).

mod annotations;
mod checker;
mod division_chains;
mod fuzz_parse;
mod named_kernel;
