//! Thread code: the flat per-thread form every engine executes, its lowering from IR and a printer.

pub mod code;
pub mod display;
pub mod lower;
