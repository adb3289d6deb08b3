//! What a run checks and how it schedules.

use warpsafe_ir::Category;

/// Options of one run of the interpreter.
#[derive(Clone, Debug)]
pub struct Options {
    /// Legacy model: accesses by threads of one warp are always ordered (implicit warp sync).
    pub lockstep_warps: bool,
    /// Which dynamic checks run.
    pub checks: Checks,
    /// Categories reported as errors even when they are warnings by default; the kernel's
    /// `contract.deny` is added by the run.
    pub deny: Vec<Category>,
    /// At most this many distinct findings (one per category and site pair, each with a count).
    pub max_findings: usize,
    /// Run blocks in parallel (results are identical either way).
    pub parallel: bool,
    /// A block that executes more thread-instructions than this stops the run with
    /// [`ExecError::StepLimit`](crate::ExecError::StepLimit) (an infinite loop, usually).
    pub max_block_instructions: u64,
    /// All blocks of a launch together may execute at most this many thread-instructions;
    /// past it the run stops with [`ExecError::StepLimit`](crate::ExecError::StepLimit)
    /// (`block: None`). A launch with more threads than this is refused before it runs.
    pub max_total_instructions: u64,
    /// `Some(bytes)`: refuse a launch whose memory estimate
    /// ([`estimate_memory`](crate::estimate_memory)) is over `bytes` even with one block
    /// running at a time ([`ExecError::MemoryLimit`](crate::ExecError::MemoryLimit)), and run
    /// fewer blocks at once when that keeps it under. `None`: no limit.
    pub max_memory: Option<u64>,
    /// `Some(seed)`: run one random legal schedule drawn from `seed` instead of the default
    /// one — warps of a block interleaved after random numbers of instructions, the lanes of
    /// a warp advanced in random groups (independent thread scheduling; lock-step warps keep
    /// their lanes together), blocks one at a time in random order. A race-free kernel
    /// without floating-point atomics computes the same bits under every schedule.
    pub schedule_seed: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            lockstep_warps: false,
            checks: Checks::default(),
            deny: Vec::new(),
            max_findings: 100,
            parallel: true,
            max_block_instructions: 1 << 32,
            max_total_instructions: u64::MAX,
            max_memory: None,
            schedule_seed: None,
        }
    }
}

/// Switches for the dynamic checks; all on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checks {
    /// Data races (happens-before, shared and global memory).
    pub race: bool,
    /// Out-of-bounds accesses.
    pub bounds: bool,
    /// Reads of uninitialised shared or local memory.
    pub uninit: bool,
    /// Integer division or remainder by zero.
    pub div_by_zero: bool,
    /// Signed integer overflow.
    pub overflow: bool,
    /// Barrier and warp-sync divergence (deadlock). When off, barriers release the threads
    /// that reached them.
    pub divergence: bool,
}

impl Default for Checks {
    fn default() -> Self {
        Checks::all()
    }
}

impl Checks {
    /// Every check on.
    pub fn all() -> Checks {
        Checks {
            race: true,
            bounds: true,
            uninit: true,
            div_by_zero: true,
            overflow: true,
            divergence: true,
        }
    }

    /// Every check off (plain execution).
    pub fn none() -> Checks {
        Checks {
            race: false,
            bounds: false,
            uninit: false,
            div_by_zero: false,
            overflow: false,
            divergence: false,
        }
    }
}
