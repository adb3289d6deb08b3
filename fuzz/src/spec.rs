//! The spec language of `warpsafe prove --spec` (and of `functional` and `induct`).

use warpsafe_equiv::Spec;

/// Seed files and directories, relative to the repository root.
pub const SEEDS: &[&str] = &[
    "examples/specs",
    "examples/equiv",
    "examples/induct",
    "fuzz/seeds/spec",
];

/// Extensions of seed files found in the seed directories.
pub const EXTENSIONS: &[&str] = &["spec"];

/// The libFuzzer dictionary, relative to the repository root.
pub const DICTIONARY: &str = "fuzz/dict/spec.dict";

/// Parses `src` as a spec; errors and every equation must point inside `src`.
pub fn run(src: &str) -> Result<(), String> {
    let inside = |lo: usize, hi: usize| lo <= hi && hi <= src.len();
    match Spec::parse(src) {
        Ok(spec) => {
            for eq in &spec.equations {
                assert!(
                    inside(eq.span.lo, eq.span.hi),
                    "equation span {}..{} outside the {}-byte input",
                    eq.span.lo,
                    eq.span.hi,
                    src.len()
                );
            }
            Ok(())
        }
        Err(e) => {
            assert!(
                inside(e.span.lo, e.span.hi),
                "span {}..{} of `{}` is outside the {}-byte input",
                e.span.lo,
                e.span.hi,
                e.message,
                src.len()
            );
            Err(e.message)
        }
    }
}
