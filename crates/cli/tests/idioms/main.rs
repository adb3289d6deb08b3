//! Kernels written the way real projects and GPUVerify's corpora write them (our own kernels
//! in their idioms), each beside a buggy twin: one test binary, so the suite links it once.

#[path = "../corpus/mod.rs"]
mod corpus;

mod arbitrary;
mod atomic_bitops;
mod common;
mod fn_pointers;
mod gotos_memops;
mod gpuverify;
mod pointers;
mod record_globals;
mod records;
mod textures_vec;
