//! PTX: the parser, the printer (printed PTX parses back to the same module) and the lowering
//! of every entry to thread code.

use warpsafe_ptx::{lower_with, parse, LowerOptions};

/// Seed files and directories, relative to the repository root.
pub const SEEDS: &[&str] = &["crates/ptx/tests/data", "fuzz/seeds/ptx"];

/// Extensions of seed files found in the seed directories.
pub const EXTENSIONS: &[&str] = &["ptx"];

/// The libFuzzer dictionary, relative to the repository root.
pub const DICTIONARY: &str = "fuzz/dict/ptx.dict";

/// Parses `src`, checks the printed module parses back to itself and lowers every entry.
pub fn run(src: &str) -> Result<(), String> {
    let lines = src.matches('\n').count() + 1;
    let module = parse(src).map_err(|e| {
        assert!(
            e.line >= 1 && e.line <= lines && e.column >= 1,
            "error `{}` at line {}, column {} of a {lines}-line input",
            e.message,
            e.line,
            e.column
        );
        e.message
    })?;
    let printed = module.to_string();
    match parse(&printed) {
        Ok(again) => assert!(again == module, "printing changes the module:\n{printed}"),
        Err(e) => panic!("printed PTX does not parse: {e}\n{printed}"),
    }
    let mut first_error = None;
    for f in module.functions.iter().filter(|f| f.is_entry) {
        let opts = LowerOptions {
            entry: Some(&f.name),
            source: Some(src),
            ..LowerOptions::default()
        };
        if let Err(e) = lower_with(&module, &opts) {
            first_error.get_or_insert(e.message);
        }
    }
    first_error.map_or(Ok(()), Err)
}
