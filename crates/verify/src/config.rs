//! What a verification run is asked to do: launch dimensions, properties, solver settings.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// Launch dimensions: symbolic (every legal launch) or fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DimSpec {
    /// Every legal value: each dimension ≥ 1; blocks have at most 1024 threads (z ≤ 64), grids
    /// at most 2^31−1 × 65535 × 65535 blocks.
    Any,
    /// Exactly these dimensions.
    Fixed([u32; 3]),
}

/// A property the verifier proves or refutes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Property {
    /// No data races (shared and global memory).
    Race,
    /// Every barrier and warp collective reached uniformly.
    Divergence,
    /// Every access in bounds.
    Bounds,
    /// No signed overflow, no division by zero, no wrapping unsigned index arithmetic.
    Overflow,
}

impl Property {
    /// Every property, in report order.
    pub const ALL: [Property; 4] = [
        Property::Race,
        Property::Divergence,
        Property::Bounds,
        Property::Overflow,
    ];

    /// `race`, `divergence`, `bounds` or `overflow`.
    pub fn name(self) -> &'static str {
        match self {
            Property::Race => "race",
            Property::Divergence => "divergence",
            Property::Bounds => "bounds",
            Property::Overflow => "overflow",
        }
    }

    /// Parses a name.
    pub fn from_name(s: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// Settings of one verification run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Block dimensions.
    pub block: DimSpec,
    /// Grid dimensions.
    pub grid: DimSpec,
    /// Properties to check.
    pub properties: Vec<Property>,
    /// Solver time limit per query.
    pub timeout: Duration,
    /// Legacy model: threads of one warp execute in lock-step and never race.
    pub lockstep_warps: bool,
    /// Directory to write every query to as `NAME.smt2`.
    pub dump_smt: Option<PathBuf>,
    /// Parallel solver processes.
    pub jobs: usize,
    /// Replay counterexamples in the interpreter.
    pub replay: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            block: DimSpec::Any,
            grid: DimSpec::Any,
            properties: Property::ALL.to_vec(),
            timeout: Duration::from_secs(10),
            lockstep_warps: false,
            dump_smt: None,
            jobs: 2,
            replay: true,
        }
    }
}

impl Config {
    /// The default configuration with the dimensions the kernel's contract fixes.
    pub fn for_kernel(kernel: &warpsafe_ir::Kernel) -> Config {
        Config {
            block: kernel
                .contract
                .block_dim
                .map_or(DimSpec::Any, DimSpec::Fixed),
            grid: kernel
                .contract
                .grid_dim
                .map_or(DimSpec::Any, DimSpec::Fixed),
            ..Config::default()
        }
    }
}
