//! CUDA C through the whole frontend: preprocessor, parser, lowering, `//@` header, type check.

/// Seed files and directories, relative to the repository root.
pub const SEEDS: &[&str] = &[
    "examples/kernels",
    "examples/equiv",
    "examples/induct",
    "fuzz/seeds/cuda",
];

/// Extensions of seed files found in the seed directories.
pub const EXTENSIONS: &[&str] = &["cu"];

/// The libFuzzer dictionary, relative to the repository root.
pub const DICTIONARY: &str = "fuzz/dict/cuda.dict";

/// Compiles `src` to IR and prints every kernel; errors must point inside `src`.
pub fn run(src: &str) -> Result<(), String> {
    match warpsafe_cuda_front::compile(src) {
        Ok(module) => {
            for k in &module.kernels {
                let _ = k.to_string();
            }
            Ok(())
        }
        Err(errors) => {
            assert!(!errors.is_empty(), "compile failed without an error");
            for e in &errors {
                assert!(
                    e.span.lo <= e.span.hi && e.span.hi as usize <= src.len(),
                    "span {}..{} of `{}` is outside the {}-byte input",
                    e.span.lo,
                    e.span.hi,
                    e.message,
                    src.len()
                );
            }
            Err(errors[0].message.clone())
        }
    }
}
