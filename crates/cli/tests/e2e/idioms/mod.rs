//! Kernels written the way real projects and GPUVerify's corpora write them (our own kernels
//! in their idioms), each beside a buggy twin.

mod arbitrary;
mod atomic_bitops;
mod barrier_loops;
mod common;
mod file_scope_shared;
mod fn_pointers;
mod gotos_memops;
mod gpuverify;
mod pointers;
mod record_globals;
mod records;
mod reinterpret;
mod textures_vec;
mod vector_math;
