//! The functional prover's integration tests, one binary: each file is a module.

mod examples;
mod flash_attention;
mod math_library;
mod online_softmax;
mod support;
