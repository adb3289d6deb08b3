//! Fuzz entry points of warpsafe's parsers: one function per input language, shared by the
//! libFuzzer targets of `fuzz_targets/` (nightly, `cargo +nightly fuzz run <target>`) and the
//! bounded stable runs in each parser crate's tests (`tests/fuzz_*.rs`, driven by
//! `fuzz/bounded/driver.rs`).
//!
//! Each module names its seed files and dictionary and has a `run` that parses one input (and
//! lowers it where that is cheap), checks what must hold of any answer (errors point inside the
//! input, printed output parses back to the same thing) and returns the error message of a
//! rejected input. It panics only on a bug.

pub mod cuda;
pub mod perm;
pub mod poly;
pub mod ptx;
pub mod spec;
