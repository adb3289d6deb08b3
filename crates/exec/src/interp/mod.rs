//! The concrete interpreter: runs thread code block by block with dynamic checks.

mod alu;
mod budget;
pub(crate) mod collective;
mod context;
mod cooperative;
mod findings;
pub(crate) mod footprint;
mod interblock;
mod memory;
mod race;
mod run;
mod scheduler;
mod special;
mod step;
mod worker;

pub use run::{run, run_program};
