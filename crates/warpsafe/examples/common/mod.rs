//! Kernels, plain-Rust references and random inputs shared by the examples and the tests.
#![allow(dead_code)]

pub mod kernels;
pub mod reference;
pub mod rng;
