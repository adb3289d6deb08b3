//! The integration tests of `groebner`, one module per subject, in one test binary (one
//! link instead of one per file).

mod agreement;
mod block_order;
mod checker;
mod dense_backend;
mod dense_kernel;
mod fuzz_parse;
mod random_systems;
mod round_hook;
mod systems_files;
