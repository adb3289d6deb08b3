//! Polynomial systems in the text format of `warpsafe groebner` (`examples/systems/`).

use warpsafe_groebner::parse_system;

/// Seed files and directories, relative to the repository root.
pub const SEEDS: &[&str] = &["examples/systems", "fuzz/seeds/poly"];

/// Extensions of seed files found in the seed directories.
pub const EXTENSIONS: &[&str] = &["txt"];

/// The libFuzzer dictionary, relative to the repository root.
pub const DICTIONARY: &str = "fuzz/dict/poly.dict";

/// Parses `src`; errors must point inside it, and a parsed system printed back must parse to
/// the same system.
pub fn run(src: &str) -> Result<(), String> {
    let lines = src.matches('\n').count() + 1;
    let system = parse_system(src).map_err(|e| {
        assert!(
            e.line >= 1 && e.line <= lines && e.column >= 1,
            "error `{}` at {}:{} of a {lines}-line input",
            e.message,
            e.line,
            e.column
        );
        e.message
    })?;
    let text = system.to_text();
    match parse_system(&text) {
        Ok(again) => assert!(again == system, "printing changes the system:\n{text}"),
        Err(e) => panic!("the printed system does not parse: {e}\n{text}"),
    }
    Ok(())
}
