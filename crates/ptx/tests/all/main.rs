//! The integration tests of `ptx`, one module per subject, in one test binary (one
//! link instead of one per file).

mod examples;
mod fuzz_bounded;
mod lift;
mod lower;
mod lower_atom_bitops;
mod lower_bits;
mod lower_clock;
mod lower_divide;
mod lower_expf;
mod lower_gaps;
mod lower_mma;
mod lower_robustness;
mod lower_rounding;
mod lower_units;
mod lower_vote;
mod nvcc_gaps;
mod robustness;
