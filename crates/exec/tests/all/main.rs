//! The integration tests of `exec`, one module per subject, in one test binary (one
//! link instead of one per file).

mod common;

mod arbitrary;
mod atomic_bitops;
mod determinism;
mod differential;
mod findings;
mod grid_sync;
mod lockstep_volatile;
mod lowering;
mod math_library;
mod opt_examples;
mod opt_findings;
mod throughput;
mod votes;
