//! Permission annotations: `//@ kernel requires …` comments in CUDA C, and bare formulas.

use warpsafe_perm::{extract, parse_formula, PermError};

/// Seed files and directories, relative to the repository root.
pub const SEEDS: &[&str] = &["examples/perm", "fuzz/seeds/perm"];

/// Extensions of seed files found in the seed directories.
pub const EXTENSIONS: &[&str] = &["cu", "txt"];

/// The libFuzzer dictionary, relative to the repository root.
pub const DICTIONARY: &str = "fuzz/dict/perm.dict";

/// Parses all of `src` as one formula and extracts its annotations; every span must point
/// inside `src`. The outcome is the extraction's error, else the formula's.
pub fn run(src: &str) -> Result<(), String> {
    let inside = |e: &PermError| {
        if let Some(s) = e.span() {
            assert!(
                s.lo <= s.hi && s.hi as usize <= src.len(),
                "span {}..{} of `{e}` is outside the {}-byte input",
                s.lo,
                s.hi,
                src.len()
            );
        }
    };
    let formula = parse_formula(src, 0).map(|_| ()).map_err(|e| {
        inside(&e);
        e.to_string()
    });
    let ex = extract(src).map_err(|e| {
        inside(&e);
        e.to_string()
    })?;
    assert_eq!(ex.frontend_source.len(), src.len());
    for a in &ex.annotations {
        assert!(a.span.hi as usize <= src.len() && a.formula.span.hi as usize <= src.len());
    }
    formula
}
