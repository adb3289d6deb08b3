//! Helpers shared by the example tests: compile a bundled kernel, read its header.
#![allow(dead_code)]

use std::path::PathBuf;
use warpsafe_ir::{Category, Kernel};
use warpsafe_verify::{Config, DimSpec};

/// The directory of the bundled kernels.
pub fn kernels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/kernels")
}

/// Every bundled `.cu` file name, sorted.
pub fn all_files() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(kernels_dir())
        .expect("examples/kernels")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cu"))
        .collect();
    v.sort();
    v
}

/// Compiles the first kernel of `file`.
pub fn kernel(file: &str) -> Kernel {
    let src = std::fs::read_to_string(kernels_dir().join(file)).expect("read kernel");
    let m = warpsafe_cuda_front::compile(&src).unwrap_or_else(|e| panic!("{file}: {e:?}"));
    m.kernels.into_iter().next().expect("one kernel")
}

/// The `//@ expect` categories of a kernel.
pub fn expects(k: &Kernel) -> Vec<Category> {
    k.contract.expect.clone()
}

/// The verifier configuration the header asks for.
pub fn config(k: &Kernel) -> Config {
    Config {
        block: k.contract.block_dim.map_or(DimSpec::Any, DimSpec::Fixed),
        grid: k.contract.grid_dim.map_or(DimSpec::Any, DimSpec::Fixed),
        jobs: 2,
        ..Config::default()
    }
}
