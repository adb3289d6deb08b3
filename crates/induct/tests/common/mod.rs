//! Loading the shipped examples.

#![allow(dead_code)]

use std::path::PathBuf;
use warpsafe_equiv::Spec;
use warpsafe_ir::Kernel;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn kernel(rel: &str) -> Kernel {
    let src = std::fs::read_to_string(root().join(rel)).expect("example exists");
    warpsafe_cuda_front::compile(&src)
        .expect("example compiles")
        .kernels
        .remove(0)
}

pub fn spec(rel: &str) -> Spec {
    let text = std::fs::read_to_string(root().join(rel)).expect("spec exists");
    Spec::parse(&text).expect("spec parses")
}

pub const KS: &str = "examples/kernels/kogge_stone_scan.cu";
pub const KS_SPEC: &str = "examples/specs/kogge_stone_scan.spec";
pub const BL: &str = "examples/kernels/blelloch_scan.cu";
pub const BL_SPEC: &str = "examples/specs/blelloch_scan.spec";
pub const RED: &str = "examples/kernels/reduce_sequential.cu";
pub const RED_SPEC: &str = "examples/induct/reduce_sequential.spec";
pub const KS_INT: &str = "examples/induct/kogge_stone_int.cu";
pub const KS_INT_SPEC: &str = "examples/induct/kogge_stone_int.spec";
pub const BL_INT: &str = "examples/induct/blelloch_scan_int.cu";
pub const BL_INT_SPEC: &str = "examples/induct/blelloch_scan_int.spec";
