//! What a verification run is asked to do: launch dimensions, properties, solver settings.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// Launch dimensions: symbolic (every legal launch) or fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DimSpec {
    /// Every legal value in the dimensions the kernel reads (each ≥ 1; blocks have at most
    /// 1024 threads, z ≤ 64; grids at most 2^31−1 × 65535 × 65535 blocks). A dimension whose
    /// component (`.y`, `.z`) the kernel never reads is 1, and the report says so.
    Any,
    /// Every legal value in all three dimensions, read or not (`--block any,any,any`).
    AnyDims,
    /// Exactly these dimensions.
    Fixed([u32; 3]),
}

impl DimSpec {
    /// Per dimension: `Some(v)` when fixed to `v`, `None` when symbolic, for a kernel that
    /// reads `used` components.
    pub fn resolve(self, used: usize) -> [Option<u32>; 3] {
        match self {
            DimSpec::Fixed(v) => v.map(Some),
            DimSpec::AnyDims => [None; 3],
            DimSpec::Any => std::array::from_fn(|d| if d < used.max(1) { None } else { Some(1) }),
        }
    }
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
    /// Every `assert`, `__assert`, loop invariant and `__ensures` holds.
    Assert,
    /// Every read of shared or local memory follows, in barrier order, a write of its cell.
    Uninit,
}

impl Property {
    /// Every property, in report order.
    pub const ALL: [Property; 6] = [
        Property::Race,
        Property::Divergence,
        Property::Bounds,
        Property::Overflow,
        Property::Assert,
        Property::Uninit,
    ];

    /// `race`, `divergence`, `bounds` or `overflow`.
    pub fn name(self) -> &'static str {
        match self {
            Property::Race => "race",
            Property::Divergence => "divergence",
            Property::Bounds => "bounds",
            Property::Overflow => "overflow",
            Property::Assert => "assert",
            Property::Uninit => "uninit",
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
    /// When the whole run must end: queries asked later answer `unknown`.
    pub deadline: Option<std::time::Instant>,
    /// Legacy model: threads of one warp execute in lock-step and never race.
    pub lockstep_warps: bool,
    /// Directory to write every query to as `NAME.smt2`.
    pub dump_smt: Option<PathBuf>,
    /// Parallel solver processes.
    pub jobs: usize,
    /// Replay counterexamples in the interpreter.
    pub replay: bool,
    /// Buffers without a declared length have an arbitrary one (any access may be out of
    /// bounds) instead of an inferred length requirement.
    pub strict_bounds: bool,
    /// Report two unordered writes of one constant to a cell as a race (by default such a
    /// benign race is tolerated, with a note).
    pub strict_races: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            block: DimSpec::Any,
            grid: DimSpec::Any,
            properties: Property::ALL.to_vec(),
            timeout: Duration::from_secs(10),
            deadline: None,
            lockstep_warps: false,
            dump_smt: None,
            jobs: 2,
            replay: true,
            strict_bounds: false,
            strict_races: false,
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
