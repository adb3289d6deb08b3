//! What a symbolic run is given: launch overrides, scalar values, buffer lengths, which blocks.

use crate::budget::Limits;
use serde::Serialize;
use warpsafe_exec::LaunchConfig;
use warpsafe_ir::Value;

/// Which blocks of the grid the symbolic executor runs (every block by default: outputs of
/// other blocks are compared only when their blocks run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockSel {
    /// One block (`blockIdx`), by default block 0.
    One([u32; 3]),
    /// Every block of the grid (in parallel).
    #[default]
    All,
}

impl BlockSel {
    /// Block 0 only (the explicit shortcut `--block0-only`).
    pub const BLOCK0: BlockSel = BlockSel::One([0, 0, 0]);
}

/// A buffer that starts as a constant rather than as input symbols, as a report shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BufferStart {
    /// The buffer.
    pub name: String,
    /// Its elements' initial value, as written (`-inf`, `0`).
    pub value: String,
    /// Where the value comes from (`--init m=-inf`, the header's `//@ init(m) = -inf`).
    pub from: String,
}

/// Options of one symbolic run of one kernel.
#[derive(Clone, Debug)]
pub struct ExecConfig {
    /// Grid and block dimensions; the kernel's header (`//--blockDim`, `--gridDim`) otherwise.
    pub launch: Option<LaunchConfig>,
    /// Values of scalar parameters by name, overriding the header's `//@ arg` defaults.
    /// Integer scalars need a value; float scalars without one are input symbols.
    pub scalars: Vec<(String, Value)>,
    /// Buffer lengths in elements by name, overriding the header's `//@ len`.
    pub lens: Vec<(String, u64)>,
    /// Initial contents by buffer name (`--init m=-inf`): every element starts as the value
    /// (a number, `inf`, `-inf`, `INFINITY`, `FLT_MAX`, …), overriding the header's `//@ init`.
    pub init: Vec<(String, String)>,
    /// Which blocks run.
    pub blocks: BlockSel,
    /// Legacy model: threads of a warp are ordered with each other (implicit warp sync).
    pub lockstep_warps: bool,
    /// A block executing more thread-instructions than this stops with a finding.
    pub max_block_instructions: u64,
    /// Run blocks in parallel (results are identical either way).
    pub parallel: bool,
    /// Memory and time budgets; running out ends the run with a `budget` finding.
    pub limits: Limits,
}

impl Default for ExecConfig {
    fn default() -> Self {
        ExecConfig {
            launch: None,
            scalars: Vec::new(),
            lens: Vec::new(),
            init: Vec::new(),
            blocks: BlockSel::default(),
            lockstep_warps: false,
            max_block_instructions: 1 << 28,
            parallel: true,
            limits: Limits::default(),
        }
    }
}
