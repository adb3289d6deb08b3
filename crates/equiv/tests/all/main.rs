//! The integration tests of `equiv`, one module per subject, in one test binary (one
//! link instead of one per file).

mod common;

mod activations;
mod atomic_bitops;
mod atomic_splitk;
mod data_addresses;
mod data_branches;
mod families;
mod float_noise;
mod fuzz_spec;
mod honest;
mod kernels;
mod lockstep_volatile;
mod math_library;
mod spec_overflow;
mod specs;
mod translation;
