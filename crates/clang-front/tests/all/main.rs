//! The integration tests of `clang-front`, one module per subject, in one test binary (one
//! link instead of one per file).

mod common;

mod agree;
mod causes;
mod cpp;
mod driver_api;
mod fn_pointers;
mod gotos;
mod headers;
mod host_lengths;
mod inline_asm;
mod launch_api;
mod math_library;
mod math_out_params;
mod memops;
mod methods;
mod mixed_records;
mod nested_records;
mod params;
mod printf;
mod record_pointers;
mod reinterpret;
mod texture3d;
mod textures;
mod unions;
mod vector_math;
mod wmma;
